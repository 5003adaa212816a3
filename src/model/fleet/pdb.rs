//! The slim PodDisruptionBudget view.

use std::sync::Arc;

/// A PodDisruptionBudget's status, which is what drain prechecks decide on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbView {
    /// Namespace (interned).
    pub namespace: Arc<str>,
    /// PDB name.
    pub name: Arc<str>,
    /// `status.disruptionsAllowed`: evictions the API will accept right now.
    pub disruptions_allowed: i32,
    /// `status.currentHealthy`.
    pub current_healthy: i32,
    /// `status.desiredHealthy`.
    pub desired_healthy: i32,
    /// `status.expectedPods`.
    pub expected_pods: i32,
    /// `spec.unhealthyPodEvictionPolicy: AlwaysAllow`: a pod that is not Ready may be
    /// evicted whatever the budget says (the default, `IfHealthyBudget`, only while the
    /// budget is whole).
    pub always_allow_unhealthy: bool,
}

impl PdbView {
    /// Whether evicting one more covered pod would be refused.
    pub fn blocks_eviction(&self) -> bool {
        self.disruptions_allowed <= 0
    }

    /// Whether the eviction API would refuse to evict a covered pod now, as the API
    /// server decides: a pod that is not Ready skips the budget under `AlwaysAllow`, or
    /// under the default policy while the budget is whole; any other needs a disruption
    /// left.
    pub fn refuses_eviction(&self, pod_ready: bool) -> bool {
        let skips_budget = !pod_ready
            && (self.always_allow_unhealthy || self.current_healthy >= self.desired_healthy);
        !skips_budget && self.blocks_eviction()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(allowed: i32, healthy: i32, desired: i32, always: bool) -> PdbView {
        PdbView {
            always_allow_unhealthy: always,
            ..crate::fixtures::capacity::pdb("web", allowed, healthy, desired)
        }
    }

    #[test]
    fn the_eviction_api_reads_the_pods_readiness_and_the_unhealthy_pod_policy() {
        // (allowed, healthy, desired, AlwaysAllow) → refuses (Ready pod, not-Ready pod)
        let cases = [
            ((1, 3, 2, false), (false, false)),
            // Whole but spent: a Ready pod waits, a not-Ready one goes.
            ((0, 2, 2, false), (true, false)),
            // Short of healthy pods: both wait under the default policy...
            ((0, 1, 2, false), (true, true)),
            // ...and under AlwaysAllow the not-Ready one goes.
            ((0, 1, 2, true), (true, false)),
        ];
        for ((allowed, healthy, desired, always), (ready, not_ready)) in cases {
            let pdb = budget(allowed, healthy, desired, always);
            assert_eq!(pdb.refuses_eviction(true), ready, "{pdb:?}, Ready pod");
            assert_eq!(pdb.refuses_eviction(false), not_ready, "{pdb:?}, not Ready");
        }
    }
}
