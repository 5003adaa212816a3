//! Operator commands (approve, pause, resume, hand off, take over, return, abort, note)
//! and the pure decision of which journal event each one becomes, checked against the
//! current projection. The CLI and the console both go through here, so a command means
//! the same thing wherever it is typed.

use super::event::{EventBody, NewEvent, PauseScope, ReturnOutcome};
use super::ids::{Actor, ItemId, RunId};
use super::keys::IdempotencyKey;
use super::projection::{Projection, RunView};
use super::refusal::CommandRefusal;
use super::status::{RunStatus, StepStatus};
use crate::model::handover::{Extent, ProblemKey};
use crate::model::ledger::ClusterId;
use crate::model::rollout::{BatchPhase, check_approval, rollout_of};
use jiff::Timestamp;

/// One thing an operator asks of the automation. Every variant is written to the journal
/// as one event carrying the operator as its actor.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorCommand {
    /// Set a pause switch: no new step starts under it; nothing is undone.
    Pause {
        /// What to pause.
        scope: PauseScope,
        /// Why (shown wherever the pause is).
        reason: String,
    },
    /// Clear a pause switch.
    Resume {
        /// What to resume.
        scope: PauseScope,
        /// Why it is safe to go on.
        note: String,
    },
    /// Give an item (at its current step) to a person.
    HandOff {
        /// The run.
        run: RunId,
        /// The item.
        item: ItemId,
        /// Who gets it.
        to: Actor,
        /// What they need to know.
        note: String,
    },
    /// Claim an item for oneself.
    TakeOver {
        /// The run.
        run: RunId,
        /// The item.
        item: ItemId,
        /// Why.
        note: String,
    },
    /// Give an item back to the engine with an outcome.
    Return {
        /// The run.
        run: RunId,
        /// The item.
        item: ItemId,
        /// How the engine continues.
        outcome: ReturnOutcome,
        /// What the person did.
        note: String,
    },
    /// Stop a run for good; nothing already done is undone.
    Abort {
        /// The run.
        run: RunId,
        /// Why.
        note: String,
    },
    /// Approve a rollout's batch (the one awaiting approval when none is named).
    Approve {
        /// The run.
        run: RunId,
        /// The batch index (from 0), or the one awaiting approval.
        batch: Option<usize>,
        /// Why, for the audit trail.
        note: String,
    },
    /// A free-text note for the timeline and the shift handover.
    Note {
        /// The run it is about, if any.
        run: Option<RunId>,
        /// The item it is about, if any.
        item: Option<ItemId>,
        /// The cluster it is about, if any.
        cluster: Option<ClusterId>,
        /// The note.
        text: String,
    },
    /// Acknowledge a shift handover item as it stands now: it stays acknowledged until
    /// the problem gets worse or another one appears.
    Acknowledge {
        /// What the item is about.
        problem: ProblemKey,
        /// The item's title, as read.
        title: String,
        /// How the problem stands now.
        extent: Extent,
        /// The run it is about, if any.
        run: Option<RunId>,
        /// The item it is about, if any.
        item: Option<ItemId>,
        /// The cluster it is about, if any.
        cluster: Option<ClusterId>,
        /// What the person says about it.
        note: String,
    },
}

/// ` (note: …)`, or nothing for an empty note.
fn noted(note: &str) -> String {
    if note.trim().is_empty() {
        String::new()
    } else {
        format!(" (note: {note})")
    }
}

