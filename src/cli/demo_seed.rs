//! What the demo starts with beyond the fleet: a Prometheus scraping the simulator when
//! one is installed (so rollout gates have real evidence), and a rollout of a CNI release
//! across the staging clusters whose canary batch waits for the operator's approval.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use fleetdeck::engine::rollout_start::{NewRollout, RolloutStartError, record_rollout};
use fleetdeck::journal::{Durability, SqliteJournal};
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::rollout::{
    Manifest, ManifestText, plan_rollout, read_rollout, release_digest,
};
use fleetdeck::model::run::{Actor, RunId};
use fleetdeck::sim::ScrapingPrometheus;

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

/// Starts Prometheus scraping the simulator at `sim` if the binary is installed; `None`
/// otherwise (rollout gates then report metrics unknown, as they would for real).
pub fn start_prometheus(dir: &Path, sim: SocketAddr) -> Option<ScrapingPrometheus> {
    ScrapingPrometheus::start(dir, sim, Duration::from_secs(2))
        .map_err(|e| tracing::info!(error = %e, "no Prometheus for the demo"))
        .ok()
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
    let texts = vec![ManifestText {
        path: manifest.path,
        text: DEMO_MANIFEST.to_string(),
    }];
    let recorded = record_rollout(
        &mut store,
        &Actor("fleetdeck/demo".into()),
        NewRollout {
            rollout: spec,
            digest,
            manifests: texts,
            plan: &plan,
        },
        jiff::Timestamp::now(),
    );
    match recorded {
        Ok((run, _)) => Ok(run),
        // A demo kept in a directory (`--dir`) and started again finds its earlier
        // rollout unfinished on the same clusters: that one goes on.
        Err(RolloutStartError::Busy(busy)) if !busy.is_empty() => {
            let run = busy[0].run.clone();
            tracing::info!(%run, "the demo rollout of an earlier demo in this directory goes on");
            Ok(run)
        }
        Err(e) => Err(e.into()),
    }
}
