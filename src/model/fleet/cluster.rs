//! One cluster's slim views, and the fleet as a list of them.

use super::ids::ClusterId;
use super::node::NodeView;
use super::pdb::PdbView;
use super::pod::PodView;
use super::volume::{ClaimView, VolumeView};

/// Everything capacity needs about one cluster: its nodes, pods, PDBs and volumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterView {
    /// Ledger id.
    pub id: ClusterId,
    /// Nodes, in a stable order (first-fit walks them in this order).
    pub nodes: Vec<NodeView>,
    /// Pods, bound or pending.
    pub pods: Vec<PodView>,
    /// PodDisruptionBudgets; pods refer to them by index.
    pub pdbs: Vec<PdbView>,
    /// PersistentVolumeClaims (pods' `required_domain` comes from their bound volumes).
    pub claims: Vec<ClaimView>,
    /// PersistentVolumes.
    pub volumes: Vec<VolumeView>,
    /// Why claims or volumes cannot be read (no RBAC, an API not served), if they cannot:
    /// whether a pod that mounts a claim is pinned to a zone is then unknown, never "free
    /// to move".
    pub volumes_unreadable: Option<std::sync::Arc<str>>,
    /// The controllers of its ReplicaSets and Jobs (Deployments, CronJobs), for naming
    /// what a pod is an instance of ([`super::workload_of`]).
    pub controllers: super::owners::Controllers,
}

impl ClusterView {
    /// A cluster with nothing in it (not listed yet).
    pub fn empty(id: ClusterId) -> ClusterView {
        ClusterView {
            id,
            nodes: Vec::new(),
            pods: Vec::new(),
            pdbs: Vec::new(),
            claims: Vec::new(),
            volumes: Vec::new(),
            volumes_unreadable: None,
            controllers: Default::default(),
        }
    }
}

/// The whole fleet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetView {
    /// One entry per reachable cluster.
    pub clusters: Vec<ClusterView>,
}
