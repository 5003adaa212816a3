//! `fleetdeck ledger reconcile`: where the ledger and the live fleet disagree.

use std::process::ExitCode;
use std::time::Duration;

use fleetdeck::k8s::kubeconfig::{load as load_kubeconfig, map_contexts};
use fleetdeck::model::live::{Drift, DriftKind, NotCompared, find_drift, not_compared};
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
    /// Ledger versions nothing live could confirm: not drift, but not checked either.
    not_compared: Vec<NotCompared>,
}

/// The clusters of a not-compared line: names while they are few, else how many.
fn which_clusters(clusters: &[String]) -> String {
    match clusters {
        [] => String::new(),
        few if few.len() <= 3 => few.join(", "),
        many => format!("{} clusters", many.len()),
    }
}

fn render_not_compared(not_compared: &[NotCompared]) -> String {
    if not_compared.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nNot compared (the ledger's word is unconfirmed, not wrong):\n");
    for n in not_compared {
        out.push_str(&format!(
            "  {} on {}: {}\n",
            n.component,
            which_clusters(&n.clusters),
            n.why.describe(&n.component)
        ));
    }
    out
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
            ..
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
        not_compared: not_compared(&ledger, &snapshot),
    };
    emit(settings.output, &report, || {
        let mut table = Table::in_lang(settings.lang, vec!["CLUSTER", "DRIFT", "DETAIL"]);
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
        out.push_str(&render_not_compared(&report.not_compared));
        if suggest {
            let edits: Vec<(&str, Option<&str>)> = report
                .drift
                .iter()
                .filter_map(|d| Some((d.suggestion.as_deref()?, d.decision.as_deref())))
                .collect();
            if !edits.is_empty() {
                out.push_str("\nSuggested ledger edits (the ledger is not changed):\n");
                for (e, decision) in edits {
                    match decision {
                        // Not a correction to apply: a person decides, knowing why.
                        Some(decision) => out.push_str(&format!("  DECIDE: {e}\n    {decision}\n")),
                        None => out.push_str(&format!("  {e}\n")),
                    }
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
