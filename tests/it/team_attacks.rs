//! The team journal against its own users: every attack a member can make with raw SQL
//! and their role's password (`psql` over TCP on loopback), one test per class, each
//! asserting the outcome in the journal (nothing stored, nothing counted, nothing moved),
//! not only that an error was printed. The attacks found on the schema before version 4
//! (a second plan, a decoy plan, unfenced executor writes, poisoned payloads, a lock a
//! viewer can hold, squatted keys, an operator's run status, PUBLIC's defaults) and the
//! ones already refused before (rewriting history, DDL, role switching, search_path,
//! COPY, prepared transactions, SQL in names, the import switch, the lease functions).
//! What a changed plan or a forged decision would make an executor do is in
//! `team_attacks_run`.
//!
//! Over 600 lines: one test per attack class, on the shared team helpers at the top.

use std::time::{Duration, Instant};

use crate::support::team::{Team, one_cluster_plan, server};
use fleetdeck::engine::rollout_start::{NewRollout, record_rollout};
use fleetdeck::journal::{JournalError, JournalStore, LeaseGrant};
use fleetdeck::model::rollout::{Approval, ApprovalPolicy, ReleaseDigest, read_rollout};
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, LeaseScope, NewEvent, RunId, RunStatus, StepName,
    StepStatus,
};

/// A rollout of one required-approval batch over `c1`, approvals by someone other than
/// its author.
const ROLLOUT: &str = "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease:\n  name: cni\n  bundle: {cni: c1}\n  action:\n    exec: {argv: [helm, upgrade], timeout: 1m}\n  checks:\n    - nodesReady: {minRatio: 0.9}\ntargets: \"\"\nstages:\n  - {name: all, batchSize: 1, soak: 10s, approval: required, pick: ordered}\nbudgets: {maxInFlight: 1}\nstopWhen: {failedClusters: 1}\napprovals: {distinctApprover: true}\n";

/// `actor` starts the rollout as `rollout start` journals it; its run id.
fn start_rollout(team: &Team, actor: &str, at: jiff::Timestamp) -> RunId {
    let rollout = read_rollout(ROLLOUT).spec.expect("a valid rollout");
    assert_eq!(rollout.approvals, ApprovalPolicy::DistinctFromAuthor);
    let plan = one_cluster_plan(Approval::Required);
    let new = NewRollout {
        rollout,
        digest: ReleaseDigest("sha256:00".into()),
        manifests: Vec::new(),
        plan: &plan,
    };
    record_rollout(&mut team.open_as(actor), &Actor(actor.into()), new, at)
        .expect("the rollout starts")
        .0
}

fn now() -> jiff::Timestamp {
    jiff::Timestamp::now()
}

fn approval(run: &RunId, by: &str) -> NewEvent {
    let actor = Actor(by.into());
    NewEvent::new(
        now(),
        actor.clone(),
        IdempotencyKey::for_command(&actor, now(), std::process::id(), "approve"),
        EventBody::RunApproved {
            batch: Some(0),
            note: "go".into(),
        },
    )
    .with_run(run.clone())
}

/// The executor `who`'s fleet lease.
fn lease_of(team: &Team, who: &str) -> (fleetdeck::journal::AnyJournal, fleetdeck::journal::Lease) {
    let mut store = team.open_as(who);
    match store
        .acquire_lease(
            &LeaseScope::fleet(),
            &Actor(who.into()),
            Duration::from_secs(60),
            now(),
        )
        .expect("the lease")
    {
        LeaseGrant::Acquired { lease } => (store, lease),
        other => panic!("{other:?}"),
    }
}

fn assert_refused(out: &(bool, String), says: &str) {
    assert!(!out.0, "the database took it: {}", out.1);
    assert!(
        out.1.contains(says),
        "refused, but not saying {says:?}: {}",
        out.1
    );
}

/// The second plan in the journal's own SQL: the real plan with its approval turned to
/// anyone's and its batch to automatic, under a new key.
fn second_plan_sql(run: &RunId, key: &str) -> String {
    format!(
        "INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key)
         SELECT time_us + 1, kind, run_id,
                jsonb_set(jsonb_set(payload::jsonb, '{{spec,rollout,approvals}}', '\"anyPerson\"'),
                          '{{spec,batches,0,approval}}', '\"auto\"')::json, '{key}'
           FROM fleetdeck.events WHERE kind = 'run.planned' AND run_id = '{run}'"
    )
}

