//! Everything about one cluster that does not depend on the what-if scenario, computed
//! once: node health, which node each pod holds resources on, per-node usage, the
//! first-fit-decreasing pod order and the feasibility classes. Every what-if for the
//! cluster then only walks arrays.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::config::CapacityConfig;
use super::feasibility::FeasibilityIndex;
use super::health::{NodeHealth, node_health};
use crate::model::fleet::{ClusterView, Dimension, NodeName, OwnerRef, PodPhase, ResourceVector};

/// Precomputed, scenario-independent facts about one cluster.
#[derive(Debug)]
pub struct ClusterIndex<'a> {
    pub(crate) cluster: &'a ClusterView,
    pub(crate) config: &'a CapacityConfig,
    /// Health of each node.
    pub(crate) health: Vec<NodeHealth>,
    /// Node each pod holds resources on (`None`: pending, terminated, or bound to a node
    /// we do not know).
    pub(crate) pod_node: Vec<Option<u32>>,
    /// Requests held on each node by all its pods.
    pub(crate) used: Vec<ResourceVector>,
    /// Requests held on each node by movable pods (the ones that need a new home when
    /// the node leaves), GPU already deflated to physical GPUs.
    pub(crate) movable_used_physical: Vec<ResourceVector>,
    /// Demand with no node to count against: pending pods and pods on unknown nodes.
    pub(crate) unbound_demand: ResourceVector,
    /// Movable pods bound to known nodes, largest first (GPU first, then dominant share).
    pub(crate) ffd_order: Vec<u32>,
    /// Pods on each node that go with it when it leaves (DaemonSet and static pods).
    pub(crate) staying: Vec<u32>,
    /// Failure-domain value index of each node (`None`: node lacks the label).
    pub(crate) node_domain: Vec<Option<u32>>,
    /// Distinct failure-domain values, sorted.
    pub(crate) domains: Vec<Arc<str>>,
    pub(crate) feasibility: FeasibilityIndex,
}

impl<'a> ClusterIndex<'a> {
    /// Indexes a cluster under a configuration.
    pub fn new(cluster: &'a ClusterView, config: &'a CapacityConfig) -> Self {
        let health: Vec<NodeHealth> = cluster
            .nodes
            .iter()
            .map(|n| node_health(n, config))
            .collect();
        let by_name: HashMap<&str, u32> = cluster
            .nodes
            .iter()
            .zip(0u32..)
            .map(|(n, i)| (n.name.as_str(), i))
            .collect();

        let mut used = vec![ResourceVector::ZERO; cluster.nodes.len()];
        let mut movable_used = vec![ResourceVector::ZERO; cluster.nodes.len()];
        let mut unbound_demand = ResourceVector::ZERO;
        let mut pod_node = Vec::with_capacity(cluster.pods.len());
        let mut ffd_order = Vec::new();
        let mut staying = vec![0u32; cluster.nodes.len()];
        for (i, pod) in cluster.pods.iter().enumerate() {
            if !pod.phase.holds_resources() {
                pod_node.push(None);
                continue;
            }
            let node = pod
                .node
                .as_ref()
                .and_then(|n| by_name.get(n.as_str()).copied());
            pod_node.push(node);
            match node {
                Some(n) => {
                    used[n as usize].add_assign(&pod.requests);
                    if pod.is_movable() {
                        movable_used[n as usize].add_assign(&pod.requests);
                        if let Ok(i) = u32::try_from(i) {
                            ffd_order.push(i);
                        }
                    } else if pod.owner.as_ref().is_some_and(OwnerRef::is_node_bound)
                        && pod.phase != PodPhase::Terminating
                    {
                        staying[n as usize] += 1;
                    }
                }
                None if pod.is_movable() => unbound_demand.add_assign(&pod.requests),
                None => {}
            }
        }

        // Reference for dominant shares: healthy allocatable of the whole cluster.
        let mut reference = ResourceVector::ZERO;
        for (node, h) in cluster.nodes.iter().zip(&health) {
            if h.is_healthy() {
                reference.add_assign(&node.allocatable);
            }
        }
        // Sort once per cluster; every scenario filters this order instead of sorting.
        // Ties keep pod order (stable sort) so results are reproducible.
        ffd_order.sort_by(|a, b| {
            let pa = &cluster.pods[*a as usize].requests;
            let pb = &cluster.pods[*b as usize].requests;
            pa.decreasing_order(pb, &reference)
        });

        let movable_used_physical = cluster
            .nodes
            .iter()
            .zip(movable_used)
            .map(|(n, u)| demand_physical(&u, n.gpu_replicas))
            .collect();

        let mut domains: Vec<Arc<str>> = cluster
            .nodes
            .iter()
            .filter_map(|n| n.labels.get(&config.failure_domain_key).cloned())
            .collect();
        domains.sort();
        domains.dedup();
        let node_domain = cluster
            .nodes
            .iter()
            .map(|n| {
                let value = n.labels.get(&config.failure_domain_key)?;
                let pos = domains.binary_search(value).ok()?;
                u32::try_from(pos).ok()
            })
            .collect();

        Self {
            cluster,
            config,
            health,
            pod_node,
            used,
            movable_used_physical,
            unbound_demand,
            ffd_order,
            staying,
            node_domain,
            domains,
            feasibility: FeasibilityIndex::build(cluster),
        }
    }

