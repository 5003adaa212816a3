//! An event row as both backends store it, and its checked decoding into an [`Event`].

use jiff::Timestamp;

use super::JournalError;
use crate::model::ledger::ClusterId;
use crate::model::run::{
    Actor, Event, EventBody, FencingToken, IdempotencyKey, ItemId, NewEvent, RunId, Sequence,
    StepName,
};

/// A time as the journal stores it: microseconds since the Unix epoch.
pub(super) fn micros(t: Timestamp) -> i64 {
    t.as_microsecond()
}

/// A stored time read back; a value out of range is damage in event `seq`.
pub(super) fn from_micros(us: i64, seq: i64) -> Result<Timestamp, JournalError> {
    Timestamp::from_microsecond(us).map_err(|e| JournalError::Damaged {
        seq,
        reason: format!("bad time {us}: {e}"),
    })
}

/// A row as stored, before its JSON and time are checked.
pub(super) struct RawRow {
    pub seq: i64,
    pub time_us: i64,
    pub actor: String,
    pub kind: String,
    pub run: Option<String>,
    pub item: Option<String>,
    pub step: Option<String>,
    pub cluster: Option<String>,
    pub payload: String,
    pub key: String,
    pub token: Option<i64>,
}

/// The event a stored row holds. Never fails: a row whose payload is not JSON this
/// version can parse, whose payload does not fit its kind, or whose time is out of range
/// is read as [`EventBody::Unreadable`] (saying why, and remembered by
/// [`super::door`]), so one bad row never stops a reader.
pub(super) fn decode(row: RawRow) -> Event {
    let time = from_micros(row.time_us, row.seq);
    let body = match (
        serde_json::from_str::<serde_json::Value>(&row.payload),
        &time,
    ) {
        (Err(e), _) => EventBody::Unreadable {
            kind: row.kind.clone(),
            reason: format!("its payload is not JSON this version can read: {e}"),
        },
        (Ok(_), Err(_)) => EventBody::Unreadable {
            kind: row.kind.clone(),
            reason: format!("its time ({} µs since 1970) is out of range", row.time_us),
        },
        (Ok(payload), Ok(_)) => EventBody::from_parts(&row.kind, payload),
    };
    if let EventBody::Unreadable { kind, reason } = &body {
        super::door::note_unreadable(row.seq, kind, reason);
    }
    Event {
        seq: Sequence(row.seq),
        token: row.token.map(FencingToken),
        event: NewEvent {
            time: time.unwrap_or_default(),
            actor: Actor(row.actor),
            run: row.run.map(RunId),
            item: row.item.map(ItemId),
            step: row.step.map(StepName),
            cluster: row.cluster.map(ClusterId::from),
            key: IdempotencyKey(row.key),
            body,
        },
    }
}
