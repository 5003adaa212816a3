//! What the executor observes and feeds to the node state machine: plain data, filled in
//! from the cluster by the Kubernetes adapter (or by tests).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::run::{Actor, ReturnOutcome};

use super::restart::{Intent, Resolution};

/// A pod, by namespace and name (and UID, so a re-created pod with the same name is not
/// mistaken for the one we evicted).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PodRef {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// UID.
    pub uid: String,
}

impl std::fmt::Display for PodRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// Who owns a pod, as far as draining cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PodOwner {
    /// A DaemonSet: left in place, it would come back on the same node.
    DaemonSet,
    /// A static (mirror) pod: the kubelet owns it, eviction is impossible.
    Mirror,
    /// Anything else (ReplicaSet, StatefulSet, Job, none).
    Other,
}

/// A pod bound to the node being drained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodInfo {
    /// Which pod.
    pub pod: PodRef,
    /// Its owner kind.
    pub owner: PodOwner,
    /// Whether it has emptyDir volumes (evicting it loses their data).
    #[serde(alias = "has_empty_dir")]
    pub has_empty_dir: bool,
    /// Whether its deletion has started (deletionTimestamp set).
    pub terminating: bool,
}

/// The Eviction API's answer for one pod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvictionResult {
    /// Accepted (201): the pod is being deleted.
    Evicted,
    /// Refused (429) because of a PodDisruptionBudget.
    BlockedByPdb {
        /// The PDB's name.
        pdb: String,
        /// Healthy pods it requires.
        needs: u32,
        /// Healthy pods it has.
        has: u32,
    },
    /// Already gone (404).
    PodGone,
    /// Any other failure.
    Error {
        /// The API's message.
        message: String,
    },
}

/// A node as seen now.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeObservation {
    /// Ready condition is True.
    pub ready: bool,
    /// `spec.unschedulable`.
    pub unschedulable: bool,
    /// `nvidia.com/gpu` (and MIG) allocatable, summed.
    #[serde(alias = "gpus_allocatable")]
    pub gpus_allocatable: u32,
    /// Versions from `status.nodeInfo` (`kubelet`, `kernel`, `containerRuntime`, `osImage`).
    pub versions: BTreeMap<String, String>,
}

/// The result of one precheck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckOutcome {
    /// Fine.
    Pass,
    /// Not fine, with why.
    Fail(String),
    /// Could not tell (unreachable, missing data): treated as a failure, never as a pass.
    Unknown(String),
}

/// The prechecks of one node, each computed by the caller (the capacity what-if, PDB
/// headroom and budgets need the cluster's state), plus the node itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrecheckReport {
    /// The cluster is the one the ledger pins (kube-system UID, API server).
    pub identity: CheckOutcome,
    /// Taking this node out keeps every budget.
    pub budgets: CheckOutcome,
    /// Every PDB covering the node's pods has room for one more disruption.
    #[serde(alias = "pdb_headroom")]
    pub pdb_headroom: CheckOutcome,
    /// The displaced pods fit elsewhere (the capacity what-if), with its explanation.
    pub capacity: CheckOutcome,
    /// The mass-failure guard has not tripped for the node's failure domain.
    pub guard: CheckOutcome,
    /// The node now.
    pub node: NodeObservation,
}

impl PrecheckReport {
    /// Every check that did not pass, as `name: reason`.
    pub fn failures(&self) -> Vec<String> {
        [
            ("identity", &self.identity),
            ("budgets", &self.budgets),
            ("PDB headroom", &self.pdb_headroom),
            ("capacity", &self.capacity),
            ("mass-failure guard", &self.guard),
        ]
        .into_iter()
        .filter_map(|(name, outcome)| match outcome {
            CheckOutcome::Pass => None,
            CheckOutcome::Fail(why) => Some(format!("{name}: {why}")),
            CheckOutcome::Unknown(why) => Some(format!("{name}: unknown ({why})")),
        })
        .collect()
    }
}

