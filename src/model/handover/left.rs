//! What runs left half done: nodes an aborted or halted maintenance left cordoned or
//! stopped mid-step, a node whose step failed (and an aborted rollout's release on some
//! of its clusters only, see `left_release`). A node left cordoned that was only
//! mid-step, or a step that failed since, is a new problem.
//!
//! The journal's word is judged against what happened since: a later maintenance run
//! that took the node (and uncordoned it, or has it now) settles the item; so does the
//! live cluster reporting the node schedulable again or gone (removed, or the cluster
//! rebuilt). A cluster whose nodes cannot be seen (unreachable, not the one the ledger
//! pins, not synced) leaves the item standing, saying why it could not be checked.

use jiff::Timestamp;

use super::{
    Check, ClusterHealth, Extent, Fact, HandoverInput, HandoverItem, Known, ProblemKey, Says,
    Section, Settled, Subject, age, when,
};
use crate::i18n::{Lang, Msg};
use crate::model::fleet::Schedulability;
use crate::model::ledger::ClusterId;
use crate::model::live::ClusterStatus;
use crate::model::maintenance::{Step, left_cordoned, mid_maintenance};
use crate::model::run::{ItemId, ItemView, Projection, RunStatus, RunView, StepStatus};

/// What every run left mid-change and still stands, in the journal's order; what later
/// events or the live state settled goes to `settled`.
pub(super) fn left_mid_change(
    input: &HandoverInput<'_>,
    settled: &mut Vec<Settled>,
) -> Vec<HandoverItem> {
    let Some(journal) = input.journal.read() else {
        return Vec::new();
    };
    let mut items = Vec::new();
    for run in journal.projection.runs.values() {
        if run.is_rollout() {
            items.extend(super::left_release::release_left(
                run,
                journal.projection,
                input.now,
                settled,
            ));
        } else {
            items.extend(nodes_left(run, journal.projection, input, settled));
        }
    }
    items
}

/// Who ended the run, when and why: the first thing the next person asks.
pub(super) fn aborted_by(run: &RunView, now: Timestamp) -> Option<Msg> {
    run.aborted.as_ref().map(|(by, at, note)| {
        Msg::new("handover-left-aborted-by")
            .arg("by", by.to_string())
            .arg("ago", age(now, *at))
            .arg("when", when(*at))
            .arg("note", note)
    })
}

/// Lines of an item's details: the English as the JSON and the English report carry it,
/// and the message that says it in the reader's language.
#[derive(Default)]
pub(super) struct Lines {
    pub(super) english: Vec<String>,
    pub(super) said: Vec<Option<Msg>>,
}

impl Lines {
    /// A line that has its message.
    pub(super) fn push(&mut self, msg: Msg) {
        self.english.push(msg.text(Lang::En));
        self.said.push(Some(msg));
    }
}

/// The nodes of an aborted or halted maintenance between cordon and uncordon, and a
/// node whose step failed, that still stand. Nodes in a person's hands or stuck in a run
/// that is not over are listed as such instead.
fn nodes_left(
    run: &RunView,
    projection: &Projection,
    input: &HandoverInput<'_>,
    settled: &mut Vec<Settled>,
) -> Vec<HandoverItem> {
    let now = input.now;
    let aborted = aborted_by(run, now);
    let stopped = matches!(run.status, RunStatus::Aborted | RunStatus::Halted { .. });
    let mut out = Vec::new();
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
        let title = format!(
            "{id} in {} left {}",
            run.id,
            if cordoned { "cordoned" } else { "mid-step" }
        );
        let last_change = item.steps.values().map(|v| v.since).max();
        if let Some(how) = later_run_on(projection, run, id, last_change) {
            settled.push(Settled { title, how });
            continue;
        }
        let check = match live_node(input, run.cluster.as_ref(), id, cordoned) {
            Live::Settled(how) => {
                settled.push(Settled { title, how });
                continue;
            }
            Live::Stands(check) => check,
        };
        let mut details = Lines::default();
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
            (Some((step, view)), _) => details.push(
                Msg::new("handover-left-step-set-by")
                    .arg("step", step.to_string())
                    .arg("status", view.status.to_string())
                    .arg("by", view.by.to_string())
                    .arg("ago", age(now, view.since))
                    .arg("when", when(view.since)),
            ),
            (None, Some((step, view))) => match &view.status {
                StepStatus::HandedOff { to, .. } => details.push(
                    Msg::new("handover-left-stood-in-hands")
                        .arg("step", step.to_string())
                        .arg("to", to.to_string())
                        .arg("when", when(view.since)),
                ),
                status => details.push(
                    Msg::new("handover-left-stood-at")
                        .arg("step", step.to_string())
                        .arg("status", status.to_string()),
                ),
            },
            (None, None) => {}
        }
        details.push(
            Msg::new("handover-left-run")
                .arg("title", run.title.clone())
                .arg("status", run.status.to_string()),
        );
        if let Some(aborted) = aborted.clone() {
            details.push(aborted);
        }
        details.push(Msg::new(if cordoned {
            "handover-left-cordoned-never-uncordoned"
        } else {
            "handover-left-not-cordoned"
        }));
        if let Some(cluster) = &run.cluster {
            details.push(Msg::new("handover-left-cluster").arg("cluster", cluster.to_string()));
        }
        details.push(check.line_msg());
        let Lines {
            english: details,
            said,
        } = details;
        out.push(HandoverItem {
            says: Says {
                title: Some(
                    Msg::new("handover-left-title")
                        .arg("item", id.to_string())
                        .arg("run", run.id.to_string())
                        .arg("how", if cordoned { "cordoned" } else { "mid-step" }),
                ),
                details: said,
            },
            key: ProblemKey(format!("left/{}/{id}", run.id)),
            section: Section::LeftMidChange,
            title,
            details,
            since: current.map(|(_, v)| v.since),
            subject: Subject {
                run: Some(run.id.clone()),
                item: Some(id.clone()),
                cluster: run.cluster.clone(),
            },
            extent: Extent(facts),
            check,
            acks: Vec::new(),
        });
    }
    out
}

