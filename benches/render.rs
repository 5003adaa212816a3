//! Console rendering with the whole large fleet loaded: 300 clusters, 30,000 nodes,
//! 300,000 pods, drawn at 200×60. Prints per-screen frame times (p50/p99/max) and
//! key-to-frame latency (update + draw) while clusters keep publishing new views, as
//! they do during a sync. The operator screens are drawn over a journal of about 20,000
//! events (a 300-cluster rollout and 30 maintenances of 100 nodes).
//!
//! Run with `cargo bench --bench render`. The fleet is generated deterministically, so
//! figures are comparable between runs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use fleetdeck::model::capacity::CapacityConfig;
use fleetdeck::model::fleet::{
    ClusterId, ClusterView, Labels, MaintenanceState, NodeName, NodeSelector, NodeView, OwnerRef,
    PdbView, PodPhase, PodView, Readiness, ResourceVector, Schedulability,
};
use fleetdeck::model::ledger::{Ledger, LedgerContext, read_ledger};
use fleetdeck::model::live::{
    ClusterSnapshot, ClusterStatus, ConnectionFacts, FleetSnapshot, IdentityVerdict, SyncPhase,
};
use fleetdeck::model::maintenance::Step;
use fleetdeck::model::rollout::{
    BatchPhase, ReleaseDigest, RolloutRunSpec, RolloutSpec, VerifyOutcome, plan_rollout,
    read_rollout,
};
use fleetdeck::model::run::{
    Actor, Event, EventBody, EventLog, IdempotencyKey, ItemId, NewEvent, Projection, RunId,
    StepName, StepStatus,
};
use fleetdeck::tui::{Activity, App, AppConfig, JournalView, Keymap, Msg, Theme, render_to_buffer};
use jiff::Timestamp;

const CLUSTERS: usize = 300;
const NODES: usize = 100;
const PODS: usize = 1000;
const GPU_NODES: usize = 20;
const GI: i64 = 1 << 30;
const W: u16 = 200;
const H: u16 = 60;
const ENVS: [&str; 3] = ["production", "staging", "development"];

fn now() -> Timestamp {
    Timestamp::from_second(1_795_874_523).unwrap()
}

fn id(c: usize) -> String {
    format!("{}-r{:02}-c{c:03}", &ENVS[c % 3][..4], c % 12)
}

fn ledger() -> Ledger {
    let mut y = String::from(
        "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nlabelDictionary:\n  env: [production, staging, development]\n  tier: [critical, standard]\nclusters:\n",
    );
    for c in 0..CLUSTERS {
        y.push_str(&format!(
            "  - id: {}\n    context: {}\n    env: {}\n    region: region-{}\n    failureDomain: fd-{}\n    tier: {}\n    owner: team-{}\n    lifecycle: running\n    versions:\n      kubernetes: v1.31.{}\n    backup:\n      lastSuccess: 2026-11-27T02:00:00Z\n      lastRestoreDrill: 2026-09-10\n",
            id(c), id(c), ENVS[c % 3], c % 12, c % 36, if c % 4 == 0 { "critical" } else { "standard" }, c % 17, 4 + c % 2
        ));
    }
    let context = LedgerContext {
        today: jiff::civil::date(2026, 11, 28),
        is_known_zone: &|_| true,
    };
    let report = read_ledger(&y, &context);
    report.ledger.expect("synthetic ledger is valid")
}

