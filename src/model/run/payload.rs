//! What a journal event's payload must look like before a store takes it: JSON every
//! reader can parse (no number beyond ±10^18, nothing nested 64 levels deep) and, for a
//! kind this version knows, an object with the kind's keys, each of the right JSON type.
//! A payload that passes cannot stop a reader; one that still does not fit its kind in
//! depth (an older or hand-written row) is read as [`super::EventBody::Unreadable`] and
//! skipped loudly.
//!
//! The PostgreSQL journal checks the same rules in the database
//! (`fleetdeck.payload_problem`, with [`SHAPES`] as its `fleetdeck.payload_shapes`
//! table; a test holds the two equal), so raw SQL is held to them too.

use serde_json::Value;

/// Numbers at or beyond this magnitude are refused: nothing fleetdeck writes comes near
/// it, and every reader (and every integer type it decodes into) handles what is below.
pub const MAX_NUMBER: f64 = 1e18;

/// [`MAX_NUMBER`] as an integer.
const MAX_INTEGER: u64 = 1_000_000_000_000_000_000;

/// Values nested this deep (the payload itself is level 0) are refused; parsers give up
/// at 128.
pub const MAX_DEPTH: usize = 64;

/// The largest payload a store takes, in bytes of JSON text (a rollout's plan carries its
/// manifests' text).
pub const MAX_PAYLOAD_BYTES: usize = 32 * 1024 * 1024;

/// Every known kind's top-level keys: `(kind, key, JSON types separated by |, required)`.
/// `any` takes every type. Keys a kind may have under an older name (`not_ready`) are not
/// required under either; the reader decides. Sorted by kind, then key.
pub const SHAPES: &[(&str, &str, &str, bool)] = &[
    ("executor.note", "text", "string", true),
    ("gitops.intent", "action", "string", true),
    ("gitops.intent", "object", "any", true),
    ("gitops.intent", "previous", "any", true),
    ("gitops.intent", "reason", "string", true),
    ("gitops.outcome", "detail", "any", true),
    ("gitops.outcome", "intent", "string", true),
    ("gitops.outcome", "ok", "boolean", true),
    ("guard.tripped", "notReady", "array", false),
    ("guard.tripped", "not_ready", "array", false),
    ("guard.tripped", "reason", "string", true),
    ("guard.tripped", "scope", "object", true),
    ("guard.tripped", "total", "number", true),
    ("lease.acquired", "scope", "string", true),
    ("lease.acquired", "token", "number", true),
    ("operator.abort", "note", "string", true),
    ("operator.acknowledge", "extent", "array", true),
    ("operator.acknowledge", "note", "string", true),
    ("operator.acknowledge", "problem", "string", true),
    ("operator.acknowledge", "title", "string", true),
    ("operator.handoff", "note", "string", true),
    ("operator.handoff", "to", "string", true),
    ("operator.note", "text", "string", true),
    ("operator.pause", "reason", "string", true),
    ("operator.pause", "scope", "object", true),
    ("operator.refused", "command", "string", true),
    ("operator.refused", "reason", "string", true),
    ("operator.resume", "note", "string", true),
    ("operator.resume", "scope", "object", true),
    ("operator.return", "note", "string", true),
    ("operator.return", "outcome", "string", true),
    ("operator.takeover", "note", "string", true),
    ("operator.windowOverride", "reason", "string", true),
    ("operator.windowOverride", "until", "string", true),
    ("rollout.answered", "answer", "object", true),
    ("rollout.answered", "request", "string", true),
    ("rollout.applied", "digest", "string", true),
    ("rollout.batch", "batch", "number", true),
    ("rollout.batch", "phase", "object", true),
    ("rollout.claimed", "request", "string", true),
    ("rollout.claimed", "withdrawn", "boolean", true),
    ("rollout.dispatched", "call", "string", true),
    ("rollout.dispatched", "intent", "string|null", true),
    ("rollout.gate", "batch", "number", true),
    ("rollout.gate", "halt", "object|null", true),
    ("rollout.halted", "batch", "number", true),
    ("rollout.halted", "why", "object", true),
    ("rollout.observed", "command", "number|null", true),
    ("rollout.observed", "observation", "any", true),
    ("rollout.staged", "digest", "string", true),
    ("rollout.verified", "outcome", "object", true),
    ("run.approved", "batch", "number|null", true),
    ("run.approved", "note", "string", true),
    ("run.planned", "batches", "array", true),
    ("run.planned", "items", "array", true),
    ("run.planned", "spec", "any", true),
    ("run.planned", "title", "string", true),
    ("run.status", "status", "object", true),
    ("step.intent", "action", "string", true),
    ("step.intent", "detail", "any", true),
    ("step.intent", "identity", "string", false),
    ("step.nodeEventFailed", "error", "string", true),
    ("step.nodeEventFailed", "message", "string", true),
    ("step.nodeEventFailed", "reason", "string", true),
    ("step.observed", "observation", "any", true),
    ("step.outcome", "detail", "any", true),
    ("step.outcome", "intent", "string", true),
    ("step.outcome", "ok", "boolean", true),
    ("step.status", "status", "object", true),
    ("step.waiting", "why", "string", true),
];

