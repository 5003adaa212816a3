//! The per-node maintenance state machine as a reducer:
//! `step(state, env, observation) -> (state, actions)`.
//!
//! `Precheck → Cordon → Drain → Maintain → VerifyNode → VerifyWorkloads → Uncordon → Done`.
//! The executor performs the actions (journaling an intent before every side effect and
//! the outcome after) and feeds back what it observed. Rules kept here:
//! - no new step starts, and no side effect is requested, while a pause applies;
//! - a step past its deadline is Blocked with a reason, and waits for a person;
//! - nothing is ever forced: a PDB refusal is retried, never bypassed;
//! - Uncordon only undoes a cordon we made;
//! - a handed-off or blocked item is left alone until a person returns it.

use super::drain::elapsed;
use super::observe::{CheckOutcome, NodeObservation, Observation, PodRef};
use super::restart::{Intent, Resolution};
use super::spec::MaintainAction;
pub use super::state::{Action, CordonRecord, Env, NODE_EVENT_REASON, NodeState, ON_CALL};
use super::step::Step;
use crate::model::run::{Actor, IdempotencyKey, ItemId, ReturnOutcome, StepStatus};

/// The reducer: one observation in, the new state and the actions out.
pub fn step(mut s: NodeState, env: &Env<'_>, obs: Observation) -> (NodeState, Vec<Action>) {
    let mut out = Vec::new();
    track_pause(&mut s, env);
    match obs {
        Observation::HandOff { to, by, note } => {
            if !s.is_finished() {
                let message = format!("{} handed off to {to} by {by}: {note}", s.step);
                set_status(
                    &mut s,
                    env,
                    StepStatus::HandedOff { to, note },
                    &message,
                    &mut out,
                );
            }
        }
        Observation::TakeOver { by, note } => {
            if !s.is_finished() {
                let message = format!("{} taken over by {by}: {note}", s.step);
                set_status(
                    &mut s,
                    env,
                    StepStatus::HandedOff { to: by, note },
                    &message,
                    &mut out,
                );
            }
        }
        Observation::Return { outcome, by, note } => {
            returned(&mut s, env, outcome, by, note, &mut out)
        }
        Observation::Reconciled { intent, resolution } => {
            reconciled(&mut s, env, intent, resolution, &mut out)
        }
        other => {
            absorb(&mut s, env, &other, &mut out);
            match s.status {
                StepStatus::Pending => start(&mut s, env, &mut out),
                StepStatus::Running => drive(&mut s, env, other, &mut out),
                _ => {}
            }
        }
    }
    (s, out)
}

/// Pauses stop the deadline clock: on resume, the step's start moves by the pause length.
fn track_pause(s: &mut NodeState, env: &Env<'_>) {
    match (env.paused, s.paused_since) {
        (Some(_), None) => s.paused_since = Some(env.now),
        (None, Some(since)) => {
            let paused_for = env.now.duration_since(since);
            s.started_at = s.started_at.and_then(|t| t.checked_add(paused_for).ok());
            s.paused_since = None;
        }
        _ => {}
    }
}

/// Results that must be remembered whatever the status (a call in flight when the item
/// was handed off still completes, and what it did matters for later steps).
fn absorb(s: &mut NodeState, env: &Env<'_>, obs: &Observation, out: &mut Vec<Action>) {
    match obs {
        Observation::Cordoned(Ok(())) => {
            s.call_in_flight = false;
            s.cordon = CordonRecord::CordonedByUs;
        }
        Observation::Uncordoned(Ok(())) => {
            s.call_in_flight = false;
            s.cordon = CordonRecord::Released;
        }
        Observation::Cordoned(Err(e)) | Observation::Uncordoned(Err(e)) => {
            s.call_in_flight = false;
            s.waiting_on = vec![e.clone()];
        }
        Observation::Pods(pods) if s.step == Step::Drain => s.drain.observe_pods(pods),
        Observation::Evictions(results) => s.drain.record(results, env.now),
        Observation::HookFinished(_) if s.status != StepStatus::Running => {
            s.call_in_flight = false;
            out.push(Action::RecordNote {
                text: format!("hook finished while the step was {}", s.status.word()),
            });
        }
        _ => {}
    }
}

