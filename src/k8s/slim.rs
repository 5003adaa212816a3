//! Slim Kubernetes objects: only the fields fleetdeck reads are decoded, straight into the
//! form the projection uses (see `slim_de`); the rest of each object is skipped by the
//! JSON parser and never allocated. Each type knows the API path it is listed and watched
//! at, which is all the list-then-watch loop needs from it.

use std::fmt::Debug;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::slim_de::{self, Owner, Quantities};
use crate::model::fleet::{PodPhase, TaintEffect};

/// An object the list-then-watch loop can keep: decodable, and listed across all
/// namespaces at `PATH`.
pub trait SlimObject: DeserializeOwned + Clone + Debug + Send + 'static {
    /// The collection path, e.g. `/api/v1/pods`.
    const PATH: &'static str;
    /// The object's `metadata.resourceVersion`, where a watch resumes.
    fn resource_version(&self) -> Option<&str>;
}

/// `metadata`, slim: identity, labels, the controller and the one annotation read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimMeta {
    /// Object name.
    #[serde(default)]
    pub name: Option<String>,
    /// Namespace (none for cluster-scoped objects).
    #[serde(default)]
    pub namespace: Option<String>,
    /// Where a watch resumes.
    #[serde(default)]
    pub resource_version: Option<String>,
    /// Labels, in document order.
    #[serde(default, deserialize_with = "slim_de::string_pairs")]
    pub labels: Vec<(String, String)>,
    /// `nvidia.com/gpu.replicas`, the only annotation read.
    #[serde(
        default,
        rename = "annotations",
        deserialize_with = "slim_de::gpu_replicas_annotation"
    )]
    pub gpu_replicas_annotation: Option<String>,
    /// The controlling owner reference.
    #[serde(
        default,
        rename = "ownerReferences",
        deserialize_with = "slim_de::controller"
    )]
    pub controller: Option<Owner>,
}

impl SlimMeta {
    /// The value of label `key`, if present (last one wins, as in a JSON map).
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A Node, as much of it as capacity, drift and maintenance read.
#[derive(Debug, Clone, Deserialize)]
pub struct SlimNode {
    /// Name, labels, the GPU annotation.
    #[serde(default)]
    pub metadata: SlimMeta,
    /// Cordon and taints.
    #[serde(default)]
    pub spec: SlimNodeSpec,
    /// Allocatable, conditions, versions.
    #[serde(default)]
    pub status: SlimNodeStatus,
}

impl SlimObject for SlimNode {
    const PATH: &'static str = "/api/v1/nodes";
    fn resource_version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

/// `Node.spec`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimNodeSpec {
    /// Cordoned.
    #[serde(default)]
    pub unschedulable: Option<bool>,
    /// Taints.
    #[serde(default, deserialize_with = "slim_de::vec_or_null")]
    pub taints: Vec<SlimTaint>,
}

/// A node taint, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimTaint {
    /// Taint key.
    #[serde(default)]
    pub key: String,
    /// Taint value.
    #[serde(default)]
    pub value: Option<String>,
    /// Effect; `None` when the spelling is unknown (the taint is then ignored).
    #[serde(default, deserialize_with = "slim_de::taint_effect")]
    pub effect: Option<TaintEffect>,
}

/// `Node.status`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimNodeStatus {
    /// Allocatable resources, already in amounts.
    #[serde(default)]
    pub allocatable: Quantities,
    /// Conditions; only `Ready` is read.
    #[serde(default, deserialize_with = "slim_de::vec_or_null")]
    pub conditions: Vec<SlimCondition>,
    /// Versions reported by the kubelet.
    #[serde(default)]
    pub node_info: Option<SlimNodeInfo>,
}

/// A status condition, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimCondition {
    /// Condition type, e.g. `Ready`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    #[serde(default)]
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
    /// Name, namespace, labels, controller.
    #[serde(default)]
    pub metadata: SlimMeta,
    /// Placement and requests.
    #[serde(default)]
    pub spec: SlimPodSpec,
    /// Phase.
    #[serde(default)]
    pub status: SlimPodStatus,
}

impl SlimObject for SlimPod {
    const PATH: &'static str = "/api/v1/pods";
    fn resource_version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

/// `Pod.spec`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimPodSpec {
    /// Bound node.
    #[serde(default)]
    pub node_name: Option<String>,
    /// Plain node selector, in document order.
    #[serde(default, deserialize_with = "slim_de::string_pairs")]
    pub node_selector: Vec<(String, String)>,
    /// Tolerations.
    #[serde(default, deserialize_with = "slim_de::vec_or_null")]
    pub tolerations: Vec<SlimToleration>,
    /// App containers.
    #[serde(default, deserialize_with = "slim_de::vec_or_null")]
    pub containers: Vec<SlimContainer>,
    /// Init containers and sidecars.
    #[serde(default, deserialize_with = "slim_de::vec_or_null")]
    pub init_containers: Vec<SlimContainer>,
    /// RuntimeClass overhead, already in amounts.
    #[serde(default)]
    pub overhead: Quantities,
}

/// A toleration, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimToleration {
    /// Key; empty or absent matches every key (with `Exists`).
    #[serde(default)]
    pub key: Option<String>,
    /// `operator: Exists` (otherwise `Equal`).
    #[serde(default, rename = "operator", deserialize_with = "slim_de::is_exists")]
    pub exists: bool,
    /// Value for `Equal`.
    #[serde(default)]
    pub value: Option<String>,
    /// Effect to match; `None` matches every effect.
    #[serde(default, deserialize_with = "slim_de::taint_effect")]
    pub effect: Option<TaintEffect>,
}

/// A container, slim: its requests and whether it is a sidecar.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlimContainer {
    /// Requests only; limits do not matter for placement.
    #[serde(default)]
    pub resources: Option<SlimResources>,
    /// `restartPolicy: Always`, which marks a sidecar init container.
    #[serde(
        default,
        rename = "restartPolicy",
        deserialize_with = "slim_de::is_always"
    )]
    pub restarts_always: bool,
}

/// `resources`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimResources {
    /// Requests, already in amounts.
    #[serde(default)]
    pub requests: Quantities,
}

/// `Pod.status`, slim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SlimPodStatus {
    /// The phase; `None` when absent (a pod not yet seen by a kubelet: pending).
    #[serde(default, deserialize_with = "slim_de::pod_phase")]
    pub phase: Option<PodPhase>,
}

/// A PodDisruptionBudget, slim.
#[derive(Debug, Clone, Deserialize)]
pub struct SlimPdb {
    /// Name and namespace.
    #[serde(default)]
    pub metadata: SlimMeta,
    /// The selector.
    #[serde(default)]
    pub spec: SlimPdbSpec,
    /// What the disruption controller computed.
    #[serde(default)]
    pub status: SlimPdbStatus,
}

impl SlimObject for SlimPdb {
    const PATH: &'static str = "/apis/policy/v1/poddisruptionbudgets";
    fn resource_version(&self) -> Option<&str> {
        self.metadata.resource_version.as_deref()
    }
}

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
