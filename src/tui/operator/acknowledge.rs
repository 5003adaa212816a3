//! `a` in the handover walkthrough: acknowledge an item with a note.

use super::open;
use crate::model::handover::HandoverItem;
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `a` in the handover walkthrough: acknowledge the item, as it stands, with a note.
pub fn acknowledge(app: &mut App, item: &HandoverItem) {
    let mut context = vec![item.title.clone()];
    context.extend(item.details.iter().map(|d| format!("  {d}")));
    context.push(t!(app.config.lang, "acknowledge-journaled"));
    open(
        app,
        Dialog::new(
            t!(app.config.lang, "acknowledge-title"),
            context,
            Purpose::Acknowledge(Box::new(item.clone())),
        ),
    );
}
