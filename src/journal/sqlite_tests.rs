use std::sync::{Arc, Barrier};

use super::*;
use crate::model::run::{PauseScope, StepStatus};

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(1_750_000_000 + second).unwrap()
}

fn note(key: &str, second: i64) -> NewEvent {
    NewEvent::new(
        at(second),
        Actor("alice@h".into()),
        IdempotencyKey(key.into()),
        EventBody::Note {
            text: format!("note {key}"),
        },
    )
}

fn temp_journal() -> (tempfile::TempDir, std::path::PathBuf, SqliteJournal) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    let journal = SqliteJournal::open(&path, Durability::Normal).unwrap();
    (dir, path, journal)
}

#[test]
fn appends_are_read_back_whole_and_survive_reopening() {
    let (_dir, path, mut j) = temp_journal();
    let event = note("a", 1)
        .with_run(RunId("r1".into()))
        .with_cluster(ClusterId("c1".into()));
    let appended = j.append(event.clone(), None).unwrap();
    assert!(!appended.duplicate);
    assert_eq!(appended.event.event, event);
    drop(j);
    let j = SqliteJournal::open(&path, Durability::Full).unwrap();
    assert_eq!(j.schema_version().unwrap(), 1);
    let all = j.query(&EventQuery::default()).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].event, event);
    assert_eq!(j.integrity_check().unwrap(), "ok");
}

#[test]
fn a_repeated_idempotency_key_returns_the_stored_event() {
    let (_dir, _path, mut j) = temp_journal();
    let first = j.append(note("same", 1), None).unwrap();
    let mut again = note("same", 2);
    again.body = EventBody::Note {
        text: "different".into(),
    };
    let second = j.append(again, None).unwrap();
    assert!(second.duplicate);
    assert_eq!(second.event, first.event);
    assert_eq!(j.query(&EventQuery::default()).unwrap().len(), 1);
}

#[test]
fn a_conditional_append_goes_in_only_on_the_journal_it_was_decided_on() {
    let (_dir, _path, mut j) = temp_journal();
    let first = j.append_if_last(note("a", 1), None).unwrap();
    let seen = Some(first.event.seq);
    j.append(note("b", 2), None).unwrap();
    let refused = j.append_if_last(note("c", 3), seen);
    assert!(
        matches!(refused, Err(JournalError::MovedOn { expected, found }) if expected == 1 && found == 2),
        "{refused:?}"
    );
    assert_eq!(
        j.query(&EventQuery::default()).unwrap().len(),
        2,
        "nothing written"
    );
    let last = j.projection().unwrap().last_seq;
    assert!(j.append_if_last(note("c", 3), last).is_ok());
}

#[test]
fn queries_filter_by_time_cluster_run_kind_and_sequence() {
    let (_dir, _path, mut j) = temp_journal();
    j.append_all(
        vec![
            note("1", 1).with_cluster(ClusterId("c1".into())),
            note("2", 2)
                .with_cluster(ClusterId("c2".into()))
                .with_run(RunId("r2".into())),
            NewEvent::new(
                at(3),
                Actor("bob@h".into()),
                IdempotencyKey("3".into()),
                EventBody::Paused {
                    scope: PauseScope::Fleet,
                    reason: "incident".into(),
                },
            ),
        ],
        None,
    )
    .unwrap();
    let seqs =
        |q: EventQuery| -> Vec<i64> { j.query(&q).unwrap().iter().map(|e| e.seq.0).collect() };
    assert_eq!(seqs(EventQuery::default()), vec![1, 2, 3]);
    assert_eq!(
        seqs(EventQuery {
            since: Some(at(2)),
            ..Default::default()
        }),
        vec![2, 3]
    );
    assert_eq!(
        seqs(EventQuery {
            cluster: Some(ClusterId("c1".into())),
            ..Default::default()
        }),
        vec![1]
    );
    assert_eq!(
        seqs(EventQuery {
            run: Some(RunId("r2".into())),
            ..Default::default()
        }),
        vec![2]
    );
    assert_eq!(
        seqs(EventQuery {
            kinds: vec!["operator.pause".into()],
            ..Default::default()
        }),
        vec![3]
    );
    assert_eq!(
        seqs(EventQuery {
            after: Some(Sequence(1)),
            limit: Some(1),
            ..Default::default()
        }),
        vec![2]
    );
    let p = j.projection().unwrap();
    assert_eq!(p.pauses[&PauseScope::Fleet].reason, "incident");
}

