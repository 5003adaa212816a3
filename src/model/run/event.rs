//! Journal events: the envelope every event shares and the typed body of each kind.
//! The store keeps `kind` and `payload` as columns; the body is the typed view of them.
//!
//! Over 600 lines: every event kind's typed body with its documentation, in one enum that
//! the journal's schema mirrors; splitting it would scatter the schema.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ids::{Actor, ItemId, RunId, StepName};
use super::keys::IdempotencyKey;
use super::status::{RunStatus, StepStatus};
use crate::model::handover::{Extent, ProblemKey};
use crate::model::identity::NodeName;
use crate::model::ledger::ClusterId;
use crate::model::rollout::{BatchPhase, HaltReason, ReleaseDigest, VerifyOutcome};

/// Position of an event in the journal; strictly increasing, assigned by the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Sequence(pub i64);

/// A lease's fencing token: grows by one each time the lease changes hands. A write
/// carrying a token lower than the lease's current one comes from a stale executor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FencingToken(pub i64);

impl std::fmt::Display for FencingToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a lease covers. One executor at a time acts for the whole fleet.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LeaseScope(pub String);

impl LeaseScope {
    /// The fleet-wide executor lease.
    pub fn fleet() -> Self {
        LeaseScope("fleet".to_string())
    }
}

impl std::fmt::Display for LeaseScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a pause switch stops.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "scope", rename_all = "camelCase")]
pub enum PauseScope {
    /// Every run everywhere.
    Fleet,
    /// Every run on one cluster (a freeze).
    Cluster {
        /// The cluster.
        cluster: ClusterId,
    },
    /// One run.
    Run {
        /// The run.
        run: RunId,
    },
    /// One failure domain of one cluster (set by the mass-failure guard).
    FailureDomain {
        /// The cluster.
        cluster: ClusterId,
        /// The failure domain's label value (e.g. a zone).
        domain: String,
    },
}

impl std::fmt::Display for PauseScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PauseScope::Fleet => f.write_str("fleet"),
            PauseScope::Cluster { cluster } => write!(f, "cluster {cluster}"),
            PauseScope::Run { run } => write!(f, "run {run}"),
            PauseScope::FailureDomain { cluster, domain } => {
                write!(f, "failure domain {domain} of cluster {cluster}")
            }
        }
    }
}

/// How a person gives a handed-off item back to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReturnOutcome {
    /// The person did the step; the engine continues with the next one.
    Done,
    /// The engine tries the step again from its start, with a fresh deadline.
    Retry,
    /// The item stops here; nothing is undone.
    Abort,
}

