//! Killing the rollout executor in the middle of a batch: two `fleetdeck run` processes
//! share one lease; the active one is SIGKILLed after the batch's first cluster was applied
//! (the others have their intents journaled, one is usually mid-apply), and the standby
//! finishes the batch. The journal and the simulator's request log must show every cluster
//! applied exactly once. Also: a program longer than the lease runs once per cluster (the
//! lease is renewed during the call), a read slower than the lease lives keeps it too, an
//! executor that lost its lease while stalled starts no apply, and a cluster that already
//! records the digest is not applied again.
//!
//! Over 600 lines: one subject, failover mid-rollout (SIGKILL, lost leases, slow calls) on
//! both backends, sharing the workspace helpers at the top.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::support::backend::{Backend, TestJournal};
use crate::support::executor::{Executor, journal, wait};
use crate::support::rollout::{InProcess, Live, Workspace, one_stage_rollout};
use fleetdeck::engine::executor::{EngineError, ExecutorOptions};
use fleetdeck::journal::{EventQuery, JournalError, JournalStore};
use fleetdeck::model::rollout::Observation;
use fleetdeck::model::run::{EventBody, RunStatus};

static ROLLOUT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| one_stage_rollout("cni-failover-1", "{cni: cilium-1.17.2}", "0.9"));

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

/// The small fleet's rollout workspace, with its clusters in ledger order.
struct Setup {
    ws: Workspace,
    clusters: Vec<String>,
}

impl Setup {
    async fn new(backend: Backend, seed: u64, rollout: &str) -> Setup {
        let ws = Workspace::on(backend, "small", seed, MANIFESTS, rollout).await;
        let clusters = ws
            .ledger()
            .clusters
            .iter()
            .map(|c| c.id.to_string())
            .collect();
        Setup { ws, clusters }
    }

    fn path(&self) -> &std::path::Path {
        self.ws.path()
    }

    /// `fleetdeck ARGS` as alice, on the directory's ledger and journal.
    fn cli(&self, args: &[&str]) -> std::process::Output {
        self.ws.fleetdeck("alice@ops", args)
    }

    fn journal(&self) -> &TestJournal {
        &self.ws.journal
    }

