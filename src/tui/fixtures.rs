//! A small, fixed fleet for the console's snapshot tests and screenshots: seven clusters
//! covering every status, drift, a blocking PDB, GPU nodes in racks, unhealthy nodes.
//! Deterministic: fixed times, fixed names, no randomness.

use std::sync::Arc;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::app::{App, AppConfig, Msg};
use super::feed::{Activity, JournalLine};
use super::keymap::Keymap;
use super::theme::Theme;
use crate::model::capacity::CapacityConfig;
use crate::model::fleet::{
    ClusterId, ClusterView, Labels, MaintenanceState, NodeName, NodeSelector, NodeView, OwnerRef,
    PdbView, PodPhase, PodView, Readiness, ResourceVector, Schedulability,
};
use crate::model::ledger::fixtures::CLUSTERS;
pub use crate::model::ledger::fixtures::ledger;
use crate::model::live::{
    ClusterSnapshot, ClusterStatus, ConnectionFacts, FleetSnapshot, IdentityVerdict,
    ObservedIdentity, SyncPhase,
};

/// The fixed "now" of every fixture: 2026-11-28 14:02:03 UTC.
pub fn now() -> Timestamp {
    Timestamp::from_second(1_795_874_523).unwrap()
}

const GI: i64 = 1 << 30;

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
        ready: true,
        mounts_claims: false,
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
        claims: Vec::new(),
        volumes: Vec::new(),
        volumes_unreadable: None,
        controllers: Default::default(),
        nodes,
        pods,
        pdbs: vec![PdbView {
            namespace: Arc::from("shop"),
            name: Arc::from("web"),
            disruptions_allowed: 0,
            current_healthy: 9,
            desired_healthy: 9,
            expected_pods: 9,
            always_allow_unhealthy: false,
        }],
    }
}

pub(super) fn ago(secs: i64) -> Option<Timestamp> {
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
            partial: None,
            listed: status != ClusterStatus::Connecting,
        },
        identity: verdict.as_ref().map(|_| ObservedIdentity {
            kube_system_uid: format!("0000000{i}-1111"),
            server: format!("https://{id}:6443"),
        }),
        identity_verdict: verdict,
        server_version: server.map(str::to_owned),
        last_error: error.map(str::to_owned),
        error: error.map(str::to_owned),
        kubelet_versions: Vec::new(),
        kernel_versions: Vec::new(),
        gpu_driver_versions: Vec::new(),
        runtime_versions: Vec::new(),
        requests_sent: 10,
        findings: super::findings_fixtures::facts(i),
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
                claims: Vec::new(),
                volumes: Vec::new(),
                volumes_unreadable: None,
                controllers: Default::default(),
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
        executor: None,
        unregistered_contexts: Vec::new(),
        rollout_gates: None,
        findings: super::findings_data::FindingsConfig::default(),
    };
    let mut app = App::new(config, Arc::new(ledger()), now());
    app.update(Msg::Snapshot(snapshot()));
    let line = |secs: i64, actor: &str, text: &str| JournalLine {
        at: ago(secs).unwrap(),
        actor: actor.into(),
        cluster: Some("eu-fra-prod-01".into()),
        text: text.into(),
    };
    app.update(Msg::Activity(Activity {
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
        team: None,
    }));
    app
}

/// An app on the fixture fleet with the dark theme.
pub fn app() -> App {
    app_with(Theme::builtin_dark())
}

pub use super::journal_fixtures::{journal_events, operator_app, with_journal};

/// `app` sees `cluster` in `status` from now on (e.g. the Unreachable cluster of the
/// fixture rollout's waiting batch reachable again, so the batch may be approved).
pub fn seen_as(app: &mut App, cluster: &str, status: ClusterStatus) {
    app.snapshot = with_cluster(&app.snapshot, cluster, |c| c.status = status);
}

/// `snapshot` with `change` made to one cluster's snapshot (the others shared).
pub fn with_cluster(
    snapshot: &FleetSnapshot,
    cluster: &str,
    change: impl FnOnce(&mut ClusterSnapshot),
) -> FleetSnapshot {
    let mut change = Some(change);
    let clusters: Vec<Arc<ClusterSnapshot>> = snapshot
        .clusters
        .iter()
        .map(|c| match change.take_if(|_| &*c.id == cluster) {
            Some(change) => {
                let mut c = (**c).clone();
                change(&mut c);
                Arc::new(c)
            }
            None => Arc::clone(c),
        })
        .collect();
    FleetSnapshot {
        clusters: clusters.into(),
        ..snapshot.clone()
    }
}
