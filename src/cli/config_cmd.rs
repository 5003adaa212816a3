//! `fleetdeck config paths`.

use std::process::ExitCode;

use serde::Serialize;

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
        let mut table = Table::new(vec!["WHAT", "WHERE"]);
        let exists = if report.config_file_exists {
            ""
        } else {
            " (not created)"
        };
        table.row(vec![
            "config".into(),
            format!("{}{exists}", report.config_file),
        ]);
        table.row(vec!["themes/keymaps".into(), report.config_dir.clone()]);
        table.row(vec!["data".into(), report.data_dir.clone()]);
        table.row(vec!["journal".into(), report.journal.clone()]);
        table.row(vec!["log".into(), report.log_file.clone()]);
        table.row(vec![
            "ledger".into(),
            report.ledger.clone().unwrap_or_else(|| "(none)".into()),
        ]);
        table.row(vec!["kubeconfig".into(), report.kubeconfig.join(":")]);
        table.row(vec!["actor".into(), report.actor.to_string()]);
        table.row(vec!["readonly".into(), report.readonly.to_string()]);
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}