/// Emits a call unless it would change the cluster while that is held back: by a pause
/// (the step simply waits) or by a cluster that may not be changed (the step waits on
/// that, so it is the reason shown once the step is overdue). A call not made here is
/// asked for again on a later tick.
fn emit(s: &mut NodeState, env: &Env<'_>, action: Action, out: &mut Vec<Action>) -> bool {
    if action.intent().is_none() {
        out.push(action);
        return true;
    }
    if env.paused.is_some() {
        return false;
    }
    if let Some(why) = env.change_refused {
        s.waiting_on = vec![refusal_reason(why)];
        return false;
    }
    out.push(action);
    true
}

fn refusal_reason(why: &str) -> String {
    format!("cluster may not be changed: {why}")
}

fn node_event(s: &NodeState, env: &Env<'_>, message: &str, out: &mut Vec<Action>) {
    out.push(Action::EmitNodeEvent {
        reason: NODE_EVENT_REASON.to_string(),
        action: s.step.name().to_string(),
        message: format!("{} (run {}, by {})", message, env.run, env.actor),
    });
}

fn set_status(
    s: &mut NodeState,
    env: &Env<'_>,
    status: StepStatus,
    message: &str,
    out: &mut Vec<Action>,
) {
    s.status = status.clone();
    out.push(Action::RecordStatus {
        step: s.step,
        status,
    });
    node_event(s, env, message, out);
}

fn block(s: &mut NodeState, env: &Env<'_>, reason: String, out: &mut Vec<Action>) {
    let message = format!("{} stuck: {reason}", s.step);
    set_status(s, env, StepStatus::Blocked { reason }, &message, out);
}

fn fail(s: &mut NodeState, env: &Env<'_>, error: String, out: &mut Vec<Action>) {
    let message = format!("{} failed: {error}", s.step);
    set_status(s, env, StepStatus::Failed { error }, &message, out);
}

/// Marks the current step done (`Succeeded` or `Skipped`) and starts the next one.
fn finish(s: &mut NodeState, env: &Env<'_>, status: StepStatus, out: &mut Vec<Action>) {
    let message = format!("{} {}", s.step, status.word());
    set_status(s, env, status, &message, out);
    s.step = s.step.next();
    s.waiting_on.clear();
    s.call_in_flight = false;
    if s.step == Step::Done {
        s.status = StepStatus::Succeeded;
        node_event(s, env, "maintenance finished", out);
    } else {
        s.status = StepStatus::Pending;
        start(s, env, out);
    }
}

/// Starts the current (pending) step unless a pause holds it.
fn start(s: &mut NodeState, env: &Env<'_>, out: &mut Vec<Action>) {
    if env.paused.is_some() || s.step == Step::Done {
        return;
    }
    s.started_at = Some(env.now);
    s.waiting_on.clear();
    let message = format!("{} started", s.step);
    set_status(s, env, StepStatus::Running, &message, out);
    kick(s, env, out);
}

