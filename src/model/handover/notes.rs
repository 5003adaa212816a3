//! The notes people wrote during the shift.

use super::{
    Check, Extent, HandoverInput, HandoverItem, LEGACY_ACK_PREFIX, ProblemKey, Says, Section,
    Subject, age, when,
};
use crate::i18n::Msg;
use crate::model::run::EventBody;

/// The open notes of the shift.
pub(super) fn open_notes(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    let Some(journal) = input.journal.read() else {
        return items;
    };
    for event in journal.events {
        let e = &event.event;
        if e.time < input.since {
            continue;
        }
        let EventBody::Note { text } = &e.body else {
            continue;
        };
        // Only what people wrote: the executor's own notes (a step's instructions, the
        // record of acting on a return) are not notes anyone left for the next shift.
        if !e.key.is_command() {
            continue;
        }
        // An older fleetdeck's acknowledgement (read as one, see `acks`).
        if text.starts_with(LEGACY_ACK_PREFIX) {
            continue;
        }
        // What the note is about as a message: its parts listed the language's way.
        let about_msg = [
            e.run
                .as_ref()
                .map(|r| Msg::new("handover-about-run").arg("run", r.to_string())),
            e.item
                .as_ref()
                .map(|i| Msg::new("handover-about-node").arg("node", i.to_string())),
            e.cluster
                .as_ref()
                .map(|c| Msg::new("handover-about-cluster").arg("cluster", c.to_string())),
        ]
        .into_iter()
        .flatten()
        .reduce(|a, b| Msg::new("handover-list-pair").arg("a", a).arg("b", b))
        .unwrap_or_else(|| Msg::new("handover-about-fleet"));
        let about: Vec<String> = [
            e.run.as_ref().map(|r| format!("run {r}")),
            e.item.as_ref().map(|i| format!("node {i}")),
            e.cluster.as_ref().map(|c| format!("cluster {c}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        items.push(HandoverItem {
            key: ProblemKey(format!("note/{}", event.seq.0)),
            section: Section::Notes,
            title: format!("{}: {text}", e.actor),
            says: Says {
                title: None,
                details: vec![
                    Some(
                        Msg::new("handover-at-ago")
                            .arg("at", when(e.time))
                            .arg("ago", age(input.now, e.time)),
                    ),
                    Some(Msg::new("handover-about").arg("about", about_msg)),
                ],
            },
            details: vec![
                format!("at: {} ({} ago)", when(e.time), age(input.now, e.time)),
                format!(
                    "about: {}",
                    if about.is_empty() {
                        "the fleet".to_string()
                    } else {
                        about.join(", ")
                    }
                ),
            ],
            since: Some(e.time),
            subject: Subject {
                run: e.run.clone(),
                item: e.item.clone(),
                cluster: e.cluster.clone(),
            },
            extent: Extent::default(),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}
