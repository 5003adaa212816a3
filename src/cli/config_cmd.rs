//! `fleetdeck config paths`.

use std::process::ExitCode;

use serde::Serialize;

use fleetdeck::t;

use super::output::{Table, emit};
use super::settings::Settings;

/// Prints where every file lives and the settings in effect, like `k9s info`.
pub fn paths(settings: &Settings) -> anyhow::Result<ExitCode> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Report<'a> {
        config_file: String,
        config_file_exists: bool,
        config_dir: String,
        data_dir: String,
        journal: String,
        log_file: String,
        ledger: Option<String>,
        kubeconfig: Vec<String>,
        actor: &'a str,
        readonly: bool,
    }
    let p = &settings.paths;
    let report = Report {
        config_file: p.config_file.display().to_string(),
        config_file_exists: p.config_file.exists(),
        config_dir: p.config_dir.display().to_string(),
        data_dir: p.data_dir.display().to_string(),
        journal: settings.journal.describe().to_string(),
        log_file: p.log_file.display().to_string(),
        ledger: settings.ledger.as_ref().map(|l| l.display().to_string()),
        kubeconfig: settings
            .kubeconfig
            .paths
            .iter()
            .map(|k| k.display().to_string())
            .collect(),
        actor: &settings.actor,
        readonly: settings.readonly,
    };
    emit(settings.output, &report, || {
        let mut table = Table::in_lang(settings.lang, vec!["WHAT", "WHERE"]);
        let lang = settings.lang;
        let exists = if report.config_file_exists {
            String::new()
        } else {
            t!(lang, "config-not-created")
        };
        table.row(vec![
            t!(lang, "config-row-config"),
            format!("{}{exists}", report.config_file),
        ]);
        table.row(vec![
            t!(lang, "config-row-themes"),
            report.config_dir.clone(),
        ]);
        table.row(vec![t!(lang, "config-row-data"), report.data_dir.clone()]);
        table.row(vec![t!(lang, "config-row-journal"), report.journal.clone()]);
        table.row(vec![t!(lang, "config-row-log"), report.log_file.clone()]);
        table.row(vec![
            t!(lang, "config-row-ledger"),
            report
                .ledger
                .clone()
                .unwrap_or_else(|| t!(lang, "config-none")),
        ]);
        table.row(vec!["kubeconfig".into(), report.kubeconfig.join(":")]);
        table.row(vec![t!(lang, "config-row-actor"), report.actor.to_string()]);
        table.row(vec![
            t!(lang, "config-row-readonly"),
            report.readonly.to_string(),
        ]);
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}