/// The step's first (or retried) request.
fn kick(s: &mut NodeState, env: &Env<'_>, out: &mut Vec<Action>) {
    s.last_attempt = Some(env.now);
    match s.step {
        Step::Precheck => {
            out.push(Action::Precheck);
        }
        Step::Cordon => {
            if s.cordon == CordonRecord::AlreadyCordoned {
                out.push(Action::RecordNote {
                    text: "node was already cordoned before maintenance; it stays cordoned".into(),
                });
                finish(s, env, StepStatus::Succeeded, out);
            } else if s.cordon == CordonRecord::CordonedByUs {
                finish(s, env, StepStatus::Succeeded, out);
            } else if !s.call_in_flight && emit(s, env, Action::Cordon, out) {
                s.call_in_flight = true;
            }
        }
        Step::Drain => out.push(Action::ListPods),
        Step::Maintain => match &env.spec.action {
            MaintainAction::Exec(hook) => {
                if s.call_in_flight {
                    return;
                }
                let attempt = s.hook_attempt + 1;
                let key = IdempotencyKey::for_step(
                    env.run,
                    &ItemId(s.node.to_string()),
                    &Step::Maintain.name(),
                    "hook",
                    attempt,
                );
                let action = Action::RunHook {
                    argv: hook.argv.clone(),
                    timeout: hook.timeout,
                    env: vec![
                        ("FLEETDECK_CLUSTER".into(), env.spec.cluster.to_string()),
                        ("FLEETDECK_NODE".into(), s.node.to_string()),
                        ("FLEETDECK_RUN".into(), env.run.0.clone()),
                        ("FLEETDECK_IDEMPOTENCY_KEY".into(), key.0.clone()),
                    ],
                    key,
                };
                if emit(s, env, action, out) {
                    s.hook_attempt = attempt;
                    s.call_in_flight = true;
                }
            }
            MaintainAction::Manual { instructions } => {
                out.push(Action::WaitForPerson {
                    instructions: instructions.clone(),
                });
                let message = format!("Maintain waits for a person: {instructions}");
                let status = StepStatus::HandedOff {
                    to: Actor(ON_CALL.into()),
                    note: instructions.clone(),
                };
                set_status(s, env, status, &message, out);
            }
        },
        Step::VerifyNode => out.push(Action::ObserveNode),
        Step::VerifyWorkloads => {
            let pods: Vec<PodRef> = s.drain.displaced.iter().cloned().collect();
            if pods.is_empty() {
                finish(s, env, StepStatus::Succeeded, out);
            } else {
                out.push(Action::ObserveWorkloads { pods });
            }
        }
        Step::Uncordon => match s.cordon {
            CordonRecord::CordonedByUs => {
                if !s.call_in_flight && emit(s, env, Action::Uncordon, out) {
                    s.call_in_flight = true;
                }
            }
            CordonRecord::Released => finish(s, env, StepStatus::Succeeded, out),
            _ => {
                out.push(Action::RecordNote {
                    text: "node was cordoned before maintenance by someone else; left cordoned"
                        .into(),
                });
                finish(s, env, StepStatus::Skipped, out);
            }
        },
        Step::Done => {}
    }
}

/// An earlier call of the step is still without an outcome and the cluster cannot be
/// observed to settle it (`why`). Nothing may be done to the node meanwhile; past the
/// step's deadline the step is `Blocked` with the reason, so that a person sees it rather
/// than a step that silently waits. Before the deadline, or once stuck or in a person's
/// hands, nothing changes.
pub fn unsettled(s: &NodeState, env: &Env<'_>, why: &str) -> (NodeState, Vec<Action>) {
    let mut s = s.clone();
    let mut out = Vec::new();
    let waiting = !matches!(
        s.status,
        StepStatus::Blocked { .. } | StepStatus::HandedOff { .. } | StepStatus::Failed { .. }
    );
    if waiting && past_deadline(&s, env) {
        block(
            &mut s,
            env,
            format!("an earlier call cannot be settled: {why}"),
            &mut out,
        );
    }
    (s, out)
}

fn past_deadline(s: &NodeState, env: &Env<'_>) -> bool {
    env.paused.is_none()
        && s.started_at
            .is_some_and(|t| elapsed(t, env.now) >= env.spec.deadlines.of(s.step))
}

fn retry_due(s: &NodeState, env: &Env<'_>) -> bool {
    s.last_attempt
        .is_none_or(|t| elapsed(t, env.now) >= env.spec.drain.eviction_retry)
}

