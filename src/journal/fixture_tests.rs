//! The journal a store test runs on (a SQLite file, or a fresh database of the shared
//! throwaway PostgreSQL server) and what executor events are written under.

use std::time::Duration;

use jiff::Timestamp;

use super::*;
use crate::model::run::{Actor, LeaseScope};

/// Where one test's journal lives.
pub(crate) struct Fixture {
    _dir: Option<tempfile::TempDir>,
    pub target: JournalTarget,
    /// The database's name on the shared throwaway server (PostgreSQL).
    pub db: Option<String>,
}

impl Fixture {
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let target = JournalTarget::Sqlite(dir.path().join("journal.sqlite"));
        Fixture {
            _dir: Some(dir),
            target,
            db: None,
        }
    }

    pub fn postgres() -> Self {
        let server = postgres::throwaway::shared().unwrap();
        let db = server.fresh_database().unwrap();
        Fixture {
            _dir: None,
            target: JournalTarget::Postgres(server.admin_url(&db)),
            db: Some(db),
        }
    }

    pub fn open(&self) -> AnyJournal {
        AnyJournal::open(&self.target, OpenMode::ReadWrite).unwrap()
    }
}

/// The fleet lease taken by `executor/a`, as its fence: what every executor event is
/// written under.
pub(crate) fn executor_fence(j: &mut AnyJournal) -> Fence {
    match j
        .acquire_lease(
            &LeaseScope::fleet(),
            &Actor("executor/a".into()),
            Duration::from_secs(60),
            Timestamp::now(),
        )
        .unwrap()
    {
        LeaseGrant::Acquired { lease } => lease.fence(),
        other => panic!("the fleet lease is free: {other:?}"),
    }
}

/// Runs each named `fn NAME(&Fixture)` on both backends, as `on_sqlite::NAME` and
/// `on_postgres::NAME`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $( #[test] fn $name() { super::$name(&super::Fixture::sqlite()) } )*
        }
        mod on_postgres {
            $( #[test] fn $name() { super::$name(&super::Fixture::postgres()) } )*
        }
    };
}
pub(crate) use on_both_backends;
