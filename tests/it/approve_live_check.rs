//! `rollout approve` reaches every cluster of the batch to approve first (identity checked
//! against the ledger's pin, as `maintenance start` does): a batch holding a cluster that
//! cannot take actions is refused before any approval is journaled, naming the cluster and
//! its reason and the way out, and the refusal is journaled as `operator.refused`. The
//! demo fleet's `prod-apse1-03` refuses connections.

use std::time::Duration;

use crate::support;
use crate::support::rollout::{Live, Workspace};
use fleetdeck::journal::JournalStore;
use fleetdeck::model::rollout::BatchPhase;
use fleetdeck::model::run::RunId;

const MANIFESTS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: search-settings\n  namespace: default\ndata:\n  version: \"2\"\n";

/// prod-apse1-01..06 in ledger order: the first batch is 01, 02 and 03.
const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: search-settings-2
  bundle: {app: search-settings-2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: "env=production,region=ap-southeast-1"
stages:
  - {name: first, count: 3, batchSize: 3, soak: 1s, approval: required, pick: ordered}
  - {name: rest, batchSize: 3, soak: 1s, approval: required, pick: ordered}
budgets: {maxInFlight: 3}
stopWhen:
  failedClusters: 1
  unknownMetrics: ignore
"#;

/// Starts the rollout as alice and runs an executor in the test until the first batch
/// awaits approval; the live view, the executor (for reading the journal) and the run's id.
async fn first_batch_awaiting_approval(
    ws: &Workspace,
) -> (Live, support::rollout::InProcess, String) {
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let live = Live::new(ws).await;
    let mut executor = live.executor(ws, "executor-a", None);
    for _ in 0..100 {
        executor.pass().await.expect("pass");
        let projection = executor.store().projection().expect("projection");
        let waiting = projection.runs.values().find_map(|run| {
            (run.rollout.batches.get(&0) == Some(&BatchPhase::AwaitingApproval))
                .then(|| run.id.clone())
        });
        if let Some(RunId(run)) = waiting {
            return (live, executor, run);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the first batch never awaited approval");
}

/// Nothing was approved and the batch still waits.
fn still_waiting(executor: &support::rollout::InProcess, run: &str) {
    let projection = executor.store().projection().expect("projection");
    let view = &projection.runs[&RunId(run.to_string())];
    assert!(view.approvals.is_empty(), "nothing approved");
    assert_eq!(
        view.rollout.batches.get(&0),
        Some(&BatchPhase::AwaitingApproval)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_a_batch_with_an_unreachable_cluster_is_refused_naming_it() {
    let ws = Workspace::new("demo", 1, MANIFESTS, ROLLOUT).await;
    let (_live, executor, run) = first_batch_awaiting_approval(&ws).await;

    let refused = tokio::task::block_in_place(|| {
        ws.fleetdeck("bob@ops", &["rollout", "approve", &run, "--note", "go"])
    });
    let why = support::cli::text(&refused);
    assert_eq!(refused.status.code(), Some(1), "refused: {why}");
    assert!(
        why.contains(
            "batch 1 cannot be approved now: prod-apse1-03 (Unreachable) cannot take actions"
        ),
        "{why}"
    );
    assert!(why.contains("pause or abort the run, or wait"), "{why}");
    assert!(
        !why.contains("prod-apse1-01") && !why.contains("prod-apse1-02"),
        "only the clusters that cannot act are named: {why}"
    );
    still_waiting(&executor, &run);
}

/// A cluster the ledger pins no identity for may be read but not changed: approving its
/// batch is refused naming it as not pinned, not as another cluster answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_a_batch_with_an_unpinned_cluster_names_it_as_not_pinned() {
    let ws = Workspace::new("demo", 1, MANIFESTS, ROLLOUT).await;
    let (_live, executor, run) = first_batch_awaiting_approval(&ws).await;
    // From now on the ledger pins nothing for prod-apse1-02 (it answers as itself).
    let mut ledger = fleetdeck::sim::ledger(&ws.fleet, ws.addr);
    let unpinned = ledger["clusters"]
        .as_array_mut()
        .and_then(|all| all.iter_mut().find(|c| c["id"] == "prod-apse1-02"))
        .and_then(|c| c.as_object_mut())
        .and_then(|c| c.remove("identity"));
    assert!(unpinned.is_some(), "the ledger pinned prod-apse1-02");
    std::fs::write(
        ws.path().join("ledger.yaml"),
        serde_json::to_string_pretty(&ledger).expect("json"),
    )
    .expect("write ledger");

    let refused = tokio::task::block_in_place(|| {
        ws.fleetdeck("bob@ops", &["rollout", "approve", &run, "--note", "go"])
    });
    let why = support::cli::text(&refused);
    assert!(!refused.status.success(), "{why}");
    assert!(
        why.contains("prod-apse1-02 (the ledger pins no identity)"),
        "named as not pinned: {why}"
    );
    assert!(
        !why.contains("mismatch") && !why.contains("IdentityMismatch"),
        "not called a mismatch: {why}"
    );
    assert!(why.contains("prod-apse1-03 (Unreachable)"), "{why}");
    assert!(
        !why.contains("prod-apse1-01"),
        "a pinned, reachable cluster is not named: {why}"
    );
    still_waiting(&executor, &run);
}

/// The batch's clusters are reached at the same time, each within the reach timeout (10s):
/// two that never answer cost one timeout, not two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clusters_of_a_batch_are_reached_at_once() {
    let ws = Workspace::new("demo", 1, MANIFESTS, ROLLOUT).await;
    let (_live, executor, run) = first_batch_awaiting_approval(&ws).await;
    for hung in ["prod-apse1-01", "prod-apse1-02"] {
        ws.fleet
            .update_faults(hung, |f| {
                f.unreachable = Some(fleetdeck::sim::Unreachable::Hanging)
            })
            .expect("cluster");
    }

    let began = std::time::Instant::now();
    let refused = tokio::task::block_in_place(|| {
        ws.fleetdeck("bob@ops", &["rollout", "approve", &run, "--note", "go"])
    });
    let took = began.elapsed();
    let why = support::cli::text(&refused);
    assert!(!refused.status.success(), "{why}");
    assert!(
        why.contains("prod-apse1-01 (Unreachable), prod-apse1-02 (Unreachable), prod-apse1-03 (Unreachable) cannot take actions"),
        "{why}"
    );
    assert!(
        took >= Duration::from_secs(9) && took < Duration::from_secs(18),
        "one reach timeout for both hung clusters, took {took:?}"
    );
    still_waiting(&executor, &run);
}

/// The `operator.refused` events `fleetdeck journal` lists with `filter` (as JSON).
fn refused_events(ws: &Workspace, filter: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["journal", "--kind", "operator.refused", "-o", "json"];
    args.extend_from_slice(filter);
    let out = ws.fleetdeck("carol@ops", &args);
    assert!(out.status.success(), "{}", support::cli::text(&out));
    serde_json::from_slice(&out.stdout).expect("journal json")
}

/// The refused approval is in the audit trail: bob's, about the run and the cluster that
/// could not act, with the reason he was given; read-only mode writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_refused_for_a_cluster_is_journaled_naming_the_cluster() {
    let ws = Workspace::new("demo", 1, MANIFESTS, ROLLOUT).await;
    let (_live, executor, run) = first_batch_awaiting_approval(&ws).await;

    let readonly = tokio::task::block_in_place(|| {
        ws.fleetdeck(
            "bob@ops",
            &["--readonly", "rollout", "approve", &run, "--note", "go"],
        )
    });
    assert!(!readonly.status.success());
    assert!(
        refused_events(&ws, &[]).is_empty(),
        "read-only mode journals nothing"
    );

    let refused = tokio::task::block_in_place(|| {
        ws.fleetdeck("bob@ops", &["rollout", "approve", &run, "--note", "go"])
    });
    assert!(
        !refused.status.success(),
        "{}",
        support::cli::text(&refused)
    );
    let events = refused_events(&ws, &["--cluster", "prod-apse1-03"]);
    let [event] = events.as_slice() else {
        panic!("one refusal about prod-apse1-03: {events:#?}")
    };
    assert_eq!(event["actor"], "bob@ops");
    assert_eq!(event["run"], run.as_str());
    assert_eq!(event["cluster"], "prod-apse1-03");
    assert_eq!(event["payload"]["command"], "approve");
    let reason = event["payload"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(
            "batch 1 cannot be approved now: prod-apse1-03 (Unreachable) cannot take actions"
        ),
        "{reason}"
    );
    assert_eq!(
        refused_events(&ws, &["--run", &run]).len(),
        1,
        "only the cluster that could not act has a record"
    );
    still_waiting(&executor, &run);
}
