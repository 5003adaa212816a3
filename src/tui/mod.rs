//! The console: a ratatui terminal UI that renders fleet snapshots and sends commands. It
//! never talks to a cluster; one task owns the state and reacts to messages (keys,
//! snapshots, journal activity, ticks, signals), drawing only when something changed.

mod action;
pub(crate) mod app;
mod attention;
mod canvas;
#[cfg(test)]
mod canvas_check;
mod component;
mod config_file;
mod dialog;
mod dialog_text;
mod dialog_view;
mod event_loop;
pub(crate) mod feed;
mod file_input;
mod filter;
mod filter_edit;
mod findings_data;
mod fleet_data;
mod format;
mod handover;
mod header;
mod help;
pub mod journal_feed;
pub(crate) mod keymap;
pub mod login;
mod message;
mod nav;
mod operator;
mod overlay_keys;
mod palette;
mod palette_keys;
mod quit;
mod router;
mod screen_keys;
mod screens;
mod settings;
mod silent_keys;
mod team;
mod terminal;
pub(crate) mod theme;
mod view;
mod what_if;

#[cfg(test)]
mod dialog_tests;
#[cfg(test)]
mod findings_tests;
#[cfg(test)]
mod first_screen_tests;
#[cfg(test)]
mod fleet_zh_tests;
#[cfg(test)]
use crate::fixtures::console as fixtures;
#[cfg(test)]
mod key_walk_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod operator_tests;
#[cfg(test)]
mod screenshots;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod zh_layout_tests;

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::{mpsc, watch};

pub use action::{ACTIONS, Action};
pub use app::{App, AppConfig, Command, MIN_SIZE, Msg};
pub use config_file::ConfigWarning;
pub use feed::{
    Activity, ConsoleCommand, GitOpsSyncRequest, JournalLine, JournalView, LostLine, Notice,
};
pub use filter::{Filter, Filterable};
pub use findings_data::{FindingsConfig, FindingsView};
pub use keymap::{BUILTIN_KEYMAPS, Binding, Context, KeyChord, Keymap};
pub use nav::{CapacityScope, Route};
pub use theme::{BUILTIN_THEMES, Slot, Theme, no_color_requested};
pub use view::{draw, render_to_buffer};

use crate::model::ledger::Ledger;
use crate::model::live::FleetSnapshot;

/// Why the console stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// The terminal could not be set up, drawn on or restored.
    #[error("terminal: {0}")]
    Terminal(#[from] std::io::Error),
}

/// Everything the console needs; the caller owns the network tasks behind the receivers.
pub struct ConsoleInputs {
    /// Fleet snapshots, newest wins.
    pub snapshots: watch::Receiver<FleetSnapshot>,
    /// The ledger.
    pub ledger: Arc<Ledger>,
    /// Who is at the keyboard (`user@host`).
    pub actor: String,
    /// Refuse every action that would change something.
    pub readonly: bool,
    /// Theme: a built-in name (`dark`, `light`, `high-contrast`) or a file path.
    pub theme: String,
    /// Keymap: a built-in name (`default`, `vim`) or a file path.
    pub keymap: String,
    /// The XDG config directory holding user overrides (`keymap.toml`, `themes/*.toml`).
    pub config_dir: Option<PathBuf>,
    /// Whether to strip colours (`NO_COLOR`).
    pub no_color: bool,
    /// Journal-derived activity, when a journal is connected.
    pub activity: Option<watch::Receiver<Activity>>,
    /// Where console commands go, when someone listens.
    pub commands: Option<mpsc::UnboundedSender<ConsoleCommand>>,
    /// Answers to console commands (recorded, or refused and why).
    pub notices: Option<mpsc::UnboundedReceiver<Notice>>,
    /// A note shown above the ledger (e.g. that no live sync is running).
    pub notice: Option<String>,
    /// The capacity model's configuration.
    pub capacity: crate::model::capacity::CapacityConfig,
    /// The actor of the executor running in this process, if any (`q` asks before
    /// stopping it in the middle of runs).
    pub executor: Option<String>,
    /// Kubeconfig contexts no ledger cluster names, shown on the ledger screen.
    pub unregistered_contexts: Vec<String>,
    /// What gates rollouts here, when this console knows it (the demo's choice between
    /// Prometheus evidence and live checks), shown on the Rollouts screen.
    pub rollout_gates: Option<String>,
    /// The findings' thresholds (`[findings]` in config.toml).
    pub findings: crate::model::findings::Thresholds,
    /// The language people read.
    pub lang: crate::i18n::Lang,
    /// Logs in with a context's credential plugin on the terminal (`:login`), when the
    /// command line behind the console can.
    pub login: Option<login::LoginPort>,
}

impl ConsoleInputs {
    /// Loads theme and keymap (with user overrides) into an app configuration, logging
    /// every warning.
    pub fn app_config(&self) -> AppConfig {
        let dir = self.config_dir.as_deref();
        let (theme, mut warnings) = Theme::load(&self.theme, dir, self.no_color);
        let (keymap, keymap_warnings) = Keymap::load(&self.keymap, dir);
        warnings.extend(keymap_warnings);
        for w in &warnings {
            tracing::warn!(%w, "console configuration");
        }
        AppConfig {
            actor: self.actor.clone(),
            readonly: self.readonly,
            theme,
            keymap,
            capacity: self.capacity.clone(),
            local_tz: jiff::tz::TimeZone::system(),
            warnings,
            notice: self.notice.clone(),
            executor: self.executor.clone(),
            unregistered_contexts: self.unregistered_contexts.clone(),
            rollout_gates: self.rollout_gates.clone(),
            findings: findings_data::FindingsConfig::for_ledger(
                &self.ledger,
                self.findings.clone(),
            ),
            lang: self.lang,
        }
    }
}

/// Runs the console on the current terminal until the user quits or a signal arrives;
/// the terminal is restored on every path, panics included.
pub async fn run_console(inputs: ConsoleInputs) -> Result<(), ConsoleError> {
    event_loop::run(inputs).await
}
