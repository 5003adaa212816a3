//! What-if: take capacity away (nodes, a failure domain, a maintenance batch, the whole
//! cluster), re-place the displaced pods first-fit decreasing, and report what could not
//! be placed and the headroom left per dimension.
//!
//! Headroom after losing X, per dimension:
//! `Σ free of healthy nodes without X and without reserved nodes (after re-placement)
//!  − demand with nowhere to count (unplaced displaced pods, movable pods on unhealthy or
//!  reserved nodes, pending pods) − safety reserve`.
//! Equivalently: healthy allocatable without X − all demand − reservations − reserve.
//! The safety reserve is not applied per node while placing: the scheduler does not know
//! about it, so "cannot be placed" means what the scheduler would also fail to do, and
//! the reserve shows up as reduced (possibly negative) headroom instead.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::index::{ClusterIndex, capacity_physical, demand_physical};
use crate::model::fleet::{
    ClusterId, Dimension, NodeName, OwnerRef, RequiredDomain, ResourceVector,
};

/// What is taken away in a what-if.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// Nothing: the cluster as it is (minus reservations).
    Baseline,
    /// Named nodes fail.
    LoseNodes(Vec<NodeName>),
    /// Every node with label `key` = `value` fails (a zone, rack, NVLink domain…).
    LoseFailureDomain {
        /// Label key, e.g. `topology.kubernetes.io/zone`.
        key: Arc<str>,
        /// Label value, e.g. `eu-west-1b`.
        value: Arc<str>,
    },
    /// The whole cluster is lost. Its pods cannot be re-placed inside it, so every
    /// movable pod is reported as unplaceable here; whether sibling clusters could take
    /// them is [`super::absorb_cluster_loss`]'s question.
    LoseCluster,
    /// A maintenance batch is drained: the named nodes leave, their pods must move.
    MaintenanceBatch(Vec<NodeName>),
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Baseline => f.write_str("with no loss"),
            Self::LoseNodes(nodes) if nodes.len() == 1 => {
                write!(f, "after losing node {}", nodes[0])
            }
            Self::LoseNodes(nodes) => write!(f, "after losing {} nodes", nodes.len()),
            Self::LoseFailureDomain { key, value } => match short_domain_name(key) {
                Some(kind) => write!(f, "after losing {kind} {value}"),
                None => write!(f, "after losing {key}={value}"),
            },
            Self::LoseCluster => f.write_str("after losing the whole cluster"),
            Self::MaintenanceBatch(nodes) if nodes.len() == 1 => {
                write!(f, "while draining node {} as a maintenance batch", nodes[0])
            }
            Self::MaintenanceBatch(nodes) => {
                write!(
                    f,
                    "while draining a maintenance batch of {} nodes",
                    nodes.len()
                )
            }
        }
    }
}

/// A short word for well-known domain keys ("zone", "rack"), for sentences.
pub(crate) fn short_domain_name(key: &str) -> Option<&'static str> {
    match key {
        "topology.kubernetes.io/zone" => Some("zone"),
        "topology.kubernetes.io/region" => Some("region"),
        "topology.kubernetes.io/rack" => Some("rack"),
        "nvidia.com/gpu.clique" => Some("NVLink clique"),
        "cloud.google.com/gce-topology-block" => Some("topology block"),
        "topology.k8s.aws/network-node-layer-3" => Some("network block"),
        _ => None,
    }
}

