//! The live fleet view against the simulated demo fleet, over loopback HTTP through the
//! real kube client: statuses, identity pinning, drift and what is counted in capacity.
//!
//! Over 600 lines: one subject, the live view against one simulated fleet, with the fleet
//! and sync helpers at the top shared by every case.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::fleet::Readiness;
use fleetdeck::model::live::{ClusterSnapshot, ClusterStatus, DriftKind, find_drift};
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig, write_ledger};

/// Serves the demo fleet and writes its kubeconfig and ledger into `dir`.
async fn demo_fleet(dir: &Path) -> fleetdeck::sim::SimServer {
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo scenario");
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.expect("serve");
    write_kubeconfig(&fleet, &dir.join("kubeconfig"), addr).expect("kubeconfig");
    write_ledger(&fleet, &dir.join("ledger.yaml"), addr).expect("ledger");
    server
}

/// Serves `fleet` on loopback and writes its kubeconfig and ledger into `dir`; returns the
/// server with the ledger and kubeconfig read back as fleetdeck reads them.
async fn serve(
    fleet: &SimFleet,
    dir: &Path,
) -> (
    fleetdeck::sim::SimServer,
    fleetdeck::model::ledger::Ledger,
    kube::config::Kubeconfig,
) {
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.expect("serve");
    write_kubeconfig(fleet, &dir.join("kubeconfig"), addr).expect("kubeconfig");
    write_ledger(fleet, &dir.join("ledger.yaml"), addr).expect("ledger");
    let ledger = fleetdeck::config::ledger_file::load(&dir.join("ledger.yaml")).expect("ledger");
    let source = fleetdeck::k8s::kubeconfig::KubeconfigSource {
        paths: vec![dir.join("kubeconfig")],
        explicit: true,
    };
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&source).expect("kubeconfig");
    (server, ledger, kubeconfig)
}

/// The small fleet served with `small-01` refusing every request for `resource` (as a
/// role without it would), and a sync of it with default options.
async fn small_refusing(
    dir: &Path,
    resource: &str,
) -> (SimFleet, fleetdeck::sim::SimServer, FleetSync) {
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    fleet
        .update_faults("small-01", |f| {
            f.forbidden_resources = vec![resource.to_string()]
        })
        .unwrap();
    let (server, ledger, kubeconfig) = serve(&fleet, dir).await;
    let sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    (fleet, server, sync)
}

/// Cluster `id` as the sync publishes it now.
fn cluster_now(sync: &FleetSync, id: &str) -> Arc<ClusterSnapshot> {
    let snapshot = sync.snapshots.borrow().clone();
    snapshot
        .cluster(id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} in the snapshot"))
}

