//! Acknowledgements: who read an item, when, what they said, and whether it still holds.
//! They are journal events (`operator.acknowledge`), shared by everyone who reads the
//! journal, recorded with the problem's key and how it stood; an acknowledgement holds
//! until the problem gets worse or another one appears (see `extent`).

use jiff::Timestamp;

use crate::i18n::Msg;

use super::{Ack, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Standing};
use crate::model::live::ClusterStatus;
use crate::model::run::{Actor, EventBody};

/// Older fleetdeck versions journaled an acknowledgement as a note starting with this,
/// then the item's key (which then held counts) and `: `. Such notes are still read as
/// acknowledgements, never shown as open notes.
pub const LEGACY_ACK_PREFIX: &str = "handover ack ";

/// An acknowledgement as the journal has it.
struct Written {
    key: ProblemKey,
    by: Actor,
    at: Timestamp,
    note: String,
    then: Option<Extent>,
}

/// Gives every item the acknowledgements of its problem written during the shift, each
/// judged against how the problem stands now.
pub(super) fn attach(items: &mut [HandoverItem], input: &HandoverInput<'_>) {
    let written = written(input);
    for item in items {
        item.acks = written
            .iter()
            .filter(|w| w.key == item.key)
            .map(|w| judged(w, &item.extent))
            .collect();
    }
}

/// The acknowledgements written since the shift started, oldest first.
fn written(input: &HandoverInput<'_>) -> Vec<Written> {
    let Some(journal) = input.journal.read() else {
        return Vec::new();
    };
    journal
        .events
        .iter()
        .map(|event| &event.event)
        .filter(|e| e.time >= input.since)
        .filter_map(|e| {
            let (key, then, note) = match &e.body {
                EventBody::Acknowledged {
                    problem,
                    extent,
                    note,
                    ..
                } => (problem.clone(), Some(extent.clone()), note.clone()),
                EventBody::Note { text } if e.key.is_command() => {
                    let (key, then, note) = legacy(text)?;
                    (key, then, note.to_string())
                }
                _ => return None,
            };
            Some(Written {
                key,
                by: e.actor.clone(),
                at: e.time,
                note,
                then,
            })
        })
        .collect()
}

/// Whether `w` still holds for a problem that stands at `now`, and what changed.
fn judged(w: &Written, now: &Extent) -> Ack {
    let (standing, change, change_msg) = match &w.then {
        Some(then) => match now.worse_than(then) {
            Some(how) => (
                Standing::Reopened,
                format!("worse since: {how}"),
                Msg::new("handover-ack-worse").arg("how", how),
            ),
            None if then == now => (
                Standing::Holds,
                "unchanged since".to_string(),
                Msg::new("handover-ack-unchanged"),
            ),
            None => (
                Standing::Holds,
                format!("then {}; now {}", then.summary(), now.summary()),
                Msg::new("handover-ack-then-now")
                    .arg("then", then.summary())
                    .arg("now", now.summary()),
            ),
        },
        None => (
            Standing::Holds,
            "how it stood then was not recorded".to_string(),
            Msg::new("handover-ack-not-recorded"),
        ),
    };
    Ack {
        by: w.by.clone(),
        at: w.at,
        note: w.note.clone(),
        then: w.then.clone(),
        standing,
        change,
        change_msg: Some(change_msg),
    }
}

/// A note an older fleetdeck wrote to acknowledge an item: the problem it names as
/// today's key, how it stood as far as the old key says, and the note. Old cluster keys
/// held the status and counts (`cluster/c/not-whole/Synced/3/1`, `cluster/c/Unreachable`):
/// what they say is kept, and budgets they only counted are taken as unknown, so any
/// budget below its minimum now re-opens them. Other keys are today's.
fn legacy(text: &str) -> Option<(ProblemKey, Option<Extent>, &str)> {
    let rest = text.strip_prefix(LEGACY_ACK_PREFIX)?;
    let (key, note) = rest.split_once(": ").unwrap_or((rest, ""));
    let parts: Vec<&str> = key.split('/').collect();
    let (key, then) = match parts.as_slice() {
        ["cluster", id, "not-whole", status, down, _budgets] => {
            let mut facts = Vec::new();
            if *status == ClusterStatus::Degraded.label() {
                facts.push(Fact::kind(super::clusters::DEGRADED, "data Degraded"));
            }
            match down.parse::<i64>() {
                Ok(0) => {}
                Ok(n) => facts.push(Fact::counted(
                    super::clusters::NODES_NOT_READY,
                    n,
                    format!("{n} nodes not ready"),
                )),
                // Not what an older fleetdeck wrote: nothing can be said of it.
                Err(_) => return Some((ProblemKey(key.to_string()), None, note)),
            }
            (super::clusters::not_whole_key(id), Some(Extent(facts)))
        }
        ["cluster", id, status] => (
            super::clusters::untrusted_key(id),
            Some(Extent(vec![Fact::kind(*status, *status)])),
        ),
        _ => (ProblemKey(key.to_string()), None),
    };
    Some((key, then, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_cluster_key_is_read_as_todays_with_what_it_counted() {
        let (key, then, note) =
            legacy("handover ack cluster/prod-euw1-02/not-whole/Synced/3/1: zone b is out")
                .expect("an acknowledgement");
        assert_eq!(key.0, "cluster/prod-euw1-02/not-whole");
        assert_eq!(note, "zone b is out");
        let then = then.expect("counts kept");
        assert_eq!(then.summary(), "3 nodes not ready");
        let (key, then, _) =
            legacy("handover ack cluster/prod-apse1-03/Unreachable: known").expect("an ack");
        assert_eq!(key.0, "cluster/prod-apse1-03/untrusted");
        assert_eq!(then.map(|t| t.summary()).as_deref(), Some("Unreachable"));
        let (key, then, _) =
            legacy("handover ack step/mnt-1/n2/Drain: on it").expect("an acknowledgement");
        assert_eq!((key.0.as_str(), then), ("step/mnt-1/n2/Drain", None));
        assert!(legacy("registry is slow").is_none());
    }
}
