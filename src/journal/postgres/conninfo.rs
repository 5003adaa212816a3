//! Connection strings as libpq reads them: a `postgres://` URL or `key=value` pairs, the
//! `PG*` environment variables as defaults, and the password from the string,
//! `PGPASSWORD` or a password file (`passfile`, `PGPASSFILE`, `~/.pgpass`). The driver
//! reads neither the environment nor password files, and knows no `sslmode=verify-full`,
//! so this is done here, as plain functions over the string and an environment.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How much transport security the connection needs (libpq's `sslmode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// Plain TCP or a unix socket.
    Disable,
    /// TLS when the server offers it, not authenticated (libpq's default).
    Prefer,
    /// TLS always, the server not authenticated.
    Require,
    /// TLS, the server's certificate chain checked against the CA file, not its name.
    VerifyCa,
    /// TLS, chain and host name checked: the only mode that authenticates the server.
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> Result<Self, String> {
        Ok(match value {
            "disable" => SslMode::Disable,
            "allow" | "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(format!(
                    "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                ));
            }
        })
    }
}

/// Which server of several a session must be on (libpq's `target_session_attrs`): the
/// hosts are tried in order until one fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionAttrs {
    /// Any server that answers (libpq's default).
    Any,
    /// A server that takes writes: the primary, never a standby. What a team journal on a
    /// replicated database wants with several hosts.
    ReadWrite,
    /// A server in read-only mode (a standby).
    ReadOnly,
}

impl SessionAttrs {
    fn parse(value: &str) -> Result<Self, String> {
        Ok(match value {
            "any" => SessionAttrs::Any,
            "read-write" => SessionAttrs::ReadWrite,
            "read-only" => SessionAttrs::ReadOnly,
            other => {
                return Err(format!(
                    "target_session_attrs={other} is not one of any, read-write, read-only"
                ));
            }
        })
    }
}

/// Where the trusted CA certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCerts {
    /// A PEM file.
    File(PathBuf),
    /// The operating system's trust store (`sslrootcert=system`).
    System,
}

/// A resolved connection: everything needed to connect, nothing left to the driver's
/// defaults.
#[derive(Clone, PartialEq, Eq)]
pub struct ConnInfo {
    /// Host names, addresses or unix socket directories, tried in order.
    pub hosts: Vec<String>,
    /// One port per host (or one for all).
    pub ports: Vec<u16>,
    /// The database.
    pub dbname: String,
    /// The role to log in as.
    pub user: String,
    /// The password, if one was found.
    pub password: Option<String>,
    /// Transport security.
    pub sslmode: SslMode,
    /// The CA certificates for `verify-ca` / `verify-full`.
    pub root_certs: Option<RootCerts>,
    /// Seconds to wait for a connection.
    pub connect_timeout: Option<u64>,
    /// What the server shows in `pg_stat_activity`.
    pub application_name: String,
    /// Which of the hosts a session must be on.
    pub target_session_attrs: SessionAttrs,
    /// Server settings for every session (`-c name=value …`, libpq's `options`), after
    /// the ones fleetdeck sets itself, so they win.
    pub options: Option<String>,
}

impl std::fmt::Debug for ConnInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.display())
    }
}

impl ConnInfo {
    /// The connection as a person reads it, without the password:
    /// `user@host:port/dbname`.
    pub fn display(&self) -> String {
        let hosts: Vec<String> = self
            .hosts
            .iter()
            .enumerate()
            .map(|(i, host)| {
                let port = self
                    .ports
                    .get(i)
                    .or(self.ports.first())
                    .copied()
                    .unwrap_or(5432);
                format!("{host}:{port}")
            })
            .collect();
        format!(
            "postgres://{}@{}/{}",
            self.user,
            hosts.join(","),
            self.dbname
        )
    }
}

/// What the environment offers: variables and the home directory.
pub trait Environment {
    /// A variable's value.
    fn var(&self, name: &str) -> Option<String>;
    /// The home directory.
    fn home(&self) -> Option<PathBuf>;
    /// The account the process runs as (libpq's default user).
    fn os_user(&self) -> Option<String>;
    /// A file's text and whether only its owner may read it.
    fn read_private(&self, path: &Path) -> Option<(String, bool)>;
}

/// The process's own environment.
pub struct ProcessEnvironment;