/// The JSON type of `value` as PostgreSQL's `jsonb_typeof` names it.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Why a payload of `kind` must not be stored, or `None` when it may. The same rules,
/// in the same order, as the database's `fleetdeck.payload_problem`.
pub fn payload_problem(kind: &str, payload: &Value) -> Option<String> {
    let shapes: Vec<&(&str, &str, &str, bool)> =
        SHAPES.iter().filter(|(k, ..)| *k == kind).collect();
    if !shapes.is_empty() && !payload.is_object() {
        return Some(format!(
            "it is {}, not an object",
            a_type(json_type(payload))
        ));
    }
    if beyond_range(payload) {
        return Some("it holds a number beyond ±10^18".to_string());
    }
    if too_deep(payload, 0) {
        return Some(format!("it is nested {MAX_DEPTH} levels deep or more"));
    }
    for (_, key, types, required) in shapes {
        match payload.get(key) {
            None if *required => return Some(format!("it has no {key:?}")),
            None => {}
            Some(value) => {
                let found = json_type(value);
                if *types != "any" && !types.split('|').any(|t| t == found) {
                    return Some(format!(
                        "its {key:?} is {}, not {}",
                        a_type(found),
                        types.replace('|', " or ")
                    ));
                }
            }
        }
    }
    None
}

/// `a string`, `an object`, … (as the database says it too).
fn a_type(json_type: &str) -> String {
    match json_type {
        "array" | "object" => format!("an {json_type}"),
        other => format!("a {other}"),
    }
}

fn beyond_range(value: &Value) -> bool {
    match value {
        // Integers exactly (as the database compares), others as floating point.
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.unsigned_abs() >= MAX_INTEGER,
            (None, Some(u), _) => u >= MAX_INTEGER,
            (None, None, Some(x)) => x.is_nan() || x.abs() >= MAX_NUMBER,
            (None, None, None) => true,
        },
        Value::Array(items) => items.iter().any(beyond_range),
        Value::Object(map) => map.values().any(beyond_range),
        _ => false,
    }
}

/// Whether anything inside `value` (itself at `depth`) sits at [`MAX_DEPTH`] or deeper.
fn too_deep(value: &Value, depth: usize) -> bool {
    if depth >= MAX_DEPTH {
        return true;
    }
    match value {
        Value::Array(items) => items.iter().any(|v| too_deep(v, depth + 1)),
        Value::Object(map) => map.values().any(|v| too_deep(v, depth + 1)),
        _ => false,
    }
}

#[cfg(test)]
#[path = "payload_tests.rs"]
mod tests;

#[cfg(test)]
pub(crate) use tests::one_of_each;