/// Why displaced pods could not be placed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnplacedReason {
    /// The whole cluster was lost (nothing inside it can take the pod).
    ClusterLost,
    /// No remaining healthy node satisfies the pod's selector, tolerations or required
    /// topology domain, whatever its free resources.
    NoEligibleNode,
    /// Its volume confines it to topology domains (a zonal disk's zone, a regional
    /// disk's two zones, a local volume's node) where no healthy node is left.
    VolumeDomainLost(RequiredDomain),
    /// Its cluster was lost and its volume pins it to a topology domain there: its data
    /// stays with the lost cluster, so no sibling can take it.
    VolumeWithLostCluster(RequiredDomain),
    /// Its cluster was lost and no sibling runs its workload (or it has none: a bare
    /// pod), so no sibling's traffic would bring it back.
    NotRunElsewhere,
    /// No eligible node has enough free of this dimension.
    Insufficient(Dimension),
    /// Each dimension is available somewhere, but no single eligible node has all of it.
    Fragmented,
    /// It mounts claims whose volumes cannot be read (the reason given): whether its
    /// volume keeps it in a domain is unknown, so where it can go is unknown too.
    VolumesUnknown(Arc<str>),
}

impl UnplacedReason {
    /// Whether the pods wait for their own domain to return (their volume is there)
    /// rather than lack capacity: more nodes elsewhere would not take them.
    pub fn is_stranded(&self) -> bool {
        matches!(
            self,
            Self::VolumeDomainLost(_) | Self::VolumeWithLostCluster(_) | Self::NotRunElsewhere
        )
    }
}

impl fmt::Display for UnplacedReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ClusterLost => f.write_str("the cluster is lost"),
            Self::NoEligibleNode => {
                f.write_str("no remaining node matches its selector, tolerations or topology")
            }
            Self::VolumeDomainLost(domain) => write!(
                f,
                "its volume keeps it in {domain}, where no healthy node is left"
            ),
            Self::VolumeWithLostCluster(domain) => write!(
                f,
                "its volume keeps it in {domain} of the lost cluster: its data does not move"
            ),
            Self::NotRunElsewhere => f.write_str("no sibling runs its workload"),
            Self::Insufficient(dim) => write!(f, "no eligible node has enough free {dim}"),
            Self::Fragmented => f.write_str("free capacity is split across nodes"),
            Self::VolumesUnknown(why) => write!(
                f,
                "it mounts volumes and {why}: whether it can move is unknown"
            ),
        }
    }
}

/// Pods of one owner that could not be placed, for one reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnplacedGroup {
    /// Namespace of the pods.
    pub namespace: Arc<str>,
    /// Owning controller; bare pods are reported as owner kind `Pod` with their name.
    pub owner: OwnerRef,
    /// Why they could not be placed.
    pub reason: UnplacedReason,
    /// How many pods.
    pub pods: u32,
    /// Their summed requests (as requested, GPUs in shares on time-sliced nodes).
    pub requests: ResourceVector,
}

/// The outcome of one what-if on one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhatIfReport {
    /// Cluster.
    pub cluster: ClusterId,
    /// What was taken away.
    pub scenario: Scenario,
    /// Nodes the scenario took away.
    pub lost_nodes: u32,
    /// Movable pods that had to move.
    pub displaced_pods: u32,
    /// Pods that went with the lost nodes instead (DaemonSet and static pods): not
    /// displaced, since nothing re-creates them elsewhere.
    pub staying_pods: u32,
    /// Displaced pods that found a node.
    pub placed_pods: u32,
    /// Displaced pods that did not, grouped by owner and reason, largest group first.
    pub unplaced: Vec<UnplacedGroup>,
    /// Pods that wait already, whatever is lost: on nodes that do not count, held by
    /// their volume in a domain with no healthy node left (a zone that is down).
    pub waiting: Vec<UnplacedGroup>,
    /// Displaced pods whose move cannot be judged: they mount claims and the cluster's
    /// claims or volumes cannot be read. Unknown is not "free to move": the answer for
    /// them is unknown (the placement above treats them as unpinned).
    pub unknown: Vec<UnplacedGroup>,
    /// Healthy allocatable left (without lost and reserved nodes), physical GPUs.
    pub allocatable: ResourceVector,
    /// All demand that needs a place in that allocatable, physical GPUs.
    pub demand: ResourceVector,
    /// Safety reserve held back.
    pub reserve: ResourceVector,
    /// `allocatable − demand − reserve` per dimension; negative means short.
    pub headroom: ResourceVector,
}

