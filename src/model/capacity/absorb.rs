//! Losing a whole cluster: could its siblings take its workloads? Nothing inside a lost
//! cluster can take its pods, so the question is whether the clusters that would serve
//! its traffic instead (the same workloads deployed there, scaled up) have room for them.
//!
//! A pod fails over only to a sibling that runs the same workload (its namespace and
//! controller, a ReplicaSet read as its Deployment): that is where its traffic goes and
//! its replicas scale up. A bare pod, a Job's pod or a workload deployed nowhere else
//! does not move.
//!
//! The lost cluster's movable pods are re-placed largest first onto the siblings'
//! healthy, unreserved nodes, honouring each pod's node selector, tolerations and requests
//! in every dimension. Failover spreads traffic, so each pod goes to the sibling with the
//! most headroom left in what it needs most (GPUs for a GPU pod, else CPU), first fit on
//! that sibling's nodes, and to the next sibling when none of them has room. A pod whose
//! volume pins it to a topology domain is not moved: its data stays with the lost
//! cluster.

use std::collections::HashSet;

use super::feasibility::admits_ignoring_domain;
use super::index::{ClusterIndex, demand_physical};
use super::whatif::{
    Scenario, UnplacedGroup, UnplacedReason, WhatIfReport, group_unplaced, what_if,
};
use crate::model::fleet::{ClusterId, Dimension, NodeName, PodView, ResourceVector};
use crate::model::ledger::{Ledger, Lifecycle};

/// One sibling's share of the lost cluster's pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiblingShare {
    /// The sibling.
    pub cluster: ClusterId,
    /// Pods it took.
    pub placed_pods: u32,
    /// Whether it runs any of the workloads that needed a home: one that does not is no
    /// sibling for this loss, whatever its room.
    pub runs_any: bool,
    /// Their requests, physical GPUs.
    pub absorbed: ResourceVector,
    /// Its headroom today (after reserve, physical GPUs).
    pub headroom_before: ResourceVector,
    /// Its headroom once it took them.
    pub headroom_after: ResourceVector,
}

/// Whether siblings could take a lost cluster's pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsorbReport {
    /// The lost cluster.
    pub lost: ClusterId,
    /// Its movable pods that were running (what needs a home).
    pub displaced_pods: u32,
    /// Pods some sibling took.
    pub placed_pods: u32,
    /// Pods none did, grouped by owner and reason, largest group first.
    pub unplaced: Vec<UnplacedGroup>,
    /// Per sibling, in the order given.
    pub siblings: Vec<SiblingShare>,
}

impl AbsorbReport {
    /// Pods that no sibling took.
    pub fn unplaced_pods(&self) -> u32 {
        self.unplaced.iter().map(|g| g.pods).sum()
    }
}

/// What a pod is an instance of across clusters: namespace, controller kind and name. A
/// ReplicaSet is read as the Deployment its cluster reports for it (its pod-template hash
/// may differ per cluster), a Job as its CronJob; never guessed from the name.
type Workload<'a> = (&'a str, &'a str, &'a str);

fn workload_of<'a>(
    cluster: &'a crate::model::fleet::ClusterView,
    pod: &'a PodView,
) -> Option<Workload<'a>> {
    let owner = crate::model::fleet::workload_of(&cluster.controllers, pod)?;
    Some((&pod.namespace, &owner.kind, &owner.name))
}

/// A sibling's nodes as placement sees them: which may receive pods, and what is free.
struct SiblingNodes<'i, 'a> {
    index: &'i ClusterIndex<'a>,
    /// The workloads it runs: the only pods it takes.
    runs: HashSet<Workload<'a>>,
    target: Vec<bool>,
    free: Vec<ResourceVector>,
    baseline: WhatIfReport,
    placed: u32,
    absorbed: ResourceVector,
}

impl<'i, 'a> SiblingNodes<'i, 'a> {
    fn new(index: &'i ClusterIndex<'a>, reserved: &[NodeName]) -> Self {
        let held = index.node_mask(reserved);
        let target: Vec<bool> = index
            .health
            .iter()
            .zip(&held)
            .map(|(h, r)| h.is_healthy() && !r)
            .collect();
        let free = index.free_on(&target);
        Self {
            index,
            runs: index
                .cluster
                .pods
                .iter()
                .filter_map(|pod| workload_of(index.cluster, pod))
                .collect(),
            target,
            free,
            baseline: what_if(index, &Scenario::Baseline, reserved),
            placed: 0,
            absorbed: ResourceVector::ZERO,
        }
    }

    /// Headroom in `dim` once what it took so far is subtracted.
    fn headroom_left(&self, dim: &Dimension) -> i64 {
        self.baseline.headroom.get(dim) - self.absorbed.get(dim)
    }

    /// The nodes that would admit `pod` whatever their free resources.
    fn eligible<'s>(&'s self, pod: &'s PodView) -> impl Iterator<Item = usize> + 's {
        self.index
            .cluster
            .nodes
            .iter()
            .enumerate()
            .filter(move |(i, node)| {
                self.target[*i] && admits_ignoring_domain(pod, &node.labels, &node.taints)
            })
            .map(|(i, _)| i)
    }
}

