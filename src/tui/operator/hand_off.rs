//! `h`: hand the selected node's step to a person.

use super::{card_context, open, selected_card};
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `h`: hand the selected node's step to a person, with a note.
pub fn hand_off(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let mut context = card_context(&run, &item);
    context.push("The engine leaves the node alone until the assignee returns it.".into());
    open(
        app,
        Dialog::new(
            format!("hand off {item}"),
            context,
            Purpose::HandOff(run.id.clone(), item),
        ),
    );
}
