//! One cluster's slim objects, kept as the `ClusterView` that snapshots share. The view sits
//! behind an `Arc`: publishing a snapshot is a pointer copy, and the first change after a
//! publish copies the view once (copy-on-write), so a synced, quiet cluster is held once.

use std::collections::HashMap;
use std::sync::Arc;

use super::project::{
    NodeVersions, PdbSelector, ProjectionError, project_node, project_pdb, project_pod,
};
use super::reflect::Delta;
use super::slim::{SlimNode, SlimPdb, SlimPod};
use crate::model::fleet::{ClusterId, ClusterView, Interner, Labels, NodeView, PdbView, PodView};

type Key = (Arc<str>, Arc<str>);

/// A resource's state while a relist is collecting its new full set.
struct Pending<T> {
    items: Vec<T>,
}

/// The slim state of one cluster.
pub struct ClusterStore {
    interner: Interner,
    view: Arc<ClusterView>,
    node_index: HashMap<Arc<str>, usize>,
    node_versions: Vec<NodeVersions>,
    pod_index: HashMap<Key, usize>,
    pod_labels: Vec<Labels>,
    pdb_index: HashMap<Key, usize>,
    pdb_selectors: Vec<PdbSelector>,
    pending_nodes: Option<Pending<(NodeView, NodeVersions)>>,
    pending_pods: Option<Pending<(PodView, Labels)>>,
    pending_pdbs: Option<Pending<(PdbView, PdbSelector)>>,
    pdb_links_stale: bool,
    /// Objects left out because they could not be read, with the last reason.
    pub unreadable: u32,
    /// The last reason an object could not be read.
    pub last_unreadable: Option<String>,
}

fn key_of(
    meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    interner: &mut Interner,
) -> Key {
    (
        interner.intern(meta.namespace.as_deref().unwrap_or("")),
        Arc::from(meta.name.as_deref().unwrap_or("")),
    )
}

impl ClusterStore {
    /// An empty store for cluster `id`.
    pub fn new(id: &str) -> Self {
        ClusterStore {
            interner: Interner::new(),
            view: Arc::new(ClusterView {
                id: ClusterId::from(id),
                nodes: Vec::new(),
                pods: Vec::new(),
                pdbs: Vec::new(),
            }),
            node_index: HashMap::new(),
            node_versions: Vec::new(),
            pod_index: HashMap::new(),
            pod_labels: Vec::new(),
            pdb_index: HashMap::new(),
            pdb_selectors: Vec::new(),
            pending_nodes: None,
            pending_pods: None,
            pending_pdbs: None,
            pdb_links_stale: false,
            unreadable: 0,
            last_unreadable: None,
        }
    }

    fn unreadable(&mut self, error: ProjectionError) {
        tracing::warn!(cluster = %self.view.id, %error, "object left out");
        self.unreadable += 1;
        self.last_unreadable = Some(error.to_string());
    }

    /// The current view, shared (a pointer copy). Links pods to their PDBs first if needed.
    pub fn view(&mut self) -> Arc<ClusterView> {
        if self.pdb_links_stale {
            self.link_pdbs();
        }
        Arc::clone(&self.view)
    }

    /// Versions reported by each node, in `view().nodes` order.
    pub fn node_versions(&self) -> &[NodeVersions] {
        &self.node_versions
    }

    /// Applies one node delta; returns whether anything changed.
    pub fn apply_node(&mut self, delta: Delta<SlimNode>) -> bool {
        match delta {
            Delta::ListStarted => {
                self.pending_nodes = Some(Pending { items: Vec::new() });
                false
            }
            Delta::Page(items) => {
                for node in &items {
                    match project_node(node, &mut self.interner) {
                        Ok(projected) => {
                            if let Some(p) = self.pending_nodes.as_mut() {
                                p.items.push(projected);
                            }
                        }
                        Err(error) => self.unreadable(error),
                    }
                }
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending_nodes.take() else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                let (nodes, versions): (Vec<_>, Vec<_>) = pending.items.into_iter().unzip();
                view.nodes = nodes;
                self.node_versions = versions;
                self.node_index = view
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (Arc::clone(&n.name.0), i))
                    .collect();
                true
            }
            Delta::Applied(node) => match project_node(&node, &mut self.interner) {
                Ok((view_node, versions)) => {
                    let view = Arc::make_mut(&mut self.view);
                    match self.node_index.get(&view_node.name.0) {
                        Some(&i) => {
                            view.nodes[i] = view_node;
                            self.node_versions[i] = versions;
                        }
                        None => {
                            self.node_index
                                .insert(Arc::clone(&view_node.name.0), view.nodes.len());
                            view.nodes.push(view_node);
                            self.node_versions.push(versions);
                        }
                    }
                    true
                }
                Err(error) => {
                    self.unreadable(error);
                    false
                }
            },
            Delta::Deleted(node) => {
                let name = node.metadata.name.unwrap_or_default();
                let Some(i) = self.node_index.remove(name.as_str()) else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                view.nodes.swap_remove(i);
                self.node_versions.swap_remove(i);
                if let Some(moved) = view.nodes.get(i) {
                    self.node_index.insert(Arc::clone(&moved.name.0), i);
                }
                true
            }
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }

