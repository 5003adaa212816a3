//! `fleetdeck journal copy`: moves a journal to another store (SQLite to PostgreSQL when a
//! team starts sharing, or back), event for event with their sequences, actors and times.
//! Re-running it copies only what the destination lacks; it refuses a destination that
//! holds other events, and checks counts and the last sequence at the end.

use serde::Serialize;

use super::{AnyJournal, EventQuery, JournalError, JournalStore};
use crate::model::run::Event;

/// Events per transaction.
const BATCH: usize = 1000;

/// What a copy did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyReport {
    /// Events in the source.
    pub source_events: u64,
    /// Its last sequence (0 when empty).
    pub source_last: i64,
    /// Events the destination had before.
    pub already_there: u64,
    /// Events copied now.
    pub copied: u64,
    /// Events in the destination after.
    pub destination_events: u64,
    /// Its last sequence after.
    pub destination_last: i64,
}

fn count_and_last(j: &AnyJournal) -> Result<(u64, i64, Option<Event>), JournalError> {
    let mut count = 0u64;
    let mut last: Option<Event> = None;
    j.scan(&EventQuery::default(), &mut |e| {
        count += 1;
        last = Some(e);
    })?;
    Ok((count, last.as_ref().map_or(0, |e| e.seq.0), last))
}

/// Copies every event of `from` that `to` lacks.
pub fn copy(from: &AnyJournal, to: &mut AnyJournal) -> Result<CopyReport, JournalError> {
    let (already_there, to_last, to_last_event) = count_and_last(to)?;
    if let Some(theirs) = &to_last_event {
        let ours = from.query(&EventQuery {
            after: Some(crate::model::run::Sequence(theirs.seq.0 - 1)),
            limit: Some(1),
            ..EventQuery::default()
        })?;
        let same = ours
            .first()
            .is_some_and(|e| e.seq == theirs.seq && e.event.key == theirs.event.key);
        if !same {
            return Err(JournalError::Invalid(format!(
                "the destination holds other events (its event {} is not the source's): \
                 copy into an empty journal",
                theirs.seq.0
            )));
        }
    }
    let mut copied = 0u64;
    let mut batch: Vec<Event> = Vec::with_capacity(BATCH);
    let mut failed: Option<JournalError> = None;
    from.scan(
        &EventQuery {
            after: (to_last > 0).then_some(crate::model::run::Sequence(to_last)),
            ..EventQuery::default()
        },
        &mut |e| {
            if failed.is_some() {
                return;
            }
            batch.push(e);
            if batch.len() == BATCH {
                match to.import(std::mem::take(&mut batch)) {
                    Ok(n) => copied += n,
                    Err(e) => failed = Some(e),
                }
            }
        },
    )?;
    if let Some(e) = failed {
        return Err(e);
    }
    if !batch.is_empty() {
        copied += to.import(batch)?;
    }
    let (source_events, source_last, _) = count_and_last(from)?;
    let (destination_events, destination_last, _) = count_and_last(to)?;
    if source_events != destination_events || source_last != destination_last {
        return Err(JournalError::Invalid(format!(
            "copy check failed: the source has {source_events} events up to {source_last}, \
             the destination {destination_events} up to {destination_last}"
        )));
    }
    Ok(CopyReport {
        source_events,
        source_last,
        already_there,
        copied,
        destination_events,
        destination_last,
    })
}
