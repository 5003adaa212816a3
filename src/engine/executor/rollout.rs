//! The executor's rollout half: the same lease and journal as node maintenance, one level
//! up. Each observation fed to a rollout's reducer is journaled (`rollout.observed`) in one
//! transaction with the events the reducer asked for and the intents of the applies it
//! started, before any of those applies happens; the outcome is journaled after. A new
//! executor rebuilds each run by replaying those observations, then tells the reducer it
//! restarted, which settles applies without outcome by reading each cluster's release
//! record, never by applying again blindly.
//!
//! Over 600 lines: the rollout half of a pass (apply, verify, soak, evidence, batches), one
//! state per run; calls between shards are in `shard.rs` and a remote apply in
//! `rollout_remote.rs`. Apply and verify driving split next if it grows.

#[path = "rollout_remote.rs"]
mod remote;

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use jiff::Timestamp;

use super::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::MaintenancePort;
use crate::model::rollout::{
    Action, AppliedSeen, ItemPhase, Observation, ReleaseDigest, RolloutPort, RolloutRunSpec,
    RolloutStatus, RunState, VerifyProgress, replay, soak_awaits_evidence, step, unfolded_applies,
};
use crate::model::run::{
    EventBody, IdempotencyKey, ItemId, NewEvent, PauseScope, RunId, RunStatus, Sequence,
};
use crate::model::shard::ShardCall;

/// What the executor keeps about one rollout run between passes.
pub(super) struct RolloutRuntime {
    spec: RolloutRunSpec,
    state: RunState,
    /// The last operator command folded into the state.
    consumed: Option<Sequence>,
    /// Clusters whose checks are running, since when.
    verifying: BTreeMap<ClusterId, Instant>,
    /// When metric evidence was last collected.
    evidence_at: Option<Instant>,
    /// Applies whose intent is journaled but that wait (a frozen cluster, a run halted
    /// or paused before they started), with their intent's key.
    deferred: BTreeMap<ClusterId, IdempotencyKey>,
    /// What a pass left unfed and unperformed when it reached its step limit, continued
    /// first by the next pass.
    leftover: Vec<Frame>,
    /// The kind of wait last journaled for each waiting apply, so that a wait is written
    /// once, not once per pass.
    noted: BTreeMap<ClusterId, &'static str>,
    /// A call handed to another shard's executor whose answer the run waits for before
    /// anything else of it is fed or done (see `remote`).
    parked: Option<remote::Parked>,
    /// Verifications handed to other shards' executors: the request of each cluster.
    remote_checks: BTreeMap<ClusterId, IdempotencyKey>,
}

/// An observation waiting to be fed, with the operator command it came from.
pub(super) struct Feed {
    observation: Observation,
    command: Option<Sequence>,
}

/// Observations fed per pass at most (a run of hundreds of clusters settling after a
/// restart needs about two per cluster); the rest waits for the next pass.
const MAX_STEPS_PER_PASS: usize = 2000;

/// Observations still to feed and the actions of the last one fed, still to perform.
struct Frame {
    feeds: VecDeque<Feed>,
    actions: VecDeque<Action>,
}

impl Frame {
    fn feeds(feeds: Vec<Feed>) -> Frame {
        Frame {
            feeds: feeds.into(),
            actions: VecDeque::new(),
        }
    }

    fn actions(actions: Vec<Action>) -> Frame {
        Frame {
            feeds: VecDeque::new(),
            actions: actions.into(),
        }
    }
}

/// Whether feeding `observation` changed nothing worth keeping: the journal then stays
/// quiet (a replay without it reaches the same state). Its actions are still performed:
/// they only read (asking a cluster for its release record again, gathering evidence).
fn is_noise(
    observation: &Observation,
    before: &RunState,
    after: &RunState,
    actions: &[Action],
) -> bool {
    matches!(
        observation,
        Observation::Tick | Observation::Evidence(_) | Observation::Reconciled { .. }
    ) && before == after
        && actions.iter().all(|a| {
            matches!(
                a,
                Action::CollectEvidence { .. } | Action::WakeAt(_) | Action::ObserveApplied { .. }
            )
        })
}

