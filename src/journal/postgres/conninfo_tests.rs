use std::collections::HashMap;

use super::*;

#[derive(Default)]
struct FakeEnv {
    vars: HashMap<&'static str, &'static str>,
    files: HashMap<PathBuf, (String, bool)>,
}

impl Environment for FakeEnv {
    fn var(&self, name: &str) -> Option<String> {
        self.vars.get(name).map(|v| v.to_string())
    }
    fn home(&self) -> Option<PathBuf> {
        Some(PathBuf::from("/home/op"))
    }
    fn os_user(&self) -> Option<String> {
        Some("op".into())
    }
    fn read_private(&self, path: &Path) -> Option<(String, bool)> {
        self.files.get(path).cloned()
    }
}

#[test]
fn a_url_gives_user_password_hosts_ports_database_and_parameters() {
    let env = FakeEnv::default();
    let info = parse(
        "postgres://op%40a:s%3Acret@db1:6432,[::1]:6433/fleet?sslmode=verify-full&sslrootcert=/etc/ca.pem",
        &env,
    )
    .unwrap();
    assert_eq!(info.user, "op@a");
    assert_eq!(info.password.as_deref(), Some("s:cret"));
    assert_eq!(info.hosts, vec!["db1", "::1"]);
    assert_eq!(info.ports, vec![6432, 6433]);
    assert_eq!(info.dbname, "fleet");
    assert_eq!(info.sslmode, SslMode::VerifyFull);
    assert_eq!(
        info.root_certs,
        Some(RootCerts::File(PathBuf::from("/etc/ca.pem")))
    );
    assert!(!format!("{info:?}").contains("cret"), "no password shown");
}

#[test]
fn key_value_pairs_take_quotes_and_escapes() {
    let env = FakeEnv::default();
    let info = parse(
        "host=127.0.0.1 port=5433 dbname='my db' user=op_a password='it\\'s'",
        &env,
    )
    .unwrap();
    assert_eq!(info.hosts, vec!["127.0.0.1"]);
    assert_eq!(info.ports, vec![5433]);
    assert_eq!(info.dbname, "my db");
    assert_eq!(info.password.as_deref(), Some("it's"));
    assert_eq!(info.sslmode, SslMode::Prefer, "libpq's default");
}

#[test]
fn the_environment_fills_what_the_string_leaves_out() {
    let mut env = FakeEnv::default();
    env.vars.insert("PGHOST", "/tmp/pg");
    env.vars.insert("PGPORT", "5499");
    env.vars.insert("PGPASSWORD", "from-env");
    let info = parse("dbname=fleet", &env).unwrap();
    assert_eq!(info.hosts, vec!["/tmp/pg"]);
    assert_eq!(info.ports, vec![5499]);
    assert_eq!(info.user, "op");
    assert_eq!(info.password.as_deref(), Some("from-env"));
}

#[test]
fn the_password_file_is_read_only_when_private_and_matched_field_by_field() {
    let mut env = FakeEnv::default();
    let text = "# comment\ndb1:5432:other:op_a:wrong\ndb1:*:fleet:op_a:pa\\:ss\n*:*:*:*:fallback\n";
    env.files
        .insert(PathBuf::from("/home/op/.pgpass"), (text.into(), true));
    let info = parse("postgres://op_a@db1/fleet", &env).unwrap();
    assert_eq!(info.password.as_deref(), Some("pa:ss"));
    env.files
        .insert(PathBuf::from("/home/op/.pgpass"), (text.into(), false));
    let info = parse("postgres://op_a@db1/fleet", &env).unwrap();
    assert_eq!(info.password, None, "a file others can read is ignored");
    env.files
        .insert(PathBuf::from("/srv/pass"), ("*:*:*:*:named".into(), true));
    env.vars.insert("PGPASSFILE", "/srv/pass");
    let info = parse("postgres://op_a@db1/fleet", &env).unwrap();
    assert_eq!(info.password.as_deref(), Some("named"));
}

#[test]
fn bad_strings_name_the_parameter_at_fault() {
    let env = FakeEnv::default();
    let err = parse("host=db port=abc", &env).unwrap_err();
    assert!(err.contains("port \"abc\""), "{err}");
    let err = parse("host=db sslmode=verify-full", &env).unwrap_err();
    assert!(err.contains("sslrootcert"), "{err}");
    let err = parse("host=db colour=red", &env).unwrap_err();
    assert!(err.contains("\"colour\""), "{err}");
    let err = parse("postgres://db/x?sslmode=maybe", &env).unwrap_err();
    assert!(err.contains("sslmode=maybe"), "{err}");
}

#[test]
fn paths_are_not_taken_for_connection_strings() {
    assert!(is_postgres("postgres://db/fleet"));
    assert!(is_postgres("postgresql://db/fleet"));
    assert!(is_postgres("host=db dbname=fleet"));
    assert!(!is_postgres("/var/lib/fleetdeck/journal.sqlite"));
    assert!(!is_postgres("journal.sqlite"));
    assert!(!is_postgres("./a=b.sqlite"));
}

#[test]
fn several_hosts_with_read_write_pick_the_primary_and_options_pass_through() {
    let env = FakeEnv::default();
    let info = parse(
        "host=127.0.0.1,127.0.0.1 port=5433,5434 dbname=j user=op_a target_session_attrs=read-write options='-c lock_timeout=500ms'",
        &env,
    )
    .unwrap();
    assert_eq!(info.hosts, vec!["127.0.0.1", "127.0.0.1"]);
    assert_eq!(info.ports, vec![5433, 5434]);
    assert_eq!(info.target_session_attrs, SessionAttrs::ReadWrite);
    assert_eq!(info.options.as_deref(), Some("-c lock_timeout=500ms"));
    assert_eq!(
        info.display(),
        "postgres://op_a@127.0.0.1:5433,127.0.0.1:5434/j",
        "every host is named"
    );
    let url = parse(
        "postgres://op_a@db1:5432,db2:5432/j?target_session_attrs=read-write",
        &env,
    )
    .unwrap();
    assert_eq!(url.target_session_attrs, SessionAttrs::ReadWrite);
    assert_eq!(
        parse("host=db dbname=j user=u", &env)
            .unwrap()
            .target_session_attrs,
        SessionAttrs::Any,
        "libpq's default"
    );
    let err = parse("host=a,b user=u target_session_attrs=primary", &env).unwrap_err();
    assert!(
        err.contains("target_session_attrs=primary is not one of any, read-write, read-only"),
        "{err}"
    );
}
