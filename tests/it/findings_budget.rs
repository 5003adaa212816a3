//! The findings' facts reader stays inside each cluster's request budget: its reads go
//! through the cluster's budgeted client, so they are counted and throttled like the
//! lists and watches. With a reader that wants far more than the budget allows (a round
//! every second against 2 requests per second), what a cluster is sent stays within the
//! budget; and the facts are read (the reads are not skipped to stay within it).

use std::time::{Duration, Instant};

use fleetdeck::k8s::budget::Budget;
use fleetdeck::k8s::findings::FactsOptions;
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::live::FleetSnapshot;
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig, write_ledger};

fn sent(s: &FleetSnapshot, id: &str) -> u64 {
    s.cluster(id).map_or(0, |c| c.requests_sent)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_greedy_facts_reader_stays_within_the_clusters_request_budget() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).expect("small scenario");
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.expect("serve");
    write_kubeconfig(&fleet, &dir.path().join("kubeconfig"), addr).expect("kubeconfig");
    write_ledger(&fleet, &dir.path().join("ledger.yaml"), addr).expect("ledger");
    let ledger =
        fleetdeck::config::ledger_file::load(&dir.path().join("ledger.yaml")).expect("ledger");
    let source = fleetdeck::k8s::kubeconfig::KubeconfigSource {
        paths: vec![dir.path().join("kubeconfig")],
        explicit: true,
    };
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&source).expect("kubeconfig");

    let budget = Budget { qps: 2.0, burst: 4 };
    let mut options = FleetSyncOptions::default();
    options.cluster.connect.budget = budget;
    options.cluster.findings = Some(FactsOptions {
        interval: Duration::from_secs(1),
        ..FactsOptions::default()
    });
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    let mut snapshot = sync.wait_settled(Duration::from_secs(60)).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !snapshot
        .clusters
        .iter()
        .all(|c| !c.status.data_usable() || c.findings.is_some())
    {
        match tokio::time::timeout_at(deadline, sync.snapshots.changed()).await {
            Ok(Ok(())) => snapshot = sync.snapshots.borrow_and_update().clone(),
            _ => panic!("facts not read within 60 s: {snapshot:?}"),
        }
    }
    let ids: Vec<String> = snapshot
        .clusters
        .iter()
        .filter(|c| c.status.data_usable())
        .map(|c| c.id.to_string())
        .collect();
    assert!(!ids.is_empty(), "some cluster is synced");

    let start = Instant::now();
    let before = snapshot.clone();
    tokio::time::sleep(Duration::from_secs(8)).await;
    let after = sync.snapshots.borrow().clone();
    // Counts are published with the snapshot, up to a second late at either end.
    let elapsed = start.elapsed().as_secs_f64() + 2.0;
    let most = budget.qps * elapsed + f64::from(budget.burst);
    for id in &ids {
        let n = sent(&after, id) - sent(&before, id);
        assert!(
            n > 0,
            "{id}: the reader's rounds are counted by the cluster's client (none seen in 8 s)"
        );
        assert!(
            n as f64 <= most,
            "{id}: {n} requests in {elapsed:.1} s, over the budget's {most:.0}"
        );
        // Each round is ~6 requests: at 2 per second a round a second cannot all go.
        assert!(
            n as f64 >= budget.qps * 4.0,
            "{id}: {n} requests in {elapsed:.1} s: the reader was meant to want more than the budget"
        );
    }
    sync.stop();
    server.shutdown().await;
}
