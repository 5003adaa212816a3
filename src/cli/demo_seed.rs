//! What the demo starts with beyond the fleet: a Prometheus scraping the simulator when
//! one is installed (so rollout gates have real evidence), and a rollout of a CNI release
//! across the staging clusters whose canary batch waits for the operator's approval.
//!
//! Without Prometheus the rollout is gated by checks that read the clusters' live state
//! (nodes and workloads ready) and by failed clusters, not by a burn rate: a real fleet's
//! rollout keeps "missing metrics means stop", but a demo on a machine without Prometheus
//! must still show the whole approval story (approve, apply, verify, soak, the next
//! stage, and a halt where a cluster fails its checks). The console says which it did.

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
/// stages; `{stop}` is filled with its stop conditions (see [`Gates`]).
// i18n: not for people (a rollout file)
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
{stop}approvals:
  distinctApprover: true
"#;

/// Stop conditions with Prometheus evidence: a failed cluster, a burn rate, or metrics
/// that cannot be read.
// i18n: not for people (part of a rollout file)
const STOP_WITH_METRICS: &str = "  failedClusters: 1
  sloBurnRate: {objective: 99.5, window: 1m, maxBurn: 10}
  unknownMetrics: stop
";

/// Stop conditions without Prometheus: a cluster that fails its live checks.
const STOP_ON_CHECKS: &str = "  failedClusters: 1
";

/// What gates the demo rollout, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gates {
    /// Prometheus evidence (a burn rate) and the live checks.
    Prometheus {
        /// Its URL.
        url: String,
        /// Whether the demo started it (else it was configured).
        started: bool,
    },
    /// The live checks only: no Prometheus could be found.
    LiveChecks {
        /// Why none could be started: its error, or `None` when there is no
        /// `prometheus` binary in PATH.
        error: Option<String>,
    },
}

impl Gates {
    /// The rollout's `stopWhen` body.
    fn stop_when(&self) -> &'static str {
        match self {
            Gates::Prometheus { .. } => STOP_WITH_METRICS,
            Gates::LiveChecks { .. } => STOP_ON_CHECKS,
        }
    }

    /// What the console says about the rollout's gates, in `lang`.
    pub fn notice(&self, lang: fleetdeck::i18n::Lang) -> String {
        use fleetdeck::t;
        match self {
            Gates::Prometheus { url, started: true } => {
                t!(lang, "demo-gates-started", url = url)
            }
            Gates::Prometheus {
                url,
                started: false,
            } => t!(lang, "demo-gates-configured", url = url),
            Gates::LiveChecks { error } => {
                let why = match error {
                    None => t!(lang, "demo-no-prometheus"),
                    Some(e) => t!(lang, "demo-prometheus-failed", error = e),
                };
                t!(lang, "demo-gates-live-checks", why = why)
            }
        }
    }
}

// i18n: not for people (a manifest)
const DEMO_MANIFEST: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: cilium-config
  namespace: kube-system
data:
  enable-bpf-masquerade: "true"
  fleetdeck-release: cilium-1.17.2
"#;

/// The demo's gates: a configured Prometheus (`--prometheus`), else one started scraping
/// the simulator at `sim` when the `prometheus` binary is found, else live checks only.
/// The Prometheus the demo started is returned with them (killed on drop).
pub fn choose_gates(
    configured: Option<&str>,
    dir: &Path,
    sim: SocketAddr,
) -> (Gates, Option<ScrapingPrometheus>) {
    if let Some(url) = configured {
        let gates = Gates::Prometheus {
            url: url.to_owned(),
            started: false,
        };
        return (gates, None);
    }
    match ScrapingPrometheus::start(dir, sim, Duration::from_secs(2)) {
        Ok(prometheus) => (
            Gates::Prometheus {
                url: prometheus.url.clone(),
                started: true,
            },
            Some(prometheus),
        ),
        Err(e) => {
            tracing::info!(error = %e, "no Prometheus for the demo: live checks gate its rollout");
            let error = (e.kind() != std::io::ErrorKind::NotFound).then(|| e.to_string());
            (Gates::LiveChecks { error }, None)
        }
    }
}

/// The demo rollout file for `gates`.
fn rollout_file(gates: &Gates) -> String {
    DEMO_ROLLOUT.replace("{stop}", gates.stop_when())
}

/// Journals the demo rollout, started by the demo itself (so any person may approve).
pub fn seed_rollout(journal: &Path, ledger: &Ledger, gates: &Gates) -> anyhow::Result<RunId> {
    let report = read_rollout(&rollout_file(gates));
    let spec = report
        .spec
        // i18n: not for people (the built-in rollout failing its own rules is a bug in fleetdeck, reported as found)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_demo_rollouts_read_and_only_one_needs_metrics() {
        let with = Gates::Prometheus {
            url: "http://127.0.0.1:9090".into(),
            started: true,
        };
        let without = Gates::LiveChecks { error: None };
        for gates in [&with, &without] {
            let report = read_rollout(&rollout_file(gates));
            assert!(report.spec.is_some(), "{gates:?}: {:?}", report.diagnostics);
        }
        let spec = |g: &Gates| read_rollout(&rollout_file(g)).spec.expect("valid");
        assert!(spec(&with).stop_when.slo_burn_rate.is_some());
        // Without Prometheus no gate waits for evidence that cannot come.
        assert!(spec(&without).stop_when.slo_burn_rate.is_none());
        let en = fleetdeck::i18n::Lang::En;
        assert!(without.notice(en).contains("no prometheus binary in PATH"));
        let zh = without.notice(fleetdeck::i18n::Lang::ZhCn);
        assert!(zh.contains("PATH 中没有 prometheus"), "{zh}");
    }
}
