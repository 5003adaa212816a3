//! One cluster's slim objects, kept as the `ClusterView` that snapshots share. The view sits
//! behind an `Arc`: publishing a snapshot is a pointer copy, and the first change after a
//! publish copies the view once (copy-on-write), so a synced, quiet cluster is held once.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

use super::project::{
    NodeVersions, PdbSelector, ProjectionError, project_node, project_pdb, project_pod,
};
use super::reflect::Delta;
use super::slim::{SlimMeta, SlimNode, SlimPdb, SlimPod};
use crate::model::fleet::{ClusterId, ClusterView, Interner, Labels, NodeView, PdbView, PodView};

type Key = (Arc<str>, Arc<str>);

/// Turns one decoded object into its view and the facts kept beside it.
type Project<S, V, E> = fn(&S, &mut Interner) -> Result<(V, E), ProjectionError>;

/// How one resource kind is kept: how to project it, how to key it, where its views live.
struct Kind<S, K, V, E> {
    project: Project<S, V, E>,
    raw_key: fn(&S, &mut Interner) -> K,
    view_key: fn(&V) -> K,
    views: fn(&mut ClusterView) -> &mut Vec<V>,
}

/// One resource kind's views (in the shared `ClusterView`), the facts kept beside them in
/// the same order, an index by key, and the new full set while a relist collects it.
struct Table<K, V, E> {
    /// foldhash, not SipHash: rebuilt over every pod of a cluster on each full list.
    index: HashMap<K, usize, foldhash::fast::RandomState>,
    extras: Vec<E>,
    pending: Option<Vec<(V, E)>>,
}

impl<K: Hash + Eq, V, E> Table<K, V, E> {
    fn new() -> Self {
        Table {
            index: HashMap::default(),
            extras: Vec::new(),
            pending: None,
        }
    }

