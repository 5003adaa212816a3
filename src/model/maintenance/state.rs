//! The node state machine's data: its state, the environment it decides in, and the
//! actions it asks for.

use std::time::Duration;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::drain::DrainProgress;
use super::observe::PodRef;
use super::restart::Intent;
use super::spec::MaintenanceSpec;
use super::step::Step;
use crate::model::run::{Actor, IdempotencyKey, NodeName, RunId, StepStatus};

/// The reason of every Kubernetes Event fleetdeck puts on a node.
pub const NODE_EVENT_REASON: &str = "FleetdeckMaintenance";

/// Who a manual Maintain step waits for until someone takes it over.
pub const ON_CALL: &str = "on-call";

/// What the reducer needs besides the state and the observation.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    /// Now, by the executor's clock (journaled with the observation).
    pub now: Timestamp,
    /// The reason of the pause that applies to this node (fleet, cluster, run or its
    /// failure domain), if any.
    pub paused: Option<&'a str>,
    /// Why the node's cluster may not be changed now (its identity is not confirmed, or
    /// is not the one the ledger pins), if so: no call that changes it is made, and the
    /// step waits on this, shown stuck past its deadline.
    pub change_refused: Option<&'a str>,
    /// The maintenance.
    pub spec: &'a MaintenanceSpec,
    /// The run.
    pub run: &'a RunId,
    /// Who acts (the executor), named in node events.
    pub actor: &'a Actor,
}

/// Whether the node was cordoned before we came, and by whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CordonRecord {
    /// Not known yet (before Precheck observed the node).
    Unknown,
    /// Someone else cordoned it before the maintenance: it stays cordoned afterwards.
    AlreadyCordoned,
    /// Schedulable when we came; not cordoned by us (yet).
    WasSchedulable,
    /// We cordoned it: Uncordon undoes it.
    CordonedByUs,
    /// We cordoned it and have uncordoned it again.
    Released,
}

/// One node's maintenance state: serialisable, so it can be snapshotted in the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeState {
    /// The node.
    pub node: NodeName,
    /// The current step.
    pub step: Step,
    /// Its status.
    pub status: StepStatus,
    /// When the current step started running (deadline base, shifted by pauses).
    #[serde(alias = "started_at")]
    pub started_at: Option<Timestamp>,
    /// Since when a pause has held the node (deadlines do not run meanwhile).
    #[serde(alias = "paused_since")]
    pub paused_since: Option<Timestamp>,
    /// Who cordoned the node.
    pub cordon: CordonRecord,
    /// GPUs allocatable before maintenance; VerifyNode wants them back.
    #[serde(alias = "gpus_before")]
    pub gpus_before: Option<u32>,
    /// Drain bookkeeping.
    pub drain: DrainProgress,
    /// Hook runs started so far (part of the hook's idempotency key).
    #[serde(alias = "hook_attempt")]
    pub hook_attempt: u32,
    /// A cordon, uncordon or hook call was requested and has not answered.
    #[serde(alias = "call_in_flight")]
    pub call_in_flight: bool,
    /// When the step last asked or observed something (for retries).
    #[serde(alias = "last_attempt")]
    pub last_attempt: Option<Timestamp>,
    /// Why the step has not finished yet (shown; becomes the Blocked reason at the deadline).
    #[serde(alias = "waiting_on")]
    pub waiting_on: Vec<String>,
}

/// What the executor must do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all_fields = "camelCase")]
pub enum Action {
    /// Compute the prechecks and observe the node; answer with `Prechecked`.
    Precheck,
    /// Cordon the node (side effect); answer with `Cordoned`.
    Cordon,
    /// List the pods on the node; answer with `Pods`.
    ListPods,
    /// Evict one pod through the Eviction API (side effect); answer with `Evictions`.
    Evict {
        /// The pod.
        pod: PodRef,
        /// Grace period to pass, if the file sets one.
        #[serde(alias = "grace_period")]
        grace_period: Option<Duration>,
    },
    /// Run the hook (side effect); answer with `HookFinished`.
    RunHook {
        /// Program and arguments, no shell.
        argv: Vec<String>,
        /// Kill it after this long.
        timeout: Duration,
        /// Environment to add.
        env: Vec<(String, String)>,
        /// The idempotency key, also given to the hook.
        key: IdempotencyKey,
    },
    /// Tell people a manual step waits for them.
    WaitForPerson {
        /// What to do.
        instructions: String,
    },
    /// Observe the node; answer with `Node`.
    ObserveNode,
    /// Observe the displaced workloads; answer with `Workloads`.
    ObserveWorkloads {
        /// The pods that were evicted from the node.
        pods: Vec<PodRef>,
    },
    /// Uncordon the node (side effect); answer with `Uncordoned`.
    Uncordon,
    /// Put a Kubernetes Event on the node so `kubectl describe node` tells the story.
    EmitNodeEvent {
        /// Always [`NODE_EVENT_REASON`].
        reason: String,
        /// The step it is about (`Cordon`, `Drain`, …, `Done`): the Event's `action`, which
        /// an API server requires of every Event with an `eventTime`.
        action: String,
        /// What happened and who did it.
        message: String,
    },
    /// Journal the step's new status.
    RecordStatus {
        /// The step.
        step: Step,
        /// Its status.
        status: StepStatus,
    },
    /// Journal a note about the item.
    RecordNote {
        /// The note.
        text: String,
    },
}

impl Action {
    /// The intent to journal before performing this action, for side effects.
    pub fn intent(&self) -> Option<Intent> {
        match self {
            Action::Cordon => Some(Intent::Cordon),
            Action::Uncordon => Some(Intent::Uncordon),
            Action::Evict { pod, .. } => Some(Intent::Evict { pod: pod.clone() }),
            Action::RunHook { key, .. } => Some(Intent::Hook { key: key.clone() }),
            _ => None,
        }
    }
}

impl NodeState {
    /// A node whose maintenance has not started.
    pub fn new(node: NodeName) -> Self {
        NodeState {
            node,
            step: Step::Precheck,
            status: StepStatus::Pending,
            started_at: None,
            paused_since: None,
            cordon: CordonRecord::Unknown,
            gpus_before: None,
            drain: DrainProgress::default(),
            hook_attempt: 0,
            call_in_flight: false,
            last_attempt: None,
            waiting_on: Vec::new(),
        }
    }

    /// Whether nothing more will happen to this node.
    pub fn is_finished(&self) -> bool {
        self.step == Step::Done || matches!(self.status, StepStatus::Failed { .. })
    }
}
