//! A small, fixed fleet for the console's snapshot tests and screenshots: seven clusters
//! covering every status, drift, a blocking PDB, GPU nodes in racks, unhealthy nodes.
//! Deterministic: fixed times, fixed names, no randomness.

use std::sync::Arc;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::app::{App, AppConfig, Msg};
use super::feed::{Activity, AutomationState, JournalLine};
use super::keymap::Keymap;
use super::theme::Theme;
use crate::model::capacity::CapacityConfig;
use crate::model::fleet::{
    ClusterId, ClusterView, Labels, MaintenanceState, NodeName, NodeSelector, NodeView, OwnerRef,
    PdbView, PodPhase, PodView, Readiness, ResourceVector, Schedulability,
};
use crate::model::ledger::{Ledger, LedgerContext, read_ledger};
use crate::model::live::{
    ClusterSnapshot, ClusterStatus, ConnectionFacts, FleetSnapshot, IdentityVerdict,
    ObservedIdentity, SyncPhase,
};

/// The fixed "now" of every fixture: 2026-11-28 14:02:03 UTC.
pub fn now() -> Timestamp {
    Timestamp::from_second(1_795_874_523).unwrap()
}

const GI: i64 = 1 << 30;

/// (id, env, region, failure domain, tier, owner, k8s version in the ledger)
const CLUSTERS: [(&str, &str, &str, &str, &str, &str, &str); 7] = [
    (
        "eu-fra-prod-01",
        "production",
        "eu-central",
        "eu-fra-a",
        "critical",
        "team-payments",
        "v1.31.4",
    ),
    (
        "eu-fra-prod-02",
        "production",
        "eu-central",
        "eu-fra-b",
        "critical",
        "team-search",
        "v1.31.4",
    ),
    (
        "us-east-stg-01",
        "staging",
        "us-east",
        "use-1a",
        "standard",
        "team-platform",
        "v1.32.1",
    ),
    (
        "us-east-prod-03",
        "production",
        "us-east",
        "use-1b",
        "critical",
        "team-ml",
        "v1.31.4",
    ),
    (
        "ap-sg-prod-01",
        "production",
        "ap-southeast",
        "apse-1a",
        "critical",
        "team-payments",
        "v1.31.4",
    ),
    (
        "us-west-dev-01",
        "development",
        "us-west",
        "usw-2a",
        "standard",
        "team-platform",
        "v1.32.1",
    ),
    (
        "ap-sg-stg-02",
        "staging",
        "ap-southeast",
        "apse-1b",
        "standard",
        "team-search",
        "v1.32.1",
    ),
];

/// The fixture ledger.
pub fn ledger() -> Ledger {
    let mut yaml = String::from(
        "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nlabelDictionary:\n  env: [production, staging, development]\n  tier: [critical, standard]\nclusters:\n",
    );
    for (i, (id, env, region, fd, tier, owner, version)) in CLUSTERS.iter().enumerate() {
        yaml.push_str(&format!(
            "  - id: {id}\n    context: {id}\n    identity:\n      kubeSystemUID: 0000000{i}-1111-1111-1111-111111111111\n      server: https://{id}:6443\n    env: {env}\n    region: {region}\n    failureDomain: {fd}\n    tier: {tier}\n    owner: {owner}\n    lifecycle: running\n    versions:\n      kubernetes: {version}\n    backup:\n      lastSuccess: 2026-11-{:02}T02:00:00Z\n      lastRestoreDrill: 2026-{:02}-10\n",
            28 - i * 2,
            11 - i,
        ));
    }
    let context = LedgerContext {
        today: jiff::civil::date(2026, 11, 28),
        is_known_zone: &|_| true,
    };
    let report = read_ledger(&yaml, &context);
    report
        .ledger
        .unwrap_or_else(|| panic!("fixture ledger invalid: {:?}", report.diagnostics))
}

fn labels(pairs: &[(&str, &str)]) -> Labels {
    Labels::new(pairs.iter().map(|(k, v)| (Arc::from(*k), Arc::from(*v))))
}

fn node(name: &str, zone: &str, rack: &str, gpus: i64) -> NodeView {
    NodeView {
        name: NodeName::from(name),
        labels: labels(&[
            ("topology.kubernetes.io/zone", zone),
            ("topology.kubernetes.io/rack", rack),
        ]),
        readiness: Readiness::Ready,
        schedulability: Schedulability::Schedulable,
        maintenance: MaintenanceState::InService,
        taints: Box::new([]),
        allocatable: ResourceVector::new(32_000, 128 * GI, gpus, 110),
        gpu_replicas: 1,
        kubelet_version: Arc::from("v1.31.4"),
    }
}

