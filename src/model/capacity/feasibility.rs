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
    ClusterView, Labels, NodeSelector, PodView, RequiredDomain, Taint, Toleration, tolerates_all,
};

/// The constraints of one pod that decide which node classes it may use: its required
/// topology domain only when its key splits classes (see [`FeasibilityIndex::build`]).
type ConstraintKey<'a> = (
    &'a NodeSelector,
    &'a [Toleration],
    Option<&'a RequiredDomain>,
);

/// A domain key with more values than this among the nodes (a hostname) does not split
/// node classes: its pinned pods are checked node by node instead.
const MAX_CLASS_SPLITTING_VALUES: usize = 64;

/// A node's projection on the selected label keys, and its repelling taints.
type ClassKey<'a> = (Vec<Option<&'a Arc<str>>>, Vec<&'a Taint>);

/// Node classes and the classes each pod constraint may use.
#[derive(Debug)]
pub(crate) struct FeasibilityIndex {
    /// Nodes of each class, in node order.
    class_nodes: Vec<Vec<u32>>,
    /// Class of each node.
    node_class: Vec<u32>,
    /// Constraint id of each pod.
    pod_constraint: Vec<u32>,
    /// Classes each constraint id may use, in class order.
    feasible: Vec<Vec<u32>>,
    /// Required topology domain of each pod, as an index into `domain_nodes`.
    pod_domain: Vec<Option<u32>>,
    /// Nodes in each required domain, in node order.
    domain_nodes: Vec<Vec<u32>>,
}

impl FeasibilityIndex {
    /// Builds the index for a cluster.
    pub(crate) fn build(cluster: &ClusterView) -> Self {
        // Label keys any pod selects on or is pinned by; everything else does not split
        // classes. A pin key with many values does not either: a local volume pins a pod
        // to `kubernetes.io/hostname`, which would make every node a class of its own.
        let per_node = per_node_keys(cluster);
        let mut keys: Vec<&Arc<str>> = Vec::new();
        for pod in &cluster.pods {
            let pin = pod
                .required_domain
                .as_ref()
                .map(|d| &d.key)
                .filter(|k| !per_node.contains(k));
            for key in pod.node_selector.keys().chain(pin) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }

        let mut class_of: HashMap<ClassKey<'_>, u32> = HashMap::new();
        let mut class_nodes: Vec<Vec<u32>> = Vec::new();
        let mut class_repr: Vec<usize> = Vec::new();
        let mut node_class: Vec<u32> = Vec::with_capacity(cluster.nodes.len());
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
            node_class.push(class);
        }