/// Re-places the movable pods of `lost` onto `siblings` (each with the nodes approved
/// maintenance reserves there), largest first, each to the sibling with the most headroom
/// left in what it needs most.
pub fn absorb_cluster_loss(
    lost: &ClusterIndex<'_>,
    siblings: &[(&ClusterIndex<'_>, &[NodeName])],
) -> AbsorbReport {
    let mut nodes: Vec<SiblingNodes> = siblings
        .iter()
        .map(|(index, reserved)| SiblingNodes::new(index, reserved))
        .collect();
    let mut displaced = 0u32;
    let mut unplaced: Vec<(u32, UnplacedReason)> = Vec::new();
    for &p in &lost.ffd_order {
        let pod = &lost.cluster.pods[p as usize];
        displaced += 1;
        if let Some(domain) = &pod.required_domain {
            unplaced.push((p, UnplacedReason::VolumeWithLostCluster(domain.clone())));
            continue;
        }
        let workload = workload_of(lost.cluster, pod);
        let runs_it = |sibling: &SiblingNodes| workload.is_some_and(|w| sibling.runs.contains(&w));
        if !nodes.iter().any(runs_it) {
            unplaced.push((p, UnplacedReason::NotRunElsewhere));
            continue;
        }
        let request = &pod.requests;
        let by = if request.gpu() > 0 {
            Dimension::Gpu
        } else {
            Dimension::Cpu
        };
        // Most headroom left first; ties keep the order given (a stable sort).
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&s| std::cmp::Reverse(nodes[s].headroom_left(&by)));
        let slot = order
            .into_iter()
            .filter(|&s| runs_it(&nodes[s]))
            .find_map(|s| {
                let sibling = &nodes[s];
                sibling
                    .eligible(pod)
                    .find(|&n| request.fits_in(&sibling.free[n]))
                    .map(|n| (s, n))
            });
        match slot {
            Some((s, n)) => {
                let sibling = &mut nodes[s];
                sibling.free[n].sub_assign(request);
                sibling.placed += 1;
                let replicas = sibling.index.cluster.nodes[n].gpu_replicas;
                sibling
                    .absorbed
                    .add_assign(&demand_physical(request, replicas));
            }
            None => {
                let running: Vec<&SiblingNodes> = nodes.iter().filter(|s| runs_it(s)).collect();
                unplaced.push((p, why_no_sibling(&running, pod)));
            }
        }
    }
    let needed: Vec<Workload> = lost
        .ffd_order
        .iter()
        .filter_map(|&p| workload_of(lost.cluster, &lost.cluster.pods[p as usize]))
        .collect();
    let groups = group_unplaced(lost, unplaced.iter().cloned());
    let placed = displaced.saturating_sub(u32::try_from(unplaced.len()).unwrap_or(u32::MAX));
    AbsorbReport {
        lost: lost.cluster.id.clone(),
        displaced_pods: displaced,
        placed_pods: placed,
        unplaced: groups,
        siblings: nodes
            .into_iter()
            .map(|s| SiblingShare {
                cluster: s.index.cluster.id.clone(),
                placed_pods: s.placed,
                runs_any: needed.iter().any(|w| s.runs.contains(w)),
                headroom_after: s.baseline.headroom.minus(&s.absorbed),
                headroom_before: s.baseline.headroom,
                absorbed: s.absorbed,
            })
            .collect(),
    }
}

/// Why no sibling took `pod`: no node anywhere admits it, one dimension is short on every
/// node that does (GPU checked first), or what is free is split across nodes.
fn why_no_sibling(nodes: &[&SiblingNodes], pod: &PodView) -> UnplacedReason {
    let eligible: Vec<(&SiblingNodes, usize)> = nodes
        .iter()
        .flat_map(|s| s.eligible(pod).map(move |n| (*s, n)))
        .collect();
    if eligible.is_empty() {
        return UnplacedReason::NoEligibleNode;
    }
    let request = &pod.requests;
    let gpu_first = std::iter::once((Dimension::Gpu, request.gpu()))
        .chain(request.iter().filter(|(d, _)| *d != Dimension::Gpu));
    for (dim, need) in gpu_first {
        if need <= 0 {
            continue;
        }
        let somewhere = eligible.iter().any(|(s, n)| {
            let free = &s.free[*n];
            !free.reports(&dim) && !dim.absent_means_zero() || free.get(&dim) >= need
        });
        if !somewhere {
            return UnplacedReason::Insufficient(dim);
        }
    }
    UnplacedReason::Fragmented
}

/// The clusters that would take a lost cluster's traffic by default: the other serving
/// clusters of its environment and region (failover seldom crosses either: latency, data
/// residency), in ledger order. A cluster being built or retired takes no traffic.
pub fn default_siblings<'l>(lost: &str, ledger: &'l Ledger) -> Vec<&'l str> {
    let Some(of) = ledger.cluster(lost) else {
        return Vec::new();
    };
    ledger
        .clusters
        .iter()
        .filter(|c| {
            c.id.0 != lost
                && c.env == of.env
                && c.region == of.region
                && c.lifecycle == Lifecycle::Running
        })
        .map(|c| c.id.0.as_str())
        .collect()
}
