//! `q`: quit, after asking when this console's own executor is driving runs. Quitting
//! stops that executor between calls: a drain or a rollout batch in flight is left where it
//! is (a node may stay cordoned) until another executor, or this console started again,
//! takes the journal's lease and picks the runs up.

use super::app::{App, Command, Overlay};
use super::dialog::{Dialog, Purpose, Stage};
use super::feed::ConsoleCommand;
use crate::model::run::RunStatus;

/// The runs this console's executor is driving now, as `id (title)`: running (not
/// paused) runs whose latest executor event is not another executor's. Empty when the
/// console runs no executor.
pub fn runs_in_flight(app: &App) -> Vec<String> {
    let Some(ours) = app.config.executor.as_deref() else {
        return Vec::new();
    };
    let journal = &app.activity.journal;
    journal
        .projection
        .runs
        .values()
        .filter(|run| journal.projection.effective_status(run) == RunStatus::Running)
        .filter(|run| {
            let driver = journal
                .events
                .iter()
                .rev()
                .filter(|e| e.event.run.as_ref() == Some(&run.id))
                .map(|e| e.event.actor.0.as_str())
                .find(|actor| actor.starts_with("executor"));
            driver.is_none_or(|actor| actor == ours)
        })
        .map(|run| format!("{} ({})", run.id, run.title))
        .collect()
}

/// Quits at once, or asks first when this console's executor has runs in flight.
pub fn quit(app: &mut App) -> Vec<Command> {
    let runs = runs_in_flight(app);
    if runs.is_empty() {
        return vec![Command::Send(ConsoleCommand::Quit), Command::Quit];
    }
    let mut context = vec![format!(
        "This console's executor is driving {} run(s):",
        runs.len()
    )];
    context.extend(runs.iter().map(|r| format!("  • {r}")));
    let mut dialog = Dialog::new("quit fleetdeck?", context, Purpose::Quit);
    dialog.stage = Stage::Confirm(
        "quit and stop this console's executor: no step of these runs goes on; a step in flight is left where it is (a node may stay cordoned, a batch half applied) and nothing is undone; another fleetdeck executor (`fleetdeck run`) or this console started again picks the runs up from the journal".into(),
    );
    app.overlay = Some(Overlay::Dialog(Box::new(dialog)));
    Vec::new()
}