    /// The indexed cluster.
    pub fn cluster(&self) -> &'a ClusterView {
        self.cluster
    }

    /// The configuration the index was built with.
    pub fn config(&self) -> &'a CapacityConfig {
        self.config
    }

    /// Health of each node, in node order.
    pub fn node_health(&self) -> &[NodeHealth] {
        &self.health
    }

    /// The failure-domain values present (values of `config.failure_domain_key`).
    pub fn failure_domains(&self) -> &[Arc<str>] {
        &self.domains
    }

    /// Node indexes of the named nodes (unknown names are ignored: a node that is already
    /// gone cannot be lost again).
    pub(crate) fn node_mask(&self, names: &[NodeName]) -> Vec<bool> {
        let mut mask = vec![false; self.cluster.nodes.len()];
        if names.is_empty() {
            return mask;
        }
        // A handful of names is faster to scan than to hash; a long list (a whole rack
        // named node by node) is not.
        if names.len() <= 16 {
            for (node, slot) in self.cluster.nodes.iter().zip(mask.iter_mut()) {
                *slot = names.contains(&node.name);
            }
        } else {
            let wanted: HashSet<&str> = names.iter().map(NodeName::as_str).collect();
            for (node, slot) in self.cluster.nodes.iter().zip(mask.iter_mut()) {
                *slot = wanted.contains(node.name.as_str());
            }
        }
        mask
    }
}

/// Converts a node's allocatable or free amount into reporting units: GPUs deflated from
/// time-slicing shares to whole physical GPUs, rounding down (a partly used physical GPU
/// is not free).
impl ClusterIndex<'_> {
    /// What is free on each node that may receive pods (`target`): its allocatable less
    /// what its pods request; nothing on the others.
    pub(crate) fn free_on(&self, target: &[bool]) -> Vec<ResourceVector> {
        self.cluster
            .nodes
            .iter()
            .zip(&self.used)
            .zip(target)
            .map(|((node, used), t)| {
                if *t {
                    node.allocatable.minus(used)
                } else {
                    ResourceVector::ZERO
                }
            })
            .collect()
    }
}

pub(crate) fn capacity_physical(v: &ResourceVector, replicas: u32) -> ResourceVector {
    if replicas <= 1 {
        return v.clone();
    }
    let mut out = v.clone();
    out.set(Dimension::Gpu, v.gpu().div_euclid(i64::from(replicas)));
    out
}

/// Converts a demand amount into reporting units: GPU shares deflated to physical GPUs,
/// rounding up (a pod using one share occupies part of a physical GPU).
pub(crate) fn demand_physical(v: &ResourceVector, replicas: u32) -> ResourceVector {
    if replicas <= 1 {
        return v.clone();
    }
    let mut out = v.clone();
    let r = i64::from(replicas);
    out.set(
        Dimension::Gpu,
        v.gpu().div_euclid(r) + i64::from(v.gpu().rem_euclid(r) > 0),
    );
    out
}