/// The typed content of an event. Serialised as `kind` + `payload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "payload", rename_all_fields = "camelCase")]
pub enum EventBody {
    /// A run was written down with its items and batches.
    #[serde(rename = "run.planned")]
    RunPlanned {
        /// Human title (the maintenance's name).
        title: String,
        /// Every item, in plan order.
        items: Vec<ItemId>,
        /// Items per batch, in order.
        batches: Vec<Vec<ItemId>>,
        /// The spec the run executes, as written (so a restart needs no file).
        spec: Value,
    },
    /// A person approved the run (or its next batch).
    #[serde(rename = "run.approved")]
    RunApproved {
        /// Which batch, when approval is per batch.
        batch: Option<usize>,
        /// Why, in the approver's words.
        note: String,
    },
    /// The run's status changed.
    #[serde(rename = "run.status")]
    RunStatusChanged {
        /// The new status.
        status: RunStatus,
    },
    /// A step's status changed (the envelope names run, item and step).
    #[serde(rename = "step.status")]
    StepStatusChanged {
        /// The new status.
        status: StepStatus,
    },
    /// A side effect is about to be performed. Written before the call, always.
    #[serde(rename = "step.intent")]
    Intent {
        /// The action (`cordon`, `evict`, `hook`, `uncordon`, …).
        action: String,
        /// What exactly (pod name, argv, …).
        detail: Value,
        /// Who the call is made as: the kubeconfig user of the job's context (the
        /// cluster's audit log names the same). Absent in events written before it was
        /// recorded, and where the port cannot say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        identity: Option<String>,
    },
    /// The outcome of an intent, written after the call returned.
    #[serde(rename = "step.outcome")]
    Outcome {
        /// The intent's idempotency key.
        intent: IdempotencyKey,
        /// Whether the call did what was intended.
        ok: bool,
        /// Result details (exit code, output, eviction answer, …).
        detail: Value,
    },
    /// Something the engine observed and fed to a state machine, kept so that replaying
    /// the journal rebuilds the machine exactly.
    #[serde(rename = "step.observed")]
    Observed {
        /// The observation, as the state machine's `Observation` serialises.
        observation: Value,
    },
    /// The envelope's item cannot go on yet for a reason outside it (a frozen cluster, a
    /// failure domain the mass-failure guard paused, a cluster whose identity is not
    /// confirmed, a PDB that would refuse its evictions): what it waits for, in words.
    /// Cleared by the item's next step status, apply or outcome.
    #[serde(rename = "step.waiting")]
    Waiting {
        /// What it waits for.
        why: String,
    },
    /// A Kubernetes Event the engine wrote about the envelope's node was refused or lost:
    /// `kubectl describe node` will not show it, so the journal says so.
    #[serde(rename = "step.nodeEventFailed")]
    NodeEventFailed {
        /// The Event's reason.
        reason: String,
        /// The Event's message.
        message: String,
        /// Why it was not recorded (the API server's answer).
        error: String,
    },
    /// A pause switch was set.
    #[serde(rename = "operator.pause")]
    Paused {
        /// What is paused.
        scope: PauseScope,
        /// Why.
        reason: String,
    },
    /// A pause switch was cleared.
    #[serde(rename = "operator.resume")]
    Resumed {
        /// What resumes.
        scope: PauseScope,
        /// Why it is safe now.
        note: String,
    },
    /// An item (at the envelope's step) was handed to a person.
    #[serde(rename = "operator.handoff")]
    HandedOff {
        /// Who gets it.
        to: Actor,
        /// What they need to know.
        note: String,
    },
    /// The actor claimed an item for themselves.
    #[serde(rename = "operator.takeover")]
    TakenOver {
        /// Why.
        note: String,
    },
    /// A person gave an item back to the engine.
    #[serde(rename = "operator.return")]
    Returned {
        /// How the engine continues.
        outcome: ReturnOutcome,
        /// What the person did.
        note: String,
    },
    /// A person aborted a run (no item in the envelope) or one item.
    #[serde(rename = "operator.abort")]
    Aborted {
        /// Why.
        note: String,
    },
    /// A free-text note for the timeline and the shift handover.
    #[serde(rename = "operator.note")]
    Note {
        /// The note.
        text: String,
    },
    /// A note the executor writes for the timeline (a step's instructions, a ledger edit
    /// it follows, a command it refused): the executor's own kind, so that every kind has
    /// one writer (`model::run::writers`); read like an operator's note otherwise.
    #[serde(rename = "executor.note")]
    ExecutorNote {
        /// The note.
        text: String,
    },
    /// A person acknowledged a shift handover item as it stood: it stays acknowledged
    /// until the problem gets worse or another one appears (`model::handover`).
    #[serde(rename = "operator.acknowledge")]
    Acknowledged {
        /// What the item is about (no counts in it).
        problem: ProblemKey,
        /// The item's title as the person read it.
        title: String,
        /// How the problem stood.
        extent: Extent,
        /// What they said.
        note: String,
    },
    /// An operator command was refused by the rules (an approver the rollout does not
    /// allow, a return of an item nobody holds), or refused before it was sent because a
    /// cluster it concerns cannot take actions (one event per such cluster, naming it):
    /// recorded for the audit trail, it changes nothing. Mistyped input (an unknown run,
    /// an empty reason) is not recorded.
    #[serde(rename = "operator.refused")]
    CommandRefused {
        /// The command's verb (`approve`, `return`, `start-maintenance`, …).
        command: String,
        /// Why it was refused.
        reason: String,
    },
    /// A person allowed changes to the envelope's cluster outside its maintenance
    /// window, until `until` (an override of zero length ends an earlier one).
    #[serde(rename = "operator.windowOverride")]
    WindowOverridden {
        /// When the override ends.
        until: Timestamp,
        /// Why.
        reason: String,
    },
    /// The mass-failure guard paused a failure domain.
    #[serde(rename = "guard.tripped")]
    GuardTripped {
        /// The paused domain.
        scope: PauseScope,
        /// The reason shown everywhere ("suspect shared dependency: …").
        reason: String,
        /// The nodes that turned NotReady within the window.
        #[serde(alias = "not_ready")]
        not_ready: Vec<NodeName>,
        /// How many nodes the domain has.
        total: usize,
    },
    /// A lease changed hands (recorded for the audit trail).
    #[serde(rename = "lease.acquired")]
    LeaseAcquired {
        /// The lease.
        scope: LeaseScope,
        /// The new token.
        token: FencingToken,
    },
    /// A rollout batch changed phase (approval, execution, soak, halt, done).
    #[serde(rename = "rollout.batch")]
    RolloutBatch {
        /// The batch index.
        batch: usize,
        /// Its new phase.
        phase: BatchPhase,
    },
    /// The digest a rollout decided to apply to the envelope's cluster, written before the
    /// apply's intent (the staged id).
    #[serde(rename = "rollout.staged")]
    ItemStaged {
        /// The release digest.
        digest: ReleaseDigest,
    },
    /// The envelope's cluster reports this digest as applied (the deployed id).
    #[serde(rename = "rollout.applied")]
    ItemApplied {
        /// The release digest.
        digest: ReleaseDigest,
    },
    /// The envelope's cluster's checks finished.
    #[serde(rename = "rollout.verified")]
    ItemVerified {
        /// How they came out.
        outcome: VerifyOutcome,
    },
    /// Stop conditions were evaluated at the end of a batch's soak.
    #[serde(rename = "rollout.gate")]
    GateEvaluated {
        /// The batch index.
        batch: usize,
        /// The halt reason, or none when the gate passed.
        halt: Option<HaltReason>,
    },
    /// A stop condition halted the rollout.
    #[serde(rename = "rollout.halted")]
    RolloutHalted {
        /// The batch that was active.
        batch: usize,
        /// Why, with the evidence.
        why: HaltReason,
    },
    /// What the rollout executor fed its run reducer, in order: replaying these through the
    /// reducer from the planned state rebuilds the run exactly (the event's time is the
    /// reducer's `now`). `command` is the operator command it came from, if any.
    #[serde(rename = "rollout.observed")]
    RolloutObserved {
        /// The observation.
        observation: crate::model::rollout::Observation,
        /// The journal sequence of the operator command it folds, if any.
        command: Option<i64>,
    },
    /// A person is about to suspend or resume the sync of a GitOps object on the
    /// envelope's cluster. Written before the change, always.
    #[serde(rename = "gitops.intent")]
    GitOpsIntent {
        /// `suspend` or `resume`.
        action: String,
        /// The object: `{kind, namespace, name}`.
        object: Value,
        /// Why, in the person's words.
        reason: String,
        /// What the change replaces (an Argo CD Application's automated sync policy),
        /// so that a resume can put it back.
        previous: Value,
    },
    /// The outcome of a [`EventBody::GitOpsIntent`], written after the change.
    #[serde(rename = "gitops.outcome")]
    GitOpsOutcome {
        /// The intent's idempotency key.
        intent: IdempotencyKey,
        /// Whether the object now says what was intended.
        ok: bool,
        /// What the cluster answered.
        detail: Value,
    },
    /// A rollout's coordinator hands a call on the envelope's cluster to the executor of
    /// the shard that owns it (`model::shard`); the event's key names the request.
    #[serde(rename = "rollout.dispatched")]
    Dispatched {
        /// What to do.
        call: crate::model::shard::ShardCall,
        /// The apply intent it carries out (for an apply).
        intent: Option<IdempotencyKey>,
    },
    /// A dispatched apply is taken: by the owner's executor, which starts it, or
    /// `withdrawn` by the coordinator, which keeps it for later. The first to write it
    /// wins (one key per request), so an apply is never both started and withdrawn.
    #[serde(rename = "rollout.claimed")]
    Claimed {
        /// The request's key.
        request: IdempotencyKey,
        /// Whether the coordinator took it back.
        withdrawn: bool,
    },
    /// The owner's executor answers a dispatched read or verification.
    #[serde(rename = "rollout.answered")]
    Answered {
        /// The request's key.
        request: IdempotencyKey,
        /// What it found.
        answer: crate::model::shard::ShardAnswer,
    },
    /// A kind this version does not know (written by a newer fleetdeck); kept, not folded.
    #[serde(skip)]
    Unrecognized {
        /// The kind as stored.
        kind: String,
        /// The payload as stored.
        payload: Value,
    },
    /// A stored event that cannot be read: a payload that is not the kind's (or not JSON
    /// this version can parse), a time out of range. Every reader skips it and says so
    /// (named, counted, shown), rather than stopping; it is never written.
    #[serde(skip)]
    Unreadable {
        /// The kind as stored.
        kind: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl EventBody {
    /// Splits into the `kind` and `payload` columns.
    pub fn to_parts(&self) -> (String, Value) {
        match self {
            EventBody::Unrecognized { kind, payload } => return (kind.clone(), payload.clone()),
            // Never written (the stores refuse it); its kind, for filters and messages.
            EventBody::Unreadable { kind, .. } => return (kind.clone(), Value::Null),
            _ => {}
        }
        match serde_json::to_value(self) {
            Ok(Value::Object(mut map)) => {
                let kind = match map.remove("kind") {
                    Some(Value::String(kind)) => kind,
                    _ => String::new(),
                };
                (kind, map.remove("payload").unwrap_or(Value::Null))
            }
            // Serialising plain data into a Value cannot fail; keep the type total anyway.
            _ => (String::new(), Value::Null),
        }
    }

    /// The `kind` column of this body (its serde tag), without serialising it.
    pub fn kind(&self) -> String {
        self.kind_str().to_string()
    }

    /// [`EventBody::kind`], borrowed.
    pub fn kind_str(&self) -> &str {
        match self {
            EventBody::RunPlanned { .. } => "run.planned",
            EventBody::RunApproved { .. } => "run.approved",
            EventBody::RunStatusChanged { .. } => "run.status",
            EventBody::StepStatusChanged { .. } => "step.status",
            EventBody::Intent { .. } => "step.intent",
            EventBody::Outcome { .. } => "step.outcome",
            EventBody::Observed { .. } => "step.observed",
            EventBody::Waiting { .. } => "step.waiting",
            EventBody::NodeEventFailed { .. } => "step.nodeEventFailed",
            EventBody::Paused { .. } => "operator.pause",
            EventBody::Resumed { .. } => "operator.resume",
            EventBody::HandedOff { .. } => "operator.handoff",
            EventBody::TakenOver { .. } => "operator.takeover",
            EventBody::Returned { .. } => "operator.return",
            EventBody::Aborted { .. } => "operator.abort",
            EventBody::Note { .. } => "operator.note",
            EventBody::ExecutorNote { .. } => "executor.note",
            EventBody::Acknowledged { .. } => "operator.acknowledge",
            EventBody::CommandRefused { .. } => "operator.refused",
            EventBody::WindowOverridden { .. } => "operator.windowOverride",
            EventBody::GuardTripped { .. } => "guard.tripped",
            EventBody::LeaseAcquired { .. } => "lease.acquired",
            EventBody::RolloutBatch { .. } => "rollout.batch",
            EventBody::ItemStaged { .. } => "rollout.staged",
            EventBody::ItemApplied { .. } => "rollout.applied",
            EventBody::ItemVerified { .. } => "rollout.verified",
            EventBody::GateEvaluated { .. } => "rollout.gate",
            EventBody::RolloutHalted { .. } => "rollout.halted",
            EventBody::RolloutObserved { .. } => "rollout.observed",
            EventBody::GitOpsIntent { .. } => "gitops.intent",
            EventBody::GitOpsOutcome { .. } => "gitops.outcome",
            EventBody::Dispatched { .. } => "rollout.dispatched",
            EventBody::Claimed { .. } => "rollout.claimed",
            EventBody::Answered { .. } => "rollout.answered",
            EventBody::Unrecognized { kind, .. } | EventBody::Unreadable { kind, .. } => kind,
        }
    }

    /// Rebuilds the body from the stored columns; an unknown kind is kept as
    /// [`EventBody::Unrecognized`], a known kind whose payload does not fit it becomes
    /// [`EventBody::Unreadable`] (saying why), rather than failing the whole read.
    pub fn from_parts(kind: &str, payload: Value) -> EventBody {
        let mut map = serde_json::Map::with_capacity(2);
        map.insert("kind".to_string(), Value::String(kind.to_string()));
        map.insert("payload".to_string(), payload);
        let tagged = Value::Object(map);
        // Deserialising from a borrowed Value keeps `tagged` for the fallback without a copy.
        match EventBody::deserialize(&tagged) {
            Ok(body) => body,
            Err(error) if super::kinds::EVENT_KINDS.contains(&kind) => EventBody::Unreadable {
                kind: kind.to_string(),
                reason: format!("its payload is not a {kind} event's: {error}"),
            },
            Err(_) => {
                let payload = match tagged {
                    Value::Object(mut map) => map.remove("payload").unwrap_or(Value::Null),
                    _ => Value::Null,
                };
                EventBody::Unrecognized {
                    kind: kind.to_string(),
                    payload,
                }
            }
        }
    }
}

/// An event to append: everything but the sequence and token, which the store assigns.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    /// When it happened (the writer's clock).
    pub time: Timestamp,
    /// Who did it.
    pub actor: Actor,
    /// The run it belongs to, if any.
    pub run: Option<RunId>,
    /// The item within the run, if any.
    pub item: Option<ItemId>,
    /// The step of the item, if any.
    pub step: Option<StepName>,
    /// The cluster it concerns, if any.
    pub cluster: Option<ClusterId>,
    /// Unique per intended write.
    pub key: IdempotencyKey,
    /// What happened.
    pub body: EventBody,
}

impl NewEvent {
    /// An event with no run, item, step or cluster; add them with the `with_*` methods.
    pub fn new(time: Timestamp, actor: Actor, key: IdempotencyKey, body: EventBody) -> Self {
        NewEvent {
            time,
            actor,
            run: None,
            item: None,
            step: None,
            cluster: None,
            key,
            body,
        }
    }