impl WhatIfReport {
    /// Total pods that could not be placed.
    pub fn unplaced_pods(&self) -> u32 {
        self.unplaced.iter().map(|g| g.pods).sum()
    }

    /// Unplaced pods that lack capacity (not those stranded with their volumes).
    pub fn short_pods(&self) -> u32 {
        self.short_groups().map(|g| g.pods).sum()
    }

    /// Groups of pods that lack capacity, largest first.
    pub fn short_groups(&self) -> impl Iterator<Item = &UnplacedGroup> {
        self.unplaced.iter().filter(|g| !g.reason.is_stranded())
    }

    /// Displaced pods whose move cannot be judged (see [`WhatIfReport::unknown`]).
    pub fn unknown_pods(&self) -> u32 {
        self.unknown.iter().map(|g| g.pods).sum()
    }
}

/// The raw outcome of re-placing displaced pods, before it is summed into a report.
#[derive(Debug)]
pub(crate) struct Placement {
    /// Nodes the scenario took away.
    pub(crate) lost: Vec<bool>,
    /// Nodes that may receive pods and whose allocatable counts.
    pub(crate) target: Vec<bool>,
    /// Free capacity per node after placement (zero for non-target nodes).
    pub(crate) free: Vec<ResourceVector>,
    /// Displaced pods.
    pub(crate) displaced: u32,
    /// (pod, node) for each displaced pod that found a node.
    pub(crate) assigned: Vec<(u32, u32)>,
    /// Displaced pods that found no node.
    pub(crate) unplaced: Vec<u32>,
}

/// Re-places the pods a scenario displaces, first-fit decreasing in the index's order,
/// each pod going to the first node of its feasible classes with room in every dimension.
pub(crate) fn place(
    index: &ClusterIndex<'_>,
    scenario: &Scenario,
    reserved: &[NodeName],
) -> Placement {
    let cluster = index.cluster;
    let lost = lost_mask(index, scenario);
    let reserved = index.node_mask(reserved);
    let target: Vec<bool> = index
        .health
        .iter()
        .zip(lost.iter().zip(&reserved))
        .map(|(h, (l, r))| h.is_healthy() && !l && !r)
        .collect();
    let mut free = index.free_on(&target);

    let mut displaced = 0u32;
    let mut assigned = Vec::new();
    let mut unplaced = Vec::new();
    for &p in &index.ffd_order {
        let Some(origin) = index.pod_node[p as usize] else {
            continue;
        };
        if !lost[origin as usize] {
            continue;
        }
        displaced += 1;
        let request = &cluster.pods[p as usize].requests;
        let slot = index.feasibility.first_candidate(p as usize, |n| {
            target[n as usize] && request.fits_in(&free[n as usize])
        });
        match slot {
            Some(n) => {
                free[n as usize].sub_assign(request);
                assigned.push((p, n));
            }
            None => unplaced.push(p),
        }
    }
    Placement {
        lost,
        target,
        free,
        displaced,
        assigned,
        unplaced,
    }
}

