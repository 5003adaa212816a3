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
use fleetdeck::journal::{EventQuery, Fence, JournalStore, LeaseGrant, PostgresJournal};
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, LeaseScope, NewEvent, RunId, Sequence, StepName,
    StepStatus,
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

/// The executor's fence on lease `scope`: every executor event is written under the lease
/// it holds, and the database checks it against the lease row in the write's transaction.
fn fence(j: &mut PostgresJournal, scope: &str) -> Fence {
    match j
        .acquire_lease(
            &LeaseScope(scope.into()),
            &Actor(format!("executor/bench-{scope}")),
            Duration::from_secs(3600),
            Timestamp::now(),
        )
        .unwrap()
    {
        LeaseGrant::Acquired { lease } => lease.fence(),
        LeaseGrant::HeldByOther { lease } => panic!("held: {lease:?}"),
    }
}

fn single(server: &ThrowawayServer, n: usize) {
    let mut j = journal(server);
    j.append(plan("single"), None).unwrap();
    let fence = fence(&mut j, "fleet");
    let start = Instant::now();
    for i in 0..n {
        j.append(event(i, "single"), Some(&fence)).unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "append, 1 event/transaction        {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn batched(server: &ThrowawayServer, n: usize, batch: usize) {
    let mut j = journal(server);
    let fence = fence(&mut j, "fleet");
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
        "append, {batch:>3} events/transaction     {n:>7} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn replay(server: &ThrowawayServer, n: usize) {
    let mut j = journal(server);
    j.append(plan("replay"), None).unwrap();
    let fence = fence(&mut j, "fleet");
    for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
        j.append_all(
            chunk.iter().map(|i| event(*i, "replay")).collect(),
            Some(&fence),
        )
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
    let fence = fence(&mut writer, "fleet");
    let (seen_tx, seen_rx) = std::sync::mpsc::channel::<(i64, Instant)>();
    let reading = std::thread::spawn(move || {
        // After the plan and the lease's own event.
        let mut last = Some(Sequence(2));
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
        let appended = writer.append(event(i, "latency"), Some(&fence)).unwrap();
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

/// `writers` threads, each on its own connection, appending one event per transaction:
/// the server flushes its log once for the commits that arrive together (group commit).
fn concurrent(server: &ThrowawayServer, writers: usize, each: usize) {
    let db = server.fresh_database().unwrap();
    let url = server.url(&db, "postgres");
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(writers + 1));
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let url = url.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut j = PostgresJournal::connect(&url).unwrap();
                // Shards of one key hold their leases side by side: one each.
                let fence = fence(&mut j, &format!("bench=w{w}"));
                barrier.wait();
                for i in 0..each {
                    j.append(event(i, &format!("w{w}")), Some(&fence)).unwrap();
                }
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    for t in threads {
        t.join().unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    let n = writers * each;
    println!(
        "append, 1 event/transaction, {writers:>2} writers {n:>6} events in {secs:>6.3} s = {:>9.0} events/s",
        n as f64 / secs
    );
}

fn main() {
    // `cargo test --benches` runs benches with `--bench` absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let scale = if quick { 20 } else { 1 };
    let server = ThrowawayServer::start(ServerDurability::Full).unwrap();
    single(&server, 5_000 / scale);
    concurrent(&server, 4, 2_000 / scale);
    concurrent(&server, 16, 1_000 / scale);
    batched(&server, 100_000 / scale, 10);
    batched(&server, 100_000 / scale, 100);
    replay(&server, 100_000 / scale);
    latency(&server, 1_000 / scale);
    engine::maintenance(&server, if quick { 2 } else { 10 });
}

/// The engine's own writes: an executor maintaining nodes of a simulated cluster, its
/// journal on the server; what it wrote, in how many commits, and how fast the journal
/// took them.
mod engine {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use fleetdeck::engine::executor::{Executor, ExecutorOptions};
    use fleetdeck::engine::start::{node_facts, plan, record_run};
    use fleetdeck::journal::postgres::throwaway::ThrowawayServer;
    use fleetdeck::journal::{
        Appended, EventQuery, Fence, JournalError, JournalStore, Lease, LeaseGrant, PostgresJournal,
    };
    use fleetdeck::k8s::connect::{ConnectOptions, connect};
    use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
    use fleetdeck::k8s::kube_port::KubePort;
    use fleetdeck::model::maintenance::read_maintenance;
    use fleetdeck::model::run::{Actor, Event, LeaseScope, NewEvent, RunStatus, Sequence};
    use jiff::Timestamp;

    #[derive(Default)]
    struct Writes {
        events: usize,
        commits: usize,
        spent: Duration,
    }

    /// The journal, counting and timing its writes.
    struct Timed {
        inner: PostgresJournal,
        writes: Arc<Mutex<Writes>>,
    }

    impl Timed {
        fn note<T>(&self, events: usize, start: Instant, out: T) -> T {
            let mut w = self.writes.lock().unwrap();
            w.events += events;
            w.commits += 1;
            w.spent += start.elapsed();
            out
        }
    }

    impl JournalStore for Timed {
        fn append(
            &mut self,
            event: NewEvent,
            fence: Option<&Fence>,
        ) -> Result<Appended, JournalError> {
            let start = Instant::now();
            let out = self.inner.append(event, fence);
            self.note(1, start, out)
        }
        fn append_all(
            &mut self,
            events: Vec<NewEvent>,
            fence: Option<&Fence>,
        ) -> Result<Vec<Appended>, JournalError> {
            let (n, start) = (events.len(), Instant::now());
            let out = self.inner.append_all(events, fence);
            self.note(n, start, out)
        }
        fn append_if_last(
            &mut self,
            event: NewEvent,
            last: Option<Sequence>,
        ) -> Result<Appended, JournalError> {
            let start = Instant::now();
            let out = self.inner.append_if_last(event, last);
            self.note(1, start, out)
        }
        fn scan(
            &self,
            query: &EventQuery,
            visit: &mut dyn FnMut(Event),
        ) -> Result<(), JournalError> {
            self.inner.scan(query, visit)
        }
        fn acquire_lease(
            &mut self,
            scope: &LeaseScope,
            holder: &Actor,
            ttl: Duration,
            now: Timestamp,
        ) -> Result<LeaseGrant, JournalError> {
            self.inner.acquire_lease(scope, holder, ttl, now)
        }
        fn renew_lease(
            &mut self,
            lease: &Lease,
            ttl: Duration,
            now: Timestamp,
        ) -> Result<Lease, JournalError> {
            self.inner.renew_lease(lease, ttl, now)
        }
        fn release_lease(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError> {
            self.inner.release_lease(lease, now)
        }
        fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
            self.inner.lease(scope)
        }
    }

    /// Maintenance of `nodes` nodes of one simulated cluster (hook `true`, two at a time),
    /// driven to the end by one executor.
    pub fn maintenance(server: &ThrowawayServer, nodes: usize) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let fleet = fleetdeck::sim::SimFleet::load("small", 1, 1.0).unwrap();
            let (addr, _server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0).await.unwrap();
            fleetdeck::sim::write_kubeconfig(&fleet, &dir.path().join("kubeconfig"), addr).unwrap();
            fleetdeck::sim::write_ledger(&fleet, &dir.path().join("ledger.yaml"), addr).unwrap();
            let ledger = fleetdeck::config::ledger_file::load(&dir.path().join("ledger.yaml")).unwrap();
            let kubeconfig = kube::config::Kubeconfig::read_from(dir.path().join("kubeconfig")).unwrap();
            let mut clients = HashMap::new();
            for cluster in &ledger.clusters {
                clients.insert(cluster.id.to_string(), connect(cluster, &kubeconfig, &ConnectOptions::default()).await.unwrap());
            }
            let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
            sync.wait_settled(Duration::from_secs(20)).await;
            let db = server.fresh_database().unwrap();
            let url = server.url(&db, "postgres");
            let client = clients["small-02"].client.clone();
            let names: Vec<String> = kube::Api::<k8s_openapi::api::core::v1::Node>::all(client.clone())
                .list(&Default::default())
                .await
                .unwrap()
                .items
                .into_iter()
                .filter_map(|n| n.metadata.name)
                .take(nodes)
                .collect();
            let yaml = format!(
                "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: bench\ncluster: small-02\nnodes:\n  names: [{}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\n    idempotent: true\nbudgets:\n  maxUnavailable: 2\n  failureDomainLabel: topology.kubernetes.io/zone\ndeadlines:\n  drain: 120s\n  verifyNode: 60s\n  verifyWorkloads: 60s\ndrain:\n  gracePeriod: 1s\n  evictionRetry: 1s\n",
                names.join(", ")
            );
            let spec = read_maintenance(&yaml).spec.unwrap();
            let inventory = node_facts(&client, "small-02").await.unwrap();
            let plan = plan(&spec, &inventory).unwrap();
            let mut operator = PostgresJournal::connect(&url).unwrap();
            let run = record_run(&mut operator, &Actor("alice@ops".into()), &spec, &plan, Timestamp::now()).unwrap();
            let writes = Arc::new(Mutex::new(Writes::default()));
            let store = Timed { inner: PostgresJournal::connect(&url).unwrap(), writes: writes.clone() };
            let port = KubePort::new(clients.clone(), sync.snapshots.clone(), "executor/bench".into());
            let mut options = ExecutorOptions::new(Actor("executor/bench".into()));
            options.tick = Duration::from_millis(100);
            let mut executor = Executor::new(store, port, options).with_fleet(sync.snapshots.clone());
            let start = Instant::now();
            while operator.projection().unwrap().runs[&run].status != RunStatus::Succeeded {
                assert!(start.elapsed() < Duration::from_secs(600), "the maintenance never finished");
                executor.pass().await.unwrap();
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let w = writes.lock().unwrap();
            println!(
                "engine pattern: maintenance of {nodes} nodes, {} events in {} commits ({:.1} per commit); journal writes took {:.3} s = {:.0} events/s (the run took {:.1} s)",
                w.events,
                w.commits,
                w.events as f64 / w.commits.max(1) as f64,
                w.spent.as_secs_f64(),
                w.events as f64 / w.spent.as_secs_f64(),
                start.elapsed().as_secs_f64()
            );
            sync.stop();
        });
    }
}
