//! Journal benchmark: append throughput (one event per transaction, as the engine writes
//! intents and outcomes, and batched) and replay of 100,000 events through the projection.
//! Run with `cargo bench --bench journal`. Targets: ≥ 5,000 events/s appended; replay of
//! 100,000 events < 1 s.

use std::time::Instant;

use fleetdeck::journal::{Durability, Fence, JournalStore, LeaseGrant, SqliteJournal};
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, LeaseScope, NewEvent, RunId, StepName, StepStatus,
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
            identity: None,
        },
        2 => EventBody::Outcome {
            intent: IdempotencyKey(format!("m-{tag}/{node}/Drain/evict#{i}")),
            ok: false,
            detail: json!({"code": 429, "message": "Cannot evict pod as it would violate the pod's disruption budget.", "pdb": "trainer-pdb"}),
        },
        _ => EventBody::Observed {
            observation: json!({"Pods": [
                {"pod": pod, "owner": "Other", "hasEmptyDir": false, "terminating": false},
                {"pod": {"namespace": "kube-system", "name": "nvidia-dcgm", "uid": "x"}, "owner": "DaemonSet", "hasEmptyDir": false, "terminating": false}
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

/// The executor's fence: every executor event is written under the lease it holds, and
/// checked against it in the write's transaction.
fn fence(j: &mut SqliteJournal) -> Fence {
    match j
        .acquire_lease(
            &LeaseScope::fleet(),
            &Actor("executor/bench-host-4242".into()),
            std::time::Duration::from_secs(3600),
            Timestamp::now(),
        )
        .unwrap()
    {
        LeaseGrant::Acquired { lease } => lease.fence(),
        LeaseGrant::HeldByOther { .. } => unreachable!("a fresh journal"),
    }
}

fn single(durability: Durability, n: usize, label: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut j = SqliteJournal::open(&dir.path().join("j.sqlite"), durability).unwrap();
    j.append(plan("single"), None).unwrap();
    let fence = fence(&mut j);
    let start = Instant::now();
    for i in 0..n {
        j.append(event(i, "single"), Some(&fence)).unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "append, 1 event/transaction, {label:<16} {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn batched(durability: Durability, n: usize, batch: usize, label: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut j = SqliteJournal::open(&dir.path().join("j.sqlite"), durability).unwrap();
    let fence = fence(&mut j);
    let start = Instant::now();
    for chunk in (0..n).collect::<Vec<_>>().chunks(batch) {
        j.append_all(
            chunk.iter().map(|i| event(*i, "batched")).collect(),
            Some(&fence),
        )
        .unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "append, {batch} events/transaction, {label:<13} {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn replay(n: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut j = SqliteJournal::open(&dir.path().join("j.sqlite"), Durability::Normal).unwrap();
    j.append(plan("replay"), None).unwrap();
    let fence = fence(&mut j);
    for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
        j.append_all(
            chunk.iter().map(|i| event(*i, "replay")).collect(),
            Some(&fence),
        )
        .unwrap();
    }
    drop(j);
    let j = SqliteJournal::open(&dir.path().join("j.sqlite"), Durability::Normal).unwrap();
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

fn main() {
    // `cargo test --benches` runs benches with `--bench` absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let scale = if quick { 20 } else { 1 };
    single(Durability::Full, 5_000 / scale, "synchronous=FULL");
    single(Durability::Normal, 20_000 / scale, "synchronous=NORMAL");
    batched(Durability::Full, 100_000 / scale, 100, "FULL");
    replay(100_000 / scale);
}
