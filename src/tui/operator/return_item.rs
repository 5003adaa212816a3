//! `r`: return the selected node's step with an outcome.

use super::{card_context, open, selected_card};
use crate::model::run::StepStatus;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::screens::maintenance;

/// `r`: return the selected node's step with an outcome.
pub fn return_item(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let handed = run
        .items
        .get(&item)
        .and_then(maintenance::current_status)
        .is_some_and(|s| matches!(s, StepStatus::HandedOff { .. }));
    if !handed {
        app.message = Some(format!(
            "{item} is not in a person's hands: hand it off (h) or take it over (t) first"
        ));
        return;
    }
    let mut context = card_context(&run, &item);
    context.push(
        "outcome (choose one): d done (the engine goes on) · r retry the step · a abort the node"
            .into(),
    );
    // Whatever is chosen, the engine acts on it only once the run may start steps again.
    if let Some(p) = app.activity.journal.projection.pause_for(&run) {
        context.push(format!(
            "the run is paused ({}: {}): done or retry takes effect once it is resumed",
            p.scope, p.reason
        ));
    }
    open(
        app,
        Dialog::new(
            format!("return {item}"),
            context,
            Purpose::Return(run.id.clone(), item),
        ),
    );
}
