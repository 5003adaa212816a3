//! What the rollout executor reads from the journal, in order: which runs are rollouts
//! (with their spec and author), the observations fed to each run's reducer, and the
//! operator commands (approve, pause, resume, abort) not folded yet, and what each apply
//! reported.

use std::collections::{BTreeMap, HashMap, HashSet};

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
    /// Every run planned (a rollout or not): a run has one plan, the first.
    planned: HashSet<RunId>,
    /// Journaled observations not replayed, with why: a person's decision (an approval, a
    /// pause, a resume, an abort) that no command of that person in the journal backs.
    /// Said in the journal by the executor, once each.
    pub unbacked: Vec<(RunId, Sequence, String)>,
}

/// Why `observation`, journaled for `run` as folding `command`, is not a decision the
/// journal holds from the person it names; `None` when it is one (or no person's
/// decision at all).
fn unbacked(
    commands: Option<&Vec<(Sequence, Observation)>>,
    observation: &Observation,
    command: Option<i64>,
) -> Option<String> {
    let by = match observation {
        Observation::Approve { by, .. }
        | Observation::Pause { by, .. }
        | Observation::Resume { by, .. }
        | Observation::Abort { by, .. } => by,
        _ => return None,
    };
    let backed = command.is_some_and(|seq| {
        commands
            .into_iter()
            .flatten()
            .any(|(s, given)| s.0 == seq && given == observation)
    });
    (!backed).then(|| {
        format!(
            "a decision of {by} that no command of theirs in the journal backs (the command it names: {}); not replayed",
            command.map_or_else(|| "none".to_string(), |c| format!("event {c}"))
        )
    })
}

impl RolloutLog {
    /// Takes what matters to rollouts from one journal event.
    pub fn note(&mut self, event: &crate::model::run::Event) {
        let e = &event.event;
        let Some(run) = &e.run else {
            return;
        };
        if let EventBody::RunPlanned { spec, .. } = &e.body {
            // One plan per run, the first: the one the database checked and every reader
            // reads. A later one (written before that rule) changes nothing.
            if !self.planned.insert(run.clone()) {
                return;
            }
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
            // A person's decision counts only as the person gave it: an observation that
            // names one without their command (written without the lease, or by hand) is
            // not replayed into the run.
            if let Some(why) = unbacked(self.commands.get(run), observation, *command) {
                tracing::warn!(%run, seq = event.seq.0, %why, "journaled observation not replayed");
                self.unbacked.push((run.clone(), event.seq, why));
                return;
            }
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
