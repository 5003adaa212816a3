//! The journal: an append-only log of everything the engine and the operators did, and
//! the leases that make sure only one executor acts at a time. [`JournalStore`] is the
//! seam; [`SqliteJournal`] is the embedded default. A shared backend for teams (a hub
//! cluster, a SQL server) implements the same trait.
//!
//! What events mean is decided in [`crate::model::run`]: the store keeps them, the pure
//! [`Projection`] folds them.

mod any;
pub mod copy;
mod door;
mod lease;
mod migrations;
pub mod postgres;
mod row;
mod sqlite;

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

pub use any::{AnyJournal, JournalTarget, OpenMode};
pub use door::{UnreadableRow, unreadable_rows};
pub use lease::{Fence, Lease, LeaseGrant};
pub use migrations::{MIGRATIONS, Migration};
pub use postgres::PostgresJournal;
pub use sqlite::{Durability, SqliteJournal};

use crate::model::ledger::ClusterId;
use crate::model::run::{
    Actor, Event, FencingToken, LeaseScope, NewEvent, Projection, RunId, Sequence,
};

/// Why a journal operation failed.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The database itself failed (IO, locking, constraint).
    #[error("journal database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The write carried a fencing token older than the lease's: its writer lost the
    /// lease and must stop acting. Nothing was written.
    #[error(
        "stale fencing token {presented} for lease {scope} (current token {current}): this executor no longer holds the lease"
    )]
    StaleToken {
        /// The lease.
        scope: LeaseScope,
        /// The token the writer presented.
        presented: FencingToken,
        /// The lease's token now (0 when the lease was never taken).
        current: FencingToken,
    },
    /// Renewing or releasing a lease that someone else holds now.
    #[error("lease {scope} is no longer held by {holder}")]
    LeaseLost {
        /// The lease.
        scope: LeaseScope,
        /// Who thought they held it.
        holder: Actor,
    },
    /// The database was written by a newer fleetdeck with a schema this one cannot read.
    #[error(
        "journal schema version {found} is newer than this fleetdeck understands ({known}); upgrade to a fleetdeck that knows schema version {found}"
    )]
    SchemaTooNew {
        /// The version in the database.
        found: i64,
        /// The newest version this build knows.
        known: i64,
    },
    /// A stored value cannot be read back (a lease's time out of range).
    #[error("journal event {seq} is damaged: {reason}")]
    Damaged {
        /// The event's sequence.
        seq: i64,
        /// What is wrong.
        reason: String,
    },
    /// The journal database cannot be reached (down, restarting, network, login): nothing
    /// was written; try again when it is back.
    #[error("journal database unavailable: {0}; nothing was recorded")]
    Unavailable(String),
    /// The database refused the write for the connected role's rights (team mode).
    #[error("refused by the journal database: {0}")]
    Forbidden(String),
    /// The database refused the write by a rule of the team (the four-eyes rule).
    #[error("refused by the journal database: {0}")]
    Refused(String),
    /// Any other PostgreSQL error.
    #[error("journal database: {0}")]
    Postgres(String),
    /// A path or another value that is not usable.
    #[error("{0}")]
    Invalid(String),
    /// A second plan for a run: a run has one plan (the one the database checks and the
    /// executor runs); a re-plan is a new run. Nothing was written.
    #[error(
        "run {run} already has a plan: a run has one plan, and a re-plan is a new run; nothing was written"
    )]
    AlreadyPlanned {
        /// The run.
        run: RunId,
    },
    /// An executor's event without a fence: every kind the executor writes goes under
    /// the lease it holds. Nothing was written.
    #[error(
        "{kind} events are written only under the executor lease, and this one carries no fence; nothing was written"
    )]
    Unfenced {
        /// The event's kind.
        kind: String,
    },
    /// The idempotency key is already taken, in the writer's own key space, by an event
    /// of another kind: not the same write again. Nothing was written.
    #[error(
        "idempotency key {key} already names a {stored} event, not a {kind} one; nothing was written"
    )]
    KeyTaken {
        /// The key.
        key: String,
        /// The kind of the event written.
        kind: String,
        /// The kind of the event stored under it.
        stored: String,
    },
    /// A payload no reader could use (see `model::run::payload`). Nothing was written.
    #[error("a {kind} event is refused: {reason}; nothing was written")]
    BadPayload {
        /// The event's kind.
        kind: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The database gave up waiting (for the journal's write lock, another writer held it
    /// too long, or for the statement): it rolled the write back.
    #[error("the journal is busy: {0}; nothing was recorded, try again")]
    Busy(String),
    /// The connection broke while the write was on its way or its answer was, and the
    /// journal could not be asked again in time: the write may have been recorded or
    /// not. It is found by its idempotency key once the journal is back (the same write
    /// again is recorded once).
    #[error("the journal did not confirm the write ({0}): it may or may not have been recorded; it is found by its idempotency key once the journal answers again ({keys})", keys = .1.join(", "))]
    Unknown(String, Vec<String>),
    /// A conditional append found events written after the state its caller decided on:
    /// nothing was written; the caller reads the journal again and decides again.
    #[error("the journal moved on to event {found} after event {expected}; nothing was written")]
    MovedOn {
        /// The last event the caller had read (0 for an empty journal).
        expected: i64,
        /// The last event in the journal now.
        found: i64,
    },
}

/// The result of an append.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Appended {
    /// The stored event: the new one, or the one already stored under the same key.
    pub event: Event,
    /// Whether the key existed already (nothing new was written).
    pub duplicate: bool,
}

