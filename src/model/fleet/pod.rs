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
    /// Being deleted (`deletionTimestamp` set) and not yet terminated: it still holds its
    /// node's resources, but nothing re-places it (its controller's replacement is
    /// another pod) and it needs no place if its node is lost.
    Terminating,
}

impl PodPhase {
    /// Whether the pod still counts against its node's allocatable, as the scheduler
    /// counts it (every pod that has not terminated).
    pub fn holds_resources(self) -> bool {
        !matches!(self, Self::Succeeded | Self::Failed)
    }
}

/// The topology domains a pod is pinned to: its node must carry label `key` with one of
/// `values` (the zone of a zonal persistent volume; both zones of a regional disk).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequiredDomain {
    /// Topology label key, e.g. `topology.kubernetes.io/zone`.
    pub key: Arc<str>,
    /// Admitted values, sorted and without repeats (never empty).
    pub values: Arc<[Arc<str>]>,
}

impl RequiredDomain {
    /// A domain of one value.
    pub fn one(key: Arc<str>, value: Arc<str>) -> Self {
        Self {
            key,
            values: Arc::from([value]),
        }
    }

    /// A domain of any of `values`; `None` when there are none (no node could satisfy
    /// it, which is not a pin but an impossibility the caller decides about).
    pub fn any_of(key: Arc<str>, values: impl IntoIterator<Item = Arc<str>>) -> Option<Self> {
        let mut values: Vec<Arc<str>> = values.into_iter().collect();
        values.sort();
        values.dedup();
        (!values.is_empty()).then(|| Self {
            key,
            values: values.into(),
        })
    }

    /// The part of this domain that also lies in `other`, when both pin the same key and
    /// share a value; otherwise this domain as it is (a pod whose volumes pin it apart
    /// fits nowhere anyway, and keys of different levels are not compared).
    pub fn within(self, other: &RequiredDomain) -> RequiredDomain {
        if self.key != other.key {
            return self;
        }
        let shared = self
            .values
            .iter()
            .filter(|v| other.values.contains(v))
            .cloned();
        RequiredDomain::any_of(Arc::clone(&self.key), shared).unwrap_or(self)
    }

    /// Whether a node with this value of `key` (or none) lies in the domain.
    pub fn admits(&self, value: Option<&Arc<str>>) -> bool {
        value.is_some_and(|value| self.values.binary_search(value).is_ok())
    }

    /// Whether a node with these labels lies in the domain.
    pub fn admits_labels(&self, labels: &super::Labels) -> bool {
        self.admits(labels.get(&self.key))
    }
}

impl std::fmt::Display for RequiredDomain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.values {
            [value] => write!(f, "{}={value}", self.key),
            values => write!(f, "{} in ({})", self.key, values.join(", ")),
        }
    }
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
    /// Its `Ready` condition is `True`: what the eviction API reads as healthy. The node
    /// controller turns it off on a node that stops reporting.
    pub ready: bool,
    /// It mounts PersistentVolumeClaims by name (not generic ephemeral ones): where it may
    /// run depends on its volumes, which must be known to judge a move.
    pub mounts_claims: bool,
    /// Controlling owner, if any.
    pub owner: Option<OwnerRef>,
    /// Effective requests as the scheduler computes them (see
    /// [`effective_requests`](super::effective_requests)), with `pods` = 1.
    pub requests: ResourceVector,
    /// Node-label requirements (nodeSelector and required node affinity).
    pub node_selector: NodeSelector,
    /// Tolerations.
    pub tolerations: Box<[Toleration]>,
    /// Topology domains the pod must stay in, if any (its zonal or local volume's).
    pub required_domain: Option<RequiredDomain>,
    /// Index of the PDB covering this pod in the cluster's `pdbs`, if any.
    pub pdb: Option<u32>,
}

impl PodView {
    /// Whether the pod would be recreated elsewhere if its node disappeared: everything
    /// except DaemonSet and static pods. Bare pods are counted as movable too, because
    /// the work they represent still needs a home even if nothing recreates them.
    pub fn is_movable(&self) -> bool {
        self.phase != PodPhase::Terminating
            && !self.owner.as_ref().is_some_and(OwnerRef::is_node_bound)
    }
}