impl Environment for ProcessEnvironment {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }

    fn home(&self) -> Option<PathBuf> {
        std::env::var_os("HOME").map(PathBuf::from)
    }

    fn os_user(&self) -> Option<String> {
        self.var("USER").or_else(|| self.var("LOGNAME"))
    }

    fn read_private(&self, path: &Path) -> Option<(String, bool)> {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).ok()?;
        let text = std::fs::read_to_string(path).ok()?;
        Some((text, meta.permissions().mode() & 0o077 == 0))
    }
}

/// Whether `text` names a PostgreSQL journal rather than a file path: a `postgres://` or
/// `postgresql://` URL, or libpq `key=value` pairs.
pub fn is_postgres(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("postgres://")
        || t.starts_with("postgresql://")
        || (t.contains('=') && KEYWORDS.iter().any(|k| t.starts_with(&format!("{k}="))))
}

const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "sslmode",
    "sslrootcert",
    "connect_timeout",
    "application_name",
    "target_session_attrs",
    "options",
];

/// Reads a connection string with `env`'s defaults. Errors name the parameter at fault.
pub fn parse(text: &str, env: &dyn Environment) -> Result<ConnInfo, String> {
    let t = text.trim();
    let given = if t.starts_with("postgres://") || t.starts_with("postgresql://") {
        parse_url(t)?
    } else {
        parse_pairs(t)?
    };
    for key in given.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            return Err(format!(
                "unknown connection parameter {key:?} (known: {})",
                KEYWORDS.join(", ")
            ));
        }
    }
    let get = |key: &str, var: &str| given.get(key).cloned().or_else(|| env.var(var));
    let hosts: Vec<String> = get("host", "PGHOST")
        .or_else(|| given.get("hostaddr").cloned())
        .map(|h| h.split(',').map(str::to_string).collect())
        .unwrap_or_else(|| vec![default_host()]);
    let ports = match get("port", "PGPORT") {
        Some(p) => p
            .split(',')
            .map(|p| {
                p.parse::<u16>()
                    .map_err(|_| format!("port {p:?} is not a port number"))
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => vec![5432],
    };
    if ports.len() != 1 && ports.len() != hosts.len() {
        return Err(format!(
            "{} ports for {} hosts: give one port, or one per host",
            ports.len(),
            hosts.len()
        ));
    }
    let user = get("user", "PGUSER")
        .or_else(|| env.os_user())
        .ok_or("no user: set user= in the connection string or PGUSER")?;
    let dbname = get("dbname", "PGDATABASE").unwrap_or_else(|| user.clone());
    let sslmode = match get("sslmode", "PGSSLMODE") {
        Some(mode) => SslMode::parse(&mode)?,
        None => SslMode::Prefer,
    };
    let root_certs = match get("sslrootcert", "PGSSLROOTCERT") {
        Some(s) if s == "system" => Some(RootCerts::System),
        Some(path) => Some(RootCerts::File(PathBuf::from(path))),
        None => env
            .home()
            .map(|h| h.join(".postgresql/root.crt"))
            .filter(|p| env.read_private(p).is_some())
            .map(RootCerts::File),
    };
    if matches!(sslmode, SslMode::VerifyCa | SslMode::VerifyFull) && root_certs.is_none() {
        return Err(
            "sslmode=verify-full needs the server's CA: set sslrootcert=PATH (a PEM file) or sslrootcert=system"
                .to_string(),
        );
    }
    let connect_timeout = get("connect_timeout", "PGCONNECT_TIMEOUT")
        .map(|s| {
            s.parse::<u64>()
                .map_err(|_| format!("connect_timeout {s:?} is not a number of seconds"))
        })
        .transpose()?;
    let mut info = ConnInfo {
        hosts,
        ports,
        dbname,
        user,
        password: None,
        sslmode,
        root_certs,
        connect_timeout,
        application_name: get("application_name", "PGAPPNAME")
            .unwrap_or_else(|| "fleetdeck".to_string()),
        target_session_attrs: match get("target_session_attrs", "PGTARGETSESSIONATTRS") {
            Some(value) => SessionAttrs::parse(&value)?,
            None => SessionAttrs::Any,
        },
        options: get("options", "PGOPTIONS").filter(|o| !o.trim().is_empty()),
    };
    info.password = given
        .get("password")
        .cloned()
        .or_else(|| env.var("PGPASSWORD"))
        .or_else(|| {
            let file = get("passfile", "PGPASSFILE")
                .map(PathBuf::from)
                .or_else(|| env.home().map(|h| h.join(".pgpass")))?;
            let (text, private) = env.read_private(&file)?;
            if !private {
                tracing::warn!(file = %file.display(), "password file ignored: it must not be readable by group or others (chmod 0600)");
                return None;
            }
            password_from_file(&text, &info)
        });
    Ok(info)
}

/// Debian's server listens on a unix socket there; libpq as Debian builds it looks there
/// first too.
fn default_host() -> String {
    "/var/run/postgresql".to_string()
}

/// The password a `.pgpass` file gives this connection: the first line whose host, port,
/// database and user match (`*` matches anything; `\:` and `\\` are escapes; a unix
/// socket matches `localhost`).
pub fn password_from_file(text: &str, info: &ConnInfo) -> Option<String> {
    let host = info.hosts.first()?;
    let host = if host.starts_with('/') {
        "localhost"
    } else {
        host
    };
    let port = info.ports.first().copied().unwrap_or(5432).to_string();
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .find_map(|line| {
            let fields = split_pgpass(line);
            if fields.len() < 5 {
                return None;
            }
            let matches = |field: &str, value: &str| field == "*" || field == value;
            (matches(&fields[0], host)
                && matches(&fields[1], &port)
                && matches(&fields[2], &info.dbname)
                && matches(&fields[3], &info.user))
            .then(|| fields[4..].join(":"))
        })
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next()
                    && let Some(last) = fields.last_mut()
                {
                    last.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(last) = fields.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    fields
}

/// `key=value key='quoted value'` pairs.
fn parse_pairs(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next() != Some('=') {
            return Err(format!("connection parameter {key:?} has no '=value'"));
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek() == Some(&'\'') {
            chars.next();
            loop {
                match chars.next() {
                    Some('\\') => value.push(chars.next().unwrap_or('\\')),
                    Some('\'') => break,
                    Some(c) => value.push(c),
                    None => return Err(format!("the quoted value of {key:?} is not closed")),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                chars.next();
                if c == '\\' {
                    value.push(chars.next().unwrap_or('\\'));
                } else {
                    value.push(c);
                }
            }
        }
        out.insert(key, value);
    }
}

/// `postgres://user:password@host:port,host2:port2/dbname?key=value&…`
fn parse_url(text: &str) -> Result<BTreeMap<String, String>, String> {
    let rest = text
        .strip_prefix("postgresql://")
        .or_else(|| text.strip_prefix("postgres://"))
        .ok_or("not a postgres:// URL")?;
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, dbname) = match rest.split_once('/') {
        Some((a, d)) => (a, Some(d)),
        None => (rest, None),
    };
    let mut out = BTreeMap::new();
    let hosts_part = match authority.rsplit_once('@') {
        Some((userinfo, hosts)) => {
            let (user, password) = match userinfo.split_once(':') {
                Some((u, p)) => (u, Some(p)),
                None => (userinfo, None),
            };
            if !user.is_empty() {
                out.insert("user".to_string(), decode(user, "user")?);
            }
            if let Some(p) = password {
                out.insert("password".to_string(), decode(p, "password")?);
            }
            hosts
        }
        None => authority,
    };
    if !hosts_part.is_empty() {
        let mut hosts = Vec::new();
        let mut ports = Vec::new();
        for spec in hosts_part.split(',') {
            let (host, port) = if let Some(inner) = spec.strip_prefix('[') {
                let (h, after) = inner
                    .split_once(']')
                    .ok_or_else(|| format!("host {spec:?}: '[' without ']'"))?;
                (h.to_string(), after.strip_prefix(':').map(str::to_string))
            } else {
                match spec.rsplit_once(':') {
                    Some((h, p)) => (h.to_string(), Some(p.to_string())),
                    None => (spec.to_string(), None),
                }
            };
            hosts.push(decode(&host, "host")?);
            if let Some(p) = port {
                ports.push(p);
            }
        }
        if hosts.iter().any(|h| !h.is_empty()) {
            out.insert("host".to_string(), hosts.join(","));
        }
        if !ports.is_empty() {
            out.insert("port".to_string(), ports.join(","));
        }
    }
    if let Some(db) = dbname.filter(|d| !d.is_empty()) {
        out.insert("dbname".to_string(), decode(db, "dbname")?);
    }
    for pair in query.into_iter().flat_map(|q| q.split('&')) {
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("URL parameter {pair:?} has no '=value'"))?;
        out.insert(decode(k, "parameter")?, decode(v, k)?);
    }
    Ok(out)
}

/// Percent-decoding of one URL part.
fn decode(part: &str, what: &str) -> Result<String, String> {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = part
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("{what}: bad percent-escape in {part:?}"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("{what}: {part:?} is not UTF-8 once decoded"))
}

#[cfg(test)]
#[path = "conninfo_tests.rs"]
mod tests;
