//! Team mode's rules, enforced by PostgreSQL itself: two operators and a viewer log in
//! with passwords over TCP on loopback to a throwaway server; the database writes who
//! they are, refuses an author's approval under `distinctApprover` (even as raw SQL
//! through `psql`), refuses every write of the viewer, and the CLI refuses `--as`.

use crate::support;
use fleetdeck::journal::postgres::throwaway::{self, ThrowawayServer};
use fleetdeck::journal::{AnyJournal, JournalError, JournalStore, JournalTarget, OpenMode};
use fleetdeck::model::run::{Actor, EventBody, IdempotencyKey, NewEvent, RunId};

fn server() -> &'static ThrowawayServer {
    throwaway::shared().expect("test PostgreSQL")
}

/// A fresh journal with op_a, op_b (operators and approvers) and view_c (viewer).
fn team() -> String {
    let server = server();
    let db = server.fresh_database().expect("database");
    server
        .login_role("op_a", &["fleetdeck_operator", "fleetdeck_approver"])
        .expect("op_a");
    server
        .login_role("op_b", &["fleetdeck_operator", "fleetdeck_approver"])
        .expect("op_b");
    server
        .login_role("view_c", &["fleetdeck_viewer"])
        .expect("view_c");
    db
}

fn open_as(db: &str, role: &str) -> AnyJournal {
    let target = JournalTarget::Postgres(server().url(db, role));
    AnyJournal::open(&target, OpenMode::ReadWrite).expect("journal")
}

fn now() -> jiff::Timestamp {
    jiff::Timestamp::now()
}

/// A rollout run whose spec asks for a distinct approver, planned by whoever `journal`
/// logs in as (the event itself claims "mallory").
fn plan_rollout(journal: &mut AnyJournal, run: &str) {
    let spec = serde_json::json!({"rollout": {"approvals": "distinctFromAuthor"}});
    let planned = NewEvent::new(
        now(),
        Actor("mallory".into()),
        IdempotencyKey(format!("{run}/planned")),
        EventBody::RunPlanned {
            title: "cni".into(),
            items: vec![],
            batches: vec![],
            spec,
        },
    )
    .with_run(RunId(run.into()));
    journal.append(planned, None).expect("planned");
}

fn approval(run: &str, by: &str) -> NewEvent {
    NewEvent::new(
        now(),
        Actor(by.into()),
        IdempotencyKey(format!("{run}/approve/{by}")),
        EventBody::RunApproved {
            batch: Some(0),
            note: "go".into(),
        },
    )
    .with_run(RunId(run.into()))
}

/// `psql` as `role` on `db` over TCP with a password; (success, output).
fn psql(db: &str, role: &str, sql: &str) -> (bool, String) {
    support::team::Team::on(db).psql(role, sql)
}

#[test]
fn the_actor_is_the_role_that_logged_in_whatever_the_client_claims() {
    let db = team();
    let mut a = open_as(&db, "op_a");
    assert_eq!(a.authenticated_actor(), Some(Actor("op_a".into())));
    plan_rollout(&mut a, "r1");
    let events = a.query(&Default::default()).expect("events");
    assert_eq!(events[0].event.actor, Actor("op_a".into()), "not 'mallory'");
    // Raw SQL naming another actor is rewritten by the database too.
    let (ok, out) = psql(
        &db,
        "op_a",
        "INSERT INTO fleetdeck.events (time_us, actor, kind, payload, idem_key) \
         VALUES (0, 'op_b', 'operator.note', '{\"text\": \"hi\"}', 'raw-note')",
    );
    assert!(ok, "{out}");
    let (ok, out) = psql(
        &db,
        "op_a",
        "SELECT actor FROM fleetdeck.events WHERE idem_key = 'raw-note'",
    );
    assert!(ok && out.contains("op_a") && !out.contains("op_b"), "{out}");
}

#[test]
fn the_author_cannot_approve_under_distinct_approver_even_with_raw_sql() {
    let db = team();
    let mut a = open_as(&db, "op_a");
    plan_rollout(&mut a, "r1");
    let refused = a.append(approval("r1", "op_b"), None).unwrap_err();
    assert!(
        matches!(&refused, JournalError::Refused(why) if why.contains("op_a started this rollout and cannot approve")),
        "{refused}"
    );
    let (ok, out) = psql(
        &db,
        "op_a",
        "INSERT INTO fleetdeck.events (time_us, kind, run_id, payload, idem_key) \
         VALUES (0, 'run.approved', 'r1', '{\"batch\": 0, \"note\": \"me\"}', 'raw-approve')",
    );
    assert!(!ok, "the database took op_a's own approval: {out}");
    assert!(
        out.contains("op_a started this rollout and cannot approve its batches"),
        "{out}"
    );
    // Nor can the author rewrite history or change the lease table to get around it.
    let (ok, out) = psql(
        &db,
        "op_a",
        "UPDATE fleetdeck.events SET actor = 'op_b' WHERE kind = 'run.planned'",
    );
    assert!(!ok, "{out}");
    let (ok, out) = psql(&db, "op_a", "DELETE FROM fleetdeck.events");
    assert!(!ok, "{out}");
    let (ok, out) = psql(&db, "op_a", "SET session_authorization op_b");
    assert!(!ok, "{out}");

    let mut b = open_as(&db, "op_b");
    let approved = b
        .append(approval("r1", "op_b"), None)
        .expect("op_b approves");
    assert_eq!(approved.event.event.actor, Actor("op_b".into()));
}