/// Waits up to `secs` until cluster `id` is published as `done` says; returns it then.
async fn wait_for_cluster(
    sync: &FleetSync,
    id: &str,
    secs: u64,
    done: impl Fn(&ClusterSnapshot) -> bool,
) -> Arc<ClusterSnapshot> {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let cluster = cluster_now(sync, id);
        if done(&cluster) {
            return cluster;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{id} still {:?} ({:?}, identity {:?})",
            cluster.status,
            cluster.last_error,
            cluster.identity_verdict
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn fleetdeck(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args(["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"])
        .args(args)
        .current_dir(dir)
        .env("FLEETDECK_CONFIG", dir.join("config.toml"))
        .env("FLEETDECK_DATA_DIR", dir.join("data"))
        .output()
        .expect("binary runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_fleet_statuses_identity_and_drift() {
    let dir = tempfile::tempdir().unwrap();
    let server = demo_fleet(dir.path()).await;
    let ledger = fleetdeck::config::ledger_file::load(&dir.path().join("ledger.yaml"))
        .expect("the sim's ledger is valid");
    let source = fleetdeck::k8s::kubeconfig::KubeconfigSource {
        paths: vec![dir.path().join("kubeconfig")],
        explicit: true,
    };
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&source).unwrap();
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let snapshot = sync.wait_settled(Duration::from_secs(30)).await;
    assert!(snapshot.settled(), "every cluster reaches a verdict");

    let status = |id: &str| snapshot.cluster(id).map(|c| c.status);
    // The unreachable cluster is not healthy and nothing of it is counted.
    assert_eq!(status("prod-apse1-03"), Some(ClusterStatus::Unreachable));
    let unreachable = snapshot.cluster("prod-apse1-03").unwrap();
    assert!(!unreachable.status.data_usable());
    assert_eq!(unreachable.nodes_ready(), (0, 0));
    assert!(unreachable.last_error.is_some());
    // The impostor is refused.
    assert_eq!(
        status("prod-use1-04"),
        Some(ClusterStatus::IdentityMismatch)
    );
    assert!(!ClusterStatus::IdentityMismatch.allows_actions());
    // Everyone else is synced with real data.
    let synced = snapshot
        .clusters
        .iter()
        .filter(|c| c.status == ClusterStatus::Synced)
        .count();
    assert_eq!(synced, snapshot.clusters.len() - 2);
    let gpu = snapshot.cluster("gpu-prod-use1-01").unwrap();
    assert!(!gpu.view.nodes.is_empty() && !gpu.view.pods.is_empty());
    assert!(
        gpu.view.pods.iter().any(|p| p.pdb.is_some())
            || snapshot
                .clusters
                .iter()
                .any(|c| c.view.pods.iter().any(|p| p.pdb.is_some())),
        "pods are linked to their PDBs"
    );
    // Pod readiness is read from the pods: the down zone's pods are not Ready, as the
    // node controller marks them, while those on healthy nodes are.
    let zone_down = snapshot.cluster("prod-euw1-02").unwrap();
    let node_ready = |name: &str| {
        zone_down
            .view
            .nodes
            .iter()
            .any(|n| n.name.as_str() == name && n.readiness == Readiness::Ready)
    };
    let (mut on_down, mut on_ready) = (Vec::new(), Vec::new());
    for pod in zone_down.view.pods.iter() {
        if let Some(node) = &pod.node {
            match node_ready(node.as_str()) {
                true => on_ready.push(pod.ready),
                false => on_down.push(pod.ready),
            }
        }
    }
    assert!(
        !on_down.is_empty() && on_down.iter().all(|ready| !ready),
        "{on_down:?}"
    );
    assert!(
        !on_ready.is_empty() && on_ready.iter().all(|ready| *ready),
        "{on_ready:?}"
    );

    // Drift: identity, unobservable, and the version the ledger got wrong.
    let drift = find_drift(&ledger, &snapshot);
    assert!(
        drift
            .iter()
            .any(|d| d.cluster == "prod-use1-04" && matches!(d.kind, DriftKind::Identity { .. }))
    );
    assert!(drift.iter().any(|d| d.cluster == "prod-apse1-03"
        && matches!(
            d.kind,
            DriftKind::Unobservable {
                status: ClusterStatus::Unreachable,
                ..
            }
        )));
    let version = drift
        .iter()
        .find(|d| d.cluster == "stg-euw1-02" && matches!(&d.kind, DriftKind::Version { component, .. } if component == "kubernetes"))
        .expect("version drift on stg-euw1-02");
    assert_eq!(
        version.suggestion.as_deref(),
        Some("clusters[id=stg-euw1-02].versions.kubernetes: v1.31.6 -> v1.33.1")
    );
    sync.stop();
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_capacity_and_reconcile_commands() {
    let dir = tempfile::tempdir().unwrap();
    let server = demo_fleet(dir.path()).await;
    let path = dir.path().to_path_buf();
    let (snapshot, capacity, reconcile, pinned, refused) = tokio::task::spawn_blocking(move || {
        (
            fleetdeck(&path, &["snapshot", "-o", "json"]),
            fleetdeck(
                &path,
                &[
                    "capacity",
                    "--cluster",
                    "gpu-stg-use1-01",
                    "--what-if",
                    "zone=us-east-1a",
                    "--gang",
                    "8xnvidia.com/gpu",
                ],
            ),
            fleetdeck(&path, &["ledger", "reconcile", "--suggest"]),
            fleetdeck(
                &path,
                &[
                    "capacity",
                    "--cluster",
                    "prod-use1-01",
                    "--what-if",
                    "zone=us-east-1a",
                ],
            ),
            [
                // A what-if that names nothing there would report full headroom.
                vec![
                    "capacity",
                    "--cluster",
                    "prod-use1-01",
                    "--what-if",
                    "zone=us-east-1aa",
                ],
                vec![
                    "capacity",
                    "--cluster",
                    "prod-use1-01",
                    "--what-if",
                    "node=nope",
                ],
                vec![
                    "capacity",
                    "--cluster",
                    "prod-use1-01",
                    "--what-if",
                    "cluster=prod-use1-02",
                ],
                // Fleet-wide: the unreachable and mismatched clusters are not counted.
                vec!["capacity"],
                vec!["snapshot"],
                // A lost cluster, and whether its siblings take its pods.
                vec!["capacity", "--what-if", "cluster=prod-use1-02"],
                vec!["capacity", "--siblings", "env=staging"],
                vec![
                    "capacity",
                    "--what-if",
                    "cluster=prod-use1-02",
                    "--siblings",
                    "env=prodution",
                ],
                vec!["capacity", "--gang", "8xnvidia.com/gpu"],
                vec!["ledger", "reconcile", "-o", "json"],
                // Lost already: the unreachable cluster's pods are unknown.
                vec![
                    "capacity",
                    "--what-if",
                    "cluster=prod-apse1-03",
                    "-o",
                    "json",
                ],
            ]
            .map(|args| fleetdeck(&path, &args)),
        )
    })
    .await
    .unwrap();
    let [
        typo_zone,
        typo_node,
        two_clusters,
        fleet,
        table,
        lost,
        siblings_alone,
        siblings_typo,
        fleet_gang,
        reconcile_json,
        lost_unreachable,
    ] = refused;
    // Its siblings' room is the answer, and the exit says a cluster was not counted.
    assert_eq!(lost_unreachable.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&lost_unreachable.stdout).unwrap();
    let siblings = &report[0]["siblings"];
    assert_eq!(siblings["lostPodsKnown"], false, "{report}");
    for unknown in ["displacedPods", "placedPods", "unplaced", "siblings"] {
        assert!(
            siblings[unknown].is_null(),
            "{unknown} is not known: {report}"
        );
    }
    assert_eq!(siblings["roomNow"][0]["status"], "Synced", "{report}");
    let room: Vec<&str> = siblings["roomNow"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .filter_map(|r| r["cluster"].as_str())
        .collect();
    assert_eq!(
        room,
        [
            "prod-apse1-01",
            "prod-apse1-02",
            "prod-apse1-04",
            "prod-apse1-05",
            "prod-apse1-06"
        ],
        "{report}"
    );
    assert!(
        siblings["roomNow"][0]["headroom"][0]["headroomRaw"]
            .as_i64()
            .is_some_and(|cpu| cpu > 0),
        "{report}"
    );
    // Scripts read drift as fields: node counts per version, the edit as field/from/to.
    let report: serde_json::Value = serde_json::from_slice(&reconcile_json.stdout).unwrap();
    let driver = report["drift"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["cluster"] == "gpu-prod-euw1-02"))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(driver["nodes"][0]["version"], "550.127.08", "{driver}");
    assert_eq!(driver["nodes"][0]["nodes"], 8, "{driver}");
    assert_eq!(
        driver["edit"],
        serde_json::json!({"field": "versions.gpuDriver", "from": "550.127.05", "to": "550.127.08"})
    );
    assert!(
        report["notCompared"].as_array().is_some_and(|n| n
            .iter()
            .any(|n| n["component"] == "etcd" && n["why"] == "notWatched")),
        "{report}"
    );
    assert_eq!(siblings_typo.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&siblings_typo.stderr)
            .contains("--siblings env=prodution: selects no cluster other than prod-use1-02"),
        "{}",
        String::from_utf8_lossy(&siblings_typo.stderr)
    );
    // Fleet-wide, the gang is checked where GPUs are, and a last line says where it fits.
    let text = String::from_utf8_lossy(&fleet_gang.stdout);
    assert_eq!(
        text.matches("  gang 8xnvidia.com/gpu: ").count(),
        6,
        "the six GPU clusters only: {text}"
    );
    assert!(
        text.contains("gang 8xnvidia.com/gpu: fits on one node in 2 of 6 clusters with nvidia.com/gpu: gpu-prod-euw1-01, gpu-prod-euw1-02"),
        "{text}"
    );
    let text = String::from_utf8_lossy(&lost.stdout);
    assert!(lost.status.success(), "{text}");
    // The pods that go with the lost nodes are said, so "21 displaced" of a cluster
    // running more does not read as pods forgotten.
    assert!(
        text.contains("go with their nodes: DaemonSet, static)"),
        "{text}"
    );
    // Its Deployments fail over to the production clusters of us-east-1 that run them
    // (not the GPU clusters, which do not), spread over them; postgres's data stays.
    assert!(
        text.contains("siblings (env=production,region=us-east-1,lifecycle=running): 18 of 21 pods placed, 3 cannot move"),
        "{text}"
    );
    assert!(
        text.contains("    prod-use1-01: takes 3 pods; headroom CPU"),
        "{text}"
    );
    assert!(
        text.contains(
            "    run none of its workloads: gpu-prod-use1-01, gpu-prod-use1-02, gpu-prod-use1-03"
        ),
        "{text}"
    );
    assert!(
        text.contains("1 pod of StatefulSet shop/postgres: its volume keeps it in topology.kubernetes.io/zone=us-east-1a of the lost cluster"),
        "{text}"
    );
    assert!(
        text.contains("not counted (no fresh data, taking nothing): prod-use1-04"),
        "{text}"
    );
    assert_eq!(siblings_alone.status.code(), Some(2));
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let columns = |id: &str| -> Vec<String> {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("{id} in {table}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    // CLUSTER STATUS AGE IDENTITY KUBERNETES NODES: no node count without fresh data, no
    // version from whatever answers in a mismatched cluster's place.
    assert_eq!(columns("prod-apse1-03")[5], "-", "{table}");
    assert_eq!(
        columns("prod-use1-04")[2..5],
        ["-", "MISMATCH", "-"],
        "no age and no version from whatever answers in its place: {table}"
    );
    // Drift from the ledger is flagged, with where to read more.
    assert!(
        table.lines().any(|l| l.starts_with("stg-euw1-02 ")
            && l.contains("drift from the ledger: kubernetes, kubelet (ledger reconcile)")),
        "{table}"
    );
    // A drift note does not hide a capacity limit behind it: it is counted.
    assert!(
        table.lines().any(|l| l.starts_with("gpu-prod-euw1-02 ")
            && l.contains("drift from the ledger: gpuDriver (ledger reconcile); +1 capacity limit (capacity --cluster gpu-prod-euw1-02)")),
        "{table}"
    );
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(typo_zone.status.code(), Some(2), "{}", stderr(&typo_zone));
    assert!(
        stderr(&typo_zone).contains(
            "zone=us-east-1aa: no node of cluster prod-use1-01 is in it (did you mean us-east-1a?)"
        ),
        "{}",
        stderr(&typo_zone)
    );
    assert_eq!(typo_node.status.code(), Some(2));
    assert!(
        stderr(&typo_node).contains("node=nope: no such node in cluster prod-use1-01"),
        "{}",
        stderr(&typo_node)
    );
    assert_eq!(two_clusters.status.code(), Some(2));
    assert!(stderr(&two_clusters).contains("name different clusters"));
    let text = String::from_utf8_lossy(&fleet.stdout);
    assert_eq!(
        fleet.status.code(),
        Some(1),
        "not every cluster counted: {text}"
    );
    assert!(
        text.contains("prod-apse1-03 (Unreachable)")
            && text.contains("prod-use1-04 (IdentityMismatch)"),
        "the summary names what was not counted: {text}"
    );
    // The replica held in the zone that is down waits now, and says so.
    assert!(
        text.contains("limit: placement: 1 pod waits now (largest group StatefulSet shop/postgres: its volume keeps it in topology.kubernetes.io/zone=eu-west-1b, where no healthy node is left)"),
        "{text}"
    );
    assert!(
        !text.contains("every pod of StatefulSet shop/postgres"),
        "postgres keeps a replica in every zone: losing one stops nothing whole: {text}"
    );

    // The StatefulSet's replica in the lost zone is held there by its zonal volume, read
    // from the cluster's claims and volumes; its Deployment neighbours move.
    let text = String::from_utf8_lossy(&pinned.stdout);
    assert!(pinned.status.success(), "{text}");
    assert!(
        text.contains(
            "1 pod of StatefulSet shop/postgres: its volume keeps it in topology.kubernetes.io/zone=us-east-1a, where no healthy node is left"
        ),
        "{text}"
    );
    assert!(
        !text.contains("ReplicaSet"),
        "Deployment pods are re-placed: {text}"
    );

    assert_eq!(
        snapshot.status.code(),
        Some(1),
        "not every cluster is synced"
    );
    let lines: Vec<serde_json::Value> = serde_json::from_slice(&snapshot.stdout).unwrap();
    assert_eq!(
        lines.len(),
        39,
        "stg-apse1-04 is deliberately missing from the ledger"
    );
    let line = |id: &str| lines.iter().find(|l| l["id"] == id).unwrap();
    assert_eq!(line("prod-apse1-03")["status"], "Unreachable");
    assert_eq!(
        line("prod-apse1-03")["capacity"],
        serde_json::Value::Null,
        "not counted"
    );
    assert_eq!(
        line("prod-apse1-03")["nodesTotal"],
        serde_json::Value::Null,
        "no counts without fresh data"
    );
    assert_eq!(line("prod-apse1-03")["facts"]["phase"], "failing");
    let gpu = &line("gpu-stg-use1-01")["capacity"];
    assert!(
        gpu["gpuFree"].is_i64()
            && gpu["gpuTotal"] == 32
            && gpu["headroom"][0]["headroomRaw"].is_i64(),
        "{gpu}"
    );
    assert_eq!(gpu["limits"][0]["kind"], "gpuFragmented", "{gpu}");
    assert_eq!(
        line("gpu-stg-use1-01")["gpuDriverVersions"][0]["version"],
        "560.35.03"
    );
    assert_eq!(
        line("gpu-prod-euw1-02")["drift"],
        serde_json::json!(["gpuDriver"])
    );
    assert_eq!(line("gpu-stg-use1-01")["drift"], serde_json::json!([]));
    assert_eq!(line("prod-use1-04")["status"], "IdentityMismatch");
    assert_eq!(
        line("prod-use1-04")["serverVersion"],
        serde_json::Value::Null,
        "an impostor's version is another cluster's"
    );
    assert_eq!(line("prod-use1-01")["status"], "Synced");
    assert!(line("prod-use1-01")["nodesReady"].as_u64().unwrap() > 0);

    let text = String::from_utf8_lossy(&capacity.stdout);
    assert!(capacity.status.success(), "{text}");
    assert!(text.contains("gpu-stg-use1-01 — Synced"), "{text}");
    assert!(text.contains("GPU shape:"), "{text}");
    assert!(
        text.contains("what-if after losing zone us-east-1a"),
        "{text}"
    );
    // The gang is checked once the zone is lost, beside how it stands today.
    assert!(
        text.contains("gang 8xnvidia.com/gpu after losing zone us-east-1a: fits on 0 nodes"),
        "{text}"
    );
    assert!(
        text.contains("(today: fits on 0 nodes; largest on one node 7;"),
        "{text}"
    );

    // config.toml's [capacity] reaches the command: a CPU reserve of half.
    let path = dir.path().to_path_buf();
    std::fs::write(
        path.join("config.toml"),
        "[capacity.safety_reserve]\ncpu = 50\n",
    )
    .unwrap();
    let (reserved, reserved_snapshot, gpu_json) = tokio::task::spawn_blocking(move || {
        (
            fleetdeck(
                &path,
                &["capacity", "--cluster", "prod-use1-01", "-o", "json"],
            ),
            fleetdeck(&path, &["snapshot", "-o", "json"]),
            fleetdeck(
                &path,
                &[
                    "capacity",
                    "--cluster",
                    "gpu-stg-use1-01",
                    "--what-if",
                    "zone=us-east-1a",
                    "--gang",
                    "8xnvidia.com/gpu",
                    "-o",
                    "json",
                ],
            ),
        )
    })
    .await
    .unwrap();
    assert!(
        reserved.status.success(),
        "{}",
        String::from_utf8_lossy(&reserved.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&reserved.stdout).unwrap();
    let dimension = |name: &str| {
        json[0]["baseline"]["headroom"]
            .as_array()
            .and_then(|dims| dims.iter().find(|d| d["dimension"] == name))
            .cloned()
            .unwrap_or_else(|| panic!("a {name} line: {json}"))
    };
    // Half of 127.2 allocatable cores is held back; memory keeps the default (none).
    assert_eq!(dimension("CPU")["reserve"], "63.6 cores", "{json}");
    assert_eq!(dimension("memory")["reserve"], "0 MiB", "{json}");
    // The same in numbers, with their unit, for scripts.
    assert_eq!(dimension("CPU")["unit"], "millicores");
    assert_eq!(dimension("CPU")["reserveRaw"], 63_600, "{json}");
    assert_eq!(dimension("memory")["unit"], "bytes");
    // Scripts read the GPU shape, N−1, the gang and the limits as figures, not sentences.
    let gpu: serde_json::Value = serde_json::from_slice(&gpu_json.stdout).unwrap();
    let gpu = &gpu[0];
    let slots = gpu["gpu"]["slots"].as_array().expect("slots");
    assert_eq!(
        slots
            .iter()
            .map(|s| s["gpus"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 2, 4, 8],
        "{gpu}"
    );
    assert_eq!(
        slots[3]["slots"], 0,
        "no node has 8 free (the text's largest 7): {gpu}"
    );
    let domain = &gpu["gpu"]["domains"][0];
    assert!(
        domain["key"].is_string()
            && domain["freeGpus"].is_i64()
            && domain["wholeFreeNodes"].is_u64(),
        "{gpu}"
    );
    let worst = &gpu["nMinusOneWorst"][0];
    assert_eq!(worst["key"], "topology.kubernetes.io/zone", "{gpu}");
    assert!(
        worst["domain"]
            .as_str()
            .is_some_and(|d| d.starts_with("us-east-1"))
            && worst["headroomRaw"].is_i64(),
        "{gpu}"
    );
    let gang = &gpu["gang"];
    assert_eq!(gang["size"], 8, "{gpu}");
    assert_eq!(gang["resource"], "nvidia.com/gpu", "{gpu}");
    assert_eq!(gang["whatIf"], "after losing zone us-east-1a", "{gpu}");
    assert_eq!(gang["fit"]["nodesThatFit"], 0, "{gpu}");
    assert_eq!(gang["today"]["largestOnOneNode"], 7, "{gpu}");
    assert!(
        gpu["limits"].as_array().is_some_and(|l| l
            .iter()
            .all(|l| l["kind"].is_string() && l["text"].is_string())),
        "{gpu}"
    );
    // `snapshot` shows the same headroom, after the reserve.
    let lines: Vec<serde_json::Value> = serde_json::from_slice(&reserved_snapshot.stdout).unwrap();
    let cpu = lines
        .iter()
        .find(|l| l["id"] == "prod-use1-01")
        .map(|l| l["capacity"]["cpu"].clone())
        .unwrap();
    assert_eq!(
        cpu,
        format!(
            "{} headroom of 127.2 cores",
            dimension("CPU")["headroom"].as_str().unwrap()
        ),
        "{cpu}"
    );

    let text = String::from_utf8_lossy(&reconcile.stdout);
    assert_eq!(reconcile.status.code(), Some(1));
    assert!(
        text.lines()
            .any(|l| l.starts_with("prod-use1-04 ") && l.contains(" identity ")),
        "{text}"
    );
    assert!(
        text.contains("clusters[id=stg-euw1-02].versions.kubernetes: v1.31.6 -> v1.33.1"),
        "{text}"
    );
    assert_eq!(text.matches("-> v1.33.1").count(), 1, "{text}");
    // The GPU driver is read from GPU feature discovery's node labels.
    assert!(
        text.lines().any(|l| l.starts_with("gpu-prod-euw1-02 ")
            && l.contains("gpuDriver version")
            && l.ends_with("ledger 550.127.05, live 550.127.08 (8 nodes)")),
        "{text}"
    );
    assert!(
        text.contains("clusters[id=gpu-prod-euw1-02].versions.gpuDriver: 550.127.05 -> 550.127.08"),
        "{text}"
    );
    // What nothing watched can confirm is said, not passed over as matching.
    assert!(
        text.contains("etcd on 37 clusters: nothing fleetdeck watches reports it"),
        "{text}"
    );
    assert!(
        !text.contains("gpuDriver on"),
        "every GPU node is labelled: {text}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_synced_cluster_stays_fresh_for_readers_judging_its_published_facts() {
    // The console judges published facts against its own clock; a cluster with nothing
    // changing but bookmarks flowing must not age into Unknown there.
    let dir = tempfile::tempdir().unwrap();
    let mut scenario = fleetdeck::sim::Scenario::load("demo").expect("demo scenario");
    scenario.settings.bookmark_seconds = 0.3;
    let fleet = SimFleet::from_scenario(&scenario, 1, 1.0).expect("fleet");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let stale_after = Duration::from_secs(2);
    let mut options = FleetSyncOptions::default();
    options.cluster.stale_after = stale_after;
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    sync.wait_settled(Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let snapshot = sync.snapshots.borrow().clone();
    let synced = snapshot
        .clusters
        .iter()
        .filter(|c| c.status == ClusterStatus::Synced)
        .count();
    assert!(synced > 0, "some clusters are synced");
    let aged = snapshot.aged(jiff::Timestamp::now(), stale_after);
    let turned: Vec<&str> = aged
        .iter()
        .flat_map(|a| a.clusters.iter())
        .zip(snapshot.clusters.iter())
        .filter(|(now, was)| now.status != was.status)
        .map(|(now, _)| &*now.id)
        .collect();
    assert!(turned.is_empty(), "read as stale although fine: {turned:?}");
    sync.stop();
    server.shutdown().await;
}

/// The age readers see of an idle cluster's data stays well under the UNKNOWN limit:
/// bookmarks every 3 s against a 10 s limit (a real server's minute against 150 s, scaled),
/// the age a reader judges from the published facts never passes 60 % of the limit. It
/// is the bookmark gap plus how long a newer sign of life waits to be published; waiting
/// for a third of the limit, as before, let it reach ~90 %.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_clusters_data_age_keeps_a_wide_margin_under_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut scenario = fleetdeck::sim::Scenario::load("small").expect("small scenario");
    scenario.settings.bookmark_seconds = 3.0;
    let fleet = SimFleet::from_scenario(&scenario, 1, 1.0).expect("fleet");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let stale_after = Duration::from_secs(10);
    let mut options = FleetSyncOptions::default();
    options.cluster.stale_after = stale_after;
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    let settled = sync.wait_settled(Duration::from_secs(30)).await;
    // Let the first lists' freshness wear off: wait until every cluster has been heard
    // from again since it settled; from here on only bookmarks refresh it.
    let listed: std::collections::HashMap<Arc<str>, Option<jiff::Timestamp>> = settled
        .clusters
        .iter()
        .map(|c| (c.id.clone(), c.facts.last_ok))
        .collect();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let snapshot = sync.snapshots.borrow().clone();
        let refreshed = snapshot
            .clusters
            .iter()
            .all(|c| c.facts.last_ok > listed.get(&c.id).copied().flatten());
        if refreshed {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not every cluster was heard from again after it settled"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut oldest = Duration::ZERO;
    let until = std::time::Instant::now() + Duration::from_secs(20);
    while std::time::Instant::now() < until {
        let snapshot = sync.snapshots.borrow().clone();
        let now = jiff::Timestamp::now();
        for cluster in snapshot.clusters.iter() {
            assert_eq!(cluster.status, ClusterStatus::Synced, "{}", cluster.id);
            let seen = cluster.facts.last_ok.expect("heard from");
            let age = Duration::try_from(now.duration_since(seen)).unwrap_or_default();
            oldest = oldest.max(age);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        oldest < stale_after.mul_f64(0.6),
        "an idle cluster's data read {oldest:?} old against a {stale_after:?} limit"
    );
    sync.stop();
    server.shutdown().await;
}

/// A cluster rebuilt behind the same address (its watches fail and list again) has its
/// identity read again: the new kube-system UID is not the pinned one, so it turns
/// IdentityMismatch and may no longer be changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_rebuilt_behind_the_same_address_turns_identity_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    sync.wait_settled(Duration::from_secs(30)).await;
    let verdict = |sync: &FleetSync| {
        sync.snapshots
            .borrow()
            .cluster("small-01")
            .and_then(|c| c.identity_verdict.clone())
    };
    assert!(
        matches!(
            verdict(&sync),
            Some(fleetdeck::model::live::IdentityVerdict::Match)
        ),
        "{:?}",
        verdict(&sync)
    );
    fleet.rebuild_identity("small-01").unwrap();
    let mismatched = wait_for_cluster(&sync, "small-01", 30, |c| {
        c.status == ClusterStatus::IdentityMismatch
    })
    .await;
    assert!(fleetdeck::model::live::may_change(mismatched.identity_verdict.as_ref()).is_err());
    // The other clusters are untouched.
    let snapshot = sync.snapshots.borrow().clone();
    assert_eq!(
        snapshot.cluster("small-02").map(|c| c.status),
        Some(ClusterStatus::Synced)
    );
    sync.stop();
    server.shutdown().await;
}

/// While a cluster's identity is read again after its watches had to list again, what
/// the watches bring keeps being applied: a slow identity read holds no news back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn news_keeps_coming_while_the_identity_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut options = FleetSyncOptions::default();
    options.cluster.identity_timeout = Duration::from_secs(60);
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    sync.wait_settled(Duration::from_secs(30)).await;
    let node = cluster_now(&sync, "small-01").view.nodes[0]
        .name
        .to_string();
    // Reading the kube-system namespace now takes 30 s; everything else is quick.
    fleet
        .update_faults("small-01", |f| {
            f.slow_resources.insert("namespaces".into(), 30_000);
        })
        .unwrap();
    // The watches are cut and must list again, which has the identity read again; then
    // the node's kubelet stops reporting.
    fleet.compact("small-01").unwrap();
    fleet.cut_watches("small-01").unwrap();
    let cut = std::time::Instant::now();
    fleet
        .update_faults("small-01", |f| f.not_ready_nodes = vec![node.clone()])
        .unwrap();
    let seen = wait_for_cluster(&sync, "small-01", 60, |c| {
        c.view
            .nodes
            .iter()
            .any(|n| n.name.to_string() == node && n.readiness != Readiness::Ready)
    })
    .await;
    // Held back, the news would come only once the 30 s read is answered.
    assert!(
        cut.elapsed() < Duration::from_secs(20),
        "the node's news waited {:?} for the identity read",
        cut.elapsed()
    );
    assert!(
        seen.identity_verdict.is_none(),
        "nothing vouches for the cluster until its identity is read again: {:?}",
        seen.identity_verdict
    );
    sync.stop();
    server.shutdown().await;
}

/// A cluster whose first list is refused (no RBAC to read PDBs) gives its initial-list
/// slot back: with one slot, every other cluster still reaches a verdict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_whose_first_list_is_refused_does_not_keep_the_others_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    for id in ["small-01", "small-02"] {
        fleet
            .update_faults(id, |f| {
                f.forbidden_resources = vec!["poddisruptionbudgets".into()]
            })
            .unwrap();
    }
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let options = FleetSyncOptions {
        initial_list_concurrency: 1,
        ..FleetSyncOptions::default()
    };
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    let snapshot = sync.wait_settled(Duration::from_secs(20)).await;
    let statuses: Vec<(String, ClusterStatus)> = snapshot
        .clusters
        .iter()
        .map(|c| (c.id.to_string(), c.status))
        .collect();
    assert!(snapshot.settled(), "{statuses:?}");
    assert_eq!(
        snapshot.cluster("small-stg-01").map(|c| c.status),
        Some(ClusterStatus::Synced),
        "{statuses:?}"
    );
    for id in ["small-01", "small-02"] {
        let cluster = snapshot.cluster(id).unwrap();
        assert!(!cluster.status.data_usable(), "{statuses:?}");
        assert!(
            cluster
                .last_error
                .as_deref()
                .is_some_and(|e| e.contains("forbidden")),
            "{:?}",
            cluster.last_error
        );
    }
    sync.stop();
    server.shutdown().await;
}

/// The data is as old as its oldest part: when the pods can no longer be listed again
/// while the nodes' watch keeps answering, the cluster turns Unknown once the pods are
/// stale, rather than staying Degraded (and counted) on a frozen view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_that_cannot_list_again_ages_the_whole_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let mut scenario = fleetdeck::sim::Scenario::load("small").expect("small scenario");
    scenario.settings.bookmark_seconds = 0.3;
    let fleet = SimFleet::from_scenario(&scenario, 1, 1.0).expect("fleet");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut options = FleetSyncOptions::default();
    options.cluster.stale_after = Duration::from_secs(2);
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    sync.wait_settled(Duration::from_secs(30)).await;
    assert_eq!(cluster_now(&sync, "small-01").status, ClusterStatus::Synced);
    // The pods may no longer be read, and every watch must list again.
    fleet
        .update_faults("small-01", |f| f.forbidden_resources = vec!["pods".into()])
        .unwrap();
    fleet.cut_watches("small-01").unwrap();
    wait_for_cluster(&sync, "small-01", 20, |c| {
        c.status == ClusterStatus::Unknown
    })
    .await;
    let snapshot = sync.snapshots.borrow().clone();
    assert!(!snapshot.cluster("small-01").unwrap().status.data_usable());
    sync.stop();
    server.shutdown().await;
}

/// A server (or proxy) that closes every watch without a word is not a sign of life, and
/// the watches are not reopened in a tight loop: they back off as after a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_closed_without_a_word_back_off_and_age_the_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut options = FleetSyncOptions::default();
    options.cluster.stale_after = Duration::from_secs(3);
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    sync.wait_settled(Duration::from_secs(30)).await;
    let cluster = |sync: &FleetSync| cluster_now(sync, "small-01");
    assert_eq!(cluster(&sync).status, ClusterStatus::Synced);
    // Every watch from now on is closed as soon as it is opened.
    fleet
        .update_faults("small-01", |f| f.drop_watches_after_seconds = Some(0.0))
        .unwrap();
    fleet.cut_watches("small-01").unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = cluster(&sync).requests_sent;
    tokio::time::sleep(Duration::from_secs(4)).await;
    let sent = cluster(&sync).requests_sent - before;
    // Five watches backing off from 0.5 s doubling: a handful of requests each, where a
    // tight loop would send as many as the request budget allows (10 per second).
    assert!(sent <= 25, "{sent} requests in 4 s");
    let unknown = wait_for_cluster(&sync, "small-01", 20, |c| {
        c.status == ClusterStatus::Unknown
    })
    .await;
    // Nothing failed, so the only reason is the silence, and it is given.
    assert!(
        unknown
            .last_error
            .as_deref()
            .is_some_and(|e| e.starts_with("nothing heard for ")),
        "{:?}",
        unknown.last_error
    );
    sync.stop();
    server.shutdown().await;
}

/// A server that accepts connections and never answers reads as Unreachable within the
/// identity timeout, not Connecting for as long as the watch-sized read timeout allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_server_is_unreachable_within_the_identity_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    fleet
        .update_faults("small-01", |f| {
            f.unreachable = Some(fleetdeck::sim::Unreachable::Hanging)
        })
        .unwrap();
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut options = FleetSyncOptions::default();
    options.cluster.identity_timeout = Duration::from_secs(2);
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    let snapshot = sync.wait_settled(Duration::from_secs(15)).await;
    let hung = snapshot.cluster("small-01").unwrap();
    assert_eq!(
        hung.status,
        ClusterStatus::Unreachable,
        "{:?}",
        hung.last_error
    );
    assert!(
        hung.last_error
            .as_deref()
            .is_some_and(|e| e.contains("no answer in 2s")),
        "{:?}",
        hung.last_error
    );
    assert_eq!(
        snapshot.cluster("small-02").map(|c| c.status),
        Some(ClusterStatus::Synced)
    );
    sync.stop();
    server.shutdown().await;
}

/// `snapshot` with its default wait ends with a verdict for a hung cluster: the default
/// identity timeout is well inside the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_with_the_default_wait_judges_a_hung_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    fleet
        .update_faults("small-01", |f| {
            f.unreachable = Some(fleetdeck::sim::Unreachable::Hanging)
        })
        .unwrap();
    let (server, _ledger, _kubeconfig) = serve(&fleet, dir.path()).await;
    let path = dir.path().to_path_buf();
    let out = tokio::task::spawn_blocking(move || fleetdeck(&path, &["snapshot", "-o", "json"]))
        .await
        .unwrap();
    let lines: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let hung = lines.iter().find(|l| l["id"] == "small-01").unwrap();
    assert_eq!(hung["status"], "Unreachable", "{hung}");
    assert!(
        hung["lastError"]
            .as_str()
            .is_some_and(|e| e.contains("no answer in 10s")),
        "{hung}"
    );
    server.shutdown().await;
}

/// A synced cluster whose server hangs and whose watches are cut reads Unreachable once a
/// new watch goes unanswered for the watch-start timeout, rather than Synced until its
/// data ages out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_that_hangs_after_its_sync_turns_unreachable_within_the_watch_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut options = FleetSyncOptions::default();
    options.cluster.reflect.watch_start_timeout = Duration::from_secs(2);
    options.cluster.identity_timeout = Duration::from_secs(2);
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    sync.wait_settled(Duration::from_secs(30)).await;
    assert_eq!(cluster_now(&sync, "small-01").status, ClusterStatus::Synced);
    fleet
        .update_faults("small-01", |f| {
            f.unreachable = Some(fleetdeck::sim::Unreachable::Hanging)
        })
        .unwrap();
    fleet.cut_watches("small-01").unwrap();
    let hung = wait_for_cluster(&sync, "small-01", 10, |c| {
        c.status == ClusterStatus::Unreachable
    })
    .await;
    assert!(
        hung.last_error
            .as_deref()
            .is_some_and(|e| e.contains("not answered in 2s") || e.contains("no answer in 2s")),
        "{:?}",
        hung.last_error
    );
    assert_eq!(cluster_now(&sync, "small-02").status, ClusterStatus::Synced);
    sync.stop();
    server.shutdown().await;
}