/// How a hook run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookResult {
    /// Exit code; `None` when killed by a signal.
    #[serde(alias = "exit_code")]
    pub exit_code: Option<i32>,
    /// Killed because it outlived its timeout.
    #[serde(alias = "timed_out")]
    pub timed_out: bool,
    /// Its output (stdout and stderr, possibly cut), kept in the journal.
    pub output: String,
}

impl HookResult {
    /// Whether it exited with status 0.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }

    /// One line for people: the exit and the output's last line.
    pub fn summary(&self) -> String {
        let last = self
            .output
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        let end = match (self.timed_out, self.exit_code) {
            (true, _) => "killed after its timeout".to_string(),
            (false, Some(code)) => format!("exit status {code}"),
            (false, None) => "killed by a signal".to_string(),
        };
        if last.is_empty() {
            end
        } else {
            format!("{end}: {last}")
        }
    }
}

/// Whether the displaced workloads are healthy again.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadObservation {
    /// Displaced workloads not Ready yet (`namespace/name` of their owners).
    #[serde(alias = "not_ready")]
    pub not_ready: Vec<String>,
    /// PDBs of those workloads that are not healthy (`needs N has M`).
    #[serde(alias = "unhealthy_pdbs")]
    pub unhealthy_pdbs: Vec<String>,
}

impl Observation {
    /// Why a call did not do what was intended, in one line for people, when it did not:
    /// what a drain that keeps retrying is up against before it is declared stuck.
    pub fn why_not_done(&self) -> Option<String> {
        match self {
            Observation::Evictions(results) => {
                let refused: Vec<String> = results
                    .iter()
                    .filter_map(|(pod, result)| match result {
                        EvictionResult::BlockedByPdb { pdb, needs, has } => Some(format!(
                            "{pod}: PDB {pdb} needs {needs} healthy pods and has {has}"
                        )),
                        EvictionResult::Error { message } => Some(format!("{pod}: {message}")),
                        EvictionResult::Evicted | EvictionResult::PodGone => None,
                    })
                    .collect();
                match refused.as_slice() {
                    [] => None,
                    [one] => Some(format!("eviction refused, {one}")),
                    [first, rest @ ..] => Some(format!(
                        "{} evictions refused, {first} (and {} more)",
                        refused.len(),
                        rest.len()
                    )),
                }
            }
            Observation::Cordoned(Err(error)) => Some(format!("cordon failed: {error}")),
            Observation::Uncordoned(Err(error)) => Some(format!("uncordon failed: {error}")),
            Observation::HookFinished(hook) if !hook.succeeded() => {
                Some(format!("hook: {}", hook.summary()))
            }
            _ => None,
        }
    }
}

/// Everything the node state machine reacts to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Observation {
    /// Time passed (deadlines, retries) or the pause state changed.
    Tick,
    /// The prechecks' results.
    Prechecked(PrecheckReport),
    /// The cordon call returned: `Err` carries the API's message.
    Cordoned(Result<(), String>),
    /// The pods now bound to the node.
    Pods(Vec<PodInfo>),
    /// Answers of eviction calls.
    Evictions(Vec<(PodRef, EvictionResult)>),
    /// The hook finished.
    HookFinished(HookResult),
    /// The node now.
    Node(NodeObservation),
    /// The displaced workloads now.
    Workloads(WorkloadObservation),
    /// The uncordon call returned.
    Uncordoned(Result<(), String>),
    /// A person handed the item to someone.
    HandOff {
        /// Who gets it.
        to: Actor,
        /// Who handed it off.
        by: Actor,
        /// What they need to know.
        note: String,
    },
    /// A person claimed the item.
    TakeOver {
        /// Who.
        by: Actor,
        /// Why.
        note: String,
    },
    /// A person gave the item back.
    Return {
        /// How to continue.
        outcome: ReturnOutcome,
        /// Who.
        by: Actor,
        /// What they did.
        note: String,
    },
    /// After a restart: what observing the cluster said about an intent without outcome.
    Reconciled {
        /// The intent.
        intent: Intent,
        /// What happened to it.
        resolution: Resolution,
    },
}