    /// Applies one delta; returns whether the views changed.
    fn apply<S>(
        &mut self,
        kind: &Kind<S, K, V, E>,
        delta: Delta<S>,
        view: &mut Arc<ClusterView>,
        interner: &mut Interner,
        unreadable: &mut dyn FnMut(ProjectionError),
    ) -> bool
    where
        V: Clone,
    {
        match delta {
            Delta::ListStarted => {
                self.pending = Some(Vec::new());
                false
            }
            Delta::Page(items) => {
                for item in &items {
                    match (kind.project)(item, interner) {
                        Ok(projected) => {
                            if let Some(pending) = self.pending.as_mut() {
                                pending.push(projected);
                            }
                        }
                        Err(error) => unreadable(error),
                    }
                }
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending.take() else {
                    return false;
                };
                let views = (kind.views)(Arc::make_mut(view));
                let (items, extras): (Vec<V>, Vec<E>) = pending.into_iter().unzip();
                *views = items;
                self.extras = extras;
                self.index = views
                    .iter()
                    .enumerate()
                    .map(|(i, v)| ((kind.view_key)(v), i))
                    .collect();
                true
            }
            Delta::Applied(item) => match (kind.project)(&item, interner) {
                Ok((new_view, extra)) => {
                    let views = (kind.views)(Arc::make_mut(view));
                    let key = (kind.view_key)(&new_view);
                    match self.index.get(&key) {
                        Some(&i) => {
                            views[i] = new_view;
                            self.extras[i] = extra;
                        }
                        None => {
                            self.index.insert(key, views.len());
                            views.push(new_view);
                            self.extras.push(extra);
                        }
                    }
                    true
                }
                Err(error) => {
                    unreadable(error);
                    false
                }
            },
            Delta::Deleted(item) => {
                let key = (kind.raw_key)(&item, interner);
                let Some(i) = self.index.remove(&key) else {
                    return false;
                };
                let views = (kind.views)(Arc::make_mut(view));
                views.swap_remove(i);
                self.extras.swap_remove(i);
                if let Some(moved) = views.get(i) {
                    self.index.insert((kind.view_key)(moved), i);
                }
                true
            }
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }
}

fn key_of(meta: &SlimMeta, interner: &mut Interner) -> Key {
    (
        interner.intern(meta.namespace.as_deref().unwrap_or("")),
        Arc::from(meta.name.as_deref().unwrap_or("")),
    )
}

const NODES: Kind<SlimNode, Arc<str>, NodeView, NodeVersions> = Kind {
    project: project_node,
    raw_key: |node, _| Arc::from(node.metadata.name.as_deref().unwrap_or("")),
    view_key: |node| Arc::clone(&node.name.0),
    views: |view| &mut view.nodes,
};

const PODS: Kind<SlimPod, Key, PodView, Labels> = Kind {
    project: project_pod,
    raw_key: |pod, interner| key_of(&pod.metadata, interner),
    view_key: |pod| (Arc::clone(&pod.namespace), Arc::clone(&pod.name)),
    views: |view| &mut view.pods,
};

const PDBS: Kind<SlimPdb, Key, PdbView, PdbSelector> = Kind {
    project: |pdb, interner| Ok(project_pdb(pdb, interner)),
    raw_key: |pdb, interner| key_of(&pdb.metadata, interner),
    view_key: |pdb| (Arc::clone(&pdb.namespace), Arc::clone(&pdb.name)),
    views: |view| &mut view.pdbs,
};

/// The slim state of one cluster.
pub struct ClusterStore {
    interner: Interner,
    view: Arc<ClusterView>,
    nodes: Table<Arc<str>, NodeView, NodeVersions>,
    pods: Table<Key, PodView, Labels>,
    pdbs: Table<Key, PdbView, PdbSelector>,
    pdb_links_stale: bool,
    /// Objects left out because they could not be read.
    pub unreadable: u32,
    /// The last reason an object could not be read.
    pub last_unreadable: Option<String>,
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
            nodes: Table::new(),
            pods: Table::new(),
            pdbs: Table::new(),
            pdb_links_stale: false,
            unreadable: 0,
            last_unreadable: None,
        }
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
        &self.nodes.extras
    }

    /// Applies one node delta; returns whether anything changed.
    pub fn apply_node(&mut self, delta: Delta<SlimNode>) -> bool {
        let id = self.view.id.clone();
        let (unreadable, last) = (&mut self.unreadable, &mut self.last_unreadable);
        self.nodes.apply(
            &NODES,
            delta,
            &mut self.view,
            &mut self.interner,
            &mut |e| note_unreadable(&id, e, unreadable, last),
        )
    }

    /// Applies one pod delta; returns whether anything changed.
    pub fn apply_pod(&mut self, delta: Delta<SlimPod>) -> bool {
        let id = self.view.id.clone();
        let (unreadable, last) = (&mut self.unreadable, &mut self.last_unreadable);
        let changed = self
            .pods
            .apply(&PODS, delta, &mut self.view, &mut self.interner, &mut |e| {
                note_unreadable(&id, e, unreadable, last)
            });
        self.pdb_links_stale |= changed;
        changed
    }

    /// Applies one PDB delta; returns whether anything changed.
    pub fn apply_pdb(&mut self, delta: Delta<SlimPdb>) -> bool {
        let id = self.view.id.clone();
        let (unreadable, last) = (&mut self.unreadable, &mut self.last_unreadable);
        let changed = self
            .pdbs
            .apply(&PDBS, delta, &mut self.view, &mut self.interner, &mut |e| {
                note_unreadable(&id, e, unreadable, last)
            });
        self.pdb_links_stale |= changed;
        changed
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
            .zip(&self.pods.extras)
            .map(|(pod, labels)| {
                by_namespace.get(&*pod.namespace).and_then(|candidates| {
                    candidates
                        .iter()
                        .find(|&&i| self.pdbs.extras[i].matches(labels))
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

/// Counts an object left out, keeping the reason for the status line.
fn note_unreadable(
    cluster: &ClusterId,
    error: ProjectionError,
    count: &mut u32,
    last: &mut Option<String>,
) {
    tracing::warn!(%cluster, %error, "object left out");
    *count += 1;
    *last = Some(error.to_string());
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
