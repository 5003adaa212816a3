//! A rollout's workspace for tests: a simulated fleet on loopback with its kubeconfig and
//! ledger, the release's manifests and the rollout file, all in a temporary directory
//! where executors and the CLI run.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;

use fleetdeck::sim::{SimFleet, SimServer, start_on_loopback, write_kubeconfig, write_ledger};

pub struct Workspace {
    pub dir: tempfile::TempDir,
    pub fleet: SimFleet,
    pub addr: SocketAddr,
    _server: SimServer,
}

impl Workspace {
    /// Scenario `scenario` with `seed`, `manifests` as `manifests/cni.yaml` and `rollout`
    /// as `rollout.yaml`.
    pub async fn new(scenario: &str, seed: u64, manifests: &str, rollout: &str) -> Workspace {
        let dir = tempfile::tempdir().expect("tempdir");
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
            fleet,
            addr,
            _server: server,
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The ledger written for the fleet.
    pub fn ledger(&self) -> fleetdeck::model::ledger::Ledger {
        fleetdeck::ledger_file::load(&self.path().join("ledger.yaml")).expect("ledger")
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
