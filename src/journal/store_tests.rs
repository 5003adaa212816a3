//! The store's contract, run against both backends: every test here runs once on a
//! SQLite file and once on a fresh database of a throwaway PostgreSQL server.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use jiff::Timestamp;

pub(crate) use super::fixture_tests::{Fixture, executor_fence, on_both_backends};
use super::*;
use crate::model::ledger::ClusterId;
use crate::model::run::{
    Actor, EventBody, FencingToken, IdempotencyKey, ItemId, LeaseScope, NewEvent, PauseScope,
    RunId, Sequence, StepName, StepStatus,
};

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

on_both_backends!(
    appends_are_read_back_whole_with_the_actor_the_store_vouches_for,
    a_repeated_idempotency_key_returns_the_stored_event,
    a_batch_is_numbered_in_order_and_a_key_repeated_in_it_is_written_once,
    a_conditional_append_goes_in_only_on_the_journal_it_was_decided_on,
    queries_filter_by_time_cluster_run_kind_and_sequence,
    a_stale_fence_refuses_the_whole_batch,
    a_stale_token_is_refused_and_nothing_is_written,
    a_held_lease_is_refused_renewed_and_handed_over_on_expiry_or_release,
    two_executors_racing_for_the_lease_get_exactly_one_grant,
    projection_replays_what_was_appended,
    the_clusters_and_runs_events_name_are_listed_once_each,
    concurrent_writers_get_gapless_sequences_in_commit_order,
    shards_of_one_key_are_held_together_and_exclude_the_fleet_and_other_keys,
    a_lapsed_shard_lease_is_revoked_when_the_fleet_is_taken,
);

mod postgres_only {
    #[test]
    fn lease_times_come_from_the_database_not_the_caller() {
        super::lease_times_come_from_the_database_not_the_caller(&super::Fixture::postgres())
    }
}

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

fn a_batch_is_numbered_in_order_and_a_key_repeated_in_it_is_written_once(fx: &Fixture) {
    let mut j = fx.open();
    j.append(note("before", 0), None).unwrap();
    let batch = vec![
        note("b1", 1),
        note("before", 2),
        note("b2", 3),
        note("b1", 4),
        note("b3", 5),
    ];
    let out = j.append_all(batch, None).unwrap();
    let seqs: Vec<(i64, bool)> = out.iter().map(|a| (a.event.seq.0, a.duplicate)).collect();
    assert_eq!(
        seqs,
        vec![(2, false), (1, true), (3, false), (2, true), (4, false)]
    );
    assert_eq!(out[3].event, out[0].event, "the stored one, not the repeat");
    let keys: Vec<String> = j
        .query(&EventQuery::default())
        .unwrap()
        .into_iter()
        .map(|e| e.event.key.0)
        .collect();
    assert_eq!(keys, vec!["before", "b1", "b2", "b3"]);
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

/// The lease tests run on the store's own clock (on PostgreSQL the database's, which a
/// caller cannot set): short leases and real waits.
const TTL: Duration = Duration::from_millis(1000);

fn wait_past(ttl: Duration) {
    std::thread::sleep(ttl + Duration::from_millis(150));
}

fn acquired(grant: LeaseGrant) -> Lease {
    match grant {
        LeaseGrant::Acquired { lease } => lease,
        LeaseGrant::HeldByOther { lease } => panic!("refused: held {lease:?}"),
    }
}

fn refused_by(grant: LeaseGrant) -> Lease {
    match grant {
        LeaseGrant::HeldByOther { lease } => lease,
        LeaseGrant::Acquired { lease } => panic!("granted {lease:?}"),
    }
}

fn a_stale_token_is_refused_and_nothing_is_written(fx: &Fixture) {
    let mut j = fx.open();
    let scope = LeaseScope::fleet();
    let old = acquired(
        j.acquire_lease(&scope, &Actor("executor/a".into()), TTL, Timestamp::now())
            .unwrap(),
    );
    assert_eq!(old.token, FencingToken(1));
    j.append(note("by-a", 1), Some(&old.fence())).unwrap();
    // a stops renewing; b takes over after expiry.
    wait_past(TTL);
    let new = acquired(
        j.acquire_lease(&scope, &Actor("executor/b".into()), TTL, Timestamp::now())
            .unwrap(),
    );
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
        j.renew_lease(&old, TTL, Timestamp::now()),
        Err(JournalError::LeaseLost { .. })
    ));
    let ok = j.append(note("by-b", 12), Some(&new.fence())).unwrap();
    assert_eq!(ok.event.token, Some(FencingToken(2)));
}

fn a_held_lease_is_refused_renewed_and_handed_over_on_expiry_or_release(fx: &Fixture) {
    let mut j = fx.open();
    let scope = LeaseScope::fleet();
    let a = Actor("executor/a".into());
    let b = Actor("executor/b".into());
    let lease = acquired(j.acquire_lease(&scope, &a, TTL, Timestamp::now()).unwrap());
    refused_by(j.acquire_lease(&scope, &b, TTL, Timestamp::now()).unwrap());
    std::thread::sleep(TTL * 6 / 10);
    let renewed = j.renew_lease(&lease, TTL, Timestamp::now()).unwrap();
    assert_eq!(renewed.token, lease.token);
    assert!(renewed.expires_at > lease.expires_at);
    std::thread::sleep(TTL * 6 / 10);
    // Past the first expiry, still held thanks to the renewal.
    let held = refused_by(j.acquire_lease(&scope, &b, TTL, Timestamp::now()).unwrap());
    assert_eq!(held.holder, Some(a.clone()));
    j.release_lease(&renewed, Timestamp::now()).unwrap();
    let by_b = acquired(j.acquire_lease(&scope, &b, TTL, Timestamp::now()).unwrap());
    assert_eq!(
        by_b.token,
        FencingToken(2),
        "a released lease is free at once"
    );
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
                        Timestamp::now(),
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
        // The winner gives it back, so the next round races for a free lease again.
        fx.open()
            .release_lease(winners[0], Timestamp::now())
            .unwrap();
    }
}

