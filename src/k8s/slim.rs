//! Slim Kubernetes objects: only the fields fleetdeck reads are decoded, the rest of each
//! object is skipped by the JSON parser and never allocated. They are real kube resources
//! (same API paths as the full types), so lists and watches work unchanged.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Taint, Toleration};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::{ClusterResourceScope, Metadata, NamespaceResourceScope, Resource};
use serde::Deserialize;

macro_rules! slim_resource {
    ($ty:ident, $api_version:literal, $group:literal, $version:literal, $kind:literal, $plural:literal, $scope:ty) => {
        impl Resource for $ty {
            const API_VERSION: &'static str = $api_version;
            const GROUP: &'static str = $group;
            const KIND: &'static str = $kind;
            const VERSION: &'static str = $version;
            const URL_PATH_SEGMENT: &'static str = $plural;
            type Scope = $scope;
        }
        impl Metadata for $ty {
            type Ty = ObjectMeta;
            fn metadata(&self) -> &ObjectMeta {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut ObjectMeta {
                &mut self.metadata
            }
        }
    };
}

/// A Node, as much of it as capacity, drift and maintenance read.
#[derive(Debug, Clone, Deserialize)]
pub struct SlimNode {
    /// Name, labels, annotations.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Cordon and taints.
    #[serde(default)]
    pub spec: SlimNodeSpec,
    /// Allocatable, conditions, versions.
    #[serde(default)]
    pub status: SlimNodeStatus,
}
slim_resource!(
    SlimNode,
    "v1",
    "",
    "v1",
    "Node",
    "nodes",
    ClusterResourceScope
);

/// `Node.spec`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimNodeSpec {
    /// Cordoned.
    #[serde(default)]
    pub unschedulable: bool,
    /// Taints.
    #[serde(default)]
    pub taints: Vec<Taint>,
}

/// `Node.status`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimNodeStatus {
    /// Allocatable resources.
    #[serde(default)]
    pub allocatable: BTreeMap<String, Quantity>,
    /// Conditions; only `Ready` is read.
    #[serde(default)]
    pub conditions: Vec<SlimCondition>,
    /// Versions reported by the kubelet.
    #[serde(default)]
    pub node_info: SlimNodeInfo,
}

/// A status condition, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimCondition {
    /// Condition type, e.g. `Ready`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
}

/// `Node.status.nodeInfo`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimNodeInfo {
    /// e.g. `v1.31.4`.
    #[serde(default)]
    pub kubelet_version: String,
    /// e.g. `6.1.0-28-amd64`.
    #[serde(default)]
    pub kernel_version: String,
    /// e.g. `containerd://1.7.22`.
    #[serde(default)]
    pub container_runtime_version: String,
}

/// A Pod, as much of it as capacity and drains read.
#[derive(Debug, Clone, Deserialize)]
pub struct SlimPod {
    /// Name, namespace, labels, owners, deletion.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Placement and requests.
    #[serde(default)]
    pub spec: SlimPodSpec,
    /// Phase.
    #[serde(default)]
    pub status: SlimPodStatus,
}
slim_resource!(
    SlimPod,
    "v1",
    "",
    "v1",
    "Pod",
    "pods",
    NamespaceResourceScope
);

/// `Pod.spec`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimPodSpec {
    /// Bound node.
    #[serde(default)]
    pub node_name: Option<String>,
    /// Plain node selector.
    #[serde(default)]
    pub node_selector: BTreeMap<String, String>,
    /// Tolerations.
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    /// App containers.
    #[serde(default)]
    pub containers: Vec<SlimContainer>,
    /// Init containers and sidecars.
    #[serde(default)]
    pub init_containers: Vec<SlimContainer>,
    /// RuntimeClass overhead.
    #[serde(default)]
    pub overhead: BTreeMap<String, Quantity>,
}

/// A container, slim: its requests and restart policy (sidecars have `Always`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimContainer {
    /// Requests only; limits do not matter for placement.
    #[serde(default)]
    pub resources: SlimResources,
    /// `Always` marks a sidecar init container.
    #[serde(default)]
    pub restart_policy: Option<String>,
}

/// `resources`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimResources {
    /// Requests.
    #[serde(default)]
    pub requests: BTreeMap<String, Quantity>,
}

/// `Pod.status`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimPodStatus {
    /// `Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`.
    #[serde(default)]
    pub phase: Option<String>,
}

/// A PodDisruptionBudget, slim.
#[derive(Debug, Clone, Deserialize)]
pub struct SlimPdb {
    /// Name and namespace.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The selector.
    #[serde(default)]
    pub spec: SlimPdbSpec,
    /// What the disruption controller computed.
    #[serde(default)]
    pub status: SlimPdbStatus,
}
slim_resource!(
    SlimPdb,
    "policy/v1",
    "policy",
    "v1",
    "PodDisruptionBudget",
    "poddisruptionbudgets",
    NamespaceResourceScope
);

/// `PodDisruptionBudget.spec`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimPdbSpec {
    /// Pods covered.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
}

/// `PodDisruptionBudget.status`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimPdbStatus {
    /// Evictions allowed now.
    #[serde(default)]
    pub disruptions_allowed: i32,
    /// Healthy pods now.
    #[serde(default)]
    pub current_healthy: i32,
    /// Healthy pods required.
    #[serde(default)]
    pub desired_healthy: i32,
    /// Pods counted.
    #[serde(default)]
    pub expected_pods: i32,
}
