//! `p` and `f`: pause or resume the selected run, or every run on its cluster.

use std::sync::Arc;

use super::{open, selected_run};
use crate::model::run::{PauseScope, RunView};
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// What `p` does to the selected run, for the footer (a message id): a paused or halted
/// run is resumed.
pub fn pause_run_hint(app: &App) -> &'static str {
    let resumes = selected_run(app).is_some_and(|run| {
        run.rollout.halted.is_some()
            || app
                .activity
                .journal
                .projection
                .pauses
                .contains_key(&PauseScope::Run {
                    run: run.id.clone(),
                })
    });
    if resumes {
        "hint-resume-run"
    } else {
        "hint-pause-run"
    }
}

/// `p`: pause or resume the selected run.
pub fn pause_run(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    let scope = PauseScope::Run {
        run: run.id.clone(),
    };
    toggle(app, scope, &run);
}

/// `f`: pause or resume every run on the selected run's cluster (a freeze).
pub fn pause_cluster(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    let Some(cluster) = run.cluster.clone() else {
        app.message = Some(format!("{} works on no single cluster", run.id));
        return;
    };
    toggle(app, PauseScope::Cluster { cluster }, &run);
}

fn toggle(app: &mut App, scope: PauseScope, run: &RunView) {
    let projection = Arc::clone(&app.activity.journal.projection);
    let halted = matches!(scope, PauseScope::Run { .. }) && run.rollout.halted.is_some();
    let dialog = match projection.pauses.get(&scope) {
        // A halted rollout is resumed the way `rollout resume` does it: a resume of
        // the run, after which the executor evaluates the stop conditions again.
        None if halted => Dialog::new(
            format!("resume halted {}", run.id),
            vec![
                format!(
                    "{} halted: {}",
                    run.id,
                    run.rollout
                        .halted
                        .as_ref()
                        .map_or(String::new(), ToString::to_string)
                ),
                "Resuming lets the executor go on; the stop conditions are evaluated again.".into(),
            ],
            Purpose::Resume(scope),
        ),
        Some(p) => Dialog::new(
            format!("resume {scope}"),
            vec![
                format!(
                    "Paused by {} since {}: {}",
                    p.by,
                    p.since.strftime("%H:%M UTC"),
                    p.reason
                ),
                format!(
                    "Run {} ({}) may start new steps again unless another pause holds it.",
                    run.id, run.title
                ),
            ],
            Purpose::Resume(scope),
        ),
        None => {
            Dialog::new(
                format!("pause {scope}"),
                vec![
                format!("Run {} ({}) is {}.", run.id, run.title, projection.effective_status(run)),
                "No new step starts under this pause; steps in flight finish; nothing is undone."
                    .into(),
            ],
                Purpose::Pause(scope),
            )
        }
    };
    open(app, dialog);
}
