//! Capacity math over the slim fleet views: healthy allocatable, GPU shape, what-if
//! re-placement, N−1 failure-domain headroom and plain-language explanations.
//!
//! Per cluster, per failure domain, per dimension; amounts of different dimensions are
//! never added together. Entry point for one cluster: [`cluster_report`], or build a
//! [`ClusterIndex`] once and ask it for individual [`what_if`]s, the [`gpu_shape`] or
//! [`n_minus_one`]. Losing a whole cluster strands its movable pods inside it;
//! [`absorb_cluster_loss`] asks whether sibling clusters could take them.

mod absorb;
mod config;
mod drain;
mod explain;
pub(crate) mod feasibility;
mod format;
mod gang;
mod gpu_shape;
mod health;
mod index;
mod n_minus_one;
mod report;
mod says;
mod summary;
pub(crate) mod whatif;
mod whatif_report;

#[cfg(test)]
mod tests;

pub use absorb::{AbsorbReport, SiblingShare, absorb_cluster_loss, default_siblings};
pub use config::{CapacityConfig, RACK_LABEL, SafetyReserve, ZONE_LABEL};
pub use drain::{BlockingBudget, budgets_blocking_drain};
pub use explain::{HeadroomLimit, NodesNotCounted, explain};
pub use format::{amount_msg, format_amount};
pub use gang::{GangFit, GangParseError, GangRequest, gang_fit};
pub use gpu_shape::{DomainGpuFree, GangSlots, GpuShape, NodeGpuFree, gpu_shape, gpu_shape_after};
pub use health::{NodeHealth, node_health};
pub use index::ClusterIndex;
pub use n_minus_one::{FailureDomainHeadroom, WorstDomain, n_minus_one};
pub use report::{ClusterReport, cluster_report, fleet_report};
pub use says::{dim_msg, joined, pods_msg};
pub use summary::{DomainCapacity, domain_capacity};
pub use whatif::{PlannedMove, Scenario, planned_moves, what_if};
pub use whatif_report::{UnplacedGroup, UnplacedReason, WhatIfReport};