/// A running step reacts to an observation.
fn drive(s: &mut NodeState, env: &Env<'_>, obs: Observation, out: &mut Vec<Action>) {
    match (s.step, obs) {
        (Step::Precheck, Observation::Prechecked(report)) => {
            s.gpus_before = Some(report.node.gpus_allocatable);
            s.cordon = if report.node.unschedulable {
                CordonRecord::AlreadyCordoned
            } else {
                CordonRecord::WasSchedulable
            };
            let failures = report.failures();
            if !matches!(report.identity, CheckOutcome::Pass) {
                // A cluster that is not the one the ledger pins gets no action at all.
                block(s, env, failures.join("; "), out);
            } else if failures.is_empty() {
                finish(s, env, StepStatus::Succeeded, out);
            } else {
                s.waiting_on = failures;
            }
        }
        (Step::Cordon, Observation::Cordoned(Ok(()))) => finish(s, env, StepStatus::Succeeded, out),
        (Step::Uncordon, Observation::Uncordoned(Ok(()))) => {
            finish(s, env, StepStatus::Succeeded, out)
        }
        (Step::Drain, Observation::Pods(_)) | (Step::Drain, Observation::Evictions(_)) => {
            if s.drain.is_done() {
                finish(s, env, StepStatus::Succeeded, out);
                return;
            }
            for pod in s.drain.to_evict(env.now, &env.spec.drain) {
                let action = Action::Evict {
                    pod: pod.clone(),
                    grace_period: env.spec.drain.grace_period,
                };
                if emit(s, env, action, out) {
                    s.drain.mark_asked(&pod, env.now);
                }
            }
        }
        (Step::Maintain, Observation::HookFinished(result)) => {
            s.call_in_flight = false;
            let tail: String = result
                .output
                .lines()
                .last()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            match (result.timed_out, result.exit_code) {
                (false, Some(0)) => finish(s, env, StepStatus::Succeeded, out),
                (true, _) => fail(s, env, format!("hook timed out: {tail}"), out),
                (false, Some(code)) => {
                    fail(s, env, format!("hook exited with {code}: {tail}"), out)
                }
                (false, None) => fail(s, env, format!("hook was killed by a signal: {tail}"), out),
            }
        }
        (Step::VerifyNode, Observation::Node(node)) => {
            let problems = verify_node(&node, s.gpus_before, env);
            if problems.is_empty() {
                finish(s, env, StepStatus::Succeeded, out);
            } else {
                s.waiting_on = problems;
            }
        }
        (Step::VerifyWorkloads, Observation::Workloads(w)) => {
            if w.not_ready.is_empty() && w.unhealthy_pdbs.is_empty() {
                finish(s, env, StepStatus::Succeeded, out);
            } else {
                let mut waiting = Vec::new();
                if !w.not_ready.is_empty() {
                    waiting.push(format!("workloads not Ready: {}", w.not_ready.join(", ")));
                }
                if !w.unhealthy_pdbs.is_empty() {
                    waiting.push(format!("PDBs not healthy: {}", w.unhealthy_pdbs.join(", ")));
                }
                s.waiting_on = waiting;
            }
        }
        (_, Observation::Tick) => tick(s, env, out),
        _ => {}
    }
}

fn tick(s: &mut NodeState, env: &Env<'_>, out: &mut Vec<Action>) {
    if past_deadline(s, env) {
        let reason = match s.step {
            Step::Cordon | Step::Drain | Step::Maintain | Step::Uncordon
                if !s.call_in_flight && env.change_refused.is_some() =>
            {
                refusal_reason(env.change_refused.unwrap_or_default())
            }
            Step::Drain => s.drain.blocked_reason(env.now, &env.spec.drain),
            Step::Maintain if s.call_in_flight => {
                "hook still running past the Maintain deadline".into()
            }
            _ if !s.waiting_on.is_empty() => s.waiting_on.join("; "),
            step => format!("{step} got no answer before its deadline"),
        };
        block(s, env, reason, out);
        return;
    }
    // A hook not started yet (held back by a cluster that may not be changed) is asked
    // for again; one started is never re-run from here.
    let hook_not_started = s.step == Step::Maintain
        && !s.call_in_flight
        && matches!(env.spec.action, MaintainAction::Exec(_));
    let retryable = hook_not_started
        || matches!(
            s.step,
            Step::Precheck
                | Step::Cordon
                | Step::Drain
                | Step::VerifyNode
                | Step::VerifyWorkloads
                | Step::Uncordon
        );
    if retryable && retry_due(s, env) {
        kick(s, env, out);
    }
}