/// One failed first list is retried without a word: waiting for a verdict does not end
/// on it with the cluster read as Unknown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_failed_first_list_does_not_end_the_wait_with_a_wrong_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    // Every cluster's first list fails once, so that all of them would read Unknown at
    // the same moment (no cluster still connecting keeps the wait going).
    for id in fleet.cluster_ids() {
        fleet.update_faults(&id, |f| f.fail_next_lists = 1).unwrap();
    }
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let snapshot = sync.wait_settled(Duration::from_secs(30)).await;
    for id in fleet.cluster_ids() {
        assert_eq!(
            fleet.faults(&id).unwrap().fail_next_lists,
            0,
            "a list failed"
        );
    }
    let statuses: Vec<(String, ClusterStatus)> = snapshot
        .clusters
        .iter()
        .map(|c| (c.id.to_string(), c.status))
        .collect();
    assert!(
        statuses.iter().all(|(_, s)| *s == ClusterStatus::Synced),
        "{statuses:?}"
    );
    sync.stop();
    server.shutdown().await;
}

/// A server that answers the identity read with 403 is reachable: the cluster reads
/// UNKNOWN with the reason, not Unreachable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_that_refuses_the_identity_read_is_reachable_but_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let (_fleet, server, mut sync) = small_refusing(dir.path(), "namespaces").await;
    let snapshot = sync.wait_settled(Duration::from_secs(30)).await;
    let refused = snapshot.cluster("small-01").unwrap();
    assert_eq!(refused.status, ClusterStatus::Unknown);
    assert!(
        refused
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("identity check") && e.contains("forbidden")),
        "{:?}",
        refused.last_error
    );
    sync.stop();
    server.shutdown().await;
}

