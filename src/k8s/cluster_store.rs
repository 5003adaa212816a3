//! One cluster's slim objects, kept as the `ClusterView` that snapshots share. The view sits
//! behind an `Arc`: publishing a snapshot is a pointer copy, and the first change after a
//! publish copies the view once (copy-on-write), so a synced, quiet cluster is held once.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::Arc;

use super::pdb_index::PdbIndex;
use super::project::{NodeVersions, ProjectionError};
use super::reflect::Delta;
use super::slim::{
    Claims, Item, ItemOf, Jobs, NamespacedKey, Nodes, Pdbs, Pods, ReplicaSets, SlimKind, Volumes,
};
use crate::model::fleet::{
    ClaimView, ClusterId, ClusterView, NodeView, OwnerRef, PdbView, PodView, RequiredDomain,
    VolumeView,
};

/// How one resource kind is kept: where its views live in the shared `ClusterView`, and
/// the key of a view (read back from the view rather than stored a second time).
struct Kind<K, V> {
    view_key: fn(&V) -> K,
    views: fn(&mut ClusterView) -> &mut Vec<V>,
}

/// One resource kind's views (in the shared `ClusterView`), the facts kept beside them in
/// the same order, an index by key, and the new full set while a relist collects it.
struct Table<K, V, E> {
    /// foldhash, not SipHash: rebuilt over every pod of a cluster on each full list.
    index: HashMap<K, usize, foldhash::fast::RandomState>,
    extras: Vec<E>,
    pending: Option<Vec<(K, V, E)>>,
    /// Objects whose latest state could not be read: left out of the view until a
    /// readable state (or their deletion, or a list without them) arrives.
    unreadable: HashSet<K, foldhash::fast::RandomState>,
    /// The same, for the list being collected.
    pending_unreadable: HashSet<K, foldhash::fast::RandomState>,
}

impl<K: Hash + Eq + Clone, V, E> Table<K, V, E> {
    fn new() -> Self {
        Table {
            index: HashMap::default(),
            extras: Vec::new(),
            pending: None,
            unreadable: HashSet::default(),
            pending_unreadable: HashSet::default(),
        }
    }

    /// Objects left out, counting one that is both left out now and in the list being
    /// collected once.
    fn unreadable_count(&self) -> usize {
        self.unreadable.len()
            + self
                .pending_unreadable
                .iter()
                .filter(|key| !self.unreadable.contains(*key))
                .count()
    }

