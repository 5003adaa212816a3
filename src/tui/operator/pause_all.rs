//! `P`: pause all automation, or resume it when it is paused.

use std::sync::Arc;

use super::open;
use crate::model::run::PauseScope;
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `P`: pause all automation (asks why) or, when paused, resume it (asks to confirm).
pub fn pause_all(app: &mut App) {
    let lang = app.config.lang;
    let projection = Arc::clone(&app.activity.journal.projection);
    let active = projection
        .runs
        .values()
        .filter(|r| !r.status.is_final())
        .count();
    match projection.pauses.get(&PauseScope::Fleet) {
        Some(p) => {
            // Only runs no other switch holds start again when the fleet's is cleared.
            let freed = projection
                .runs
                .values()
                .filter(|r| !r.status.is_final() && projection.pauses_for(r).len() == 1)
                .count();
            let held = active - freed;
            open(
                app,
                Dialog::new(
                    t!(lang, "pause-all-resume-title"),
                    vec![
                        t!(
                            lang,
                            "pause-all-paused-by",
                            by = p.by.to_string(),
                            since = p.since.strftime("%H:%M UTC").to_string(),
                            reason = &p.reason
                        ),
                        t!(lang, "pause-all-frees", n = freed.to_string()),
                        t!(lang, "pause-all-held", n = held.to_string()),
                    ],
                    Purpose::Resume(PauseScope::Fleet),
                ),
            )
        }
        None => open(
            app,
            Dialog::new(
                t!(lang, "pause-all-title"),
                vec![
                    t!(lang, "pause-all-nothing-starts"),
                    t!(lang, "pause-all-in-flight"),
                    t!(lang, "pause-all-affected", n = active.to_string()),
                ],
                Purpose::Pause(PauseScope::Fleet),
            ),
        ),
    }
}

/// What `P` does, for the footer (a message id): automation paused fleet-wide is resumed.
pub(crate) fn pause_all_hint(app: &App) -> &'static str {
    if app
        .activity
        .journal
        .projection
        .pauses
        .contains_key(&PauseScope::Fleet)
    {
        "hint-resume-all"
    } else {
        "hint-pause-all"
    }
}
