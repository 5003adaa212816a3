//! Workloads are named as the cluster reports them, through the owner chain (a
//! ReplicaSet's Deployment), never by trimming a name: on the simulated fleet, a bare
//! ReplicaSet `llm-serve` stays `ReplicaSet shop/llm-serve` (not a Deployment `llm`) and a
//! Deployment's pods read as `Deployment shop/…` in the cluster-loss and capacity lines.

use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::fleet::workload_of;
use std::time::{Duration, Instant};

use crate::support;
use crate::support::rollout::Workspace;
use k8s_openapi::api::apps::v1::ReplicaSet;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::{ListParams, PostParams};

/// A ReplicaSet `name` nobody controls, with `replicas` pods of `cpu` each.
async fn bare_replica_set(ws: &Workspace, cluster: &str, name: &str, replicas: i32, cpu: &str) {
    let client = ws.fleet.client(cluster).expect("cluster");
    let rs: ReplicaSet = serde_json::from_value(serde_json::json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "serve", "image": "example/llm:1",
                    "resources": {"requests": {"cpu": cpu, "memory": "64Mi"}}}]}
            }
        }
    }))
    .expect("replicaset");
    Api::<ReplicaSet>::namespaced(client, "shop")
        .create(&PostParams::default(), &rs)
        .await
        .expect("created");
}

/// Waits until `count` pods labelled `app=NAME` run in `shop` on `cluster`.
async fn running_pods(ws: &Workspace, cluster: &str, app: &str, count: usize) {
    let pods = Api::<Pod>::namespaced(ws.fleet.client(cluster).expect("cluster"), "shop");
    let selector = ListParams::default().labels(&format!("app={app}"));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let running = pods.list(&selector).await.map_or(0, |list| {
            list.items
                .iter()
                .filter(|p| {
                    p.status
                        .as_ref()
                        .and_then(|s| s.phase.as_deref())
                        .is_some_and(|phase| phase == "Running")
                })
                .count()
        });
        if running >= count {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{running} of {count} {app} pods run on {cluster}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pods_are_named_by_the_workload_their_cluster_reports() {
    let ws = Workspace::new("small", 71, "", "").await;
    let lost = "small-01";
    bare_replica_set(&ws, lost, "llm-serve", 2, "100m").await;
    // Its pods come up before the fleet is read.
    running_pods(&ws, lost, "llm-serve", 2).await;

    let out = ws.fleetdeck(
        "alice@ops",
        &[
            "capacity",
            "--what-if",
            &format!("cluster={lost}"),
            "--siblings",
            "env=production",
            "-o",
            "json",
        ],
    );
    let text = support::cli::text(&out);
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {text}"));
    let unplaced = json[0]["siblings"]["unplaced"].to_string();
    // The bare ReplicaSet runs nowhere else, and keeps its own name.
    assert!(
        unplaced.contains("ReplicaSet shop/llm-serve"),
        "{unplaced}\n{text}"
    );
    assert!(!unplaced.contains("Deployment shop/llm\""), "{unplaced}");
    assert!(!text.contains("shop/llm\""), "never trimmed: {text}");

    // The fleet view carries the owner chain the cluster reports: each ReplicaSet of a
    // Deployment resolves to it, the bare one to nothing (it names itself).
    let ledger = ws.ledger();
    let kubeconfig =
        kube::config::Kubeconfig::read_from(ws.path().join("kubeconfig")).expect("kubeconfig");
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let mut snapshot = sync.wait_settled(std::time::Duration::from_secs(20)).await;
    // ReplicaSets only name workloads, so they do not hold back a settled view: wait
    // (bounded) for the owner chain to arrive before judging the names.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut named = owner_names(&snapshot, lost);
    while !named.iter().any(|n| n.starts_with("Deployment "))
        && tokio::time::Instant::now() < deadline
    {
        let _ = tokio::time::timeout_at(deadline, sync.snapshots.changed()).await;
        snapshot = sync.snapshots.borrow_and_update().clone();
        named = owner_names(&snapshot, lost);
    }
    sync.stop();
    let view = &snapshot.cluster(lost).expect("cluster").view;
    assert!(named.contains("ReplicaSet llm-serve"), "{named:?}");
    assert!(
        named
            .iter()
            .all(|n| !n.starts_with("ReplicaSet ") || n == "ReplicaSet llm-serve"),
        "every Deployment's pods are named by their Deployment: {named:?}"
    );
    assert!(
        named.iter().any(|n| n.starts_with("Deployment ")),
        "{named:?}"
    );
    assert!(!view.controllers.is_empty());
}

/// The workload name of each `shop` pod of `cluster`, as the owner chain gives it.
fn owner_names(
    snapshot: &fleetdeck::model::live::FleetSnapshot,
    cluster: &str,
) -> std::collections::BTreeSet<String> {
    let Some(cluster) = snapshot.cluster(cluster) else {
        return Default::default();
    };
    let view = &cluster.view;
    view.pods
        .iter()
        .filter(|p| &*p.namespace == "shop")
        .filter_map(|pod| workload_of(&view.controllers, pod))
        .map(|owner| owner.to_string())
        .collect()
}
