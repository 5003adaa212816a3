//! Identity pinning where a person acts: `maintenance start` plans only on a cluster whose
//! kube-system UID and API server match what the ledger pins (the demo fleet's
//! `prod-use1-04` answers with another UID than its ledger entry; `prod-use1-05` matches;
//! `prod-apse1-03` refuses connections). A start refused there is journaled as
//! `operator.refused`; a dry run records nothing.

use crate::support;
use crate::support::rollout::Workspace;
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, ListParams};

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
        .find(|n| !fleetdeck::k8s::nodes::facts_of(n).unavailable)
        .and_then(|n| n.metadata.name.clone())
        .expect("a Ready node")
}

fn maintenance(cluster: &str, node: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n"
    )
}

fn dry_run_start(ws: &Workspace, file: &str) -> std::process::Output {
    support::cli::fleetdeck(
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

/// The `operator.refused` events about `cluster`, as `fleetdeck journal` lists them.
fn refusals_about(ws: &Workspace, cluster: &str) -> Vec<serde_json::Value> {
    let out = ws.fleetdeck(
        "carol@ops",
        &[
            "journal",
            "--kind",
            "operator.refused",
            "--cluster",
            cluster,
            "-o",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", support::cli::text(&out));
    serde_json::from_slice(&out.stdout).expect("journal json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_maintenance_start_refused_for_its_cluster_is_journaled() {
    let ws = Workspace::new("demo", 1, "", "").await;
    let impostor = ready_node(&ws, "prod-use1-04").await;
    std::fs::write(
        ws.path().join("unreachable.yaml"),
        maintenance("prod-apse1-03", "prod-apse1-03-n000"),
    )
    .expect("write");
    std::fs::write(
        ws.path().join("impostor.yaml"),
        maintenance("prod-use1-04", &impostor),
    )
    .expect("write");

    // A dry run refused records nothing; nor does read-only mode.
    let dry = ws.fleetdeck(
        "bob@ops",
        &["maintenance", "start", "unreachable.yaml", "--dry-run"],
    );
    assert!(!dry.status.success(), "{}", support::cli::text(&dry));
    let readonly = ws.fleetdeck(
        "bob@ops",
        &["--readonly", "maintenance", "start", "unreachable.yaml"],
    );
    assert!(
        !readonly.status.success(),
        "{}",
        support::cli::text(&readonly)
    );
    assert!(
        !ws.path().join("journal.sqlite").exists()
            || refusals_about(&ws, "prod-apse1-03").is_empty(),
        "nothing journaled by a dry run or in read-only mode"
    );

    let refused = ws.fleetdeck("bob@ops", &["maintenance", "start", "unreachable.yaml"]);
    let said = support::cli::text(&refused);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("prod-apse1-03: refusing to plan maintenance: Unreachable"),
        "{said}"
    );
    let events = refusals_about(&ws, "prod-apse1-03");
    let [event] = events.as_slice() else {
        panic!("one refusal about prod-apse1-03: {events:#?}")
    };
    assert_eq!(event["actor"], "bob@ops");
    assert_eq!(event["cluster"], "prod-apse1-03");
    assert_eq!(event["run"], serde_json::Value::Null, "no run was started");
    assert_eq!(event["payload"]["command"], "start-maintenance");
    let reason = event["payload"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("maintenance patch on prod-apse1-03: Unreachable: "),
        "the reason with what lies underneath: {reason}"
    );

    let refused = ws.fleetdeck("bob@ops", &["maintenance", "start", "impostor.yaml"]);
    assert!(
        !refused.status.success(),
        "{}",
        support::cli::text(&refused)
    );
    let events = refusals_about(&ws, "prod-use1-04");
    let [event] = events.as_slice() else {
        panic!("one refusal about prod-use1-04: {events:#?}")
    };
    let reason = event["payload"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(
            "maintenance patch on prod-use1-04: identity mismatch: kube-system UID is"
        ),
        "{reason}"
    );
    // Nothing else was journaled: no run started.
    let all = ws.fleetdeck("carol@ops", &["journal", "-o", "json"]);
    let all: Vec<serde_json::Value> = serde_json::from_slice(&all.stdout).expect("journal json");
    assert_eq!(all.len(), 2, "{all:#?}");
}