impl OperatorCommand {
    /// A short verb for messages and idempotency keys (`approve`, `handoff`, …).
    pub fn verb(&self) -> &'static str {
        match self {
            OperatorCommand::Pause { .. } => "pause",
            OperatorCommand::Resume { .. } => "resume",
            OperatorCommand::HandOff { .. } => "handoff",
            OperatorCommand::TakeOver { .. } => "takeover",
            OperatorCommand::Return { .. } => "return",
            OperatorCommand::Abort { .. } => "abort",
            OperatorCommand::Approve { .. } => "approve",
            OperatorCommand::Note { .. } => "note",
            OperatorCommand::Acknowledge { .. } => "acknowledge",
        }
    }

    /// What the command will do, in one sentence (dialogs show it before confirming).
    pub fn describe(&self) -> String {
        match self {
            OperatorCommand::Pause { scope, reason } => format!(
                "pause {scope}: no new step starts there until someone resumes; steps in flight finish and nothing is undone (reason: {reason})"
            ),
            OperatorCommand::Resume { scope, note } => {
                format!(
                    "resume {scope}: automation starts new steps there again{}",
                    noted(note)
                )
            }
            OperatorCommand::HandOff {
                run,
                item,
                to,
                note,
            } => format!(
                "hand {item} of {run} to {to}: the engine leaves it alone until it is returned{}",
                noted(note)
            ),
            OperatorCommand::TakeOver { run, item, note } => format!(
                "take over {item} of {run}: it becomes yours and the engine leaves it alone until you return it{}",
                noted(note)
            ),
            OperatorCommand::Return {
                run,
                item,
                outcome,
                note,
            } => {
                let what = match outcome {
                    ReturnOutcome::Done => "the step counts as done and the engine goes on",
                    ReturnOutcome::Retry => "the engine retries the step with a fresh deadline",
                    ReturnOutcome::Abort => "the node stops here; nothing is undone",
                };
                format!(
                    "return {item} of {run} ({outcome:?}): {what}{}",
                    noted(note)
                )
            }
            OperatorCommand::Abort { run, note } => format!(
                "abort {run}: no new step of it ever starts; nothing already done is undone{}",
                noted(note)
            ),
            OperatorCommand::Approve { run, batch, note } => match batch {
                Some(b) => format!(
                    "approve batch {} of {run}: its clusters start, unless a pause holds the run{}",
                    b + 1,
                    noted(note)
                ),
                None => {
                    format!(
                        "approve the waiting batch of {run}: its clusters start, unless a pause holds the run{}",
                        noted(note)
                    )
                }
            },
            OperatorCommand::Note { text, .. } => format!("journal the note: {text}"),
            OperatorCommand::Acknowledge {
                title,
                extent,
                note,
                ..
            } => {
                let stands = if extent.0.is_empty() {
                    String::new()
                } else {
                    format!(" as it stands ({})", extent.summary())
                };
                format!(
                    "acknowledge \"{}\"{stands}: it stays acknowledged for everyone until it \
                     gets worse or another problem appears there{}",
                    crate::model::text::one_line(title),
                    noted(note)
                )
            }
        }
    }
}

pub(super) fn run_of<'p>(
    projection: &'p Projection,
    run: &RunId,
) -> Result<&'p RunView, CommandRefusal> {
    projection
        .runs
        .get(run)
        .ok_or_else(|| CommandRefusal::NoRun(run.clone()))
}

/// A pause or resume of one run needs the run to be in the journal (a mistyped id would
/// otherwise be journaled and stop nothing).
fn known_run(projection: &Projection, scope: &PauseScope) -> Result<(), CommandRefusal> {
    match scope {
        PauseScope::Run { run } => run_of(projection, run).map(drop),
        _ => Ok(()),
    }
}

fn has_item(view: &RunView, item: &ItemId) -> bool {
    view.items.contains_key(item) || view.order.contains(item)
}

/// The batch an approval is for and the phase it stands at.
pub fn approval_target(
    view: &RunView,
    batch: Option<usize>,
) -> Result<(usize, BatchPhase), CommandRefusal> {
    let index = match batch {
        Some(b) => b,
        None => view
            .rollout
            .batches
            .iter()
            .find(|(_, p)| **p == BatchPhase::AwaitingApproval)
            .map(|(b, _)| *b)
            .ok_or_else(|| CommandRefusal::NothingToApprove(view.id.clone()))?,
    };
    let phase = view
        .rollout
        .batches
        .get(&index)
        .cloned()
        .unwrap_or(BatchPhase::Pending);
    Ok((index, phase))
}

