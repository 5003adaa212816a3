//! What runs left half done: nodes an aborted or halted maintenance left cordoned or
//! stopped mid-step, a node whose step failed, an aborted rollout's release on some of
//! its clusters only. A cluster the release reached (or an apply began on) that it had not
//! before, a node left cordoned that was only mid-step, or a step that failed since, is a
//! new problem.

use jiff::Timestamp;

use super::{Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Section, Subject, age, when};
use crate::model::run::{ItemId, ItemView, RunStatus, RunView, StepStatus};

/// What every run left mid-change, in the journal's order.
pub(super) fn left_mid_change(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    input
        .projection
        .runs
        .values()
        .flat_map(|run| of_run(run, input.now))
        .collect()
}

/// What `run` left half done, when it can no longer finish it by itself: the nodes of an
/// aborted or halted maintenance between cordon and uncordon, a node whose step failed,
/// and an aborted rollout's release on some of its clusters only. Nodes in a person's
/// hands are listed with them instead.
fn of_run(run: &RunView, now: Timestamp) -> Vec<HandoverItem> {
    use crate::model::maintenance::{left_cordoned, mid_maintenance};
    let subject = |item: Option<&ItemId>| Subject {
        run: Some(run.id.clone()),
        item: item.cloned(),
        cluster: run.cluster.clone(),
    };
    // Who ended it, when and why: the first thing the next person asks.
    let aborted = run.aborted.as_ref().map(|(by, at, note)| {
        format!(
            "aborted by {by} {} ago ({}): {note}",
            age(now, *at),
            when(*at)
        )
    });
    let mut out = Vec::new();
    if run.is_rollout() {
        if run.status != RunStatus::Aborted {
            return out;
        }
        let clusters = |keep: &dyn Fn(&ItemView) -> bool| -> Vec<&str> {
            run.order
                .iter()
                .filter(|id| run.items.get(*id).is_some_and(keep))
                .map(|id| id.0.as_str())
                .collect()
        };
        let on = clusters(&|i| i.applied.is_some());
        // An apply the abort did not stop: its outcome is not known yet.
        let in_flight = clusters(&|i| i.applied.is_none() && !i.open_intents.is_empty());
        if on.is_empty() && in_flight.is_empty() {
            return out;
        }
        let mut details = vec![format!("rollout: {}", run.title)];
        details.extend(aborted);
        if !on.is_empty() {
            details.push(format!("release on: {}", on.join(", ")));
        }
        if !in_flight.is_empty() {
            details.push(format!(
                "apply in flight on: {} (outcome pending: check what these clusters run)",
                in_flight.join(", ")
            ));
        }
        details.push(
            "the other clusters run what they ran before; a rollback is a rollout of the \
             previous release"
                .into(),
        );
        out.push(HandoverItem {
            key: ProblemKey(format!("left/{}", run.id)),
            section: Section::LeftMidChange,
            title: format!(
                "{} aborted with its release on {} of {} clusters{}",
                run.id,
                on.len(),
                run.order.len(),
                if in_flight.is_empty() {
                    String::new()
                } else {
                    format!(", {} more in flight", in_flight.len())
                }
            ),
            details,
            since: run.aborted.as_ref().map(|(_, at, _)| *at),
            subject: subject(None),
            extent: Extent(
                on.iter()
                    .map(|c| Fact::kind(format!("release on {c}"), format!("release on {c}")))
                    .chain(in_flight.iter().map(|c| {
                        Fact::kind(
                            format!("apply in flight on {c}"),
                            format!("apply in flight on {c}"),
                        )
                    }))
                    .collect(),
            ),
            acks: Vec::new(),
        });
        return out;
    }
    let stopped = matches!(run.status, RunStatus::Aborted | RunStatus::Halted { .. });
    for id in &run.order {
        let Some(item) = run.items.get(id) else {
            continue;
        };
        let current = item.current_step();
        let failed = current.filter(|(_, v)| matches!(v.status, StepStatus::Failed { .. }));
        // In a person's hands or stuck, in a run that is not over: listed as such already.
        // Once the run is over, nothing it could do follows, so it is left mid-change.
        let listed = !run.status.is_final()
            && current.is_some_and(|(_, v)| {
                matches!(
                    v.status,
                    StepStatus::HandedOff { .. } | StepStatus::Blocked { .. }
                )
            });
        if listed || !mid_maintenance(item) || !(stopped || failed.is_some()) {
            continue;
        }
        let cordoned = left_cordoned(item);
        let mut details = Vec::new();
        let mut facts = vec![if cordoned {
            Fact::kind("left cordoned", "left cordoned")
        } else {
            Fact::kind("left mid-step", "left mid-step")
        }];
        if let Some((step, view)) = failed {
            facts.push(Fact::kind(
                format!("{step} failed"),
                format!("{step} {}", view.status),
            ));
        }
        match (failed, current) {
            (Some((step, view)), _) => details.push(format!(
                "{step} {}, set by {} {} ago ({})",
                view.status,
                view.by,
                age(now, view.since),
                when(view.since)
            )),
            (None, Some((step, view))) => match &view.status {
                StepStatus::HandedOff { to, .. } => details.push(format!(
                    "stood at {step}, in {to}'s hands (since {}): the run is over, so a \
                     return is refused and nothing follows",
                    when(view.since)
                )),
                status => details.push(format!("stood at {step}: {status}")),
            },
            (None, None) => {}
        }
        details.push(format!("run: {} ({})", run.title, run.status));
        details.extend(aborted.clone());
        details.push(if cordoned {
            "fleetdeck cordoned the node and never uncordoned it: check it, then uncordon it \
             (kubectl uncordon) once it is fit, or finish it in a new maintenance run"
                .into()
        } else {
            "fleetdeck had not cordoned it; pods may have been evicted".into()
        });
        if let Some(cluster) = &run.cluster {
            details.push(format!("cluster: {cluster}"));
        }
        out.push(HandoverItem {
            key: ProblemKey(format!("left/{}/{id}", run.id)),
            section: Section::LeftMidChange,
            title: format!(
                "{id} in {} left {}",
                run.id,
                if cordoned { "cordoned" } else { "mid-step" }
            ),
            details,
            since: current.map(|(_, v)| v.since),
            subject: subject(Some(id)),
            extent: Extent(facts),
            acks: Vec::new(),
        });
    }
    out
}