    /// Names the run.
    pub fn with_run(mut self, run: RunId) -> Self {
        self.run = Some(run);
        self
    }

    /// Names the item.
    pub fn with_item(mut self, item: ItemId) -> Self {
        self.item = Some(item);
        self
    }

    /// Names the step.
    pub fn with_step(mut self, step: StepName) -> Self {
        self.step = Some(step);
        self
    }

    /// Names the cluster.
    pub fn with_cluster(mut self, cluster: ClusterId) -> Self {
        self.cluster = Some(cluster);
        self
    }
}

/// An event as stored: the appended content plus its sequence and the fencing token its
/// writer held (none for operator commands, which need no lease).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Position in the journal.
    pub seq: Sequence,
    /// The writer's fencing token, if it wrote under a lease.
    pub token: Option<FencingToken>,
    /// The content.
    pub event: NewEvent,
}

/// Events numbered as a journal numbers them (1, 2, …), kept in memory: for replays
/// built by hand (fixtures, benchmarks, tests) rather than read from a store.
#[derive(Debug, Clone, Default)]
pub struct EventLog(pub Vec<Event>);

impl EventLog {
    /// Appends `event` with the next sequence number, without a fencing token.
    pub fn push(&mut self, event: NewEvent) {
        let seq = Sequence(self.0.len() as i64 + 1);
        self.0.push(Event {
            seq,
            token: None,
            event,
        });
    }

