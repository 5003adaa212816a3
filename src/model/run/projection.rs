//! Current state as a pure fold over journal events: runs, items, steps, open intents,
//! pause switches and hand-offs. The store only feeds events in; every rule about what an
//! event means lives here, where it is unit-tested.
//!
//! Over 600 lines: one fold over every event kind; it splits by the family of events
//! (runs and steps, pauses, rollouts, leases) once the event kinds being added land.

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde::Serialize;
use serde_json::Value;

use super::event::{Event, EventBody, LeaseScope, PauseScope, ReturnOutcome, Sequence};
use super::ids::{Actor, ItemId, RunId, StepName};
use super::keys::IdempotencyKey;
use super::status::{RunStatus, StepStatus};
use crate::model::ledger::ClusterId;
use crate::model::rollout::{BatchPhase, HaltReason, ReleaseDigest, VerifyOutcome};

/// Everything the journal says is true now.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Projection {
    /// Every run, by id.
    pub runs: BTreeMap<RunId, RunView>,
    /// Active pause switches, by what they stop.
    pub pauses: BTreeMap<PauseScope, PauseSwitch>,
    /// The last event folded in; a live tail continues after it.
    pub last_seq: Option<Sequence>,
    /// Events that were read but not applied, with why (unknown kind, unknown run, a guard
    /// pause resumed by automation). Shown by `journal` so nothing is silently dropped.
    pub ignored: Vec<(Sequence, String)>,
    /// When a person last resumed each failure domain, by cluster: the mass-failure guard
    /// counts only readiness changes after that, so the outage a person chose to go on
    /// through does not pause the domain again at once. (Engine state, not shown.)
    #[serde(skip)]
    pub domain_resumed_at: BTreeMap<ClusterId, BTreeMap<String, Timestamp>>,
    /// Who last took each executor lease: the executor driving the runs under it now
    /// (leases expire without an event, so a holder may have stopped since). Engine
    /// state, not shown.
    #[serde(skip)]
    pub lease_holders: BTreeMap<LeaseScope, Actor>,
    /// Maintenance-window overrides people gave, oldest first (each ends at its
    /// `until`; one given later replaces an earlier one of the same cluster).
    pub window_overrides: Vec<crate::model::findings::WindowOverride>,
    /// Stored events no reader can use (see [`EventBody::Unreadable`]), skipped: the
    /// console and the CLI say how many and which.
    pub unreadable: Vec<UnreadableEvent>,
}

/// A stored event that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnreadableEvent {
    /// Where it is.
    pub seq: Sequence,
    /// Its kind as stored.
    pub kind: String,
    /// What is wrong with it.
    pub reason: String,
}

/// One run's current state.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunView {
    /// The run.
    pub id: RunId,
    /// Its title.
    pub title: String,
    /// The cluster it works on.
    pub cluster: Option<ClusterId>,
    /// Its status as recorded (see [`Projection::effective_status`] for pauses).
    pub status: RunStatus,
    /// Who planned it.
    pub created_by: Actor,
    /// When.
    pub created_at: Timestamp,
    /// Items in plan order, with their steps.
    pub items: BTreeMap<ItemId, ItemView>,
    /// Item order as planned.
    pub order: Vec<ItemId>,
    /// Batches as planned.
    pub batches: Vec<Vec<ItemId>>,
    /// The spec the run executes.
    pub spec: Value,
    /// Approvals: who, when, which batch, why.
    pub approvals: Vec<(Actor, Timestamp, Option<usize>, String)>,
    /// Notes for the timeline: who, when, what.
    pub notes: Vec<(Actor, Timestamp, String)>,
    /// Who aborted the run, when and why (the first abort; later ones are refused).
    pub aborted: Option<(Actor, Timestamp, String)>,
    /// Rollout batches' phases and gate results (empty for maintenance runs).
    pub rollout: RolloutView,
}

impl RunView {
    /// Whether the run is a rollout (batches of clusters) rather than a maintenance
    /// (batches of nodes): told by its journaled spec, or by rollout batch events.
    pub fn is_rollout(&self) -> bool {
        !self.rollout.batches.is_empty() || crate::model::rollout::is_rollout_spec(&self.spec)
    }
}

