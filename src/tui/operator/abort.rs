//! `X`: abort the selected run.

use super::{open, selected_run};
use crate::t;
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `X`: abort the selected run, typing its name to confirm.
pub fn abort(app: &mut App) {
    let lang = app.config.lang;
    let Some(run) = selected_run(app) else {
        app.message = Some(t!(lang, "msg-no-run"));
        return;
    };
    if run.status.is_final() {
        app.message = Some(t!(
            lang,
            "msg-already-final",
            run = run.id.to_string(),
            status = run.status.to_string()
        ));
        return;
    }
    let name = run.id.0.clone();
    let status = app.activity.journal.projection.effective_status(&run);
    let mut lines = vec![
        t!(
            lang,
            "abort-started",
            title = &run.title,
            status = crate::tui::screens::rollouts::status_in(&run, &status, lang),
            by = run.created_by.to_string()
        ),
        t!(lang, "abort-no-new-step"),
    ];
    if crate::model::rollout::rollout_of(&run.spec).is_some() {
        lines.push(t!(lang, "abort-rollback"));
    } else {
        lines.push(t!(lang, "abort-cordoned"));
    }
    lines.push(t!(lang, "abort-type", name = &name));
    open(
        app,
        Dialog::new(
            t!(lang, "abort-title", run = &name),
            lines,
            Purpose::Abort(run.id.clone(), name),
        ),
    );
}
