//! Nodes as the Kubernetes API gives them (`k8s_openapi` objects, read by a plain list),
//! translated into what the model asks about them.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Node;

use crate::model::fleet::{Readiness, Schedulability};
use crate::model::maintenance::{NodeFacts, NodeObservation};
use crate::model::run::NodeName;

/// Whether the node reports its `Ready` condition `True` (absent or anything else: not).
pub fn node_is_ready(node: &Node) -> bool {
    node.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
        .is_some_and(|c| c.status == "True")
}

/// What the maintenance planner needs of one node (see [`NodeFacts::new`] for the rule).
pub fn facts_of(node: &Node) -> NodeFacts {
    let readiness = if node_is_ready(node) {
        Readiness::Ready
    } else {
        Readiness::NotReady
    };
    let cordoned = node.spec.as_ref().and_then(|s| s.unschedulable) == Some(true);
    let schedulability = if cordoned {
        Schedulability::Cordoned
    } else {
        Schedulability::Schedulable
    };
    NodeFacts::new(
        NodeName::from(node.metadata.name.as_deref().unwrap_or_default()),
        node.metadata
            .labels
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect(),
        readiness,
        schedulability,
    )
}

/// What the maintenance engine observes of a node: readiness, cordon, GPUs, versions.
pub(crate) fn observe(node: &Node) -> NodeObservation {
    let status = node.status.as_ref();
    let ready = node_is_ready(node);
    let gpus = status
        .and_then(|s| s.allocatable.as_ref())
        .and_then(|a| a.get("nvidia.com/gpu"))
        .and_then(|q| q.0.parse::<u32>().ok())
        .unwrap_or(0);
    // Under the names maintenance files use for `expectedVersions` (`VERSION_KEYS`).
    let mut versions = BTreeMap::new();
    if let Some(info) = status.and_then(|s| s.node_info.as_ref()) {
        for (key, value) in [
            ("kubelet", &info.kubelet_version),
            ("kernel", &info.kernel_version),
            ("containerRuntime", &info.container_runtime_version),
            ("osImage", &info.os_image),
        ] {
            versions.insert(key.to_string(), value.clone());
        }
    }
    NodeObservation {
        ready,
        unschedulable: node
            .spec
            .as_ref()
            .and_then(|s| s.unschedulable)
            .unwrap_or(false),
        gpus_allocatable: gpus,
        versions,
    }
}

#[cfg(test)]
mod tests {
    use super::{facts_of, observe};

    fn node(ready: &str, unschedulable: bool) -> k8s_openapi::api::core::v1::Node {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "n1", "labels": {"topology.kubernetes.io/zone": "a"}},
            "spec": {"unschedulable": unschedulable},
            "status": {"conditions": [{"type": "Ready", "status": ready}]}
        }))
        .unwrap()
    }

    #[test]
    fn a_node_is_unavailable_when_not_ready_or_cordoned() {
        let ready = facts_of(&node("True", false));
        assert_eq!(ready.name.as_str(), "n1");
        assert_eq!(ready.labels["topology.kubernetes.io/zone"], "a");
        assert!(!ready.unavailable);
        assert!(facts_of(&node("Unknown", false)).unavailable);
        assert!(facts_of(&node("False", false)).unavailable);
        assert!(facts_of(&node("True", true)).unavailable);
    }

    #[test]
    fn observed_versions_use_the_keys_maintenance_files_expect() {
        let node: k8s_openapi::api::core::v1::Node = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "n1"},
            "status": {"nodeInfo": {
                "kubeletVersion": "v1.31.4", "kernelVersion": "6.8.0",
                "containerRuntimeVersion": "containerd://1.7.22", "osImage": "Ubuntu 24.04",
                "machineID": "", "systemUUID": "", "bootID": "", "kubeProxyVersion": "",
                "operatingSystem": "linux", "architecture": "amd64"
            }}
        }))
        .expect("node");
        let seen = observe(&node);
        for key in crate::model::maintenance::VERSION_KEYS {
            assert!(seen.versions.contains_key(*key), "{key} observed");
        }
        assert_eq!(seen.versions["containerRuntime"], "containerd://1.7.22");
        assert_eq!(seen.versions["osImage"], "Ubuntu 24.04");
    }
}
