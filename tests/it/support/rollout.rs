//! A rollout's workspace for tests: a simulated fleet on loopback with its kubeconfig and
//! ledger, the release's manifests and the rollout file, all in a temporary directory
//! where executors and the CLI run; and executors run in the test's own process. The
//! journal is a SQLite file there or a PostgreSQL database (`support::backend`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use super::backend::{Backend, TestJournal};
use fleetdeck::engine::executor::{Executor, ExecutorOptions};
use fleetdeck::hooks::prometheus::Prometheus;
use fleetdeck::journal::AnyJournal;
use fleetdeck::k8s::connect::{ClusterClient, ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::k8s::rollout_kube::RolloutSettings;
use fleetdeck::model::run::Actor;
use fleetdeck::sim::{SimFleet, SimServer, start_on_loopback, write_kubeconfig, write_ledger};

/// The CNI settings ConfigMap most rollout tests release.
pub const CNI_MANIFEST: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cni-settings\n  namespace: kube-system\ndata:\n  version: cilium-1.17.2\n";

/// A rollout file releasing `bundle` (a YAML mapping) as `name` to every cluster in one
/// stage, three clusters at a time, auto-approved after a 1 s soak, checking that
/// `min_ratio` of the nodes are ready and halting at the first failed cluster: the
/// shape the engine, failover, reload and shard tests share.
pub fn one_stage_rollout(name: &str, bundle: &str, min_ratio: &str) -> String {
    format!(
        r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: {name}
  bundle: {bundle}
  action:
    apply: {{directory: manifests}}
  checks:
    - nodesReady: {{minRatio: {min_ratio}}}
targets: ""
stages:
  - {{name: all, batchSize: 3, soak: 1s, approval: auto, pick: ordered}}
budgets: {{maxInFlight: 3}}
stopWhen:
  failedClusters: 1
"#
    )
}

pub struct Workspace {
    pub dir: tempfile::TempDir,
    pub journal: TestJournal,
    pub fleet: SimFleet,
    pub addr: SocketAddr,
    _server: SimServer,
}

impl Workspace {
    /// Scenario `scenario` with `seed`, `manifests` as `manifests/cni.yaml` and `rollout`
    /// as `rollout.yaml`.
    pub async fn new(scenario: &str, seed: u64, manifests: &str, rollout: &str) -> Workspace {
        Self::on(Backend::Sqlite, scenario, seed, manifests, rollout).await
    }

    /// As [`Workspace::new`], with the journal on `backend`.
    pub async fn on(
        backend: Backend,
        scenario: &str,
        seed: u64,
        manifests: &str,
        rollout: &str,
    ) -> Workspace {
        let dir = tempfile::tempdir().expect("tempdir");
        let journal = TestJournal::new(backend, dir.path());
        let path = dir.path();
        let fleet = SimFleet::load(scenario, seed, 1.0).expect("scenario");
        let (addr, server) = start_on_loopback(fleet.clone(), 0).await.expect("loopback");
        write_kubeconfig(&fleet, &path.join("kubeconfig"), addr).expect("kubeconfig");
        write_ledger(&fleet, &path.join("ledger.yaml"), addr).expect("ledger");
        std::fs::create_dir_all(path.join("manifests")).expect("mkdir");
        std::fs::write(path.join("manifests/cni.yaml"), manifests).expect("manifests");
        std::fs::write(path.join("rollout.yaml"), rollout).expect("rollout");
        Workspace {
            dir,
            journal,
            fleet,
            addr,
            _server: server,
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `fleetdeck ARGS` as `actor` in the workspace, on its ledger, kubeconfig and
    /// journal.
    pub fn fleetdeck(&self, actor: &str, args: &[&str]) -> std::process::Output {
        let mut all: Vec<String> = ["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"]
            .map(String::from)
            .to_vec();
        all.extend(self.journal.flags(actor));
        all.extend(args.iter().map(|a| a.to_string()));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        super::cli::fleetdeck(&all, self.path())
    }

    /// The ledger written for the fleet.
    pub fn ledger(&self) -> fleetdeck::model::ledger::Ledger {
        fleetdeck::config::ledger_file::load(&self.path().join("ledger.yaml")).expect("ledger")
    }

    /// PATCH requests `cluster` answered whose path ends with `suffix`.
    pub fn patches(&self, cluster: &str, suffix: &str) -> usize {
        self.fleet
            .request_log(cluster)
            .expect("cluster")
            .iter()
            .filter(|r| r.method == "PATCH" && r.path.ends_with(suffix))
            .count()
    }
}

/// An executor in the test's process, on the workspace's journal.
pub type InProcess = Executor<AnyJournal, KubePort>;

/// The workspace's fleet seen from the test's process: clients and a synced fleet view,
/// for executors run in the test itself.
pub struct Live {
    sync: FleetSync,
    clients: HashMap<String, ClusterClient>,
}

impl Live {
    pub async fn new(ws: &Workspace) -> Live {
        let ledger = ws.ledger();
        let kubeconfig =
            kube::config::Kubeconfig::read_from(ws.path().join("kubeconfig")).expect("kubeconfig");
        let mut clients = HashMap::new();
        for cluster in &ledger.clusters {
            let client = connect(cluster, &kubeconfig, &ConnectOptions::default())
                .await
                .expect("client");
            clients.insert(cluster.id.to_string(), client);
        }
        let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
        sync.wait_settled(Duration::from_secs(20)).await;
        Live { sync, clients }
    }

    /// An executor named `actor` with a one-second lease, evidence every second, querying
    /// `prometheus` if given.
    pub fn executor(&self, ws: &Workspace, actor: &str, prometheus: Option<&str>) -> InProcess {
        self.executor_with(ws, actor, prometheus, |_| {})
    }

    /// As [`Live::executor`], with options adjusted.
    pub fn executor_with(
        &self,
        ws: &Workspace,
        actor: &str,
        prometheus: Option<&str>,
        adjust: impl FnOnce(&mut ExecutorOptions),
    ) -> InProcess {
        let store = ws.journal.open_as(actor);
        let port = KubePort::new(
            self.clients.clone(),
            self.sync.snapshots.clone(),
            actor.to_string(),
        )
        .with_rollout_settings(RolloutSettings {
            prometheus: prometheus.map(Prometheus::new),
            ..RolloutSettings::default()
        });
        let mut options = ExecutorOptions::new(Actor(actor.into()));
        options.lease_ttl = Duration::from_secs(1);
        options.tick = Duration::from_millis(50);
        options.rollout.evidence_interval = Duration::from_secs(1);
        adjust(&mut options);
        Executor::new(store, port, options).with_fleet(self.sync.snapshots.clone())
    }

    pub fn stop(&mut self) {
        self.sync.stop();
    }
}