/// What the journal says about a rollout's batches.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutView {
    /// Each batch's latest phase, by index.
    pub batches: BTreeMap<usize, BatchPhase>,
    /// The latest gate evaluation: batch and halt reason (none when it passed).
    pub last_gate: Option<(usize, Option<HaltReason>)>,
    /// Why the rollout halted, while it is halted.
    pub halted: Option<HaltReason>,
    /// The latest SLO evidence its executor gathered, and when.
    pub last_evidence: Option<(Timestamp, crate::model::rollout::Evidence)>,
}

/// One item's current state.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemView {
    /// Each step that has a status, by name.
    pub steps: BTreeMap<StepName, StepView>,
    /// The step that changed last: where the item stands.
    pub current: Option<StepName>,
    /// Who has the item, if it was handed off or taken over.
    pub handoff: Option<HandOff>,
    /// Side effects intended but without a recorded outcome: what a restarted executor
    /// must reconcile by observing the cluster before doing anything else.
    pub open_intents: BTreeMap<IdempotencyKey, OpenIntent>,
    /// Rollouts: the release digest staged for this cluster (decided, maybe not applied).
    pub staged: Option<ReleaseDigest>,
    /// Rollouts: the release digest the cluster reported as applied.
    pub applied: Option<ReleaseDigest>,
    /// Rollouts: where `staged` was last set. With `applied_seq`, orders one cluster's
    /// releases across runs: only its latest says what it runs now.
    pub staged_seq: Option<Sequence>,
    /// Rollouts: where `applied` was last set.
    pub applied_seq: Option<Sequence>,
    /// Rollouts: how the cluster's checks came out last.
    pub verified: Option<VerifyOutcome>,
    /// The last call of the item's current work that did not do what was intended, and
    /// why (an eviction a PDB refused): what a step that keeps retrying is up against.
    pub last_failed_call: Option<FailedCall>,
    /// Rollouts: why the cluster failed, as the run's reducer said it (its apply's error,
    /// or the release it reports instead of the run's), until a later apply of it.
    pub failure: Option<FailedCall>,
    /// What the item waits for, if something outside it holds it (see
    /// [`EventBody::Waiting`]), and since when.
    pub waiting: Option<WaitingFor>,
}

/// What an item waits for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitingFor {
    /// Why, in words.
    pub why: String,
    /// Since when.
    pub since: Timestamp,
}

/// A call that did not do what was intended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedCall {
    /// The step it was made for.
    pub step: Option<StepName>,
    /// Why, in a line.
    pub why: String,
    /// When its outcome was journaled.
    pub at: Timestamp,
}

/// A step's status with who set it and since when.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepView {
    /// The status.
    pub status: StepStatus,
    /// Since when.
    pub since: Timestamp,
    /// Who set it.
    pub by: Actor,
}

/// An intent without an outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenIntent {
    /// The step it belongs to.
    pub step: Option<StepName>,
    /// The action (`cordon`, `evict`, `hook`, …).
    pub action: String,
    /// Its detail as journaled.
    pub detail: Value,
    /// Where it was written.
    pub seq: Sequence,
}

/// An item in a person's hands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandOff {
    /// The step it was handed off at.
    pub step: Option<StepName>,
    /// Who has it now.
    pub to: Actor,
    /// The latest note.
    pub note: String,
    /// Who handed it off (or took it over).
    pub by: Actor,
    /// Since when.
    pub since: Timestamp,
}

/// An active pause switch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PauseSwitch {
    /// What it stops.
    pub scope: PauseScope,
    /// Why.
    pub reason: String,
    /// Who set it.
    pub by: Actor,
    /// Since when.
    pub since: Timestamp,
    /// Set by the mass-failure guard: then only a person may clear it.
    pub by_guard: bool,
}