impl<S: JournalStore, P: MaintenancePort + RolloutPort + Sync> Executor<S, P> {
    /// Drives every live rollout run once. A fleet-wide pause freezes them: nothing is
    /// fed, nothing new is applied, nothing is undone.
    pub(super) async fn drive_rollouts(&mut self) -> Result<(), EngineError> {
        // Observations the journal holds that no person's command backs are not replayed;
        // the timeline says so, once each (the same key again is the same note).
        for (run, seq, why) in std::mem::take(&mut self.rollout_log.unbacked) {
            let note = NewEvent::new(
                self.now(),
                self.options.actor.clone(),
                IdempotencyKey::for_run(&run, &format!("unbacked@{}", seq.0)),
                EventBody::ExecutorNote {
                    text: format!("journal event {} not replayed: {why}", seq.0),
                },
            )
            .with_run(run);
            self.append(note)?;
        }
        if self.projection.pauses.contains_key(&PauseScope::Fleet) {
            return Ok(());
        }
        let runs: Vec<RunId> = self
            .rollout_log
            .specs
            .iter()
            .filter(|(_, (spec, _))| self.options.ownership.coordinates(&remote::clusters(spec)))
            .map(|(run, _)| run.clone())
            .collect();
        for run in runs {
            if self.lease.is_none() {
                return Ok(());
            }
            self.drive_rollout(&run).await?;
        }
        Ok(())
    }

    /// Rebuilds a run from the journal: its starting state, every observation fed so far,
    /// then `Restarted` when anything had happened (applies without outcome get settled).
    fn rebuild(&mut self, run: &RunId) -> Option<(RolloutRuntime, bool)> {
        let (spec, author) = self.rollout_log.specs.get(run)?.clone();
        let observed = self
            .rollout_log
            .observed
            .get(run)
            .cloned()
            .unwrap_or_default();
        let consumed = observed.iter().filter_map(|(_, _, c)| *c).max();
        let started = !observed.is_empty();
        let state = replay(
            spec.initial_state(run.clone(), author),
            observed.into_iter().map(|(at, o, _)| (at, o)),
        );
        Some((
            RolloutRuntime {
                spec,
                state,
                consumed,
                verifying: BTreeMap::new(),
                evidence_at: None,
                deferred: BTreeMap::new(),
                leftover: Vec::new(),
                noted: BTreeMap::new(),
                parked: None,
                remote_checks: BTreeMap::new(),
            },
            started,
        ))
    }