/// What keeps a node from passing VerifyNode.
pub fn verify_node(node: &NodeObservation, gpus_before: Option<u32>, env: &Env<'_>) -> Vec<String> {
    let mut problems = Vec::new();
    if !node.ready {
        problems.push("node not Ready".to_string());
    }
    for (key, want) in &env.spec.verify.expected_versions {
        match node.versions.get(key) {
            Some(have) if have == want => {}
            Some(have) => problems.push(format!("{key} is {have}, expected {want}")),
            None => problems.push(format!("{key} version unknown, expected {want}")),
        }
    }
    if let Some(before) = gpus_before
        && node.gpus_allocatable < before
    {
        problems.push(format!(
            "GPUs allocatable {} of {before} before maintenance",
            node.gpus_allocatable
        ));
    }
    problems
}

fn returned(
    s: &mut NodeState,
    env: &Env<'_>,
    outcome: ReturnOutcome,
    by: Actor,
    note: String,
    out: &mut Vec<Action>,
) {
    let returnable = matches!(
        s.status,
        StepStatus::HandedOff { .. } | StepStatus::Blocked { .. } | StepStatus::Failed { .. }
    ) && s.step != Step::Done;
    if !returnable {
        out.push(Action::RecordNote {
            text: format!("return by {by} ignored: {} is {}", s.step, s.status.word()),
        });
        return;
    }
    out.push(Action::RecordNote {
        text: format!("{} returned by {by} ({outcome:?}): {note}", s.step),
    });
    match outcome {
        ReturnOutcome::Done => {
            // The person did the step by hand; remember what that means for later steps.
            match s.step {
                Step::Cordon if s.cordon != CordonRecord::AlreadyCordoned => {
                    s.cordon = CordonRecord::CordonedByUs;
                }
                Step::Uncordon => s.cordon = CordonRecord::Released,
                _ => {}
            }
            finish(s, env, StepStatus::Succeeded, out);
        }
        ReturnOutcome::Retry => {
            for pod in s.drain.remaining.values_mut() {
                if pod.evicted_at.is_none() {
                    pod.asked_at = None;
                    pod.answer = None;
                }
            }
            s.call_in_flight = false;
            s.status = StepStatus::Pending;
            out.push(Action::RecordStatus {
                step: s.step,
                status: StepStatus::Pending,
            });
            start(s, env, out);
        }
        ReturnOutcome::Abort => fail(s, env, format!("aborted by {by}: {note}"), out),
    }
}

fn reconciled(
    s: &mut NodeState,
    env: &Env<'_>,
    intent: Intent,
    resolution: Resolution,
    out: &mut Vec<Action>,
) {
    out.push(Action::RecordNote {
        text: format!(
            "after restart, {} intent settled as {resolution:?}",
            intent.to_journal().0
        ),
    });
    let running = s.status == StepStatus::Running;
    match (intent, resolution) {
        (_, Resolution::Unknown) => {}
        (_, Resolution::Blocked { reason }) => {
            s.call_in_flight = false;
            block(s, env, reason, out);
        }
        (Intent::Cordon, Resolution::Happened) => {
            s.call_in_flight = false;
            s.cordon = CordonRecord::CordonedByUs;
            if running && s.step == Step::Cordon {
                finish(s, env, StepStatus::Succeeded, out);
            }
        }
        (Intent::Uncordon, Resolution::Happened) => {
            s.call_in_flight = false;
            s.cordon = CordonRecord::Released;
            if running && s.step == Step::Uncordon {
                finish(s, env, StepStatus::Succeeded, out);
            }
        }
        (Intent::Evict { pod }, resolution) => {
            s.drain
                .settle_lost(&pod, resolution == Resolution::Happened, env.now);
            if running && s.step == Step::Drain {
                out.push(Action::ListPods);
            }
        }
        (Intent::Cordon | Intent::Uncordon | Intent::Hook { .. }, _) => {
            // Not done (or an idempotent hook): ask again.
            s.call_in_flight = false;
            if running {
                kick(s, env, out);
            }
        }
    }
}

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
