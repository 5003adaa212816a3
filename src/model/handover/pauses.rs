//! The pause switches in force, with what each holds back. A pause set again (another
//! one since another time) is a new problem; so is a node or an approved batch it holds
//! that it did not hold before.

use jiff::Timestamp;

use super::{
    Check, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Says, Section, Subject, age, when,
};
use crate::i18n::Msg;
use crate::model::rollout::BatchPhase;
use crate::model::run::{PauseScope, Projection, RunView};

/// Every pause switch in force: why, by whom, since when, and what it holds.
pub(super) fn paused_automation(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let Some(journal) = input.journal.read() else {
        return Vec::new();
    };
    let now = input.now;
    let p = journal.projection;
    let mut items = Vec::new();
    for pause in p.pauses.values() {
        let (by, by_msg) = if pause.by_guard {
            (
                format!(
                    "{} (mass-failure guard: only a person may resume)",
                    pause.by
                ),
                Msg::new("handover-pause-by-guard").arg("by", pause.by.to_string()),
            )
        } else {
            (
                pause.by.to_string(),
                Msg::new("handover-by").arg("by", pause.by.to_string()),
            )
        };
        let mut subject = Subject::default();
        let mut held = Vec::new();
        match &pause.scope {
            PauseScope::Cluster { cluster } | PauseScope::FailureDomain { cluster, .. } => {
                subject.cluster = Some(cluster.clone());
            }
            PauseScope::Run { run } => {
                subject.run = Some(run.clone());
                if let Some(view) = p.runs.get(run) {
                    held = approved_but_held(view, now);
                }
            }
            PauseScope::Fleet => {}
        }
        let mut details = vec![
            format!("why: {}", pause.reason),
            format!("by: {by}"),
            format!(
                "since: {} ({} ago)",
                when(pause.since),
                age(now, pause.since)
            ),
        ];
        let mut said = vec![
            Some(Msg::new("handover-why").arg("why", &pause.reason)),
            Some(by_msg),
            Some(
                Msg::new("handover-since-ago")
                    .arg("since", when(pause.since))
                    .arg("ago", age(now, pause.since)),
            ),
        ];
        held.extend(held_mid_change(p, &pause.scope));
        details.extend(held.iter().map(|f| f.says.clone()));
        said.extend(held.iter().map(|_| None));
        let mut facts = vec![Fact::kind(
            format!("paused since {}", pause.since),
            format!("paused by {}: {}", pause.by, pause.reason),
        )];
        facts.extend(held);
        items.push(HandoverItem {
            key: ProblemKey(format!("pause/{}", pause.scope)),
            section: Section::PausedAutomation,
            title: format!("{} paused: {}", pause.scope, pause.reason),
            says: Says {
                title: Some(
                    Msg::new("handover-pause-title")
                        .arg("scope", pause.scope.to_string())
                        .arg("why", &pause.reason),
                ),
                details: said,
            },
            details,
            since: Some(pause.since),
            subject,
            extent: Extent(facts),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}

/// For a pause: the nodes it holds between cordon and uncordon, run by run. A node left
/// cordoned mid-drain while automation waits is what the next person must not miss.
fn held_mid_change(p: &Projection, scope: &PauseScope) -> Vec<Fact> {
    use crate::model::maintenance::mid_maintenance;
    p.runs
        .values()
        .filter(|run| !run.status.is_final() && !run.is_rollout())
        .filter(|run| match scope {
            PauseScope::Fleet => true,
            PauseScope::Cluster { cluster } | PauseScope::FailureDomain { cluster, .. } => {
                run.cluster.as_ref() == Some(cluster)
            }
            PauseScope::Run { run: id } => run.id == *id,
        })
        .flat_map(|run| {
            run.items
                .iter()
                .filter(|(_, item)| mid_maintenance(item))
                .map(move |(id, item)| {
                    let step = item.current_step().map_or_else(
                        || "between steps".to_owned(),
                        |(name, step)| format!("at {name}: {}", item.status_word(&step.status)),
                    );
                    Fact::kind(
                        format!("holds {id} of {} mid-maintenance", run.id),
                        format!("holds {id} of {} mid-maintenance ({step})", run.id),
                    )
                })
        })
        .collect()
}

/// For a paused rollout: the batches a person approved that wait for the resume.
fn approved_but_held(run: &RunView, now: Timestamp) -> Vec<Fact> {
    run.approvals
        .iter()
        .filter_map(|(by, at, batch, _)| {
            let batch = (*batch)?;
            let waiting = matches!(
                run.rollout.batches.get(&batch),
                Some(BatchPhase::AwaitingApproval | BatchPhase::Executing | BatchPhase::Pending)
            );
            waiting.then(|| {
                Fact::kind(
                    format!("holds back batch {}", batch + 1),
                    format!(
                        "holds back batch {}, approved by {by} {} ago: it starts once resumed",
                        batch + 1,
                        age(now, *at)
                    ),
                )
            })
        })
        .collect()
}
