//! `p` and `f`: pause or resume the selected run, or every run on its cluster.

use std::sync::Arc;

use super::{open, selected_run};
use crate::model::run::{PauseScope, RunView};
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::dialog_text::scope as scope_in;

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
        app.message = Some(t!(app.config.lang, "msg-no-run"));
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
        app.message = Some(t!(app.config.lang, "msg-no-run"));
        return;
    };
    let Some(cluster) = run.cluster.clone() else {
        app.message = Some(t!(
            app.config.lang,
            "msg-no-single-cluster",
            run = run.id.to_string()
        ));
        return;
    };
    toggle(app, PauseScope::Cluster { cluster }, &run);
}

fn toggle(app: &mut App, scope: PauseScope, run: &RunView) {
    let lang = app.config.lang;
    let projection = Arc::clone(&app.activity.journal.projection);
    let halted = matches!(scope, PauseScope::Run { .. }) && run.rollout.halted.is_some();
    let dialog = match projection.pauses.get(&scope) {
        // A halted rollout is resumed the way `rollout resume` does it: a resume of
        // the run, after which the executor evaluates the stop conditions again.
        None if halted => Dialog::new(
            t!(lang, "pause-resume-halted-title", run = run.id.to_string()),
            vec![
                t!(
                    lang,
                    "pause-halted",
                    run = run.id.to_string(),
                    why = run
                        .rollout
                        .halted
                        .as_ref()
                        .map_or(String::new(), ToString::to_string)
                ),
                t!(lang, "pause-halted-resuming"),
            ],
            Purpose::Resume(scope),
        ),
        Some(p) => Dialog::new(
            t!(lang, "pause-resume-title", scope = scope_in(lang, &scope)),
            vec![
                t!(
                    lang,
                    "pause-paused-by",
                    by = p.by.to_string(),
                    since = p.since.strftime("%H:%M UTC").to_string(),
                    reason = &p.reason
                ),
                t!(
                    lang,
                    "pause-may-start",
                    run = run.id.to_string(),
                    title = &run.title
                ),
            ],
            Purpose::Resume(scope),
        ),
        None => Dialog::new(
            t!(lang, "pause-title", scope = scope_in(lang, &scope)),
            vec![
                t!(
                    lang,
                    "pause-run-is",
                    run = run.id.to_string(),
                    title = &run.title,
                    status = crate::tui::screens::rollouts::status_in(
                        run,
                        &projection.effective_status(run),
                        lang
                    )
                ),
                t!(lang, "pause-no-new-step"),
            ],
            Purpose::Pause(scope),
        ),
    };
    open(app, dialog);
}
