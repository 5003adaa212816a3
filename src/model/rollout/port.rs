//! What the rollout executor needs from the clusters and the metrics, as a trait: the
//! reducer's actions become these calls. Implemented over kube and Prometheus by the
//! engine; the answers are plain data the reducer understands.

use std::future::Future;

use super::gates::Evidence;
use super::restart::AppliedSeen;
use super::run_spec::RolloutRunSpec;
use super::spec::BurnRateLimit;
use super::state::VerifyOutcome;
use crate::model::ledger::ClusterId;
use crate::model::run::IdempotencyKey;

/// Where a cluster's checks stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyProgress {
    /// The checks reached a verdict.
    Done(VerifyOutcome),
    /// Not yet (a workload still rolling, nodes coming back, a metric not readable yet):
    /// ask again later, until the verification deadline.
    NotYet {
        /// What is still missing, in words.
        why: String,
        /// The verdict if the deadline passes in this state.
        at_deadline: VerifyOutcome,
    },
}

/// The clusters and the metrics, as the rollout executor sees them.
pub trait RolloutPort {
    /// Who releases are applied as on `cluster` (the kubeconfig user of its context),
    /// journaled with each apply; `None` when the port cannot say.
    fn releasing_as(&self, _cluster: &ClusterId) -> Option<String> {
        None
    }

    /// Applies the run's release to a cluster (server-side apply of its manifests or its
    /// exec action), then records the digest on the cluster; answers the digest the
    /// cluster reports afterwards, or why it failed.
    fn apply_release(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        key: &IdempotencyKey,
    ) -> impl Future<Output = Result<super::digest::ReleaseDigest, String>> + Send;

    /// Runs the release's checks on a cluster once, `since_applied` after the release was
    /// applied there (a metric check is not judged while its range still reaches back to
    /// before the change).
    fn verify_release(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        since_applied: std::time::Duration,
    ) -> impl Future<Output = VerifyProgress> + Send;

    /// The release digest the cluster records as applied.
    fn applied_release(&self, cluster: &ClusterId) -> impl Future<Output = AppliedSeen> + Send;

    /// Error ratios over the SLO window for these clusters (unknown where missing), by
    /// the SLO's own query when the rollout gives one.
    fn burn_evidence(
        &self,
        clusters: &[ClusterId],
        slo: &BurnRateLimit,
    ) -> impl Future<Output = Evidence> + Send;
}