#[test]
fn a_viewer_reads_but_every_write_is_refused_with_a_clear_message() {
    let db = team();
    let mut a = open_as(&db, "op_a");
    plan_rollout(&mut a, "r1");
    let mut c = open_as(&db, "view_c");
    assert_eq!(c.query(&Default::default()).expect("reads").len(), 1);
    let refused = c.append(approval("r1", "view_c"), None).unwrap_err();
    assert!(
        matches!(&refused, JournalError::Forbidden(why) if why.contains("view_c may read the journal but not write it")),
        "{refused}"
    );
    let lease = c.acquire_lease(
        &fleetdeck::model::run::LeaseScope::fleet(),
        &Actor("view_c".into()),
        std::time::Duration::from_secs(5),
        now(),
    );
    assert!(
        matches!(&lease, Err(JournalError::Forbidden(_))),
        "{lease:?}"
    );
    let (ok, out) = psql(
        &db,
        "view_c",
        "INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key) VALUES (0, 'operator.note', '{}', 'v')",
    );
    assert!(!ok && out.contains("permission denied"), "{out}");
    // An operator without the approver role is refused an approval by the database.
    server()
        .login_role("op_d", &["fleetdeck_operator"])
        .expect("op_d");
    let mut d = open_as(&db, "op_d");
    let refused = d.append(approval("r1", "op_d"), None).unwrap_err();
    assert!(
        refused.to_string().contains("needs fleetdeck_approver"),
        "{refused}"
    );
    // The CLI says the same, and writes nothing.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = support::cli::fleetdeck(
        &[
            "--journal",
            &server().url(&db, "view_c"),
            "pause",
            "--all",
            "--reason",
            "look",
        ],
        dir.path(),
    );
    let text = support::cli::text(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("view_c may read the journal but not write it"),
        "{text}"
    );
}

#[test]
fn as_is_refused_on_postgres_saying_why() {
    let db = team();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = support::cli::fleetdeck(
        &[
            "--journal",
            &server().url(&db, "op_a"),
            "--as",
            "op_b",
            "journal",
        ],
        dir.path(),
    );
    let text = support::cli::text(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("--as op_b is refused on a PostgreSQL journal")
            && text.contains("the role you log in as (op_a)"),
        "{text}"
    );
}

#[test]
fn init_refuses_a_newer_schema_naming_the_version_and_copy_is_idempotent() {
    let server = server();
    let db = server.fresh_database().expect("database");
    let dir = tempfile::tempdir().expect("tempdir");
    let admin = server.admin_url(&db);
    // A SQLite journal with a few events, copied into PostgreSQL twice.
    let sqlite = dir.path().join("old.sqlite");
    let mut old = AnyJournal::open(&JournalTarget::Sqlite(sqlite.clone()), OpenMode::ReadWrite)
        .expect("sqlite");
    for i in 0..5 {
        old.append(
            NewEvent::new(
                now(),
                Actor("alice@laptop".into()),
                IdempotencyKey(format!("n{i}")),
                EventBody::Note {
                    text: format!("note {i}"),
                },
            ),
            None,
        )
        .expect("append");
    }
    let copy = |what: &str| {
        let out = support::cli::fleetdeck(
            &[
                "journal",
                "copy",
                "--from",
                sqlite.to_str().expect("utf-8"),
                "--to",
                &admin,
                "-o",
                "json",
            ],
            dir.path(),
        );
        assert!(out.status.success(), "{what}: {}", support::cli::text(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("json")
    };
    let first = copy("first");
    assert_eq!(first["copied"], 5);
    assert_eq!(first["destinationLast"], 5);
    let again = copy("again");
    assert_eq!(again["copied"], 0);
    assert_eq!(again["alreadyThere"], 5);
    let copied = AnyJournal::open(&JournalTarget::Postgres(admin.clone()), OpenMode::ReadOnly)
        .expect("pg")
        .query(&Default::default())
        .expect("events");
    assert_eq!(copied[4].event.actor, Actor("alice@laptop".into()));

    server
        .execute(&db, "UPDATE fleetdeck.schema_version SET version = 99")
        .expect("bump");
    let out = support::cli::fleetdeck(&["--journal", &admin, "journal", "init"], dir.path());
    let text = support::cli::text(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("schema version 99") && text.contains("knows schema version 99"),
        "{text}"
    );
}