/// Which events to read. Empty filters select everything; all given filters must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    /// Only events at or after this time.
    pub since: Option<Timestamp>,
    /// Only events after this sequence (for a live tail).
    pub after: Option<Sequence>,
    /// Only events about this cluster.
    pub cluster: Option<ClusterId>,
    /// Only events of this run.
    pub run: Option<RunId>,
    /// Only events of these kinds (e.g. `operator.pause`).
    pub kinds: Vec<String>,
    /// At most this many (the oldest first).
    pub limit: Option<usize>,
}

/// Where journal events are kept. Appends are atomic: an event is stored whole or not at
/// all, and a write under a lease is checked against the lease in the same transaction.
pub trait JournalStore {
    /// Appends one event in its own transaction. With `fence`, the write is refused with
    /// [`JournalError::StaleToken`] unless the fence's token is the lease's current one.
    /// An existing idempotency key returns the stored event with `duplicate: true`.
    fn append(&mut self, event: NewEvent, fence: Option<&Fence>) -> Result<Appended, JournalError>;

    /// Appends several events in one transaction: all or none.
    fn append_all(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
    ) -> Result<Vec<Appended>, JournalError>;

    /// Appends one event only if the journal's last event is still `last_seen` (the state
    /// the caller made its decision on, `None` for an empty journal); otherwise nothing is
    /// written and [`JournalError::MovedOn`] says so. Two writers checking the same state
    /// cannot both append: the check and the write are one transaction.
    fn append_if_last(
        &mut self,
        event: NewEvent,
        last_seen: Option<Sequence>,
    ) -> Result<Appended, JournalError>;

    /// Calls `visit` with every matching event in sequence order, without holding them all
    /// in memory.
    fn scan(&self, query: &EventQuery, visit: &mut dyn FnMut(Event)) -> Result<(), JournalError>;

    /// Every matching event, in sequence order.
    fn query(&self, query: &EventQuery) -> Result<Vec<Event>, JournalError> {
        let mut out = Vec::new();
        self.scan(query, &mut |e| out.push(e))?;
        Ok(out)
    }

    /// Current state: every event folded through [`Projection`].
    fn projection(&self) -> Result<Projection, JournalError> {
        let mut projection = Projection::default();
        self.scan(&EventQuery::default(), &mut |e| projection.apply(&e))?;
        Ok(projection)
    }

    /// Takes the lease when it is free, expired or already ours, and no lease that may not
    /// be held beside it (the fleet's and a shard's, shards of two keys: see
    /// [`crate::model::shard::may_coexist`]) is held by someone now; otherwise reports the
    /// lease in the way. A change of holder increments the fencing token and is journaled;
    /// lapsed leases that may not be held beside it are revoked (their token moves on, so
    /// their holders' late writes are refused). `now` is the caller's clock; a store
    /// shared by several machines uses its own (PostgreSQL: the database's) instead.
    fn acquire_lease(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<LeaseGrant, JournalError>;

    /// Extends our lease to `now + ttl`; [`JournalError::LeaseLost`] when another holder
    /// took it in the meantime.
    fn renew_lease(
        &mut self,
        lease: &Lease,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<Lease, JournalError>;

    /// Gives the lease up so a standby can take it at once (on SIGTERM).
    fn release_lease(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError>;

    /// The lease as stored, if it was ever taken.
    fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError>;

    /// The actor the store writes on every event regardless of what the event says, when
    /// the store authenticates its writers (PostgreSQL: the database role); `None` when
    /// the writer's own word is recorded (SQLite).
    fn authenticated_actor(&self) -> Option<Actor> {
        None
    }

    /// Who this process is on a shared journal and who else is connected to it (team
    /// mode); `None` for a store one person uses alone (SQLite).
    fn team(&self) -> Result<Option<crate::model::team::TeamFacts>, JournalError> {
        Ok(None)
    }

    /// Blocks until the journal may have new events: a file store sleeps `poll` (it has
    /// no other way to know); a database store returns when the database announces new
    /// events, when its connection is lost or regained (so the caller reads, and notices),
    /// or after a safety interval. Callers then read by sequence, so nothing is missed or
    /// read twice, whatever woke them.
    fn wait_for_change(&self, poll: Duration) {
        std::thread::sleep(poll);
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod store_tests;

#[cfg(test)]
#[path = "door_tests.rs"]
mod door_tests;

#[cfg(test)]
#[path = "fixture_tests.rs"]
mod fixture_tests;
