//! The rules both stores keep at the door, and how they read what got in before those
//! rules (or by hand): run against a SQLite file and a PostgreSQL database alike.

use std::time::Duration;

use jiff::Timestamp;

use super::fixture_tests::{Fixture, executor_fence, on_both_backends};
use super::*;
use crate::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, LeaseScope, NewEvent, RunId, StepName, StepStatus,
};

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(1_750_000_000 + second).unwrap()
}

fn plan(actor: &str, run: &str, title: &str) -> NewEvent {
    NewEvent::new(
        at(0),
        Actor(actor.into()),
        IdempotencyKey(format!("{run}/planned/{actor}")),
        EventBody::RunPlanned {
            title: title.into(),
            items: vec![ItemId("n1".into())],
            batches: vec![vec![ItemId("n1".into())]],
            spec: serde_json::Value::Null,
        },
    )
    .with_run(RunId(run.into()))
}

fn step_status(key: &str) -> NewEvent {
    NewEvent::new(
        at(1),
        Actor("executor/a".into()),
        IdempotencyKey(key.into()),
        EventBody::StepStatusChanged {
            status: StepStatus::Running,
        },
    )
    .with_run(RunId("r1".into()))
    .with_item(ItemId("n1".into()))
    .with_step(StepName("Cordon".into()))
}

fn count(j: &AnyJournal) -> usize {
    j.query(&EventQuery::default()).unwrap().len()
}

on_both_backends!(
    a_run_has_one_plan_and_a_second_is_refused,
    an_executor_kind_goes_in_only_under_the_live_lease,
    a_key_another_writer_or_kind_holds_is_never_taken_for_this_write,
    a_payload_no_reader_could_use_is_refused_and_nothing_is_written,
    a_row_no_reader_can_use_is_skipped_and_named_and_the_reading_goes_on,
    a_lapsed_lease_taken_again_by_its_holder_keeps_its_token,
);

fn a_run_has_one_plan_and_a_second_is_refused(fx: &Fixture) {
    let mut j = fx.open();
    j.append(plan("alice", "r1", "real"), None).unwrap();
    let refused = j
        .append(plan("mallory", "r1", "changed"), None)
        .unwrap_err();
    assert!(
        matches!(&refused, JournalError::AlreadyPlanned { run } if run.0 == "r1"),
        "{refused}"
    );
    assert_eq!(count(&j), 1, "nothing written");
    // The same plan again (a retry under its key) is the stored one, not a second.
    let again = j.append(plan("alice", "r1", "real"), None).unwrap();
    assert!(again.duplicate);
    // An approval names a planned run.
    let approve = |run: &str| {
        NewEvent::new(
            at(2),
            Actor("bob".into()),
            IdempotencyKey(format!("cmd/bob/{run}")),
            EventBody::RunApproved {
                batch: Some(0),
                note: "go".into(),
            },
        )
        .with_run(RunId(run.into()))
    };
    let refused = j.append(approve("r9"), None).unwrap_err();
    assert!(
        matches!(&refused, JournalError::Refused(why) if why.contains("run r9 has no plan")),
        "{refused}"
    );
    j.append(approve("r1"), None).unwrap();
    let p = j.projection().unwrap();
    assert_eq!(p.runs[&RunId("r1".into())].title, "real");
}

fn an_executor_kind_goes_in_only_under_the_live_lease(fx: &Fixture) {
    let mut j = fx.open();
    let refused = j.append(step_status("s1"), None).unwrap_err();
    assert!(
        matches!(&refused, JournalError::Unfenced { kind } if kind == "step.status"),
        "{refused}"
    );
    let fence = executor_fence(&mut j);
    j.append(step_status("s1"), Some(&fence)).unwrap();
    // Given back: its token is no longer anyone's fence.
    let lease = j.lease(&LeaseScope::fleet()).unwrap().unwrap();
    j.release_lease(&lease, Timestamp::now()).unwrap();
    let refused = j.append(step_status("s2"), Some(&fence)).unwrap_err();
    assert!(
        matches!(refused, JournalError::StaleToken { .. }),
        "{refused}"
    );
    assert_eq!(
        j.query(&EventQuery {
            kinds: vec!["step.status".into()],
            ..EventQuery::default()
        })
        .unwrap()
        .len(),
        1,
        "only the fenced one went in"
    );
}

