//! `fleetdeck ledger reconcile`: where the ledger and the live fleet disagree.

use std::process::ExitCode;
use std::time::Duration;

use fleetdeck::k8s::kubeconfig::{load as load_kubeconfig, map_contexts};
use fleetdeck::model::live::{Drift, DriftKind, NotCompared, find_drift, not_compared};
use serde::Serialize;

use fleetdeck::t;

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
fn which_clusters(lang: fleetdeck::i18n::Lang, clusters: &[String]) -> String {
    match clusters {
        [] => String::new(),
        few if few.len() <= 3 => few.join(", "),
        many => t!(lang, "reconcile-n-clusters", count = many.len().to_string()),
    }
}

fn render_not_compared(lang: fleetdeck::i18n::Lang, not_compared: &[NotCompared]) -> String {
    if not_compared.is_empty() {
        return String::new();
    }
    let mut out = format!("\n{}\n", t!(lang, "reconcile-not-compared"));
    for n in not_compared {
        let line = t!(
            lang,
            "reconcile-not-compared-line",
            component = n.component.to_string(),
            clusters = which_clusters(lang, &n.clusters),
            why = n.why.describe(&n.component).to_string()
        );
        out.push_str(&format!("  {line}\n"));
    }
    out
}

fn describe(lang: fleetdeck::i18n::Lang, kind: &DriftKind) -> (String, String) {
    match kind {
        DriftKind::Unobservable { status, error } => (
            t!(lang, "drift-unobservable"),
            format!(
                "{}{}",
                status.label(),
                error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            ),
        ),
        DriftKind::Identity { reason } => (t!(lang, "drift-identity"), reason.clone()),
        DriftKind::UnpinnedIdentity {
            kube_system_uid,
            server,
        } => (
            t!(lang, "drift-identity-not-pinned"),
            t!(
                lang,
                "drift-observed-uid",
                uid = kube_system_uid.to_string(),
                server = server.to_string()
            ),
        ),
        DriftKind::KubeletSkew { api_server, live } => (
            t!(lang, "drift-kubelet-skew"),
            t!(
                lang,
                "drift-kubelet-skew-detail",
                api_server = api_server.to_string(),
                live = live.join(", ")
            ),
        ),
        DriftKind::Version {
            component,
            ledger,
            live,
            ..
        } => (
            t!(lang, "drift-version", component = component.to_string()),
            t!(
                lang,
                "drift-version-detail",
                ledger = ledger.to_string(),
                live = live.join(", ")
            ),
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
            // i18n: not for people (a value of the JSON report)
            .map(|m| format!("{} (context {})", m.cluster, m.context))
            .collect(),
        unregistered_contexts: contexts.unregistered_contexts.clone(),
        not_compared: not_compared(&ledger, &snapshot),
    };
    emit(settings.output, &report, || {
        let mut table = Table::in_lang(settings.lang, vec!["CLUSTER", "DRIFT", "DETAIL"]);
        for d in &report.drift {
            let (what, detail) = describe(settings.lang, &d.kind);
            table.row(vec![d.cluster.clone(), what, detail]);
        }
        for m in &report.missing_contexts {
            table.row(vec![
                m.clone(),
                t!(settings.lang, "reconcile-no-context"),
                String::new(),
            ]);
        }
        for c in &report.unregistered_contexts {
            table.row(vec![
                "-".into(),
                t!(settings.lang, "reconcile-context-not-in-ledger"),
                c.clone(),
            ]);
        }
        let mut out = table.render();
        out.push_str(&render_not_compared(settings.lang, &report.not_compared));
        if suggest {
            let edits: Vec<(&str, Option<&str>)> = report
                .drift
                .iter()
                .filter_map(|d| Some((d.suggestion.as_deref()?, d.decision.as_deref())))
                .collect();
            if !edits.is_empty() {
                out.push_str(&format!("\n{}\n", t!(settings.lang, "reconcile-suggested")));
                for (e, decision) in edits {
                    match decision {
                        // Not a correction to apply: a person decides, knowing why.
                        Some(decision) => {
                            let decide = t!(settings.lang, "reconcile-decide");
                            out.push_str(&format!("  {decide}: {e}\n    {decision}\n"));
                        }
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
