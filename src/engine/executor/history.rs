//! Whether the journal still holds what the executor read from it. A team journal on a
//! replicated database that fails over to a standby under asynchronous replication can
//! lose its last commits: the new primary numbers new events from where its copy ended,
//! so the sequence alone does not show it. The executor remembers the key of each event
//! it read lately; when the event it read last is no longer there under the same key, the
//! journal went back. What the lost events recorded may have happened on the clusters
//! (an apply, an eviction), so the executor stops first: it pauses the fleet the way the
//! mass-failure guard does (only a person resumes), saying which events are gone, and
//! reads the journal again from the start.

use std::collections::{BTreeMap, VecDeque};

use super::{EngineError, Executor};
use crate::journal::{EventQuery, JournalStore};
use crate::model::maintenance::MaintenancePort;
use crate::model::run::{
    Event, EventBody, IdempotencyKey, NewEvent, PauseScope, Sequence, describe,
};

/// Events remembered: more than any pass writes, so a lost tail is named whole.
const REMEMBERED: usize = 2000;

/// One event as remembered: its sequence, key and what it said.
type Seen = (Sequence, IdempotencyKey, String);

/// The latest events read, and the events this executor wrote that it has not read back
/// yet (the journal acknowledged them; a failover may still lose them).
#[derive(Default)]
pub(super) struct History {
    read: VecDeque<Seen>,
    written: BTreeMap<i64, Seen>,
}

fn seen(event: &Event) -> Seen {
    (
        event.seq,
        event.event.key.clone(),
        format!("#{} {}", event.seq.0, describe(event)),
    )
}

impl History {
    /// Remembers one event read; `false` when it is not the event this executor wrote
    /// under its sequence (the journal went back and numbered a new one there).
    pub(super) fn read(&mut self, event: &Event) -> bool {
        if let Some((_, key, _)) = self.written.get(&event.seq.0)
            && *key != event.event.key
        {
            return false;
        }
        self.written.remove(&event.seq.0);
        if self.read.len() == REMEMBERED {
            self.read.pop_front();
        }
        self.read.push_back(seen(event));
        true
    }

    /// Remembers events this executor wrote (as the journal acknowledged them).
    pub(super) fn wrote(&mut self, events: &[&Event]) {
        for event in events {
            if self.written.len() < REMEMBERED {
                self.written.insert(event.seq.0, seen(event));
            }
        }
    }

    /// Whether an event this executor wrote lies beyond `last`, the journal's last event
    /// as a catch-up to its end read it: then the journal lost it.
    pub(super) fn wrote_beyond(&self, last: Option<Sequence>) -> bool {
        self.written
            .keys()
            .next_back()
            .is_some_and(|seq| last.is_none_or(|last| *seq > last.0))
    }

    /// Whether `first`, the first event a catch-up from `last` found, is the event read
    /// last (same sequence, same key).
    pub(super) fn still_holds(&self, last: Sequence, first: Option<&Event>) -> bool {
        let Some(first) = first else {
            return false;
        };
        first.seq == last
            && self
                .read
                .back()
                .is_none_or(|(seq, key, _)| *seq != last || *key == first.event.key)
    }

    /// Whether anything is remembered.
    pub(super) fn is_empty(&self) -> bool {
        self.read.is_empty() && self.written.is_empty()
    }

    /// Forgets everything.
    pub(super) fn clear(&mut self) {
        self.read.clear();
        self.written.clear();
    }

    /// The events remembered that `now` (the journal's events from the oldest one
    /// remembered, by sequence) does not hold under the same key, oldest first.
    pub(super) fn lost(&self, now: &BTreeMap<i64, IdempotencyKey>) -> Vec<&Seen> {
        let mut lost: Vec<&Seen> = self
            .read
            .iter()
            .chain(self.written.values())
            .filter(|(seq, key, _)| now.get(&seq.0) != Some(key))
            .collect();
        lost.sort_by_key(|(seq, ..)| *seq);
        lost
    }

