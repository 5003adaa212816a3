//! `t`: take the selected node's step over.

use super::{card_context, open, selected_card};
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `t`: take the selected node's step over.
pub fn take_over(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let mut context = card_context(&run, &item);
    context.push(format!(
        "It becomes {}'s; the engine leaves it alone until it is returned.",
        app.config.actor
    ));
    open(
        app,
        Dialog::new(
            format!("take over {item}"),
            context,
            Purpose::TakeOver(run.id.clone(), item),
        ),
    );
}