fn pod(
    name: &str,
    node: &str,
    owner: &str,
    cpu: i64,
    mem_gi: i64,
    gpus: i64,
    pdb: Option<u32>,
) -> PodView {
    PodView {
        namespace: Arc::from(if gpus > 0 { "ml" } else { "shop" }),
        name: Arc::from(name),
        node: Some(NodeName::from(node)),
        phase: PodPhase::Running,
        owner: Some(OwnerRef {
            kind: Arc::from("ReplicaSet"),
            name: Arc::from(owner),
        }),
        requests: ResourceVector::new(cpu, mem_gi * GI, gpus, 1),
        node_selector: NodeSelector::default(),
        tolerations: Box::new([]),
        required_domain: None,
        pdb,
    }
}

/// A cluster view: 3 zones × `per_zone` CPU nodes plus `gpu_nodes` 8-GPU nodes, busy pods.
fn view(id: &str, prefix: &str, per_zone: usize, gpu_nodes: usize) -> ClusterView {
    let zones = ["a", "b", "c"];
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for (z, zone) in zones.iter().enumerate() {
        for n in 0..per_zone {
            let name = format!("{prefix}-cpu-{zone}{n:02}");
            nodes.push(node(
                &name,
                &format!("{prefix}-1{zone}"),
                &format!("rack-{z}{}", n % 2),
                0,
            ));
            for p in 0..6 {
                let pdb = (p == 0).then_some(0);
                pods.push(pod(
                    &format!("web-{zone}{n}-{p}"),
                    &name,
                    "web",
                    4_000,
                    16,
                    0,
                    pdb,
                ));
            }
        }
    }
    for g in 0..gpu_nodes {
        let zone = zones[g % 3];
        let name = format!("{prefix}-gpu-{zone}{g:02}");
        nodes.push(node(
            &name,
            &format!("{prefix}-1{zone}"),
            &format!("nvl-{}", g / 2),
            8,
        ));
        let used = [6, 3, 8, 2][g % 4];
        pods.push(pod(
            &format!("trainer-{g}"),
            &name,
            "trainer",
            8_000,
            64,
            used,
            None,
        ));
    }
    ClusterView {
        id: ClusterId::from(id),
        nodes,
        pods,
        pdbs: vec![PdbView {
            namespace: Arc::from("shop"),
            name: Arc::from("web"),
            disruptions_allowed: 0,
            current_healthy: 9,
            desired_healthy: 9,
            expected_pods: 9,
        }],
    }
}

fn ago(secs: i64) -> Option<Timestamp> {
    Some(Timestamp::from_second(now().as_second() - secs).unwrap())
}

fn snapshot_of(
    i: usize,
    status: ClusterStatus,
    view: ClusterView,
    server: Option<&str>,
    last_ok: Option<Timestamp>,
    error: Option<&str>,
) -> Arc<ClusterSnapshot> {
    let id = CLUSTERS[i].0;
    let phase = match status {
        ClusterStatus::Synced => SyncPhase::Watching { complete: true },
        ClusterStatus::Degraded => SyncPhase::Watching { complete: false },
        ClusterStatus::Connecting => SyncPhase::Connecting,
        ClusterStatus::Unreachable => SyncPhase::Failing { unreachable: true },
        _ => SyncPhase::Watching { complete: true },
    };
    let verdict = match status {
        ClusterStatus::IdentityMismatch => Some(IdentityVerdict::Mismatch {
            reason: "kube-system UID is 9f3c0000-dead-beef-0000-000000000000 but the ledger pins 00000004-1111-1111-1111-111111111111".into(),
        }),
        ClusterStatus::Connecting => None,
        _ => Some(IdentityVerdict::Match),
    };
    Arc::new(ClusterSnapshot {
        id: Arc::from(id),
        status,
        facts: ConnectionFacts {
            phase,
            last_ok,
            identity_mismatch: status == ClusterStatus::IdentityMismatch,
            unreadable_objects: 0,
        },
        identity: verdict.as_ref().map(|_| ObservedIdentity {
            kube_system_uid: format!("0000000{i}-1111"),
            server: format!("https://{id}:6443"),
        }),
        identity_verdict: verdict,
        server_version: server.map(str::to_owned),
        last_error: error.map(str::to_owned),
        kubelet_versions: Vec::new(),
        kernel_versions: Vec::new(),
        runtime_versions: Vec::new(),
        requests_sent: 10,
        view: Arc::new(view),
    })
}

