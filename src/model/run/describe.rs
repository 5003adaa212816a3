//! One line per journal event, in words, for the console's panels and the timeline.

use super::event::{Event, EventBody};
use super::status::StepStatus;

/// `: note`, or nothing when the person left the note empty (no dangling colon).
fn said(note: &str) -> String {
    if note.trim().is_empty() {
        String::new()
    } else {
        format!(": {note}")
    }
}

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
        // The person's hand-off or take-over has its own event; the engine's status event
        // after it only says whose hands the step is in (it cannot tell the two apart).
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff { to, .. },
        } => format!("{item}{step}: in {to}'s hands"),
        EventBody::StepStatusChanged { status } => format!("{item}{step}: {status}"),
        EventBody::Intent { action, .. } => format!("{item}{step}: {action} (intent)"),
        // Which call it answers, from the intent's key: three evictions are three
        // lines that say which pod, not "outcome ok" three times.
        EventBody::Outcome { intent, ok, .. } => format!(
            "{item}{step}: {} {}",
            e.step
                .as_ref()
                .and_then(|s| intent.step_purpose(s))
                // `evict:shop/web-0` as people say it.
                .map_or_else(|| "outcome".into(), |p| p.replacen(':', " ", 1)),
            if *ok { "ok" } else { "not ok" }
        ),
        EventBody::Waiting { why } => format!("{item}{step}: waits: {why}"),
        EventBody::NodeEventFailed { reason, error, .. } => {
            format!("{item}{step}: node event {reason} NOT recorded on the cluster: {error}")
        }
        EventBody::Paused { scope, reason } => format!("paused {scope}: {reason}"),
        EventBody::Resumed { scope, note } => format!("resumed {scope}{}", said(note)),
        EventBody::GuardTripped { scope, reason, .. } => format!("GUARD paused {scope}: {reason}"),
        EventBody::WindowOverridden { until, reason } => format!(
            "maintenance window of {} overridden until {}: {reason}",
            e.cluster.as_ref().map(|c| c.as_str()).unwrap_or("?"),
            until.strftime("%Y-%m-%d %H:%M UTC")
        ),
        EventBody::GitOpsIntent {
            action,
            object,
            reason,
            ..
        } => format!(
            "{action} sync of {} {}/{} (intent): {reason}",
            object["kind"].as_str().unwrap_or("?"),
            object["namespace"].as_str().unwrap_or("?"),
            object["name"].as_str().unwrap_or("?")
        ),
        EventBody::GitOpsOutcome { ok, detail, .. } => format!(
            "sync {}: {}",
            if *ok { "changed" } else { "NOT changed" },
            detail
                .as_str()
                .map_or_else(|| detail.to_string(), str::to_owned)
        ),
        EventBody::HandedOff { to, note } => {
            format!("{item}{step}: handed off to {to}{}", said(note))
        }
        EventBody::TakenOver { note } => format!("{item}{step}: taken over{}", said(note)),
        EventBody::Returned { outcome, note } => {
            format!("{item}{step}: returned ({outcome:?}){}", said(note))
        }
        EventBody::Aborted { note } => format!("aborted{}", said(note)),
        // A refusal about a run or a cluster, not a node, has no node to lead with.
        EventBody::CommandRefused { command, reason } if item.is_empty() && step.is_empty() => {
            format!("REFUSED {command}: {reason}")
        }
        EventBody::CommandRefused { command, reason } => {
            format!("{item}{step}: REFUSED {command}: {reason}")
        }
        EventBody::Note { text } | EventBody::ExecutorNote { text }
            if item.is_empty() && step.is_empty() =>
        {
            format!("note: {text}")
        }
        EventBody::Note { text } | EventBody::ExecutorNote { text } => {
            format!("{item}{step}: {text}")
        }
        EventBody::Unreadable { kind, reason } => {
            format!("UNREADABLE {kind} event, skipped by every reader: {reason}")
        }
        EventBody::Acknowledged { title, note, .. } => {
            format!(
                "acknowledged {}{}",
                crate::model::text::one_line(title),
                said(note)
            )
        }
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
            Some(b) => format!("approved batch {}{}", b + 1, said(note)),
            None => format!("approved{}", said(note)),
        },
        other => other.to_parts().0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::{Actor, IdempotencyKey, NewEvent, PauseScope, ReturnOutcome, Sequence};

    fn event(body: EventBody) -> NewEvent {
        NewEvent::new(
            jiff::Timestamp::UNIX_EPOCH,
            Actor("a@h".into()),
            IdempotencyKey("k".into()),
            body,
        )
    }

    fn described_event(event: NewEvent) -> String {
        describe(&Event {
            seq: Sequence(1),
            token: None,
            event,
        })
    }

    fn described(body: EventBody) -> String {
        described_event(event(body))
    }

    #[test]
    fn an_outcome_says_which_call_it_answers() {
        let run = crate::model::run::RunId("mnt-1".into());
        let item = crate::model::run::ItemId("n1".into());
        let step = crate::model::run::StepName("Drain".into());
        let key = IdempotencyKey::for_step(&run, &item, &step, "evict:shop/web-0", 2);
        let outcome = |ok| {
            described_event(
                event(EventBody::Outcome {
                    intent: key.clone(),
                    ok,
                    detail: serde_json::Value::Null,
                })
                .with_item(item.clone())
                .with_step(step.clone()),
            )
        };
        assert_eq!(outcome(true), "n1 Drain: evict shop/web-0 ok");
        assert_eq!(outcome(false), "n1 Drain: evict shop/web-0 not ok");
    }

    #[test]
    fn the_engines_hand_off_status_says_whose_hands_not_who_handed() {
        let status = described(EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("alice@ops".into()),
                note: "I have it".into(),
            },
        });
        assert_eq!(status, ": in alice@ops's hands");
    }

    #[test]
    fn an_empty_note_leaves_no_dangling_colon() {
        let resumed = |note: &str| {
            described(EventBody::Resumed {
                scope: PauseScope::Fleet,
                note: note.into(),
            })
        };
        assert_eq!(resumed(""), "resumed fleet");
        assert_eq!(resumed("all clear"), "resumed fleet: all clear");
        assert_eq!(
            described(EventBody::Returned {
                outcome: ReturnOutcome::Retry,
                note: " ".into(),
            }),
            ": returned (Retry)"
        );
    }

    #[test]
    fn a_refusal_about_no_node_leads_with_the_refusal() {
        let body = EventBody::CommandRefused {
            command: "approve".into(),
            reason: "batch 1 cannot be approved now: c2 (Unreachable) cannot take actions".into(),
        };
        assert_eq!(
            described(body.clone()),
            "REFUSED approve: batch 1 cannot be approved now: c2 (Unreachable) cannot take actions"
        );
        let mut on_node = Event {
            seq: Sequence(2),
            token: None,
            event: NewEvent::new(
                jiff::Timestamp::UNIX_EPOCH,
                Actor("a@h".into()),
                IdempotencyKey("k2".into()),
                body,
            ),
        };
        on_node.event.item = Some(crate::model::run::ItemId("n1".into()));
        assert!(describe(&on_node).starts_with("n1: REFUSED approve"));
    }
}