/// A role without access to PersistentVolumes (cluster-scoped, so left out of roles
/// built from namespace `view`) costs the volume pins only: the cluster is usable and
/// counted, reads Degraded naming what is missing, and keeps its confirmed identity (so
/// changes to it are allowed). Once the role is fixed it reads Synced and pins pods again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_that_refuses_persistent_volumes_stays_usable_without_volume_pins() {
    let dir = tempfile::tempdir().unwrap();
    let (fleet, server, mut sync) = small_refusing(dir.path(), "persistentvolumes").await;
    let cluster = |sync: &FleetSync| cluster_now(sync, "small-01");
    let degraded = wait_for_cluster(&sync, "small-01", 20, |c| {
        c.status == ClusterStatus::Degraded
    })
    .await;
    assert!(degraded.status.data_usable());
    assert!(degraded.status.allows_actions());
    assert!(!degraded.view.pods.is_empty(), "its pods are counted");
    assert!(
        degraded
            .view
            .pods
            .iter()
            .all(|p| p.required_domain.is_none()),
        "no volume, no pin"
    );
    // But not "free to move" either: the view says its volume data is missing, and which
    // pods mount claims.
    assert!(
        degraded
            .view
            .volumes_unreadable
            .as_deref()
            .is_some_and(|why| why.starts_with("persistentvolumes cannot be read")),
        "{:?}",
        degraded.view.volumes_unreadable
    );
    assert!(degraded.view.pods.iter().any(|p| p.mounts_claims));
    assert!(
        degraded
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("persistentvolumes cannot be read")),
        "{:?}",
        degraded.last_error
    );
    // Still so while the refused list is retried.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(cluster(&sync).identity_verdict.is_some());
    assert_eq!(cluster(&sync).status, ClusterStatus::Degraded);

    fleet
        .update_faults("small-01", |f| f.forbidden_resources.clear())
        .unwrap();
    let fixed = wait_for_cluster(&sync, "small-01", 60, |c| {
        c.status == ClusterStatus::Synced && c.view.pods.iter().any(|p| p.required_domain.is_some())
    })
    .await;
    assert_eq!(fixed.view.volumes_unreadable, None);
    sync.stop();
    server.shutdown().await;
}

