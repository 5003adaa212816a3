//! Volume data that cannot be read is unknown, not "free to move": on a simulated cluster
//! that refuses PersistentVolumes (403, as a role without them would), `capacity`'s
//! what-if marks the pods that mount claims as unknown and exits 1, and a maintenance of a
//! node running such a pod waits at Precheck saying why, never cordoning it; once the
//! volumes can be read again, it goes on.

use std::time::{Duration, Instant};

use crate::support;
use crate::support::rollout::{Live, Workspace};
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::Api;

/// A node of `cluster` running a pod of the StatefulSet `postgres` (it mounts a claim),
/// and that node's zone.
async fn postgres_node(ws: &Workspace, cluster: &str) -> (String, String) {
    let client = ws.fleet.client(cluster).expect("cluster");
    let pods = Api::<Pod>::namespaced(client.clone(), "shop")
        .list(&Default::default())
        .await
        .expect("pods");
    let node = pods
        .items
        .iter()
        .find(|p| {
            p.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with("postgres-"))
        })
        .and_then(|p| p.spec.as_ref()?.node_name.clone())
        .expect("a postgres pod on a node");
    let zone = Api::<Node>::all(client)
        .get(&node)
        .await
        .expect("node")
        .metadata
        .labels
        .and_then(|l| l.get("topology.kubernetes.io/zone").cloned())
        .expect("zone");
    (node, zone)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_volumes_make_answers_unknown_and_a_precheck_wait() {
    let ws = Workspace::new("small", 61, "", "").await;
    let cluster = "small-01";
    let (node, zone) = postgres_node(&ws, cluster).await;
    ws.fleet
        .update_faults(cluster, |f| {
            f.forbidden_resources = vec!["persistentvolumes".into()]
        })
        .expect("faults");
    let run = |args: &[&str]| ws.fleetdeck("alice@ops", args);

    // The what-if over the postgres pod's zone: answered, but unknown for that pod.
    let what_if = format!("zone={zone}");
    let out = run(&[
        "capacity",
        "--cluster",
        cluster,
        "--what-if",
        &what_if,
        "-o",
        "json",
    ]);
    let text = support::cli::text(&out);
    assert_eq!(out.status.code(), Some(1), "not a whole answer: {text}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let scenario = &json[0]["whatIf"];
    assert!(
        scenario["unknownPods"].as_u64().unwrap_or(0) >= 1,
        "{json:#}"
    );
    let unknown = scenario["unknown"].to_string();
    assert!(
        unknown.contains("StatefulSet shop/postgres")
            && unknown.contains("persistentvolumes cannot be read"),
        "{unknown}"
    );
    let table = run(&["capacity", "--cluster", cluster, "--what-if", &what_if]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("UNKNOWN for"), "{text}");

    // A maintenance of the node waits at Precheck, saying why, and cordons nothing.
    let maintenance = format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\ndeadlines:\n  precheck: 10m\ndrain:\n  evictionRetry: 1s\n"
    );
    std::fs::write(ws.path().join("m.yaml"), maintenance).expect("write");
    let started = run(&["maintenance", "start", "m.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let mut live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "executor-a", None);
    let journal = ws.path().join("journal.sqlite");
    let item = fleetdeck::model::run::ItemId(node.clone());
    let waits = || {
        let p = SqliteJournal::open(&journal, Durability::Full)
            .expect("journal")
            .projection()
            .expect("projection");
        p.runs
            .values()
            .find_map(|r| r.items.get(&item)?.waiting.as_ref().map(|w| w.why.clone()))
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while waits().is_none() {
        assert!(
            Instant::now() < deadline,
            "the precheck never said it waits"
        );
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let why = waits().expect("waiting");
    assert!(
        why.contains("capacity: unknown (persistentvolumes cannot be read")
            && why.contains("StatefulSet shop/postgres can move is unknown"),
        "{why}"
    );
    let client = ws.fleet.client(cluster).expect("cluster");
    let cordoned = || async {
        Api::<Node>::all(client.clone())
            .get(&node)
            .await
            .expect("node")
            .spec
            .and_then(|s| s.unschedulable)
            == Some(true)
    };
    for _ in 0..10 {
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        !cordoned().await,
        "not cordoned while the answer is unknown"
    );

    // The role is fixed: the volumes are read, the precheck passes, the node is cordoned.
    ws.fleet
        .update_faults(cluster, |f| f.forbidden_resources.clear())
        .expect("faults");
    let deadline = Instant::now() + Duration::from_secs(90);
    while !cordoned().await {
        assert!(Instant::now() < deadline, "never went on: {:?}", waits());
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    live.stop();
}
