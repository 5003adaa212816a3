//! `t`: take the selected node's step over.

use super::{card_context, open, selected_card};
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `t`: take the selected node's step over.
pub fn take_over(app: &mut App) {
    let lang = app.config.lang;
    let Some((run, item)) = selected_card(app) else {
        app.message = Some(t!(lang, "msg-no-node"));
        return;
    };
    let mut context = card_context(lang, &run, &item);
    context.push(t!(lang, "take-over-becomes", actor = &app.config.actor));
    open(
        app,
        Dialog::new(
            t!(lang, "take-over-title", item = item.to_string()),
            context,
            Purpose::TakeOver(run.id.clone(), item),
        ),
    );
}
