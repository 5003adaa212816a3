//! Executors sharded by region: `fleetdeck run --shard region=…` processes, two per shard
//! (one acting, one standing by), on one journal. Maintenance on a cluster of each region
//! and a rollout across both progress at the same time; the acting executor of one shard
//! is SIGKILLed mid-maintenance and its standby finishes, with no node action run twice and
//! no cluster's release applied twice (journal and simulator request log). On PostgreSQL,
//! the database restarts mid-run: the executors stop acting until they hold their leases
//! again, then finish without repeating anything.
//! Two in-process tests drive the hand-over of a rollout item between shards pass by
//! pass: taken back when the run pauses first, and settled by a new coordinator from the
//! owning shard's answer.
//!
//! Over 600 lines: one subject, sharded executors on both backends, sharing the two-shard
//! workspace built at the top.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::support;
use crate::support::backend::{Backend, TestJournal};
use crate::support::checks::{
    busy_node, each_release_applied_once, events, maintenance_yaml, node_acted_on_once,
    record_maintenance, run_status,
};
use crate::support::executor::{Executor, journal, wait};
use crate::support::rollout::{CNI_MANIFEST, Workspace, one_stage_rollout};
use fleetdeck::journal::JournalStore;
use fleetdeck::model::run::{Event, EventBody, LeaseScope, RunId, RunStatus, StepStatus};

const EAST: &str = "region=us-east-1";
const WEST: &str = "region=eu-west-1";

static ROLLOUT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| one_stage_rollout("cni-sharded-1", "{cni: cilium-1.17.2}", "0.5"));

const MANIFESTS: &str = CNI_MANIFEST;

/// The small fleet with small-02 moved to eu-west-1 in the ledger: small-01 and
/// small-stg-01 are the east shard's, small-02 the west shard's. The rollout's home is
/// the east shard (small-01 comes first), so small-02's apply is handed to the west.
async fn two_regions(backend: Backend, own_server: bool) -> Workspace {
    let mut ws = Workspace::on(backend, "small", 21, MANIFESTS, &ROLLOUT).await;
    if own_server {
        ws.journal = TestJournal::on_own_server(backend, ws.path());
    }
    let mut ledger = fleetdeck::sim::ledger(&ws.fleet, ws.addr);
    for cluster in ledger["clusters"].as_array_mut().expect("clusters") {
        if cluster["id"] == "small-02" {
            cluster["region"] = "eu-west-1".into();
            cluster["failureDomain"] = "eu-west-1".into();
        }
    }
    // JSON is YAML: the ledger reads it as any other.
    std::fs::write(
        ws.path().join("ledger.yaml"),
        serde_json::to_string_pretty(&ledger).expect("json"),
    )
    .expect("ledger");
    ws
}

/// Journals a maintenance of `node` on `cluster` (as alice), whose hook takes a second.
async fn maintain(ws: &Workspace, cluster: &str, node: &str) -> RunId {
    let name = format!("shard-{cluster}");
    let yaml = maintenance_yaml(
        &name,
        cluster,
        &[node.to_string()],
        "[\"sleep\", \"1\"]",
        true,
    );
    record_maintenance(ws, "alice@ops", &yaml, jiff::Timestamp::now()).await
}

