//! Which journal a command uses: a SQLite file (the default) or a PostgreSQL database
//! (team mode), chosen by what `--journal` / `FLEETDECK_JOURNAL` / `journal` says.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;

use super::{
    Appended, Durability, EventQuery, Fence, JournalError, JournalStore, Lease, LeaseGrant,
    PostgresJournal, SqliteJournal,
};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, Event, LeaseScope, NewEvent, RunId, Sequence};

/// Where the journal is.
#[derive(Clone, PartialEq, Eq)]
pub enum JournalTarget {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection string (URL or `key=value`), kept as given.
    Postgres(String),
}

impl std::fmt::Debug for JournalTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl JournalTarget {
    /// A connection string is PostgreSQL; anything else is a file path.
    pub fn parse(text: &str) -> Self {
        if super::postgres::conninfo::is_postgres(text) {
            JournalTarget::Postgres(text.trim().to_string())
        } else {
            JournalTarget::Sqlite(PathBuf::from(text))
        }
    }

    /// As [`JournalTarget::parse`], for a value that came as a path (a clap `PathBuf`).
    pub fn from_path(path: &Path) -> Self {
        Self::parse(&path.to_string_lossy())
    }

    /// Whether this is team mode.
    pub fn is_postgres(&self) -> bool {
        matches!(self, JournalTarget::Postgres(_))
    }

    /// How a person reads it: the path, or the connection without its password.
    pub fn describe(&self) -> String {
        match self {
            JournalTarget::Sqlite(path) => path.display().to_string(),
            JournalTarget::Postgres(text) => super::postgres::conninfo(text)
                .map(|info| info.display())
                .unwrap_or_else(|_| "a PostgreSQL journal (connection string not readable)".into()),
        }
    }
}

/// How a journal is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Reading and writing (SQLite: created and migrated when needed, FULL durability).
    ReadWrite,
    /// Reading only: nothing is created or migrated, every write is refused by the
    /// database itself.
    ReadOnly,
}

/// The journal of either backend, behind the one store trait.
pub enum AnyJournal {
    /// A SQLite file.
    Sqlite(SqliteJournal),
    /// A PostgreSQL database.
    Postgres(PostgresJournal),
}

impl AnyJournal {
    /// Opens the journal at `target`.
    pub fn open(target: &JournalTarget, mode: OpenMode) -> Result<Self, JournalError> {
        Ok(match (target, mode) {
            (JournalTarget::Sqlite(path), OpenMode::ReadWrite) => {
                AnyJournal::Sqlite(SqliteJournal::open(path, Durability::Full)?)
            }
            (JournalTarget::Sqlite(path), OpenMode::ReadOnly) => {
                AnyJournal::Sqlite(SqliteJournal::open_read_only(path)?)
            }
            (JournalTarget::Postgres(text), OpenMode::ReadWrite) => {
                AnyJournal::Postgres(PostgresJournal::connect(text)?)
            }
            (JournalTarget::Postgres(text), OpenMode::ReadOnly) => {
                AnyJournal::Postgres(PostgresJournal::connect_read_only(text)?)
            }
        })
    }

    /// The PostgreSQL journal, in team mode.
    pub fn postgres(&self) -> Option<&PostgresJournal> {
        match self {
            AnyJournal::Postgres(pg) => Some(pg),
            AnyJournal::Sqlite(_) => None,
        }
    }

    /// Every cluster the journal's events name, sorted.
    pub fn clusters(&self) -> Result<Vec<ClusterId>, JournalError> {
        match self {
            AnyJournal::Sqlite(j) => j.clusters(),
            AnyJournal::Postgres(j) => j.clusters(),
        }
    }

    /// Every run the journal's events name, sorted.
    pub fn run_ids(&self) -> Result<Vec<RunId>, JournalError> {
        match self {
            AnyJournal::Sqlite(j) => j.run_ids(),
            AnyJournal::Postgres(j) => j.run_ids(),
        }
    }

    /// Appends events copied from another journal as they were (see
    /// [`super::copy::copy`]).
    pub fn import(&mut self, events: Vec<Event>) -> Result<u64, JournalError> {
        match self {
            AnyJournal::Sqlite(j) => j.import(events),
            AnyJournal::Postgres(j) => j.import(events),
        }
    }

    /// The schema version stored.
    pub fn schema_version(&self) -> Result<i64, JournalError> {
        match self {
            AnyJournal::Sqlite(j) => j.schema_version(),
            AnyJournal::Postgres(j) => j.schema_version(),
        }
    }
}

macro_rules! both {
    ($self:ident, $j:ident => $e:expr) => {
        match $self {
            AnyJournal::Sqlite($j) => $e,
            AnyJournal::Postgres($j) => $e,
        }
    };
}

impl JournalStore for AnyJournal {
    fn append(&mut self, event: NewEvent, fence: Option<&Fence>) -> Result<Appended, JournalError> {
        both!(self, j => j.append(event, fence))
    }

    fn append_all(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
    ) -> Result<Vec<Appended>, JournalError> {
        both!(self, j => j.append_all(events, fence))
    }

    fn append_if_last(
        &mut self,
        event: NewEvent,
        last_seen: Option<Sequence>,
    ) -> Result<Appended, JournalError> {
        both!(self, j => j.append_if_last(event, last_seen))
    }

    fn scan(&self, query: &EventQuery, visit: &mut dyn FnMut(Event)) -> Result<(), JournalError> {
        both!(self, j => j.scan(query, visit))
    }

    fn acquire_lease(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<LeaseGrant, JournalError> {
        both!(self, j => j.acquire_lease(scope, holder, ttl, now))
    }

    fn renew_lease(
        &mut self,
        lease: &Lease,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<Lease, JournalError> {
        both!(self, j => j.renew_lease(lease, ttl, now))
    }

    fn release_lease(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError> {
        both!(self, j => j.release_lease(lease, now))
    }

    fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
        both!(self, j => j.lease(scope))
    }

    fn authenticated_actor(&self) -> Option<Actor> {
        both!(self, j => j.authenticated_actor())
    }

    fn team(&self) -> Result<Option<crate::model::team::TeamFacts>, JournalError> {
        both!(self, j => j.team())
    }

    fn wait_for_change(&self, poll: Duration) {
        both!(self, j => j.wait_for_change(poll))
    }
}
