//! The slim pod view: where it runs, what it asks for, where it may go.

use std::sync::Arc;

use super::ids::{NodeName, OwnerRef};
use super::labels::NodeSelector;
use super::resources::ResourceVector;
use super::taints::Toleration;

/// Pod lifecycle phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PodPhase {
    /// Accepted, not yet running (possibly not yet scheduled).
    Pending,
    /// Bound and running.
    Running,
    /// Terminated successfully; holds no resources.
    Succeeded,
    /// Terminated with failure; holds no resources.
    Failed,
    /// The kubelet has not reported; still holds its node's resources.
    Unknown,
}

impl PodPhase {
    /// Whether the pod still counts against its node's allocatable, as the scheduler
    /// counts it (every pod that has not terminated).
    pub fn holds_resources(self) -> bool {
        !matches!(self, Self::Succeeded | Self::Failed)
    }
}

/// A topology domain a pod is pinned to: its node must carry label `key` = `value`
/// (for example the zone of a zonal persistent volume).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TopologyDomain {
    /// Topology label key, e.g. `topology.kubernetes.io/zone`.
    pub key: Arc<str>,
    /// Required value.
    pub value: Arc<str>,
}

/// A pod as capacity sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodView {
    /// Namespace (interned).
    pub namespace: Arc<str>,
    /// Pod name.
    pub name: Arc<str>,
    /// Node it is bound to, if scheduled.
    pub node: Option<NodeName>,
    /// Lifecycle phase.
    pub phase: PodPhase,
    /// Controlling owner, if any.
    pub owner: Option<OwnerRef>,
    /// Effective requests as the scheduler computes them (see
    /// [`effective_requests`](super::effective_requests)), with `pods` = 1.
    pub requests: ResourceVector,
    /// Node-label requirements (nodeSelector and required node affinity).
    pub node_selector: NodeSelector,
    /// Tolerations.
    pub tolerations: Box<[Toleration]>,
    /// Topology domain the pod must stay in, if any (zonal volume, hard affinity).
    pub required_domain: Option<TopologyDomain>,
    /// Index of the PDB covering this pod in the cluster's `pdbs`, if any.
    pub pdb: Option<u32>,
}

impl PodView {
    /// Whether the pod would be recreated elsewhere if its node disappeared: everything
    /// except DaemonSet and static pods. Bare pods are counted as movable too, because
    /// the work they represent still needs a home even if nothing recreates them.
    pub fn is_movable(&self) -> bool {
        !self.owner.as_ref().is_some_and(OwnerRef::is_node_bound)
    }
}