    /// Takes the object at `key` out of the views; returns whether it was there.
    fn remove(&mut self, kind: &Kind<K, V>, key: &K, view: &mut Arc<ClusterView>) -> bool {
        let Some(i) = self.index.remove(key) else {
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

    /// Applies one delta; returns whether the views changed.
    fn apply(
        &mut self,
        kind: &Kind<K, V>,
        delta: Delta<Item<K, V, E>>,
        view: &mut Arc<ClusterView>,
        unreadable: &mut dyn FnMut(ProjectionError),
    ) -> bool
    where
        V: Clone,
    {
        match delta {
            Delta::ListStarted => {
                self.pending = Some(Vec::new());
                self.pending_unreadable.clear();
                false
            }
            Delta::Page(items) => {
                let pending = self.pending.get_or_insert_with(Vec::new);
                pending.reserve(items.len());
                for item in items {
                    match item.view {
                        Ok((v, e)) => pending.push((item.key, v, e)),
                        Err(error) => {
                            unreadable(error);
                            self.pending_unreadable.insert(item.key);
                        }
                    }
                }
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending.take() else {
                    return false;
                };
                self.unreadable = std::mem::take(&mut self.pending_unreadable);
                let views = (kind.views)(Arc::make_mut(view));
                views.clear();
                views.reserve_exact(pending.len());
                self.extras.clear();
                self.extras.reserve_exact(pending.len());
                self.index.clear();
                self.index.reserve(pending.len());
                for (key, v, e) in pending {
                    // A key listed twice (never from a real API server) keeps its first entry.
                    if let Entry::Vacant(slot) = self.index.entry(key) {
                        slot.insert(views.len());
                        views.push(v);
                        self.extras.push(e);
                    }
                }
                true
            }
            Delta::Applied(item) => match item.view {
                Ok((new_view, extra)) => {
                    if !self.unreadable.is_empty() {
                        self.unreadable.remove(&item.key);
                    }
                    let views = (kind.views)(Arc::make_mut(view));
                    match self.index.get(&item.key) {
                        Some(&i) => {
                            views[i] = new_view;
                            self.extras[i] = extra;
                        }
                        None => {
                            self.index.insert(item.key, views.len());
                            views.push(new_view);
                            self.extras.push(extra);
                        }
                    }
                    true
                }
                Err(error) => {
                    // Its old state is no longer true (a node may have just turned
                    // NotReady): it is left out rather than shown as it was.
                    unreadable(error);
                    let removed = self.remove(kind, &item.key, view);
                    self.unreadable.insert(item.key);
                    removed
                }
            },
            Delta::Deleted(item) => {
                let unreadable_gone = self.unreadable.remove(&item.key);
                self.remove(kind, &item.key, view) || unreadable_gone
            }
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }
}

const NODES: Kind<Arc<str>, NodeView> = Kind {
    view_key: |node| Arc::clone(&node.name.0),
    views: |view| &mut view.nodes,
};

const PODS: Kind<NamespacedKey, PodView> = Kind {
    view_key: |pod| (Arc::clone(&pod.namespace), Arc::clone(&pod.name)),
    views: |view| &mut view.pods,
};

const PDBS: Kind<NamespacedKey, PdbView> = Kind {
    view_key: |pdb| (Arc::clone(&pdb.namespace), Arc::clone(&pdb.name)),
    views: |view| &mut view.pdbs,
};

const CLAIMS: Kind<NamespacedKey, ClaimView> = Kind {
    view_key: |claim| (Arc::clone(&claim.namespace), Arc::clone(&claim.name)),
    views: |view| &mut view.claims,
};

const VOLUMES: Kind<Arc<str>, VolumeView> = Kind {
    view_key: |volume| Arc::clone(&volume.name),
    views: |view| &mut view.volumes,
};

type TableOf<K> = Table<<K as SlimKind>::Key, <K as SlimKind>::View, <K as SlimKind>::Extra>;

/// The controllers of one kind of pod owner (ReplicaSets' Deployments, Jobs' CronJobs),
/// kept in the view's `controllers` only: a few dozen bytes per ReplicaSet, nothing per pod.
struct ControllerTable {
    /// `ReplicaSet` or `Job`.
    kind: &'static str,
    /// The list being collected.
    pending: Option<Vec<(NamespacedKey, OwnerRef)>>,
}

impl ControllerTable {
    fn new(kind: &'static str) -> Self {
        ControllerTable {
            kind,
            pending: None,
        }
    }

    /// Applies one delta; returns whether the view changed.
    fn apply(
        &mut self,
        delta: Delta<Item<NamespacedKey, Option<OwnerRef>, ()>>,
        view: &mut Arc<ClusterView>,
    ) -> bool {
        let set = |view: &mut Arc<ClusterView>,
                   (namespace, name): NamespacedKey,
                   owner: Option<OwnerRef>| {
            if view.controllers.of(&namespace, self.kind, &name) == owner.as_ref() {
                return false;
            }
            Arc::make_mut(view)
                .controllers
                .set(namespace, Arc::from(self.kind), name, owner)
        };
        match delta {
            Delta::ListStarted => {
                self.pending = Some(Vec::new());
                false
            }
            Delta::Page(items) => {
                let pending = self.pending.get_or_insert_with(Vec::new);
                pending.extend(items.into_iter().filter_map(|item| match item.view {
                    Ok((Some(owner), ())) => Some((item.key, owner)),
                    _ => None,
                }));
                false
            }
            Delta::ListDone => {
                let Some(pending) = self.pending.take() else {
                    return false;
                };
                let mut controllers = view.controllers.clone();
                let entries = pending
                    .into_iter()
                    .map(|((ns, name), owner)| (ns, name, owner));
                if !controllers.replace_kind(self.kind, entries) {
                    return false;
                }
                Arc::make_mut(view).controllers = controllers;
                true
            }
            // One that cannot be read names nothing: its pods name it themselves.
            Delta::Applied(item) => set(view, item.key, item.view.ok().and_then(|(o, ())| o)),
            Delta::Deleted(item) => set(view, item.key, None),
            Delta::Alive | Delta::Failed { .. } => false,
        }
    }
}

/// The slim state of one cluster.
pub struct ClusterStore {
    view: Arc<ClusterView>,
    nodes: TableOf<Nodes>,
    pods: TableOf<Pods>,
    pdbs: TableOf<Pdbs>,
    claims: TableOf<Claims>,
    volumes: TableOf<Volumes>,
    replica_sets: ControllerTable,
    jobs: ControllerTable,
    pdb_links_stale: bool,
    volume_links_stale: bool,
    /// The last reason an object could not be read.
    pub last_unreadable: Option<String>,
}

impl ClusterStore {
    /// An empty store for cluster `id`.
    pub fn new(id: &str) -> Self {
        ClusterStore {
            view: Arc::new(ClusterView::empty(ClusterId::from(id))),
            nodes: Table::new(),
            pods: Table::new(),
            pdbs: Table::new(),
            claims: Table::new(),
            volumes: Table::new(),
            replica_sets: ControllerTable::new("ReplicaSet"),
            jobs: ControllerTable::new("Job"),
            pdb_links_stale: false,
            volume_links_stale: false,
            last_unreadable: None,
        }
    }

    /// The current view, shared (a pointer copy). Links pods to their PDBs and to the
    /// domains of their volumes first if needed.
    pub fn view(&mut self) -> Arc<ClusterView> {
        if self.pdb_links_stale {
            self.link_pdbs();
        }
        if self.volume_links_stale {
            self.link_volumes();
        }
        Arc::clone(&self.view)
    }

    /// Applies one ReplicaSet delta (its controller); returns whether anything changed.
    pub fn apply_replica_set(&mut self, delta: Delta<ItemOf<ReplicaSets>>) -> bool {
        self.replica_sets.apply(delta, &mut self.view)
    }

    /// Applies one Job delta (its controller); returns whether anything changed.
    pub fn apply_job(&mut self, delta: Delta<ItemOf<Jobs>>) -> bool {
        self.jobs.apply(delta, &mut self.view)
    }

    /// Records why claims or volumes cannot be read (`None`: they can); whether the view
    /// changed.
    pub fn set_volumes_unreadable(&mut self, why: Option<&str>) -> bool {
        if self.view.volumes_unreadable.as_deref() == why {
            return false;
        }
        Arc::make_mut(&mut self.view).volumes_unreadable = why.map(Arc::from);
        true
    }

    /// Objects left out now because their latest state could not be read (including
    /// those of a list still being collected).
    pub fn unreadable(&self) -> u32 {
        let count = self.nodes.unreadable_count()
            + self.pods.unreadable_count()
            + self.pdbs.unreadable_count()
            + self.claims.unreadable_count()
            + self.volumes.unreadable_count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// Versions reported by each node, in `view().nodes` order.
    pub fn node_versions(&self) -> &[NodeVersions] {
        &self.nodes.extras
    }

    /// Applies one node delta; returns whether anything changed.
    pub fn apply_node(&mut self, delta: Delta<ItemOf<Nodes>>) -> bool {
        let id = self.view.id.clone();
        let last = &mut self.last_unreadable;
        self.nodes.apply(&NODES, delta, &mut self.view, &mut |e| {
            note_unreadable(&id, e, last)
        })
    }

    /// Applies one pod delta; returns whether anything changed.
    pub fn apply_pod(&mut self, delta: Delta<ItemOf<Pods>>) -> bool {
        let id = self.view.id.clone();
        let last = &mut self.last_unreadable;
        let changed = self.pods.apply(&PODS, delta, &mut self.view, &mut |e| {
            note_unreadable(&id, e, last)
        });
        self.pdb_links_stale |= changed;
        self.volume_links_stale |= changed;
        changed
    }

    /// Applies one PersistentVolumeClaim delta; returns whether anything changed.
    pub fn apply_claim(&mut self, delta: Delta<ItemOf<Claims>>) -> bool {
        let id = self.view.id.clone();
        let last = &mut self.last_unreadable;
        let changed = self.claims.apply(&CLAIMS, delta, &mut self.view, &mut |e| {
            note_unreadable(&id, e, last)
        });
        self.volume_links_stale |= changed;
        changed
    }

    /// Applies one PersistentVolume delta; returns whether anything changed.
    pub fn apply_volume(&mut self, delta: Delta<ItemOf<Volumes>>) -> bool {
        let id = self.view.id.clone();
        let last = &mut self.last_unreadable;
        let changed = self
            .volumes
            .apply(&VOLUMES, delta, &mut self.view, &mut |e| {
                note_unreadable(&id, e, last)
            });
        self.volume_links_stale |= changed;
        changed
    }

    /// Applies one PDB delta; returns whether anything changed.
    pub fn apply_pdb(&mut self, delta: Delta<ItemOf<Pdbs>>) -> bool {
        let id = self.view.id.clone();
        let last = &mut self.last_unreadable;
        let changed = self.pdbs.apply(&PDBS, delta, &mut self.view, &mut |e| {
            note_unreadable(&id, e, last)
        });
        self.pdb_links_stale |= changed;
        changed
    }

    /// Points every pod at the first PDB of its namespace whose selector covers it.
    fn link_pdbs(&mut self) {
        self.pdb_links_stale = false;
        let index = PdbIndex::new(&self.view.pdbs, &self.pdbs.extras);
        let links: Vec<Option<u32>> = self
            .view
            .pods
            .iter()
            .zip(&self.pods.extras)
            .map(|(pod, links)| {
                index
                    .covering(&pod.namespace, &links.labels)
                    .and_then(|i| u32::try_from(i).ok())
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

impl ClusterStore {
    /// Gives every pod the topology domains its claims' bound volumes confine it to: all
    /// of them, where they pin the same key (a zonal and a regional disk leave the zonal
    /// disk's zone). Pods without claims, the vast majority, cost one check each.
    fn link_volumes(&mut self) {
        self.volume_links_stale = false;
        let domains: Vec<Option<RequiredDomain>> = self
            .view
            .pods
            .iter()
            .zip(&self.pods.extras)
            .map(|(pod, links)| {
                let pins = links.claims.iter().filter_map(|claim| {
                    let key = (Arc::clone(&pod.namespace), Arc::clone(claim));
                    let bound = self.view.claims.get(*self.claims.index.get(&key)?)?;
                    let volume = self.volumes.index.get(bound.volume.as_ref()?)?;
                    self.view.volumes.get(*volume)?.domain.as_ref()
                });
                pins.fold(None, |pin: Option<RequiredDomain>, next| match pin {
                    None => Some(next.clone()),
                    Some(pin) => Some(pin.within(next)),
                })
            })
            .collect();
        if domains
            .iter()
            .zip(&self.view.pods)
            .all(|(d, p)| *d == p.required_domain)
        {
            return;
        }
        let view = Arc::make_mut(&mut self.view);
        for (pod, domain) in view.pods.iter_mut().zip(domains) {
            pod.required_domain = domain;
        }
    }
}

/// Logs an object left out, keeping the reason for the status line.
fn note_unreadable(cluster: &ClusterId, error: ProjectionError, last: &mut Option<String>) {
    tracing::warn!(%cluster, %error, "object left out");
    *last = Some(error.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::slim::decode_object;
    use crate::model::fleet::Interner;

    fn item<K: SlimKind>(value: serde_json::Value) -> ItemOf<K> {
        decode_object::<K>(&value.to_string(), &mut Interner::new())
            .unwrap()
            .0
    }

    fn node(name: &str) -> ItemOf<Nodes> {
        item::<Nodes>(serde_json::json!({
            "metadata": {"name": name},
            "status": {"allocatable": {"cpu": "4"}, "conditions": [{"type": "Ready", "status": "True"}]}
        }))
    }

    fn pod(ns: &str, name: &str, app: &str) -> ItemOf<Pods> {
        item::<Pods>(serde_json::json!({
            "metadata": {"name": name, "namespace": ns, "labels": {"app": app}},
            "spec": {"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}}}]},
            "status": {"phase": "Running"}
        }))
    }

    fn pdb(ns: &str, name: &str, app: &str) -> ItemOf<Pdbs> {
        item::<Pdbs>(serde_json::json!({
            "metadata": {"name": name, "namespace": ns},
            "spec": {"selector": {"matchLabels": {"app": app}}},
            "status": {"disruptionsAllowed": 0, "currentHealthy": 3, "desiredHealthy": 3, "expectedPods": 3}
        }))
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

    fn pod_with_claim(name: &str, claim: &str) -> ItemOf<Pods> {
        item::<Pods>(serde_json::json!({
            "metadata": {"name": name, "namespace": "db"},
            "spec": {"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}}}],
                     "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": claim}}]},
            "status": {"phase": "Running"}
        }))
    }

    fn claim(name: &str, volume: Option<&str>) -> ItemOf<Claims> {
        item::<Claims>(serde_json::json!({
            "metadata": {"name": name, "namespace": "db"},
            "spec": {"volumeName": volume}
        }))
    }

    fn zonal_volume(name: &str, zone: &str) -> ItemOf<Volumes> {
        item::<Volumes>(serde_json::json!({
            "metadata": {"name": name},
            "spec": {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": "topology.kubernetes.io/zone", "operator": "In", "values": [zone]}
            ]}]}}}
        }))
    }

    #[test]
    fn pods_take_the_domain_of_their_bound_zonal_volume() {
        let mut store = ClusterStore::new("c1");
        store.apply_pod(Delta::Applied(pod_with_claim("pg-0", "data-pg-0")));
        store.apply_pod(Delta::Applied(pod("db", "web-1", "web")));
        // The claim is still unbound (WaitForFirstConsumer): nothing pins the pod yet.
        store.apply_claim(Delta::Applied(claim("data-pg-0", None)));
        let domain = |store: &mut ClusterStore, name: &str| {
            store
                .view()
                .pods
                .iter()
                .find(|p| &*p.name == name)
                .and_then(|p| p.required_domain.clone())
                .map(|d| d.to_string())
        };
        assert_eq!(domain(&mut store, "pg-0"), None);
        // Bound, but the volume is not seen yet; then it is.
        store.apply_claim(Delta::Applied(claim("data-pg-0", Some("pv-1"))));
        assert_eq!(domain(&mut store, "pg-0"), None);
        store.apply_volume(Delta::Applied(zonal_volume("pv-1", "us-east-1a")));
        assert_eq!(
            domain(&mut store, "pg-0").as_deref(),
            Some("topology.kubernetes.io/zone=us-east-1a")
        );
        assert_eq!(domain(&mut store, "web-1"), None, "no claim, no pin");
        // The pod is recreated: the link follows the new object.
        store.apply_pod(Delta::Applied(pod_with_claim("pg-0", "data-pg-0")));
        assert!(domain(&mut store, "pg-0").is_some());
        // The claim goes away: the pin goes with it.
        store.apply_claim(Delta::Deleted(claim("data-pg-0", Some("pv-1"))));
        assert_eq!(domain(&mut store, "pg-0"), None);
        // A claim of the same name in another namespace is another claim.
        store.apply_claim(Delta::Applied(item::<Claims>(serde_json::json!({
            "metadata": {"name": "data-pg-0", "namespace": "other"},
            "spec": {"volumeName": "pv-1"}
        }))));
        assert_eq!(domain(&mut store, "pg-0"), None);
    }

    #[test]
    fn replica_sets_and_jobs_name_the_workload_their_pods_belong_to() {
        let controlled = |ns: &str, name: &str, owner: Option<(&str, &str)>| {
            let mut meta = serde_json::json!({"name": name, "namespace": ns});
            if let Some((kind, owner)) = owner {
                meta["ownerReferences"] = serde_json::json!([
                    {"apiVersion": "apps/v1", "kind": kind, "name": owner, "uid": "u", "controller": true}
                ]);
            }
            serde_json::json!({"metadata": meta, "spec": {"replicas": 3}, "status": {}})
        };
        let mut store = ClusterStore::new("c1");
        store.apply_replica_set(Delta::ListStarted);
        store.apply_replica_set(Delta::Page(vec![
            item::<ReplicaSets>(controlled(
                "shop",
                "web-54fb655679",
                Some(("Deployment", "web")),
            )),
            item::<ReplicaSets>(controlled("ml", "llm-serve", None)),
        ]));
        assert!(store.apply_replica_set(Delta::ListDone));
        assert!(store.apply_job(Delta::Applied(item::<Jobs>(controlled(
            "batch",
            "report-29100",
            Some(("CronJob", "report"))
        )))));
        let view = store.view();
        let named = |ns: &str, kind: &str, name: &str| {
            view.controllers.of(ns, kind, name).map(ToString::to_string)
        };
        assert_eq!(
            named("shop", "ReplicaSet", "web-54fb655679").as_deref(),
            Some("Deployment web")
        );
        assert_eq!(
            named("batch", "Job", "report-29100").as_deref(),
            Some("CronJob report")
        );
        assert_eq!(
            named("ml", "ReplicaSet", "llm-serve"),
            None,
            "a bare ReplicaSet names itself"
        );
        // The same object again changes nothing; its deletion forgets it.
        assert!(!store.apply_job(Delta::Applied(item::<Jobs>(controlled(
            "batch",
            "report-29100",
            Some(("CronJob", "report"))
        )))));
        assert!(store.apply_job(Delta::Deleted(item::<Jobs>(controlled(
            "batch",
            "report-29100",
            Some(("CronJob", "report"))
        )))));
        assert_eq!(store.view().controllers.len(), 1);
    }

    #[test]
    fn a_regional_volume_pins_its_pod_to_both_zones() {
        let mut store = ClusterStore::new("c1");
        store.apply_pod(Delta::Applied(pod_with_claim("pg-0", "data-pg-0")));
        store.apply_claim(Delta::Applied(claim("data-pg-0", Some("pv-1"))));
        store.apply_volume(Delta::Applied(item::<Volumes>(serde_json::json!({
            "metadata": {"name": "pv-1"},
            "spec": {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": "topology.kubernetes.io/zone", "operator": "In",
                 "values": ["us-east-1b", "us-east-1a"]}
            ]}]}}}
        }))));
        let pin = store.view().pods[0].required_domain.clone();
        assert_eq!(
            pin.map(|d| d.to_string()).as_deref(),
            Some("topology.kubernetes.io/zone in (us-east-1a, us-east-1b)")
        );
    }

    fn unreadable_node(name: &str) -> ItemOf<Nodes> {
        item::<Nodes>(serde_json::json!({
            "metadata": {"name": name}, "status": {"allocatable": {"cpu": "lots"}}
        }))
    }

    #[test]
    fn an_unreadable_update_leaves_the_object_out_until_it_reads_again() {
        let mut store = ClusterStore::new("c1");
        store.apply_node(Delta::Applied(node("a")));
        // Its new state cannot be read: its old one is no longer shown.
        assert!(store.apply_node(Delta::Applied(unreadable_node("a"))));
        assert_eq!(store.unreadable(), 1);
        assert!(store.view().nodes.is_empty());
        assert!(
            store
                .last_unreadable
                .as_deref()
                .is_some_and(|r| r.contains("lots"))
        );
        // Fixed: shown again, and no longer counted.
        assert!(store.apply_node(Delta::Applied(node("a"))));
        assert_eq!(store.unreadable(), 0);
        assert_eq!(store.view().nodes.len(), 1);
        // Unreadable again, then deleted: nothing is left out any more.
        store.apply_node(Delta::Applied(unreadable_node("a")));
        assert!(store.apply_node(Delta::Deleted(unreadable_node("a"))));
        assert_eq!(store.unreadable(), 0);
        assert!(store.view().nodes.is_empty());
    }

    #[test]
    fn a_list_counts_only_the_objects_it_could_not_read() {
        let mut store = ClusterStore::new("c1");
        store.apply_node(Delta::Applied(unreadable_node("a")));
        assert_eq!(store.unreadable(), 1);
        store.apply_node(Delta::ListStarted);
        store.apply_node(Delta::Page(vec![unreadable_node("a"), node("b")]));
        assert_eq!(store.unreadable(), 1, "the same object is counted once");
        store.apply_node(Delta::ListDone);
        assert_eq!(store.unreadable(), 1);
        // The next list reads everything: nothing is left out.
        store.apply_node(Delta::ListStarted);
        store.apply_node(Delta::Page(vec![node("a"), node("b")]));
        store.apply_node(Delta::ListDone);
        assert_eq!(store.unreadable(), 0);
        assert_eq!(store.view().nodes.len(), 2);
    }
}
