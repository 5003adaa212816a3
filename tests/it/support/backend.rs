//! The journal a test runs on: a SQLite file in the test's directory, or a fresh database
//! on the test process's throwaway PostgreSQL server (see
//! `fleetdeck::journal::postgres::throwaway`). One suite, parameterised: `on_both_backends!`
//! runs each named test once per backend.
//!
//! On PostgreSQL every test actor is a login role of its own (same name, password over TCP
//! on loopback), in the fleetdeck roles its name suggests: a name with `exec` in it is an
//! executor, one starting with `view` a viewer, any other an operator and approver. The database then records each event
//! under the same actor name the SQLite journal records, so assertions hold on both.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fleetdeck::journal::postgres::throwaway::{self, ThrowawayServer};
use fleetdeck::journal::{AnyJournal, JournalStore, JournalTarget, LeaseGrant, OpenMode};
use fleetdeck::model::run::{Actor, LeaseScope, NewEvent};

/// Which backend a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A database on the throwaway PostgreSQL server.
    Postgres,
}

/// One test's journal.
#[derive(Clone)]
pub struct TestJournal {
    backend: Backend,
    server: Option<&'static ThrowawayServer>,
    /// A streaming standby of `server`, for failover tests: then every connection string
    /// names both (primary first) with `target_session_attrs=read-write`.
    standby: Option<&'static ThrowawayServer>,
    /// The SQLite file (unused on PostgreSQL).
    file: PathBuf,
    /// The database's name (PostgreSQL).
    db: Option<String>,
}

fn shared_server() -> &'static ThrowawayServer {
    throwaway::shared().expect("the throwaway PostgreSQL server starts")
}

/// Login roles are cluster-wide: each is created once per server.
static CREATED: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());

/// The fleetdeck roles a test actor gets on PostgreSQL: `exec…` an executor, `view…` a
/// viewer, anyone else an operator and approver.
fn roles_for(actor: &str) -> &'static [&'static str] {
    if actor.contains("exec") {
        &["fleetdeck_executor"]
    } else if actor.starts_with("view") {
        &["fleetdeck_viewer"]
    } else {
        &["fleetdeck_operator", "fleetdeck_approver"]
    }
}