    async fn drive_rollout(&mut self, run: &RunId) -> Result<(), EngineError> {
        let mut queue: Vec<Feed> = Vec::new();
        let mut runtime = match self.rollouts.remove(run) {
            Some(r) => r,
            None => {
                let Some((runtime, started)) = self.rebuild(run) else {
                    return Ok(());
                };
                if started {
                    // Applies that reported before the stop are folded as they reported;
                    // only those that never did are settled by reading the cluster.
                    let outcomes = &self.rollout_log.apply_outcomes;
                    let reported =
                        unfolded_applies(&runtime.state, |intent| outcomes.get(intent).cloned());
                    queue.extend(reported.into_iter().map(|observation| Feed {
                        observation,
                        command: None,
                    }));
                    queue.push(Feed {
                        observation: Observation::Restarted,
                        command: None,
                    });
                }
                runtime
            }
        };
        if runtime.parked.is_some() && !self.unpark(run, &mut runtime)? {
            // Another shard's executor has not answered yet: nothing else of this run
            // moves meanwhile, as nothing would while an apply of its own ran.
            self.rollouts.insert(run.clone(), runtime);
            return Ok(());
        }
        if matches!(
            runtime.state.status,
            RolloutStatus::Succeeded | RolloutStatus::Aborted { .. }
        ) {
            // Finished: applies that waited never start; their intents are closed. After
            // a restart an aborted run still settles the applies it left without outcome
            // (by reading the clusters), and nothing else.
            let result = match self.close_held_applies(run, &mut runtime) {
                Ok(())
                    if runtime
                        .state
                        .items
                        .values()
                        .any(|i| i.phase == ItemPhase::Applying) =>
                {
                    self.feed_all(run, &mut runtime, vec![Frame::feeds(queue)])
                        .await
                }
                other => other,
            };
            self.rollouts.insert(run.clone(), runtime);
            return result;
        }
        if self
            .projection
            .runs
            .get(run)
            .is_some_and(|r| r.status == RunStatus::Planned)
        {
            let e = NewEvent::new(
                self.now(),
                self.options.actor.clone(),
                IdempotencyKey::for_run(run, "status/running"),
                EventBody::RunStatusChanged {
                    status: RunStatus::Running,
                },
            )
            .with_run(run.clone());
            self.append(e)?;
        }
        // Evidence first: it is judged against the clusters it was collected for, before
        // a command or a tick reaches new ones.
        if let Some(evidence) = self.due_evidence(&mut runtime).await {
            queue.push(evidence);
        }
        if self.lease.is_none() {
            // Lost while the evidence was read: the new holder rebuilds the run.
            self.rollouts.insert(run.clone(), runtime);
            return Ok(());
        }
        // Operator commands not folded yet, in journal order.
        for (seq, observation) in self
            .rollout_log
            .commands
            .get(run)
            .cloned()
            .unwrap_or_default()
        {
            if runtime.consumed.is_some_and(|c| seq <= c) {
                continue;
            }
            // No evidence is gathered while a batch waits for its approval, which may be
            // hours: the approval is judged with evidence from now, so that harm seen since
            // the last soak halts the run before the approved batch starts.
            if matches!(observation, Observation::Approve { .. })
                && let Some(evidence) = self.collect_evidence(&mut runtime).await
            {
                queue.push(evidence);
            }
            queue.push(Feed {
                observation,
                command: Some(seq),
            });
        }
        // Applies that waited go out once their cluster thaws, each as an action of its
        // own: performed after the commands above were folded, each report folded before
        // the next starts, and held again if the run is not running (then) any more.
        let thawed = self.thawed_applies(run, &mut runtime)?;
        let mut reports = self.poll_verifications(&mut runtime).await;
        if self.lease.is_none() {
            // Lost while checks ran: what they found is read again by the new holder.
            self.rollouts.insert(run.clone(), runtime);
            return Ok(());
        }
        reports.push(Feed {
            observation: Observation::Tick,
            command: None,
        });
        // A stack: the last frame is worked through first.
        let mut frames = vec![
            Frame::feeds(reports),
            Frame::actions(thawed),
            Frame::feeds(queue),
        ];
        frames.append(&mut runtime.leftover);
        let result = self.feed_all(run, &mut runtime, frames).await;
        self.rollouts.insert(run.clone(), runtime);
        result
    }

    /// Whether applies of `run` must wait: the fleet or the run is paused, or operator
    /// commands for it are still to be folded (one may be a pause or an abort). Waiting
    /// applies go out once the run is running with nothing left to fold.
    fn apply_held(&self, run: &RunId, runtime: &RolloutRuntime) -> bool {
        let pauses = &self.projection.pauses;
        pauses.contains_key(&PauseScope::Fleet)
            || pauses.contains_key(&PauseScope::Run { run: run.clone() })
            || self.rollout_log.commands.get(run).is_some_and(|commands| {
                commands
                    .iter()
                    .any(|(seq, _)| runtime.consumed.is_none_or(|done| *seq > done))
            })
    }