fn a_key_another_writer_or_kind_holds_is_never_taken_for_this_write(fx: &Fixture) {
    let mut j = fx.open();
    let squat = NewEvent::new(
        at(0),
        Actor("mallory".into()),
        IdempotencyKey("r1/n1/Cordon/status#0".into()),
        EventBody::Note {
            text: "mine now".into(),
        },
    );
    j.append(squat, None).unwrap();
    let fence = executor_fence(&mut j);
    match j.append(step_status("r1/n1/Cordon/status#0"), Some(&fence)) {
        // PostgreSQL: every writer has its own key space; the executor's write goes in.
        Ok(appended) => {
            assert!(fx.db.is_some(), "SQLite keeps one key space");
            assert!(!appended.duplicate, "not the squatter's note");
            assert!(matches!(
                appended.event.event.body,
                EventBody::StepStatusChanged { .. }
            ));
        }
        // SQLite: one key space; refused, never answered with the other's event.
        Err(error) => {
            assert!(fx.db.is_none(), "{error}");
            assert!(
                matches!(&error, JournalError::KeyTaken { stored, .. } if stored == "operator.note"),
                "{error}"
            );
        }
    }
    // One writer's key for another kind of event: not the same write again.
    let note = NewEvent::new(
        at(3),
        Actor("executor/a".into()),
        IdempotencyKey("s9".into()),
        EventBody::ExecutorNote { text: "n".into() },
    );
    j.append(note, Some(&fence)).unwrap();
    let refused = j.append(step_status("s9"), Some(&fence)).unwrap_err();
    assert!(
        matches!(&refused, JournalError::KeyTaken { stored, kind, .. } if stored == "executor.note" && kind == "step.status"),
        "{refused}"
    );
}

fn a_payload_no_reader_could_use_is_refused_and_nothing_is_written(fx: &Fixture) {
    let mut j = fx.open();
    let before = count(&j);
    let bad = |payload: serde_json::Value| {
        NewEvent::new(
            at(0),
            Actor("alice".into()),
            IdempotencyKey("bad".into()),
            EventBody::Unrecognized {
                kind: "operator.note".into(),
                payload,
            },
        )
    };
    for (payload, says) in [
        (
            serde_json::json!({"text": 5}),
            "its \"text\" is a number, not string",
        ),
        (serde_json::json!({"text": "x", "n": 1e30}), "beyond ±10^18"),
        (serde_json::json!("text"), "not an object"),
    ] {
        let refused = j.append(bad(payload), None).unwrap_err();
        assert!(
            matches!(&refused, JournalError::BadPayload { kind, reason } if kind == "operator.note" && reason.contains(says)),
            "{refused}"
        );
    }
    let nul = NewEvent::new(
        at(0),
        Actor("alice".into()),
        IdempotencyKey("nul".into()),
        EventBody::Note {
            text: "a\0b".into(),
        },
    );
    let refused = j.append(nul, None).unwrap_err();
    assert!(refused.to_string().contains("NUL"), "{refused}");
    let unreadable = NewEvent::new(
        at(0),
        Actor("alice".into()),
        IdempotencyKey("u".into()),
        EventBody::Unreadable {
            kind: "operator.note".into(),
            reason: "x".into(),
        },
    );
    assert!(j.append(unreadable, None).is_err());
    assert_eq!(count(&j), before, "nothing written");
}

