//! Live for everyone, through the console's own feed on a PostgreSQL journal: another
//! operator's event reaches the feed within a second although it reads the table only
//! every five seconds on its own (LISTEN/NOTIFY wakes it); while the database is down the
//! feed says the journal is not connected and keeps the last state; after the restart it
//! catches up by sequence — every event written meanwhile exactly once, in order — and
//! notifications wake it again.

use std::time::{Duration, Instant};

use crate::support::backend::{Backend, TestJournal};
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::run::{Actor, EventBody, IdempotencyKey, NewEvent};
use fleetdeck::tui::Activity;
use fleetdeck::tui::journal_feed::feed;
use tokio::sync::watch;

/// How often the feed would read the table without a notification: far longer than the
/// latencies asserted, so only a notification can explain them.
const FEED_EVERY: Duration = Duration::from_secs(5);

fn note(actor: &str, key: &str) -> NewEvent {
    NewEvent::new(
        jiff::Timestamp::now(),
        Actor(actor.into()),
        IdempotencyKey(key.into()),
        EventBody::Note {
            text: format!("note {key}"),
        },
    )
}

/// The idempotency keys of the notes the feed has published, in its order.
fn keys_seen(rx: &watch::Receiver<Activity>) -> Vec<String> {
    rx.borrow()
        .journal
        .events
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::Note { .. }))
        .map(|e| e.event.key.0.clone())
        .collect()
}

/// Waits (at most `secs`) until `done` holds for what the feed published; returns how
/// long that took.
fn until(
    rx: &watch::Receiver<Activity>,
    secs: u64,
    what: &str,
    done: impl Fn(&Activity) -> bool,
) -> Duration {
    let from = Instant::now();
    while !done(&rx.borrow()) {
        assert!(
            from.elapsed() < Duration::from_secs(secs),
            "{what}: not within {secs} s; the feed has {:?}",
            keys_seen(rx)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    from.elapsed()
}

/// Appends a note as `actor` and returns how long until the feed published it.
fn latency_of(
    tj: &TestJournal,
    rx: &watch::Receiver<Activity>,
    actor: &str,
    key: &str,
) -> Duration {
    let mut store = tj.open_as(actor);
    store.append(note(actor, key), None).expect("appended");
    until(rx, 10, key, |a| {
        a.journal.events.iter().any(|e| e.event.key.0 == key)
    })
}

#[test]
fn another_operators_events_arrive_within_a_second_and_none_is_lost_or_repeated_over_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A server of its own: the restart must not break the tests running beside it.
    let tj = TestJournal::on_own_server(Backend::Postgres, dir.path());
    let (tx, rx) = watch::channel(Activity::default());
    let reader = tj.open_as("view_c");
    let feeding = std::thread::spawn(move || feed(reader, tx, FEED_EVERY));
    until(&rx, 10, "the feed's first read", |a| a.connected);

    // Live: within a second, though the feed reads on its own only every five.
    for i in 0..5 {
        let took = latency_of(&tj, &rx, "op_a", &format!("before-{i}"));
        assert!(took < Duration::from_secs(1), "before-{i} took {took:?}");
    }

    // Down: the feed says so and keeps what it had.
    let (down_tx, down_rx) = std::sync::mpsc::channel();
    let restarting = {
        let tj = tj.clone();
        std::thread::spawn(move || {
            tj.restart_database_with(Duration::from_secs(4), || {
                let _ = down_tx.send(());
            })
        })
    };
    down_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the database went down");
    until(&rx, 4, "the feed to notice the journal is gone", |a| {
        !a.connected
    });
    assert_eq!(keys_seen(&rx).len(), 5, "the last known state is kept");
    restarting.join().expect("restart");

    // Back: written right away, before the feed has reconnected.
    let mut store = tj.open_as("op_b");
    for i in 0..20 {
        store
            .append(note("op_b", &format!("after-{i}")), None)
            .expect("appended after the restart");
    }
    until(&rx, 15, "the feed to catch up", |a| {
        a.connected && a.journal.events.iter().any(|e| e.event.key.0 == "after-19")
    });
    let expected: Vec<String> = (0..5)
        .map(|i| format!("before-{i}"))
        .chain((0..20).map(|i| format!("after-{i}")))
        .collect();
    assert_eq!(keys_seen(&rx), expected, "each event once, in order");
    let fed: Vec<i64> = rx.borrow().journal.events.iter().map(|e| e.seq.0).collect();
    let stored: Vec<i64> = tj
        .open()
        .query(&EventQuery::default())
        .expect("query")
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::Note { .. }))
        .map(|e| e.seq.0)
        .collect();
    assert_eq!(fed, stored, "the feed's sequence numbers are the journal's");

    // Notifications wake the feed again once its listener is back (it reconnects with a
    // backoff of up to 5 s): from then on, every event within a second.
    let back = Instant::now();
    let mut probe = 0;
    while latency_of(&tj, &rx, "op_a", &format!("probe-{probe}")) >= Duration::from_secs(1) {
        probe += 1;
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "notifications never came back"
        );
    }
    for i in 0..5 {
        let took = latency_of(&tj, &rx, "op_a", &format!("again-{i}"));
        assert!(took < Duration::from_secs(1), "again-{i} took {took:?}");
    }

    // The feed ends at its next wake-up once nobody reads it.
    drop(rx);
    drop(feeding);
}