        let mut constraint_of: HashMap<ConstraintKey<'_>, u32> = HashMap::new();
        let mut feasible: Vec<Vec<u32>> = Vec::new();
        let mut pod_constraint = Vec::with_capacity(cluster.pods.len());
        for pod in &cluster.pods {
            let class_pin = pod
                .required_domain
                .as_ref()
                .filter(|d| !per_node.contains(&&d.key));
            let key = (&pod.node_selector, &*pod.tolerations, class_pin);
            let next = u32::try_from(feasible.len()).unwrap_or(u32::MAX);
            let id = *constraint_of.entry(key).or_insert(next);
            if id == next {
                let classes = class_repr
                    .iter()
                    .zip(0u32..)
                    .filter(|(repr, _)| {
                        let node = &cluster.nodes[**repr];
                        admits_ignoring_domain(pod, &node.labels, &node.taints)
                            && class_pin.is_none_or(|d| d.admits_labels(&node.labels))
                    })
                    .map(|(_, class)| class)
                    .collect();
                feasible.push(classes);
            }
            pod_constraint.push(id);
        }
        let (pod_domain, domain_nodes) = domains(cluster, &per_node);
        Self {
            class_nodes,
            node_class,
            pod_constraint,
            feasible,
            pod_domain,
            domain_nodes,
        }
    }

    /// Calls `visit` with every candidate node of pod `pod`: class by class, in node
    /// order within a class; for a pod pinned by a per-node key, the domain's nodes in
    /// node order whose class it may use.
    pub(crate) fn for_each_candidate(&self, pod: usize, mut visit: impl FnMut(u32)) {
        // Stops at nothing: `first_candidate` with an acceptance that never accepts.
        self.first_candidate(pod, |n| {
            visit(n);
            false
        });
    }

    /// Every candidate node of pod `pod`, in order (for tests).
    #[cfg(test)]
    pub(crate) fn candidates(&self, pod: usize) -> Vec<u32> {
        let mut nodes = Vec::new();
        self.for_each_candidate(pod, |n| nodes.push(n));
        nodes
    }

    /// The first candidate of pod `pod`, in [`for_each_candidate`](Self::for_each_candidate)
    /// order, that `accept`s. The placement's innermost loop: one branch, then a plain
    /// search the compiler folds (an iterator of either kind would be stepped one node at
    /// a time, at a measurable cost).
    pub(crate) fn first_candidate(
        &self,
        pod: usize,
        mut accept: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        let constraint = self.pod_constraint.get(pod).copied().unwrap_or(u32::MAX);
        let classes = self
            .feasible
            .get(constraint as usize)
            .map_or(&[][..], Vec::as_slice);
        match self.pod_domain.get(pod).copied().flatten() {
            None => classes
                .iter()
                .flat_map(|class| self.class_nodes[*class as usize].iter().copied())
                .find(|&n| accept(n)),
            Some(domain) => self
                .domain_nodes
                .get(domain as usize)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .copied()
                .find(|&n| {
                    self.node_class
                        .get(n as usize)
                        .is_some_and(|class| classes.binary_search(class).is_ok())
                        && accept(n)
                }),
        }
    }

    /// Number of node classes (for tests and diagnostics).
    #[cfg(test)]
    pub(crate) fn class_count(&self) -> usize {
        self.class_nodes.len()
    }
}

/// Pin keys with more than [`MAX_CLASS_SPLITTING_VALUES`] values among the nodes.
fn per_node_keys(cluster: &ClusterView) -> Vec<&Arc<str>> {
    let mut pin_keys: Vec<&Arc<str>> = cluster
        .pods
        .iter()
        .filter_map(|p| p.required_domain.as_ref().map(|d| &d.key))
        .collect();
    pin_keys.sort();
    pin_keys.dedup();
    pin_keys
        .into_iter()
        .filter(|key| {
            let mut values: Vec<&Arc<str>> = Vec::new();
            for node in &cluster.nodes {
                if let Some(value) = node.labels.get(key)
                    && !values.contains(&value)
                {
                    values.push(value);
                    if values.len() > MAX_CLASS_SPLITTING_VALUES {
                        return true;
                    }
                }
            }
            false
        })
        .collect()
}

/// Each pod pinned by a per-node key, as an index into the list of nodes in each
/// distinct required domain of such keys: one pass over the nodes per key.
fn domains(cluster: &ClusterView, per_node: &[&Arc<str>]) -> (Vec<Option<u32>>, Vec<Vec<u32>>) {
    let mut ids: HashMap<&RequiredDomain, u32> = HashMap::new();
    let mut pod_domain = Vec::with_capacity(cluster.pods.len());
    for pod in &cluster.pods {
        pod_domain.push(
            pod.required_domain
                .as_ref()
                .filter(|d| per_node.contains(&&d.key))
                .map(|d| {
                    let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                    *ids.entry(d).or_insert(next)
                }),
        );
    }
    // The domains each (key, value) lies in: usually one, a local volume's node.
    let mut containing: HashMap<(&Arc<str>, &Arc<str>), Vec<u32>> = HashMap::new();
    for (domain, &id) in &ids {
        for value in domain.values.iter() {
            containing.entry((&domain.key, value)).or_default().push(id);
        }
    }
    let mut domain_nodes = vec![Vec::new(); ids.len()];
    let mut keys: Vec<&Arc<str>> = ids.keys().map(|d| &d.key).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        for (i, node) in cluster.nodes.iter().enumerate() {
            let Some(value) = node.labels.get(key) else {
                continue;
            };
            if let (Some(domain_ids), Ok(i)) = (containing.get(&(key, value)), u32::try_from(i)) {
                for &id in domain_ids {
                    domain_nodes[id as usize].push(i);
                }
            }
        }
    }
    (pod_domain, domain_nodes)
}