/// Runs one what-if on an indexed cluster. `reserved` are nodes held by approved
/// maintenance: they neither count as allocatable nor receive pods, and their own pods
/// stay counted as demand.
pub fn what_if(
    index: &ClusterIndex<'_>,
    scenario: &Scenario,
    reserved: &[NodeName],
) -> WhatIfReport {
    if *scenario == Scenario::LoseCluster {
        return lose_cluster(index);
    }
    let cluster = index.cluster;
    let Placement {
        lost,
        target,
        free,
        displaced,
        unplaced,
        ..
    } = place(index, scenario, reserved);

    let mut outstanding = index.unbound_demand.clone();
    let mut allocatable = ResourceVector::ZERO;
    let mut free_total = ResourceVector::ZERO;
    let mut lost_nodes = 0u32;
    // Whether each domain pinned pods need still has a node: asked once per domain.
    let mut domain_left: HashMap<RequiredDomain, bool> = HashMap::new();
    let mut has_node_left = |domain: &RequiredDomain| {
        *domain_left.entry(domain.clone()).or_insert_with(|| {
            cluster
                .nodes
                .iter()
                .zip(&target)
                .any(|(node, &left)| left && domain.admits_labels(&node.labels))
        })
    };
    // Nodes that neither count nor were lost (not ready, cordoned, in maintenance): the
    // movable pods on them need a place elsewhere. Usually few or none, so the pods are
    // only walked when there are some.
    let idle: Vec<usize> = (0..cluster.nodes.len())
        .filter(|&i| !target[i] && !lost[i])
        .collect();
    let mut stranded_on: Vec<(usize, ResourceVector)> = Vec::new();
    let mut waiting: Vec<(u32, UnplacedReason)> = Vec::new();
    if !idle.is_empty() {
        for ((pod, node), p) in cluster.pods.iter().zip(&index.pod_node).zip(0u32..) {
            // A pod on such a node, held by its volume in a domain with no node left,
            // waits for that domain as a displaced one does: it is not demand anywhere
            // else (else losing a zone already down would free its requests).
            if let (Some(n), Some(domain)) = (node, &pod.required_domain)
                && !target[*n as usize]
                && !lost[*n as usize]
                && pod.is_movable()
                && pod.phase.holds_resources()
                && !has_node_left(domain)
            {
                match stranded_on.iter_mut().find(|(i, _)| *i == *n as usize) {
                    Some((_, sum)) => sum.add_assign(&pod.requests),
                    None => stranded_on.push((*n as usize, pod.requests.clone())),
                }
                waiting.push((p, UnplacedReason::VolumeDomainLost(domain.clone())));
            }
        }
    }
    for (i, node) in cluster.nodes.iter().enumerate() {
        if target[i] {
            allocatable.add_assign(&capacity_physical(&node.allocatable, node.gpu_replicas));
            free_total.add_assign(&capacity_physical(&free[i], node.gpu_replicas));
        } else if lost[i] {
            lost_nodes += 1;
        } else {
            outstanding.add_assign(&index.movable_used_physical[i]);
            if let Some((_, stranded)) = stranded_on.iter().find(|(n, _)| *n == i) {
                outstanding.sub_assign(&demand_physical(stranded, node.gpu_replicas));
            }
        }
    }
    let reasons: Vec<UnplacedReason> = unplaced
        .iter()
        .map(|&p| unplaced_reason(index, p, &target, &free, &mut has_node_left))
        .collect();
    for (&p, reason) in unplaced.iter().zip(&reasons) {
        // A pod stranded with its volume waits for its domain; no capacity elsewhere
        // would take it, so it is reported but not counted as capacity missing.
        if reason.is_stranded() {
            continue;
        }
        let replicas = index.pod_node[p as usize]
            .map(|n| cluster.nodes[n as usize].gpu_replicas)
            .unwrap_or(1);
        outstanding.add_assign(&demand_physical(
            &cluster.pods[p as usize].requests,
            replicas,
        ));
    }
    let groups = group_unplaced(index, unplaced.iter().copied().zip(reasons));
    let mut report = finish(
        index,
        scenario.clone(),
        lost_nodes,
        displaced,
        groups,
        allocatable,
        free_total,
        outstanding,
    );
    report.waiting = group_unplaced(index, waiting);
    report.staying_pods = staying_on(index, &lost);
    report.unknown = unknown_moves(index, &lost);
    report
}

/// The pods displaced from the `lost` nodes whose move cannot be judged: they mount claims
/// and the cluster's claims or volumes cannot be read.
fn unknown_moves(index: &ClusterIndex<'_>, lost: &[bool]) -> Vec<UnplacedGroup> {
    let cluster = index.cluster;
    let Some(why) = &cluster.volumes_unreadable else {
        return Vec::new();
    };
    let pods = cluster
        .pods
        .iter()
        .zip(&index.pod_node)
        .zip(0u32..)
        .filter(|((pod, node), _)| {
            pod.mounts_claims
                && pod.is_movable()
                && pod.phase.holds_resources()
                && node.is_some_and(|n| lost[n as usize])
        })
        .map(|(_, p)| (p, UnplacedReason::VolumesUnknown(Arc::clone(why))));
    group_unplaced(index, pods)
}

