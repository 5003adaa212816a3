//! `r`: return the selected node's step with an outcome.

use super::{card_context, open, selected_card};
use crate::model::run::StepStatus;
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::screens::maintenance;

/// `r`: return the selected node's step with an outcome.
pub fn return_item(app: &mut App) {
    let lang = app.config.lang;
    let Some((run, item)) = selected_card(app) else {
        app.message = Some(t!(lang, "msg-no-node"));
        return;
    };
    let handed = run
        .items
        .get(&item)
        .and_then(maintenance::current_status)
        .is_some_and(|s| matches!(s, StepStatus::HandedOff { .. }));
    if !handed {
        app.message = Some(t!(lang, "msg-not-handed", item = item.to_string()));
        return;
    }
    let mut context = card_context(lang, &run, &item);
    context.push(t!(lang, "return-outcomes"));
    // Whatever is chosen, the engine acts on it only once the run may start steps again.
    if let Some(p) = app.activity.journal.projection.pause_for(&run) {
        context.push(t!(
            lang,
            "return-paused",
            scope = crate::tui::dialog_text::scope(lang, &p.scope),
            reason = &p.reason
        ));
    }
    open(
        app,
        Dialog::new(
            t!(lang, "return-title", item = item.to_string()),
            context,
            Purpose::Return(run.id.clone(), item),
        ),
    );
}
