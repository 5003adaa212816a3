//! The runs' sections: batches awaiting approval, stuck and handed-off steps, halted
//! rollouts. A finished run waits for nobody and nothing follows in it: only what it
//! left half done is still there (see `left`).
//!
//! A step's item is keyed by the step, whether stuck or in a person's hands: a stuck
//! step handed off (or given to someone else) is another problem, as is a new cause of
//! a stuck step; the same causes with other numbers are the same problem.

use super::{
    Check, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Says, Section, Subject, age,
    cause, when,
};
use crate::i18n::Msg;
use crate::model::rollout::BatchPhase;
use crate::model::run::{ItemId, ItemView, RunView, StepName, StepStatus, StepView};

/// Runs that are not over, in the journal's order.
fn open_runs<'a>(input: &HandoverInput<'a>) -> impl Iterator<Item = &'a RunView> {
    input
        .journal
        .read()
        .into_iter()
        .flat_map(|journal| journal.projection.runs.values())
        .filter(|run| !run.status.is_final())
}

/// Rollout batches waiting for a person's approval.
pub(super) fn awaiting_approval(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    for run in open_runs(input) {
        for (batch, phase) in &run.rollout.batches {
            if *phase != BatchPhase::AwaitingApproval {
                continue;
            }
            let clusters: Vec<&str> = run
                .batches
                .get(*batch)
                .map(|b| b.iter().map(|c| c.as_str()).collect())
                .unwrap_or_default();
            items.push(HandoverItem {
                key: ProblemKey(format!("approve/{}/{batch}", run.id)),
                section: Section::AwaitingApproval,
                title: format!(
                    "{}: batch {} awaits approval ({})",
                    run.id,
                    batch + 1,
                    crate::model::text::counted(clusters.len() as i64, "cluster")
                ),
                details: vec![
                    format!("rollout: {}", run.title),
                    format!("clusters: {}", clusters.join(", ")),
                    format!("started by: {}", run.created_by),
                ],
                says: Says {
                    title: Some(
                        Msg::new("handover-awaiting-title")
                            .arg("run", run.id.to_string())
                            .arg("batch", (batch + 1).to_string())
                            .arg("count", clusters.len()),
                    ),
                    details: vec![
                        Some(Msg::new("handover-rollout").arg("title", &run.title)),
                        Some(Msg::new("handover-clusters").arg("clusters", clusters.join(", "))),
                        Some(Msg::new("handover-started-by").arg("by", run.created_by.to_string())),
                    ],
                },
                since: None,
                subject: Subject {
                    run: Some(run.id.clone()),
                    ..Subject::default()
                },
                extent: Extent::default(),
                check: Check::Current,
                acks: Vec::new(),
            });
        }
    }
    items
}

fn step_key(run: &RunView, item: &ItemId, step: &StepName) -> ProblemKey {
    ProblemKey(format!("step/{}/{item}/{step}", run.id))
}

/// Every item of an open run with the step it stands at.
fn current_steps<'a>(
    input: &HandoverInput<'a>,
) -> impl Iterator<
    Item = (
        &'a RunView,
        &'a ItemId,
        &'a ItemView,
        &'a StepName,
        &'a StepView,
    ),
> {
    open_runs(input).flat_map(|run| {
        run.order.iter().filter_map(move |item_id| {
            let item = run.items.get(item_id)?;
            let step = item.current.as_ref()?;
            let view = item.steps.get(step)?;
            Some((run, item_id, item, step, view))
        })
    })
}

fn step_subject(run: &RunView, item: &ItemId) -> Subject {
    Subject {
        run: Some(run.id.clone()),
        item: Some(item.clone()),
        cluster: run.cluster.clone(),
    }
}

