//! `P`: pause all automation, or resume it when it is paused.

use std::sync::Arc;

use super::open;
use crate::model::run::PauseScope;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `P`: pause all automation (asks why) or, when paused, resume it (asks to confirm).
pub fn pause_all(app: &mut App) {
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
                    "resume all automation",
                    vec![
                        format!(
                            "All automation is paused by {} since {}: {}",
                            p.by,
                            p.since.strftime("%H:%M UTC"),
                            p.reason
                        ),
                        format!("Resuming lets {freed} unfinished run(s) start new steps again."),
                        format!(
                            "Other pauses (per run, cluster or failure domain) stay in force: they still hold {held} run(s)."
                        ),
                    ],
                    Purpose::Resume(PauseScope::Fleet),
                ),
            )
        }
        None => open(
            app,
            Dialog::new(
                "pause all automation",
                vec![
                    "No run anywhere in the fleet starts a new step until someone resumes.".into(),
                    "Steps already in flight finish and are recorded; nothing is undone.".into(),
                    format!("{active} unfinished run(s) are affected."),
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
