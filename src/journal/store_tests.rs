//! The store's contract, run against both backends: every test here runs once on a
//! SQLite file and once on a fresh database of a throwaway PostgreSQL server.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use jiff::Timestamp;

use super::*;
use crate::model::ledger::ClusterId;
use crate::model::run::{
    Actor, EventBody, FencingToken, IdempotencyKey, ItemId, LeaseScope, NewEvent, PauseScope,
    RunId, Sequence, StepName, StepStatus,
};

/// Where one test's journal lives.
pub(crate) struct Fixture {
    _dir: Option<tempfile::TempDir>,
    pub target: JournalTarget,
}

impl Fixture {
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let target = JournalTarget::Sqlite(dir.path().join("journal.sqlite"));
        Fixture {
            _dir: Some(dir),
            target,
        }
    }

    pub fn postgres() -> Self {
        let server = postgres::throwaway::shared().unwrap();
        let db = server.fresh_database().unwrap();
        Fixture {
            _dir: None,
            target: JournalTarget::Postgres(server.admin_url(&db)),
        }
    }

    pub fn open(&self) -> AnyJournal {
        AnyJournal::open(&self.target, OpenMode::ReadWrite).unwrap()
    }
}

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

/// Runs each named test on both backends.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $( #[test] fn $name() { super::$name(&super::Fixture::sqlite()) } )*
        }
        mod on_postgres {
            $( #[test] fn $name() { super::$name(&super::Fixture::postgres()) } )*
        }
    };
}

on_both_backends!(
    appends_are_read_back_whole_with_the_actor_the_store_vouches_for,
    a_repeated_idempotency_key_returns_the_stored_event,
    a_conditional_append_goes_in_only_on_the_journal_it_was_decided_on,
    queries_filter_by_time_cluster_run_kind_and_sequence,
    a_stale_fence_refuses_the_whole_batch,
    a_stale_token_is_refused_and_nothing_is_written,
    a_held_lease_is_refused_renewed_and_handed_over_on_expiry_or_release,
    two_executors_racing_for_the_lease_get_exactly_one_grant,
    projection_replays_what_was_appended,
    the_clusters_and_runs_events_name_are_listed_once_each,
    concurrent_writers_get_gapless_sequences_in_commit_order,
);

fn appends_are_read_back_whole_with_the_actor_the_store_vouches_for(fx: &Fixture) {
    let mut j = fx.open();
    let event = note("a", 1)
        .with_run(RunId("r1".into()))
        .with_cluster(ClusterId("c1".into()));
    let appended = j.append(event.clone(), None).unwrap();
    assert!(!appended.duplicate);
    let mut expected = event.clone();
    if let Some(actor) = j.authenticated_actor() {
        expected.actor = actor;
    }
    assert_eq!(appended.event.event, expected);
    drop(j);
    let j = fx.open();
    let all = j.query(&EventQuery::default()).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].event, expected);
}

fn concurrent_writers_get_gapless_sequences_in_commit_order(fx: &Fixture) {
    let _first = fx.open();
    let barrier = Arc::new(Barrier::new(4));
    let handles: Vec<_> = (0..4)
        .map(|w| {
            let target = fx.target.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut j = AnyJournal::open(&target, OpenMode::ReadWrite).unwrap();
                barrier.wait();
                for i in 0..25 {
                    j.append(note(&format!("w{w}-{i}"), i), None).unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let j = fx.open();
    let seqs: Vec<i64> = j
        .query(&EventQuery::default())
        .unwrap()
        .iter()
        .map(|e| e.seq.0)
        .collect();
    assert_eq!(seqs, (1..=100).collect::<Vec<_>>());
}

fn a_repeated_idempotency_key_returns_the_stored_event(fx: &Fixture) {
    let mut j = fx.open();
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

fn a_conditional_append_goes_in_only_on_the_journal_it_was_decided_on(fx: &Fixture) {
    let mut j = fx.open();
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

fn queries_filter_by_time_cluster_run_kind_and_sequence(fx: &Fixture) {
    let mut j = fx.open();
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

fn a_stale_fence_refuses_the_whole_batch(fx: &Fixture) {
    let mut j = fx.open();
    // A stale fence fails the whole batch before anything is written.
    let fence = Fence {
        scope: LeaseScope::fleet(),
        token: FencingToken(7),
    };
    let result = j.append_all(vec![note("a", 1), note("b", 2)], Some(&fence));
    assert!(matches!(result, Err(JournalError::StaleToken { .. })));
    assert!(j.query(&EventQuery::default()).unwrap().is_empty());
}

fn a_stale_token_is_refused_and_nothing_is_written(fx: &Fixture) {
    let mut j = fx.open();
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

fn a_held_lease_is_refused_renewed_and_handed_over_on_expiry_or_release(fx: &Fixture) {
    let mut j = fx.open();
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

fn two_executors_racing_for_the_lease_get_exactly_one_grant(fx: &Fixture) {
    let _first = fx.open();
    for round in 0..5 {
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|name| {
                let target = fx.target.clone();
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    let mut j = AnyJournal::open(&target, OpenMode::ReadWrite).unwrap();
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

fn projection_replays_what_was_appended(fx: &Fixture) {
    let mut j = fx.open();
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

fn the_clusters_and_runs_events_name_are_listed_once_each(fx: &Fixture) {
    let mut j = fx.open();
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