    /// What holds an apply to `cluster` now, if anything: a freeze, a paused failure
    /// domain of it (the mass-failure guard's, or a person's), or a cluster that may not be
    /// changed (its identity not confirmed against the ledger's pin).
    pub(super) fn hold_of(&self, cluster: &ClusterId) -> Option<crate::model::rollout::ApplyHold> {
        if !self.options.ownership.owns(cluster) {
            // Another shard's executor checks that cluster's identity itself, before it
            // applies; what the journal says (a freeze, a paused domain) holds here.
            return crate::model::rollout::apply_hold(&self.projection.pauses, cluster, None);
        }
        let refused = self.port.change_refused(cluster);
        crate::model::rollout::apply_hold(&self.projection.pauses, cluster, refused.as_deref())
            .or_else(|| {
                // Last: a window is a schedule, not a problem; the others say more.
                let now = self.now();
                let hold = self
                    .windows
                    .hold(cluster, &self.projection.window_overrides, now)?;
                Some(crate::model::rollout::ApplyHold::OutsideWindow {
                    cluster: cluster.to_string(),
                    why: hold.describe(now),
                })
            })
    }

    /// Applies the release to one cluster and journals the outcome; `None` when the lease
    /// was lost before the apply could start (its intent stays open, and the executor
    /// that holds the lease now settles it by reading the cluster).
    pub(super) async fn apply_now(
        &mut self,
        run: &RunId,
        spec: &RolloutRunSpec,
        cluster: ClusterId,
        key: IdempotencyKey,
    ) -> Result<Option<Feed>, EngineError> {
        // The deployed id decides: a cluster whose release record already names this
        // digest (applied by an earlier run whose journal is gone, or by hand with
        // fleetdeck's record) is not applied again. A slow cluster can take longer to
        // answer than the lease lives: renewed meanwhile.
        let ttl = self.options.lease_ttl;
        let recorded = Self::keeping_lease(
            &mut self.store,
            &mut self.lease,
            ttl,
            &self.options.clock,
            self.port.applied_release(&cluster),
        )
        .await;
        let result = match recorded {
            AppliedSeen::Digest { digest } if digest == spec.digest => {
                tracing::info!(%run, %cluster, %digest, "release already recorded on the cluster; not applied again");
                Ok(digest)
            }
            _ => {
                // Only an executor that held the lease without a break since it journaled
                // the intent starts the change: a standby that took over meanwhile has
                // read the same open intent and applies it itself.
                if !self.still_hold_lease()? {
                    tracing::warn!(%run, %cluster, "lease lost before the apply; not started");
                    return Ok(None);
                }
                // What is applied is what was digested: a plan whose manifests or release
                // do not give its digest applies nothing, anywhere.
                if let Err(refused) = spec.check_digest() {
                    tracing::error!(%run, %cluster, %refused, "release digest does not match the planned manifests");
                    let detail =
                        serde_json::to_value(Err::<ReleaseDigest, _>(&refused)).unwrap_or_default();
                    self.append_outcome(run, &cluster, &key, false, detail)?;
                    return Ok(Some(Feed {
                        observation: Observation::Applied {
                            cluster,
                            result: Err(refused),
                        },
                        command: None,
                    }));
                }
                Self::keeping_lease(
                    &mut self.store,
                    &mut self.lease,
                    ttl,
                    &self.options.clock,
                    self.port.apply_release(&cluster, spec, &key),
                )
                .await
            }
        };
        match &result {
            Ok(digest) => tracing::info!(%run, %cluster, %digest, "release applied"),
            Err(error) => tracing::warn!(%run, %cluster, %error, "release apply failed"),
        }
        let detail = serde_json::to_value(&result).unwrap_or_default();
        self.append_outcome(run, &cluster, &key, result.is_ok(), detail)?;
        Ok(Some(Feed {
            observation: Observation::Applied { cluster, result },
            command: None,
        }))
    }

    /// Keeps an apply whose intent is journaled for later, noting why once (under the
    /// intent's key with `suffix`): it goes out when the run is running and its cluster
    /// not frozen (`thawed_applies`), or a restart settles it by reading the cluster.
    fn hold_apply(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
        cluster: ClusterId,
        key: IdempotencyKey,
        suffix: &'static str,
        why: String,
    ) -> Result<(), EngineError> {
        self.note_wait(run, &cluster, &key, suffix, why)?;
        runtime.noted.insert(cluster.clone(), suffix);
        runtime.deferred.insert(cluster, key);
        Ok(())
    }