/// The same for claims: a role that may not read PersistentVolumeClaims costs the pins
/// only, and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_that_refuses_claims_stays_usable_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (_fleet, server, mut sync) = small_refusing(dir.path(), "persistentvolumeclaims").await;
    let snapshot = sync.wait_settled(Duration::from_secs(30)).await;
    let refusing = snapshot.cluster("small-01").unwrap();
    assert_eq!(
        refusing.status,
        ClusterStatus::Degraded,
        "{:?}",
        refusing.last_error
    );
    assert!(refusing.status.allows_actions());
    assert!(
        refusing
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("persistentvolumeclaims cannot be read")),
        "{:?}",
        refusing.last_error
    );
    assert!(
        refusing
            .view
            .pods
            .iter()
            .all(|p| p.required_domain.is_none())
    );
    sync.stop();
    server.shutdown().await;
}

/// A regional volume (replicated in its pod's zone and the next) pins its pod to both
/// zones: losing the pod's zone moves it to the other one instead of stranding it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_regional_volume_lets_its_pod_move_to_its_second_zone() {
    let dir = tempfile::tempdir().unwrap();
    let mut scenario = fleetdeck::sim::Scenario::load("small").expect("small scenario");
    scenario.groups[0].workloads.stateful_sets = Some(fleetdeck::sim::StatefulSets {
        replicas: 3,
        cpu_millis: 200,
        memory_mi: 256,
        regional: true,
        ..Default::default()
    });
    let fleet = SimFleet::from_scenario(&scenario, 7, 1.0).expect("regional postgres");
    let (server, ledger, kubeconfig) = serve(&fleet, dir.path()).await;
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let cluster = wait_for_cluster(&sync, "small-01", 30, |c| {
        c.status == ClusterStatus::Synced && c.view.pods.iter().any(|p| p.required_domain.is_some())
    })
    .await;
    let pod = cluster
        .view
        .pods
        .iter()
        .find(|p| &*p.name == "postgres-0")
        .expect("postgres-0");
    let zone = pod
        .node
        .as_ref()
        .and_then(|n| cluster.view.nodes.iter().find(|node| node.name == *n))
        .and_then(|node| node.labels.get("topology.kubernetes.io/zone"))
        .map(|z| z.to_string())
        .expect("postgres-0 runs on a zoned node");
    let domain = pod.required_domain.clone().expect("pinned by its volume");
    assert_eq!(domain.values.len(), 2, "{domain}");
    assert!(domain.admits(Some(&Arc::from(zone.as_str()))), "{domain}");
    sync.stop();

    let path = dir.path().to_path_buf();
    let what_if = format!("zone={zone}");
    let out = tokio::task::spawn_blocking(move || {
        fleetdeck(
            &path,
            &["capacity", "--cluster", "small-01", "--what-if", &what_if],
        )
    })
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("what-if after losing zone {zone}")),
        "{text}"
    );
    assert!(!text.contains("shop/postgres"), "postgres-0 moves: {text}");
    server.shutdown().await;
}