/// The fixture fleet snapshot.
pub fn snapshot() -> FleetSnapshot {
    let mut prod1 = view("eu-fra-prod-01", "fra1", 3, 4);
    prod1.nodes[1].readiness = Readiness::NotReady;
    prod1.nodes[4].schedulability = Schedulability::Cordoned;
    prod1.nodes[7].maintenance = MaintenanceState::UnderMaintenance;
    let clusters = vec![
        snapshot_of(
            0,
            ClusterStatus::Synced,
            prod1,
            Some("v1.31.4"),
            ago(3),
            None,
        ),
        snapshot_of(
            1,
            ClusterStatus::Degraded,
            view("eu-fra-prod-02", "fra2", 2, 0),
            Some("v1.31.5"),
            ago(8),
            Some("watch pods: 1 object unreadable"),
        ),
        snapshot_of(
            2,
            ClusterStatus::Synced,
            view("us-east-stg-01", "use1", 1, 2),
            Some("v1.32.1"),
            ago(1),
            None,
        ),
        snapshot_of(
            3,
            ClusterStatus::Unreachable,
            view("us-east-prod-03", "use3", 2, 0),
            Some("v1.31.4"),
            ago(600),
            Some("connect: connection refused"),
        ),
        snapshot_of(
            4,
            ClusterStatus::IdentityMismatch,
            view("ap-sg-prod-01", "sg1", 1, 0),
            Some("v1.31.4"),
            ago(4),
            None,
        ),
        snapshot_of(
            5,
            ClusterStatus::Unknown,
            view("us-west-dev-01", "usw1", 1, 0),
            Some("v1.32.1"),
            ago(300),
            None,
        ),
        snapshot_of(
            6,
            ClusterStatus::Connecting,
            ClusterView {
                id: ClusterId::from("ap-sg-stg-02"),
                nodes: vec![],
                pods: vec![],
                pdbs: vec![],
            },
            None,
            None,
            None,
        ),
    ];
    FleetSnapshot {
        version: 7,
        taken_at: now(),
        clusters: Arc::from(clusters),
    }
}

/// An app on the fixture fleet with the given theme, automation running, a journal.
pub fn app_with(theme: Theme) -> App {
    let (keymap, warnings) = Keymap::load("default", None);
    assert!(warnings.is_empty());
    let config = AppConfig {
        actor: "alice@ops-laptop".into(),
        readonly: true,
        theme,
        keymap,
        capacity: CapacityConfig::default(),
        local_tz: TimeZone::fixed(jiff::tz::offset(1)),
        warnings: Vec::new(),
        notice: None,
    };
    let mut app = App::new(config, Arc::new(ledger()), now());
    app.update(Msg::Snapshot(snapshot()));
    app.update(Msg::Automation(AutomationState::Running));
    let line = |secs: i64, actor: &str, text: &str| JournalLine {
        at: ago(secs).unwrap(),
        actor: actor.into(),
        cluster: Some("eu-fra-prod-01".into()),
        text: text.into(),
    };
    let mut in_flight = std::collections::BTreeMap::new();
    in_flight.insert("eu-fra-prod-01".to_owned(), "kernel patch 2/5".to_owned());
    app.update(Msg::Activity(Activity {
        in_flight,
        recent: vec![
            line(900, "executor-1", "maintenance m-7: cordon fra1-cpu-b01"),
            line(
                600,
                "executor-1",
                "drain fra1-cpu-b01 blocked: PDB shop/web needs 9 healthy, has 9",
            ),
            line(120, "bob@ops", "took over drain of fra1-cpu-b01"),
        ],
        connected: true,
        journal: super::feed::JournalView::default(),
    }));
    app
}

/// An app on the fixture fleet with the dark theme.
pub fn app() -> App {
    app_with(Theme::builtin_dark())
}