    /// Journals what the apply of intent `key` waits for, once per `suffix`.
    pub(super) fn note_wait(
        &mut self,
        run: &RunId,
        cluster: &ClusterId,
        key: &IdempotencyKey,
        suffix: &str,
        why: String,
    ) -> Result<(), EngineError> {
        let note = NewEvent::new(
            self.now(),
            self.options.actor.clone(),
            key.follow_up(suffix),
            EventBody::Waiting { why },
        )
        .with_run(run.clone())
        .with_cluster(cluster.clone())
        .with_item(ItemId(cluster.to_string()));
        self.append(note)
    }

    /// Applies that waited, whose cluster nothing holds (any more), taken out of the
    /// waiting list as the actions that start them. One still held is noted under the
    /// reason it waits for now, once per reason (a frozen cluster thawed while its
    /// identity is still unconfirmed goes on waiting, saying why).
    fn thawed_applies(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
    ) -> Result<Vec<Action>, EngineError> {
        let mut thawed = Vec::new();
        let waiting: Vec<(ClusterId, IdempotencyKey)> = runtime
            .deferred
            .iter()
            .map(|(c, k)| (c.clone(), k.clone()))
            .collect();
        for (cluster, key) in waiting {
            match self.hold_of(&cluster) {
                None => thawed.push(cluster),
                Some(hold) => {
                    let suffix = hold.key_suffix();
                    if runtime.noted.get(&cluster) != Some(&suffix) {
                        self.note_wait(run, &cluster, &key, suffix, hold.to_string())?;
                        runtime.noted.insert(cluster, suffix);
                    }
                }
            }
        }
        Ok(thawed
            .into_iter()
            .filter_map(|cluster| {
                let key = runtime.deferred.remove(&cluster)?;
                Some(Action::Apply {
                    cluster,
                    digest: runtime.spec.digest.clone(),
                    key,
                })
            })
            .collect())
    }

    /// Journals the outcome of apply intent `key`, under the key any executor uses for it.
    fn append_outcome(
        &mut self,
        run: &RunId,
        cluster: &ClusterId,
        key: &IdempotencyKey,
        ok: bool,
        detail: serde_json::Value,
    ) -> Result<(), EngineError> {
        let outcome = NewEvent::new(
            self.now(),
            self.options.actor.clone(),
            key.outcome(),
            EventBody::Outcome {
                intent: key.clone(),
                ok,
                detail,
            },
        )
        .with_run(run.clone())
        .with_cluster(cluster.clone())
        .with_item(ItemId(cluster.to_string()));
        self.append(outcome)?;
        Ok(())
    }

    /// Closes the intents of applies that waited in a run that finished without them:
    /// they never started.
    fn close_held_applies(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
    ) -> Result<(), EngineError> {
        for (cluster, key) in std::mem::take(&mut runtime.deferred) {
            let why = format!(
                "not applied: the run ended ({}) before it started",
                runtime.state.status
            );
            // Not `Err`: nothing failed, and a rebuild must not fold it as a failed
            // apply (it reads the cluster, finds nothing, and leaves the cluster pending).
            let detail = serde_json::json!({ "NotStarted": why });
            self.append_outcome(run, &cluster, &key, false, detail)?;
        }
        Ok(())
    }

