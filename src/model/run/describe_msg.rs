//! What [`describe`](super::describe) says of an event, as a message for the reader's
//! language: the words around the values are translated; the values (node, step, scope,
//! status words, notes, reasons) stay as they are, as the journal holds them. In English
//! the message is `describe`'s text byte for byte (`tests`).

use super::event::{Event, EventBody};
use super::status::StepStatus;
use crate::i18n::Msg;

/// `id` with the person's note as `$note`, or `id-bare` when they left it empty.
fn noted(
    msg: impl Fn(&'static str) -> Msg,
    id: &'static str,
    bare: &'static str,
    note: &str,
) -> Msg {
    if note.trim().is_empty() {
        msg(bare)
    } else {
        msg(id).arg("note", note)
    }
}

/// A one-line description of an event, as a message.
pub fn describe_msg(event: &Event) -> Msg {
    let e = &event.event;
    let item = e.item.as_ref().map(|i| format!(" {i}")).unwrap_or_default();
    let step = e.step.as_ref().map(|s| format!(" {s}")).unwrap_or_default();
    let at = format!("{item}{step}").trim_start().to_string();
    let on = |id: &'static str| Msg::new(id).arg("at", at.clone());
    match &e.body {
        EventBody::RunPlanned { title, .. } => {
            Msg::new("tl-ev-planned").arg("title", title.to_string())
        }
        EventBody::RunStatusChanged { status } => Msg::new("tl-ev-run-status")
            .arg("run", e.run.as_ref().map(|r| r.as_str()).unwrap_or(""))
            .arg("status", status.word()),
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff { to, .. },
        } => on("tl-ev-in-hands").arg("to", to.to_string()),
        EventBody::StepStatusChanged { status } => {
            on("tl-ev-step-status").arg("status", status.to_string())
        }
        EventBody::Intent { action, .. } => on("tl-ev-intent").arg("action", action.to_string()),
        EventBody::Outcome { intent, ok, .. } => on(if *ok {
            "tl-ev-outcome-ok"
        } else {
            "tl-ev-outcome-not-ok"
        })
        .arg(
            "call",
            e.step
                .as_ref()
                .and_then(|s| intent.step_purpose(s))
                .map_or_else(|| "outcome".into(), |p| p.replacen(':', " ", 1)),
        ),
        EventBody::Waiting { why } => on("tl-ev-waits").arg("why", why.to_string()),
        EventBody::NodeEventFailed { reason, error, .. } => on("tl-ev-node-event-failed")
            .arg("reason", reason.to_string())
            .arg("error", error.to_string()),
        EventBody::Paused { scope, reason } => Msg::new("tl-ev-paused")
            .arg("scope", scope.to_string())
            .arg("reason", reason.to_string()),
        EventBody::Resumed { scope, note } => noted(
            |id| Msg::new(id).arg("scope", scope.to_string()),
            "tl-ev-resumed-noted",
            "tl-ev-resumed",
            note,
        ),
        EventBody::GuardTripped { scope, reason, .. } => Msg::new("tl-ev-guard")
            .arg("scope", scope.to_string())
            .arg("reason", reason.to_string()),
        EventBody::WindowOverridden { until, reason } => Msg::new("tl-ev-window-overridden")
            .arg(
                "cluster",
                e.cluster.as_ref().map(|c| c.as_str()).unwrap_or("?"),
            )
            .arg("until", until.strftime("%Y-%m-%d %H:%M UTC").to_string())
            .arg("reason", reason.to_string()),
        EventBody::GitOpsIntent {
            action,
            object,
            reason,
            ..
        } => Msg::new("tl-ev-gitops-intent")
            .arg("action", action.to_string())
            .arg("kind", object["kind"].as_str().unwrap_or("?"))
            .arg("namespace", object["namespace"].as_str().unwrap_or("?"))
            .arg("name", object["name"].as_str().unwrap_or("?"))
            .arg("reason", reason.to_string()),
        EventBody::GitOpsOutcome { ok, detail, .. } => Msg::new(if *ok {
            "tl-ev-sync-changed"
        } else {
            "tl-ev-sync-not-changed"
        })
        .arg(
            "detail",
            detail
                .as_str()
                .map_or_else(|| detail.to_string(), str::to_owned),
        ),
        EventBody::HandedOff { to, note } => noted(
            |id| on(id).arg("to", to.to_string()),
            "tl-ev-handed-off-noted",
            "tl-ev-handed-off",
            note,
        ),
        EventBody::TakenOver { note } => {
            noted(on, "tl-ev-taken-over-noted", "tl-ev-taken-over", note)
        }
        EventBody::Returned { outcome, note } => noted(
            |id| on(id).arg("outcome", format!("{outcome:?}")),
            "tl-ev-returned-noted",
            "tl-ev-returned",
            note,
        ),
        EventBody::Aborted { note } => {
            noted(Msg::new, "tl-ev-aborted-noted", "tl-ev-aborted", note)
        }
        EventBody::CommandRefused { command, reason } => on(if at.is_empty() {
            "tl-ev-refused"
        } else {
            "tl-ev-refused-on"
        })
        .arg("command", command.to_string())
        .arg("reason", reason.to_string()),
        EventBody::Unreadable { kind, reason } => Msg::new("tl-ev-unreadable")
            .arg("kind", kind.to_string())
            .arg("reason", reason.to_string()),
        EventBody::Note { text } | EventBody::ExecutorNote { text } => on(if at.is_empty() {
            "tl-ev-note"
        } else {
            "tl-ev-note-on"
        })
        .arg("text", text.to_string()),
        EventBody::Acknowledged { title, note, .. } => noted(
            |id| Msg::new(id).arg("title", crate::model::text::one_line(title)),
            "tl-ev-acknowledged-noted",
            "tl-ev-acknowledged",
            note,
        ),
        EventBody::RolloutBatch { batch, phase } => Msg::new("tl-ev-batch")
            .arg("n", (batch + 1).to_string())
            .arg("phase", phase.word()),
        EventBody::ItemStaged { digest } => {
            on("tl-ev-staged").arg("digest", digest.short().to_string())
        }
        EventBody::ItemApplied { digest } => {
            on("tl-ev-applied").arg("digest", digest.short().to_string())
        }
        EventBody::ItemVerified { outcome } => {
            on("tl-ev-verified").arg("outcome", format!("{outcome:?}"))
        }
        EventBody::GateEvaluated { batch, halt: None } => {
            Msg::new("tl-ev-gate-passed").arg("n", (batch + 1).to_string())
        }
        EventBody::GateEvaluated {
            batch,
            halt: Some(why),
        } => Msg::new("tl-ev-gate-halt")
            .arg("n", (batch + 1).to_string())
            .arg("why", why.to_string()),
        EventBody::RolloutHalted { batch, why } => Msg::new("tl-ev-halted")
            .arg("n", (batch + 1).to_string())
            .arg("why", why.to_string()),
        EventBody::RunApproved { batch, note } => match batch {
            Some(b) => noted(
                |id| Msg::new(id).arg("n", (b + 1).to_string()),
                "tl-ev-approved-batch-noted",
                "tl-ev-approved-batch",
                note,
            ),
            None => noted(Msg::new, "tl-ev-approved-noted", "tl-ev-approved", note),
        },
        other => Msg::new("tl-ev-kind").arg("kind", other.to_parts().0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_event_of_the_fixture_journal_says_in_english_what_describe_writes() {
        let events = crate::fixtures::journal::journal_events();
        assert!(events.len() > 10);
        for e in &events {
            let msg = describe_msg(e);
            assert_eq!(msg.text(Lang::En), super::super::describe(e), "{}", msg.id);
            let zh = msg.text(Lang::ZhCn);
            assert!(!zh.contains('{'), "{zh}");
        }
    }
}