fn view(c: usize, generation: usize) -> ClusterView {
    let zone_key: Arc<str> = Arc::from("topology.kubernetes.io/zone");
    let rack_key: Arc<str> = Arc::from("topology.kubernetes.io/rack");
    let zones: [Arc<str>; 3] = [
        Arc::from("zone-a"),
        Arc::from("zone-b"),
        Arc::from("zone-c"),
    ];
    let nodes: Vec<NodeView> = (0..NODES)
        .map(|n| {
            let gpu = n >= NODES - GPU_NODES;
            NodeView {
                name: NodeName::from(format!("c{c:03}-node-{n:03}").as_str()),
                labels: Labels::new([
                    (Arc::clone(&zone_key), Arc::clone(&zones[n % 3])),
                    (
                        Arc::clone(&rack_key),
                        Arc::from(format!("rack-{}", n / 10).as_str()),
                    ),
                ]),
                readiness: if (n + c + generation).is_multiple_of(97) {
                    Readiness::NotReady
                } else {
                    Readiness::Ready
                },
                schedulability: if n.is_multiple_of(53) {
                    Schedulability::Cordoned
                } else {
                    Schedulability::Schedulable
                },
                maintenance: MaintenanceState::InService,
                taints: Box::new([]),
                allocatable: ResourceVector::new(64_000, 256 * GI, if gpu { 8 } else { 0 }, 110),
                gpu_replicas: 1,
                kubelet_version: Arc::from("v1.31.4"),
            }
        })
        .collect();
    let pods: Vec<PodView> = (0..PODS)
        .map(|p| {
            let n = p % NODES;
            let gpu = n >= NODES - GPU_NODES && p.is_multiple_of(3);
            PodView {
                namespace: Arc::from(if gpu { "ml" } else { "apps" }),
                name: Arc::from(format!("pod-{p}").as_str()),
                node: Some(nodes[n].name.clone()),
                phase: PodPhase::Running,
                ready: true,
                mounts_claims: false,
                owner: Some(OwnerRef {
                    kind: Arc::from("ReplicaSet"),
                    name: Arc::from(format!("app-{}", p % 40).as_str()),
                }),
                requests: ResourceVector::new(
                    2_000 + (p as i64 % 5) * 500,
                    (4 + p as i64 % 8) * GI,
                    if gpu { 1 + (p as i64 % 4) } else { 0 },
                    1,
                ),
                node_selector: NodeSelector::default(),
                tolerations: Box::new([]),
                required_domain: None,
                pdb: p.is_multiple_of(10).then_some((p % 4) as u32),
            }
        })
        .collect();
    let pdbs = (0..4)
        .map(|i| PdbView {
            namespace: Arc::from("apps"),
            name: Arc::from(format!("pdb-{i}").as_str()),
            disruptions_allowed: i32::from(i % 2 == 1),
            current_healthy: 25,
            desired_healthy: 25,
            expected_pods: 25,
            always_allow_unhealthy: false,
        })
        .collect();
    ClusterView {
        id: ClusterId::from(id(c).as_str()),
        claims: Vec::new(),
        volumes: Vec::new(),
        volumes_unreadable: None,
        controllers: Default::default(),
        nodes,
        pods,
        pdbs,
    }
}

fn cluster(c: usize, generation: usize) -> Arc<ClusterSnapshot> {
    let status = match c % 50 {
        7 => ClusterStatus::Unreachable,
        13 => ClusterStatus::Unknown,
        21 => ClusterStatus::Degraded,
        33 => ClusterStatus::IdentityMismatch,
        _ => ClusterStatus::Synced,
    };
    Arc::new(ClusterSnapshot {
        id: Arc::from(id(c).as_str()),
        status,
        facts: ConnectionFacts {
            phase: SyncPhase::Watching { complete: true },
            last_ok: Some(now()),
            identity_mismatch: status == ClusterStatus::IdentityMismatch,
            unreadable_objects: 0,
            partial: None,
            credentials: None,
            listed: true,
        },
        identity: None,
        identity_verdict: Some(IdentityVerdict::NotPinned),
        server_version: Some(format!("v1.31.{}", 4 + (c % 3) / 2)),
        last_error: None,
        error: None,
        kubelet_versions: Vec::new(),
        kernel_versions: Vec::new(),
        gpu_driver_versions: Vec::new(),
        runtime_versions: Vec::new(),
        requests_sent: 0,
        credential: None,
        findings: None,
        view: Arc::new(view(c, generation)),
    })
}

