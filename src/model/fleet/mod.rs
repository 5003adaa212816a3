//! Slim, memory-frugal views of the fleet: only the node, pod, PDB and volume fields fleetdeck
//! decides on, with label and name strings shared through an [`Interner`] so that 30,000
//! nodes carrying the same zone label hold one copy of it. Adapters fill these from
//! Kubernetes objects; nothing here knows about the Kubernetes API types.

mod cluster;
mod ids;
mod labels;
mod node;
mod owners;
mod pdb;
mod pod;
mod requests;
mod resources;
mod taints;
mod volume;

pub use cluster::{ClusterView, FleetView};
pub use ids::{ClusterId, Interner, NodeName, OwnerRef};
pub use labels::{LabelRequirement, Labels, NodeSelector};
pub use node::{
    GPU_DRIVER_LABEL, GPU_DRIVER_MAJOR_LABEL, GPU_DRIVER_MINOR_LABEL, GPU_DRIVER_REVISION_LABEL,
    GPU_REPLICAS_LABEL, MaintenanceState, NodeView, Readiness, Schedulability,
    gpu_replicas_from_label,
};
pub use owners::{CONTROLLED_KINDS, Controllers, workload_of};
pub use pdb::PdbView;
pub use pod::{PodPhase, PodView, RequiredDomain};
pub use requests::{
    ContainerRequests, InitContainerKind, InitContainerRequests, PodSpecRequests,
    effective_requests,
};
pub use resources::{
    ATTACHABLE_VOLUMES_PREFIX, Dimension, GPU_RESOURCE, MIG_RESOURCE_PREFIX, ResourceError,
    ResourceVector,
};
pub use taints::{Taint, TaintEffect, Toleration, TolerationOperator, tolerates_all};
pub use volume::{ClaimView, VolumeView, volume_domain};
