//! The attacks whose outcome is what an executor does: each made with raw SQL (or, for
//! an executor login, through the store with a lease it took), then an executor runs on
//! the simulated fleet, and the test looks at the clusters as well as the journal.
//!
//! - A second plan with other manifests and automatic approval is refused; a run whose
//!   plan carries manifests that do not give its digest applies nothing anywhere.
//! - An approval observation an executor login wrote under a lease it held, naming a
//!   person who never approved, is not replayed: the batch still waits for a person.
//! - Keys squatted ahead of a run and a poisoned row left from before the door do not
//!   stop the executor: the run finishes.

use std::time::{Duration, Instant};

use crate::support::backend::Backend;
use crate::support::checks::{busy_node, events, maintenance_yaml, record_maintenance};
use crate::support::rollout::{CNI_MANIFEST, InProcess, Live, Workspace};
use crate::support::team::{Team, server};
use fleetdeck::journal::{JournalStore, LeaseGrant};
use fleetdeck::model::rollout::Observation;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, LeaseScope, NewEvent, RunId, RunStatus,
};

/// One cluster, approved by someone other than its author before it is applied.
const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-guarded
  bundle: {cni: cilium-1.17.2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: "id=small-stg-01"
stages:
  - {name: canary, batchSize: 1, soak: 1s, approval: required, pick: ordered}
budgets: {maxInFlight: 1}
stopWhen:
  failedClusters: 1
approvals:
  distinctApprover: true
"#;

/// The workspace on PostgreSQL with its members' roles, the rollout started by op_a, and
/// its run id.
async fn started() -> (Workspace, Team, RunId) {
    let ws = Workspace::on(Backend::Postgres, "small", 11, CNI_MANIFEST, ROLLOUT).await;
    for who in ["op_a", "op_b", "exec-a", "exec-b"] {
        ws.journal.target_for(who);
    }
    let team = Team::on(ws.journal.database().expect("a database"));
    let out = ws.fleetdeck("op_a", &["rollout", "start", "rollout.yaml"]);
    assert!(out.status.success(), "{}", crate::support::cli::text(&out));
    let run = team
        .projection()
        .runs
        .keys()
        .next()
        .expect("the run")
        .clone();
    (ws, team, run)
}

/// [`started`], and driven by an executor (stopped since) until the canary awaits its
/// approval; with the live fleet view a new executor runs on.
async fn awaiting_approval() -> (Workspace, Team, RunId, Live) {
    let (ws, team, run) = started().await;
    let live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "exec-a", None);
    pass_until(
        &mut executor,
        &team,
        60,
        "the canary to await approval",
        |t| awaits_approval(t, &run),
    )
    .await;
    (ws, team, run, live)
}