#[test]
fn a_second_plan_for_a_run_is_refused_and_every_reader_keeps_the_first() {
    let team = Team::new();
    let run = start_rollout(&team, "op_a", now());
    // Her own run, and another's, as an operator without the approver role.
    assert_refused(
        &team.psql("op_a", &second_plan_sql(&run, "again")),
        "already has a plan",
    );
    assert_refused(
        &team.psql("op_d", &second_plan_sql(&run, "again-d")),
        "already has a plan",
    );
    let plans = team
        .events()
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::RunPlanned { .. }))
        .count();
    assert_eq!(plans, 1, "one plan stored");
    // Nothing counted: the author's approval is refused, the run still awaits one.
    assert_refused(
        &team.psql(
            "op_a",
            &format!("INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) VALUES (0, 'run.approved', '{run}', '{{\"batch\": 0, \"note\": \"me\"}}', 'self')"),
        ),
        "cannot approve",
    );
    let p = team.projection();
    let view = &p.runs[&run];
    assert_eq!(view.created_by, Actor("op_a".into()));
    assert_eq!(
        fleetdeck::model::rollout::rollout_of(&view.spec).map(|r| r.approvals),
        Some(ApprovalPolicy::DistinctFromAuthor),
        "every reader reads the first plan"
    );
    assert!(view.approvals.is_empty());
}

#[test]
fn a_decoy_plan_under_a_predicted_id_leaves_the_real_start_its_own_run_and_rules() {
    let team = Team::new();
    let at = now();
    // op_b predicts the id op_a's next start will want and plans a lenient decoy there.
    let predicted = format!("ro-cni-{}", at.as_second());
    let decoy = format!(
        "INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) VALUES (0, 'run.planned', '{predicted}', '{{\"title\": \"decoy\", \"items\": [], \"batches\": [], \"spec\": {{\"rollout\": {{\"approvals\": \"anyPerson\"}}}}}}', '{predicted}/planned')"
    );
    let (ok, out) = team.psql("op_b", &decoy);
    assert!(ok, "the decoy is op_b's own run: {out}");
    let real = start_rollout(&team, "op_a", at);
    assert_ne!(real.0, predicted, "the real start is a run of its own");
    // The database and every reader judge op_a's run by op_a's plan: her own approval
    // is refused, as raw SQL and as a client.
    let refused = team
        .open_as("op_a")
        .append(approval(&real, "op_a"), None)
        .unwrap_err();
    assert!(
        matches!(&refused, JournalError::Refused(why) if why.contains("op_a started this rollout")),
        "{refused}"
    );
    let p = team.projection();
    assert_eq!(p.runs[&real].created_by, Actor("op_a".into()));
    assert!(p.runs[&real].approvals.is_empty(), "nothing counted");
    assert_eq!(p.runs[&RunId(predicted)].created_by, Actor("op_b".into()));
}

#[test]
fn executor_writes_without_the_live_lease_are_refused_and_nothing_is_counted() {
    let team = Team::new();
    let run = start_rollout(&team, "op_a", now());
    let observed = |scope: &str, token: &str| {
        let tag = format!("{scope}-{token}").replace('\'', "");
        format!(
            "INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key, lease_scope, lease_token) VALUES (0, 'rollout.observed', '{run}', '{{\"observation\": {{\"observed\": \"approve\", \"batch\": 0, \"by\": \"op_b\", \"note\": \"fine\"}}, \"command\": null}}', 'forged-{tag}', {scope}, {token})"
        )
    };
    // No fence at all.
    assert_refused(
        &team.psql("exec_b", &observed("NULL", "NULL")),
        "carries no fence",
    );
    // exec_a's live fence, presented by exec_b.
    let (mut a, lease) = lease_of(&team, "exec_a");
    let token = lease.token.0.to_string();
    assert_refused(
        &team.psql("exec_b", &observed("'fleet'", &token)),
        "stale fencing token",
    );
    // exec_a's fence once the lease is given back.
    a.release_lease(&lease, now()).expect("released");
    assert_refused(
        &team.psql("exec_a", &observed("'fleet'", &token)),
        "stale fencing token",
    );
    // Other executor kinds, and an operator's run status, the same.
    for kind in [
        "step.status",
        "run.status",
        "rollout.batch",
        "executor.note",
    ] {
        let sql = format!(
            "INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) VALUES (0, '{kind}', '{run}', '{{}}', 'k-{kind}')"
        );
        let (ok, out) = team.psql("exec_b", &sql);
        assert!(!ok, "{kind}: {out}");
    }
    let stored = team.events();
    assert!(
        !stored.iter().any(|e| matches!(
            e.event.body,
            EventBody::RolloutObserved { .. } | EventBody::RunStatusChanged { .. }
        )),
        "nothing stored"
    );
    assert!(team.projection().runs[&run].approvals.is_empty());
}