    /// The next sequence number, for keys that must differ per event.
    pub fn next_seq(&self) -> i64 {
        self.0.len() as i64 + 1
    }
}

impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let e = &self.event;
        let (kind, payload) = e.body.to_parts();
        let mut s = serializer.serialize_struct("Event", 11)?;
        s.serialize_field("seq", &self.seq)?;
        s.serialize_field("time", &e.time)?;
        s.serialize_field("actor", &e.actor)?;
        s.serialize_field("kind", &kind)?;
        s.serialize_field("run", &e.run)?;
        s.serialize_field("item", &e.item)?;
        s.serialize_field("step", &e.step)?;
        s.serialize_field("cluster", &e.cluster)?;
        s.serialize_field("payload", &payload)?;
        s.serialize_field("key", &e.key)?;
        s.serialize_field("token", &self.token)?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_round_trip_through_the_columns() {
        let bodies = vec![
            EventBody::Paused {
                scope: PauseScope::FailureDomain {
                    cluster: ClusterId("c1".into()),
                    domain: "zone-a".into(),
                },
                reason: "suspect shared dependency".into(),
            },
            EventBody::StepStatusChanged {
                status: StepStatus::Blocked {
                    reason: "PDB web-pdb needs 3 healthy pods and has 3".into(),
                },
            },
            EventBody::Returned {
                outcome: ReturnOutcome::Retry,
                note: "relaxed the PDB".into(),
            },
        ];
        for body in bodies {
            let (kind, payload) = body.to_parts();
            assert!(kind.contains('.'), "{kind}");
            assert_eq!(EventBody::from_parts(&kind, payload), body);
        }
    }

    #[test]
    fn a_bodys_kind_is_its_serialised_tag() {
        for body in crate::model::run::payload::one_of_each() {
            assert_eq!(body.kind_str(), body.to_parts().0);
        }
    }

    #[test]
    fn unknown_kinds_are_kept_not_dropped() {
        let body = EventBody::from_parts("future.thing", serde_json::json!({"x": 1}));
        assert_eq!(
            body,
            EventBody::Unrecognized {
                kind: "future.thing".into(),
                payload: serde_json::json!({"x": 1})
            }
        );
        assert_eq!(body.to_parts().0, "future.thing");
    }
}