/// A later maintenance run on the same cluster that took `node` after `since`: how it
/// settles what `run` left there (it ended the node's maintenance, or has the node now
/// and lists it itself).
fn later_run_on(
    projection: &Projection,
    run: &RunView,
    node: &ItemId,
    since: Option<Timestamp>,
) -> Option<String> {
    let since = since.unwrap_or(run.created_at);
    let (other, item, touched) = projection
        .runs
        .values()
        .filter(|other| other.id != run.id && !other.is_rollout() && other.cluster == run.cluster)
        .filter_map(|other| {
            let item = other.items.get(node)?;
            // The precheck changes nothing on the node; any later step does.
            let touched = item
                .steps
                .iter()
                .filter(|(name, _)| **name != Step::Precheck.name())
                .map(|(_, view)| view.since)
                .max()?;
            (touched > since).then_some((other, item, touched))
        })
        .max_by_key(|(_, _, touched)| *touched)?;
    Some(if mid_maintenance(item) {
        format!(
            "{} took {node} over since ({}) and has it now{}",
            other.id,
            when(touched),
            at_step(item)
        )
    } else {
        format!(
            "{} took {node} through maintenance since and ended it ({})",
            other.id,
            when(touched)
        )
    })
}

/// ` (at Drain: running)`, or nothing.
fn at_step(item: &ItemView) -> String {
    item.current_step()
        .map(|(step, view)| format!(" (at {step}: {})", item.status_word(&view.status)))
        .unwrap_or_default()
}

/// What the live cluster says of a node the journal says was left behind.
enum Live {
    /// It no longer stands, and how that was seen.
    Settled(String),
    /// It stands, or could not be checked.
    Stands(Check),
}

/// Whether `node` of `cluster`, which fleetdeck left `cordoned` (or only mid-step), is
/// still so as far as the live cluster shows, or why that cannot be seen.
fn live_node(
    input: &HandoverInput<'_>,
    cluster: Option<&ClusterId>,
    node: &ItemId,
    cordoned: bool,
) -> Live {
    let Some(cluster) = cluster else {
        return Live::Stands(Check::NotChecked("the run names no cluster".into()));
    };
    let clusters = match &input.fleet {
        Known::Read(clusters) => *clusters,
        Known::NotRead(why) => {
            return Live::Stands(Check::NotChecked(format!(
                "cluster statuses not checked ({why})"
            )));
        }
    };
    let Some(c) = clusters.iter().find(|c| c.id == *cluster) else {
        return Live::Stands(Check::NotChecked(format!(
            "{cluster} is not among the ledger's clusters any more"
        )));
    };
    let why = |c: &ClusterHealth| {
        c.error
            .as_ref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default()
    };
    match c.status {
        ClusterStatus::Synced | ClusterStatus::Degraded => match (c.nodes.get(&node.0), cordoned) {
            (Some(Schedulability::Cordoned), true) => Live::Stands(Check::Confirmed(format!(
                "{cluster} reports {node} still cordoned"
            ))),
            (Some(Schedulability::Schedulable), true) => Live::Settled(format!(
                "{cluster} reports {node} schedulable: it was uncordoned since"
            )),
            (Some(state), false) => Live::Stands(Check::Confirmed(format!(
                "{node} is still in {cluster} ({})",
                match state {
                    Schedulability::Cordoned => "cordoned",
                    Schedulability::Schedulable => "schedulable",
                }
            ))),
            (None, _) if c.status == ClusterStatus::Synced => Live::Settled(format!(
                "{cluster} has no node {node} any more (removed, or the cluster was rebuilt)"
            )),
            (None, _) => Live::Stands(Check::NotChecked(format!(
                "{cluster}'s data is Degraded{}: whether {node} is still there is not known",
                why(c)
            ))),
        },
        ClusterStatus::IdentityMismatch => Live::Stands(Check::NotChecked(format!(
            "{cluster} answers as another cluster than the ledger pins{}: if it was rebuilt, \
             re-pin it in the ledger; the node went with the old one",
            why(c)
        ))),
        other => Live::Stands(Check::NotChecked(format!(
            "{cluster} is {}{}: its nodes cannot be seen",
            other.label(),
            why(c)
        ))),
    }
}
