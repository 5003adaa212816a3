//! The maintenance file's content as typed data (`kind: Maintenance`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::step::Step;
use crate::model::ledger::ClusterId;
use crate::model::run::NodeName;

/// The label most clusters put the zone in; the default failure-domain key.
pub const DEFAULT_FAILURE_DOMAIN_LABEL: &str = "topology.kubernetes.io/zone";

/// One maintenance: which nodes of which cluster, what to do to each, and under which
/// budgets and deadlines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceSpec {
    /// Human name, also the run's title.
    pub name: String,
    /// The ledger id of the cluster.
    pub cluster: ClusterId,
    /// Which nodes.
    pub nodes: NodeSelection,
    /// What happens in the Maintain step.
    pub action: MaintainAction,
    /// How many nodes may be out at once.
    pub budgets: Budgets,
    /// How long each step may take before it is stuck.
    pub deadlines: Deadlines,
    /// How nodes are drained.
    pub drain: DrainOptions,
    /// What VerifyNode checks besides readiness.
    pub verify: VerifyOptions,
}

/// Which nodes a maintenance covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NodeSelection {
    /// These nodes, by name, in this order.
    Names(Vec<NodeName>),
    /// Every node whose labels match this label selector (resolved against the cluster).
    Selector(String),
}

/// The Maintain step's work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MaintainAction {
    /// Run a program (argv, never through a shell) with a timeout. It gets
    /// `FLEETDECK_CLUSTER`, `FLEETDECK_NODE`, `FLEETDECK_RUN` and
    /// `FLEETDECK_IDEMPOTENCY_KEY` in its environment.
    Exec(ExecHook),
    /// A person does the work and marks the step done.
    Manual {
        /// What the person should do.
        instructions: String,
    },
}

/// A program to run per node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecHook {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Killed after this long.
    pub timeout: Duration,
    /// Whether running it twice is harmless. Only then is a hook whose outcome was lost
    /// (executor died while it ran) run again; otherwise the step is Blocked.
    pub idempotent: bool,
}

/// Disruption budgets: a batch never takes more nodes out than any of these allow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Budgets {
    /// Nodes unavailable at once in the whole cluster, counting nodes already down.
    pub max_unavailable: u32,
    /// The node label naming the failure domain.
    pub failure_domain_label: String,
    /// Nodes unavailable at once per failure domain.
    pub per_failure_domain: Option<u32>,
    /// Nodes unavailable at once per value of a label (e.g. a replica group).
    pub per_label: Vec<LabelBudget>,
}

/// A budget per value of one node label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelBudget {
    /// The label key.
    pub label: String,
    /// Nodes unavailable at once per value.
    pub max_unavailable: u32,
}

/// Per-step deadlines: past one, the step is stuck (Blocked) and waits for a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deadlines {
    /// By step.
    pub by_step: BTreeMap<Step, Duration>,
}

impl Deadlines {
    /// The deadline of `step`.
    pub fn of(&self, step: Step) -> Duration {
        self.by_step
            .get(&step)
            .copied()
            .unwrap_or_else(|| step.default_deadline())
    }
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            by_step: Step::WORK
                .iter()
                .map(|s| (*s, s.default_deadline()))
                .collect(),
        }
    }
}

/// How pods are moved off a node. DaemonSet pods are always left in place (they would be
/// recreated on the same node) and mirror pods cannot be evicted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DrainOptions {
    /// Grace period passed with each eviction; the pod's own when absent.
    pub grace_period: Option<Duration>,
    /// Whether pods with emptyDir volumes may be evicted (their data is lost).
    pub delete_empty_dir_data: bool,
    /// How long to wait before asking again for a pod whose eviction was refused.
    pub eviction_retry: Duration,
    /// How long an evicted pod may stay before it counts as "not terminating".
    pub terminating_grace: Duration,
}

impl Default for DrainOptions {
    fn default() -> Self {
        DrainOptions {
            grace_period: None,
            delete_empty_dir_data: false,
            eviction_retry: Duration::from_secs(20),
            terminating_grace: Duration::from_secs(300),
        }
    }
}

/// What VerifyNode checks.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyOptions {
    /// Versions the node must report afterwards (`kubelet`, `kernel`,
    /// `containerRuntime`, `osImage`).
    pub expected_versions: BTreeMap<String, String>,
}

/// Version keys VerifyNode knows how to read from a Node's status.
pub const VERSION_KEYS: &[&str] = &["kubelet", "kernel", "containerRuntime", "osImage"];