    /// Checks of clusters in verification, once each; verdicts become observations.
    async fn poll_verifications(&mut self, runtime: &mut RolloutRuntime) -> Vec<Feed> {
        let mut out = Vec::new();
        let clusters: Vec<(ClusterId, Instant)> = runtime
            .verifying
            .iter()
            .map(|(c, t)| (c.clone(), *t))
            .collect();
        for (cluster, since) in clusters {
            if self.lease.is_none() {
                break;
            }
            if !self.options.ownership.owns(&cluster) {
                if let Some(outcome) = self.remote_verdict(runtime, &cluster, since) {
                    runtime.verifying.remove(&cluster);
                    runtime.remote_checks.remove(&cluster);
                    out.push(Feed {
                        observation: Observation::Verified { cluster, outcome },
                        command: None,
                    });
                }
                continue;
            }
            // Checks may run programs for minutes: keep the lease meanwhile.
            let ttl = self.options.lease_ttl;
            let progress = Self::keeping_lease(
                &mut self.store,
                &mut self.lease,
                ttl,
                &self.options.clock,
                self.port
                    .verify_release(&cluster, &runtime.spec, since.elapsed()),
            )
            .await;
            let outcome = match progress {
                VerifyProgress::Done(outcome) => outcome,
                VerifyProgress::NotYet { why, at_deadline } => {
                    if since.elapsed() < self.options.rollout.verify_timeout {
                        tracing::debug!(%cluster, %why, "checks not passing yet");
                        continue;
                    }
                    at_deadline
                }
            };
            runtime.verifying.remove(&cluster);
            out.push(Feed {
                observation: Observation::Verified { cluster, outcome },
                command: None,
            });
        }
        out
    }

    /// Metric evidence for the clusters the release reached, at most once per interval,
    /// whenever a batch is active and the rollout has an SLO condition.
    async fn due_evidence(&mut self, runtime: &mut RolloutRuntime) -> Option<Feed> {
        runtime.state.stop_when.slo_burn_rate.as_ref()?;
        let state = &runtime.state;
        if state.status != RolloutStatus::Running
            || !state
                .batches
                .get(state.current)
                .is_some_and(|b| b.phase.is_active())
        {
            return None;
        }
        // At most once per interval, unless a soak is over without evidence: it waits for
        // some (a soak shorter than the interval would otherwise never see any).
        if runtime
            .evidence_at
            .is_some_and(|at| at.elapsed() < self.options.rollout.evidence_interval)
            && !soak_awaits_evidence(state, self.now())
        {
            return None;
        }
        self.collect_evidence(runtime).await
    }

    /// Metric evidence for the clusters the release reached, now: `None` without an SLO
    /// condition or before the release reached any cluster.
    async fn collect_evidence(&mut self, runtime: &mut RolloutRuntime) -> Option<Feed> {
        let slo = runtime.state.stop_when.slo_burn_rate.clone()?;
        let reached: Vec<ClusterId> = runtime
            .state
            .items
            .iter()
            .filter(|(_, i)| i.phase != crate::model::rollout::ItemPhase::Pending)
            .map(|(c, _)| c.clone())
            .collect();
        if reached.is_empty() {
            return None;
        }
        runtime.evidence_at = Some(Instant::now());
        // One query per cluster, each allowed seconds: a fleet's evidence can take longer
        // than the lease lives, so it is renewed meanwhile.
        let ttl = self.options.lease_ttl;
        let evidence = Self::keeping_lease(
            &mut self.store,
            &mut self.lease,
            ttl,
            &self.options.clock,
            self.port.burn_evidence(&reached, &slo),
        )
        .await;
        Some(Feed {
            observation: Observation::Evidence(evidence),
            command: None,
        })
    }

