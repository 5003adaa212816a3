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
}

impl PdbView {
    /// Whether evicting one more covered pod would be refused.
    pub fn blocks_eviction(&self) -> bool {
        self.disruptions_allowed <= 0
    }
}