/// Whether a node with these labels and taints admits the pod, ignoring resources (the
/// rule `candidates` answers per class and domain; the placement property test checks
/// every placement against it).
#[cfg(test)]
pub(crate) fn admits(pod: &PodView, labels: &Labels, taints: &[Taint]) -> bool {
    admits_ignoring_domain(pod, labels, taints)
        && pod
            .required_domain
            .as_ref()
            .is_none_or(|d| d.admits_labels(labels))
}

/// The same, leaving out the pod's required topology domain.
pub(crate) fn admits_ignoring_domain(pod: &PodView, labels: &Labels, taints: &[Taint]) -> bool {
    pod.node_selector.matches(labels) && tolerates_all(&pod.tolerations, taints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity::*;
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
        assert_eq!(index.candidates(0), vec![0, 1]);
        // The untolerating pod may use every untainted node.
        assert_eq!(index.candidates(1), vec![0, 1, 2]);
    }

    #[test]
    fn hostname_pins_split_no_classes_and_zone_pins_do() {
        // 70 nodes, each with its own hostname, in zones a (n0–n34) and b, pools x and y
        // alternating.
        let nodes: Vec<_> = (0..70)
            .map(|i| {
                let name = format!("n{i}");
                let zone = if i < 35 { "a" } else { "b" };
                node(&name, zone)
                    .label("kubernetes.io/hostname", &name)
                    .label("pool", if i % 2 == 0 { "x" } else { "y" })
                    .build()
            })
            .collect();
        let pods = vec![
            pod("local", Some("n4"))
                .domain("kubernetes.io/hostname", "n4")
                .build(),
            pod("zonal", Some("n2"))
                .select("pool", "x")
                .domain("topology.kubernetes.io/zone", "a")
                .build(),
            pod("free", None).build(),
        ];
        let index = FeasibilityIndex::build(&cluster(nodes, pods));
        assert_eq!(
            index.class_count(),
            4,
            "pool × zone; hostnames do not split"
        );
        assert_eq!(index.candidates(0), vec![4]);
        let zone_a_pool_x: Vec<u32> = (0..35).filter(|i| i % 2 == 0).collect();
        assert_eq!(index.candidates(1), zone_a_pool_x);
        assert_eq!(index.candidates(2).len(), 70);
        // The placement's search walks the same order and stops at the first accepted.
        assert_eq!(index.first_candidate(1, |n| n > 10), Some(12));
        assert_eq!(index.first_candidate(0, |n| n != 4), None);
    }

    #[test]
    fn pins_to_several_values_admit_each_of_them() {
        // As above, 70 hostnames in zones a (n0–n34) and b. One pod's local volume may
        // attach to n4 or n60; another's regional disk to zone a or b; a third's to a.
        let nodes: Vec<_> = (0..70)
            .map(|i| {
                let name = format!("n{i}");
                node(&name, if i < 35 { "a" } else { "b" }).build()
            })
            .collect();
        let pods = vec![
            pod("two-hosts", Some("n4"))
                .domains("kubernetes.io/hostname", &["n60", "n4"])
                .build(),
            pod("one-host", Some("n4"))
                .domain("kubernetes.io/hostname", "n4")
                .build(),
            pod("regional", Some("n2"))
                .domains("topology.kubernetes.io/zone", &["a", "b"])
                .build(),
            pod("zonal", Some("n2"))
                .domain("topology.kubernetes.io/zone", "a")
                .build(),
        ];
        let index = FeasibilityIndex::build(&cluster(nodes, pods));
        assert_eq!(
            index.class_count(),
            2,
            "zone a and b; hostnames do not split"
        );
        assert_eq!(index.candidates(0), vec![4, 60]);
        assert_eq!(index.candidates(1), vec![4]);
        assert_eq!(index.candidates(2).len(), 70);
        assert_eq!(index.candidates(3), (0..35).collect::<Vec<u32>>());
    }
}
