//! `X`: abort the selected run.

use super::{open, selected_run};
use crate::tui::app::App;
use crate::tui::dialog::{Dialog, Purpose};

/// `X`: abort the selected run, typing its name to confirm.
pub fn abort(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    if run.status.is_final() {
        app.message = Some(format!("{} is already {}", run.id, run.status));
        return;
    }
    let name = run.id.0.clone();
    let status = app.activity.journal.projection.effective_status(&run);
    let mut lines = vec![
        format!("{} · {status} · started by {}", run.title, run.created_by),
        "No new step of this run will ever start. Nothing already done is undone.".into(),
    ];
    if crate::model::rollout::rollout_of(&run.spec).is_some() {
        lines.push("A rollback is a separate rollout of the previous release.".into());
    } else {
        lines.push(
            "A node it cordoned stays cordoned until someone uncordons it (kubectl uncordon)."
                .into(),
        );
    }
    lines.push(format!("Type {name} to confirm."));
    open(
        app,
        Dialog::new(
            format!("abort {name}"),
            lines,
            Purpose::Abort(run.id.clone(), name),
        ),
    );
}
