//! Which nodes count as healthy allocatable.

use std::sync::Arc;

use super::config::CapacityConfig;
use crate::model::fleet::{MaintenanceState, NodeView, Readiness, Schedulability};

/// Why a node does or does not count towards healthy allocatable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeHealth {
    /// Ready, schedulable, in service and not tainted by a problem.
    Healthy,
    /// Ready=False.
    NotReady,
    /// Ready=Unknown or not reported: unknown is not healthy.
    ReadinessUnknown,
    /// Cordoned.
    Cordoned,
    /// In a maintenance step.
    UnderMaintenance,
    /// Carries a NoSchedule/NoExecute taint that is not a configured dedication taint.
    Tainted(Arc<str>),
}

impl NodeHealth {
    /// Whether the node's allocatable counts and it can take re-placed pods.
    pub fn is_healthy(&self) -> bool {
        matches!(self, Self::Healthy)
    }
}

/// Classifies a node; the first failing check wins, in the order an operator would look.
pub fn node_health(node: &NodeView, config: &CapacityConfig) -> NodeHealth {
    match node.readiness {
        Readiness::Ready => {}
        Readiness::NotReady => return NodeHealth::NotReady,
        Readiness::Unknown => return NodeHealth::ReadinessUnknown,
    }
    if node.schedulability == Schedulability::Cordoned {
        return NodeHealth::Cordoned;
    }
    if node.maintenance == MaintenanceState::UnderMaintenance {
        return NodeHealth::UnderMaintenance;
    }
    let problem = node
        .taints
        .iter()
        .find(|t| t.effect.repels() && !config.dedication_taint_keys.contains(&t.key));
    match problem {
        Some(t) => NodeHealth::Tainted(Arc::clone(&t.key)),
        None => NodeHealth::Healthy,
    }
}