/// Checks an approval the way `rollout approve` does: the batch must await approval and
/// the rollout's policy (`distinctApprover`) must allow `actor`.
pub fn check_approve(
    view: &RunView,
    actor: &Actor,
    batch: Option<usize>,
) -> Result<usize, CommandRefusal> {
    let (index, phase) = approval_target(view, batch)?;
    let policy = rollout_of(&view.spec)
        .map(|s| s.approvals)
        .unwrap_or_default();
    check_approval(policy, &view.created_by, actor, index, &phase)?;
    Ok(index)
}

/// The journal event `command` becomes when `actor` gives it at `now`, or why it is
/// refused. Pure: the caller appends it.
pub fn command_event(
    projection: &Projection,
    command: &OperatorCommand,
    actor: &Actor,
    now: Timestamp,
    process: u32,
) -> Result<NewEvent, CommandRefusal> {
    let new = |body: EventBody| operator_event(actor, now, process, command.verb(), body);
    match command {
        OperatorCommand::Pause { scope, reason } => {
            if reason.trim().is_empty() {
                return Err(CommandRefusal::Empty("the reason"));
            }
            known_run(projection, scope)?;
            Ok(scoped(
                projection,
                new(EventBody::Paused {
                    scope: scope.clone(),
                    reason: reason.clone(),
                }),
                scope,
            ))
        }
        OperatorCommand::Resume { scope, note } => {
            known_run(projection, scope)?;
            Ok(scoped(
                projection,
                new(EventBody::Resumed {
                    scope: scope.clone(),
                    note: note.clone(),
                }),
                scope,
            ))
        }
        OperatorCommand::HandOff {
            run,
            item,
            to,
            note,
        } => {
            if to.0.trim().is_empty() {
                return Err(CommandRefusal::Empty("the assignee"));
            }
            if note.trim().is_empty() {
                return Err(CommandRefusal::Empty("the note"));
            }
            item_event(
                projection,
                run,
                item,
                new(EventBody::HandedOff {
                    to: to.clone(),
                    note: note.clone(),
                }),
            )
        }
        OperatorCommand::TakeOver { run, item, note } => item_event(
            projection,
            run,
            item,
            new(EventBody::TakenOver { note: note.clone() }),
        ),
        OperatorCommand::Return {
            run,
            item,
            outcome,
            note,
        } => {
            if note.trim().is_empty() {
                return Err(CommandRefusal::Empty("the note"));
            }
            let event = item_event(
                projection,
                run,
                item,
                new(EventBody::Returned {
                    outcome: *outcome,
                    note: note.clone(),
                }),
            )?;
            let view = run_of(projection, run)?;
            // Only a person holding the node can give it back — one handed it or who took
            // it over, or the person a manual step waits for; otherwise the journal would
            // show the step done while the engine ignores the return.
            let in_hand = view.items.get(item).is_some_and(|i| {
                i.handoff.is_some()
                    || i.current_step()
                        .is_some_and(|(_, v)| matches!(v.status, StepStatus::HandedOff { .. }))
            });
            if !in_hand {
                return Err(CommandRefusal::NotInHand {
                    run: run.clone(),
                    item: item.clone(),
                });
            }
            Ok(event)
        }
        OperatorCommand::Abort { run, note } => {
            if note.trim().is_empty() {
                return Err(CommandRefusal::Empty("the reason"));
            }
            let view = run_of(projection, run)?;
            if view.status.is_final() {
                return Err(CommandRefusal::RunOver {
                    run: run.clone(),
                    status: view.status.clone(),
                    what: super::refusal::OVER_NOTHING_TO_ABORT,
                });
            }
            // Named with its cluster too, so `journal --cluster` finds a maintenance's abort.
            Ok(about_run(
                new(EventBody::Aborted { note: note.clone() }),
                view,
            ))
        }
        OperatorCommand::Approve { run, batch, note } => {
            let view = run_of(projection, run)?;
            let index = check_approve(view, actor, *batch)?;
            Ok(about_run(
                new(EventBody::RunApproved {
                    batch: Some(index),
                    note: note.clone(),
                }),
                view,
            ))
        }
        OperatorCommand::Note {
            run,
            item,
            cluster,
            text,
        } => {
            if text.trim().is_empty() {
                return Err(CommandRefusal::Empty("the note"));
            }
            let mut event = new(EventBody::Note { text: text.clone() });
            if let Some(run) = run {
                event = about_run(event, run_of(projection, run)?);
            }
            event.item = item.clone();
            if cluster.is_some() {
                event.cluster = cluster.clone();
            }
            Ok(event)
        }
        OperatorCommand::Acknowledge {
            problem,
            title,
            extent,
            run,
            item,
            cluster,
            note,
        } => {
            if note.trim().is_empty() {
                return Err(CommandRefusal::Empty("the note"));
            }
            let mut event = new(EventBody::Acknowledged {
                problem: problem.clone(),
                title: title.clone(),
                extent: extent.clone(),
                note: note.clone(),
            });
            // About the run as the item was, even if the run has left the journal's view.
            if let Some(view) = run.as_ref().and_then(|r| projection.runs.get(r)) {
                event = about_run(event, view);
            } else {
                event.run = run.clone();
            }
            event.item = item.clone();
            if cluster.is_some() {
                event.cluster = cluster.clone();
            }
            Ok(event)
        }
    }
}

