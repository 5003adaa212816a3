//! The headless executor: holds the fleet lease, reads runs from the journal and drives
//! every node of the current batch through the maintenance state machine. Every side
//! effect is journaled as an intent before and an outcome after, with an idempotency key,
//! under the lease's fencing token; a dead executor's open intents are settled by
//! observing the cluster before anything else happens to that node.
//!
//! This file holds the executor, its settings and its pass; the parts of a pass have their
//! own files: `lease` (holding and fencing), `catch_up` (reading the journal),
//! `maintenance` (driving node maintenance), `rollout` (driving rollouts), `guard` (the
//! mass-failure guard), `shard` (calls between shards) and `side_effects` (the calls
//! themselves, each between its intent and its outcome). Every time it reads comes from
//! the clock in its settings.

mod catch_up;
mod guard;
mod history;
mod lease;
mod maintenance;
mod rollout;
mod rollout_log;
mod shard;
mod side_effects;

pub use rollout::RolloutOptions;

use std::collections::HashMap;
use std::time::Duration;

use jiff::Timestamp;

use super::checkpoint::Checkpoint;
use super::clock::Clock;
use crate::journal::{Appended, Fence, JournalError, JournalStore, Lease};
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{MaintenancePort, Observation};
use crate::model::run::{Actor, EventBody, IdempotencyKey, ItemId, NewEvent, Projection, RunId};
use catch_up::Pending;
use lease::instance_holder;

/// Events kept for a shared commit at most, before they are written anyway.
const MAX_PENDING: usize = 256;

/// Why the executor stopped acting.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The journal refused or failed (a stale token means another executor took over).
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// Executor settings.
#[derive(Debug, Clone)]
pub struct ExecutorOptions {
    /// Who acts (recorded on every event and node event).
    pub actor: Actor,
    /// Lease time to live; a standby takes over this long after the holder went silent.
    pub lease_ttl: Duration,
    /// Pause between passes.
    pub tick: Duration,
    /// Rollout verification and evidence timing.
    pub rollout: RolloutOptions,
    /// The node label the mass-failure guard groups a cluster's nodes by while no
    /// maintenance runs there (a running one's spec names its own): `[capacity]
    /// failure_domain_key`, so the guard and the capacity view agree on the domains.
    pub guard_domain_label: String,
    /// What it acts for: the whole fleet (one lease) or one shard (`--shard`), and which
    /// shard owns each ledger cluster.
    pub ownership: crate::model::shard::Ownership,
    /// Where every time the executor journals or judges comes from (the system clock;
    /// a test's fixed or stepped one).
    pub clock: Clock,
}

impl ExecutorOptions {
    /// Defaults for `actor`: 15 s lease, 500 ms between passes.
    pub fn new(actor: Actor) -> Self {
        ExecutorOptions {
            actor,
            lease_ttl: Duration::from_secs(15),
            tick: Duration::from_millis(500),
            rollout: RolloutOptions::default(),
            guard_domain_label: crate::model::capacity::ZONE_LABEL.to_string(),
            ownership: crate::model::shard::Ownership::fleet(),
            clock: Clock::system(),
        }
    }
}

