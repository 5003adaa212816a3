//! `h`: hand the selected node's step to a person.

use super::{card_context, open, selected_card};
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `h`: hand the selected node's step to a person, with a note.
pub fn hand_off(app: &mut App) {
    let lang = app.config.lang;
    let Some((run, item)) = selected_card(app) else {
        app.message = Some(t!(lang, "msg-no-node"));
        return;
    };
    let mut context = card_context(lang, &run, &item);
    context.push(t!(lang, "hand-off-leaves"));
    open(
        app,
        Dialog::new(
            t!(lang, "hand-off-title", item = item.to_string()),
            context,
            Purpose::HandOff(run.id.clone(), item),
        ),
    );
}