#[test]
fn payloads_no_reader_could_read_are_refused_at_the_door() {
    let team = Team::new();
    let before = team.events().len();
    let note = |payload: &str, key: &str| {
        format!(
            "INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (1750000000000000, 'operator.note', '{payload}', '{key}')"
        )
    };
    let mut deep = String::from("1");
    for _ in 0..70 {
        deep = format!("[{deep}]");
    }
    for (payload, says) in [
        (r#"{"text": 1e400}"#.to_string(), "beyond ±10^18"),
        (
            r#"{"text": "x", "n": 18446744073709551616}"#.to_string(),
            "beyond ±10^18",
        ),
        (
            r#"{"text": 5}"#.to_string(),
            "its \"text\" is a number, not string",
        ),
        (r#"{"txt": "x"}"#.to_string(), "it has no \"text\""),
        (r#""just a string""#.to_string(), "not an object"),
        (
            format!(r#"{{"text": "x", "deep": {deep}}}"#),
            "nested 64 levels deep",
        ),
        (r#"{"text": "\ud800"}"#.to_string(), "Unicode"),
        (r#"{"text": "a\u0000b"}"#.to_string(), "Unicode"),
    ] {
        assert_refused(&team.psql("op_a", &note(&payload, "poison")), says);
    }
    // A time no reader can hold, a plan without its run.
    assert_refused(
        &team.psql(
            "op_a",
            "INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (9223372036854775807, 'operator.note', '{\"text\": \"x\"}', 'late')",
        ),
        "before 1970 or after 9999",
    );
    assert_refused(
        &team.psql(
            "op_a",
            "INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (0, 'run.planned', '{\"title\": \"t\", \"items\": [], \"batches\": [], \"spec\": null}', 'norun')",
        ),
        "names the run it plans",
    );
    assert_eq!(team.events().len(), before, "nothing stored");
}

/// `fleetdeck ARGS` as op_a on the team's journal, in `dir`.
fn cli(team: &Team, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--journal".to_string(), team.url("op_a")];
    all.extend(args.iter().map(|a| a.to_string()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    crate::support::cli::fleetdeck(&all, dir)
}

#[test]
fn a_poisoned_row_from_before_the_door_is_skipped_by_every_reader_and_named() {
    let team = Team::new();
    let run = start_rollout(&team, "op_a", now());
    team.poison();
    let poisoned = team.events().len() as i64;
    let dir = tempfile::tempdir().expect("tempdir");
    for args in [
        vec!["journal"],
        vec!["rollout", "list"],
        vec!["handover", "-o", "json"],
        vec!["pause", "--all", "--reason", "look at the journal"],
    ] {
        let out = cli(&team, dir.path(), &args);
        let text = crate::support::cli::text(&out);
        assert!(
            out.status.success(),
            "{args:?} stopped at the bad row: {text}"
        );
        assert!(
            text.contains(&format!("#{poisoned} operator.pause")) && text.contains("skipped"),
            "{args:?} names the row it skipped: {text}"
        );
    }
    // The poisoned pause pauses nothing; the person's pause is the one in force.
    let p = team.projection();
    assert_eq!(p.unreadable.len(), 1);
    let pause = p
        .pauses
        .get(&fleetdeck::model::run::PauseScope::Fleet)
        .expect("paused");
    assert_eq!(pause.by, Actor("op_a".into()));
    assert_eq!(pause.reason, "look at the journal");
    assert!(p.runs.contains_key(&run), "read past it");
}

#[test]
fn a_viewer_cannot_take_the_writers_lock_and_a_writer_holding_it_is_timed_out() {
    let team = Team::new();
    // What a viewer can take: the advisory lock writers used to take, a share lock on
    // the table. Neither holds a writer up.
    let mut viewer = team.session("view_c");
    viewer.send("BEGIN; SELECT pg_advisory_lock(7380453045844698467); LOCK TABLE fleetdeck.events IN ACCESS SHARE MODE;");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    team.open_as("op_a")
        .append(note("while a viewer holds what it can"), None)
        .expect("written");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // What it cannot take.
    assert_refused(
        &team.psql(
            "view_c",
            "BEGIN; LOCK TABLE fleetdeck.write_lock IN EXCLUSIVE MODE; COMMIT;",
        ),
        "permission denied",
    );
    assert_refused(
        &team.psql("view_c", "SELECT fleetdeck.lock_writes()"),
        "permission denied",
    );
    assert_refused(
        &team.psql("view_c", "BEGIN; PREPARE TRANSACTION 'hold';"),
        "prepared transactions are disabled",
    );
    viewer.close();
    // A writer that sits on the lock: the others give up within lock_timeout, and nothing
    // of theirs is recorded; once it lets go, they write.
    let mut hog = team.session("op_b");
    hog.send("BEGIN; SELECT fleetdeck.lock_writes();");
    std::thread::sleep(Duration::from_millis(300));
    let before = team.events().len();
    let mut timid = fleetdeck::journal::AnyJournal::open(
        &fleetdeck::journal::JournalTarget::Postgres(
            team.url_with("op_a", "options='-c lock_timeout=500ms'"),
        ),
        fleetdeck::journal::OpenMode::ReadWrite,
    )
    .expect("opens");
    let started = Instant::now();
    let refused = timid
        .append(note("while a writer holds the lock"), None)
        .unwrap_err();
    assert!(matches!(refused, JournalError::Busy(_)), "{refused}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(team.events().len(), before, "nothing recorded");
    hog.send("COMMIT;");
    hog.close();
    timid
        .append(note("after"), None)
        .expect("written once the lock is free");
}

fn note(text: &str) -> NewEvent {
    let actor = Actor("op_a".into());
    NewEvent::new(
        now(),
        actor.clone(),
        IdempotencyKey::for_command(&actor, now(), std::process::id(), "note"),
        EventBody::Note { text: text.into() },
    )
}

#[test]
fn a_pause_whose_command_was_killed_while_it_waited_is_never_recorded_later() {
    let team = Team::new();
    let mut hog = team.session("op_b");
    hog.send("BEGIN; SELECT fleetdeck.lock_writes();");
    std::thread::sleep(Duration::from_millis(300));
    let dir = tempfile::tempdir().expect("tempdir");
    let mut pause = std::process::Command::new(crate::support::cli::binary())
        .args([
            "--journal",
            &team.url("op_a"),
            "pause",
            "--all",
            "--reason",
            "killed",
        ])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("pause runs");
    std::thread::sleep(Duration::from_millis(800));
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pause.id().to_string()])
        .status();
    let _ = pause.wait();
    // The lock is let go well before the pause's lock_timeout: a server still waiting on
    // the dead command's behalf would now record its pause.
    std::thread::sleep(Duration::from_millis(2500));
    hog.send("COMMIT;");
    hog.close();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !team
            .events()
            .iter()
            .any(|e| matches!(e.event.body, EventBody::Paused { .. })),
        "the killed command's pause went in after it was gone"
    );
}

#[test]
fn keys_squatted_ahead_of_another_writer_take_nothing_from_it() {
    let team = Team::new();
    let at = now();
    let run = format!("ro-cni-{}", at.as_second());
    // op_d writes notes under the keys op_b's plan, the executor's lease and its first
    // step status will use.
    for key in [
        format!("{run}/planned"),
        "lease/fleet/1".to_string(),
        format!("{run}/c1/status/running"),
    ] {
        let (ok, out) = team.psql(
            "op_d",
            &format!("INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (0, 'operator.note', '{{\"text\": \"mine\"}}', '{key}')"),
        );
        assert!(ok, "{out}");
    }
    let planned = start_rollout(&team, "op_b", at);
    assert_eq!(planned.0, run, "op_b's run has the id it asked for");
    let (mut exec, lease) = lease_of(&team, "exec_a");
    assert_eq!(lease.token.0, 1);
    let status = NewEvent::new(
        now(),
        Actor("exec_a".into()),
        IdempotencyKey(format!("{run}/c1/status/running")),
        EventBody::StepStatusChanged {
            status: StepStatus::Running,
        },
    )
    .with_run(planned.clone())
    .with_item(ItemId("c1".into()))
    .with_step(StepName("Apply".into()));
    let written = exec.append(status, Some(&lease.fence())).expect("written");
    assert!(!written.duplicate, "not op_d's note");
    team.open_as("op_a")
        .append(approval(&planned, "op_a"), None)
        .expect("op_a approves op_b's run");
    let p = team.projection();
    assert_eq!(p.runs[&planned].created_by, Actor("op_b".into()));
    assert_eq!(p.runs[&planned].approvals.len(), 1, "the approval counts");
    assert_eq!(
        p.lease_holders.get(&LeaseScope::fleet()),
        Some(&Actor("exec_a".into()))
    );
}

#[test]
fn an_operator_cannot_mark_another_persons_run_succeeded_and_free_its_clusters() {
    let team = Team::new();
    let run = start_rollout(&team, "op_b", now());
    assert_refused(
        &team.psql(
            "op_a",
            &format!("INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) VALUES (0, 'run.status', '{run}', '{{\"status\": {{\"status\": \"succeeded\"}}}}', 'done')"),
        ),
        "needs fleetdeck_executor",
    );
    let p = team.projection();
    assert_ne!(p.runs[&run].status, RunStatus::Succeeded);
    let busy = p.unfinished_rollouts_on(&["c1".to_string()]);
    assert_eq!(
        busy.len(),
        1,
        "its clusters stay taken: an overlapping start is refused"
    );
}

#[test]
fn what_public_may_do_by_default_is_taken_away() {
    let team = Team::new();
    assert_refused(
        &team.psql("view_c", "CREATE TEMP TABLE shadow (x int)"),
        "permission denied",
    );
    assert_refused(
        &team.psql("view_c", "SELECT lo_create(0)"),
        "permission denied",
    );
    assert_refused(
        &team.psql("view_c", "SELECT lo_from_bytea(0, '\\x00')"),
        "permission denied",
    );
    assert_refused(
        &team.psql("view_c", "CREATE TABLE public.mine (x int)"),
        "permission denied",
    );
    assert_refused(
        &team.psql("nobody_e", "SELECT 1"),
        "permission denied for database",
    );
    let (ok, out) = team.psql("view_c", "SELECT count(*) FROM pg_largeobject_metadata");
    assert!(ok && out.trim() == "0", "no large object was made: {out}");
    // NOTIFY cannot be taken away: a notification only wakes readers, who read by
    // sequence and find nothing new.
    let (tx, rx) = tokio::sync::watch::channel(fleetdeck::tui::Activity::default());
    let reader = team.open_as("view_c");
    std::thread::spawn(move || {
        fleetdeck::tui::journal_feed::feed(reader, tx, Duration::from_secs(5))
    });
    let from = Instant::now();
    while !rx.borrow().connected {
        assert!(from.elapsed() < Duration::from_secs(10), "the feed reads");
        std::thread::sleep(Duration::from_millis(20));
    }
    let seen = rx.borrow().journal.events.len();
    let (ok, out) = team.psql("view_c", "NOTIFY fleetdeck_events, '999999'");
    assert!(ok, "{out}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(rx.borrow().connected);
    assert_eq!(rx.borrow().journal.events.len(), seen, "nothing new shown");
    // `journal init --roles` says what it took away.
    let dir = tempfile::tempdir().expect("tempdir");
    let db = server().fresh_database().expect("database");
    let out = crate::support::cli::fleetdeck(
        &[
            "--journal",
            &server().admin_url(&db),
            "journal",
            "init",
            "--roles",
        ],
        dir.path(),
    );
    let text = crate::support::cli::text(&out);
    assert!(out.status.success(), "{text}");
    for what in ["CONNECT", "TEMPORARY", "large objects"] {
        assert!(
            text.contains("revoked from PUBLIC") && text.contains(what),
            "{what}: {text}"
        );
    }
}

#[test]
fn history_cannot_be_rewritten_or_removed() {
    let team = Team::new();
    let run = start_rollout(&team, "op_a", now());
    let before = team.events();
    for sql in [
        "UPDATE fleetdeck.events SET actor = 'op_b'".to_string(),
        "DELETE FROM fleetdeck.events".to_string(),
        "TRUNCATE fleetdeck.events".to_string(),
        "WITH gone AS (DELETE FROM fleetdeck.events RETURNING *) SELECT count(*) FROM gone"
            .to_string(),
        format!(
            "WITH moved AS (UPDATE fleetdeck.events SET run_id = 'x' WHERE run_id = '{run}' RETURNING *) SELECT 1"
        ),
        "UPDATE fleetdeck.leases SET holder = 'op_a'".to_string(),
    ] {
        let (ok, out) = team.psql("op_a", &sql);
        assert!(!ok, "{sql}: {out}");
    }
    assert_eq!(team.events(), before, "not one row changed");
}

#[test]
fn ddl_and_role_switching_are_refused_and_the_actor_stays_who_logged_in() {
    let team = Team::new();
    for sql in [
        "CREATE TABLE fleetdeck.mine (x int)",
        "ALTER TABLE fleetdeck.events DISABLE TRIGGER events_before_insert",
        "DROP TRIGGER events_before_insert ON fleetdeck.events",
        "CREATE OR REPLACE FUNCTION fleetdeck.may(role_name text) RETURNS boolean LANGUAGE sql AS 'SELECT true'",
        "DROP TABLE fleetdeck.events",
        "SET ROLE op_b",
        "SET SESSION AUTHORIZATION op_b",
        "GRANT fleetdeck_executor TO op_a",
    ] {
        let (ok, out) = team.psql("op_a", sql);
        assert!(!ok, "{sql}: {out}");
    }
    let (ok, out) = team.psql(
        "op_a",
        "SET ROLE NONE; INSERT INTO fleetdeck.events (time_us, actor, kind, payload, idem_key) VALUES (0, 'op_b', 'operator.note', '{\"text\": \"from op_b\"}', 'forged')",
    );
    assert!(ok, "{out}");
    let forged = team
        .events()
        .into_iter()
        .find(|e| e.event.key.0 == "forged")
        .expect("stored");
    assert_eq!(
        forged.event.actor,
        Actor("op_a".into()),
        "the database writes who logged in"
    );
}

#[test]
fn a_search_path_or_a_shadowing_object_does_not_reach_the_checks() {
    let team = Team::new();
    let run = start_rollout(&team, "op_a", now());
    // Nothing of op_a's own can stand in for the journal's functions or tables.
    assert_refused(
        &team.psql(
            "op_a",
            "CREATE FUNCTION public.may(text) RETURNS boolean LANGUAGE sql AS 'SELECT true'",
        ),
        "permission denied",
    );
    assert_refused(
        &team.psql("op_a", "CREATE TEMP TABLE events (x int)"),
        "permission denied",
    );
    let sql = format!(
        "SET search_path = public, pg_temp, fleetdeck; INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) VALUES (0, 'run.approved', '{run}', '{{\"batch\": 0, \"note\": \"me\"}}', 'pathed')"
    );
    assert_refused(&team.psql("op_a", &sql), "cannot approve");
    assert!(team.projection().runs[&run].approvals.is_empty());
}

#[test]
fn copy_goes_through_the_same_checks_and_copy_to_a_program_is_refused() {
    let team = Team::new();
    let sql = "COPY fleetdeck.events (seq, time_us, actor, kind, payload, idem_key) FROM STDIN WITH (FORMAT csv)";
    let row = |kind: &str, key: &str| {
        format!(
            "1000,0,op_b,{kind},\"{{\"\"text\"\": \"\"copied\"\", \"\"status\"\": {{\"\"status\"\": \"\"running\"\"}}}}\",{key}\n"
        )
    };
    assert_refused(
        &team.psql_with_input("op_a", sql, &row("run.status", "copied-status")),
        "needs fleetdeck_executor",
    );
    let (ok, out) = team.psql_with_input("op_a", sql, &row("operator.note", "copied-note"));
    assert!(ok, "{out}");
    let copied = team
        .events()
        .into_iter()
        .find(|e| e.event.key.0 == "copied-note")
        .expect("copied");
    assert_eq!(copied.event.actor, Actor("op_a".into()));
    assert_ne!(copied.seq.0, 1000, "the database numbers it");
    assert_refused(
        &team.psql("op_a", "COPY fleetdeck.events TO PROGRAM 'cat'"),
        "pg_execute_server_program",
    );
}

#[test]
fn prepared_transactions_cannot_hold_anything_past_a_disconnect() {
    let team = Team::new();
    let before = team.events().len();
    assert_refused(
        &team.psql(
            "op_a",
            "BEGIN; INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (0, 'operator.note', '{\"text\": \"held\"}', 'held'); PREPARE TRANSACTION 'held';",
        ),
        "prepared transactions are disabled",
    );
    assert_eq!(team.events().len(), before, "nothing stored, nothing held");
    team.open_as("op_b")
        .append(note("writers go on"), None)
        .expect("written");
}

#[test]
fn sql_in_a_run_id_is_stored_as_the_text_it_is() {
    let team = Team::new();
    let evil = RunId("x'); DROP TABLE fleetdeck.events; --".into());
    let planned = NewEvent::new(
        now(),
        Actor("op_a".into()),
        IdempotencyKey("evil/planned".into()),
        EventBody::RunPlanned {
            title: "t".into(),
            items: vec![],
            batches: vec![],
            spec: serde_json::Value::Null,
        },
    )
    .with_run(evil.clone());
    team.open_as("op_a").append(planned, None).expect("stored");
    let stored = team.events();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].event.run.as_ref(), Some(&evil));
}

#[test]
fn the_import_switch_is_an_admins_only() {
    let team = Team::new();
    assert_refused(
        &team.psql(
            "op_a",
            "SET fleetdeck.import = 'on'; INSERT INTO fleetdeck.events (seq, time_us, actor, kind, payload, idem_key) VALUES (1000, 0, 'op_b', 'run.status', '{\"status\": {\"status\": \"succeeded\"}}', 'imported')",
        ),
        "may not import events",
    );
    assert!(team.events().is_empty());
}

#[test]
fn the_lease_functions_refuse_everyone_but_the_holder() {
    let team = Team::new();
    assert_refused(
        &team.psql(
            "op_a",
            "SELECT * FROM fleetdeck.acquire_lease('fleet', 'op_a', 60000000)",
        ),
        "permission denied",
    );
    let (_a, lease) = lease_of(&team, "exec_a");
    let holder = lease.holder.clone().expect("held").0;
    let token = lease.token.0;
    let (ok, out) = team.psql(
        "exec_b",
        &format!("SELECT fleetdeck.renew_lease('fleet', '{holder}', {token}, 60000000) IS NULL"),
    );
    assert!(
        ok && out.trim() == "t",
        "exec_b cannot renew exec_a's lease: {out}"
    );
    let (ok, out) = team.psql(
        "exec_b",
        &format!("SELECT fleetdeck.release_lease('fleet', {token})"),
    );
    assert!(ok && out.trim() == "f", "nor give it back: {out}");
    let (ok, out) = team.psql(
        "exec_b",
        "SELECT granted FROM fleetdeck.acquire_lease('fleet', 'exec_b', 60000000)",
    );
    assert!(
        ok && out.trim() == "f",
        "nor take it while it is held: {out}"
    );
    let still = team
        .open_as("view_c")
        .lease(&LeaseScope::fleet())
        .expect("read")
        .expect("held");
    assert_eq!(still.holder, lease.holder);
    assert_eq!(still.token, lease.token);
}
