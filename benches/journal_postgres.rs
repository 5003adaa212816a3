//! PostgreSQL journal benchmark (team mode), on a throwaway server with its default
//! durability (`fsync=on`, `synchronous_commit=on`: a committed event survives power loss,
//! as with SQLite's FULL): append throughput one event per transaction and batched, replay
//! of 100,000 events through the projection, and the latency from an append on one
//! connection to another process's reader seeing it (LISTEN/NOTIFY, then a read by
//! sequence, as the console does). Run with `cargo bench --bench journal_postgres`.
//! Targets: ≥ 5,000 events/s appended (batching allowed where the engine writes several
//! events at once); replay of 100,000 events < 1 s; event-to-other-console p99 < 250 ms.

use std::time::{Duration, Instant};

use fleetdeck::journal::postgres::throwaway::{ServerDurability, ThrowawayServer};
use fleetdeck::journal::{EventQuery, JournalStore, PostgresJournal};
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, Sequence, StepName, StepStatus,
};
use jiff::Timestamp;
use serde_json::json;

/// A realistic mix: step statuses, eviction intents with pod details, outcomes with API
/// answers, observations with pod lists.
fn event(i: usize, tag: &str) -> NewEvent {
    let run = RunId(format!("m-{tag}"));
    let node = format!("gpu-a100-{:03}", i % 200);
    let pod = json!({"namespace": "training", "name": format!("trainer-{i}"), "uid": format!("6f1c2d3e-{i:08}-4a5b-9c8d-0e1f2a3b4c5d")});
    let body = match i % 4 {
        0 => EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB trainer-pdb needs 3 healthy pods and has 3 (training/trainer-1, training/trainer-2)".into(),
            },
        },
        1 => EventBody::Intent {
            action: "evict".into(),
            detail: json!({"action": "evict", "pod": pod}),
        },
        2 => EventBody::Outcome {
            intent: IdempotencyKey(format!("m-{tag}/{node}/Drain/evict#{i}")),
            ok: false,
            detail: json!({"code": 429, "message": "Cannot evict pod as it would violate the pod's disruption budget.", "pdb": "trainer-pdb"}),
        },
        _ => EventBody::Observed {
            observation: json!({"Pods": [
                {"pod": pod, "owner": "Other", "has_empty_dir": false, "terminating": false},
                {"pod": {"namespace": "kube-system", "name": "nvidia-dcgm", "uid": "x"}, "owner": "DaemonSet", "has_empty_dir": false, "terminating": false}
            ]}),
        },
    };
    NewEvent::new(
        Timestamp::now(),
        Actor("executor/bench-host-4242".into()),
        IdempotencyKey(format!("{tag}/{i}")),
        body,
    )
    .with_run(run)
    .with_item(ItemId(node))
    .with_step(StepName("Drain".into()))
    .with_cluster(ClusterId("cn-sh-prod-01".into()))
}

fn plan(tag: &str) -> NewEvent {
    NewEvent::new(
        Timestamp::now(),
        Actor("alice@host".into()),
        IdempotencyKey(format!("{tag}/plan")),
        EventBody::RunPlanned {
            title: "kernel patch".into(),
            items: (0..200)
                .map(|i| ItemId(format!("gpu-a100-{i:03}")))
                .collect(),
            batches: vec![],
            spec: json!({}),
        },
    )
    .with_run(RunId(format!("m-{tag}")))
}

fn journal(server: &ThrowawayServer) -> PostgresJournal {
    let db = server.fresh_database().unwrap();
    PostgresJournal::connect(&server.url(&db, "postgres")).unwrap()
}

fn single(server: &ThrowawayServer, n: usize) {
    let mut j = journal(server);
    j.append(plan("single"), None).unwrap();
    let start = Instant::now();
    for i in 0..n {
        j.append(event(i, "single"), None).unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "append, 1 event/transaction        {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn batched(server: &ThrowawayServer, n: usize, batch: usize) {
    let mut j = journal(server);
    let start = Instant::now();
    for chunk in (0..n).collect::<Vec<_>>().chunks(batch) {
        j.append_all(chunk.iter().map(|i| event(*i, "batched")).collect(), None)
            .unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "append, {batch:>3} events/transaction     {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn replay(server: &ThrowawayServer, n: usize) {
    let mut j = journal(server);
    j.append(plan("replay"), None).unwrap();
    for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
        j.append_all(chunk.iter().map(|i| event(*i, "replay")).collect(), None)
            .unwrap();
    }
    let start = Instant::now();
    let projection = j.projection().unwrap();
    let secs = start.elapsed().as_secs_f64();
    let items = projection
        .runs
        .values()
        .map(|r| r.items.len())
        .sum::<usize>();
    println!(
        "replay {n} events through the projection (read + decode + fold): {secs:.3} s ({:.0} events/s; {items} items)",
        (n + 1) as f64 / secs
    );
}

/// One writer appends `n` events, one at a time with a pause between; a reader on its own
/// connection waits for changes as the console's feed does and notes when each event is
/// seen. Latency: from just before the append to the reader having read the event.
fn latency(server: &ThrowawayServer, n: usize) {
    let db = server.fresh_database().unwrap();
    let url = server.url(&db, "postgres");
    let mut writer = PostgresJournal::connect(&url).unwrap();
    let reader = PostgresJournal::connect(&url).unwrap();
    writer.append(plan("latency"), None).unwrap();
    let (seen_tx, seen_rx) = std::sync::mpsc::channel::<(i64, Instant)>();
    let reading = std::thread::spawn(move || {
        let mut last = Some(Sequence(1));
        let mut count = 0;
        while count < n {
            reader.wait_for_change(Duration::from_millis(500));
            let query = EventQuery {
                after: last,
                ..EventQuery::default()
            };
            reader
                .scan(&query, &mut |e| {
                    last = Some(e.seq);
                    count += 1;
                    let _ = seen_tx.send((e.seq.0, Instant::now()));
                })
                .unwrap();
        }
    });
    // Let the reader's LISTEN connection come up first.
    std::thread::sleep(Duration::from_millis(500));
    let mut sent = Vec::with_capacity(n);
    for i in 0..n {
        let before = Instant::now();
        let appended = writer.append(event(i, "latency"), None).unwrap();
        sent.push((appended.event.seq.0, before));
        std::thread::sleep(Duration::from_millis(5));
    }
    reading.join().unwrap();
    let seen: std::collections::HashMap<i64, Instant> = seen_rx.try_iter().collect();
    let mut ms: Vec<f64> = sent
        .iter()
        .map(|(seq, before)| (seen[seq] - *before).as_secs_f64() * 1000.0)
        .collect();
    ms.sort_by(f64::total_cmp);
    let pct = |p: f64| ms[((ms.len() as f64 * p).ceil() as usize).saturating_sub(1)];
    println!(
        "event to another reader (NOTIFY + read by sequence), {n} events: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
}

fn main() {
    // `cargo test --benches` runs benches with `--bench` absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let scale = if quick { 20 } else { 1 };
    let server = ThrowawayServer::start(ServerDurability::Full).unwrap();
    single(&server, 5_000 / scale);
    batched(&server, 100_000 / scale, 10);
    batched(&server, 100_000 / scale, 100);
    replay(&server, 100_000 / scale);
    latency(&server, 1_000 / scale);
}
