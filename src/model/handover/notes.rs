//! The notes people wrote during the shift, and their acknowledgements of items.

use super::{ACK_PREFIX, Ack, HandoverInput, HandoverItem, Section, Subject, age, when};
use crate::model::run::EventBody;

/// The open notes of the shift, and the acknowledgements (item key, acknowledgement).
pub(super) fn notes_and_acks(input: &HandoverInput<'_>) -> (Vec<HandoverItem>, Vec<(String, Ack)>) {
    let mut items = Vec::new();
    let mut acks = Vec::new();
    for event in input.events {
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
        if let Some(rest) = text.strip_prefix(ACK_PREFIX) {
            let (key, note) = rest.split_once(": ").unwrap_or((rest, ""));
            acks.push((
                key.to_string(),
                Ack {
                    by: e.actor.clone(),
                    at: e.time,
                    note: note.to_string(),
                },
            ));
            continue;
        }
        let about: Vec<String> = [
            e.run.as_ref().map(|r| format!("run {r}")),
            e.item.as_ref().map(|i| format!("node {i}")),
            e.cluster.as_ref().map(|c| format!("cluster {c}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        items.push(HandoverItem {
            key: format!("note/{}", event.seq.0),
            section: Section::Notes,
            title: format!("{}: {text}", e.actor),
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
            acks: Vec::new(),
        });
    }
    (items, acks)
}
