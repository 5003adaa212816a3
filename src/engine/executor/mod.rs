//! The headless executor: holds the fleet lease, reads runs from the journal and drives
//! every node of the current batch through the maintenance state machine. Every side
//! effect is journaled as an intent before and an outcome after, with an idempotency key,
//! under the lease's fencing token; a dead executor's open intents are settled by
//! observing the cluster before anything else happens to that node.

mod guard;
mod rollout;
mod rollout_log;
mod shard;
mod side_effects;

pub use rollout::RolloutOptions;

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use jiff::Timestamp;

use super::checkpoint::Checkpoint;
use crate::journal::{Appended, EventQuery, Fence, JournalError, JournalStore, Lease, LeaseGrant};

/// Events kept for a shared commit at most, before they are written anyway.
const MAX_PENDING: usize = 256;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{
    Action, Env, Intent, MaintenancePort, MaintenanceSpec, NodeState, Observation, PodRef,
    reconcile, step, what_to_observe,
};
use crate::model::run::{
    Actor, Event, EventBody, IdempotencyKey, ItemId, NewEvent, NodeName, Projection, ReturnOutcome,
    RunId, RunStatus, RunView, Sequence,
};

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
        }
    }
}

/// An operator command waiting to be fed to one item's state machine.
struct Pending {
    seq: Sequence,
    observation: Observation,
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
    window_waits: std::collections::HashSet<String>,
    /// Ledger edits noticed while running (see [`Reload`]), taken at the start of a pass.
    reloads: Option<tokio::sync::mpsc::UnboundedReceiver<Reload<P>>>,
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

fn now() -> Timestamp {
    Timestamp::now()
}

/// Whether maintenance has touched the node: its cordon was asked for (or done), or it is
/// further along; and it has not finished.
fn touched(node: &NodeState) -> bool {
    use crate::model::maintenance::Step;
    let cordon_asked = node.step == Step::Cordon
        && (node.call_in_flight || node.status != crate::model::run::StepStatus::Pending);
    (node.step > Step::Cordon || cordon_asked) && !node.is_finished()
}

/// The lease holder name of one executor: its actor, this process and a count. The
/// journal treats a lease taken again by the same holder as a renewal, so two executors
/// that share an actor name (the same user on one host, a restart while the old process
/// still runs) must not share a holder name, or both would act.
fn instance_holder(actor: &Actor) -> Actor {
    static STARTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Actor::instance(actor, std::process::id(), n)
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
            let now = now();
            let e = NewEvent::new(
                now,
                self.options.actor.clone(),
                IdempotencyKey(format!(
                    "ledger/{}/{}",
                    self.lease_holder,
                    now.as_nanosecond()
                )),
                EventBody::Note { text: note },
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

    /// Why a node of `run` must not begin now for its cluster's window, journaling the
    /// wait (once per opening) as the item's `step.waiting`; `None` once the node has
    /// begun (a window closing mid-drain does not leave a node half done) or nothing holds.
    fn window_wait(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        node: &NodeState,
    ) -> Result<Option<String>, EngineError> {
        if touched(node) || node.is_finished() {
            return Ok(None);
        }
        let now = now();
        let Some(hold) = self
            .windows
            .hold(&spec.cluster, &self.projection.window_overrides, now)
        else {
            return Ok(None);
        };
        let why = hold.describe(now);
        let key = format!("{}/{item}/{}", run.id, hold.key_suffix());
        if !self.window_waits.contains(&key) {
            let e = self.event(
                &run.id,
                Some(item),
                &spec.cluster,
                key.clone(),
                EventBody::Waiting { why: why.clone() },
            );
            self.append(e)?;
            self.window_waits.insert(key);
        }
        Ok(Some(why))
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

    /// The journal (for tests and the CLI).
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Takes or renews the lease of what this executor acts for (the fleet, or its shard);
    /// false while another executor holds it or a lease in the way of it.
    pub fn hold_lease(&mut self) -> Result<bool, EngineError> {
        let ttl = self.options.lease_ttl;
        if let Some(lease) = &self.lease {
            match self.store.renew_lease(lease, ttl, now()) {
                Ok(renewed) => {
                    self.lease = Some(renewed);
                    return Ok(true);
                }
                Err(JournalError::LeaseLost { .. }) => {
                    tracing::warn!(holder = %self.lease_holder, "lease lost; standing by");
                    self.lease = None;
                    self.pending.clear();
                }
                Err(e) => return Err(e.into()),
            }
        }
        match self.store.acquire_lease(
            &self.options.ownership.lease_scope(),
            &self.lease_holder,
            ttl,
            now(),
        )? {
            LeaseGrant::Acquired { lease } => {
                tracing::info!(holder = %self.lease_holder, token = %lease.token, "lease acquired");
                // What was decided under an earlier holding is not written under this one.
                self.pending.clear();
                self.last_fence = Some(lease.fence());
                self.lease = Some(lease);
                // Another executor may have acted meanwhile: rebuild rollouts from the journal.
                self.rollouts.clear();
                Ok(true)
            }
            LeaseGrant::HeldByOther { .. } => Ok(false),
        }
    }

    /// Renews the lease this executor has held since its pass began; false when it was
    /// lost. Never takes the lease afresh: another executor may have acted meanwhile, so
    /// only a new pass, which first catches up with the journal, may take it again.
    fn still_hold_lease(&mut self) -> Result<bool, EngineError> {
        let Some(lease) = &self.lease else {
            return Ok(false);
        };
        match self.store.renew_lease(lease, self.options.lease_ttl, now()) {
            Ok(renewed) => {
                self.lease = Some(renewed);
                Ok(true)
            }
            Err(JournalError::LeaseLost { .. }) => {
                tracing::warn!(holder = %self.lease_holder, "lease lost mid-pass; standing by");
                self.lease = None;
                self.pending.clear();
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Forgets everything read from the journal and the lease with it, as if this executor
    /// had just started: what it knew may be behind what the journal holds (a write whose
    /// commit it never heard of), and the journal decides.
    fn forget(&mut self) {
        self.lease = None;
        self.pending.clear();
        self.projection = Projection::default();
        self.checkpoints.clear();
        self.commands.clear();
        self.unfolded.clear();
        self.rollout_log = rollout_log::RolloutLog::default();
        self.rollouts.clear();
        self.shard_log = shard::ShardLog::default();
    }

    /// Gives the lease back (on SIGTERM, after the call in flight was recorded).
    pub fn release_lease(&mut self) -> Result<(), EngineError> {
        if self.lease.is_some() {
            self.flush()?;
        }
        if let Some(lease) = self.lease.take() {
            self.store.release_lease(&lease, now())?;
        }
        Ok(())
    }

    /// Awaits a call that may outlast the lease (a hook, a release's exec action, a slow
    /// read before a change) while renewing the lease every third of its time to live, so
    /// a standby does not take over and start the same change again while this one is
    /// still running. If the lease is lost anyway, the call still finishes; its outcome is
    /// then refused by the fence and the new holder settles it by observing the cluster.
    /// A lost lease is forgotten here (`lease` becomes `None`), so that the caller, which
    /// must not start another side effect after it, sees it at once; a renewal that failed
    /// for another reason is found out by [`Executor::still_hold_lease`] before the next one.
    async fn keeping_lease<T>(
        store: &mut S,
        lease: &mut Option<Lease>,
        ttl: Duration,
        call: impl std::future::Future<Output = T>,
    ) -> T {
        tokio::pin!(call);
        let mut renew = tokio::time::interval(ttl / 3);
        renew.tick().await;
        loop {
            tokio::select! {
                out = &mut call => return out,
                _ = renew.tick() => {
                    if let Some(held) = lease.as_ref() {
                        match store.renew_lease(held, ttl, now()) {
                            Ok(renewed) => *lease = Some(renewed),
                            Err(error @ JournalError::LeaseLost { .. }) => {
                                tracing::warn!(%error, "lease lost during a long call; standing by after it");
                                *lease = None;
                            }
                            Err(error) => tracing::warn!(%error, "lease not renewed during a long call"),
                        }
                    }
                }
            }
        }
    }

    fn fence(&self) -> Option<Fence> {
        self.lease
            .as_ref()
            .map(Lease::fence)
            .or_else(|| self.last_fence.clone())
    }

    /// Folds events appended since the last pass (ours and everyone else's).
    fn catch_up(&mut self) -> Result<(), EngineError> {
        let query = EventQuery {
            after: self.projection.last_seq,
            ..EventQuery::default()
        };
        let mut events: Vec<Event> = Vec::new();
        self.store.scan(&query, &mut |e| events.push(e))?;
        for event in &events {
            self.projection.apply(event);
            self.rollout_log.note(event);
            self.shard_log.note(event);
            let (Some(run), Some(item)) = (&event.event.run, &event.event.item) else {
                continue;
            };
            let key = (run.clone(), item.clone());
            if let Some(checkpoint) = Checkpoint::from_event(event) {
                self.checkpoints.insert(key.clone(), checkpoint);
                self.unfolded.remove(&key);
                continue;
            }
            if let EventBody::Outcome { detail, .. } = &event.event.body
                && let Ok(observation) = serde_json::from_value::<Observation>(detail.clone())
            {
                self.unfolded
                    .entry(key.clone())
                    .or_default()
                    .push(observation);
                continue;
            }
            let actor = event.event.actor.clone();
            let observation = match &event.event.body {
                EventBody::HandedOff { to, note } => Some(Observation::HandOff {
                    to: to.clone(),
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::TakenOver { note } => Some(Observation::TakeOver {
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::Returned { outcome, note } => Some(Observation::Return {
                    outcome: *outcome,
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::Aborted { note } => Some(Observation::Return {
                    outcome: ReturnOutcome::Abort,
                    by: actor,
                    note: note.clone(),
                }),
                _ => None,
            };
            if let Some(observation) = observation {
                self.commands.entry(key).or_default().push(Pending {
                    seq: event.seq,
                    observation,
                });
            }
        }
        Ok(())
    }

    /// Maintenance runs still to drive (not succeeded, aborted or halted), with their
    /// specs. Finished runs and rollouts are passed over before anything is copied or
    /// decoded: a rollout's spec carries its manifests' text.
    fn active_maintenance(&self) -> Vec<(RunView, MaintenanceSpec)> {
        self.projection
            .runs
            .values()
            .filter(|r| {
                !r.is_rollout()
                    && !matches!(
                        r.status,
                        RunStatus::Succeeded | RunStatus::Aborted | RunStatus::Halted { .. }
                    )
            })
            .filter_map(|r| {
                let spec: MaintenanceSpec = serde::Deserialize::deserialize(&r.spec).ok()?;
                // Another shard's executor drives maintenance on its clusters.
                self.options
                    .ownership
                    .owns(&spec.cluster)
                    .then(|| (r.clone(), spec))
            })
            .collect()
    }

    /// One pass: lease, catch up with the journal, drive every active maintenance run.
    pub async fn pass(&mut self) -> Result<PassOutcome, EngineError> {
        if !self.hold_lease()? {
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
        all.extend(events);
        let fence = self.fence();
        let mut stored = self.store.append_all(all, fence.as_ref())?;
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
        key: String,
        body: EventBody,
    ) -> NewEvent {
        let mut event = NewEvent::new(now(), self.options.actor.clone(), IdempotencyKey(key), body)
            .with_run(run.clone())
            .with_cluster(cluster.clone());
        if let Some(item) = item {
            event = event.with_item(item.clone());
        }
        event
    }

    async fn drive_run(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
    ) -> Result<(), EngineError> {
        let cluster = spec.cluster.clone();
        if run.status == RunStatus::Planned {
            let body = EventBody::RunStatusChanged {
                status: RunStatus::Running,
            };
            let e = self.event(
                &run.id,
                None,
                &cluster,
                format!("{}/status/running", run.id),
                body,
            );
            self.append(e)?;
        }
        let finished = |this: &Self, item: &ItemId| {
            this.node_state(&run.id, item)
                .is_some_and(NodeState::is_finished)
        };
        let failed: Vec<String> = run
            .order
            .iter()
            .filter(|item| {
                self.node_state(&run.id, item).is_some_and(|n| {
                    matches!(n.status, crate::model::run::StepStatus::Failed { .. })
                })
            })
            .map(ToString::to_string)
            .collect();
        // Once a node failed, no further node is touched: its cordon and drain would take
        // capacity on top of a node that may not come back. Nodes already past their
        // precheck are still brought to an end (left half-drained they would help no one).
        let next: Option<Vec<ItemId>> = if failed.is_empty() {
            run.batches
                .iter()
                .find(|batch| batch.iter().any(|item| !finished(self, item)))
                .cloned()
        } else {
            let begun: Vec<ItemId> = run
                .order
                .iter()
                .filter(|item| self.node_state(&run.id, item).is_some_and(touched))
                .cloned()
                .collect();
            (!begun.is_empty()).then_some(begun)
        };
        let Some(batch) = next else {
            let status = if failed.is_empty() {
                RunStatus::Succeeded
            } else {
                RunStatus::Halted {
                    why: format!("failed nodes: {}", failed.join(", ")),
                }
            };
            let e = self.event(
                &run.id,
                None,
                &cluster,
                format!("{}/status/final", run.id),
                EventBody::RunStatusChanged { status },
            );
            self.append(e)?;
            return Ok(());
        };
        for item in batch {
            // A pause, take-over or abort written while the previous item's calls ran (a
            // hook may take many minutes) must hold this one: read the journal again.
            self.catch_up()?;
            if finished(self, &item) {
                continue;
            }
            // A node that failed earlier in this pass keeps the untouched ones untouched.
            let any_failed = run.order.iter().any(|other| {
                self.node_state(&run.id, other).is_some_and(|n| {
                    matches!(n.status, crate::model::run::StepStatus::Failed { .. })
                })
            });
            if any_failed && !self.node_state(&run.id, &item).is_some_and(touched) {
                continue;
            }
            self.drive_item(run, spec, &item).await?;
            self.flush()?;
        }
        Ok(())
    }

    /// What the node state machine decides with: now, the pause holding the node (if
    /// any), the run's spec.
    fn env<'a>(
        &'a self,
        run: &'a RunView,
        spec: &'a MaintenanceSpec,
        paused: Option<&'a str>,
        change_refused: Option<&'a str>,
    ) -> Env<'a> {
        Env {
            now: now(),
            paused,
            change_refused,
            spec,
            run: &run.id,
            actor: &self.options.actor,
        }
    }

    /// The node state an item's latest checkpoint holds, if it has one.
    fn node_state(&self, run: &RunId, item: &ItemId) -> Option<&NodeState> {
        self.checkpoints
            .get(&(run.clone(), item.clone()))
            .map(|c| &c.node_state)
    }

    /// The pause that applies to this item, if any.
    fn pause_reason(
        &self,
        run: &RunView,
        spec: &MaintenanceSpec,
        node_domain: Option<&str>,
    ) -> Option<String> {
        self.projection
            .pause_for(run)
            .or_else(|| node_domain.and_then(|d| self.projection.domain_pause(&spec.cluster, d)))
            .map(|p| format!("{} (paused by {})", p.reason, p.by))
    }

    async fn drive_item(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
    ) -> Result<(), EngineError> {
        let key = (run.id.clone(), item.clone());
        let mut checkpoint = self.checkpoints.get(&key).cloned().unwrap_or_else(|| {
            Checkpoint::new(NodeState::new(NodeName(item.as_str().to_string())))
        });
        let before = checkpoint.clone();
        let node = checkpoint.node_state.node.clone();
        let mut queue: VecDeque<Observation> = VecDeque::new();

        // 0. Outcomes a dead executor recorded but never folded: feed them again (the
        // evictions of one batch as one observation, as they were first fed).
        for observation in self.unfolded.remove(&key).unwrap_or_default() {
            match (queue.back_mut(), observation) {
                (Some(Observation::Evictions(all)), Observation::Evictions(mut more)) => {
                    all.append(&mut more)
                }
                (_, observation) => queue.push_back(observation),
            }
        }

        // 1. Intents a dead executor left open: observe, settle, record the outcome.
        let open: Vec<(IdempotencyKey, Intent)> = self
            .projection
            .runs
            .get(&run.id)
            .and_then(|r| r.items.get(item))
            .map(|i| {
                i.open_intents
                    .iter()
                    .filter_map(|(k, o)| Some((k.clone(), Intent::from_journal(&o.detail)?)))
                    .collect()
            })
            .unwrap_or_default();
        for (intent_key, intent) in open {
            let seen = match self
                .port
                .observe_for_restart(&spec.cluster, &node, &what_to_observe(&intent))
                .await
            {
                Ok(seen) => seen,
                Err(error) => {
                    tracing::warn!(%error, "cannot settle an open intent yet");
                    if !queue.is_empty() {
                        // Outcomes not folded yet must not end up behind a newer
                        // checkpoint (where a restart would not replay them): keep them
                        // for the next pass and change nothing now.
                        self.unfolded
                            .entry(key.clone())
                            .or_default()
                            .extend(queue.drain(..));
                        return Ok(());
                    }
                    // Nothing is done to the node meanwhile; past the step's deadline
                    // it is shown stuck, with why.
                    let domain =
                        self.node_domain(&spec.cluster, &node, &spec.budgets.failure_domain_label);
                    let paused = self.pause_reason(run, spec, domain.as_deref());
                    let (next, actions) = crate::model::maintenance::unsettled(
                        &checkpoint.node_state,
                        &self.env(run, spec, paused.as_deref(), None),
                        &error.to_string(),
                    );
                    checkpoint.node_state = next;
                    for action in actions {
                        self.perform(run, spec, item, &mut checkpoint, action)
                            .await?;
                    }
                    return self.save_checkpoint(run, spec, item, checkpoint, &before);
                }
            };
            let hook_idempotent = matches!(&spec.action, crate::model::maintenance::MaintainAction::Exec(h) if h.idempotent);
            let resolution = reconcile(&intent, &seen, hook_idempotent);
            if matches!(resolution, crate::model::maintenance::Resolution::Unknown) {
                return Ok(());
            }
            let ok = matches!(resolution, crate::model::maintenance::Resolution::Happened);
            tracing::info!(?seen, ?resolution, run = %run.id, %item, "settled an intent left open by a previous executor");
            let observation = Observation::Reconciled { intent, resolution };
            // The outcome carries the observation, so a crash before the next checkpoint
            // replays it rather than losing it.
            let body = EventBody::Outcome {
                intent: intent_key.clone(),
                ok,
                detail: serde_json::to_value(&observation).unwrap_or_default(),
            };
            let e = self.event(
                &run.id,
                Some(item),
                &spec.cluster,
                format!("{intent_key}/outcome"),
                body,
            );
            self.append(e)?;
            queue.push_back(observation);
        }

        // 2. Operator commands not yet fed.
        let commands = self.commands.remove(&key).unwrap_or_default();
        for command in commands {
            if checkpoint.consumed.is_some_and(|c| command.seq <= c) {
                continue;
            }
            checkpoint.consumed = Some(command.seq);
            queue.push_back(command.observation);
        }
        queue.push_back(Observation::Tick);

        // 3. Run the state machine until it has nothing more to do right now.
        let domain_label = spec.budgets.failure_domain_label.clone();
        let domain = self.node_domain(&spec.cluster, &node, &domain_label);
        // Asked once per item and pass: a cluster that may not be changed gets no intent
        // (and no call) at all, rather than one refused intent per pass.
        let change_refused = self.port.change_refused(&spec.cluster);
        let window = self.window_wait(run, spec, item, &checkpoint.node_state)?;
        let mut steps = 0;
        while let Some(observation) = queue.pop_front() {
            steps += 1;
            if steps > 200 {
                break; // a safety net against a livelock; the next pass continues
            }
            let paused = self
                .pause_reason(run, spec, domain.as_deref())
                .or_else(|| window.clone());
            let (next, actions) = step(
                checkpoint.node_state.clone(),
                &self.env(run, spec, paused.as_deref(), change_refused.as_deref()),
                observation,
            );
            checkpoint.node_state = next;
            let mut evictions: Vec<(PodRef, Option<Duration>)> = Vec::new();
            for action in actions {
                if let Action::Evict { pod, grace_period } = action {
                    evictions.push((pod, grace_period));
                    continue;
                }
                match self
                    .perform(run, spec, item, &mut checkpoint, action)
                    .await?
                {
                    Some(observation) => queue.push_back(observation),
                    None if self.lease.is_none() => return Ok(()),
                    None => {}
                }
            }
            if !evictions.is_empty() {
                match self
                    .evict_all(run, spec, item, &mut checkpoint, evictions)
                    .await?
                {
                    Some(observation) => queue.push_back(observation),
                    None if self.lease.is_none() => return Ok(()),
                    None => {}
                }
            }
        }
        self.note_waiting(run, spec, item, &mut checkpoint, &before)?;
        self.save_checkpoint(run, spec, item, checkpoint, &before)
    }

    /// Journals what the node's step now waits for (a PDB that would refuse its pods,
    /// displaced pods that would not fit, a cluster that may not be changed) when that
    /// changed since `before`: `maintenance show` and the console say it while the step
    /// waits, not only once it is overdue.
    fn note_waiting(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: &mut Checkpoint,
        before: &Checkpoint,
    ) -> Result<(), EngineError> {
        let waiting = checkpoint.node_state.waiting_on.clone();
        if waiting.is_empty() || waiting == before.node_state.waiting_on {
            return Ok(());
        }
        let step = checkpoint.node_state.step.name();
        let key = format!(
            "{}/{}/{}/waiting#{}",
            run.id,
            item,
            step,
            checkpoint.next_attempt(&format!("waiting/{step}"))
        );
        let body = EventBody::Waiting {
            why: waiting.join("; "),
        };
        let e = self
            .event(&run.id, Some(item), &spec.cluster, key, body)
            .with_step(step);
        self.append(e)
    }

    /// Journals the item's checkpoint when it changed since `before`, and keeps it.
    fn save_checkpoint(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: Checkpoint,
        before: &Checkpoint,
    ) -> Result<(), EngineError> {
        if checkpoint == *before {
            return Ok(());
        }
        let body = checkpoint.to_body();
        let seq = self.projection.last_seq.map_or(0, |s| s.0);
        let e = self.event(
            &run.id,
            Some(item),
            &spec.cluster,
            format!(
                "{}/{}/checkpoint@{}/{}",
                run.id,
                item,
                seq,
                now().as_nanosecond()
            ),
            body,
        );
        self.append(e)?;
        self.checkpoints
            .insert((run.id.clone(), item.clone()), checkpoint);
        Ok(())
    }

    /// The node's failure domain (its `label` value) from the live fleet view, if the
    /// node is known there. A node without the label is in the domain `""`, as the
    /// mass-failure guard counts it, so that a guard pause of unlabelled nodes holds them.
    fn node_domain(&self, cluster: &ClusterId, node: &NodeName, label: &str) -> Option<String> {
        let snapshot = self.fleet.as_ref()?.borrow().clone();
        let live = snapshot.cluster(&cluster.0)?;
        let view_node = live
            .view
            .nodes
            .iter()
            .find(|n| n.name.as_str() == node.as_str())?;
        Some(
            view_node
                .labels
                .get(label)
                .map(|v| v.to_string())
                .unwrap_or_default(),
        )
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
                Err(EngineError::Journal(error @ JournalError::Unavailable(_))) => {
                    // Whether the last write went in is unknown: act on nothing until the
                    // lease is held again, then carry on from the journal as a new
                    // executor would (open intents are settled by observing).
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