/// The envelope every event an operator command becomes starts from: `actor` at `now`,
/// keyed as the command `what` (unique per actor, time and the giving `process`).
pub(super) fn operator_event(
    actor: &Actor,
    now: Timestamp,
    process: u32,
    what: &str,
    body: EventBody,
) -> NewEvent {
    NewEvent::new(
        now,
        actor.clone(),
        IdempotencyKey::for_command(actor, now, process, what),
        body,
    )
}

/// Names `view`'s run on `event`, and its cluster when the run has one.
pub(super) fn about_run(mut event: NewEvent, view: &RunView) -> NewEvent {
    event.run = Some(view.id.clone());
    if let Some(cluster) = &view.cluster {
        event.cluster = Some(cluster.clone());
    }
    event
}

/// Pause switches carry what they stop in the envelope, so `journal --cluster` finds them:
/// a run's pause also names the run's cluster.
fn scoped(projection: &Projection, mut event: NewEvent, scope: &PauseScope) -> NewEvent {
    match scope {
        PauseScope::Cluster { cluster } | PauseScope::FailureDomain { cluster, .. } => {
            event.cluster = Some(cluster.clone());
        }
        PauseScope::Run { run } => {
            event.run = Some(run.clone());
            event.cluster = projection
                .runs
                .get(run)
                .and_then(|view| view.cluster.clone());
        }
        PauseScope::Fleet => {}
    }
    event
}

fn item_event(
    projection: &Projection,
    run: &RunId,
    item: &ItemId,
    event: NewEvent,
) -> Result<NewEvent, CommandRefusal> {
    let view = run_of(projection, run)?;
    if !has_item(view, item) {
        return Err(CommandRefusal::NoItem {
            run: run.clone(),
            item: item.clone(),
        });
    }
    // A hand-off, take-over or return on a run that is over would change its record of
    // where it stopped while nothing follows it any more.
    if view.status.is_final() {
        return Err(CommandRefusal::RunOver {
            run: run.clone(),
            status: view.status.clone(),
            what: if view.status == RunStatus::Aborted {
                super::refusal::OVER_ABORTED_NODES
            } else {
                super::refusal::OVER_FINISHED
            },
        });
    }
    Ok(about_run(event, view).with_item(item.clone()))
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