fn step_succeeded(journal: &TestJournal, run: &RunId, step: &str) -> bool {
    events(journal).iter().any(|e| {
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

/// When a run's first and last step status were journaled.
fn span(all: &[Event], run: &RunId) -> (jiff::Timestamp, jiff::Timestamp) {
    let times: Vec<jiff::Timestamp> = all
        .iter()
        .filter(|e| e.event.run.as_ref() == Some(run))
        .filter(|e| matches!(e.event.body, EventBody::StepStatusChanged { .. }))
        .map(|e| e.event.time)
        .collect();
    (
        *times.iter().min().expect("steps"),
        *times.iter().max().expect("steps"),
    )
}

fn shard_flags(shard: &'static str) -> [&'static str; 4] {
    ["--shard", shard, "--verify-timeout", "30s"]
}

fn rollout_succeeded(journal: &TestJournal) -> bool {
    support::executor::journal(journal)
        .projection()
        .is_ok_and(|p| {
            p.runs
                .values()
                .any(|r| r.is_rollout() && r.status == RunStatus::Succeeded)
        })
}

async fn two_shards_progress_together_and_a_killed_executors_standby_finishes(backend: Backend) {
    let ws = two_regions(backend, false).await;
    let (east_node, west_node) = (
        busy_node(&ws, "small-01").await,
        busy_node(&ws, "small-02").await,
    );
    let logs_before: HashMap<&str, usize> = ["small-01", "small-02", "small-stg-01"]
        .into_iter()
        .map(|c| (c, ws.fleet.request_log(c).expect("log").len()))
        .collect();
    let east_run = maintain(&ws, "small-01", &east_node).await;
    let west_run = maintain(&ws, "small-02", &west_node).await;
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));

    let dir = ws.path().to_path_buf();
    let tj = ws.journal.clone();
    let (east_run_k, west_run_k) = (east_run.clone(), west_run.clone());
    tokio::task::spawn_blocking(move || {
        let _east = Executor::spawn(&dir, &tj, "exec-east-a", &shard_flags(EAST));
        let mut west = Executor::spawn(&dir, &tj, "exec-west-a", &shard_flags(WEST));
        wait("both shards' leases held", 60, &tj, || {
            let j = journal(&tj);
            [EAST, WEST].iter().all(|s| {
                j.lease(&LeaseScope(s.to_string()))
                    .ok()
                    .flatten()
                    .is_some_and(|l| l.holder.is_some())
            })
        });
        // The fleet's executor cannot act beside them.
        let refused = support::cli::fleetdeck(
            &[
                &["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"][..],
                &tj.flags("exec-fleet")
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
                &["run", "--shard", "region=mars-1"][..],
            ]
            .concat(),
            &dir,
        );
        assert!(
            !refused.status.success()
                && support::cli::text(&refused).contains("owns no ledger cluster"),
            "{}",
            support::cli::text(&refused)
        );
        let _east_standby = Executor::spawn(&dir, &tj, "exec-east-b", &shard_flags(EAST));
        let _west_standby = Executor::spawn(&dir, &tj, "exec-west-b", &shard_flags(WEST));
        wait("the west node cordoned", 90, &tj, || {
            step_succeeded(&tj, &west_run_k, "Cordon")
        });
        west.kill9();
        wait(
            "both maintenance runs and the rollout to finish",
            180,
            &tj,
            || {
                run_status(&tj, &east_run_k) == Some(RunStatus::Succeeded)
                    && run_status(&tj, &west_run_k) == Some(RunStatus::Succeeded)
                    && rollout_succeeded(&tj)
            },
        );
    })
    .await
    .expect("executors");

    let all = events(&ws.journal);
    // Both shards progressed at the same time.
    let (east_from, east_to) = span(&all, &east_run);
    let (west_from, west_to) = span(&all, &west_run);
    assert!(
        east_from.max(west_from) < east_to.min(west_to),
        "the two runs overlap in time: east {east_from}..{east_to}, west {west_from}..{west_to}"
    );
    // Each run's steps were journaled by its own shard's executors only, and the west
    // standby took over.
    let actors = |run: &RunId| -> Vec<String> {
        all.iter()
            .filter(|e| e.event.run.as_ref() == Some(run))
            .filter(|e| matches!(e.event.body, EventBody::StepStatusChanged { .. }))
            .map(|e| e.event.actor.0.clone())
            .collect()
    };
    let east_actors = actors(&east_run);
    let west_actors = actors(&west_run);
    assert!(
        east_actors.iter().all(|a| a.contains("exec-east")),
        "{east_actors:?}"
    );
    assert!(
        west_actors.iter().all(|a| a.contains("exec-west")),
        "{west_actors:?}"
    );
    let west_standby = ws.journal.executor_actor("exec-west-b");
    assert!(
        west_actors.contains(&west_standby.0),
        "the west standby finished: {west_actors:?}"
    );
    // The rollout's west cluster was applied by the west shard, on the east's request.
    let west_apply = all
        .iter()
        .find(|e| {
            matches!(
                e.event.body,
                EventBody::Claimed {
                    withdrawn: false,
                    ..
                }
            ) && e
                .event
                .cluster
                .as_ref()
                .is_some_and(|c| c.as_str() == "small-02")
        })
        .expect("small-02's apply claimed by its shard");
    assert!(
        west_apply.event.actor.0.contains("exec-west"),
        "{west_apply:?}"
    );
    // No node action twice, no release twice.
    node_acted_on_once(&ws, "small-01", &east_node, logs_before["small-01"]);
    node_acted_on_once(&ws, "small-02", &west_node, logs_before["small-02"]);
    each_release_applied_once(&ws, &["small-01", "small-02", "small-stg-01"]);
}

/// The database restarts while both shards work: nothing is done to any cluster while it
/// is down, each executor takes its lease again once it is back, and everything finishes
/// with no node action and no release repeated.
async fn a_database_restart_stops_the_executors_until_they_hold_their_leases_again(
    backend: Backend,
) {
    let ws = two_regions(backend, true).await;
    let (east_node, west_node) = (
        busy_node(&ws, "small-01").await,
        busy_node(&ws, "small-02").await,
    );
    let clusters = ["small-01", "small-02", "small-stg-01"];
    let log_len = |c: &str| ws.fleet.request_log(c).expect("log").len();
    let logs_before: HashMap<&str, usize> = clusters.into_iter().map(|c| (c, log_len(c))).collect();
    let east_run = maintain(&ws, "small-01", &east_node).await;
    let west_run = maintain(&ws, "small-02", &west_node).await;
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));

    let dir = ws.path().to_path_buf();
    let tj = ws.journal.clone();
    let _east = Executor::spawn(&dir, &tj, "exec-east-a", &shard_flags(EAST));
    let _west = Executor::spawn(&dir, &tj, "exec-west-a", &shard_flags(WEST));
    let west_run_k = west_run.clone();
    let tj_k = tj.clone();
    tokio::task::spawn_blocking(move || {
        wait("the west node cordoned", 90, &tj_k, || {
            step_succeeded(&tj_k, &west_run_k, "Cordon")
        });
    })
    .await
    .expect("wait");

    // Down for longer than the leases live; calls already under way may finish.
    let (down_tx, down_rx) = std::sync::mpsc::channel();
    let restarting = {
        let tj = tj.clone();
        std::thread::spawn(move || {
            tj.restart_database_with(Duration::from_secs(5), || {
                let _ = down_tx.send(());
            })
        })
    };
    down_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the database went down");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let quiet_from: Vec<usize> = clusters.iter().map(|c| log_len(c)).collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let quiet_to: Vec<usize> = clusters.iter().map(|c| log_len(c)).collect();
    assert_eq!(
        quiet_from, quiet_to,
        "nothing was done to any cluster while the journal was down"
    );
    restarting.join().expect("restart");
    let back = Instant::now();
    let back_at = jiff::Timestamp::now();

    let (east_run_k, west_run_k, tj_k) = (east_run.clone(), west_run.clone(), tj.clone());
    tokio::task::spawn_blocking(move || {
        wait("both runs and the rollout to finish", 180, &tj_k, || {
            run_status(&tj_k, &east_run_k) == Some(RunStatus::Succeeded)
                && run_status(&tj_k, &west_run_k) == Some(RunStatus::Succeeded)
                && rollout_succeeded(&tj_k)
        });
    })
    .await
    .expect("wait");
    assert!(back.elapsed() < Duration::from_secs(180));

    // Each shard's lease lapsed while the journal was down and was taken again by the
    // same executor: nobody else held it meanwhile, so it is the same holding, under the
    // same token (what the executor wrote before the restart needs no fencing off).
    let all = events(&ws.journal);
    let store = support::executor::journal(&ws.journal);
    for (shard, executor) in [(EAST, "exec-east-a"), (WEST, "exec-west-a")] {
        let tokens: Vec<i64> = all
            .iter()
            .filter_map(|e| match &e.event.body {
                EventBody::LeaseAcquired { scope, token } if scope.0 == shard => Some(token.0),
                _ => None,
            })
            .collect();
        assert_eq!(tokens.len(), 1, "{shard}: one holding: {tokens:?}");
        let lease = store
            .lease(&LeaseScope(shard.into()))
            .expect("lease")
            .expect("taken");
        assert!(
            lease
                .holder
                .as_ref()
                .is_some_and(|h| h.0.contains(executor)),
            "{shard}: {lease:?}"
        );
        assert_eq!(lease.token.0, tokens[0], "{shard}: the same token");
        assert!(
            lease.expires_at > back_at,
            "{shard}: held (and renewed) after the restart: {lease:?}"
        );
    }
    node_acted_on_once(&ws, "small-01", &east_node, logs_before["small-01"]);
    node_acted_on_once(&ws, "small-02", &west_node, logs_before["small-02"]);
    each_release_applied_once(&ws, &clusters);
}