fn shard(text: &str) -> LeaseScope {
    LeaseScope(text.into())
}

fn shards_of_one_key_are_held_together_and_exclude_the_fleet_and_other_keys(fx: &Fixture) {
    let mut j = fx.open();
    let now = Timestamp::now;
    let ttl = Duration::from_secs(30);
    let east = acquired(
        j.acquire_lease(
            &shard("region=us-east"),
            &Actor("e/east".into()),
            ttl,
            now(),
        )
        .unwrap(),
    );
    let west = acquired(
        j.acquire_lease(
            &shard("region=eu-west"),
            &Actor("e/west".into()),
            ttl,
            now(),
        )
        .unwrap(),
    );
    assert_eq!((east.token, west.token), (FencingToken(1), FencingToken(1)));
    // The fleet's executor, or one splitting by another key, would act on the same clusters.
    let fleet = refused_by(
        j.acquire_lease(&LeaseScope::fleet(), &Actor("e/all".into()), ttl, now())
            .unwrap(),
    );
    assert_eq!(fleet.scope, shard("region=eu-west"), "the first in the way");
    let gold = refused_by(
        j.acquire_lease(&shard("tier=gold"), &Actor("e/gold".into()), ttl, now())
            .unwrap(),
    );
    assert!(gold.holder.is_some());
    // Each shard's writes are fenced by its own lease.
    j.append(note("east", 1), Some(&east.fence())).unwrap();
    j.append(note("west", 2), Some(&west.fence())).unwrap();
    // Once both are given back, the fleet's executor may act.
    j.release_lease(&east, now()).unwrap();
    refused_by(
        j.acquire_lease(&LeaseScope::fleet(), &Actor("e/all".into()), ttl, now())
            .unwrap(),
    );
    j.release_lease(&west, now()).unwrap();
    let all = acquired(
        j.acquire_lease(&LeaseScope::fleet(), &Actor("e/all".into()), ttl, now())
            .unwrap(),
    );
    // And no shard while it does.
    refused_by(
        j.acquire_lease(
            &shard("region=us-east"),
            &Actor("e/east".into()),
            ttl,
            now(),
        )
        .unwrap(),
    );
    assert_eq!(all.token, FencingToken(1));
}

fn a_lapsed_shard_lease_is_revoked_when_the_fleet_is_taken(fx: &Fixture) {
    let mut j = fx.open();
    let east = acquired(
        j.acquire_lease(
            &shard("region=us-east"),
            &Actor("e/east".into()),
            TTL,
            Timestamp::now(),
        )
        .unwrap(),
    );
    wait_past(TTL);
    acquired(
        j.acquire_lease(
            &LeaseScope::fleet(),
            &Actor("e/all".into()),
            TTL,
            Timestamp::now(),
        )
        .unwrap(),
    );
    // The shard's executor stalled past its lease and wakes: nobody took its shard, but the
    // fleet's executor acts on its clusters now, so its writes are refused.
    let late = j.append(note("late-east", 1), Some(&east.fence()));
    assert!(
        matches!(late, Err(JournalError::StaleToken { current, .. }) if current == FencingToken(2)),
        "{late:?}"
    );
    assert!(matches!(
        j.renew_lease(&east, TTL, Timestamp::now()),
        Err(JournalError::LeaseLost { .. })
    ));
    assert!(
        j.query(&EventQuery {
            kinds: vec!["operator.note".into()],
            ..Default::default()
        })
        .unwrap()
        .is_empty()
    );
}

/// On a shared database, lease times are the database's: an executor that says it is an
/// hour later cannot take a lease before it lapsed, nor hold one an hour longer.
fn lease_times_come_from_the_database_not_the_caller(fx: &Fixture) {
    let mut j = fx.open();
    let scope = LeaseScope::fleet();
    let before = Timestamp::now();
    let lease = acquired(
        j.acquire_lease(&scope, &Actor("e/a".into()), TTL, before)
            .unwrap(),
    );
    let an_hour_later = before + jiff::SignedDuration::from_hours(1);
    let held = refused_by(
        j.acquire_lease(&scope, &Actor("e/b".into()), TTL, an_hour_later)
            .unwrap(),
    );
    assert_eq!(held.token, lease.token);
    let renewed = j.renew_lease(&lease, TTL, an_hour_later).unwrap();
    let slack = jiff::SignedDuration::from_secs(5);
    assert!(
        renewed.expires_at
            < Timestamp::now() + jiff::SignedDuration::try_from(TTL).unwrap() + slack,
        "{renewed:?}"
    );
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
    let fence = executor_fence(&mut j);
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
        Some(&fence),
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
