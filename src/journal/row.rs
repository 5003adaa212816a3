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

pub(super) fn decode(row: RawRow) -> Result<Event, JournalError> {
    let payload: serde_json::Value =
        serde_json::from_str(&row.payload).map_err(|e| JournalError::Damaged {
            seq: row.seq,
            reason: format!("payload is not JSON: {e}"),
        })?;
    Ok(Event {
        seq: Sequence(row.seq),
        token: row.token.map(FencingToken),
        event: NewEvent {
            time: from_micros(row.time_us, row.seq)?,
            actor: Actor(row.actor),
            run: row.run.map(RunId),
            item: row.item.map(ItemId),
            step: row.step.map(StepName),
            cluster: row.cluster.map(ClusterId),
            key: IdempotencyKey(row.key),
            body: EventBody::from_parts(&row.kind, payload),
        },
    })
}