fn encode(part: &str) -> String {
    part.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl TestJournal {
    /// A new, empty journal: `journal.sqlite` in `dir`, or a fresh database.
    pub fn new(backend: Backend, dir: &Path) -> TestJournal {
        let server = (backend == Backend::Postgres).then(shared_server);
        Self::on(backend, server, dir)
    }

    /// As [`TestJournal::new`], on a PostgreSQL server of its own (a test that restarts
    /// the server must not break the connections of the tests running beside it).
    pub fn on_own_server(backend: Backend, dir: &Path) -> TestJournal {
        let server = (backend == Backend::Postgres).then(|| {
            let started = ThrowawayServer::start(throwaway::ServerDurability::Fast)
                .expect("a PostgreSQL server of its own");
            // Stopped by its guardian when the test process ends.
            &*Box::leak(Box::new(started))
        });
        Self::on(backend, server, dir)
    }

    fn on(backend: Backend, server: Option<&'static ThrowawayServer>, dir: &Path) -> TestJournal {
        let db = server.map(|s| s.fresh_database().expect("a fresh database"));
        TestJournal {
            backend,
            server,
            standby: None,
            file: dir.join("journal.sqlite"),
            db,
        }
    }

    /// A PostgreSQL journal on a primary of its own with a streaming standby replicating
    /// as `mode` says: connections name both hosts, so they follow a promotion. Returns
    /// the journal, the primary and the standby (stopped when the test process ends).
    pub fn replicated(
        mode: throwaway::Replication,
        dir: &Path,
    ) -> (
        TestJournal,
        &'static ThrowawayServer,
        &'static ThrowawayServer,
    ) {
        let primary: &'static ThrowawayServer = Box::leak(Box::new(
            ThrowawayServer::start(throwaway::ServerDurability::Fast).expect("a primary"),
        ));
        let mut journal = Self::on(Backend::Postgres, Some(primary), dir);
        let standby: &'static ThrowawayServer =
            Box::leak(Box::new(primary.start_standby(mode).expect("a standby")));
        journal.standby = Some(standby);
        (journal, primary, standby)
    }

    /// The hosts part of a connection string: `host=… port=…`, both servers when there
    /// is a standby (primary first, read-write sessions only).
    fn hosts(&self) -> String {
        let server = self.server();
        match self.standby {
            None => format!("host=127.0.0.1 port={}", server.port()),
            Some(standby) => format!(
                "host=127.0.0.1,127.0.0.1 port={},{} target_session_attrs=read-write",
                server.port(),
                standby.port()
            ),
        }
    }

    fn server(&self) -> &'static ThrowawayServer {
        self.server.expect("a PostgreSQL journal")
    }

    /// The database's name on its server (PostgreSQL).
    pub fn database(&self) -> Option<&str> {
        self.db.as_deref()
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// What `--journal` says for `actor`: the file, or a URL logging in as `actor`'s role
    /// (created when missing).
    pub fn target_for(&self, actor: &str) -> String {
        match &self.db {
            None => self.file.display().to_string(),
            Some(db) => {
                let server = self.server();
                let id = std::ptr::from_ref(server) as usize;
                let mut created = CREATED.lock().unwrap_or_else(|e| e.into_inner());
                if !created.iter().any(|(s, a)| *s == id && a == actor) {
                    server
                        .login_role(actor, roles_for(actor))
                        .expect("a login role");
                    created.push((id, actor.to_string()));
                }
                drop(created);
                if self.standby.is_some() {
                    return format!(
                        "{} dbname={db} user='{actor}' password={} sslmode=disable connect_timeout=2",
                        self.hosts(),
                        throwaway::TEST_PASSWORD
                    );
                }
                format!(
                    "postgres://{}:{}@127.0.0.1:{}/{db}?sslmode=disable",
                    encode(actor),
                    throwaway::TEST_PASSWORD,
                    server.port()
                )
            }
        }
    }

    /// The global flags that make the binary use this journal as `actor`: `--journal FILE
    /// --as ACTOR`, or `--journal URL` (the database says who it is).
    pub fn flags(&self, actor: &str) -> Vec<String> {
        let mut flags = vec!["--journal".to_string(), self.target_for(actor)];
        if !self.is_postgres() {
            flags.extend(["--as".to_string(), actor.to_string()]);
        }
        flags
    }

    /// The journal as `actor` writes it.
    pub fn open_as(&self, actor: &str) -> AnyJournal {
        AnyJournal::open(
            &JournalTarget::parse(&self.target_for(actor)),
            OpenMode::ReadWrite,
        )
        .expect("the journal opens")
    }

    /// Appends `events` as the executor `actor` writes them: under the fleet lease, taken
    /// for the write and given back after it (every executor event carries a fence).
    pub fn append_as_executor(&self, actor: &str, events: Vec<NewEvent>) {
        let mut store = self.open_as(actor);
        let lease = match store
            .acquire_lease(
                &LeaseScope::fleet(),
                &Actor(actor.to_string()),
                std::time::Duration::from_secs(30),
                jiff::Timestamp::now(),
            )
            .expect("the fleet lease")
        {
            LeaseGrant::Acquired { lease } => lease,
            LeaseGrant::HeldByOther { lease } => panic!("the fleet lease is held: {lease:?}"),
        };
        store
            .append_all(events, Some(&lease.fence()))
            .expect("the executor's events");
        store
            .release_lease(&lease, jiff::Timestamp::now())
            .expect("the lease given back");
    }

    /// The journal for reading (the database's superuser on PostgreSQL).
    pub fn open(&self) -> AnyJournal {
        let target = match &self.db {
            None => JournalTarget::Sqlite(self.file.clone()),
            Some(db) if self.standby.is_some() => JournalTarget::Postgres(format!(
                "{} dbname={db} user=postgres password={} sslmode=disable connect_timeout=2",
                self.hosts(),
                throwaway::TEST_PASSWORD
            )),
            Some(db) => JournalTarget::Postgres(self.server().admin_url(db)),
        };
        AnyJournal::open(&target, OpenMode::ReadWrite).expect("the journal opens")
    }

    /// The actor the journal records for the events of `fleetdeck run` started as
    /// `name`: the executor's own name on SQLite, the login role on PostgreSQL.
    pub fn executor_actor(&self, name: &str) -> Actor {
        if self.is_postgres() {
            Actor(name.to_string())
        } else {
            Actor(format!("executor@{name}"))
        }
    }

    /// Stops the PostgreSQL server for `down_for` and starts it again (as a crash would:
    /// every connection breaks, the data stays), calling `on_down` once it is down.
    /// Nothing on SQLite.
    pub fn restart_database_with(&self, down_for: std::time::Duration, on_down: impl FnOnce()) {
        if let Some(server) = self.server {
            server
                .restart_with(down_for, on_down)
                .expect("the server restarts");
        }
    }

    /// Kills the PostgreSQL server and all its processes with SIGKILL and starts it again
    /// (it recovers from its log). Nothing on SQLite.
    pub fn crash_database(&self) {
        if let Some(server) = self.server {
            server.crash_and_restart().expect("the server recovers");
        }
    }
}

/// Runs each named `async fn NAME(backend: Backend)` once per backend, as
/// `on_sqlite::NAME` and `on_postgres::NAME` (multi-threaded tokio tests).
macro_rules! on_both_backends_async {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::support::backend::Backend::Sqlite).await
                }
            )*
        }
        mod on_postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::support::backend::Backend::Postgres).await
                }
            )*
        }
    };
}

/// Runs each named `fn NAME(backend: Backend)` once per backend, as `on_sqlite::NAME` and
/// `on_postgres::NAME`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[test]
                fn $name() {
                    super::$name($crate::support::backend::Backend::Sqlite)
                }
            )*
        }
        mod on_postgres {
            $(
                #[test]
                fn $name() {
                    super::$name($crate::support::backend::Backend::Postgres)
                }
            )*
        }
    };
}