/// In one process, pass by pass: the east shard's executor coordinates the rollout and
/// hands small-02's apply to the west shard; the run is paused before the west executor
/// takes it, so the east one takes it back (the west one then leaves it); after the resume
/// it is handed over again, taken, applied once and folded, and the run finishes.
async fn an_apply_handed_to_another_shard_is_taken_back_when_the_run_pauses_first(
    backend: Backend,
) {
    use fleetdeck::model::shard::{Ownership, Shard};
    let ws = two_regions(backend, false).await;
    let ledger = ws.ledger();
    let mut live = support::rollout::Live::new(&ws).await;
    let shard = |s: &str| Ownership::shard(Shard::parse(s).expect("shard"), &ledger);
    let mut east = live.executor_with(&ws, "exec-east", None, |o| o.ownership = shard(EAST));
    let mut west = live.executor_with(&ws, "exec-west", None, |o| o.ownership = shard(WEST));
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let run = support::executor::journal(&ws.journal)
        .projection()
        .expect("projection")
        .runs
        .keys()
        .next()
        .expect("the run")
        .0
        .clone();
    let claims = |withdrawn: bool| {
        events(&ws.journal)
            .iter()
            .filter(|e| {
                matches!(e.event.body, EventBody::Claimed { withdrawn: w, .. } if w == withdrawn)
            })
            .count()
    };
    let dispatched = || {
        events(&ws.journal)
            .iter()
            .filter(|e| matches!(e.event.body, EventBody::Dispatched { .. }))
            .filter(|e| {
                e.event
                    .cluster
                    .as_ref()
                    .is_some_and(|c| c.as_str() == "small-02")
            })
            .count()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while dispatched() == 0 {
        assert!(
            Instant::now() < deadline,
            "small-02's apply was never handed over"
        );
        east.pass().await.expect("east pass");
    }
    let paused = ws.fleetdeck(
        "bob@ops",
        &["rollout", "pause", &run, "--reason", "hold on"],
    );
    assert!(paused.status.success(), "{}", support::cli::text(&paused));
    east.pass().await.expect("east pass");
    assert_eq!(claims(true), 1, "taken back");
    west.pass().await.expect("west pass");
    assert_eq!(claims(false), 0, "the west executor left it");
    assert_eq!(ws.patches("small-02", "/configmaps/fleetdeck-release"), 0);

    let resumed = ws.fleetdeck("bob@ops", &["rollout", "resume", &run, "--note", "go on"]);
    assert!(resumed.status.success(), "{}", support::cli::text(&resumed));
    let deadline = Instant::now() + Duration::from_secs(90);
    while !rollout_succeeded(&ws.journal) {
        assert!(Instant::now() < deadline, "the rollout never finished");
        east.pass().await.expect("east pass");
        west.pass().await.expect("west pass");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        dispatched(),
        3,
        "apply twice (taken back once), verify once"
    );
    assert_eq!(
        claims(false),
        1,
        "taken by the west executor the second time"
    );
    each_release_applied_once(&ws, &["small-01", "small-02", "small-stg-01"]);
    live.stop();
}

/// The east executor (the rollout's home) stops right after handing small-02's apply to
/// the west shard; its successor rebuilds the run, finds that apply without outcome and
/// asks the west shard to read small-02's release record rather than reading it itself.
/// The west executor applies (the apply was still open), answers the read, and the new
/// coordinator settles the apply from that answer: applied once.
async fn a_new_coordinator_asks_the_owning_shard_for_the_release_record(backend: Backend) {
    use fleetdeck::model::shard::{Ownership, Shard};
    use fleetdeck::model::shard::{ShardAnswer, ShardCall};
    let ws = two_regions(backend, false).await;
    let ledger = ws.ledger();
    let mut live = support::rollout::Live::new(&ws).await;
    let shard = |s: &str| Ownership::shard(Shard::parse(s).expect("shard"), &ledger);
    let mut east = live.executor_with(&ws, "exec-east", None, |o| o.ownership = shard(EAST));
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let handed =
        |call: ShardCall| {
            events(&ws.journal)
            .iter()
            .filter(
                |e| matches!(&e.event.body, EventBody::Dispatched { call: c, .. } if *c == call),
            )
            .filter(|e| e.event.cluster.as_ref().is_some_and(|c| c.as_str() == "small-02"))
            .count()
        };
    let deadline = Instant::now() + Duration::from_secs(60);
    while handed(ShardCall::Apply) == 0 {
        assert!(
            Instant::now() < deadline,
            "small-02's apply was never handed over"
        );
        east.pass().await.expect("east pass");
    }
    // Gone without a word (its lease lapses); its successor takes over.
    drop(east);
    let mut east = live.executor_with(&ws, "exec-east", None, |o| o.ownership = shard(EAST));
    let deadline = Instant::now() + Duration::from_secs(30);
    while handed(ShardCall::Read) == 0 {
        assert!(
            Instant::now() < deadline,
            "the successor never asked for small-02's release record"
        );
        east.pass().await.expect("east pass");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut west = live.executor_with(&ws, "exec-west", None, |o| o.ownership = shard(WEST));
    let deadline = Instant::now() + Duration::from_secs(90);
    while !rollout_succeeded(&ws.journal) {
        assert!(Instant::now() < deadline, "the rollout never finished");
        east.pass().await.expect("east pass");
        west.pass().await.expect("west pass");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        handed(ShardCall::Read),
        1,
        "the record was read by its shard"
    );
    let answered = events(&ws.journal).iter().any(|e| {
        matches!(
            &e.event.body,
            EventBody::Answered {
                answer: ShardAnswer::Read { .. },
                ..
            }
        ) && e.event.actor.0 == "exec-west"
    });
    assert!(answered, "the west executor answered the read");
    each_release_applied_once(&ws, &["small-01", "small-02", "small-stg-01"]);
    live.stop();
}

on_both_backends_async!(
    two_shards_progress_together_and_a_killed_executors_standby_finishes,
    an_apply_handed_to_another_shard_is_taken_back_when_the_run_pauses_first,
    a_new_coordinator_asks_the_owning_shard_for_the_release_record,
);

mod database_restart {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_database_restart_stops_the_executors_until_they_hold_their_leases_again() {
        super::a_database_restart_stops_the_executors_until_they_hold_their_leases_again(
            crate::support::backend::Backend::Postgres,
        )
        .await
    }
}