    /// Feeds observations until none is left, journaling each before acting on it.
    /// Depth first: what an action reports is fed (and acted on) before the step's next
    /// action is performed. A failed apply that halts the run is thus folded before the
    /// batch's next apply would start, and that apply waits: its intent is journaled, a
    /// person's resume sends it, and a restart settles it by reading the cluster.
    async fn feed_all(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
        mut frames: Vec<Frame>,
    ) -> Result<(), EngineError> {
        let mut steps = 0;
        while let Some(frame) = frames.last_mut() {
            if let Some(action) = frame.actions.pop_front() {
                let reports = self.perform_rollout(run, runtime, action).await?;
                if self.lease.is_none() {
                    // Nothing more is started; the new holder rebuilds the run from
                    // the journal and settles what was left open.
                    return Ok(());
                }
                if runtime.parked.is_some() {
                    // Handed to another shard: the rest goes on once it answered.
                    runtime.leftover = std::mem::take(&mut frames);
                    return Ok(());
                }
                if !reports.is_empty() {
                    frames.push(Frame {
                        feeds: reports.into(),
                        actions: VecDeque::new(),
                    });
                }
                continue;
            }
            if frame.feeds.is_empty() {
                frames.pop();
                continue;
            }
            steps += 1;
            if steps > MAX_STEPS_PER_PASS {
                // A safety net against a livelock: the next pass continues from here, so
                // no report is lost and no journaled apply is left behind.
                runtime.leftover = frames;
                return Ok(());
            }
            let Some(feed) = frame.feeds.pop_front() else {
                continue;
            };
            let at = self.now();
            let before = runtime.state.clone();
            let (next, actions) = step(before.clone(), at, feed.observation.clone());
            if feed.command.is_none() && is_noise(&feed.observation, &before, &next, &actions) {
                frame.actions = actions.into();
                continue;
            }
            // Apply intents are journaled only under a lease held without a break since
            // the pass caught up: one lost meanwhile (a slow read, a stalled process) may
            // already have let a standby act on the same clusters.
            if actions.iter().any(|a| matches!(a, Action::Apply { .. }))
                && !self.still_hold_lease()?
            {
                return Ok(());
            }
            if let Some(seq) = feed.command {
                runtime.consumed = Some(seq);
            }
            self.journal_step(run, at, &feed, &actions)?;
            runtime.state = next;
            frame.actions = actions.into();
        }
        Ok(())
    }

    /// One transaction: the observation, the events the reducer asked for, and the
    /// intents of the applies it started.
    fn journal_step(
        &mut self,
        run: &RunId,
        at: Timestamp,
        feed: &Feed,
        actions: &[Action],
    ) -> Result<(), EngineError> {
        let actor = self.options.actor.clone();
        let seq = self.projection.last_seq.map_or(0, |s| s.0);
        let mut events = vec![
            NewEvent::new(
                at,
                actor.clone(),
                IdempotencyKey::for_run(
                    run,
                    &format!(
                        "observed@{seq}/{}/{}",
                        feed.command.map_or(0, |c| c.0),
                        at.as_nanosecond()
                    ),
                ),
                EventBody::RolloutObserved {
                    observation: feed.observation.clone(),
                    command: feed.command.map(|c| c.0),
                },
            )
            .with_run(run.clone()),
        ];
        for action in actions {
            let event = match action {
                Action::Journal { cluster, key, body } => {
                    let e = NewEvent::new(at, actor.clone(), key.clone(), body.clone())
                        .with_run(run.clone());
                    match cluster {
                        Some(c) => e.with_cluster(c.clone()).with_item(ItemId(c.to_string())),
                        None => e,
                    }
                }
                Action::Apply {
                    cluster,
                    digest,
                    key,
                } => NewEvent::new(
                    at,
                    actor.clone(),
                    key.clone(),
                    EventBody::Intent {
                        action: "apply".into(),
                        detail: serde_json::json!({"digest": digest}),
                        identity: self.port.releasing_as(cluster),
                    },
                )
                .with_run(run.clone())
                .with_cluster(cluster.clone())
                .with_item(ItemId(cluster.to_string())),
                Action::Refused(refusal) => NewEvent::new(
                    at,
                    actor.clone(),
                    IdempotencyKey::for_run(
                        run,
                        &format!(
                            "refused/{}/{}",
                            feed.command.map_or(0, |c| c.0),
                            at.as_nanosecond()
                        ),
                    ),
                    EventBody::ExecutorNote {
                        text: format!("refused: {refusal}"),
                    },
                )
                .with_run(run.clone()),
                _ => continue,
            };
            events.push(event);
        }
        self.commit(events)?;
        Ok(())
    }

