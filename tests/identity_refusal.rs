//! Identity pinning where a person acts: `maintenance start` plans only on a cluster whose
//! kube-system UID and API server match what the ledger pins (the demo fleet's
//! `prod-use1-04` answers with another UID than its ledger entry; `prod-use1-05` matches).

mod cli_support;
mod rollout_support;

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, ListParams};
use rollout_support::Workspace;

/// A node of `cluster` that is Ready and not cordoned.
async fn ready_node(ws: &Workspace, cluster: &str) -> String {
    let client = ws.fleet.client(cluster).expect("cluster");
    let nodes = Api::<Node>::all(client)
        .list(&ListParams::default())
        .await
        .expect("nodes");
    nodes
        .items
        .iter()
        .find(|n| !fleetdeck::engine::start::facts_of(n).unavailable)
        .and_then(|n| n.metadata.name.clone())
        .expect("a Ready node")
}

fn maintenance(cluster: &str, node: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n"
    )
}

fn dry_run_start(ws: &Workspace, file: &str) -> std::process::Output {
    cli_support::fleetdeck(
        &[
            "--ledger",
            "ledger.yaml",
            "--kubeconfig",
            "kubeconfig",
            "maintenance",
            "start",
            file,
            "--dry-run",
        ],
        ws.path(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn maintenance_is_planned_only_on_the_pinned_cluster() {
    let ws = Workspace::new("demo", 1, "", "").await;
    let impostor = ready_node(&ws, "prod-use1-04").await;
    let pinned = ready_node(&ws, "prod-use1-05").await;
    std::fs::write(
        ws.path().join("impostor.yaml"),
        maintenance("prod-use1-04", &impostor),
    )
    .expect("write");
    std::fs::write(
        ws.path().join("pinned.yaml"),
        maintenance("prod-use1-05", &pinned),
    )
    .expect("write");

    let refused = dry_run_start(&ws, "impostor.yaml");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "refused: {stderr}");
    assert!(
        stderr.contains(
            "prod-use1-04: refusing to plan maintenance: identity mismatch: kube-system UID is"
        ),
        "{stderr}"
    );
    assert!(
        refused.stdout.is_empty(),
        "nothing is planned on an impostor"
    );

    let planned = dry_run_start(&ws, "pinned.yaml");
    let stdout = String::from_utf8_lossy(&planned.stdout);
    assert!(
        planned.status.success(),
        "{}",
        String::from_utf8_lossy(&planned.stderr)
    );
    assert!(stdout.contains(&format!("batch 1: {pinned}")), "{stdout}");
    assert!(stdout.contains("dry run: nothing recorded"), "{stdout}");
}
