//! Nodes as the Kubernetes API gives them (`k8s_openapi` objects, read by a plain list),
//! translated into what the model asks about them.

use k8s_openapi::api::core::v1::Node;

use crate::model::fleet::{Readiness, Schedulability};
use crate::model::maintenance::NodeFacts;
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

#[cfg(test)]
mod tests {
    use super::facts_of;

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
}