    /// Performs one side effect; returns the observations it produced.
    async fn perform_rollout(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
        action: Action,
    ) -> Result<Vec<Feed>, EngineError> {
        let feed = |observation| Feed {
            observation,
            command: None,
        };
        match action {
            Action::Apply { cluster, key, .. } => {
                // A pause or an abort written while the batch's earlier applies ran is
                // read before each apply; the apply then waits like a frozen one.
                self.catch_up()?;
                if runtime.state.status != RolloutStatus::Running {
                    // Halted (or paused) by what an earlier apply of the same step
                    // reported: the intent is journaled, the apply waits for a person.
                    let why = format!(
                        "apply to {cluster} waits: the run is {}",
                        runtime.state.status
                    );
                    self.hold_apply(run, runtime, cluster, key, "held", why)?;
                    return Ok(Vec::new());
                }
                if self.apply_held(run, runtime) {
                    runtime.deferred.insert(cluster, key);
                    return Ok(Vec::new());
                }
                if let Some(hold) = self.hold_of(&cluster) {
                    // The intent is journaled; the apply waits for the hold to lift (and
                    // after a restart, the release record says it never happened).
                    let suffix = hold.key_suffix();
                    self.hold_apply(run, runtime, cluster, key, suffix, hold.to_string())?;
                    return Ok(Vec::new());
                }
                if !self.options.ownership.owns(&cluster) {
                    self.dispatch(run, runtime, cluster, ShardCall::Apply, Some(key))?;
                    return Ok(Vec::new());
                }
                Ok(self
                    .apply_now(run, &runtime.spec, cluster, key)
                    .await?
                    .into_iter()
                    .collect())
            }
            Action::Verify { cluster } => {
                if !self.options.ownership.owns(&cluster)
                    && !runtime.remote_checks.contains_key(&cluster)
                {
                    let request =
                        self.dispatch(run, runtime, cluster.clone(), ShardCall::Verify, None)?;
                    runtime.remote_checks.insert(cluster.clone(), request);
                }
                runtime
                    .verifying
                    .entry(cluster)
                    .or_insert_with(Instant::now);
                Ok(Vec::new())
            }
            Action::ObserveApplied { cluster } if !self.options.ownership.owns(&cluster) => {
                self.dispatch(run, runtime, cluster, ShardCall::Read, None)?;
                Ok(Vec::new())
            }
            Action::ObserveApplied { cluster } => {
                // Settling decides whether to apply again: the lease must not run out
                // while a slow cluster answers.
                let ttl = self.options.lease_ttl;
                let seen = Self::keeping_lease(
                    &mut self.store,
                    &mut self.lease,
                    ttl,
                    &self.options.clock,
                    self.port.applied_release(&cluster),
                )
                .await;
                Ok(vec![feed(Observation::Reconciled { cluster, seen })])
            }
            Action::AwaitApproval { batch } => {
                tracing::info!(%run, batch = batch + 1, "batch awaits approval");
                Ok(Vec::new())
            }
            // Evidence is collected on its own interval (at once when a soak ended without
            // any, see `due_evidence`); soaks are re-judged every pass; journal events and
            // refusals were written with the observation.
            Action::CollectEvidence { .. }
            | Action::WakeAt(_)
            | Action::Journal { .. }
            | Action::Refused(_) => Ok(Vec::new()),
        }
    }
}

/// Rollout settings of the executor.
#[derive(Debug, Clone)]
pub struct RolloutOptions {
    /// How long a cluster's checks may keep saying "not yet" before the verdict is final.
    pub verify_timeout: Duration,
    /// How often SLO evidence is queried while a batch is active.
    pub evidence_interval: Duration,
}

impl Default for RolloutOptions {
    fn default() -> Self {
        RolloutOptions {
            verify_timeout: Duration::from_secs(600),
            evidence_interval: Duration::from_secs(10),
        }
    }
}
