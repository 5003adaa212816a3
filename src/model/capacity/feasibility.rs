//! Nodes grouped into feasibility classes, so that "may this pod go on that node?"
//! (selectors, tolerations, required topology domain) is answered once per class and
//! pod constraint instead of once per pod and node.
//!
//! Two nodes are in the same class when they agree on every label some pod in the
//! cluster selects on and carry the same repelling taints. Pods with identical
//! constraints (usually all pods of one owner) share one constraint id.

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::fleet::{
    ClusterView, Labels, NodeSelector, PodView, Taint, Toleration, TopologyDomain, tolerates_all,
};

/// The constraints of one pod that decide where it may go.
type ConstraintKey<'a> = (
    &'a NodeSelector,
    &'a [Toleration],
    Option<&'a TopologyDomain>,
);

/// A node's projection on the selected label keys, and its repelling taints.
type ClassKey<'a> = (Vec<Option<&'a Arc<str>>>, Vec<&'a Taint>);

/// Node classes and the classes each pod constraint may use.
#[derive(Debug)]
pub(crate) struct FeasibilityIndex {
    /// Nodes of each class, in node order.
    class_nodes: Vec<Vec<u32>>,
    /// Constraint id of each pod.
    pod_constraint: Vec<u32>,
    /// Classes each constraint id may use, in class order.
    feasible: Vec<Vec<u32>>,
}

impl FeasibilityIndex {
    /// Builds the index for a cluster.
    pub(crate) fn build(cluster: &ClusterView) -> Self {
        // Label keys any pod selects on; everything else does not split classes.
        let mut keys: Vec<&Arc<str>> = Vec::new();
        for pod in &cluster.pods {
            for key in pod
                .node_selector
                .keys()
                .chain(pod.required_domain.as_ref().map(|d| &d.key))
            {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }

        let mut class_of: HashMap<ClassKey<'_>, u32> = HashMap::new();
        let mut class_nodes: Vec<Vec<u32>> = Vec::new();
        let mut class_repr: Vec<usize> = Vec::new();
        for (i, node) in cluster.nodes.iter().enumerate() {
            let projection = keys.iter().map(|k| node.labels.get(k)).collect();
            let taints = node.taints.iter().filter(|t| t.effect.repels()).collect();
            let next = u32::try_from(class_nodes.len()).unwrap_or(u32::MAX);
            let class = *class_of.entry((projection, taints)).or_insert(next);
            if class == next {
                class_nodes.push(Vec::new());
                class_repr.push(i);
            }
            if let (Some(list), Ok(i)) = (class_nodes.get_mut(class as usize), u32::try_from(i)) {
                list.push(i);
            }
        }

        let mut constraint_of: HashMap<ConstraintKey<'_>, u32> = HashMap::new();
        let mut feasible: Vec<Vec<u32>> = Vec::new();
        let mut pod_constraint = Vec::with_capacity(cluster.pods.len());
        for pod in &cluster.pods {
            let key = (
                &pod.node_selector,
                &*pod.tolerations,
                pod.required_domain.as_ref(),
            );
            let next = u32::try_from(feasible.len()).unwrap_or(u32::MAX);
            let id = *constraint_of.entry(key).or_insert(next);
            if id == next {
                let classes = class_repr
                    .iter()
                    .zip(0u32..)
                    .filter(|(repr, _)| {
                        let node = &cluster.nodes[**repr];
                        admits(pod, &node.labels, &node.taints)
                    })
                    .map(|(_, class)| class)
                    .collect();
                feasible.push(classes);
            }
            pod_constraint.push(id);
        }
        Self {
            class_nodes,
            pod_constraint,
            feasible,
        }
    }

    /// Candidate nodes for pod `pod`, class by class, in node order within a class.
    pub(crate) fn candidates(&self, pod: usize) -> impl Iterator<Item = u32> + '_ {
        let constraint = self.pod_constraint.get(pod).copied().unwrap_or(u32::MAX);
        self.feasible
            .get(constraint as usize)
            .into_iter()
            .flatten()
            .flat_map(|class| self.class_nodes[*class as usize].iter().copied())
    }

    /// Number of node classes (for tests and diagnostics).
    #[cfg(test)]
    pub(crate) fn class_count(&self) -> usize {
        self.class_nodes.len()
    }
}

/// Whether a node with these labels and taints admits the pod, ignoring resources.
pub(crate) fn admits(pod: &PodView, labels: &Labels, taints: &[Taint]) -> bool {
    pod.node_selector.matches(labels)
        && tolerates_all(&pod.tolerations, taints)
        && pod
            .required_domain
            .as_ref()
            .is_none_or(|d| labels.get(&d.key) == Some(&d.value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::capacity::fixtures::*;
    use crate::model::fleet::TaintEffect;

    #[test]
    fn only_selected_labels_and_taints_split_classes() {
        // Every node has a unique hostname label, but no pod selects on it: nodes split
        // only by the selected "pool" label and by taints. Three classes.
        let nodes = vec![
            node("n0", "a").label("pool", "x").build(),
            node("n1", "b").label("pool", "x").build(),
            node("n2", "a").label("pool", "y").build(),
            node("n3", "a")
                .label("pool", "y")
                .taint("nvidia.com/gpu", TaintEffect::NoSchedule)
                .build(),
        ];
        let pods = vec![
            pod("p", Some("n0")).select("pool", "x").build(),
            pod("q", Some("n2")).build(),
        ];
        let c = cluster(nodes, pods);
        let index = FeasibilityIndex::build(&c);
        assert_eq!(index.class_count(), 3);
        assert_eq!(index.candidates(0).collect::<Vec<_>>(), vec![0, 1]);
        // The untolerating pod may use every untainted node.
        assert_eq!(index.candidates(1).collect::<Vec<_>>(), vec![0, 1, 2]);
    }
}