    fn start_rollout(&self) -> std::process::Output {
        let out = self.cli(&["rollout", "start", "rollout.yaml"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn wait_succeeded(&self, runs: usize) {
        wait("the rollout to succeed", 120, self.journal(), || {
            self.succeeded_runs() == runs
        });
    }

    /// How many rollouts the journal records as succeeded.
    fn succeeded_runs(&self) -> usize {
        journal(self.journal()).projection().map_or(0, |p| {
            p.runs
                .values()
                .filter(|r| r.status == RunStatus::Succeeded)
                .count()
        })
    }
}

async fn a_standby_finishes_the_batch_and_no_cluster_is_applied_twice(backend: Backend) {
    let setup = Setup::new(backend, 5, &ROLLOUT).await;
    let path = setup.path();
    setup.start_rollout();
    // Every API call takes a while, so the kill lands while the batch is being applied.
    for c in &setup.clusters {
        setup
            .ws
            .fleet
            .update_faults(c, |f| f.latency_ms = 150)
            .expect("faults");
    }
    let outcomes = |kind_ok: bool| {
        journal(setup.journal())
            .query(&EventQuery::default())
            .unwrap_or_default()
            .into_iter()
            .filter(|e| matches!(&e.event.body, EventBody::Outcome { intent, ok, .. } if intent.0.contains("/apply/intent") && *ok == kind_ok))
            .count()
    };
    let mut active = Executor::spawn(
        path,
        setup.journal(),
        "exec-a",
        &["--verify-timeout", "30s"],
    );
    wait("the first cluster applied", 90, setup.journal(), || {
        outcomes(true) >= 1
    });
    active.kill9();
    assert!(
        outcomes(true) < setup.clusters.len(),
        "the kill must land in the middle of the batch"
    );
    let _standby = Executor::spawn(
        path,
        setup.journal(),
        "exec-b",
        &["--verify-timeout", "30s"],
    );
    setup.wait_succeeded(1);

    let events = journal(setup.journal())
        .query(&EventQuery::default())
        .expect("events");
    // The standby rebuilt the run and settled what was in flight.
    let standby = setup.journal().executor_actor("exec-b");
    assert!(events.iter().any(|e| e.event.actor == standby
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
            *applied.entry(cluster.to_string()).or_default() += 1;
        }
    }
    let record = "/configmaps/fleetdeck-release";
    for cluster in &setup.clusters {
        assert_eq!(
            applied.get(cluster),
            Some(&1),
            "journal: {cluster} applied once"
        );
        assert_eq!(
            setup.ws.patches(cluster, record),
            1,
            "simulator: {cluster}'s record written once"
        );
    }

    // Every intent the killed executor left open was settled with an outcome: nothing
    // stays open for `rollout show` (OPEN-INTENTS) or a later restart to trip over.
    let projection = journal(setup.journal()).projection().expect("projection");
    for run in projection.runs.values() {
        for (item, view) in &run.items {
            assert!(
                view.open_intents.is_empty(),
                "{item}: {:?}",
                view.open_intents
            );
        }
    }
    let show = setup.cli(&[
        "rollout",
        "show",
        &projection.runs.keys().next().expect("run").0,
    ]);
    let shown = String::from_utf8_lossy(&show.stdout);
    assert!(show.status.success(), "{shown}");
    for cluster in &setup.clusters {
        let row = shown
            .lines()
            .find(|l| l.starts_with(cluster.as_str()))
            .unwrap_or_else(|| panic!("{cluster} in {shown}"));
        assert_eq!(
            row.split_whitespace().last(),
            Some("0"),
            "OPEN-INTENTS: {shown}"
        );
    }

    // Starting the same release again verifies every cluster and applies to none.
    let again = setup.start_rollout();
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("3 cluster(s) already run this digest"),
        "{said}"
    );
    setup.wait_succeeded(2);
    for cluster in &setup.clusters {
        assert_eq!(
            setup.ws.patches(cluster, record),
            1,
            "a re-run does not apply {cluster} again"
        );
    }
}

/// An `exec` release that runs longer than the lease's time to live: the executor keeps
/// renewing its lease while the program runs, so the standby never takes over and no
/// cluster's program is started twice.
async fn a_long_exec_keeps_the_lease_and_runs_once_per_cluster(backend: Backend) {
    let setup = Setup::new(backend, 6, "").await;
    let path = setup.path();
    let script = path.join("upgrade.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"$FLEETDECK_CLUSTER\" >> \"$(dirname \"$0\")/started.txt\"\nsleep 4\n",
    )
    .expect("script");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let rollout = format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease:\n  name: slow-upgrade-1\n  bundle: {{chart: cni-1.17.2}}\n  action:\n    exec: {{argv: [\"{}\"], timeout: 1m}}\n  checks:\n    - nodesReady: {{minRatio: 0.9}}\ntargets: \"\"\nstages:\n  - {{name: all, batchSize: 3, soak: 1s, approval: auto, pick: ordered}}\nbudgets: {{maxInFlight: 3}}\n",
        script.display()
    );
    std::fs::write(path.join("rollout.yaml"), rollout).expect("rollout");
    setup.start_rollout();
    // Lease 2 s, each program 4 s: without renewal the standby would take over mid-call.
    let _active = Executor::spawn(path, setup.journal(), "exec-a", &[]);
    wait("exec-a to hold the lease", 30, setup.journal(), || {
        journal(setup.journal())
            .lease(&fleetdeck::model::run::LeaseScope::fleet())
            .ok()
            .flatten()
            .and_then(|l| l.holder)
            .is_some_and(|h| h.0.starts_with("executor@exec-a ["))
    });
    let _standby = Executor::spawn(path, setup.journal(), "exec-b", &[]);
    setup.wait_succeeded(1);
    let started = std::fs::read_to_string(path.join("started.txt")).expect("started");
    let mut lines: Vec<&str> = started.lines().collect();
    lines.sort();
    let mut expected = setup.clusters.clone();
    expected.sort();
    assert_eq!(
        lines, expected,
        "each cluster's program started exactly once"
    );
    let takeovers = journal(setup.journal())
        .query(&EventQuery::default())
        .expect("events")
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::LeaseAcquired { .. }))
        .count();
    assert_eq!(takeovers, 1, "the standby never took the lease");
}

/// A cluster whose release record already names the release's digest (an earlier run
/// whose journal is gone) is verified, not applied again: the deployed id decides.
async fn a_cluster_that_records_the_digest_is_not_applied_again_without_journal_history(
    backend: Backend,
) {
    use k8s_openapi::api::core::v1::ConfigMap;
    let setup = Setup::new(backend, 7, &ROLLOUT).await;
    let plan = setup.cli(&["-o", "json", "rollout", "plan", "rollout.yaml"]);
    let plan: serde_json::Value = serde_json::from_slice(&plan.stdout).expect("plan json");
    let digest = plan["digest"].as_str().expect("digest").to_string();
    let first = setup.clusters[0].clone();
    let record: ConfigMap = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "fleetdeck-release", "namespace": "kube-system"},
        "data": {"release": "cni-failover-1", "digest": digest},
    }))
    .expect("configmap");
    kube::Api::<ConfigMap>::namespaced(
        setup.ws.fleet.client(&first).expect("client"),
        "kube-system",
    )
    .create(&Default::default(), &record)
    .await
    .expect("record written");
    setup.start_rollout();
    let _executor = Executor::spawn(setup.path(), setup.journal(), "exec-a", &[]);
    setup.wait_succeeded(1);
    assert_eq!(
        setup.ws.patches(&first, ""),
        0,
        "nothing applied to {first}"
    );
    for other in &setup.clusters[1..] {
        // Two manifests and the release record.
        assert_eq!(setup.ws.patches(other, ""), 3, "{other}");
    }
}

