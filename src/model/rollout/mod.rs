//! Cluster rollouts, pure: the rollout file, the release digest, the stage planner with
//! representative canaries, stop conditions, approvals and the run reducer. The same batch
//! engine as node maintenance one level up; the executor performs the actions these
//! functions return and feeds back what it observed.

mod apply_hold;
mod apply_order;
mod approval;
mod approval_clusters;
mod coverage;
mod decode;
mod digest;
mod gates;
mod halt_msg;
mod machine;
mod planner;
mod port;
mod readiness;
mod release_record;
mod restart;
mod run_spec;
mod spec;
mod state;

pub use apply_hold::{ApplyHold, apply_hold};
pub use apply_order::{ApplyOrderError, OrderedObject, apply_order};
pub use coverage::{Combination, GPU_PRODUCT_LABEL, LiveVersions, Tested, distinct};
pub use decode::{RolloutReport, read_rollout};
pub use digest::{Manifest, ReleaseDigest, release_digest};
pub use planner::{
    LiveDrift, PlanError, PlannedStage, RolloutPlan, plan_rollout, plan_rollout_live,
    select_targets, stage_sizes,
};
pub use spec::*;

pub use approval::{BlockedCluster, Refusal, check_approval, check_approver};
pub use approval_clusters::check_batch_can_act;
pub use gates::{Evidence, HaltReason, MetricReading, failed_gate, metrics_gate};
pub use machine::{item_key, soak_awaits_evidence, step};
pub use port::{RolloutPort, VerifyProgress};
pub use readiness::{
    NodesReadiness, WorkloadStatus, held_back_by_partition, nodes_ready, workload_behind,
};
pub use release_record::{RELEASE_RECORD, RELEASE_RECORD_NAMESPACE};
pub use restart::{
    AppliedSeen, ApplyResolution, RECORD_READ_LIMIT, apply_result, reconcile_apply,
    unfolded_applies,
};
#[cfg(test)]
pub use run_spec::journaled_for_tests;
pub use run_spec::{
    ManifestText, PlannedBatch, RolloutRunSpec, is_rollout_spec, replay, rollout_of,
};
pub use state::{
    Action, Batch, BatchPhase, Item, ItemPhase, Observation, RolloutStatus, RunState, VerifyOutcome,
};

/// Durations serialise as people write them (`30m`), in plans and journal payloads.
pub(crate) fn serialize_duration<S: serde::Serializer>(
    d: &std::time::Duration,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::duration::format_duration(*d))
}
