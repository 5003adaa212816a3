//! Healthy allocatable, usage and free capacity per failure domain, as things stand.

use std::sync::Arc;

use super::index::{ClusterIndex, capacity_physical};
use crate::model::fleet::{NodeName, ResourceVector};

/// Capacity of one failure domain (or of the nodes without the domain label).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainCapacity {
    /// Domain value; `None` groups the nodes that lack the failure-domain label.
    pub domain: Option<Arc<str>>,
    /// All nodes in the domain.
    pub nodes: u32,
    /// Nodes counted as healthy allocatable (and not reserved).
    pub healthy_nodes: u32,
    /// Healthy allocatable (physical GPUs).
    pub allocatable: ResourceVector,
    /// Requests held on those healthy nodes (physical GPUs).
    pub used: ResourceVector,
    /// `allocatable − used`.
    pub free: ResourceVector,
}

/// Per-domain capacity, in domain order, nodes without the label last.
pub fn domain_capacity(index: &ClusterIndex<'_>, reserved: &[NodeName]) -> Vec<DomainCapacity> {
    let reserved = index.node_mask(reserved);
    let blank = |domain| DomainCapacity {
        domain,
        nodes: 0,
        healthy_nodes: 0,
        allocatable: ResourceVector::ZERO,
        used: ResourceVector::ZERO,
        free: ResourceVector::ZERO,
    };
    let mut out: Vec<DomainCapacity> = index
        .domains
        .iter()
        .map(|d| blank(Some(Arc::clone(d))))
        .collect();
    out.push(blank(None));
    for (i, node) in index.cluster.nodes.iter().enumerate() {
        let slot = index.node_domain[i].map_or(index.domains.len(), |d| d as usize);
        let entry = &mut out[slot];
        entry.nodes += 1;
        if !index.health[i].is_healthy() || reserved[i] {
            continue;
        }
        entry.healthy_nodes += 1;
        let alloc = capacity_physical(&node.allocatable, node.gpu_replicas);
        let free = capacity_physical(&node.allocatable.minus(&index.used[i]), node.gpu_replicas);
        entry.used.add_assign(&alloc.minus(&free));
        entry.allocatable.add_assign(&alloc);
        entry.free.add_assign(&free);
    }
    if out.last().is_some_and(|d| d.nodes == 0) {
        out.pop();
    }
    out
}