/// Rows the door would refuse, stored anyway (as an older fleetdeck or an owner with
/// the table's triggers off could have).
fn store_raw(fx: &Fixture, rows: &[(i64, &str, &str)]) {
    match &fx.db {
        None => {
            let JournalTarget::Sqlite(path) = &fx.target else {
                panic!("a file");
            };
            let conn = rusqlite::Connection::open(path).unwrap();
            for (time, kind, payload) in rows {
                conn.execute(
                    "INSERT INTO events (time_us, actor, kind, payload, idem_key) VALUES (?1, 'mallory', ?2, ?3, ?4)",
                    rusqlite::params![time, kind, payload, format!("raw-{kind}-{time}")],
                )
                .unwrap();
            }
        }
        Some(db) => {
            let server = postgres::throwaway::shared().unwrap();
            let mut sql =
                String::from("ALTER TABLE fleetdeck.events DISABLE TRIGGER events_before_insert;");
            for (time, kind, payload) in rows {
                sql.push_str(&format!(
                    "INSERT INTO fleetdeck.events (seq, time_us, actor, kind, payload, idem_key, key_scope)
                     SELECT coalesce(max(seq), 0) + 1, {time}, 'mallory', '{kind}', '{payload}', 'raw-{kind}-{time}', 'mallory' FROM fleetdeck.events;"
                ));
            }
            sql.push_str("ALTER TABLE fleetdeck.events ENABLE TRIGGER events_before_insert;");
            server.execute(db, &sql).unwrap();
        }
    }
}

fn a_row_no_reader_can_use_is_skipped_and_named_and_the_reading_goes_on(fx: &Fixture) {
    let mut j = fx.open();
    j.append(plan("alice", "r1", "real"), None).unwrap();
    store_raw(
        fx,
        &[
            (
                1_750_000_001_000_000,
                "operator.pause",
                r#"{"scope": {"scope": "fleet"}, "reason": 1e400}"#,
            ),
            (1_750_000_002_000_000, "operator.note", r#"{"text": 7}"#),
            (i64::MAX, "operator.note", r#"{"text": "when?"}"#),
        ],
    );
    let after = NewEvent::new(
        at(9),
        Actor("alice".into()),
        IdempotencyKey("after".into()),
        EventBody::Note {
            text: "still here".into(),
        },
    );
    j.append(after, None).unwrap();
    let events = j.query(&EventQuery::default()).unwrap();
    assert_eq!(events.len(), 5, "every row is read, none stops the reading");
    let p = j.projection().unwrap();
    let unreadable: Vec<(i64, &str)> = p
        .unreadable
        .iter()
        .map(|u| (u.seq.0, u.kind.as_str()))
        .collect();
    assert_eq!(
        unreadable,
        [
            (2, "operator.pause"),
            (3, "operator.note"),
            (4, "operator.note")
        ]
    );
    assert!(p.pauses.is_empty(), "the unreadable pause pauses nothing");
    assert!(
        p.unreadable[0].reason.contains("number out of range"),
        "{:?}",
        p.unreadable[0]
    );
    assert!(
        p.unreadable[2].reason.contains("time"),
        "{:?}",
        p.unreadable[2]
    );
    assert_eq!(p.last_seq.map(|s| s.0), Some(5));
    let seen = unreadable_rows();
    assert!(
        seen.iter()
            .any(|r| r.kind == "operator.pause" && r.seq == 2),
        "remembered for the command's warning: {seen:?}"
    );
}

fn a_lapsed_lease_taken_again_by_its_holder_keeps_its_token(fx: &Fixture) {
    let mut j = fx.open();
    let a = Actor("executor/a [pid 1 #0]".into());
    let grant = |j: &mut AnyJournal, who: &Actor| match j
        .acquire_lease(
            &LeaseScope::fleet(),
            who,
            Duration::from_millis(50),
            Timestamp::now(),
        )
        .unwrap()
    {
        LeaseGrant::Acquired { lease } => lease,
        other => panic!("{other:?}"),
    };
    let first = grant(&mut j, &a);
    std::thread::sleep(Duration::from_millis(120));
    let again = grant(&mut j, &a);
    assert_eq!(again.token, first.token, "nobody held it in between");
    std::thread::sleep(Duration::from_millis(120));
    let b = grant(&mut j, &Actor("executor/b [pid 2 #0]".into()));
    assert_eq!(b.token.0, first.token.0 + 1, "another holder: a new token");
}