impl Projection {
    /// Folds every event, in order, into a fresh projection.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Projection {
        let mut projection = Projection::default();
        for event in events {
            projection.apply(event);
        }
        projection
    }

    /// Folds one more event in. Events must come in sequence order; one already folded
    /// (sequence not after `last_seq`) is ignored, so a live tail can overlap safely.
    pub fn apply(&mut self, event: &Event) {
        if self.last_seq.is_some_and(|last| event.seq <= last) {
            return;
        }
        self.last_seq = Some(event.seq);
        let e = &event.event;
        match &e.body {
            EventBody::RunPlanned {
                title,
                items,
                batches,
                spec,
            } => {
                let Some(run) = &e.run else {
                    return self.ignore(event, "run.planned without a run id");
                };
                if self.runs.contains_key(run) {
                    // A run has one plan, the first: the one the database checked and the
                    // executor runs. A later one (written before that rule) is not read.
                    let why = format!("a second plan for run {run} (a run has one plan)");
                    return self.ignore(event, &why);
                }
                self.runs.insert(
                    run.clone(),
                    RunView {
                        id: run.clone(),
                        title: title.clone(),
                        cluster: e.cluster.clone(),
                        status: RunStatus::Planned,
                        created_by: e.actor.clone(),
                        created_at: e.time,
                        items: items
                            .iter()
                            .map(|i| (i.clone(), ItemView::default()))
                            .collect(),
                        order: items.clone(),
                        batches: batches.clone(),
                        spec: spec.clone(),
                        approvals: Vec::new(),
                        notes: Vec::new(),
                        aborted: None,
                        rollout: RolloutView::default(),
                    },
                );
            }
            // A rollout's executor journals the pause it acted on again, as its own
            // record: the person's switch, with who set it and since when, stays.
            EventBody::Paused { scope, .. }
                if !e.key.is_command() && self.pauses.contains_key(scope) => {}
            EventBody::Paused { scope, reason } => {
                self.pauses.insert(
                    scope.clone(),
                    PauseSwitch {
                        scope: scope.clone(),
                        reason: reason.clone(),
                        by: e.actor.clone(),
                        since: e.time,
                        by_guard: false,
                    },
                );
            }
            EventBody::GuardTripped { scope, reason, .. } => {
                self.pauses.insert(
                    scope.clone(),
                    PauseSwitch {
                        scope: scope.clone(),
                        reason: reason.clone(),
                        by: e.actor.clone(),
                        since: e.time,
                        by_guard: true,
                    },
                );
            }
            EventBody::Resumed { scope, .. } => {
                let guarded = self.pauses.get(scope).is_some_and(|p| p.by_guard);
                if guarded && e.actor.is_automation() {
                    return self.ignore(event, "a guard pause can only be resumed by a person");
                }
                self.pauses.remove(scope);
                if let PauseScope::FailureDomain { cluster, domain } = scope {
                    self.domain_resumed_at
                        .entry(cluster.clone())
                        .or_default()
                        .insert(domain.clone(), e.time);
                }
            }
            EventBody::LeaseAcquired { scope, .. } => {
                self.lease_holders.insert(scope.clone(), e.actor.clone());
            }
            EventBody::WindowOverridden { until, reason } => {
                let Some(cluster) = &e.cluster else {
                    return self.ignore(event, "operator.windowOverride without a cluster");
                };
                // The latest word on a cluster's window is the one that counts.
                self.window_overrides.retain(|o| o.cluster != *cluster);
                self.window_overrides
                    .push(crate::model::findings::WindowOverride {
                        cluster: cluster.clone(),
                        by: e.actor.0.clone(),
                        reason: reason.clone(),
                        at: e.time,
                        until: *until,
                    });
            }
            // Audit records of a person's change to a GitOps object: nothing to fold.
            EventBody::GitOpsIntent { .. } | EventBody::GitOpsOutcome { .. } => {}
            EventBody::Intent { .. } | EventBody::Observed { .. } => {
                self.apply_to_run(event);
            }
            // Read by the shift handover from the events; nothing to fold.
            EventBody::Acknowledged { .. } => {}
            EventBody::Unrecognized { kind, .. } => {
                let why = format!("unknown event kind {kind:?}");
                self.ignore(event, &why);
            }
            EventBody::Unreadable { kind, reason } => {
                self.unreadable.push(UnreadableEvent {
                    seq: event.seq,
                    kind: kind.clone(),
                    reason: reason.clone(),
                });
                let why = format!("event {} ({kind}) cannot be read: {reason}", event.seq.0);
                self.ignore(event, &why);
            }
            _ => self.apply_to_run(event),
        }
    }

    fn ignore(&mut self, event: &Event, why: &str) {
        self.ignored.push((event.seq, why.to_string()));
    }

    /// Events that concern a run (and possibly one of its items).
    fn apply_to_run(&mut self, event: &Event) {
        let e = &event.event;
        let Some(run_id) = &e.run else {
            // Lease changes and other fleet-level events carry no run: nothing to fold.
            return;
        };
        let Some(run) = self.runs.get_mut(run_id) else {
            let why = format!("event for unknown run {run_id}");
            return self.ignore(event, &why);
        };
        match (&e.body, &e.item) {
            (EventBody::RunApproved { batch, note }, _) => {
                // Only a person the run's policy allows counts (the PostgreSQL journal
                // refuses anyone else's; an older or a file journal may hold one).
                let policy = crate::model::rollout::rollout_of(&run.spec)
                    .map(|s| s.approvals)
                    .unwrap_or_default();
                if let Err(refusal) =
                    crate::model::rollout::check_approver(policy, &run.created_by, &e.actor)
                {
                    let why = format!("approval not counted: {refusal}");
                    return self.ignore(event, &why);
                }
                // A rollout's executor journals the approval it acted on again, as its
                // own record: the person's approval is already folded and says who.
                let echo = !e.key.is_command()
                    && batch.is_some()
                    && run.approvals.iter().any(|(_, _, b, _)| b == batch);
                if !echo {
                    run.approvals
                        .push((e.actor.clone(), e.time, *batch, note.clone()));
                }
                if matches!(run.status, RunStatus::Planned | RunStatus::AwaitingApproval) {
                    run.status = RunStatus::Running;
                }
            }
            (EventBody::RunStatusChanged { status }, _) => run.status = status.clone(),
            (EventBody::Aborted { note }, None) => {
                run.status = RunStatus::Aborted;
                if run.aborted.is_none() {
                    run.aborted = Some((e.actor.clone(), e.time, note.clone()));
                }
                // A step the executor was in the middle of stops there: it did not
                // finish, and what it did so far (a node cordoned, pods evicted) stays.
                for item in run.items.values_mut() {
                    let Some(step) = item.current.clone() else {
                        continue;
                    };
                    if let Some(view) = item.steps.get_mut(&step)
                        && view.status == StepStatus::Running
                    {
                        *view = StepView {
                            status: StepStatus::Failed {
                                error: format!(
                                    "stopped mid-step: {} aborted the run; what the step did \
                                     so far stays",
                                    e.actor
                                ),
                            },
                            since: e.time,
                            by: e.actor.clone(),
                        };
                    }
                }
            }
            (EventBody::RolloutBatch { batch, phase }, _) => {
                if !matches!(phase, BatchPhase::Halted { .. }) && run.rollout.halted.is_some() {
                    // A batch moving on after a halt means a person resumed the run.
                    run.rollout.halted = None;
                    if matches!(run.status, RunStatus::Halted { .. }) {
                        run.status = RunStatus::Running;
                    }
                }
                if *phase == BatchPhase::AwaitingApproval {
                    run.status = RunStatus::AwaitingApproval;
                } else if phase.is_active() && run.status == RunStatus::AwaitingApproval {
                    run.status = RunStatus::Running;
                }
                run.rollout.batches.insert(*batch, phase.clone());
            }
            (
                EventBody::RolloutObserved {
                    observation: crate::model::rollout::Observation::Evidence(evidence),
                    ..
                },
                _,
            ) => {
                run.rollout.last_evidence = Some((e.time, evidence.clone()));
            }
            (EventBody::GateEvaluated { batch, halt }, _) => {
                run.rollout.last_gate = Some((*batch, halt.clone()));
            }
            (EventBody::RolloutHalted { batch, why }, _) => {
                run.rollout.halted = Some(why.clone());
                run.rollout
                    .batches
                    .insert(*batch, BatchPhase::Halted { why: why.clone() });
                run.rollout.last_gate = Some((*batch, Some(why.clone())));
                run.status = RunStatus::Halted {
                    why: why.to_string(),
                };
            }
            (EventBody::Note { text } | EventBody::ExecutorNote { text }, _) => {
                run.notes.push((e.actor.clone(), e.time, text.clone()));
            }
            // An audit record only: the command it records changed nothing.
            (EventBody::CommandRefused { .. }, _) => {}
            (body, Some(item_id)) => {
                let item = run.items.entry(item_id.clone()).or_default();
                apply_to_item(item, event, body);
            }
            _ => {}
        }
    }

    /// The run's status with pause switches taken into account: a running run under any
    /// active pause (fleet, its cluster, itself) shows as paused.
    pub fn effective_status(&self, run: &RunView) -> RunStatus {
        // A run waiting for an approval is stopped by a pause too: an approval given now
        // starts nothing until the pause is lifted, so it reads as paused.
        if matches!(run.status, RunStatus::Running | RunStatus::AwaitingApproval)
            && self.pause_for(run).is_some()
        {
            RunStatus::Paused
        } else {
            run.status.clone()
        }
    }

    /// Whether batch `batch` is under way (executing, verifying, soaking) in a run a pause
    /// stops: what is in flight finishes, but no new cluster starts and nothing moves on
    /// until the resume.
    pub fn batch_held(&self, run: &RunView, batch: usize) -> bool {
        under_way(run, batch) && self.pause_for(run).is_some()
    }

    /// Batch `batch`'s phase as people read it (`pending` before it has one), with
    /// ` (aborted)` when its run was aborted under way and ` (paused)` when a pause holds
    /// it (see [`Projection::batch_held`]).
    pub fn batch_word(&self, run: &RunView, batch: usize) -> String {
        let word = run
            .rollout
            .batches
            .get(&batch)
            .map_or("pending", BatchPhase::word);
        if under_way(run, batch) && run.status == RunStatus::Aborted {
            format!("{word} (aborted)")
        } else if self.batch_held(run, batch) {
            format!("{word} (paused)")
        } else {
            word.to_owned()
        }
    }

    /// The pause switch that stops `run`, if any (failure-domain pauses apply per node and
    /// are asked for with [`Projection::domain_pause`]).
    pub fn pause_for(&self, run: &RunView) -> Option<&PauseSwitch> {
        self.switches_for(run).next()
    }

    /// Every pause switch that stops `run` (fleet, its own, its cluster's, in that order):
    /// clearing one leaves the others in force, so a person must see them all.
    pub fn pauses_for(&self, run: &RunView) -> Vec<&PauseSwitch> {
        self.switches_for(run).collect()
    }

    /// The switches stopping `run`, looked up lazily in order: `pause_for`, asked for
    /// every run on every frame, stops at the first without building the other scopes.
    fn switches_for<'a, 'r>(
        &'a self,
        run: &'r RunView,
    ) -> impl Iterator<Item = &'a PauseSwitch> + use<'a, 'r> {
        let fleet = std::iter::once_with(|| self.pauses.get(&PauseScope::Fleet));
        let own = std::iter::once_with(move || {
            self.pauses.get(&PauseScope::Run {
                run: run.id.clone(),
            })
        });
        let cluster = std::iter::once_with(move || {
            run.cluster.as_ref().and_then(|cluster| {
                self.pauses.get(&PauseScope::Cluster {
                    cluster: cluster.clone(),
                })
            })
        });
        fleet.chain(own).chain(cluster).flatten()
    }

    /// Rollouts: the release each cluster runs according to the journal, by cluster id.
    /// Only a cluster's latest release event counts, across every run, in journal order:
    /// after D2, D3 and a rollback to D2 it runs D2 again. A cluster whose latest event is
    /// a release staged without a recorded apply is left out: that attempt may have
    /// changed it in part, so nothing is known.
    pub fn applied_releases(&self) -> BTreeMap<String, ReleaseDigest> {
        // Per cluster: the latest release event, and the digest if it was an apply.
        let mut latest: BTreeMap<&str, (Sequence, Option<&ReleaseDigest>)> = BTreeMap::new();
        for run in self.runs.values() {
            for (item, view) in &run.items {
                let events = [
                    view.staged_seq.map(|seq| (seq, None)),
                    view.applied_seq.map(|seq| (seq, view.applied.as_ref())),
                ];
                for (seq, applied) in events.into_iter().flatten() {
                    let slot = latest.entry(item.0.as_str()).or_insert((seq, applied));
                    if seq > slot.0 {
                        *slot = (seq, applied);
                    }
                }
            }
        }
        latest
            .into_iter()
            .filter_map(|(cluster, (_, applied))| Some((cluster.to_string(), applied?.clone())))
            .collect()
    }

    /// Rollout runs that are not final and target any of `clusters`, each with the
    /// clusters it shares, in run id order. A halted or paused run counts: a person may
    /// resume it, and it would then go on applying its own release there.
    pub fn unfinished_rollouts_on(&self, clusters: &[String]) -> Vec<(&RunView, Vec<String>)> {
        self.runs
            .values()
            .filter(|run| run.is_rollout() && !run.status.is_final())
            .filter_map(|run| {
                let shared: Vec<String> = clusters
                    .iter()
                    .filter(|c| run.items.contains_key(&ItemId((*c).clone())))
                    .cloned()
                    .collect();
                (!shared.is_empty()).then_some((run, shared))
            })
            .collect()
    }

    /// The guard (or person) pause on one failure domain of a cluster, if any.
    pub fn domain_pause(&self, cluster: &ClusterId, domain: &str) -> Option<&PauseSwitch> {
        self.pauses.get(&PauseScope::FailureDomain {
            cluster: cluster.clone(),
            domain: domain.to_string(),
        })
    }
}

