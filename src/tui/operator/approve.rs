//! `a` on the rollouts screen: approve the batch awaiting approval.

use std::sync::Arc;

use super::{journal_refusals, open};
use crate::model::ledger::ClusterId;
use crate::model::rollout::check_batch_can_act;
use crate::model::run::{Actor, ClusterRefusal, CommandRefusal, approval_target, check_approve};
use crate::tui::app::{App, Command};
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::feed::ConsoleCommand;
use crate::tui::screens::rollouts;

/// `a` on the rollouts screen: approve the waiting batch, listing its clusters, budgets
/// and gates; a `distinctApprover` refusal, or clusters of the batch that cannot take
/// actions (their live status), say why instead.
pub fn approve(app: &mut App) -> Vec<Command> {
    let projection = Arc::clone(&app.activity.journal.projection);
    let Some(run) = rollouts::selected(&app.rollouts_state, &projection) else {
        app.message = Some("no rollout selected".into());
        return Vec::new();
    };
    let Ok((batch, _)) = approval_target(run, None) else {
        app.message = Some(format!("no batch of {} is awaiting approval", run.id));
        return Vec::new();
    };
    let spec = rollouts::spec(run);
    let clusters: Vec<&str> = run
        .batches
        .get(batch)
        .map(|b| b.iter().map(|c| c.as_str()).collect())
        .unwrap_or_default();
    let mut context = vec![
        format!("{} · {} · started by {}", run.id, run.title, run.created_by),
        format!(
            "batch {} of {}: {} cluster(s)",
            batch + 1,
            run.batches.len(),
            clusters.len()
        ),
        format!("  {}", clusters.join(", ")),
    ];
    if let Some(spec) = &spec {
        let b = &spec.budgets;
        context.push(format!(
            "budgets: {} in flight at once{}{}",
            b.max_in_flight,
            b.per_region
                .map(|n| format!(", {n} per region"))
                .unwrap_or_default(),
            b.per_failure_domain
                .map(|n| format!(", {n} per failure domain"))
                .unwrap_or_default()
        ));
    }
    for (_, gate) in rollouts::gates(run, spec.as_ref()) {
        context.push(format!("gate: {gate}"));
    }
    if let Some(p) = projection.pause_for(run) {
        context.push(format!(
            "the run is paused ({}: {}, by {}): the batch starts once it is resumed",
            p.scope, p.reason, p.by
        ));
    }
    let actor = Actor(app.config.actor.clone());
    // Every cluster of the batch must be able to take actions, as last seen live, by the
    // one rule every change goes through (`change_refusal`): fresh data and a confirmed
    // identity. Each refused cluster is named with that rule's reason.
    let seen: Vec<(ClusterId, Option<String>)> = clusters
        .iter()
        .map(|c| {
            (
                ClusterId::from((*c).to_string()),
                app.snapshot.change_refusal(c),
            )
        })
        .collect();
    let checked = check_approve(run, &actor, Some(batch))
        .and_then(|b| check_batch_can_act(b, &seen).map(|_| b).map_err(Into::into));
    let title = format!("approve batch {} of {}", batch + 1, run.id);
    match checked {
        Ok(_) => {
            open(
                app,
                Dialog::new(title, context, Purpose::Approve(run.id.clone(), batch)),
            );
            Vec::new()
        }
        Err(why) => {
            // Refused, the approval is in the audit trail as it is when `rollout approve`
            // refuses it: per cluster that cannot act, or as the rules refused it.
            let refusals = match &why {
                CommandRefusal::Approval(refusal) => ClusterRefusal::of_approval(&run.id, refusal),
                _ => Vec::new(),
            };
            open(
                app,
                Dialog::refused(title, context, format!("refused: {why}")),
            );
            if refusals.is_empty() && why.is_audited() && !app.config.readonly {
                let command = crate::model::run::OperatorCommand::Approve {
                    run: run.id.clone(),
                    batch: Some(batch),
                    note: String::new(),
                };
                return vec![Command::Send(ConsoleCommand::RefusedByRules(command))];
            }
            journal_refusals(app, refusals)
        }
    }
}
