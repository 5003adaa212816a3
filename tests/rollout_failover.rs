//! Killing the rollout executor in the middle of a batch: two `fleetdeck run` processes
//! share one lease; the active one is SIGKILLed after the batch's first cluster was applied
//! (the others have their intents journaled, one is usually mid-apply), and the standby
//! finishes the batch. The journal and the simulator's request log must show every cluster
//! applied exactly once.

mod executor_support;

use std::collections::BTreeMap;
use std::process::Command;

use executor_support::{Executor, binary, journal, wait};
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::rollout::Observation;
use fleetdeck::model::run::{EventBody, RunStatus};
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig, write_ledger};

const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-failover-1
  bundle: {cni: cilium-1.17.2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.9}
targets: ""
stages:
  - {name: all, batchSize: 3, soak: 1s, approval: auto, pick: ordered}
budgets: {maxInFlight: 3}
stopWhen:
  failedClusters: 1
"#;

const MANIFESTS: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: cni-settings
  namespace: kube-system
data:
  version: cilium-1.17.2
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cni-routes
  namespace: kube-system
data:
  mode: native
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standby_finishes_the_batch_and_no_cluster_is_applied_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path();
    let fleet = SimFleet::load("small", 5, 1.0).expect("small");
    let (addr, _server) = start_on_loopback(fleet.clone(), 0).await.expect("loopback");
    write_kubeconfig(&fleet, &path.join("kubeconfig"), addr).expect("kubeconfig");
    write_ledger(&fleet, &path.join("ledger.yaml"), addr).expect("ledger");
    std::fs::create_dir_all(path.join("manifests")).expect("mkdir");
    std::fs::write(path.join("manifests/cni.yaml"), MANIFESTS).expect("manifests");
    std::fs::write(path.join("rollout.yaml"), ROLLOUT).expect("rollout");
    let ledger = fleetdeck::ledger_file::load(&path.join("ledger.yaml")).expect("ledger");
    let clusters: Vec<String> = ledger.clusters.iter().map(|c| c.id.0.clone()).collect();

    let start = || {
        Command::new(binary())
            .args([
                "--ledger",
                "ledger.yaml",
                "--journal",
                "journal.sqlite",
                "--as",
                "alice@ops",
                "rollout",
                "start",
                "rollout.yaml",
            ])
            .current_dir(path)
            .env("FLEETDECK_CONFIG", path.join("config.toml"))
            .env("FLEETDECK_DATA_DIR", path.join("data"))
            .output()
            .expect("rollout start")
    };
    let out = start();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Every API call takes a while, so the kill lands while the batch is being applied.
    for c in &clusters {
        fleet
            .update_faults(c, |f| f.latency_ms = 150)
            .expect("faults");
    }
    let outcomes = |kind_ok: bool| {
        journal(path)
            .query(&EventQuery::default())
            .unwrap_or_default()
            .into_iter()
            .filter(|e| matches!(&e.event.body, EventBody::Outcome { intent, ok, .. } if intent.0.contains("/apply/intent") && *ok == kind_ok))
            .count()
    };
    let mut active = Executor::spawn(path, "exec-a", &["--verify-timeout", "30s"]);
    wait("the first cluster applied", 90, path, || {
        outcomes(true) >= 1
    });
    active.kill9();
    assert!(
        outcomes(true) < clusters.len(),
        "the kill must land in the middle of the batch"
    );
    let _standby = Executor::spawn(path, "exec-b", &["--verify-timeout", "30s"]);
    wait("the rollout to succeed", 120, path, || {
        journal(path)
            .projection()
            .is_ok_and(|p| p.runs.values().any(|r| r.status == RunStatus::Succeeded))
    });

    let events = journal(path).query(&EventQuery::default()).expect("events");
    // The standby rebuilt the run and settled what was in flight.
    assert!(events.iter().any(|e| e.event.actor.0 == "exec-b"
        && matches!(
            &e.event.body,
            EventBody::RolloutObserved {
                observation: Observation::Restarted,
                ..
            }
        )));
    let mut applied: BTreeMap<String, usize> = BTreeMap::new();
    for e in &events {
        if let (EventBody::ItemApplied { .. }, Some(cluster)) = (&e.event.body, &e.event.cluster) {
            *applied.entry(cluster.0.clone()).or_default() += 1;
        }
    }
    let record_writes = |cluster: &str| {
        fleet
            .request_log(cluster)
            .expect("log")
            .iter()
            .filter(|r| r.method == "PATCH" && r.path.ends_with("/configmaps/fleetdeck-release"))
            .count()
    };
    for cluster in &clusters {
        assert_eq!(
            applied.get(cluster),
            Some(&1),
            "journal: {cluster} applied once"
        );
        assert_eq!(
            record_writes(cluster),
            1,
            "simulator: {cluster}'s record written once"
        );
    }

    // Starting the same release again verifies every cluster and applies to none.
    let again = start();
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("3 cluster(s) already run this digest"),
        "{said}"
    );
    wait("the second run to succeed", 60, path, || {
        journal(path).projection().is_ok_and(|p| {
            p.runs
                .values()
                .filter(|r| r.status == RunStatus::Succeeded)
                .count()
                == 2
        })
    });
    for cluster in &clusters {
        assert_eq!(
            record_writes(cluster),
            1,
            "a re-run does not apply {cluster} again"
        );
    }
}