impl Setup {
    fn events(&self) -> Vec<fleetdeck::model::run::Event> {
        journal(self.journal())
            .query(&EventQuery::default())
            .unwrap_or_default()
    }

    /// Whether the journal holds an apply intent.
    fn apply_journaled(&self) -> bool {
        self.events()
            .iter()
            .any(|e| matches!(&e.event.body, EventBody::Intent { action, .. } if action == "apply"))
    }

    /// Runs `executor`'s passes until the rollout succeeded.
    async fn finish_with(&self, executor: &mut InProcess) {
        self.finish_runs_with(executor, 1).await
    }

    /// Runs `executor`'s passes until `runs` rollouts succeeded.
    async fn finish_runs_with(&self, executor: &mut InProcess, runs: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.succeeded_runs() < runs {
            assert!(Instant::now() < deadline, "the rollout never succeeded");
            match executor.pass().await {
                // As `fleetdeck run` does: a write refused under a lost lease means
                // another executor holds it; this one stands by.
                Ok(_)
                | Err(EngineError::Journal(
                    JournalError::StaleToken { .. } | JournalError::LeaseLost { .. },
                )) => {}
                Err(error) => panic!("an executor failed: {error}"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Apply outcomes journaled by `actor`.
    fn applies_by(&self, actor: &str) -> usize {
        self.events()
            .iter()
            .filter(|e| {
                e.event.actor.0 == actor
                    && matches!(&e.event.body, EventBody::Outcome { intent, .. } if intent.0.contains("/apply/intent"))
            })
            .count()
    }

    /// Lease holders in the order they took the lease.
    fn lease_holders(&self) -> Vec<String> {
        self.events()
            .iter()
            .filter(|e| matches!(e.event.body, EventBody::LeaseAcquired { .. }))
            .map(|e| e.event.actor.0.clone())
            .collect()
    }

    /// Each cluster's release record was written exactly once, by one apply.
    fn each_applied_once(&self) {
        for cluster in &self.clusters {
            assert_eq!(
                self.ws.patches(cluster, "/configmaps/fleetdeck-release"),
                1,
                "{cluster}'s release applied once; lease holders {:?}",
                self.lease_holders()
            );
        }
    }
}

/// A started rollout whose first cluster answers every request in 1.5 s, longer than the
/// executors' one-second lease lives.
async fn started_with_a_slow_first_cluster(backend: Backend, seed: u64) -> (Setup, Live) {
    let setup = Setup::new(backend, seed, &ROLLOUT).await;
    let live = Live::new(&setup.ws).await;
    setup.start_rollout();
    setup
        .ws
        .fleet
        .update_faults(&setup.clusters[0], |f| f.latency_ms = 1500)
        .expect("faults");
    (setup, live)
}

/// The first cluster answers each request more slowly than the executor's lease lives. The
/// executor reads its release record before applying: that read keeps the lease, so the
/// standby, passing all along, never takes over mid-apply to apply the same cluster again.
async fn a_read_slower_than_the_lease_keeps_it_and_no_cluster_is_applied_twice(backend: Backend) {
    let (setup, mut live) = started_with_a_slow_first_cluster(backend, 8).await;
    let mut active = live.executor(&setup.ws, "executor-a", None);
    let mut standby = live.executor(&setup.ws, "executor-b", None);
    let (outcome, ()) = tokio::join!(active.pass(), setup.finish_with(&mut standby));
    setup.each_applied_once();
    outcome.expect("the active executor kept its lease through its pass");
    assert_eq!(
        setup.applies_by("executor-a"),
        setup.clusters.len(),
        "the active executor applied every cluster, its lease held through the slow read"
    );
    live.stop();
}

/// The executor stalls (a paused process, a frozen VM) right after journaling its applies,
/// longer than its lease lives; the standby takes the lease and settles them. Resumed, the
/// stalled executor finds its lease gone and starts no apply of its own.
async fn an_executor_that_lost_its_lease_while_stalled_starts_no_apply(backend: Backend) {
    // The first apply's read takes a while: the stall lands in it.
    let (setup, mut live) = started_with_a_slow_first_cluster(backend, 9).await;
    let mut active = live.executor(&setup.ws, "executor-a", None);
    let mut standby = live.executor(&setup.ws, "executor-b", None);
    let take_over = async {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !setup.apply_journaled() {
            assert!(Instant::now() < deadline, "no apply was journaled");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Blocks this task, and with it the active executor's pass (its lease renewals
        // included), as a stalled process would be.
        tokio::task::block_in_place(|| std::thread::sleep(Duration::from_millis(2500)));
        assert!(
            standby.hold_lease().expect("journal"),
            "the stalled executor's lease expired"
        );
        setup.finish_with(&mut standby).await;
    };
    let (outcome, ()) = tokio::join!(active.pass(), take_over);
    setup.each_applied_once();
    assert_eq!(
        setup.applies_by("executor-a"),
        0,
        "the stalled executor applied nothing"
    );
    outcome.expect("the stalled executor stood down without writing under its old lease");
    live.stop();
}

/// Metric evidence from a Prometheus that never answers takes its full timeout per
/// cluster, far longer than the lease lives: the executor keeps its lease meanwhile, so
/// the standby never takes over.
async fn slow_metric_evidence_keeps_the_lease(backend: Backend) {
    let rollout = format!(
        "{}  sloBurnRate: {{objective: 99, window: 20s, maxBurn: 5}}\n  unknownMetrics: ignore\n",
        ROLLOUT.replace("targets: \"\"", "targets: \"env=staging\"")
    );
    let setup = Setup::new(backend, 10, &rollout).await;
    let mut live = Live::new(&setup.ws).await;
    // Accepts connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listener");
    let url = format!("http://{}", silent.local_addr().expect("address"));
    let _hold = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            open.push(socket);
        }
    });
    setup.start_rollout();
    // Each query waits out its 5 s timeout, more than twice a 2 s lease: long enough to
    // lose the lease if it were not renewed, while a renewal every third of it keeps
    // room for a journal write slowed by a busy machine (1 s left too little).
    let lease_ttl = |options: &mut ExecutorOptions| options.lease_ttl = Duration::from_secs(2);
    let mut active = live.executor_with(&setup.ws, "executor-a", Some(&url), lease_ttl);
    let mut standby = live.executor_with(&setup.ws, "executor-b", Some(&url), lease_ttl);
    tokio::join!(
        setup.finish_with(&mut active),
        setup.finish_with(&mut standby)
    );
    let holders = setup.lease_holders();
    assert_eq!(
        holders.len(),
        1,
        "the lease never changed hands: {holders:?}"
    );
    live.stop();
}

/// The batch's first apply fails (its cluster refuses ConfigMaps), which halts the run
/// (`failedClusters: 1`). Returns once the halt is journaled, with the executor that
/// halted it.
async fn halted_by_a_failed_first_apply(backend: Backend, seed: u64) -> (Setup, Live, InProcess) {
    halted_by_failing_applies(backend, seed, 1).await
}

/// As [`halted_by_a_failed_first_apply`], with the batch's first `failing` clusters
/// refusing ConfigMaps.
async fn halted_by_failing_applies(
    backend: Backend,
    seed: u64,
    failing: usize,
) -> (Setup, Live, InProcess) {
    let setup = Setup::new(backend, seed, &ROLLOUT).await;
    let live = Live::new(&setup.ws).await;
    setup.refuse_configmaps(&setup.clusters[..failing], true);
    setup.start_rollout();
    let mut executor = live.executor(&setup.ws, "executor-a", None);
    setup.pass_until_halted(&mut executor, 1).await;
    (setup, live, executor)
}

impl Setup {
    fn halted(&self) -> bool {
        self.halts() > 0
    }

    /// Halts journaled so far.
    fn halts(&self) -> usize {
        self.events()
            .iter()
            .filter(|e| matches!(e.event.body, EventBody::RolloutHalted { .. }))
            .count()
    }

    /// Runs `executor`'s passes until `halts` halts are journaled.
    async fn pass_until_halted(&self, executor: &mut InProcess, halts: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.halts() < halts {
            assert!(Instant::now() < deadline, "the run never halted");
            executor.pass().await.expect("pass");
        }
    }

    /// Makes `clusters` refuse (or accept again) every ConfigMap request.
    fn refuse_configmaps(&self, clusters: &[String], refuse: bool) {
        for cluster in clusters {
            self.ws
                .fleet
                .update_faults(cluster, |f| {
                    f.forbidden_resources = if refuse {
                        vec!["configmaps".into()]
                    } else {
                        Vec::new()
                    }
                })
                .expect("faults");
        }
    }

    /// `rollout resume` as alice.
    fn resume(&self, note: &str) {
        let resumed = self.cli(&["rollout", "resume", &self.run_id(), "--note", note]);
        assert!(
            resumed.status.success(),
            "{}",
            String::from_utf8_lossy(&resumed.stderr)
        );
    }

    /// Release records written to `cluster`.
    fn records(&self, cluster: &str) -> usize {
        self.ws.patches(cluster, "/configmaps/fleetdeck-release")
    }

    fn run_id(&self) -> String {
        let projection = journal(self.journal()).projection().expect("projection");
        projection.runs.keys().next().expect("a run").0.clone()
    }
}

/// A failed apply that halts the run stops the rest of its batch: the two clusters whose
/// applies were to follow in the same batch are not touched. Resumed by a person once the
/// cause is mended, the run applies them, once each, under the intents it journaled; the
/// failed cluster stays failed (the person accepted it).
async fn a_failed_apply_that_halts_the_run_stops_the_rest_of_its_batch(backend: Backend) {
    // The first two clusters refuse the release; the run allows no failed cluster.
    let (setup, mut live, mut executor) = halted_by_failing_applies(backend, 12, 2).await;
    let [first, second, third] = [0, 1, 2].map(|i| setup.clusters[i].clone());
    for _ in 0..5 {
        executor.pass().await.expect("pass");
    }
    for other in [&second, &third] {
        assert_eq!(setup.ws.patches(other, ""), 0, "{other} untouched");
    }
    let held = setup
        .events()
        .iter()
        .filter(|e| matches!(&e.event.body, EventBody::Waiting { why } if why.contains("waits: the run is halted")))
        .count();
    assert_eq!(held, 2, "each held apply is noted once");

    // Resumed without mending the second: its held apply fails in turn and halts the run
    // again before the third's goes out.
    setup.resume("the first one is a known issue");
    setup.pass_until_halted(&mut executor, 2).await;
    for _ in 0..5 {
        executor.pass().await.expect("pass");
    }
    assert_eq!(setup.ws.patches(&third, ""), 0, "{third} still untouched");

    setup.refuse_configmaps(&setup.clusters, false);
    setup.resume("RBAC mended");
    setup.finish_with(&mut executor).await;
    for failed in [&first, &second] {
        assert_eq!(setup.records(failed), 0, "{failed} stays failed");
    }
    assert_eq!(setup.records(&third), 1, "{third} applied once");
    let second_attempts = setup
        .events()
        .iter()
        .filter(|e| {
            matches!(&e.event.body, EventBody::Intent { .. }) && e.event.key.0.ends_with("#2")
        })
        .count();
    assert_eq!(second_attempts, 0, "the held applies went out as journaled");
    live.stop();
}

/// Aborted while applies wait: they never start, and their intents are closed (no open
/// intent is left for `rollout show` or a later executor), also by an executor that
/// rebuilds the run after a restart.
async fn an_aborted_run_closes_the_intents_of_applies_that_never_started(backend: Backend) {
    let (setup, mut live, mut executor) = halted_by_a_failed_first_apply(backend, 15).await;
    let aborted = setup.cli(&[
        "rollout",
        "abort",
        &setup.run_id(),
        "--note",
        "wrong release",
    ]);
    assert!(
        aborted.status.success(),
        "{}",
        String::from_utf8_lossy(&aborted.stderr)
    );
    for _ in 0..3 {
        executor.pass().await.expect("pass");
    }
    let open = |setup: &Setup| -> Vec<String> {
        let projection = journal(setup.journal()).projection().expect("projection");
        projection
            .runs
            .values()
            .flat_map(|run| run.items.iter())
            .filter(|(_, view)| !view.open_intents.is_empty())
            .map(|(item, view)| format!("{item}: {:?}", view.open_intents))
            .collect()
    };
    assert_eq!(open(&setup), Vec::<String>::new());
    drop(executor);
    let mut restarted = live.executor(&setup.ws, "executor-b", None);
    for _ in 0..3 {
        restarted.pass().await.expect("pass");
    }
    assert_eq!(open(&setup), Vec::<String>::new());
    for other in &setup.clusters[1..] {
        assert_eq!(setup.ws.patches(other, ""), 0, "{other} never applied");
        let failed = setup.events().iter().any(|e| {
            matches!(&e.event.body, EventBody::RolloutObserved {
                observation: Observation::Applied { cluster, result: Err(_) }, ..
            } if cluster.as_str() == *other)
        });
        assert!(!failed, "{other} never started, so it did not fail either");
    }
    live.stop();
}

/// The executor journaled a failed apply's outcome and stopped before folding it (the
/// journal is cut right there). A new executor folds the failure as the apply reported
/// it, so the run halts as it would have; it does not read the cluster, find the release
/// missing and apply it again, and the batch's other clusters wait for a person.
async fn a_failure_journaled_just_before_a_crash_is_folded_not_applied_again(backend: Backend) {
    let (mut setup, mut live, executor) = halted_by_a_failed_first_apply(backend, 13).await;
    drop(executor);
    let first = setup.clusters[0].clone();
    let events = setup.events();
    let cut = events
        .iter()
        .position(|e| {
            matches!(
                &e.event.body,
                EventBody::RolloutObserved {
                    observation: Observation::Applied { cluster, result: Err(_) },
                    ..
                } if cluster.as_str() == first
            )
        })
        .expect("the failure was folded");
    assert!(
        events[..cut].iter().any(|e| matches!(&e.event.body,
            EventBody::Outcome { intent, ok: false, .. } if intent.0.contains(&format!("/{first}/apply/intent")))),
        "the failed outcome precedes the cut"
    );
    // The journal as it was at the crash: a new one, with the events up to the cut as
    // they were (sequences, actors, times).
    let crashed = tempfile::tempdir().expect("tempdir");
    setup.ws.journal = TestJournal::new(backend, crashed.path());
    journal(setup.journal())
        .import(events[..cut].to_vec())
        .expect("the journal as it was at the crash");

    // The cause is mended: an apply now would write the release record.
    setup
        .ws
        .fleet
        .update_faults(&first, |f| f.forbidden_resources.clear())
        .expect("faults");
    let mut restarted = live.executor(&setup.ws, "executor-b", None);
    let deadline = Instant::now() + Duration::from_secs(60);
    let applied_any = || setup.clusters.iter().any(|c| setup.ws.patches(c, "") > 0);
    while !setup.halted() && !applied_any() {
        assert!(Instant::now() < deadline, "the restarted run never halted");
        restarted.pass().await.expect("pass");
    }
    for _ in 0..5 {
        restarted.pass().await.expect("pass");
    }
    for cluster in &setup.clusters {
        assert_eq!(setup.ws.patches(cluster, ""), 0, "{cluster} not applied");
    }
    live.stop();
}

/// The journal says every cluster runs the release, but one was rebuilt since (its release
/// record is gone). Started again, the release is applied to that cluster and only
/// verified on the others: the deployed id decides, not the journal's memory.
async fn a_rebuilt_cluster_the_journal_says_runs_the_release_gets_it_again(backend: Backend) {
    use k8s_openapi::api::core::v1::ConfigMap;
    let setup = Setup::new(backend, 14, &ROLLOUT).await;
    let mut live = Live::new(&setup.ws).await;
    let mut executor = live.executor(&setup.ws, "executor-a", None);
    setup.start_rollout();
    setup.finish_with(&mut executor).await;
    let rebuilt = setup.clusters[0].clone();
    kube::Api::<ConfigMap>::namespaced(
        setup.ws.fleet.client(&rebuilt).expect("client"),
        "kube-system",
    )
    .delete("fleetdeck-release", &Default::default())
    .await
    .expect("record deleted");

    let again = setup.start_rollout();
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(
        said.contains("3 cluster(s) already run this digest"),
        "{said}"
    );
    setup.finish_runs_with(&mut executor, 2).await;
    assert_eq!(setup.records(&rebuilt), 2, "applied again to {rebuilt}");
    for other in &setup.clusters[1..] {
        assert_eq!(setup.records(other), 1, "{other} only verified");
    }
    assert!(setup.events().iter().any(|e| matches!(&e.event.body,
        EventBody::ExecutorNote { text } if text.contains(&format!("the journal says {rebuilt} runs")))));
    live.stop();
}

on_both_backends_async!(
    a_standby_finishes_the_batch_and_no_cluster_is_applied_twice,
    a_long_exec_keeps_the_lease_and_runs_once_per_cluster,
    a_cluster_that_records_the_digest_is_not_applied_again_without_journal_history,
    a_read_slower_than_the_lease_keeps_it_and_no_cluster_is_applied_twice,
    an_executor_that_lost_its_lease_while_stalled_starts_no_apply,
    slow_metric_evidence_keeps_the_lease,
    a_failed_apply_that_halts_the_run_stops_the_rest_of_its_batch,
    an_aborted_run_closes_the_intents_of_applies_that_never_started,
    a_failure_journaled_just_before_a_crash_is_folded_not_applied_again,
    a_rebuilt_cluster_the_journal_says_runs_the_release_gets_it_again,
);