/// A busy journal: a rollout over all 300 clusters (six batches done with their items
/// staged, applied and verified, the seventh awaiting approval) and 30 maintenance runs of
/// 100 nodes each with every step's status changes — about 20,000 events.
fn journal(ledger: &Ledger) -> Vec<Event> {
    let mut events = EventLog::default();
    let mut push = |run: &str,
                    item: Option<&str>,
                    cluster: Option<&str>,
                    step: Option<&str>,
                    body: EventBody| {
        let seq = events.next_seq();
        let mut e = NewEvent::new(
            now()
                .checked_sub(jiff::SignedDuration::from_secs(20_000 - seq.min(19_999)))
                .unwrap_or(now()),
            Actor("executor/bench".into()),
            IdempotencyKey(format!("bench-{seq}")),
            body,
        )
        .with_run(RunId(run.into()));
        e.item = item.map(|i| ItemId(i.into()));
        e.step = step.map(|s| StepName(s.into()));
        e.cluster = cluster.map(|c| fleetdeck::model::ledger::ClusterId(c.into()));
        events.push(e);
    };
    let rollout = read_rollout(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/rollout-300.yaml"
        ))
        .expect("example"),
    )
    .spec
    .expect("valid example");
    let rollout = RolloutSpec {
        targets: String::new(),
        ..rollout
    };
    let plan = plan_rollout(&rollout, ledger).expect("plans");
    let digest = ReleaseDigest("sha256:bench".into());
    let spec = RolloutRunSpec::new(
        rollout,
        digest.clone(),
        Vec::new(),
        &plan,
        Default::default(),
    );
    let batches: Vec<Vec<ItemId>> = spec
        .batches
        .iter()
        .map(|b| b.clusters.iter().map(|c| ItemId(c.clone())).collect())
        .collect();
    push(
        "ro-bench",
        None,
        None,
        None,
        EventBody::RunPlanned {
            title: "rollout cni".into(),
            items: batches.iter().flatten().cloned().collect(),
            batches: batches.clone(),
            spec: serde_json::to_value(&spec).expect("spec"),
        },
    );
    for (b, batch) in batches.iter().enumerate() {
        if b == 6 {
            push(
                "ro-bench",
                None,
                None,
                None,
                EventBody::RolloutBatch {
                    batch: b,
                    phase: BatchPhase::AwaitingApproval,
                },
            );
            break;
        }
        push(
            "ro-bench",
            None,
            None,
            None,
            EventBody::RolloutBatch {
                batch: b,
                phase: BatchPhase::Executing,
            },
        );
        for c in batch {
            let c = c.0.as_str();
            // Each cluster of the batch staged, applied and verified.
            for body in [
                EventBody::ItemStaged {
                    digest: digest.clone(),
                },
                EventBody::ItemApplied {
                    digest: digest.clone(),
                },
                EventBody::ItemVerified {
                    outcome: VerifyOutcome::Pass,
                },
            ] {
                push("ro-bench", Some(c), Some(c), None, body);
            }
        }
        push(
            "ro-bench",
            None,
            None,
            None,
            EventBody::RolloutBatch {
                batch: b,
                phase: BatchPhase::Done,
            },
        );
    }
    let steps = Step::WORK.map(|step| step.to_string());
    for r in 0..30 {
        let run = format!("mnt-bench-{r:02}");
        let cluster = id(r * 7);
        let nodes: Vec<String> = (0..NODES)
            .map(|n| format!("c{:03}-node-{n:03}", r * 7))
            .collect();
        push(
            &run,
            None,
            Some(&cluster),
            None,
            EventBody::RunPlanned {
                title: format!("maintenance kernel on {cluster}"),
                items: nodes.iter().map(|n| ItemId(n.clone())).collect(),
                batches: nodes
                    .chunks(10)
                    .map(|b| b.iter().map(|n| ItemId(n.clone())).collect())
                    .collect(),
                spec: serde_json::json!({"name": "kernel"}),
            },
        );
        for (i, node) in nodes.iter().enumerate() {
            // Nodes stand at different steps; one in ten is stuck on a PDB.
            let reached = (i * 7 + r) % steps.len();
            for step in &steps[..=reached] {
                push(
                    &run,
                    Some(node),
                    Some(&cluster),
                    Some(step.as_str()),
                    EventBody::StepStatusChanged {
                        status: StepStatus::Running,
                    },
                );
                let done = *step != steps[reached];
                let status = if done {
                    StepStatus::Succeeded
                } else if i % 10 == 3 {
                    StepStatus::Blocked {
                        reason: "PDB web-pdb needs 3 healthy pods and has 3".into(),
                    }
                } else {
                    continue;
                };
                push(
                    &run,
                    Some(node),
                    Some(&cluster),
                    Some(step.as_str()),
                    EventBody::StepStatusChanged { status },
                );
            }
        }
    }
    events.0
}