/// The executor.
pub struct Executor<S, P> {
    store: S,
    port: P,
    options: ExecutorOptions,
    /// The name this executor holds the lease under (see [`instance_holder`]).
    lease_holder: Actor,
    lease: Option<Lease>,
    /// The fence of the last lease held. Kept after the lease is lost, so that whatever
    /// this executor still writes (an outcome, a checkpoint) goes to the journal fenced
    /// with its old token and is refused once another executor holds the lease.
    last_fence: Option<Fence>,
    projection: Projection,
    checkpoints: HashMap<(RunId, ItemId), Checkpoint>,
    commands: HashMap<(RunId, ItemId), Vec<Pending>>,
    /// Observations journaled as outcomes after the item's latest checkpoint: a dead
    /// executor saw them but never folded them into a checkpoint, so they are fed again.
    unfolded: HashMap<(RunId, ItemId), Vec<Observation>>,
    fleet: Option<tokio::sync::watch::Receiver<crate::model::live::FleetSnapshot>>,
    guard: super::guard_watch::GuardWatch,
    /// Rollout runs, specs, observations and commands read from the journal.
    rollout_log: rollout_log::RolloutLog,
    /// Rollout runs being driven by this executor (rebuilt when the lease is taken).
    rollouts: HashMap<RunId, rollout::RolloutRuntime>,
    /// Calls handed between shards' executors, read from the journal.
    shard_log: shard::ShardLog,
    /// Events decided but not written yet (see [`Executor::append`]): written with the
    /// next intent, at the end of each item, or at the end of the pass, whichever comes
    /// first, under the lease they were decided under.
    pending: Vec<NewEvent>,
    /// Where what a person must hear of at once goes (an Event the cluster refused, a
    /// ledger edit not taken): `fleetdeck run` prints it; the log has it either way.
    notices: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    /// The ledger's maintenance windows: no change starts outside its cluster's window.
    windows: super::windows::MaintenanceWindows,
    /// Window waits already journaled (their keys), so each is written once.
    window_waits: std::collections::HashSet<IdempotencyKey>,
    /// Ledger edits noticed while running (see [`Reload`]), taken at the start of a pass.
    reloads: Option<tokio::sync::mpsc::UnboundedReceiver<Reload<P>>>,
    /// The latest events read, to tell whether the journal still holds them (see
    /// `history`).
    history: history::History,
    /// Pauses this executor owes the journal (the journal lost events it had read): written
    /// by whoever holds the lease next, before anything else, whatever the token.
    alarms: Vec<NewEvent>,
}

/// A ledger edit noticed while the executor runs.
pub enum Reload<P> {
    /// A valid new ledger: the port and fleet view built from it replace the old ones, so a
    /// cluster re-pinned after a rebuild is confirmed, and its held changes go on, without
    /// a restart.
    Taken {
        /// The port on the new ledger.
        port: P,
        /// The fleet view on the new ledger.
        fleet: tokio::sync::watch::Receiver<crate::model::live::FleetSnapshot>,
        /// What changed, for the journal and the output.
        note: String,
    },
    /// An edit that cannot be used: the last good ledger stays in force.
    Refused {
        /// Why, naming the file and each error.
        note: String,
    },
}

