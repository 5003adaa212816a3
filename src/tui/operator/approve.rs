//! `a` on the rollouts screen: approve the batch awaiting approval.

use std::sync::Arc;

use super::{journal_refusals, open};
use crate::model::ledger::ClusterId;
use crate::model::rollout::check_batch_can_act;
use crate::model::run::{Actor, ClusterRefusal, CommandRefusal, approval_target, check_approve};
use crate::t;
use crate::tui::app::{App, Command};
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::feed::ConsoleCommand;
use crate::tui::screens::rollouts;

/// `a` on the rollouts screen: approve the waiting batch, listing its clusters, budgets
/// and gates; a `distinctApprover` refusal, or clusters of the batch that cannot take
/// actions (their live status), say why instead.
pub fn approve(app: &mut App) -> Vec<Command> {
    let lang = app.config.lang;
    let projection = Arc::clone(&app.activity.journal.projection);
    let Some(run) = rollouts::selected(&app.rollouts_state, &projection) else {
        app.message = Some(t!(lang, "msg-no-rollout"));
        return Vec::new();
    };
    let Ok((batch, _)) = approval_target(run, None) else {
        app.message = Some(t!(lang, "msg-none-awaiting", run = run.id.to_string()));
        return Vec::new();
    };
    let spec = rollouts::spec(run);
    let clusters: Vec<&str> = run
        .batches
        .get(batch)
        .map(|b| b.iter().map(|c| c.as_str()).collect())
        .unwrap_or_default();
    let mut context = vec![
        t!(
            lang,
            "approve-started",
            run = run.id.to_string(),
            title = &run.title,
            by = run.created_by.to_string()
        ),
        t!(
            lang,
            "approve-batch",
            batch = (batch + 1).to_string(),
            batches = run.batches.len().to_string(),
            n = clusters.len().to_string()
        ),
        format!("  {}", clusters.join(", ")),
    ];
    if let Some(spec) = &spec {
        let b = &spec.budgets;
        context.push(t!(
            lang,
            "approve-budgets",
            max = b.max_in_flight.to_string(),
            region = b
                .per_region
                .map(|n| t!(lang, "approve-per-region", n = n.to_string()))
                .unwrap_or_default(),
            domain = b
                .per_failure_domain
                .map(|n| t!(lang, "approve-per-domain", n = n.to_string()))
                .unwrap_or_default()
        ));
    }
    for (_, gate) in rollouts::gates(run, spec.as_ref(), lang) {
        context.push(t!(lang, "approve-gate", gate = gate.to_string()));
    }
    if let Some(p) = projection.pause_for(run) {
        context.push(t!(
            lang,
            "approve-paused",
            scope = crate::tui::dialog_text::scope(lang, &p.scope),
            reason = &p.reason,
            by = p.by.to_string()
        ));
    }
    let actor = Actor(app.config.actor.clone());
    // Every cluster of the batch must be able to take actions, as last seen live, by the
    // one rule every change goes through (`change_refusal`): fresh data and a confirmed
    // identity. Each refused cluster is named with that rule's reason.
    let said: Vec<(ClusterId, Option<(String, crate::i18n::Msg)>)> = clusters
        .iter()
        .map(|c| {
            (
                ClusterId::from((*c).to_string()),
                app.snapshot.change_refusal_said(c),
            )
        })
        .collect();
    let seen: Vec<(ClusterId, Option<String>)> = said
        .iter()
        .map(|(id, why)| (id.clone(), why.as_ref().map(|(english, _)| english.clone())))
        .collect();
    // A blocked cluster and its reason in the reader's language, from the live view's
    // message.
    let reason_in = |blocked: &crate::model::rollout::BlockedCluster| {
        let reason = said
            .iter()
            .find(|(id, _)| *id == blocked.cluster)
            .and_then(|(_, why)| why.as_ref())
            .filter(|(english, _)| *english == blocked.reason)
            .map_or_else(|| blocked.reason.clone(), |(_, msg)| msg.text(lang));
        t!(
            lang,
            "reason-blocked-cluster",
            cluster = blocked.cluster.to_string(),
            reason = reason
        )
    };
    let checked = check_approve(run, &actor, Some(batch))
        .and_then(|b| check_batch_can_act(b, &seen).map(|_| b).map_err(Into::into));
    let title = t!(
        lang,
        "approve-title",
        batch = (batch + 1).to_string(),
        run = run.id.to_string()
    );
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
                Dialog::refused(
                    title,
                    context,
                    t!(lang, "refused", why = refusal_text(&why, lang, reason_in)),
                ),
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

/// Why the approval was refused, in `lang`; each blocked cluster's reason as `reason_in`
/// words it.
fn refusal_text(
    why: &CommandRefusal,
    lang: crate::i18n::Lang,
    reason_in: impl Fn(&crate::model::rollout::BlockedCluster) -> String,
) -> String {
    match why {
        CommandRefusal::Approval(refusal) => refusal.msg_naming(reason_in).text(lang),
        other => other.msg().text(lang),
    }
}
