//! One line per journal event, in words, for the console's panels and the timeline.

use super::event::{Event, EventBody};

/// A one-line description of an event for people.
pub fn describe(event: &Event) -> String {
    describe_body(event).trim_start().to_string()
}

fn describe_body(event: &Event) -> String {
    let e = &event.event;
    let item = e.item.as_ref().map(|i| format!(" {i}")).unwrap_or_default();
    let step = e.step.as_ref().map(|s| format!(" {s}")).unwrap_or_default();
    match &e.body {
        EventBody::RunPlanned { title, .. } => format!("planned: {title}"),
        EventBody::RunStatusChanged { status } => format!(
            "run {}: {}",
            e.run.as_ref().map(|r| r.as_str()).unwrap_or(""),
            status.word()
        ),
        EventBody::StepStatusChanged { status } => format!("{item}{step}: {status}"),
        EventBody::Intent { action, .. } => format!("{item}{step}: {action} (intent)"),
        EventBody::Outcome { ok, .. } => format!(
            "{item}{step}: outcome {}",
            if *ok { "ok" } else { "not ok" }
        ),
        EventBody::Paused { scope, reason } => format!("paused {scope}: {reason}"),
        EventBody::Resumed { scope, note } => format!("resumed {scope}: {note}"),
        EventBody::GuardTripped { scope, reason, .. } => format!("GUARD paused {scope}: {reason}"),
        EventBody::HandedOff { to, note } => format!("{item}{step}: handed off to {to}: {note}"),
        EventBody::TakenOver { note } => format!("{item}{step}: taken over: {note}"),
        EventBody::Returned { outcome, note } => {
            format!("{item}{step}: returned ({outcome:?}): {note}")
        }
        EventBody::Aborted { note } => format!("aborted: {note}"),
        EventBody::CommandRefused { command, reason } => {
            format!("{item}{step}: REFUSED {command}: {reason}")
        }
        EventBody::Note { text } if item.is_empty() && step.is_empty() => format!("note: {text}"),
        EventBody::Note { text } => format!("{item}{step}: {text}"),
        EventBody::RolloutBatch { batch, phase } => {
            format!("batch {}: {}", batch + 1, phase.word())
        }
        EventBody::ItemStaged { digest } => format!("{item}: staged {}", digest.short()),
        EventBody::ItemApplied { digest } => format!("{item}: applied {}", digest.short()),
        EventBody::ItemVerified { outcome } => format!("{item}: verified {outcome:?}"),
        EventBody::GateEvaluated { batch, halt: None } => {
            format!("gate after batch {}: passed", batch + 1)
        }
        EventBody::GateEvaluated {
            batch,
            halt: Some(why),
        } => format!("gate after batch {}: halt: {why}", batch + 1),
        EventBody::RolloutHalted { batch, why } => {
            format!("HALTED at batch {}: {why}", batch + 1)
        }
        EventBody::RunApproved { batch, note } => match batch {
            Some(b) => format!("approved batch {}: {note}", b + 1),
            None => format!("approved: {note}"),
        },
        other => other.to_parts().0,
    }
}