/// Whether a pass could act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassOutcome {
    /// Another executor holds the lease; this one waits as a standby.
    Standby,
    /// This executor holds the lease and drove every active run once.
    Acted,
}

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// An executor over `store` acting through `port`.
    pub fn new(store: S, port: P, options: ExecutorOptions) -> Self {
        Executor {
            store,
            port,
            lease_holder: instance_holder(&options.actor),
            options,
            lease: None,
            last_fence: None,
            projection: Projection::default(),
            checkpoints: HashMap::new(),
            commands: HashMap::new(),
            unfolded: HashMap::new(),
            fleet: None,
            guard: super::guard_watch::GuardWatch::new(
                crate::model::maintenance::GuardPolicy::default(),
            ),
            rollout_log: rollout_log::RolloutLog::default(),
            rollouts: HashMap::new(),
            shard_log: shard::ShardLog::default(),
            pending: Vec::new(),
            notices: None,
            windows: super::windows::MaintenanceWindows::default(),
            window_waits: std::collections::HashSet::new(),
            reloads: None,
            history: history::History::default(),
            alarms: Vec::new(),
        }
    }

    /// Takes ledger edits from `reloads` (see [`Reload`]).
    pub fn with_reloads(
        mut self,
        reloads: tokio::sync::mpsc::UnboundedReceiver<Reload<P>>,
    ) -> Self {
        self.reloads = Some(reloads);
        self
    }

    /// Takes the ledger edits noticed since the last pass: a good one replaces the port and
    /// the fleet view; each is journaled (by the lease holder, which acts on it) and told.
    fn take_reloads(&mut self) -> Result<(), EngineError> {
        let mut taken = Vec::new();
        if let Some(reloads) = self.reloads.as_mut() {
            while let Ok(reload) = reloads.try_recv() {
                taken.push(reload);
            }
        }
        for reload in taken {
            let note = match reload {
                Reload::Taken { port, fleet, note } => {
                    self.port = port;
                    self.fleet = Some(fleet);
                    note
                }
                Reload::Refused { note } => note,
            };
            tracing::warn!(%note, "ledger");
            self.notify(note.clone());
            let now = self.now();
            let e = NewEvent::new(
                now,
                self.options.actor.clone(),
                IdempotencyKey::for_ledger_change(&self.lease_holder, now),
                EventBody::ExecutorNote { text: note },
            );
            self.append(e)?;
        }
        Ok(())
    }

    /// Enforces the ledger's maintenance windows: a node not yet begun, or a rollout's
    /// apply, waits outside its cluster's window (unless a person overrode it).
    pub fn with_windows(mut self, windows: super::windows::MaintenanceWindows) -> Self {
        self.windows = windows;
        self
    }

    /// Sends what a person must hear of at once (see [`Executor::notify`]) to `notices`.
    pub fn with_notices(mut self, notices: tokio::sync::mpsc::UnboundedSender<String>) -> Self {
        self.notices = Some(notices);
        self
    }

    /// Tells the executor's output: a line for a person, beside what is journaled.
    fn notify(&self, line: String) {
        if let Some(notices) = &self.notices {
            // Nobody listening any more (the output closed) changes nothing here.
            let _ = notices.send(line);
        }
    }

    /// Sets the mass-failure guard's policy (share of a domain, window, minimum nodes).
    pub fn with_guard(mut self, policy: crate::model::maintenance::GuardPolicy) -> Self {
        self.guard = super::guard_watch::GuardWatch::new(policy);
        self
    }

    /// Reads node labels (failure domains, for domain pauses) from the live fleet view.
    pub fn with_fleet(
        mut self,
        fleet: tokio::sync::watch::Receiver<crate::model::live::FleetSnapshot>,
    ) -> Self {
        self.fleet = Some(fleet);
        self
    }

    /// The time by the executor's clock.
    fn now(&self) -> Timestamp {
        self.options.clock.now()
    }

    /// The journal (for tests and the CLI).
    pub fn store(&self) -> &S {
        &self.store
    }

    /// One pass: lease, catch up with the journal, drive every active maintenance run.
    pub async fn pass(&mut self) -> Result<PassOutcome, EngineError> {
        let held = self.hold_lease()?;
        if held && !self.alarms.is_empty() {
            // A pause owed since the journal lost events: before anything else.
            let alarms = self.alarms.clone();
            self.commit(alarms)?;
            self.alarms.clear();
        }
        if held && !self.pending.is_empty() {
            // What an earlier pass could not write (the journal was away), before anything
            // is decided: after the journal was read again (and found to hold what this
            // executor read before, or paused for what it lost), so that it follows what
            // the journal holds.
            self.catch_up()?;
            self.flush()?;
        }
        if !held {
            // A standby keeps its ledger current too (it may take over), saying nothing.
            if let Some(reloads) = self.reloads.as_mut() {
                while let Ok(reload) = reloads.try_recv() {
                    if let Reload::Taken { port, fleet, .. } = reload {
                        self.port = port;
                        self.fleet = Some(fleet);
                    }
                }
            }
            return Ok(PassOutcome::Standby);
        }
        self.take_reloads()?;
        self.catch_up()?;
        self.check_guards()?;
        for (run, spec) in self.active_maintenance() {
            self.drive_run(&run, &spec).await?;
            self.catch_up()?;
        }
        self.drive_rollouts().await?;
        self.catch_up()?;
        self.serve_shard().await?;
        self.flush()?;
        self.catch_up()?;
        Ok(PassOutcome::Acted)
    }

    /// Journals `event` with the next write: events that only record (a status, a note,
    /// an outcome, a checkpoint) share a commit with the intent that follows them, or the
    /// end of the item or the pass, instead of a commit each. An executor that dies before
    /// they are written leaves the intent before them open (or a checkpoint older), which
    /// the next one settles by observing the cluster, as it would have anyway.
    fn append(&mut self, event: NewEvent) -> Result<(), EngineError> {
        self.pending.push(event);
        if self.pending.len() >= MAX_PENDING {
            self.flush()?;
        }
        Ok(())
    }

    /// Journals what is pending, then `events`, in one transaction under the current
    /// fence, before anything else happens: intents (the call follows), pauses, and writes
    /// whose answer is needed now. Returns what was stored for `events`.
    fn commit(&mut self, events: Vec<NewEvent>) -> Result<Vec<Appended>, EngineError> {
        let own = events.len();
        let mut all = std::mem::take(&mut self.pending);
        let recorded = all.len();
        all.extend(events);
        let fence = self.fence();
        let mut stored = match self.store.append_all(all.clone(), fence.as_ref()) {
            Ok(stored) => stored,
            Err(
                error @ (JournalError::Unavailable(_)
                | JournalError::Unknown(..)
                | JournalError::Busy(_)),
            ) => {
                // Not written, or not known to be. What was pending records what happened
                // (an outcome, a status): kept, and written first once the journal is back
                // under the same lease (each under its own key, so what did go in is not
                // written twice), rather than found out again by repeating it. `events`
                // asked for what is not done yet (an intent is written before its call):
                // the call does not happen, and the rebuilt state asks again.
                all.truncate(recorded);
                self.pending = all;
                return Err(error.into());
            }
            Err(error) => return Err(error.into()),
        };
        let written: Vec<&crate::model::run::Event> = stored
            .iter()
            .filter(|a| !a.duplicate)
            .map(|a| &a.event)
            .collect();
        self.history.wrote(&written);
        Ok(stored.split_off(stored.len() - own))
    }

    /// Journals what is pending.
    fn flush(&mut self) -> Result<(), EngineError> {
        if !self.pending.is_empty() {
            self.commit(Vec::new())?;
        }
        Ok(())
    }

    fn event(
        &self,
        run: &RunId,
        item: Option<&ItemId>,
        cluster: &ClusterId,
        key: IdempotencyKey,
        body: EventBody,
    ) -> NewEvent {
        let mut event = NewEvent::new(self.now(), self.options.actor.clone(), key, body)
            .with_run(run.clone())
            .with_cluster(cluster.clone());
        if let Some(item) = item {
            event = event.with_item(item.clone());
        }
        event
    }

    /// Runs passes until `stop` turns true; then records nothing new and gives the lease
    /// back. A call in flight when `stop` arrives is completed and recorded first.
    pub async fn run_until(
        &mut self,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), EngineError> {
        loop {
            if *stop.borrow() {
                break;
            }
            match self.pass().await {
                Ok(_) => {}
                Err(EngineError::Journal(
                    JournalError::StaleToken { .. } | JournalError::LeaseLost { .. },
                )) => {
                    tracing::warn!("another executor holds the lease; standing by");
                    self.lease = None;
                    self.pending.clear();
                }
                Err(EngineError::Journal(
                    error @ (JournalError::Unavailable(_)
                    | JournalError::Unknown(..)
                    | JournalError::Busy(_)),
                )) => {
                    // Whether the last write went in may be unknown: act on nothing until
                    // the lease is held again, write what was left unwritten, then carry on
                    // from the journal as a new executor would (open intents are settled
                    // by observing).
                    tracing::warn!(%error, "journal unavailable; standing by until it is back");
                    self.notify(format!("journal unavailable, not acting: {error}"));
                    self.forget();
                }
                Err(e) => return Err(e),
            }
            tokio::select! {
                _ = tokio::time::sleep(self.options.tick) => {}
                _ = stop.changed() => {}
            }
        }
        self.release_lease()
    }
}