/// The pods that go with the nodes `lost` marks.
fn staying_on(index: &ClusterIndex<'_>, lost: &[bool]) -> u32 {
    index
        .staying
        .iter()
        .zip(lost)
        .filter(|(_, lost)| **lost)
        .map(|(n, _)| n)
        .sum()
}

/// Assembles the report from the totals.
#[allow(clippy::too_many_arguments)]
fn finish(
    index: &ClusterIndex<'_>,
    scenario: Scenario,
    lost_nodes: u32,
    displaced: u32,
    unplaced: Vec<UnplacedGroup>,
    allocatable: ResourceVector,
    free_total: ResourceVector,
    outstanding: ResourceVector,
) -> WhatIfReport {
    let reserve = index.config.safety_reserve.amount_for(&allocatable);
    let demand = allocatable.minus(&free_total).plus(&outstanding);
    let headroom = free_total.minus(&outstanding).minus(&reserve);
    let unplaced_count: u32 = unplaced.iter().map(|g| g.pods).sum();
    WhatIfReport {
        cluster: index.cluster.id.clone(),
        scenario,
        lost_nodes,
        displaced_pods: displaced,
        staying_pods: 0,
        placed_pods: displaced.saturating_sub(unplaced_count),
        unplaced,
        waiting: Vec::new(),
        unknown: Vec::new(),
        allocatable,
        demand,
        reserve,
        headroom,
    }
}

/// Which nodes the scenario takes away.
fn lost_mask(index: &ClusterIndex<'_>, scenario: &Scenario) -> Vec<bool> {
    match scenario {
        Scenario::Baseline | Scenario::LoseCluster => vec![false; index.cluster.nodes.len()],
        Scenario::LoseNodes(names) | Scenario::MaintenanceBatch(names) => index.node_mask(names),
        Scenario::LoseFailureDomain { key, value } => {
            if *key == index.config.failure_domain_key {
                // Indexed: compare small integers instead of strings.
                let wanted = index
                    .domains
                    .binary_search(value)
                    .ok()
                    .and_then(|d| u32::try_from(d).ok());
                index
                    .node_domain
                    .iter()
                    .map(|d| d.is_some() && *d == wanted)
                    .collect()
            } else {
                index
                    .cluster
                    .nodes
                    .iter()
                    .map(|n| n.labels.get(key) == Some(value))
                    .collect()
            }
        }
    }
}

/// Every movable pod of a lost cluster is unplaceable.
fn lose_cluster(index: &ClusterIndex<'_>) -> WhatIfReport {
    let cluster = index.cluster;
    let mut outstanding = index.unbound_demand.clone();
    for used in &index.movable_used_physical {
        outstanding.add_assign(used);
    }
    let pods: Vec<u32> = cluster
        .pods
        .iter()
        .zip(0u32..)
        .filter(|(pod, _)| pod.phase.holds_resources() && pod.is_movable())
        .map(|(_, i)| i)
        .collect();
    let displaced = u32::try_from(pods.len()).unwrap_or(u32::MAX);
    let groups = group_unplaced(
        index,
        pods.iter().map(|&p| (p, UnplacedReason::ClusterLost)),
    );
    let lost_nodes = u32::try_from(cluster.nodes.len()).unwrap_or(u32::MAX);
    let zero = ResourceVector::ZERO;
    let mut report = finish(
        index,
        Scenario::LoseCluster,
        lost_nodes,
        displaced,
        groups,
        zero.clone(),
        zero,
        outstanding,
    );
    report.staying_pods = index.staying.iter().sum();
    report
}

