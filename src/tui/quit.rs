//! `q`: quit, after asking when this console's own executor is driving runs. Quitting
//! stops that executor between calls: a drain or a rollout batch in flight is left where it
//! is (a node may stay cordoned) until another executor, or this console started again,
//! takes the journal's lease and picks the runs up.

use super::app::{App, Command, Overlay};
use super::dialog::{Dialog, Purpose, Stage};
use super::feed::ConsoleCommand;
use crate::model::run::{LeaseScope, RunStatus};

/// The runs this console's executor is driving now, as `id (title)`: every running (not
/// paused) run while it holds the fleet lease, which one executor at a time holds. Empty
/// when the console runs no executor or another executor took the lease last; before
/// anyone took it, this console's executor is about to, so quitting asks.
pub fn runs_in_flight(app: &App) -> Vec<String> {
    let Some(ours) = app.config.executor.as_deref() else {
        return Vec::new();
    };
    let projection = &app.activity.journal.projection;
    let holder = projection.lease_holders.get(&LeaseScope::fleet());
    if holder.is_some_and(|holder| !holder.is_instance_of(ours, std::process::id())) {
        return Vec::new();
    }
    projection
        .runs
        .values()
        .filter(|run| projection.effective_status(run) == RunStatus::Running)
        .map(|run| format!("{} ({})", run.id, run.title))
        .collect()
}

/// Quits at once, or asks first when this console's executor has runs in flight.
pub fn quit(app: &mut App) -> Vec<Command> {
    let runs = runs_in_flight(app);
    if runs.is_empty() {
        return vec![Command::Send(ConsoleCommand::Quit), Command::Quit];
    }
    let lang = app.config.lang;
    let mut context = vec![crate::t!(lang, "quit-driving", n = runs.len().to_string())];
    context.extend(runs.iter().map(|r| format!("  • {r}")));
    let mut dialog =
        Dialog::new(crate::t!(lang, "quit-title"), context, Purpose::Quit).in_lang(lang);
    dialog.stage = Stage::Confirm(crate::t!(lang, "will-quit-executor"));
    app.overlay = Some(Overlay::Dialog(Box::new(dialog)));
    Vec::new()
}
