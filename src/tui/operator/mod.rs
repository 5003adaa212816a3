//! What the operator keys open, one file per command dialog: each builds a dialog that
//! names its target and what will happen, or says why it cannot be done. Nothing here
//! writes; the dialog's second `enter` sends the command, and the journal's answer comes
//! back as a notice.

mod abort;
mod acknowledge;
mod approve;
mod hand_off;
mod pause;
mod pause_all;
mod return_item;
mod start_maintenance;
mod take_over;

pub use abort::abort;
pub use acknowledge::acknowledge;
pub use approve::approve;
pub use hand_off::hand_off;
pub(crate) use pause::pause_run_hint;
pub use pause::{pause_cluster, pause_run};
pub use pause_all::pause_all;
pub(crate) use pause_all::pause_all_hint;
pub use return_item::return_item;
#[cfg(test)]
pub(crate) use start_maintenance::default_run_name;
pub use start_maintenance::{start_from_file, start_from_text, start_maintenance};
pub use take_over::take_over;

use crate::i18n::Lang;
use crate::model::run::{ClusterRefusal, RunView, StepStatus};
use crate::t;
use crate::tui::app::{App, Command, Overlay};
use crate::tui::dialog::Dialog;
use crate::tui::feed::ConsoleCommand;
use crate::tui::nav::Route;
use crate::tui::screens::{maintenance, rollouts};

/// Puts `dialog` up as the overlay.
pub(super) fn open(app: &mut App, dialog: Dialog) {
    let dialog = dialog.in_lang(app.config.lang);
    app.overlay = Some(Overlay::Dialog(Box::new(dialog)));
}

/// The run the current screen has selected.
pub(super) fn selected_run(app: &App) -> Option<RunView> {
    let projection = &app.activity.journal.projection;
    match app.nav.current() {
        Route::Rollouts => rollouts::selected(&app.rollouts_state, projection).cloned(),
        Route::Maintenance => maintenance::selected(&app.maintenance_state, projection)
            .and_then(|(r, _)| projection.runs.get(&r).cloned()),
        _ => None,
    }
}

/// Journals the refusals the console made before sending anything (clusters that cannot
/// take actions); nothing in read-only mode, which writes nothing.
pub(super) fn journal_refusals(app: &App, refusals: Vec<ClusterRefusal>) -> Vec<Command> {
    if app.config.readonly || refusals.is_empty() {
        return Vec::new();
    }
    vec![Command::Send(ConsoleCommand::Refused(refusals))]
}

/// The selected node card and its run.
pub(super) fn selected_card(app: &App) -> Option<(RunView, crate::model::run::ItemId)> {
    let projection = &app.activity.journal.projection;
    let (run, item) = maintenance::selected(&app.maintenance_state, projection)?;
    Some((projection.runs.get(&run)?.clone(), item))
}

pub(super) fn card_context(
    lang: Lang,
    run: &RunView,
    item: &crate::model::run::ItemId,
) -> Vec<String> {
    let mut out = vec![t!(
        lang,
        "card-in",
        item = item.to_string(),
        run = run.id.to_string(),
        title = &run.title
    )];
    if let Some(view) = run.items.get(item)
        && let Some((step, s)) = view.current_step()
    {
        out.push(t!(
            lang,
            "card-step",
            step = step.to_string(),
            status = view.status_word(&s.status).to_string()
        ));
        if let StepStatus::Blocked { reason } = &s.status {
            for r in maintenance::reasons(reason) {
                out.push(format!("  • {r}"));
            }
        }
        if let StepStatus::HandedOff { to, note } = &s.status {
            out.push(t!(lang, "card-owner", to = to.to_string(), note = note));
        }
    }
    out
}