#[test]
fn the_journal_refuses_updates_and_deletes() {
    let (_dir, _path, mut j) = temp_journal();
    j.append(note("a", 1), None).unwrap();
    let update = j.conn.execute("UPDATE events SET actor = 'mallory'", []);
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = j.conn.execute("DELETE FROM events", []);
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}

#[test]
fn a_stale_fence_refuses_the_whole_batch() {
    let (_dir, _path, mut j) = temp_journal();
    // A stale fence fails the whole batch before anything is written.
    let fence = Fence {
        scope: LeaseScope::fleet(),
        token: FencingToken(7),
    };
    let result = j.append_all(vec![note("a", 1), note("b", 2)], Some(&fence));
    assert!(matches!(result, Err(JournalError::StaleToken { .. })));
    assert!(j.query(&EventQuery::default()).unwrap().is_empty());
}

#[test]
fn a_stale_token_is_refused_and_nothing_is_written() {
    let (_dir, _path, mut j) = temp_journal();
    let ttl = Duration::from_secs(10);
    let scope = LeaseScope::fleet();
    let LeaseGrant::Acquired { lease: old } = j
        .acquire_lease(&scope, &Actor("executor/a".into()), ttl, at(0))
        .unwrap()
    else {
        panic!("free lease")
    };
    assert_eq!(old.token, FencingToken(1));
    j.append(note("by-a", 1), Some(&old.fence())).unwrap();
    // a stops renewing; b takes over after expiry.
    let LeaseGrant::Acquired { lease: new } = j
        .acquire_lease(&scope, &Actor("executor/b".into()), ttl, at(11))
        .unwrap()
    else {
        panic!("expired lease must be free")
    };
    assert_eq!(new.token, FencingToken(2));
    let before = j.query(&EventQuery::default()).unwrap().len();
    let refused = j.append(note("late-a", 12), Some(&old.fence()));
    match refused {
        Err(JournalError::StaleToken {
            presented, current, ..
        }) => {
            assert_eq!(presented, FencingToken(1));
            assert_eq!(current, FencingToken(2));
        }
        other => panic!("expected a stale-token refusal, got {other:?}"),
    }
    assert_eq!(j.query(&EventQuery::default()).unwrap().len(), before);
    assert!(matches!(
        j.renew_lease(&old, ttl, at(12)),
        Err(JournalError::LeaseLost { .. })
    ));
    let ok = j.append(note("by-b", 12), Some(&new.fence())).unwrap();
    assert_eq!(ok.event.token, Some(FencingToken(2)));
}

#[test]
fn a_held_lease_is_refused_renewed_and_handed_over_on_expiry_or_release() {
    let (_dir, _path, mut j) = temp_journal();
    let ttl = Duration::from_secs(10);
    let scope = LeaseScope::fleet();
    let a = Actor("executor/a".into());
    let b = Actor("executor/b".into());
    let LeaseGrant::Acquired { lease } = j.acquire_lease(&scope, &a, ttl, at(0)).unwrap() else {
        panic!()
    };
    assert!(matches!(
        j.acquire_lease(&scope, &b, ttl, at(5)).unwrap(),
        LeaseGrant::HeldByOther { .. }
    ));
    let renewed = j.renew_lease(&lease, ttl, at(8)).unwrap();
    assert_eq!(renewed.token, lease.token);
    // Still held at 15 thanks to the renewal.
    assert!(matches!(
        j.acquire_lease(&scope, &b, ttl, at(15)).unwrap(),
        LeaseGrant::HeldByOther { .. }
    ));
    j.release_lease(&renewed, at(16)).unwrap();
    let LeaseGrant::Acquired { lease: by_b } = j.acquire_lease(&scope, &b, ttl, at(16)).unwrap()
    else {
        panic!("a released lease is free at once")
    };
    assert_eq!(by_b.token, FencingToken(2));
    let changes = j
        .query(&EventQuery {
            kinds: vec!["lease.acquired".into()],
            ..Default::default()
        })
        .unwrap();
    assert_eq!(changes.len(), 2, "each change of holder is journaled");
}