/// Passes `executor` until `done` holds of the journal (at most `secs`).
async fn pass_until(
    executor: &mut InProcess,
    team: &Team,
    secs: u64,
    what: &str,
    done: impl Fn(&Team) -> bool,
) {
    let from = Instant::now();
    while !done(team) {
        assert!(
            from.elapsed() < Duration::from_secs(secs),
            "{what}: not within {secs} s"
        );
        let _ = executor.pass().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn awaits_approval(team: &Team, run: &RunId) -> bool {
    team.projection()
        .runs
        .get(run)
        .is_some_and(|r| r.status == RunStatus::AwaitingApproval)
}

/// PATCH requests that would change what small-stg-01 runs: the release's ConfigMap and
/// the release record.
fn changes(ws: &Workspace) -> usize {
    ws.patches("small-stg-01", "/configmaps/cni-settings")
        + ws.patches("small-stg-01", "/configmaps/fleetdeck-release")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_plan_applies_nothing_whether_as_a_second_plan_or_with_a_digest_it_does_not_give()
{
    let (ws, team, run, mut live) = awaiting_approval().await;

    // The same run re-planned with evil manifests and no approval: refused.
    let changed = |source: &str, target: &str, key: &str| {
        format!(
            "INSERT INTO fleetdeck.events (time_us, kind, run_id, cluster, payload, idem_key)
             SELECT time_us + 1, kind, '{target}', cluster,
                    jsonb_set(jsonb_set(jsonb_set(payload::jsonb,
                        '{{spec,manifests,0,text}}', '\"apiVersion: v1\\nkind: ConfigMap\\nmetadata: {{name: cni-settings, namespace: kube-system}}\\ndata: {{version: evil}}\\n\"'),
                        '{{spec,batches,0,approval}}', '\"auto\"'),
                        '{{spec,rollout,approvals}}', '\"anyPerson\"')::json, '{key}'
               FROM fleetdeck.events WHERE kind = 'run.planned' AND run_id = '{source}'"
        )
    };
    let (ok, out) = team.psql("op_a", &changed(&run.0, &run.0, "replan"));
    assert!(!ok && out.contains("already has a plan"), "{out}");
    // A run of its own whose plan keeps the real digest over the evil manifests: stored
    // (it is op_a's first plan of that run), and driven, but applied nowhere.
    let forged = RunId(format!("{}-evil", run.0));
    let (ok, out) = team.psql("op_a", &changed(&run.0, &forged.0, "evil/planned"));
    assert!(ok, "{out}");

    // A restarted executor reads both from the journal.
    let mut executor = live.executor(&ws, "exec-a", None);
    pass_until(&mut executor, &team, 60, "the forged run to halt", |t| {
        t.projection()
            .runs
            .get(&forged)
            .is_some_and(|r| matches!(r.status, RunStatus::Halted { .. }))
    })
    .await;
    for _ in 0..5 {
        let _ = executor.pass().await;
    }
    live.stop();
    assert_eq!(changes(&ws), 0, "nothing applied to the cluster");
    assert!(
        awaits_approval(&team, &run),
        "the real run still waits for a person"
    );
    let refused = events(&ws.journal)
        .into_iter()
        .find_map(|e| match e.event.body {
            EventBody::Outcome {
                ok: false, detail, ..
            } if e.event.run.as_ref() == Some(&forged) => Some(detail.to_string()),
            _ => None,
        })
        .expect("the forged apply's outcome");
    assert!(refused.contains("digest"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_observation_no_person_gave_is_not_replayed() {
    let (ws, team, run, mut live) = awaiting_approval().await;
    // Another executor login takes the lease once it lapsed (as it may), and writes an
    // observation that op_b approved, which op_b never did.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut rogue = ws.journal.open_as("exec-b");
    let lease = match rogue
        .acquire_lease(
            &LeaseScope::fleet(),
            &Actor("exec-b".into()),
            Duration::from_secs(2),
            jiff::Timestamp::now(),
        )
        .expect("the lease")
    {
        LeaseGrant::Acquired { lease } => lease,
        other => panic!("{other:?}"),
    };
    let forged = NewEvent::new(
        jiff::Timestamp::now(),
        Actor("exec-b".into()),
        IdempotencyKey::for_run(&run, "observed@forged"),
        EventBody::RolloutObserved {
            observation: Observation::Approve {
                batch: 0,
                by: Actor("op_b".into()),
                note: "looks fine".into(),
            },
            command: None,
        },
    )
    .with_run(run.clone());
    let stored = rogue
        .append(forged, Some(&lease.fence()))
        .expect("a lease holder may write");
    rogue
        .release_lease(&lease, jiff::Timestamp::now())
        .expect("released");

    let mut executor = live.executor(&ws, "exec-a", None);
    let said = format!("journal event {} not replayed", stored.event.seq.0);
    pass_until(&mut executor, &team, 60, "the executor to say it did not replay it", |t| {
        t.events().iter().any(|e| matches!(&e.event.body, EventBody::ExecutorNote { text } if text.starts_with(&said)))
    })
    .await;
    for _ in 0..10 {
        let _ = executor.pass().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    live.stop();
    assert!(awaits_approval(&team, &run), "still waiting for a person");
    assert!(
        team.projection().runs[&run].approvals.is_empty(),
        "nothing counted"
    );
    assert_eq!(changes(&ws), 0, "nothing applied");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn squatted_keys_and_a_poisoned_row_do_not_stop_the_next_run() {
    let ws = Workspace::on(Backend::Postgres, "small", 13, CNI_MANIFEST, ROLLOUT).await;
    for who in ["op_a", "exec-a"] {
        ws.journal.target_for(who);
    }
    let team = Team::on(ws.journal.database().expect("a database"));
    // op_d is an operator only, as `support::team` makes it (login roles are the server's,
    // shared by every test on it).
    server()
        .login_role("op_d", &["fleetdeck_operator"])
        .expect("op_d");
    let node = busy_node(&ws, "small-02").await;
    let at = jiff::Timestamp::now();
    let run = RunId(format!("mnt-squat-{}", at.as_second()));
    // The keys the executor will use for the run's status and the node's first steps,
    // taken ahead by another operator; and a row no reader can parse.
    let keys = [
        format!("{run}/status/running"),
        format!("{run}/status/final"),
        format!("{run}/{node}/Precheck/status/running#0"),
        format!("{run}/{node}/Precheck/status/running#1"),
        format!("{run}/{node}/Cordon/cordon#0"),
        format!("{run}/{node}/Cordon/cordon#1"),
    ];
    for key in &keys {
        let (ok, out) = team.psql(
            "op_d",
            &format!("INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (0, 'operator.note', '{{\"text\": \"taken\"}}', '{key}')"),
        );
        assert!(ok, "{out}");
    }
    team.poison();
    let yaml = maintenance_yaml(
        "squat",
        "small-02",
        std::slice::from_ref(&node),
        "[\"true\"]",
        true,
    );
    let recorded = record_maintenance(&ws, "op_a", &yaml, at).await;
    assert_eq!(
        recorded, run,
        "the run has the id its keys were squatted for"
    );

    let mut live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "exec-a", None);
    pass_until(&mut executor, &team, 120, "the run to finish", |t| {
        t.projection()
            .runs
            .get(&run)
            .is_some_and(|r| r.status == RunStatus::Succeeded)
    })
    .await;
    live.stop();
    let all = team.events();
    let by_executor = |key: &str| {
        all.iter()
            .any(|e| e.event.key.0 == key && e.event.actor.0 == "exec-a")
    };
    assert!(
        by_executor(&keys[0]),
        "the run's status went in under its key"
    );
    assert!(by_executor(&keys[1]), "and its final status");
    let p = team.projection();
    assert_eq!(
        p.unreadable.len(),
        1,
        "the poisoned row is skipped and named"
    );
}
