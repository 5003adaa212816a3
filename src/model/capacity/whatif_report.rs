//! What a what-if reports: the pods that could not be placed, grouped by owner and why,
//! and the headroom left per dimension.

use std::fmt;
use std::sync::Arc;

use super::whatif::Scenario;
use crate::model::fleet::{ClusterId, Dimension, OwnerRef, RequiredDomain, ResourceVector};

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