fn stats(name: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    let p99 = at(0.99);
    println!(
        "{name:<34} n={:<4} p50 {:>8.3} ms   p99 {:>8.3} ms   max {:>8.3} ms",
        samples.len(),
        at(0.5).as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3
    );
    p99
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn frames(app: &App, n: usize) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(render_to_buffer(app, W, H));
            t.elapsed()
        })
        .collect()
}

fn main() {
    let t = Instant::now();
    let ledger = Arc::new(ledger());
    let ledger_for_journal = Arc::clone(&ledger);
    let mut clusters: Vec<Arc<ClusterSnapshot>> = (0..CLUSTERS).map(|c| cluster(c, 0)).collect();
    let snapshot = FleetSnapshot {
        version: 1,
        taken_at: now(),
        clusters: Arc::from(clusters.clone()),
    };
    println!(
        "generated {CLUSTERS} clusters, {} nodes, {} pods in {:.2?}",
        CLUSTERS * NODES,
        CLUSTERS * PODS,
        t.elapsed()
    );

    let (keymap, _) = Keymap::load("default", None);
    let config = AppConfig {
        actor: "bench@fleetdeck".into(),
        readonly: false,
        theme: Theme::builtin_dark(),
        keymap,
        capacity: CapacityConfig::default(),
        local_tz: jiff::tz::TimeZone::UTC,
        warnings: Vec::new(),
        notice: None,
        executor: None,
        unregistered_contexts: Vec::new(),
        rollout_gates: None,
        findings: fleetdeck::tui::FindingsConfig::default(),
        // `FLEETDECK_LANG=zh-CN cargo bench --bench render` measures the Chinese console.
        lang: std::env::var("FLEETDECK_LANG")
            .ok()
            .and_then(|l| fleetdeck::i18n::Lang::parse(&l).ok())
            .unwrap_or_default(),
    };
    println!("language: {}", config.lang);
    let mut app = App::new(config, ledger, now());
    app.update(Msg::Resize(W, H));
    let t = Instant::now();
    app.update(Msg::Snapshot(snapshot));
    println!(
        "first snapshot (facts for every cluster): {:.2?}\n",
        t.elapsed()
    );

    println!("frame times at {W}×{H} (render_to_buffer):");
    let mut worst = Duration::ZERO;
    worst = worst.max(stats("ledger", frames(&app, 300)));
    app.on_action(fleetdeck::tui::Action::GroupRegion);
    worst = worst.max(stats("ledger grouped by region", frames(&app, 300)));
    app.on_action(fleetdeck::tui::Action::GroupRegion);
    key(&mut app, KeyCode::Char('G'));
    key(&mut app, KeyCode::Enter);
    worst = worst.max(stats("cluster drill-down (100 nodes)", frames(&app, 300)));
    key(&mut app, KeyCode::Char('2'));
    worst = worst.max(stats("capacity: fleet", frames(&app, 300)));
    key(&mut app, KeyCode::Enter);
    worst = worst.max(stats("capacity: cluster", frames(&app, 300)));
    key(&mut app, KeyCode::Char('w'));
    worst = worst.max(stats("capacity: cluster + zone what-if", frames(&app, 300)));
    key(&mut app, KeyCode::Enter);
    worst = worst.max(stats("capacity: failure domain", frames(&app, 300)));
    key(&mut app, KeyCode::Char('1'));
    key(&mut app, KeyCode::Char(':'));
    for c in "node 042".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    worst = worst.max(stats("palette over 30,000 nodes", frames(&app, 300)));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('?'));
    worst = worst.max(stats("help", frames(&app, 300)));
    key(&mut app, KeyCode::Esc);

    let t = Instant::now();
    let events = journal(&ledger_for_journal);
    let projection = Projection::replay(&events);
    let count = events.len();
    let mut activity = Activity {
        connected: true,
        ..Activity::default()
    };
    activity.journal = JournalView::new(projection, events);
    app.update(Msg::Activity(activity));
    println!(
        "journal of {count} events (a 300-cluster rollout, 30 maintenances of 100 nodes) loaded in {:.2?}",
        t.elapsed()
    );
    key(&mut app, KeyCode::Char('3'));
    worst = worst.max(stats("rollouts (300 clusters)", frames(&app, 300)));
    key(&mut app, KeyCode::Char('4'));
    worst = worst.max(stats(
        "maintenance (30 runs × 100 nodes)",
        frames(&app, 300),
    ));
    key(&mut app, KeyCode::Char('5'));
    worst = worst.max(stats("timeline", frames(&app, 300)));
    key(&mut app, KeyCode::Char('H'));
    worst = worst.max(stats("shift handover", frames(&app, 300)));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('1'));
    println!(
        "worst p99 frame: {:.3} ms (target ≤ 4 ms)\n",
        worst.as_secs_f64() * 1e3
    );

    // Key-to-frame while the fleet syncs: between keys, 10 clusters publish a new view
    // (a fresh Arc, so their facts are recomputed), as watch events arrive.
    println!("key-to-frame (update + draw) while clusters publish new views:");
    let script: Vec<KeyCode> = [
        "j", "j", "j", "k", "/", "p", "r", "o", "d", "Enter", "Enter", "j", "j", " ", "j", " ",
        "b", "Esc", "Esc", "Esc", "s", "s", "r", "R", "E", "2", "j", "Enter", "w", "x", "Esc", ":",
        "c", "0", "4", "Enter", "1", "?", "Esc",
    ]
    .iter()
    .map(|k| match *k {
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        k => KeyCode::Char(k.chars().next().unwrap_or(' ')),
    })
    .collect();
    let mut key_samples = Vec::new();
    let mut sync_samples = Vec::new();
    let mut prepare_samples = Vec::new();
    let mut generation = 1;
    for round in 0..8 {
        for (i, code) in script.iter().enumerate() {
            for j in 0..10 {
                let c = (round * 397 + i * 10 + j) % CLUSTERS;
                clusters[c] = cluster(c, generation);
            }
            generation += 1;
            let snapshot = FleetSnapshot {
                version: generation as u64,
                taken_at: now(),
                clusters: Arc::from(clusters.clone()),
            };
            // As the console does it: the facts are worked out beside the event loop,
            // which then takes the snapshot and draws.
            let t = Instant::now();
            let prepared = app.facts_inputs().prepare(snapshot);
            prepare_samples.push(t.elapsed());
            let t = Instant::now();
            app.update(Msg::Prepared(Box::new(prepared)));
            std::hint::black_box(render_to_buffer(&app, W, H));
            sync_samples.push(t.elapsed());
            // The console frees what the snapshot replaced off its task.
            drop(app.take_retired());
            let t = Instant::now();
            key(&mut app, *code);
            std::hint::black_box(render_to_buffer(&app, W, H));
            key_samples.push(t.elapsed());
        }
    }
    let p99 = stats("key → frame", key_samples);
    stats("snapshot (10 clusters new) taken → frame", sync_samples);
    stats("… its facts, beside the loop", prepare_samples);
    println!(
        "key-to-frame p99: {:.3} ms (target ≤ 16 ms)",
        p99.as_secs_f64() * 1e3
    );
}
