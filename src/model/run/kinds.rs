//! The kinds of journal events, as filters name them (`fleetdeck journal --kind`): the
//! `kind` column of every event this version writes.

/// Every event kind this version writes, in the order [`super::EventBody`] declares them.
pub const EVENT_KINDS: &[&str] = &[
    "run.planned",
    "run.approved",
    "run.status",
    "step.status",
    "step.intent",
    "step.outcome",
    "step.observed",
    "step.waiting",
    "step.nodeEventFailed",
    "operator.pause",
    "operator.resume",
    "operator.handoff",
    "operator.takeover",
    "operator.return",
    "operator.abort",
    "operator.note",
    "executor.note",
    "operator.acknowledge",
    "operator.refused",
    "operator.windowOverride",
    "guard.tripped",
    "lease.acquired",
    "rollout.batch",
    "rollout.staged",
    "rollout.applied",
    "rollout.verified",
    "rollout.gate",
    "rollout.halted",
    "rollout.observed",
    "gitops.intent",
    "gitops.outcome",
    "rollout.dispatched",
    "rollout.claimed",
    "rollout.answered",
];

/// A kind filter that names no kind this version writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown event kind {text:?}{hint}; known kinds: {known} (a group: {groups})", known = EVENT_KINDS.join(", "), groups = group_patterns().join(", "))]
pub struct UnknownKind {
    /// The filter as written.
    pub text: String,
    /// ` (did you mean …?)`, or nothing.
    hint: String,
}

/// The kinds `pattern` selects: one kind (`operator.pause`) or every kind of a group
/// (`operator.*`). Anything else is an [`UnknownKind`], with the closest match.
pub fn kinds_matching(pattern: &str) -> Result<Vec<&'static str>, UnknownKind> {
    let pattern = pattern.trim();
    if let Some(kind) = EVENT_KINDS.iter().find(|k| **k == pattern) {
        return Ok(vec![kind]);
    }
    if let Some(group) = pattern.strip_suffix(".*") {
        let kinds: Vec<&'static str> = EVENT_KINDS
            .iter()
            .copied()
            .filter(|k| group_of(k) == group)
            .collect();
        if !kinds.is_empty() {
            return Ok(kinds);
        }
    }
    let groups = group_patterns();
    let hint = if groups.iter().any(|g| g.strip_suffix(".*") == Some(pattern)) {
        Some(format!("{pattern}.*"))
    } else {
        crate::yaml::suggest(
            pattern,
            EVENT_KINDS
                .iter()
                .copied()
                .chain(groups.iter().map(String::as_str)),
        )
        .map(str::to_string)
    };
    Err(UnknownKind {
        text: pattern.to_string(),
        hint: hint
            .map(|h| format!(" (did you mean {h}?)"))
            .unwrap_or_default(),
    })
}

/// `operator` for `operator.pause`.
fn group_of(kind: &str) -> &str {
    kind.split_once('.').map_or(kind, |(group, _)| group)
}

/// `run.*`, `step.*`, … in declaration order.
fn group_patterns() -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for kind in EVENT_KINDS {
        let pattern = format!("{}.*", group_of(kind));
        if !groups.contains(&pattern) {
            groups.push(pattern);
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::EventBody;
    use serde::Deserialize;

    #[test]
    fn the_list_is_every_kind_the_events_serialise_as() {
        // serde names every variant it knows when it meets one it does not.
        let unknown = serde_json::json!({"kind": "no.such", "payload": null});
        let error = EventBody::deserialize(&unknown).unwrap_err().to_string();
        let (_, expected) = error.split_once("expected one of ").expect(&error);
        let serde_kinds: Vec<&str> = expected.split(", ").map(|k| k.trim_matches('`')).collect();
        assert_eq!(serde_kinds, EVENT_KINDS);
    }

    #[test]
    fn a_kind_or_a_group_selects_and_anything_else_names_the_known_kinds() {
        assert_eq!(kinds_matching("operator.pause"), Ok(vec!["operator.pause"]));
        assert_eq!(
            kinds_matching("guard.*"),
            Ok(vec!["guard.tripped"]),
            "a group selects its kinds"
        );
        assert_eq!(kinds_matching("operator.*").map(|k| k.len()), Ok(10));
        let error = kinds_matching("operator").unwrap_err().to_string();
        assert!(
            error.starts_with(
                "unknown event kind \"operator\" (did you mean operator.*?); known kinds: run.planned, run.approved,"
            ),
            "{error}"
        );
        assert!(error.contains("operator.refused"), "{error}");
        assert!(
            error.ends_with(
                "(a group: run.*, step.*, operator.*, executor.*, guard.*, lease.*, rollout.*, gitops.*)"
            ),
            "{error}"
        );
        let error = kinds_matching("operator.pasue").unwrap_err().to_string();
        assert!(error.contains("(did you mean operator.pause?)"), "{error}");
        let error = kinds_matching("bogus").unwrap_err().to_string();
        assert!(
            error.starts_with("unknown event kind \"bogus\"; known kinds: "),
            "{error}"
        );
        assert!(kinds_matching("nothing.*").is_err());
    }
}
