//! What `rollout start` journals for a run: the rollout file as decoded, the release digest,
//! the manifests' text (so the executor applies exactly the bytes the digest covers, even
//! if the file changes later), the planned batches and what each cluster was known to run.
//! From this alone the executor rebuilds the run's starting state.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::digest::ReleaseDigest;
use super::planner::RolloutPlan;
use super::spec::{Approval, RolloutSpec};
use super::state::{Batch, BatchPhase, Item, ItemPhase, RolloutStatus, RunState};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, RunId};

/// One manifest file of an `apply` release, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestText {
    /// Path relative to the manifest directory.
    pub path: String,
    /// The file's content.
    pub text: String,
}

/// One planned batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedBatch {
    /// The stage it belongs to.
    pub stage: String,
    /// Its clusters (ledger ids).
    pub clusters: Vec<String>,
    /// Whether it waits for a person.
    pub approval: Approval,
    /// Soak after it verified, in seconds.
    pub soak_seconds: u64,
}

/// The run's journaled specification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutRunSpec {
    /// The rollout file, decoded.
    pub rollout: RolloutSpec,
    /// The release digest every cluster should end up with.
    pub digest: ReleaseDigest,
    /// The manifests of an `apply` release (empty for `exec`).
    pub manifests: Vec<ManifestText>,
    /// Batches in order.
    pub batches: Vec<PlannedBatch>,
    /// What clusters were known to run when the rollout started (never applied again).
    pub applied: BTreeMap<String, ReleaseDigest>,
}

impl RolloutRunSpec {
    /// The spec of a run over `plan`.
    pub fn new(
        rollout: RolloutSpec,
        digest: ReleaseDigest,
        manifests: Vec<ManifestText>,
        plan: &RolloutPlan,
        applied: BTreeMap<String, ReleaseDigest>,
    ) -> Self {
        let batches = plan
            .stages
            .iter()
            .flat_map(|stage| {
                stage.batches.iter().map(|clusters| PlannedBatch {
                    stage: stage.name.clone(),
                    clusters: clusters.iter().map(|c| c.0.clone()).collect(),
                    approval: stage.approval,
                    soak_seconds: stage.soak.as_secs(),
                })
            })
            .collect();
        RolloutRunSpec {
            rollout,
            digest,
            manifests,
            batches,
            applied,
        }
    }

    /// The run's state before anything was observed.
    pub fn initial_state(&self, run: RunId, author: Actor) -> RunState {
        let mut items = BTreeMap::new();
        let batches = self
            .batches
            .iter()
            .map(|planned| {
                let clusters: Vec<ClusterId> = planned
                    .clusters
                    .iter()
                    .map(|c| ClusterId(c.clone()))
                    .collect();
                for c in &clusters {
                    items.insert(
                        c.clone(),
                        Item {
                            phase: ItemPhase::Pending,
                            staged: None,
                            applied: self.applied.get(&c.0).cloned(),
                            attempt: 0,
                            reconciling: false,
                            verifications: 0,
                        },
                    );
                }
                Batch {
                    stage: planned.stage.clone(),
                    clusters,
                    approval: planned.approval,
                    soak: Duration::from_secs(planned.soak_seconds),
                    phase: BatchPhase::Pending,
                    approved_by: None,
                    changes: 0,
                }
            })
            .collect();
        RunState {
            run,
            author,
            digest: self.digest.clone(),
            stop_when: self.rollout.stop_when.clone(),
            approvals: self.rollout.approvals,
            status: RolloutStatus::Running,
            batches,
            current: 0,
            items,
            failed: Vec::new(),
            accepted_failures: 0,
        }
    }
}

/// Rebuilds a run's state from its starting state and the observations journaled for it,
/// in order, each at the time it was fed. The actions are not performed again: what they
/// did is in the journal already.
pub fn replay(
    mut state: RunState,
    observed: impl IntoIterator<Item = (jiff::Timestamp, super::state::Observation)>,
) -> RunState {
    for (at, observation) in observed {
        state = super::machine::step(state, at, observation).0;
    }
    state
}
