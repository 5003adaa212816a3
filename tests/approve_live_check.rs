//! `rollout approve` reaches every cluster of the batch to approve first (identity checked
//! against the ledger's pin, as `maintenance start` does): a batch holding a cluster that
//! cannot take actions is refused before anything is journaled, naming the cluster and
//! its status and the way out. The demo fleet's `prod-apse1-03` refuses connections.

mod cli_support;
mod rollout_support;

use std::time::Duration;

use fleetdeck::journal::JournalStore;
use fleetdeck::model::rollout::BatchPhase;
use fleetdeck::model::run::RunId;
use rollout_support::{Live, Workspace};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_a_batch_with_an_unreachable_cluster_is_refused_naming_it() {
    let ws = Workspace::new("demo", 1, MANIFESTS, ROLLOUT).await;
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", cli_support::text(&started));
    let live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "executor-a", None);
    let mut waiting = None;
    for _ in 0..100 {
        executor.pass().await.expect("pass");
        let projection = executor.store().projection().expect("projection");
        waiting = projection.runs.values().find_map(|run| {
            (run.rollout.batches.get(&0) == Some(&BatchPhase::AwaitingApproval))
                .then(|| run.id.clone())
        });
        if waiting.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let RunId(run) = waiting.expect("the first batch awaits approval");

    let refused = tokio::task::block_in_place(|| {
        ws.fleetdeck("bob@ops", &["rollout", "approve", &run, "--note", "go"])
    });
    let why = cli_support::text(&refused);
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
    let projection = executor.store().projection().expect("projection");
    let view = &projection.runs[&RunId(run)];
    assert!(view.approvals.is_empty(), "nothing approved");
    assert_eq!(
        view.rollout.batches.get(&0),
        Some(&BatchPhase::AwaitingApproval)
    );
}
