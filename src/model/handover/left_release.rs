//! What an aborted rollout left: its release on some of its clusters only, and applies
//! the abort did not stop. A cluster the release reached (or an apply began on) that it
//! had not before is a new problem.
//!
//! Judged against the journal's later events: a cluster that a later rollout has since
//! given its own release (a rollback is a rollout of the previous release) no longer
//! runs this one; once every cluster it reached has had a later release, the item is
//! settled. What the clusters run is the journal's word: the handover reads no release
//! records, and the item says so.

use jiff::Timestamp;

use super::left::Lines;
use super::{Check, Extent, Fact, HandoverItem, ProblemKey, Says, Section, Settled, Subject, when};
use crate::i18n::{Lang, Msg};
use crate::model::run::{ItemView, Projection, RunStatus, RunView, Sequence};

/// What the aborted rollout `run` left that still stands.
pub(super) fn release_left(
    run: &RunView,
    projection: &Projection,
    now: Timestamp,
    settled: &mut Vec<Settled>,
) -> Option<HandoverItem> {
    if run.status != RunStatus::Aborted {
        return None;
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
        return None;
    }
    let title_msg = |on: &[&str], in_flight: &[&str]| {
        Msg::new("handover-release-left-title")
            .arg("run", run.id.to_string())
            .arg("on", on.len())
            .arg("total", run.order.len())
            .arg("inFlight", in_flight.len())
    };
    let title = |on: &[&str], in_flight: &[&str]| title_msg(on, in_flight).text(Lang::En);
    let mut since_then = Vec::new();
    let mut still = |list: &[&str]| -> Vec<String> {
        list.iter()
            .filter(|c| match later_release(projection, run, c) {
                Some(how) => {
                    since_then.push(how);
                    false
                }
                None => true,
            })
            .map(|c| (*c).to_string())
            .collect()
    };
    let on_now = still(&on);
    let in_flight_now = still(&in_flight);
    if on_now.is_empty() && in_flight_now.is_empty() {
        settled.push(Settled {
            title: title(&on, &in_flight),
            how: format!(
                "every cluster it reached has had a later release since: {}",
                since_then.join("; ")
            ),
        });
        return None;
    }
    let on_now: Vec<&str> = on_now.iter().map(String::as_str).collect();
    let in_flight_now: Vec<&str> = in_flight_now.iter().map(String::as_str).collect();
    let mut details = Lines::default();
    details.push(Msg::new("handover-release-rollout").arg("title", run.title.clone()));
    if let Some(aborted) = super::left::aborted_by(run, now) {
        details.push(aborted);
    }
    if !on_now.is_empty() {
        details.push(Msg::new("handover-release-on").arg("clusters", on_now.join(", ")));
    }
    if !in_flight_now.is_empty() {
        details
            .push(Msg::new("handover-release-in-flight").arg("clusters", in_flight_now.join(", ")));
    }
    for how in &since_then {
        details.push(Msg::new("handover-release-since").arg("how", how));
    }
    details.push(Msg::new("handover-release-others-unchanged"));
    let check = Check::NotChecked(
        "judged by the journal's later rollouts only: the handover reads no cluster's \
         release record"
            .into(),
    );
    details.push(check.line_msg());
    let Lines {
        english: details,
        said,
    } = details;
    let facts = on_now
        .iter()
        .map(|c| Fact::kind(format!("release on {c}"), format!("release on {c}")))
        .chain(in_flight_now.iter().map(|c| {
            Fact::kind(
                format!("apply in flight on {c}"),
                format!("apply in flight on {c}"),
            )
        }))
        .collect();
    Some(HandoverItem {
        key: ProblemKey(format!("left/{}", run.id)),
        section: Section::LeftMidChange,
        title: title(&on_now, &in_flight_now),
        details,
        says: Says {
            title: Some(title_msg(&on_now, &in_flight_now)),
            details: said,
        },
        since: run.aborted.as_ref().map(|(_, at, _)| *at),
        subject: Subject {
            run: Some(run.id.clone()),
            item: None,
            cluster: run.cluster.clone(),
        },
        extent: Extent(facts),
        check,
        acks: Vec::new(),
    })
}

/// Where `run` last touched a cluster's release: its apply, its staging, or an apply's
/// intent without outcome.
fn last_touch(item: &ItemView) -> Option<Sequence> {
    [
        item.applied_seq,
        item.staged_seq,
        item.open_intents.values().map(|i| i.seq).max(),
    ]
    .into_iter()
    .flatten()
    .max()
}

/// A later rollout's release on `cluster` after `run` last touched it, in words
/// (`prod-a: ro-cni-2 applied 1a2b3c4d5e6f (a rollout started 2026-11-28 14:02 UTC)`).
fn later_release(projection: &Projection, run: &RunView, cluster: &str) -> Option<String> {
    let mine = last_touch(run.items.iter().find(|(id, _)| id.0 == cluster)?.1)?;
    let (other, item, seq) = projection
        .runs
        .values()
        .filter(|other| other.id != run.id && other.is_rollout())
        .filter_map(|other| {
            let (_, item) = other.items.iter().find(|(id, _)| id.0 == cluster)?;
            let seq = [item.applied_seq, item.staged_seq]
                .into_iter()
                .flatten()
                .max()?;
            (seq > mine).then_some((other, item, seq))
        })
        .max_by_key(|(_, _, seq)| *seq)?;
    let what = match (&item.applied, item.applied_seq == Some(seq)) {
        (Some(digest), true) => format!("applied {}", digest.short()),
        _ => format!(
            "began applying {} (outcome not recorded yet)",
            item.staged.as_ref().map_or("its release", |d| d.short())
        ),
    };
    Some(format!(
        "{cluster}: {} {what} (a rollout started {})",
        other.id,
        when(other.created_at)
    ))
}