    fn oldest(&self) -> Option<Sequence> {
        let read = self.read.front().map(|(seq, ..)| *seq);
        let written = self.written.keys().next().map(|seq| Sequence(*seq));
        read.into_iter().chain(written).min()
    }
}

/// At most this many lost events are named in the pause's reason.
const NAMED: usize = 20;

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// The journal no longer holds events this executor read or wrote: pause the fleet,
    /// naming what is gone, and read the journal again.
    pub(super) fn journal_went_back(&mut self) -> Result<(), EngineError> {
        let mut now = BTreeMap::new();
        if let Some(oldest) = self.history.oldest() {
            let query = EventQuery {
                after: Some(Sequence(oldest.0 - 1)),
                ..EventQuery::default()
            };
            self.store.scan(&query, &mut |e| {
                now.insert(e.seq.0, e.event.key);
            })?;
        }
        let lost = self.history.lost(&now);
        let first = lost.first().map_or(0, |(seq, ..)| seq.0);
        let mut named: Vec<&str> = lost
            .iter()
            .take(NAMED)
            .map(|(.., said)| said.as_str())
            .collect();
        if lost.len() > NAMED {
            named.push("…");
        }
        let reason = format!(
            "the journal lost {} events from #{first} that this executor had read (a failover to a standby that had not received them, or a restore): what they recorded may have happened on the clusters; check them, then resume. Lost: {}",
            lost.len(),
            named.join("; ")
        );
        tracing::error!(%reason, "journal went back");
        self.notify(reason.clone());
        let at = self.now();
        let alarm = NewEvent::new(
            at,
            self.options.actor.clone(),
            IdempotencyKey(format!("journal-went-back/{first}/{}", at.as_nanosecond())),
            EventBody::GuardTripped {
                scope: PauseScope::Fleet,
                reason,
                not_ready: Vec::new(),
                total: 0,
            },
        );
        // What it decided on the lost history but never did is not written; what it did
        // (an outcome still pending) is, after the pause.
        self.forget_reading();
        self.history.clear();
        self.alarms.push(alarm.clone());
        self.commit(vec![alarm])?;
        self.alarms.clear();
        self.catch_up()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::{Actor, EventBody, NewEvent};

    fn event(seq: i64, key: &str) -> Event {
        Event {
            seq: Sequence(seq),
            token: None,
            event: NewEvent::new(
                jiff::Timestamp::from_second(1_750_000_000 + seq).unwrap_or_default(),
                Actor("executor/a".into()),
                IdempotencyKey(key.into()),
                EventBody::ExecutorNote {
                    text: format!("note {seq}"),
                },
            ),
        }
    }

    #[test]
    fn what_was_read_or_written_and_is_gone_is_named_in_order() {
        let mut h = History::default();
        for (seq, key) in [(1, "a"), (2, "b"), (3, "c")] {
            assert!(h.read(&event(seq, key)));
        }
        let (four, five) = (event(4, "mine-4"), event(5, "mine-5"));
        h.wrote(&[&four, &five]);
        assert!(h.still_holds(Sequence(3), Some(&event(3, "c"))));
        assert!(!h.still_holds(Sequence(3), Some(&event(3, "other"))));
        assert!(
            !h.still_holds(Sequence(3), None),
            "the journal ends before it"
        );
        // Read back as written: fine. Another event under the same number: gone.
        assert!(h.read(&event(4, "mine-4")));
        assert!(!h.read(&event(5, "someone-else")));
        assert!(
            h.wrote_beyond(Some(Sequence(4))),
            "#5 was acknowledged, not read"
        );
        // The journal now: #1, #2 as they were, then a new history.
        let now: BTreeMap<i64, IdempotencyKey> = [(1, "a"), (2, "b"), (3, "x")]
            .into_iter()
            .map(|(s, k)| (s, IdempotencyKey(k.into())))
            .collect();
        let lost: Vec<i64> = h.lost(&now).iter().map(|(s, ..)| s.0).collect();
        assert_eq!(lost, [3, 4, 5]);
        assert!(h.lost(&now)[0].2.starts_with("#3 "), "said as read");
    }
}