#[test]
fn two_executors_racing_for_the_lease_get_exactly_one_grant() {
    let (_dir, path, _j) = temp_journal();
    for round in 0..5 {
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|name| {
                let path = path.clone();
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    let mut j = SqliteJournal::open(&path, Durability::Normal).unwrap();
                    barrier.wait();
                    j.acquire_lease(
                        &LeaseScope::fleet(),
                        &Actor(format!("executor/{name}")),
                        Duration::from_secs(10),
                        // Each round starts after the previous lease expired.
                        at(round * 100),
                    )
                    .unwrap()
                })
            })
            .collect();
        let grants: Vec<LeaseGrant> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let winners: Vec<&Lease> = grants
            .iter()
            .filter_map(|g| match g {
                LeaseGrant::Acquired { lease } => Some(lease),
                LeaseGrant::HeldByOther { .. } => None,
            })
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {grants:?}");
        assert_eq!(winners[0].token, FencingToken(round + 1));
    }
}

#[test]
fn projection_replays_what_was_appended() {
    let (_dir, _path, mut j) = temp_journal();
    j.append(
        NewEvent::new(
            at(0),
            Actor("alice@h".into()),
            IdempotencyKey("plan".into()),
            EventBody::RunPlanned {
                title: "t".into(),
                items: vec![ItemId("n1".into())],
                batches: vec![vec![ItemId("n1".into())]],
                spec: serde_json::Value::Null,
            },
        )
        .with_run(RunId("r1".into())),
        None,
    )
    .unwrap();
    j.append(
        NewEvent::new(
            at(1),
            Actor("executor/a".into()),
            IdempotencyKey("s".into()),
            EventBody::StepStatusChanged {
                status: StepStatus::Running,
            },
        )
        .with_run(RunId("r1".into()))
        .with_item(ItemId("n1".into()))
        .with_step(StepName("Cordon".into())),
        None,
    )
    .unwrap();
    let p = j.projection().unwrap();
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    assert_eq!(item.current, Some(StepName("Cordon".into())));
}

#[test]
fn a_read_only_journal_reads_creates_nothing_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    let missing = SqliteJournal::open_read_only(&path).err().unwrap();
    assert!(missing.to_string().contains("no journal at"), "{missing}");
    assert!(!path.exists(), "read-only mode created the journal file");

    let mut writer = SqliteJournal::open(&path, Durability::Normal).unwrap();
    writer.append(note("a", 1), None).unwrap();
    let mut reader = SqliteJournal::open_read_only(&path).unwrap();
    assert_eq!(reader.query(&EventQuery::default()).unwrap().len(), 1);
    assert!(reader.append(note("b", 2), None).is_err());
    writer.append(note("c", 3), None).unwrap();
    assert_eq!(reader.query(&EventQuery::default()).unwrap().len(), 2);
}

#[test]
fn a_read_only_journal_of_an_older_schema_asks_for_one_writable_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    SqliteJournal::open(&path, Durability::Normal).unwrap();
    let conn = Connection::open(&path).unwrap();
    conn.execute("UPDATE schema_version SET version = 0", [])
        .unwrap();
    drop(conn);
    let refused = SqliteJournal::open_read_only(&path).err().unwrap();
    assert!(
        refused.to_string().contains("without --readonly"),
        "{refused}"
    );
}

#[test]
fn the_clusters_and_runs_events_name_are_listed_once_each() {
    let (_dir, _path, mut j) = temp_journal();
    assert!(j.clusters().unwrap().is_empty());
    for (key, run, cluster) in [("a", "r2", "c2"), ("b", "r1", "c1"), ("c", "r2", "c2")] {
        j.append(
            note(key, 1)
                .with_run(RunId(run.into()))
                .with_cluster(ClusterId(cluster.into())),
            None,
        )
        .unwrap();
    }
    j.append(note("d", 2), None).unwrap();
    assert_eq!(
        j.clusters().unwrap(),
        vec![ClusterId("c1".into()), ClusterId("c2".into())]
    );
    assert_eq!(
        j.run_ids().unwrap(),
        vec![RunId("r1".into()), RunId("r2".into())]
    );
}
