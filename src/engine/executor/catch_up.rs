//! Catching up with the journal: every event appended since the last pass, ours and
//! everyone else's, folded into the projection, the rollout and shard logs, each item's
//! latest checkpoint, the outcomes a dead executor never folded and the operator commands
//! still to feed.

use super::super::checkpoint::Checkpoint;
use super::{EngineError, Executor};
use crate::journal::{EventQuery, JournalStore};
use crate::model::maintenance::{MaintenancePort, MaintenanceSpec, Observation};
use crate::model::run::{Event, EventBody, ReturnOutcome, RunStatus, RunView, Sequence};

/// An operator command waiting to be fed to one item's state machine.
pub(super) struct Pending {
    pub(super) seq: Sequence,
    pub(super) observation: Observation,
}

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// Folds events appended since the last pass (ours and everyone else's).
    pub(super) fn catch_up(&mut self) -> Result<(), EngineError> {
        // From the last event read, included: the journal must still hold it (see
        // `history`), or what was read since is gone.
        let query = EventQuery {
            after: self.projection.last_seq.map(|s| Sequence(s.0 - 1)),
            ..EventQuery::default()
        };
        let mut events: Vec<Event> = Vec::new();
        self.store.scan(&query, &mut |e| events.push(e))?;
        match self.projection.last_seq {
            Some(last) => {
                if !self.history.still_holds(last, events.first()) {
                    return self.journal_went_back();
                }
                events.remove(0);
            }
            // Read again from the start (the journal was away): what was read and written
            // before must still be there.
            None if !self.history.is_empty() => {
                let now = events
                    .iter()
                    .map(|e| (e.seq.0, e.event.key.clone()))
                    .collect();
                if !self.history.lost(&now).is_empty() {
                    return self.journal_went_back();
                }
                self.history.clear();
            }
            None => {}
        }
        let last_read = events.last().map(|e| e.seq).or(self.projection.last_seq);
        if events.iter().any(|e| !self.history.read(e)) || self.history.wrote_beyond(last_read) {
            return self.journal_went_back();
        }
        for event in &events {
            self.projection.apply(event);
            self.rollout_log.note(event);
            self.shard_log.note(event);
            let (Some(run), Some(item)) = (&event.event.run, &event.event.item) else {
                continue;
            };
            let key = (run.clone(), item.clone());
            if let Some(checkpoint) = Checkpoint::from_event(event) {
                self.checkpoints.insert(key.clone(), checkpoint);
                self.unfolded.remove(&key);
                continue;
            }
            if let EventBody::Outcome { detail, .. } = &event.event.body
                && let Ok(observation) = serde_json::from_value::<Observation>(detail.clone())
            {
                self.unfolded
                    .entry(key.clone())
                    .or_default()
                    .push(observation);
                continue;
            }
            let actor = event.event.actor.clone();
            let observation = match &event.event.body {
                EventBody::HandedOff { to, note } => Some(Observation::HandOff {
                    to: to.clone(),
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::TakenOver { note } => Some(Observation::TakeOver {
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::Returned { outcome, note } => Some(Observation::Return {
                    outcome: *outcome,
                    by: actor,
                    note: note.clone(),
                }),
                EventBody::Aborted { note } => Some(Observation::Return {
                    outcome: ReturnOutcome::Abort,
                    by: actor,
                    note: note.clone(),
                }),
                _ => None,
            };
            if let Some(observation) = observation {
                self.commands.entry(key).or_default().push(Pending {
                    seq: event.seq,
                    observation,
                });
            }
        }
        Ok(())
    }

    /// Maintenance runs still to drive (not succeeded, aborted or halted), with their
    /// specs. Finished runs and rollouts are passed over before anything is copied or
    /// decoded: a rollout's spec carries its manifests' text.
    pub(super) fn active_maintenance(&self) -> Vec<(RunView, MaintenanceSpec)> {
        self.projection
            .runs
            .values()
            .filter(|r| {
                !r.is_rollout()
                    && !matches!(
                        r.status,
                        RunStatus::Succeeded | RunStatus::Aborted | RunStatus::Halted { .. }
                    )
            })
            .filter_map(|r| {
                let spec: MaintenanceSpec = serde::Deserialize::deserialize(&r.spec).ok()?;
                // Another shard's executor drives maintenance on its clusters.
                self.options
                    .ownership
                    .owns(&spec.cluster)
                    .then(|| (r.clone(), spec))
            })
            .collect()
    }
}