/// Why pod `p` found no node: no eligible node at all, one dimension short everywhere
/// (GPU checked first), or fragmentation. Only runs for unplaced pods, so it may rescan.
fn unplaced_reason(
    index: &ClusterIndex<'_>,
    p: u32,
    target: &[bool],
    free: &[ResourceVector],
    has_node_left: &mut impl FnMut(&RequiredDomain) -> bool,
) -> UnplacedReason {
    let request = &index.cluster.pods[p as usize].requests;
    let mut eligible: Vec<u32> = Vec::new();
    index.feasibility.for_each_candidate(p as usize, |n| {
        if target[n as usize] {
            eligible.push(n);
        }
    });
    if eligible.is_empty() {
        let pod = &index.cluster.pods[p as usize];
        let Some(domain) = &pod.required_domain else {
            return UnplacedReason::NoEligibleNode;
        };
        return if has_node_left(domain) {
            UnplacedReason::NoEligibleNode
        } else {
            UnplacedReason::VolumeDomainLost(domain.clone())
        };
    }
    let gpu_first = std::iter::once((Dimension::Gpu, request.gpu()))
        .chain(request.iter().filter(|(d, _)| *d != Dimension::Gpu));
    for (dim, need) in gpu_first {
        if need <= 0 {
            continue;
        }
        let somewhere = eligible.iter().any(|&n| {
            let f = &free[n as usize];
            !f.reports(&dim) && !dim.absent_means_zero() || f.get(&dim) >= need
        });
        if !somewhere {
            return UnplacedReason::Insufficient(dim);
        }
    }
    UnplacedReason::Fragmented
}

/// Groups unplaced pods by namespace, owner and reason; largest groups first.
pub(crate) fn group_unplaced(
    index: &ClusterIndex<'_>,
    pods: impl IntoIterator<Item = (u32, UnplacedReason)>,
) -> Vec<UnplacedGroup> {
    let mut groups: Vec<UnplacedGroup> = Vec::new();
    let mut slot: HashMap<(Arc<str>, OwnerRef, UnplacedReason), usize> = HashMap::new();
    for (p, reason) in pods {
        let pod = &index.cluster.pods[p as usize];
        // Named as the operator thinks of it: a ReplicaSet's Deployment, a Job's CronJob.
        let owner = crate::model::fleet::workload_of(&index.cluster.controllers, pod)
            .cloned()
            .unwrap_or_else(|| OwnerRef {
                kind: Arc::from("Pod"),
                name: Arc::clone(&pod.name),
            });
        let key = (Arc::clone(&pod.namespace), owner, reason);
        let i = *slot.entry(key.clone()).or_insert_with(|| {
            groups.push(UnplacedGroup {
                namespace: key.0,
                owner: key.1,
                reason: key.2,
                pods: 0,
                requests: ResourceVector::ZERO,
            });
            groups.len() - 1
        });
        groups[i].pods += 1;
        groups[i].requests.add_assign(&pod.requests);
    }
    groups.sort_by(|a, b| {
        b.pods
            .cmp(&a.pods)
            .then_with(|| a.namespace.cmp(&b.namespace))
            .then_with(|| a.owner.cmp(&b.owner))
            .then_with(|| a.reason.cmp(&b.reason))
    });
    groups
}

/// Where one displaced pod would go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedMove {
    /// Index of the pod in the cluster's `pods`.
    pub pod: usize,
    /// Node it would land on.
    pub node: NodeName,
}

/// The node each displaced pod would land on in a scenario, for drain prechecks that
/// want to show "these pods go there" rather than only totals. Pods that cannot be
/// placed are absent (see [`what_if`] for them).
pub fn planned_moves(
    index: &ClusterIndex<'_>,
    scenario: &Scenario,
    reserved: &[NodeName],
) -> Vec<PlannedMove> {
    if *scenario == Scenario::LoseCluster {
        return Vec::new();
    }
    place(index, scenario, reserved)
        .assigned
        .into_iter()
        .map(|(pod, node)| PlannedMove {
            pod: pod as usize,
            node: index.cluster.nodes[node as usize].name.clone(),
        })
        .collect()
}
