//! The checks every store makes at the door, before an event goes in, and the record of
//! the rows that came out unreadable.
//!
//! In: an event of a kind the executor writes carries a fence; its payload is one every
//! reader can parse and, for a known kind, has the kind's shape (`model::run::payload`);
//! a plan names its run; its time is one a reader can hold. PostgreSQL checks the same
//! again in the database (raw SQL gets no further); SQLite relies on these.
//!
//! Out: a row that still cannot be read (written before these checks, or by hand) is
//! read as [`EventBody::Unreadable`]: every reader skips it and goes on. Each one met is
//! also remembered here, so that a command says at its end which rows it skipped.

use std::sync::Mutex;

use crate::journal::{Fence, JournalError};
use crate::model::run::payload::{MAX_PAYLOAD_BYTES, payload_problem};
use crate::model::run::writers::needs_fence;
use crate::model::run::{EventBody, NewEvent};

/// The latest time an event may carry (the end of year 9999), in microseconds.
pub(super) const MAX_TIME_US: i64 = 253_402_300_799_999_999;

/// An event about to be stored: its `kind` column and payload text, once it passed.
pub(super) struct Admitted {
    pub kind: String,
    pub payload: String,
}

/// Checks `event` (written under `fence`, if any) as every store does before storing it.
pub(super) fn admit(event: &NewEvent, fence: Option<&Fence>) -> Result<Admitted, JournalError> {
    if let EventBody::Unreadable { kind, .. } = &event.body {
        return Err(JournalError::Invalid(format!(
            "an unreadable {kind} event cannot be written back"
        )));
    }
    let (kind, payload) = event.body.to_parts();
    let refuse = |reason: String| JournalError::BadPayload {
        kind: kind.clone(),
        reason,
    };
    if let Some(reason) = payload_problem(&kind, &payload) {
        return Err(refuse(reason));
    }
    let text = serde_json::to_string(&payload)
        .map_err(|e| JournalError::Invalid(format!("payload cannot be written: {e}")))?;
    if text.len() > MAX_PAYLOAD_BYTES {
        return Err(refuse("it is larger than 32 MiB".into()));
    }
    if text.contains("\\u0000") && payload_holds_nul(&payload) {
        return Err(refuse("it holds a NUL character".into()));
    }
    let time = event.time.as_microsecond();
    if !(0..=MAX_TIME_US).contains(&time) {
        return Err(refuse(format!(
            "its time {} is before 1970 or after 9999",
            event.time
        )));
    }
    if kind == "run.planned" && event.run.is_none() {
        return Err(refuse("a plan names the run it plans".into()));
    }
    if needs_fence(&kind) && fence.is_none() {
        return Err(JournalError::Unfenced { kind });
    }
    Ok(Admitted {
        kind,
        payload: text,
    })
}

/// Whether any string (or key) in `value` holds a NUL character, which PostgreSQL's JSON
/// cannot hold.
fn payload_holds_nul(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().any(payload_holds_nul),
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k.contains('\0') || payload_holds_nul(v)),
        _ => false,
    }
}

/// A row this process read but could not use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableRow {
    /// Its sequence.
    pub seq: i64,
    /// Its kind as stored.
    pub kind: String,
    /// What is wrong with it.
    pub reason: String,
}

static UNREADABLE: Mutex<Vec<UnreadableRow>> = Mutex::new(Vec::new());

/// Remembers (once) and logs a row that was read as unreadable.
pub(super) fn note_unreadable(seq: i64, kind: &str, reason: &str) {
    let mut rows = UNREADABLE.lock().unwrap_or_else(|e| e.into_inner());
    if rows.iter().any(|r| r.seq == seq && r.kind == kind) {
        return;
    }
    tracing::warn!(seq, kind, reason, "journal event cannot be read; skipped");
    rows.push(UnreadableRow {
        seq,
        kind: kind.to_string(),
        reason: reason.to_string(),
    });
}

/// Every unreadable row this process has read so far (each once, in the order met).
pub fn unreadable_rows() -> Vec<UnreadableRow> {
    UNREADABLE.lock().unwrap_or_else(|e| e.into_inner()).clone()
}