/// Steps stuck past their deadline, with their reasons one per line.
pub(super) fn stuck_steps(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let now = input.now;
    let mut items = Vec::new();
    for (run, item_id, _, step, view) in current_steps(input) {
        let StepStatus::Blocked { reason } = &view.status else {
            continue;
        };
        let mut details = vec![format!(
            "stuck for {} (since {})",
            age(now, view.since),
            when(view.since)
        )];
        let mut said = vec![Some(
            Msg::new("handover-stuck-for")
                .arg("ago", age(now, view.since))
                .arg("since", when(view.since)),
        )];
        let reasons: Vec<&str> = reason.split("; ").collect();
        details.extend(reasons.iter().map(|r| format!("why: {r}")));
        said.extend(
            reasons
                .iter()
                .map(|r| Some(Msg::new("handover-why").arg("why", *r))),
        );
        let mut facts: Vec<Fact> = Vec::new();
        for r in reasons {
            let what = cause(r);
            if !facts.iter().any(|f| f.what == what) {
                facts.push(Fact::kind(what, r));
            }
        }
        if let Some(c) = &run.cluster {
            details.push(format!("cluster: {c}"));
            said.push(Some(
                Msg::new("handover-cluster").arg("cluster", c.to_string()),
            ));
        }
        items.push(HandoverItem {
            key: step_key(run, item_id, step),
            section: Section::StuckSteps,
            title: format!("{item_id} {step} stuck in {}", run.id),
            says: Says {
                title: Some(
                    Msg::new("handover-stuck-title")
                        .arg("item", item_id.to_string())
                        .arg("step", step.to_string())
                        .arg("run", run.id.to_string()),
                ),
                details: said,
            },
            details,
            since: Some(view.since),
            subject: step_subject(run, item_id),
            extent: Extent(facts),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}

/// Steps in a person's hands (handed off or taken over).
pub(super) fn handed_off(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let now = input.now;
    let mut items = Vec::new();
    for (run, item_id, item, step, view) in current_steps(input) {
        let StepStatus::HandedOff { to, note } = &view.status else {
            continue;
        };
        let (by, since) = item
            .handoff
            .as_ref()
            .map_or((view.by.clone(), view.since), |h| (h.by.clone(), h.since));
        // Taking a step over is handing it to oneself.
        let (how, taken) = if by == *to {
            ("taken over", "taken")
        } else {
            ("handed off", "handed")
        };
        let mut details = vec![format!("owner: {to}")];
        let mut said = vec![Some(
            Msg::new("handover-owner").arg("owner", to.to_string()),
        )];
        if !note.trim().is_empty() {
            details.push(format!("note: {note}"));
            said.push(Some(Msg::new("handover-note").arg("note", note)));
        }
        details.push(format!(
            "{how} by {by} {} ago ({})",
            age(now, since),
            when(since)
        ));
        said.push(Some(
            Msg::new("handover-handed-by")
                .arg("how", taken)
                .arg("by", by.to_string())
                .arg("ago", age(now, since))
                .arg("at", when(since)),
        ));
        items.push(HandoverItem {
            key: step_key(run, item_id, step),
            section: Section::HandedOff,
            title: format!("{item_id} {step} in {} is with {to} ({how})", run.id),
            details,
            says: Says {
                title: Some(
                    Msg::new("handover-handed-title")
                        .arg("item", item_id.to_string())
                        .arg("step", step.to_string())
                        .arg("run", run.id.to_string())
                        .arg("to", to.to_string())
                        .arg("how", taken),
                ),
                details: said,
            },
            since: Some(since),
            subject: step_subject(run, item_id),
            extent: Extent(vec![Fact::kind(
                format!("in {to}'s hands"),
                format!("with {to} ({how})"),
            )]),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}

/// Rollouts a stop condition halted: nothing resumes them on its own.
pub(super) fn halted_rollouts(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    open_runs(input)
        .filter_map(|run| {
            let why = run.rollout.halted.as_ref()?;
            Some(HandoverItem {
                key: ProblemKey(format!("halted/{}", run.id)),
                section: Section::HaltedRollouts,
                title: format!("{} halted: {why}", run.id),
                details: vec![
                    format!("rollout: {}", run.title),
                    format!("why: {why}"),
                    "resume or abort it: nothing resumes on its own".to_string(),
                ],
                says: Says {
                    title: Some(
                        Msg::new("handover-halted-title")
                            .arg("run", run.id.to_string())
                            .arg("why", why.msg()),
                    ),
                    details: vec![
                        Some(Msg::new("handover-rollout").arg("title", &run.title)),
                        Some(Msg::new("handover-why").arg("why", why.msg())),
                        Some(Msg::new("handover-halted-resume")),
                    ],
                },
                since: None,
                subject: Subject {
                    run: Some(run.id.clone()),
                    ..Subject::default()
                },
                extent: Extent(vec![Fact::kind(cause(&why.to_string()), why.to_string())]),
                check: Check::Current,
                acks: Vec::new(),
            })
        })
        .collect()
}
