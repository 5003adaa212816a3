//! `fleetdeck ledger validate | show | contexts`.

use std::path::Path;
use std::process::ExitCode;

use fleetdeck::config::ledger_file;
use fleetdeck::k8s::kubeconfig::{load as load_kubeconfig, map_contexts};
use fleetdeck::model::ledger::{Cluster, Selector};
use fleetdeck::t;
use fleetdeck::yaml::Severity;
use serde::Serialize;

use super::output::{Table, emit};
use super::settings::Settings;

/// `ledger validate`: every problem at once, sorted by position; exit 1 on errors.
pub fn validate(
    settings: &Settings,
    file: Option<&Path>,
    now: Option<jiff::civil::Date>,
) -> anyhow::Result<ExitCode> {
    let path = match file {
        Some(path) => path.to_path_buf(),
        None => settings.ledger_path()?,
    };
    let today = now.unwrap_or_else(ledger_file::today);
    let mut report = ledger_file::check_file(&path, today)?;
    // Backups and restore drills against the cluster's RPO and RTO and the tiers'
    // thresholds (`[findings]`): warnings, as the findings judge them.
    if let Some(ledger) = &report.ledger {
        report
            .diagnostics
            .extend(fleetdeck::model::findings::recovery_warnings(
                ledger,
                today,
                &settings.findings,
            ));
        report.diagnostics.sort_by_key(|d| (d.pos.line, d.pos.col));
    }
    let name = path.display().to_string();
    let errors = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = report.diagnostics.len() - errors;
    #[derive(Serialize)]
    struct Summary<'a> {
        file: &'a str,
        valid: bool,
        clusters: Option<usize>,
        errors: usize,
        warnings: usize,
        diagnostics: &'a [fleetdeck::yaml::Diagnostic],
    }
    let summary = Summary {
        file: &name,
        valid: errors == 0,
        clusters: report.ledger.as_ref().map(|l| l.clusters.len()),
        errors,
        warnings,
        diagnostics: &report.diagnostics,
    };
    emit(settings.output, &summary, || {
        let mut out = String::new();
        let lang = settings.lang;
        for d in &report.diagnostics {
            out.push_str(&d.render_in(&name, lang));
            out.push('\n');
        }
        let (file, errors, warnings) = (name.as_str(), errors.to_string(), warnings.to_string());
        let clusters = report
            .ledger
            .as_ref()
            .map_or(String::new(), |l| l.clusters.len().to_string());
        let line = match &report.ledger {
            Some(_) if errors == "0" => t!(
                lang,
                "validate-summary-valid",
                file = file,
                clusters = &clusters,
                warnings = &warnings
            ),
            Some(_) => t!(
                lang,
                "validate-summary-expired",
                file = file,
                errors = &errors,
                clusters = &clusters,
                warnings = &warnings
            ),
            None => t!(
                lang,
                "validate-summary-invalid",
                file = file,
                errors = &errors,
                warnings = &warnings
            ),
        };
        out.push_str(&line);
        out.push('\n');
        out
    })?;
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Says on standard error which keys of `selector` no cluster of `ledger` carries: a
/// typo there would otherwise select nothing, silently.
pub(super) fn warn_unknown_keys(
    lang: fleetdeck::i18n::Lang,
    selector: &Selector,
    ledger: &fleetdeck::model::ledger::Ledger,
) {
    for unknown in selector.unknown_keys(&ledger.clusters) {
        eprintln!(
            "{}",
            t!(lang, "selector-unknown-key", key = unknown.to_string())
        );
    }
}

/// `ledger show`: the clusters, all fields in JSON/YAML, the main ones in a table.
pub fn show(settings: &Settings, selector: Option<&str>) -> anyhow::Result<ExitCode> {
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let selector = Selector::parse(selector.unwrap_or(""))?;
    warn_unknown_keys(settings.lang, &selector, &ledger);
    let clusters: Vec<&Cluster> = ledger
        .clusters
        .iter()
        .filter(|c| selector.matches(c))
        .collect();
    emit(settings.output, &clusters, || {
        let mut table = Table::in_lang(
            settings.lang,
            vec![
                "ID",
                "ENV",
                "REGION",
                "FAILURE-DOMAIN",
                "TIER",
                "LIFECYCLE",
                "KUBERNETES",
                "OWNER",
                "CONTEXT",
            ],
        );
        for c in &clusters {
            table.row(vec![
                c.id.to_string(),
                c.env.clone(),
                c.region.clone(),
                c.failure_domain.clone(),
                c.tier.clone(),
                c.lifecycle.as_str().to_string(),
                c.versions
                    .get("kubernetes")
                    .cloned()
                    .unwrap_or_else(|| "-".into()),
                c.owner.clone().unwrap_or_else(|| "-".into()),
                c.context.clone(),
            ]);
        }
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `ledger contexts`: which context each cluster uses, and what the kubeconfig has besides.
pub fn contexts(settings: &Settings) -> anyhow::Result<ExitCode> {
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let kubeconfig = load_kubeconfig(&settings.kubeconfig)?;
    let report = map_contexts(&ledger, &kubeconfig);
    emit(settings.output, &report, || {
        let mut table = Table::in_lang(
            settings.lang,
            vec!["CLUSTER", "CONTEXT", "STATUS", "SERVER"],
        );
        for m in &report.clusters {
            let pinned = ledger
                .cluster(&m.cluster)
                .and_then(|c| c.identity.as_ref())
                .map_or("-", |i| i.server.as_str());
            let status = if !m.found {
                t!(settings.lang, "contexts-missing")
            } else if m.server_differs {
                t!(settings.lang, "contexts-server-differs", pinned = pinned)
            } else {
                "ok".to_string()
            };
            table.row(vec![
                m.cluster.clone(),
                m.context.clone(),
                status,
                m.server.clone().unwrap_or_else(|| "-".into()),
            ]);
        }
        for name in &report.unregistered_contexts {
            table.row(vec![
                "-".into(),
                name.clone(),
                t!(settings.lang, "contexts-not-in-ledger"),
                "-".into(),
            ]);
        }
        table.render()
    })?;
    // A ledger cluster without its context, or pointing elsewhere than its pinned server,
    // is a problem; contexts the ledger does not name are not (kubeconfigs hold others).
    let problems = report.clusters.iter().any(|m| !m.found || m.server_differs);
    Ok(if problems {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
