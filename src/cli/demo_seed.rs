//! What the demo starts with beyond the fleet: a Prometheus scraping the simulator when
//! one is installed (so rollout gates have real evidence), and a rollout of a CNI release
//! across the staging clusters whose canary batch waits for the operator's approval.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::Context;
use fleetdeck::engine::rollout_start::{already_applied, record_rollout};
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::rollout::{
    Manifest, ManifestText, RolloutRunSpec, plan_rollout, read_rollout, release_digest,
};
use fleetdeck::model::run::{Actor, RunId};

/// The demo's rollout: staging first, representative canary, approval for the first
/// stages, an SLO condition over Prometheus evidence.
const DEMO_ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-cilium-1.17.2
  bundle: {cni: cilium-1.17.2, kubernetes: v1.32.3}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.9}
    - workloadsReady: {namespace: kube-system}
targets: env=staging
stages:
  - {name: canary, count: 1, batchSize: 1, soak: 20s, approval: required, pick: representative}
  - {name: pilot, count: 3, batchSize: 3, soak: 30s, approval: required, pick: representative}
  - {name: rest, batchSize: 4, soak: 30s, approval: auto, pick: lowestTierFirst}
budgets: {maxInFlight: 4, perRegion: 2}
stopWhen:
  failedClusters: 1
  sloBurnRate: {objective: 99.5, window: 1m, maxBurn: 10}
  unknownMetrics: stop
approvals:
  distinctApprover: true
"#;

const DEMO_MANIFEST: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: cilium-config
  namespace: kube-system
data:
  enable-bpf-masquerade: "true"
  fleetdeck-release: cilium-1.17.2
"#;

/// A Prometheus child process, killed with the demo.
pub struct DemoPrometheus {
    child: Child,
    /// Its base URL.
    pub url: String,
}

impl Drop for DemoPrometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts Prometheus scraping the simulator at `sim` if the binary is installed; `None`
/// otherwise (rollout gates then report metrics unknown, as they would for real).
pub fn start_prometheus(dir: &Path, sim: SocketAddr) -> Option<DemoPrometheus> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .ok()?
        .port();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 2s\nscrape_configs:\n  - job_name: fleet\n    metrics_path: /sim/v1/metrics\n    static_configs:\n      - targets: ['{sim}']\n"
        ),
    )
    .ok()?;
    let child = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("prometheus-data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg("--log.level=error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| tracing::info!(error = %e, "no Prometheus for the demo"))
        .ok()?;
    Some(DemoPrometheus {
        child,
        url: format!("http://127.0.0.1:{port}"),
    })
}

/// Journals the demo rollout, started by the demo itself (so any person may approve).
pub fn seed_rollout(journal: &Path, ledger: &Ledger) -> anyhow::Result<RunId> {
    let report = read_rollout(DEMO_ROLLOUT);
    let spec = report
        .spec
        .with_context(|| format!("the demo rollout is invalid: {:?}", report.diagnostics))?;
    let manifest = Manifest {
        path: "cilium-config.yaml".into(),
        bytes: DEMO_MANIFEST.as_bytes().to_vec(),
    };
    let digest = release_digest(&spec.release, std::slice::from_ref(&manifest));
    let plan = plan_rollout(&spec, ledger)?;
    let mut store = SqliteJournal::open(journal, Durability::Full)?;
    let applied = already_applied(&store.projection()?, &digest);
    let texts = vec![ManifestText {
        path: manifest.path,
        text: DEMO_MANIFEST.to_string(),
    }];
    let run_spec = RolloutRunSpec::new(spec, digest, texts, &plan, applied);
    Ok(record_rollout(
        &mut store,
        &Actor("fleetdeck/demo".into()),
        &run_spec,
        jiff::Timestamp::now(),
    )?)
}