/// A journal for the operator screens: a maintenance on eu-fra-prod-01 with a drain stuck
/// on a PDB, a node handed off to bob and one finished; a rollout of the example release
/// started by carol whose canary is done and whose second batch awaits approval; a note.
pub fn journal_events() -> Vec<crate::model::run::Event> {
    use crate::model::rollout::{
        BatchPhase, ReleaseDigest, VerifyOutcome, plan_rollout, read_rollout,
    };
    use crate::model::run::{
        Actor, Event, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, Sequence, StepName,
        StepStatus,
    };
    let mut events = Vec::new();
    let mut push = |secs_ago: i64,
                    actor: &str,
                    run: Option<&str>,
                    item: Option<&str>,
                    step: Option<&str>,
                    cluster: Option<&str>,
                    body: EventBody| {
        let seq = events.len() as i64 + 1;
        let mut e = NewEvent::new(
            ago(secs_ago).unwrap(),
            Actor(actor.into()),
            IdempotencyKey(format!("fixture-{seq}")),
            body,
        );
        e.run = run.map(RunId::from);
        e.item = item.map(ItemId::from);
        e.step = step.map(StepName::from);
        e.cluster = cluster.map(|c| crate::model::ledger::ClusterId(c.to_string()));
        events.push(Event {
            seq: Sequence(seq),
            token: None,
            event: e,
        });
    };
    let m = Some("mnt-kernel-1");
    let fra = Some("eu-fra-prod-01");
    push(
        3600,
        "alice@ops-laptop",
        m,
        None,
        None,
        fra,
        EventBody::RunPlanned {
            title: "maintenance kernel on eu-fra-prod-01".into(),
            items: vec![
                "fra1-cpu-a00".into(),
                "fra1-cpu-b00".into(),
                "fra1-cpu-c00".into(),
            ],
            batches: vec![
                vec!["fra1-cpu-a00".into()],
                vec!["fra1-cpu-b00".into()],
                vec!["fra1-cpu-c00".into()],
            ],
            spec: serde_json::json!({"name": "kernel"}),
        },
    );
    for step in [
        "Precheck",
        "Cordon",
        "Drain",
        "Maintain",
        "VerifyNode",
        "VerifyWorkloads",
        "Uncordon",
    ] {
        push(
            3000,
            "executor/e1",
            m,
            Some("fra1-cpu-a00"),
            Some(step),
            fra,
            EventBody::StepStatusChanged {
                status: StepStatus::Succeeded,
            },
        );
    }
    push(
        1500,
        "executor/e1",
        m,
        Some("fra1-cpu-b00"),
        Some("Drain"),
        fra,
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB web-pdb needs 3 healthy pods and has 3 (shop/web-b0-0); pods not terminating: shop/cache-1".into(),
            },
        },
    );
    push(
        1400,
        "executor/e1",
        m,
        Some("fra1-cpu-c00"),
        Some("Drain"),
        fra,
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB web-pdb needs 3 healthy pods and has 3 (shop/web-c0-0)".into(),
            },
        },
    );
    push(
        900,
        "alice@ops-laptop",
        m,
        Some("fra1-cpu-c00"),
        None,
        fra,
        EventBody::HandedOff {
            to: Actor("bob@ops".into()),
            note: "web team is scaling up; retry after 15:00".into(),
        },
    );
    let report = read_rollout(include_str!("../../examples/rollout.yaml"));
    let spec = report.spec.expect("the example rollout is valid");
    let plan = plan_rollout(&spec, &ledger()).expect("the example rollout plans on the fixture");
    let batches: Vec<Vec<ItemId>> = plan
        .stages
        .iter()
        .flat_map(|s| s.batches.iter())
        .map(|b| b.iter().map(|c| ItemId(c.0.clone())).collect())
        .collect();
    let r = Some("ro-cni-1");
    push(
        7200,
        "carol@ops",
        r,
        None,
        None,
        None,
        EventBody::RunPlanned {
            title: "cni-cilium-1.17.2".into(),
            items: batches.iter().flatten().cloned().collect(),
            batches: batches.clone(),
            spec: serde_json::to_value(&spec).unwrap(),
        },
    );
    let digest = ReleaseDigest(
        "sha256:4f2a9c0e1b7d3a6f58e2c1d09b7a4e3f2c1d0b9a8e7f6d5c4b3a29180716f5e4".into(),
    );
    let canary = batches[0][0].0.clone();
    push(
        7000,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Executing,
        },
    );
    push(
        6900,
        "executor/e1",
        r,
        Some(&canary),
        None,
        Some(&canary),
        EventBody::ItemStaged {
            digest: digest.clone(),
        },
    );
    push(
        6800,
        "executor/e1",
        r,
        Some(&canary),
        None,
        Some(&canary),
        EventBody::ItemApplied { digest },
    );
    push(
        6700,
        "executor/e1",
        r,
        Some(&canary),
        None,
        Some(&canary),
        EventBody::ItemVerified {
            outcome: VerifyOutcome::Pass,
        },
    );
    push(
        6600,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::GateEvaluated {
            batch: 0,
            halt: None,
        },
    );
    push(
        3000,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Done,
        },
    );
    push(
        2990,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 1,
            phase: BatchPhase::AwaitingApproval,
        },
    );
    push(
        600,
        "bob@ops",
        None,
        None,
        None,
        fra,
        EventBody::Note {
            text: "registry slow in eu-central since 13:40; pulls retry".into(),
        },
    );
    events
}

/// The fixture app, writable (not read-only), with the operator journal.
pub fn operator_app() -> App {
    let mut app = app();
    app.config.readonly = false;
    with_journal(&mut app, journal_events());
    app
}

/// Feeds `events` to the app as the journal feed would.
pub fn with_journal(app: &mut App, events: Vec<crate::model::run::Event>) {
    let mut activity = app.activity.clone();
    activity.journal = super::feed::JournalView {
        projection: Arc::new(crate::model::run::Projection::replay(&events)),
        events: Arc::new(events),
    };
    app.update(Msg::Activity(activity));
}
