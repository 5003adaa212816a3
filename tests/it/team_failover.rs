//! A team journal on a replicated PostgreSQL: a primary and a streaming standby on
//! loopback (`pg_basebackup`), every connection string naming both with
//! `target_session_attrs=read-write`. The primary is killed with SIGKILL in the middle of a
//! rollout and a maintenance run, and the standby is promoted.
//!
//! Synchronous replication: the executor (a `fleetdeck run` process) and a console's feed
//! carry on on the new primary; both runs finish with each node's hook run once, each node
//! cordoned and uncordoned once, each cluster's release applied once; the console said the
//! journal was unreachable, then was live again, and shows no event the journal lacks.
//!
//! Asynchronous replication, the primary's WAL kept from the standby before its last
//! commits: the new primary lacks events the executor wrote and the console read. The
//! executor notices, pauses the fleet as the guard does (naming what is gone) and acts no
//! more; the console says the journal went back and shows only what it holds now.

use std::path::Path;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::support;
use crate::support::backend::TestJournal;
use crate::support::checks::{
    busy_nodes, each_release_applied_once, events, maintenance_yaml, node_acted_on_once,
    record_maintenance,
};
use crate::support::executor::{Executor, wait};
use crate::support::rollout::{CNI_MANIFEST, Workspace};
use fleetdeck::journal::JournalStore;
use fleetdeck::journal::postgres::throwaway::Replication;
use fleetdeck::model::run::{EventBody, PauseScope, RunId, RunStatus, StepStatus};
use fleetdeck::tui::Activity;
use fleetdeck::tui::journal_feed::feed;

