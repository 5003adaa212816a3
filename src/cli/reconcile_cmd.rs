//! `fleetdeck ledger reconcile`: where the ledger and the live fleet disagree.

use std::process::ExitCode;
use std::time::Duration;

use fleetdeck::kubeconfig::{load as load_kubeconfig, map_contexts};
use fleetdeck::model::live::{Drift, DriftKind, find_drift};
use serde::Serialize;

use super::live::observe;
use super::output::{Table, emit};
use super::settings::Settings;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    drift: Vec<Drift>,
    missing_contexts: Vec<String>,
    unregistered_contexts: Vec<String>,
}

fn describe(kind: &DriftKind) -> (String, String) {
    match kind {
        DriftKind::Unobservable { status, error } => (
            "unobservable".into(),
            format!(
                "{}{}",
                status.label(),
                error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            ),
        ),
        DriftKind::Identity { reason } => ("identity".into(), reason.clone()),
        DriftKind::UnpinnedIdentity {
            kube_system_uid,
            server,
        } => (
            "identity not pinned".into(),
            format!("observed kubeSystemUID {kube_system_uid} at {server}"),
        ),
        DriftKind::KubeletSkew { api_server, live } => (
            "kubelet skew".into(),
            format!(
                "API server {api_server}; kubelets outside the supported skew (newer, or more than 3 minors older): {}",
                live.join(", ")
            ),
        ),
        DriftKind::Version {
            component,
            ledger,
            live,
        } => (
            format!("{component} version"),
            format!("ledger {ledger}, live {}", live.join(", ")),
        ),
    }
}

/// Runs `fleetdeck ledger reconcile [--suggest]`. Exits 1 when anything drifted.
pub fn run(settings: &Settings, suggest: bool, wait: Duration) -> anyhow::Result<ExitCode> {
    let kubeconfig = load_kubeconfig(&settings.kubeconfig)?;
    let (ledger, snapshot) = observe(settings, wait)?;
    let contexts = map_contexts(&ledger, &kubeconfig);
    let report = Report {
        drift: find_drift(&ledger, &snapshot),
        missing_contexts: contexts
            .clusters
            .iter()
            .filter(|m| !m.found)
            .map(|m| format!("{} (context {})", m.cluster, m.context))
            .collect(),
        unregistered_contexts: contexts.unregistered_contexts.clone(),
    };
    emit(settings.output, &report, || {
        let mut table = Table::new(vec!["CLUSTER", "DRIFT", "DETAIL"]);
        for d in &report.drift {
            let (what, detail) = describe(&d.kind);
            table.row(vec![d.cluster.clone(), what, detail]);
        }
        for m in &report.missing_contexts {
            table.row(vec![
                m.clone(),
                "no kubeconfig context".into(),
                String::new(),
            ]);
        }
        for c in &report.unregistered_contexts {
            table.row(vec!["-".into(), "context not in ledger".into(), c.clone()]);
        }
        let mut out = table.render();
        if suggest {
            let edits: Vec<&str> = report
                .drift
                .iter()
                .filter_map(|d| d.suggestion.as_deref())
                .collect();
            if !edits.is_empty() {
                out.push_str("\nSuggested ledger edits (the ledger is not changed):\n");
                for e in edits {
                    out.push_str(&format!("  {e}\n"));
                }
            }
        }
        out
    })?;
    let clean = report.drift.is_empty()
        && report.missing_contexts.is_empty()
        && report.unregistered_contexts.is_empty();
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