/// Journals written before every payload key was camelCase are still read: each renamed
/// field keeps its old name as an alias.
#[cfg(test)]
mod snake_case_journals {
    use super::*;
    use crate::model::maintenance::{HookResult, NodeState};
    use crate::model::rollout::{BatchPhase, HaltReason};

    #[test]
    fn old_payload_keys_still_read() {
        let body = EventBody::from_parts(
            "guard.tripped",
            serde_json::json!({
                "scope": {"scope": "fleet"},
                "reason": "suspect shared dependency",
                "not_ready": ["n1"],
                "total": 4
            }),
        );
        assert!(
            matches!(&body, EventBody::GuardTripped { not_ready, .. } if not_ready.len() == 1),
            "{body:?}"
        );
        let hook: HookResult = serde_json::from_value(
            serde_json::json!({"exit_code": 0, "timed_out": false, "output": ""}),
        )
        .expect("hook");
        assert!(hook.succeeded());
        let mut state = serde_json::to_value(NodeState::new(NodeName("n1".into()))).expect("json");
        let fresh = state.clone();
        let map = state.as_object_mut().expect("object");
        for (new, old) in [
            ("hookAttempt", "hook_attempt"),
            ("callInFlight", "call_in_flight"),
            ("waitingOn", "waiting_on"),
        ] {
            let value = map.remove(new).expect(new);
            map.insert(old.into(), value);
        }
        let read: NodeState = serde_json::from_value(state).expect("node state");
        assert_eq!(serde_json::to_value(read).expect("json"), fresh);
        let phase: BatchPhase = serde_json::from_value(serde_json::json!({
            "phase": "soaking", "until": "2026-01-01T00:00:00Z",
            "evidence_at": "2026-01-01T00:00:00Z"
        }))
        .expect("phase");
        assert!(matches!(
            phase,
            BatchPhase::Soaking {
                evidence_at: Some(_),
                ..
            }
        ));
        let halt: HaltReason = serde_json::from_value(serde_json::json!({
            "reason": "burnRate", "cluster": "c1", "burn": 11.8, "max_burn": 10.0,
            "objective": 0.995, "window": 60
        }))
        .expect("halt");
        assert!(matches!(halt, HaltReason::BurnRate { max_burn, .. } if max_burn == 10.0));
    }
}