/// Three clusters one at a time, each soaking three seconds: long enough to be killed in.
const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-failover-db
  bundle: {cni: cilium-1.17.2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: ""
stages:
  - {name: all, batchSize: 1, soak: 3s, approval: auto, pick: ordered}
budgets: {maxInFlight: 1}
stopWhen:
  failedClusters: 1
"#;

/// A maintenance of `nodes` of small-02, one at a time, whose hook appends the node's
/// name to `hooks.log` and takes `hook_secs`: the log says how often each ran.
fn maintenance(dir: &Path, name: &str, nodes: &[String], hook_secs: u32) -> String {
    let argv = format!(
        "[\"sh\", \"-c\", \"echo \\\"$FLEETDECK_NODE\\\" >> {}; sleep {hook_secs}\"]",
        dir.join("hooks.log").display()
    );
    maintenance_yaml(name, "small-02", nodes, &argv, false)
}

/// The nodes whose hook ran, in order, once per run of it.
fn hooks_run(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("hooks.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Journals the maintenance of `nodes` as op_a.
async fn start_maintenance(ws: &Workspace, name: &str, nodes: &[String], hook_secs: u32) -> RunId {
    let yaml = maintenance(ws.path(), name, nodes, hook_secs);
    record_maintenance(ws, "op_a", &yaml, jiff::Timestamp::now()).await
}

/// The small fleet's workspace on a replicated journal, with the login roles every test
/// actor needs created while the first primary is up.
async fn replicated_workspace(
    mode: Replication,
) -> (
    Workspace,
    &'static fleetdeck::journal::postgres::throwaway::ThrowawayServer,
    &'static fleetdeck::journal::postgres::throwaway::ThrowawayServer,
) {
    let mut ws = Workspace::new("small", 5, CNI_MANIFEST, ROLLOUT).await;
    let (journal, primary, standby) = TestJournal::replicated(mode, ws.path());
    for actor in ["op_a", "exec-a", "view_c"] {
        journal.target_for(actor);
    }
    ws.journal = journal;
    (ws, primary, standby)
}

/// A console's feed on the journal as view_c, on a thread of its own.
fn console_feed(ws: &Workspace) -> watch::Receiver<Activity> {
    let (tx, rx) = watch::channel(Activity::default());
    let reader = ws.journal.open_as("view_c");
    std::thread::spawn(move || feed(reader, tx, Duration::from_secs(5)));
    rx
}

/// Waits (at most `secs`) until what the feed published satisfies `done`.
fn feed_until(
    rx: &watch::Receiver<Activity>,
    secs: u64,
    what: &str,
    done: impl Fn(&Activity) -> bool,
) {
    let from = Instant::now();
    while !done(&rx.borrow()) {
        assert!(
            from.elapsed() < Duration::from_secs(secs),
            "the console's feed: {what} not within {secs} s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every event the feed shows is in the journal under the same sequence and key: the
/// console claims nothing the journal does not hold.
fn feed_claims_only_what_is_journaled(rx: &watch::Receiver<Activity>, ws: &Workspace) {
    let stored: std::collections::BTreeMap<i64, String> = events(&ws.journal)
        .into_iter()
        .map(|e| (e.seq.0, e.event.key.0))
        .collect();
    for shown in rx.borrow().journal.events.iter() {
        assert_eq!(
            stored.get(&shown.seq.0),
            Some(&shown.event.key.0),
            "the console shows event {} ({:?}), which the journal does not hold",
            shown.seq.0,
            shown.event.body
        );
    }
}

/// Whether `step` of `run` succeeded on some node.
fn step_succeeded(tj: &TestJournal, run: &RunId, step: &str) -> bool {
    events(tj).iter().any(|e| {
        e.event.run.as_ref() == Some(run)
            && e.event.step.as_ref().is_some_and(|s| s.as_str() == step)
            && matches!(
                e.event.body,
                EventBody::StepStatusChanged {
                    status: StepStatus::Succeeded
                }
            )
    })
}

fn applied_clusters(ws: &Workspace) -> usize {
    events(&ws.journal)
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::ItemApplied { .. }))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_standby_promoted_mid_rollout_and_mid_maintenance_finishes_both_each_action_once() {
    let (ws, primary, standby) = replicated_workspace(Replication::Synchronous).await;
    let nodes = busy_nodes(&ws, "small-02", 2).await;
    let clusters = ["small-01", "small-02", "small-stg-01"];
    let logs_before: Vec<usize> = clusters
        .iter()
        .map(|c| ws.fleet.request_log(c).expect("log").len())
        .collect();
    let maintenance_run = start_maintenance(&ws, "failover-db", &nodes, 4).await;
    let rx = console_feed(&ws);
    feed_until(&rx, 20, "the first read", |a| a.connected);

    let dir = ws.path().to_path_buf();
    let tj = ws.journal.clone();
    let run = maintenance_run.clone();
    let first_node = nodes[0].clone();
    let executor = tokio::task::spawn_blocking(move || {
        let executor = Executor::spawn(&dir, &tj, "exec-a", &["--verify-timeout", "30s"]);
        wait("the first node drained", 120, &tj, || {
            step_succeeded(&tj, &run, "Drain")
        });
        executor
    })
    .await
    .expect("wait");
    let started = ws.fleetdeck("op_a", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let (dir, tj) = (ws.path().to_path_buf(), ws.journal.clone());
    tokio::task::spawn_blocking(move || {
        // Mid-maintenance: the first node's hook is running (its outcome not journaled
        // yet), the second node not begun; mid-rollout: a cluster applied, not all.
        wait("a hook running and a cluster applied", 60, &tj, || {
            hooks_run(&dir) == [first_node.clone()]
                && events(&tj)
                    .iter()
                    .any(|e| matches!(e.event.body, EventBody::ItemApplied { .. }))
        });
    })
    .await
    .expect("wait");
    assert!(applied_clusters(&ws) < clusters.len(), "killed mid-rollout");

    primary.kill_all().expect("the primary killed");
    feed_until(&rx, 10, "to say the journal is unreachable", |a| {
        !a.connected
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    standby.promote().expect("the standby promoted");
    let promoted = Instant::now();

    let tj = ws.journal.clone();
    let run = maintenance_run.clone();
    tokio::task::spawn_blocking(move || {
        wait("both runs to finish on the new primary", 180, &tj, || {
            let p = support::executor::journal(&tj).projection().ok();
            p.is_some_and(|p| {
                p.runs.values().all(|r| r.status == RunStatus::Succeeded)
                    && p.runs.contains_key(&run)
            })
        });
    })
    .await
    .expect("wait");
    feed_until(&rx, 20, "to be live again", |a| {
        a.connected
            && a.journal
                .projection
                .runs
                .values()
                .all(|r| r.status == RunStatus::Succeeded)
    });
    assert!(promoted.elapsed() < Duration::from_secs(180));
    drop(executor);

    // Each node's hook ran once, each node was cordoned and uncordoned once, each cluster's
    // release applied once: nothing repeated across the failover.
    let mut ran = hooks_run(ws.path());
    ran.sort();
    let mut expected = nodes.clone();
    expected.sort();
    assert_eq!(ran, expected, "each node's hook once");
    for node in &nodes {
        node_acted_on_once(&ws, "small-02", node, logs_before[1]);
    }
    each_release_applied_once(&ws, &clusters);
    // Nothing acknowledged was lost: the executor read back all it wrote (no pause for a
    // journal that went back), the console lost nothing it had shown.
    let all = events(&ws.journal);
    assert!(
        !all.iter().any(|e| matches!(
            &e.event.body,
            EventBody::GuardTripped {
                scope: PauseScope::Fleet,
                ..
            }
        )),
        "no event lost under synchronous replication"
    );
    assert!(rx.borrow().lost.is_empty(), "{:?}", rx.borrow().lost);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.seq.0, i as i64 + 1, "no gap, no duplicate");
    }
    feed_claims_only_what_is_journaled(&rx, &ws);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_standby_promoted_without_the_last_commits_pauses_the_fleet_and_says_what_is_gone() {
    let (ws, primary, standby) = replicated_workspace(Replication::Asynchronous).await;
    let nodes = busy_nodes(&ws, "small-02", 1).await;
    let run = start_maintenance(&ws, "lost-tail", &nodes, 0).await;
    let rx = console_feed(&ws);
    feed_until(&rx, 20, "the first read", |a| a.connected);
    let mut live = support::rollout::Live::new(&ws).await;
    let mut executor = live.executor(&ws, "exec-a", None);
    let (stop_tx, stop_rx) = watch::channel(false);

    let tj = ws.journal.clone();
    let dir = ws.path().to_path_buf();
    let run_k = run.clone();
    let fleet = ws.fleet.clone();
    let node = nodes[0].clone();
    let control = tokio::task::spawn_blocking(move || {
        let step_done = |step: &str| step_succeeded(&tj, &run_k, step);
        wait("the node cordoned", 60, &tj, || step_done("Cordon"));
        primary.wait_replicated().expect("the standby caught up");
        assert!(primary.stop_sending_wal().expect("wal senders") > 0);
        // Acknowledged by the primary only: the drain, the hook, what followed.
        wait("the hook to run and its step to succeed", 60, &tj, || {
            step_done("Maintain")
        });
        let shown = |a: &Activity| {
            a.journal.events.iter().any(|e| {
                e.event
                    .step
                    .as_ref()
                    .is_some_and(|s| s.as_str() == "Maintain")
            })
        };
        feed_until(&rx, 20, "the console to show the hook", shown);
        primary.kill_all().expect("the primary killed");
        standby.promote().expect("the standby promoted");
        wait("the executor to pause the fleet", 60, &tj, || {
            events(&tj).iter().any(|e| {
                matches!(&e.event.body, EventBody::GuardTripped { scope: PauseScope::Fleet, reason, .. }
                    if reason.contains("the journal lost"))
            })
        });
        // Stopped first: nothing more is done to the cluster, no hook runs again.
        let requests = fleet.request_log("small-02").expect("log").len();
        std::thread::sleep(Duration::from_secs(2));
        let writes_after = fleet.request_log("small-02").expect("log")[requests..]
            .iter()
            .filter(|r| r.method != "GET")
            .count();
        assert_eq!(writes_after, 0, "nothing done to the cluster once paused");
        assert_eq!(
            hooks_run(&dir),
            std::slice::from_ref(&node),
            "the hook is not run again"
        );
        feed_until(&rx, 20, "the console to say the journal went back", |a| {
            a.connected && !a.lost.is_empty()
        });
        let _ = stop_tx.send(true);
        rx
    });
    executor
        .run_until(stop_rx)
        .await
        .expect("the executor stops when told");
    let rx = control.await.expect("control");
    live.stop();

    let all = events(&ws.journal);
    let pause = all
        .iter()
        .find_map(|e| match &e.event.body {
            EventBody::GuardTripped {
                scope: PauseScope::Fleet,
                reason,
                ..
            } => Some(reason.clone()),
            _ => None,
        })
        .expect("the pause");
    assert!(
        pause.contains("Maintain") && pause.contains("resume"),
        "the pause names what is gone and what a person does: {pause}"
    );
    let p = support::executor::journal(&ws.journal)
        .projection()
        .expect("projection");
    let switch = p.pauses.get(&PauseScope::Fleet).expect("the fleet paused");
    assert!(switch.by_guard, "only a person resumes it");
    assert!(p.runs.contains_key(&run));
    let lost = &rx.borrow().lost;
    assert!(
        lost.iter()
            .any(|l| l.text.text(fleetdeck::i18n::Lang::En).contains("Maintain")),
        "the console names the hook's step among what is gone: {lost:?}"
    );
    feed_claims_only_what_is_journaled(&rx, &ws);
}