    /// Applies one pod delta; returns whether anything changed.
    pub fn apply_pod(&mut self, delta: Delta<SlimPod>) -> bool {
        match delta {
            Delta::ListStarted => {
                self.pending_pods = Some(Pending { items: Vec::new() });
                false
            }
            Delta::Page(items) => {
                for pod in &items {
                    match project_pod(pod, &mut self.interner) {
                        Ok(projected) => {
                            if let Some(p) = self.pending_pods.as_mut() {
                                p.items.push(projected);
                            }
                        }
                        Err(error) => self.unreadable(error),
                    }
                }
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending_pods.take() else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                let (pods, labels): (Vec<_>, Vec<_>) = pending.items.into_iter().unzip();
                view.pods = pods;
                self.pod_labels = labels;
                self.pod_index = view
                    .pods
                    .iter()
                    .enumerate()
                    .map(|(i, p)| ((Arc::clone(&p.namespace), Arc::clone(&p.name)), i))
                    .collect();
                self.pdb_links_stale = true;
                true
            }
            Delta::Applied(pod) => match project_pod(&pod, &mut self.interner) {
                Ok((view_pod, labels)) => {
                    let view = Arc::make_mut(&mut self.view);
                    let key = (Arc::clone(&view_pod.namespace), Arc::clone(&view_pod.name));
                    match self.pod_index.get(&key) {
                        Some(&i) => {
                            view.pods[i] = view_pod;
                            self.pod_labels[i] = labels;
                        }
                        None => {
                            self.pod_index.insert(key, view.pods.len());
                            view.pods.push(view_pod);
                            self.pod_labels.push(labels);
                        }
                    }
                    self.pdb_links_stale = true;
                    true
                }
                Err(error) => {
                    self.unreadable(error);
                    false
                }
            },
            Delta::Deleted(pod) => {
                let key = key_of(&pod.metadata, &mut self.interner);
                let Some(i) = self.pod_index.remove(&key) else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                view.pods.swap_remove(i);
                self.pod_labels.swap_remove(i);
                if let Some(moved) = view.pods.get(i) {
                    self.pod_index
                        .insert((Arc::clone(&moved.namespace), Arc::clone(&moved.name)), i);
                }
                true
            }
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }

    /// Applies one PDB delta; returns whether anything changed.
    pub fn apply_pdb(&mut self, delta: Delta<SlimPdb>) -> bool {
        match delta {
            Delta::ListStarted => {
                self.pending_pdbs = Some(Pending { items: Vec::new() });
                false
            }
            Delta::Page(items) => {
                for pdb in &items {
                    let projected = project_pdb(pdb, &mut self.interner);
                    if let Some(p) = self.pending_pdbs.as_mut() {
                        p.items.push(projected);
                    }
                }
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending_pdbs.take() else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                let (pdbs, selectors): (Vec<_>, Vec<_>) = pending.items.into_iter().unzip();
                view.pdbs = pdbs;
                self.pdb_selectors = selectors;
                self.pdb_index = view
                    .pdbs
                    .iter()
                    .enumerate()
                    .map(|(i, p)| ((Arc::clone(&p.namespace), Arc::clone(&p.name)), i))
                    .collect();
                self.pdb_links_stale = true;
                true
            }
            Delta::Applied(pdb) => {
                let (view_pdb, selector) = project_pdb(&pdb, &mut self.interner);
                let view = Arc::make_mut(&mut self.view);
                let key = (Arc::clone(&view_pdb.namespace), Arc::clone(&view_pdb.name));
                match self.pdb_index.get(&key) {
                    Some(&i) => {
                        view.pdbs[i] = view_pdb;
                        self.pdb_selectors[i] = selector;
                    }
                    None => {
                        self.pdb_index.insert(key, view.pdbs.len());
                        view.pdbs.push(view_pdb);
                        self.pdb_selectors.push(selector);
                    }
                }
                self.pdb_links_stale = true;
                true
            }
            Delta::Deleted(pdb) => {
                let key = key_of(&pdb.metadata, &mut self.interner);
                let Some(i) = self.pdb_index.remove(&key) else {
                    return false;
                };
                let view = Arc::make_mut(&mut self.view);
                view.pdbs.swap_remove(i);
                self.pdb_selectors.swap_remove(i);
                if let Some(moved) = view.pdbs.get(i) {
                    self.pdb_index
                        .insert((Arc::clone(&moved.namespace), Arc::clone(&moved.name)), i);
                }
                self.pdb_links_stale = true;
                true
            }
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }

    /// Points every pod at the first PDB of its namespace whose selector covers it.
    fn link_pdbs(&mut self) {
        self.pdb_links_stale = false;
        let mut by_namespace: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, pdb) in self.view.pdbs.iter().enumerate() {
            by_namespace.entry(&pdb.namespace).or_default().push(i);
        }
        let links: Vec<Option<u32>> = self
            .view
            .pods
            .iter()
            .zip(&self.pod_labels)
            .map(|(pod, labels)| {
                by_namespace.get(&*pod.namespace).and_then(|candidates| {
                    candidates
                        .iter()
                        .find(|&&i| self.pdb_selectors[i].matches(labels))
                        .and_then(|&i| u32::try_from(i).ok())
                })
            })
            .collect();
        if links.iter().zip(&self.view.pods).all(|(l, p)| *l == p.pdb) {
            return;
        }
        let view = Arc::make_mut(&mut self.view);
        for (pod, link) in view.pods.iter_mut().zip(links) {
            pod.pdb = link;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str) -> SlimNode {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name},
            "status": {"allocatable": {"cpu": "4"}, "conditions": [{"type": "Ready", "status": "True"}]}
        }))
        .unwrap()
    }

    fn pod(ns: &str, name: &str, app: &str) -> SlimPod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": ns, "labels": {"app": app}},
            "spec": {"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}}}]},
            "status": {"phase": "Running"}
        }))
        .unwrap()
    }

    fn pdb(ns: &str, name: &str, app: &str) -> SlimPdb {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": ns},
            "spec": {"selector": {"matchLabels": {"app": app}}},
            "status": {"disruptionsAllowed": 0, "currentHealthy": 3, "desiredHealthy": 3, "expectedPods": 3}
        }))
        .unwrap()
    }

    #[test]
    fn lists_replace_and_watches_update() {
        let mut store = ClusterStore::new("c1");
        store.apply_node(Delta::ListStarted);
        store.apply_node(Delta::Page(vec![node("a"), node("b")]));
        assert!(
            store.view().nodes.is_empty(),
            "a list is applied only when complete"
        );
        assert!(store.apply_node(Delta::ListDone));
        assert_eq!(store.view().nodes.len(), 2);
        store.apply_node(Delta::Applied(node("c")));
        store.apply_node(Delta::Deleted(node("a")));
        let names: Vec<String> = store
            .view()
            .nodes
            .iter()
            .map(|n| n.name.to_string())
            .collect();
        assert_eq!(names, vec!["c", "b"]);
        store.apply_node(Delta::Applied(node("b")));
        assert_eq!(store.view().nodes.len(), 2);
        // A relist drops what is gone.
        store.apply_node(Delta::ListStarted);
        store.apply_node(Delta::Page(vec![node("b")]));
        store.apply_node(Delta::ListDone);
        assert_eq!(store.view().nodes.len(), 1);
    }

    #[test]
    fn published_views_are_not_changed_by_later_deltas() {
        let mut store = ClusterStore::new("c1");
        store.apply_node(Delta::Applied(node("a")));
        let published = store.view();
        store.apply_node(Delta::Applied(node("b")));
        assert_eq!(published.nodes.len(), 1);
        assert_eq!(store.view().nodes.len(), 2);
    }

    #[test]
    fn pods_link_to_the_pdb_that_selects_them() {
        let mut store = ClusterStore::new("c1");
        store.apply_pod(Delta::Applied(pod("shop", "web-1", "web")));
        store.apply_pod(Delta::Applied(pod("shop", "db-1", "db")));
        store.apply_pod(Delta::Applied(pod("other", "web-2", "web")));
        store.apply_pdb(Delta::Applied(pdb("shop", "web-pdb", "web")));
        let view = store.view();
        let link = |name: &str| view.pods.iter().find(|p| &*p.name == name).unwrap().pdb;
        assert_eq!(link("web-1"), Some(0));
        assert_eq!(link("db-1"), None);
        assert_eq!(link("web-2"), None, "PDBs only cover their own namespace");
        store.apply_pdb(Delta::Deleted(pdb("shop", "web-pdb", "web")));
        assert!(store.view().pods.iter().all(|p| p.pdb.is_none()));
    }
}
