//! Two executors, one lease: the active one is killed with SIGKILL at every step boundary
//! in turn, and the standby finishes each run. The journal and the simulator's request log
//! must show no pod evicted twice, no step skipped, cordon and uncordon each done once.

use std::path::PathBuf;

use crate::support::backend::{Backend, TestJournal};
use crate::support::checks::{fleet_acted_on_node_once, maintenance_yaml};
use crate::support::executor::{Executor, journal, wait};

use fleetdeck::engine::start::{node_facts, plan, record_run};
use fleetdeck::journal::{AnyJournal, EventQuery, JournalStore};
use fleetdeck::model::maintenance::{Step, read_maintenance};
use fleetdeck::model::run::{Actor, EventBody, RunId, RunStatus, StepStatus};
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig, write_ledger};
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::ListParams;

fn succeeded_steps(store: &AnyJournal, run: &RunId) -> Vec<String> {
    store
        .query(&EventQuery {
            run: Some(run.clone()),
            kinds: vec!["step.status".into()],
            ..EventQuery::default()
        })
        .unwrap_or_default()
        .iter()
        .filter(|e| {
            matches!(
                &e.event.body,
                EventBody::StepStatusChanged {
                    status: StepStatus::Succeeded
                }
            )
        })
        .filter_map(|e| e.event.step.as_ref().map(|s| s.as_str().to_string()))
        .collect()
}

async fn standby_finishes_every_run_after_a_kill_at_each_step_boundary(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let tj = TestJournal::new(backend, dir.path());
    let fleet = SimFleet::load("small", 1, 1.0).unwrap();
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.unwrap();
    write_kubeconfig(&fleet, &dir.path().join("kubeconfig"), addr).unwrap();
    write_ledger(&fleet, &dir.path().join("ledger.yaml"), addr).unwrap();
    let client = fleet.client("small-02").unwrap();
    // Nodes that host evictable pods, one per boundary.
    let pods = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    let mut nodes: Vec<String> = pods
        .items
        .iter()
        .filter(|p| {
            !p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.kind == "DaemonSet")
        })
        .filter_map(|p| p.spec.as_ref()?.node_name.clone())
        .collect();
    nodes.sort();
    nodes.dedup();
    assert!(
        nodes.len() >= Step::WORK.len(),
        "need {} nodes with pods, have {nodes:?}",
        Step::WORK.len()
    );
    let dir_path: PathBuf = dir.path().to_path_buf();

    for (boundary, node) in Step::WORK.iter().zip(&nodes) {
        // The hook (`true`) is declared idempotent: a kill can land while it runs, and a
        // non-idempotent hook with an unknown outcome is (rightly) handed to a person
        // rather than re-run, which the reducer's restart tests cover.
        // Run names are lowercase: `kill-after-verifynode`.
        let name = format!("kill-after-{boundary}").to_lowercase();
        let yaml = maintenance_yaml(
            &name,
            "small-02",
            std::slice::from_ref(node),
            "[\"true\"]",
            true,
        );
        let spec = read_maintenance(&yaml).spec.expect("valid maintenance");
        let inventory = node_facts(&client, "small-02").await.unwrap();
        let plan = plan(&spec, &inventory).unwrap();
        let run = record_run(
            &mut tj.open_as("alice@ops"),
            &Actor("alice@ops".into()),
            &spec,
            &plan,
            jiff::Timestamp::now(),
        )
        .unwrap();
        let log_before = fleet.request_log("small-02").unwrap().len();

        let dir_a = dir_path.clone();
        let tj_a = tj.clone();
        let run_a = run.clone();
        let boundary_s = boundary.to_string();
        tokio::task::spawn_blocking(move || {
            let mut active = Executor::spawn(&dir_a, &tj_a, "exec-a", &[]);
            wait("exec-a to hold the lease", 30, &tj_a, || {
                journal(&tj_a)
                    .lease(&fleetdeck::model::run::LeaseScope::fleet())
                    .ok()
                    .flatten()
                    .and_then(|l| l.holder)
                    .is_some_and(|h| h.0.starts_with("executor@exec-a ["))
            });
            let _standby = Executor::spawn(&dir_a, &tj_a, "exec-b", &[]);
            wait(&format!("step {boundary_s} to succeed"), 60, &tj_a, || {
                succeeded_steps(&journal(&tj_a), &run_a).contains(&boundary_s)
            });
            active.kill9();
            wait("the standby to finish the run", 90, &tj_a, || {
                journal(&tj_a)
                    .projection()
                    .ok()
                    .and_then(|p| p.runs.get(&run_a).map(|r| r.status.clone()))
                    == Some(RunStatus::Succeeded)
            });
        })
        .await
        .unwrap();

        // No step skipped, none done twice.
        let store = journal(&tj);
        let mut steps = succeeded_steps(&store, &run);
        steps.sort();
        let mut expected: Vec<String> = Step::WORK.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(steps, expected, "killed after {boundary}");
        // The standby did take over.
        let events = store
            .query(&EventQuery {
                run: Some(run.clone()),
                ..EventQuery::default()
            })
            .unwrap();
        assert!(
            events
                .iter()
                .any(|e| e.event.actor == tj.executor_actor("exec-b")),
            "exec-b acted after {boundary}"
        );
        // The cluster saw one cordon, one uncordon and at most one accepted eviction per pod.
        fleet_acted_on_node_once(&fleet, "small-02", node, log_before);
    }
    server.shutdown().await;
}

on_both_backends_async!(standby_finishes_every_run_after_a_kill_at_each_step_boundary);