/// Who set `status` and since when, when it is the executor's record of the hand-off or
/// take-over the item is in (same owner, same note); `None` for anything else.
/// Whether batch `batch` of `run` is under way: executing, verifying or soaking.
fn under_way(run: &RunView, batch: usize) -> bool {
    matches!(
        run.rollout.batches.get(&batch),
        Some(BatchPhase::Executing | BatchPhase::Verifying | BatchPhase::Soaking { .. })
    )
}

fn person_set(
    item: &ItemView,
    key: &IdempotencyKey,
    status: &StepStatus,
) -> Option<(Actor, Timestamp)> {
    let StepStatus::HandedOff { to, note } = status else {
        return None;
    };
    let h = item.handoff.as_ref()?;
    (!key.is_command() && h.to == *to && h.note == *note).then(|| (h.by.clone(), h.since))
}

impl ItemView {
    /// Rollouts: why the cluster failed or could not be judged — its apply's error, a
    /// failed check, or why its checks' verdict is unknown — if it did.
    pub fn rollout_failure(&self) -> Option<&str> {
        if let Some(failure) = &self.failure {
            return Some(&failure.why);
        }
        match &self.verified {
            Some(VerifyOutcome::Fail { reason }) => Some(reason),
            Some(VerifyOutcome::Unknown { why }) => Some(why),
            _ => None,
        }
    }

