//! What the rollout executor reads from the journal, in order: which runs are rollouts
//! (with their spec and author), the observations fed to each run's reducer, and the
//! operator commands (approve, pause, resume, abort) not folded yet, and what each apply
//! reported.

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use serde::Deserialize;

use crate::model::rollout::{Observation, ReleaseDigest, RolloutRunSpec, apply_result};
use crate::model::run::{Actor, EventBody, IdempotencyKey, PauseScope, RunId, Sequence};

/// What catch-up keeps for rollout runs, read from every event in order.
#[derive(Default)]
pub(super) struct RolloutLog {
    /// Runs whose spec is a rollout, with it and its author.
    pub specs: BTreeMap<RunId, (RolloutRunSpec, Actor)>,
    /// Journaled observations per run: time, observation, folded command.
    pub observed: HashMap<RunId, Vec<(Timestamp, Observation, Option<Sequence>)>>,
    /// Operator commands per run, in order.
    pub commands: HashMap<RunId, Vec<(Sequence, Observation)>>,
    /// What each rollout apply reported, by its intent's key.
    pub apply_outcomes: HashMap<IdempotencyKey, Result<ReleaseDigest, String>>,
}

impl RolloutLog {
    /// Takes what matters to rollouts from one journal event.
    pub fn note(&mut self, event: &crate::model::run::Event) {
        let e = &event.event;
        let Some(run) = &e.run else {
            return;
        };
        if let EventBody::RunPlanned { spec, .. } = &e.body {
            if let Ok(spec) = RolloutRunSpec::deserialize(spec) {
                self.specs.insert(run.clone(), (spec, e.actor.clone()));
            }
            return;
        }
        if !self.specs.contains_key(run) {
            return;
        }
        if let EventBody::RolloutObserved {
            observation,
            command,
        } = &e.body
        {
            self.observed.entry(run.clone()).or_default().push((
                e.time,
                observation.clone(),
                command.map(Sequence),
            ));
            return;
        }
        if let EventBody::Outcome { intent, detail, .. } = &e.body {
            if let Some(result) = apply_result(detail) {
                self.apply_outcomes.insert(intent.clone(), result);
            }
            return;
        }
        if !e.key.is_command() {
            return;
        }
        let by = e.actor.clone();
        let observation = match &e.body {
            EventBody::RunApproved {
                batch: Some(batch),
                note,
            } => Observation::Approve {
                batch: *batch,
                by,
                note: note.clone(),
            },
            EventBody::Paused {
                scope: PauseScope::Run { .. },
                reason,
            } => Observation::Pause {
                by,
                reason: reason.clone(),
            },
            EventBody::Resumed {
                scope: PauseScope::Run { .. },
                note,
            } => Observation::Resume {
                by,
                note: note.clone(),
            },
            EventBody::Aborted { note } => Observation::Abort {
                by,
                note: note.clone(),
            },
            _ => return,
        };
        self.commands
            .entry(run.clone())
            .or_default()
            .push((event.seq, observation));
    }
}
