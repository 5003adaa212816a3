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