    /// The step the item stands at, with its status: where the item is now.
    pub fn current_step(&self) -> Option<(&StepName, &StepView)> {
        let step = self.current.as_ref()?;
        Some((step, self.steps.get(step)?))
    }

    /// `status` (the item's current step's) as people read it: `taken-over` while the
    /// person who took the step over has it, else the status's own word.
    pub fn status_word(&self, status: &StepStatus) -> &'static str {
        match (status, &self.handoff) {
            (StepStatus::HandedOff { to, .. }, Some(h)) if h.by == h.to && h.to == *to => {
                "taken-over"
            }
            _ => status.word(),
        }
    }
}

fn apply_to_item(item: &mut ItemView, event: &Event, body: &EventBody) {
    let e = &event.event;
    let step = e.step.clone().or_else(|| item.current.clone());
    let set_by = |item: &mut ItemView, status: StepStatus, by: Actor, since: Timestamp| {
        if let Some(step) = &step {
            item.steps
                .insert(step.clone(), StepView { status, since, by });
            item.current = Some(step.clone());
        }
    };
    let set =
        |item: &mut ItemView, status: StepStatus| set_by(item, status, e.actor.clone(), e.time);
    // The item moved on: whatever it waited for is behind it.
    if matches!(
        body,
        EventBody::StepStatusChanged { .. }
            | EventBody::Outcome { .. }
            | EventBody::ItemStaged { .. }
            | EventBody::ItemApplied { .. }
            | EventBody::ItemVerified { .. }
    ) {
        item.waiting = None;
    }
    match body {
        // The same wait said again keeps its start.
        EventBody::Waiting { why } if item.waiting.as_ref().is_none_or(|w| w.why != *why) => {
            item.waiting = Some(WaitingFor {
                why: why.clone(),
                since: e.time,
            });
        }
        // A rollout's cluster has no steps: its failure is the item's own.
        EventBody::StepStatusChanged {
            status: StepStatus::Failed { error },
        } if step.is_none() => {
            item.failure = Some(FailedCall {
                step: None,
                why: error.clone(),
                at: e.time,
            });
        }
        EventBody::StepStatusChanged { status } => {
            // The executor journaling a status the step already has (the outcome of a
            // person's return it acted on) changes neither who set it nor since when.
            let unchanged = step
                .as_ref()
                .and_then(|step| item.steps.get(step))
                .filter(|view| !e.key.is_command() && view.status == *status)
                .map(|view| (view.by.clone(), view.since));
            match unchanged.or_else(|| person_set(item, &e.key, status)) {
                // The executor journals the hand-off or take-over it acted on as the
                // step's status: it stays the person's, since when they did it.
                Some((by, since)) => set_by(item, status.clone(), by, since),
                None => set(item, status.clone()),
            }
        }
        EventBody::Intent { action, detail, .. } => {
            item.open_intents.insert(
                e.key.clone(),
                OpenIntent {
                    step: e.step.clone(),
                    action: action.clone(),
                    detail: detail.clone(),
                    seq: event.seq,
                },
            );
        }
        EventBody::Outcome { intent, ok, detail } => {
            item.open_intents.remove(intent);
            if *ok {
                item.last_failed_call = None;
            } else if let Some(why) =
                serde_json::from_value::<crate::model::maintenance::Observation>(detail.clone())
                    .ok()
                    .and_then(|o| o.why_not_done())
            {
                item.last_failed_call = Some(FailedCall {
                    step: e.step.clone(),
                    why,
                    at: e.time,
                });
            }
        }
        EventBody::HandedOff { to, note } => {
            item.handoff = Some(HandOff {
                step: step.clone(),
                to: to.clone(),
                note: note.clone(),
                by: e.actor.clone(),
                since: e.time,
            });
            set(
                item,
                StepStatus::HandedOff {
                    to: to.clone(),
                    note: note.clone(),
                },
            );
        }
        EventBody::TakenOver { note } => {
            item.handoff = Some(HandOff {
                step: step.clone(),
                to: e.actor.clone(),
                note: note.clone(),
                by: e.actor.clone(),
                since: e.time,
            });
            set(
                item,
                StepStatus::HandedOff {
                    to: e.actor.clone(),
                    note: note.clone(),
                },
            );
        }
        EventBody::Returned { outcome, note } => {
            item.handoff = None;
            // The engine's own status events follow; until then the view says what the
            // person decided.
            let status = match outcome {
                ReturnOutcome::Done => StepStatus::Succeeded,
                ReturnOutcome::Retry => StepStatus::Pending,
                ReturnOutcome::Abort => StepStatus::Failed {
                    error: format!("aborted by {}: {note}", e.actor),
                },
            };
            set(item, status);
        }
        EventBody::ItemStaged { digest } => {
            item.staged = Some(digest.clone());
            item.staged_seq = Some(event.seq);
            // A new apply of the cluster: an earlier one's failure is history.
            item.failure = None;
        }
        EventBody::ItemApplied { digest } => {
            item.applied = Some(digest.clone());
            item.applied_seq = Some(event.seq);
            item.failure = None;
        }
        EventBody::ItemVerified { outcome } => item.verified = Some(outcome.clone()),
        EventBody::Aborted { note } => set(
            item,
            StepStatus::Failed {
                error: format!("aborted by {}: {note}", e.actor),
            },
        ),
        _ => {}
    }
}

#[cfg(test)]
#[path = "projection_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "projection_trust_tests.rs"]
mod trust_tests;
