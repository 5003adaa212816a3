//! GPU shape: GPUs are only useful in the shape a job needs, so beyond totals this
//! reports free GPUs per node, how many k-GPU slots exist on single nodes, the largest
//! gang one node can take, and free GPUs and whole free nodes per topology domain.
//!
//! Counts are physical GPUs: on time-sliced nodes the advertised shares are deflated by
//! `nvidia.com/gpu.replicas`, and a physical GPU is free only when all its shares are.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::index::ClusterIndex;
use super::whatif::{Scenario, place};
use crate::model::fleet::{Dimension, NodeName, ResourceVector};

/// GPU state of one healthy node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeGpuFree {
    /// Node.
    pub node: NodeName,
    /// Physical GPUs.
    pub total: i64,
    /// Physical GPUs with no share requested.
    pub free: i64,
    /// Free MIG slices per profile.
    pub mig_free: Vec<(Arc<str>, i64)>,
}

/// Free GPUs in one topology domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainGpuFree {
    /// Topology label key.
    pub key: Arc<str>,
    /// Label value.
    pub value: Arc<str>,
    /// Healthy GPU nodes in the domain.
    pub nodes: u32,
    /// Physical GPUs on them.
    pub total_gpus: i64,
    /// Free physical GPUs on them.
    pub free_gpus: i64,
    /// Nodes with every GPU free (what a whole-node job needs).
    pub whole_free_nodes: u32,
}

/// Single-node slots of one gang size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GangSlots {
    /// GPUs per slot (all on one node).
    pub size: u32,
    /// How many such slots exist: Σ over nodes of ⌊free / size⌋.
    pub slots: i64,
}

/// The GPU shape of one cluster's healthy, unreserved nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuShape {
    /// Physical GPUs.
    pub total_gpus: i64,
    /// Free physical GPUs.
    pub free_gpus: i64,
    /// Per GPU node (nodes with GPUs or MIG slices), in node order.
    pub per_node: Vec<NodeGpuFree>,
    /// Slots per configured gang size.
    pub slots: Vec<GangSlots>,
    /// Most free GPUs on any one node.
    pub largest_gang: i64,
    /// Per topology domain, for each configured key present, sorted by key order then value.
    pub domains: Vec<DomainGpuFree>,
}

/// Computes the GPU shape of an indexed cluster, leaving out `reserved` nodes.
pub fn gpu_shape(index: &ClusterIndex<'_>, reserved: &[NodeName]) -> GpuShape {
    let reserved = index.node_mask(reserved);
    let counts: Vec<bool> = (0..index.cluster.nodes.len())
        .map(|i| index.health[i].is_healthy() && !reserved[i])
        .collect();
    shape_of(index, &counts, |i| index.used[i].clone())
}

/// The GPU shape once `scenario` has happened: the nodes it takes away are gone, and
/// the pods they ran hold GPUs where the what-if re-placed them. What a gang can still
/// find after losing a zone depends on both.
pub fn gpu_shape_after(
    index: &ClusterIndex<'_>,
    scenario: &Scenario,
    reserved: &[NodeName],
) -> GpuShape {
    if *scenario == Scenario::LoseCluster {
        return shape_of(index, &vec![false; index.cluster.nodes.len()], |i| {
            index.used[i].clone()
        });
    }
    let placement = place(index, scenario, reserved);
    shape_of(index, &placement.target, |i| {
        index.cluster.nodes[i].allocatable.minus(&placement.free[i])
    })
}

/// The shape of the nodes that `counts`, each with `used_on(i)` requested on it.
fn shape_of(
    index: &ClusterIndex<'_>,
    counts: &[bool],
    used_on: impl Fn(usize) -> ResourceVector,
) -> GpuShape {
    let cluster = index.cluster;
    let mut per_node = Vec::new();
    let mut domains: BTreeMap<(usize, Arc<str>), DomainGpuFree> = BTreeMap::new();
    for (i, node) in cluster.nodes.iter().enumerate() {
        if !counts[i] {
            continue;
        }
        let used = &used_on(i);
        let replicas = i64::from(node.gpu_replicas.max(1));
        let total = node.physical_gpus();
        let free = (node.allocatable.gpu() - used.gpu())
            .max(0)
            .div_euclid(replicas)
            .min(total);
        let mig_free: Vec<(Arc<str>, i64)> = node
            .allocatable
            .extended()
            .iter()
            .filter_map(|(dim, amount)| match dim {
                Dimension::Mig(profile) => {
                    Some((Arc::clone(profile), (amount - used.get(dim)).max(0)))
                }
                _ => None,
            })
            .collect();
        if total <= 0 && mig_free.is_empty() {
            continue;
        }
        let whole_free = total > 0 && used.gpu() == 0;
        for (k, key) in index.config.topology_keys.iter().enumerate() {
            let Some(value) = node.labels.get(key) else {
                continue;
            };
            let d = domains
                .entry((k, Arc::clone(value)))
                .or_insert_with(|| DomainGpuFree {
                    key: Arc::clone(key),
                    value: Arc::clone(value),
                    nodes: 0,
                    total_gpus: 0,
                    free_gpus: 0,
                    whole_free_nodes: 0,
                });
            d.nodes += 1;
            d.total_gpus += total;
            d.free_gpus += free;
            d.whole_free_nodes += u32::from(whole_free);
        }
        per_node.push(NodeGpuFree {
            node: node.name.clone(),
            total,
            free,
            mig_free,
        });
    }
    let slots = index
        .config
        .gang_sizes
        .iter()
        .filter(|k| **k > 0)
        .map(|&size| GangSlots {
            size,
            slots: per_node.iter().map(|n| n.free / i64::from(size)).sum(),
        })
        .collect();
    GpuShape {
        total_gpus: per_node.iter().map(|n| n.total).sum(),
        free_gpus: per_node.iter().map(|n| n.free).sum(),
        largest_gang: per_node.iter().map(|n| n.free).max().unwrap_or(0),
        slots,
        per_node,
        domains: domains.into_values().collect(),
    }
}
