//! What is fixed for the console's lifetime ([`AppConfig`]) and what the Rollouts screen
//! keeps of the selected run beyond the journal ([`SelectedRollout`]).

use std::sync::Arc;

use jiff::tz::TimeZone;

use super::config_file::ConfigWarning;
use super::keymap::Keymap;
use super::theme::Theme;
use crate::model::capacity::CapacityConfig;

/// Everything fixed for the console's lifetime.
#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Who is at the keyboard.
    pub actor: String,
    /// Read-only mode.
    pub readonly: bool,
    /// Theme.
    pub theme: Theme,
    /// Keymap.
    pub keymap: Keymap,
    /// Capacity knobs.
    pub capacity: CapacityConfig,
    /// The zone local time is shown in.
    pub local_tz: TimeZone,
    /// Problems found in theme and keymap files.
    pub warnings: Vec<ConfigWarning>,
    /// A note shown until the first snapshot with clusters (e.g. no live sync).
    pub notice: Option<String>,
    /// The actor of the executor running inside this console (the demo), if any.
    pub executor: Option<String>,
    /// Kubeconfig contexts no ledger cluster names (`ledger reconcile`'s unregistered
    /// contexts): shown on the ledger screen, since the console does not sync them.
    pub unregistered_contexts: Vec<String>,
    /// What gates rollouts here, when known (the demo's), for the Rollouts screen.
    pub rollout_gates: Option<String>,
    /// The findings' thresholds and the windows' zones.
    pub findings: super::findings_data::FindingsConfig,
    /// The language people read; `:lang` changes it while the console runs.
    pub lang: crate::i18n::Lang,
}

/// What the Rollouts screen shows of the selected run beyond the journal: its rollout
/// file (decoded once from the journaled spec) and the plan today's ledger gives it,
/// when that plan's batches are the run's (stage names, coverage).
#[derive(Debug, Clone)]
pub struct SelectedRollout {
    /// The run.
    pub run: crate::model::run::RunId,
    /// Its rollout file.
    pub spec: Option<Arc<crate::model::rollout::RolloutSpec>>,
    /// Its plan from today's ledger.
    pub plan: Option<Arc<crate::model::rollout::RolloutPlan>>,
    /// The plan's combinations this run has reached so far, as `stage (combination)`.
    pub reached: Vec<String>,
}
