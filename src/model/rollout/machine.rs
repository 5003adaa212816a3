//! The rollout run reducer: `step(state, now, observation) -> (state, actions)`.
//!
//! Batch: `Pending → AwaitingApproval → Executing → Verifying → Soaking → Done | Halted`.
//! Cluster: `Pending → Applying → Verifying → Succeeded | Failed | Unknown`.
//! Rules kept here:
//! - a cluster whose applied digest is the run's is verified, never applied again, once its
//!   release record confirms it (one rebuilt since is applied like any other);
//! - stop conditions are evaluated whenever a batch is active (and metric evidence while a
//!   batch waits too: harm seen before a batch starts must stop it from starting);
//! - a halt or a pause stops new applies; applies in flight are still recorded and
//!   verified (reading is not changing); nothing is ever reverted;
//! - approvals, resumes and aborts belong to people; `distinctApprover` refuses the author;
//! - a soak ends only with metric evidence gathered during it when an SLO condition is set,
//!   or, when none came during it, with evidence gathered as it ends.
//!
//! Over 600 lines: the reducer's one `step` and the transitions it dispatches to; the
//! transitions split out by phase once the rollout changes being added land.

use jiff::Timestamp;

use super::approval::{Refusal, check_approval};
use super::gates::{Evidence, HaltReason, failed_gate, metrics_gate};
use super::restart::{reconciled, restarted};
use super::spec::Approval;
use super::state::{
    Action, BatchPhase, ItemPhase, Observation, RolloutStatus, RunState, VerifyOutcome,
};
use crate::model::ledger::ClusterId;
use crate::model::run::{EventBody, IdempotencyKey, ItemId, RunStatus, StepName, StepStatus};

/// The reducer: one observation in, the new state and the actions out.
pub fn step(mut s: RunState, now: Timestamp, obs: Observation) -> (RunState, Vec<Action>) {
    let mut out = Vec::new();
    match obs {
        Observation::Tick => {
            for (cluster, item) in &s.items {
                if item.reconciling || item.confirming {
                    out.push(Action::ObserveApplied {
                        cluster: cluster.clone(),
                    });
                }
            }
        }
        Observation::Approve { batch, by, .. } => approve(&mut s, batch, by, &mut out),
        Observation::Applied { cluster, result } => applied(&mut s, &cluster, result, &mut out),
        Observation::Verified { cluster, outcome } => verified(&mut s, &cluster, outcome, &mut out),
        Observation::Evidence(evidence) => observe_evidence(&mut s, now, &evidence, &mut out),
        // A pause and an abort are the person's own events already, under their name;
        // journaling them again here read as a second pause or abort by the executor.
        Observation::Pause { by, reason } => match s.status {
            RolloutStatus::Running => {
                s.status = RolloutStatus::Paused { by, reason };
            }
            // Already stopped: pausing adds nothing and undoes nothing.
            RolloutStatus::Paused { .. } | RolloutStatus::Halted { .. } => {}
            _ => refuse_now(&s, "pause", &mut out),
        },
        Observation::Resume { by, .. } => resume(&mut s, now, by, &mut out),
        Observation::Abort { by, note } => {
            if by.is_automation() {
                out.push(Action::Refused(Refusal::OnlyAPerson {
                    actor: by,
                    what: "abort a rollout".into(),
                }));
            } else if matches!(
                s.status,
                RolloutStatus::Aborted { .. } | RolloutStatus::Succeeded
            ) {
                refuse_now(&s, "abort", &mut out);
            } else {
                s.status = RolloutStatus::Aborted { by, note };
            }
        }
        Observation::Restarted => restarted(&mut s, now, &mut out),
        Observation::Reconciled { cluster, seen } => {
            reconciled(&mut s, now, &cluster, &seen, &mut out)
        }
    }
    items_gate(&mut s, &mut out);
    advance(&mut s, now, &mut out);
    (s, out)
}

fn journal(
    out: &mut Vec<Action>,
    cluster: Option<&ClusterId>,
    key: IdempotencyKey,
    body: EventBody,
) {
    out.push(Action::Journal {
        cluster: cluster.cloned(),
        key,
        body,
    });
}

/// The key of a cluster's event: same run, cluster, step, purpose and attempt, same key.
pub fn item_key(
    s: &RunState,
    cluster: &ClusterId,
    step: &str,
    what: &str,
    attempt: u32,
) -> IdempotencyKey {
    IdempotencyKey::for_step(
        &s.run,
        &ItemId(cluster.to_string()),
        &StepName(step.to_string()),
        what,
        attempt,
    )
}

/// The key of a batch-level event of the current batch.
fn batch_key(s: &RunState, what: &str) -> IdempotencyKey {
    let changes = s.batches.get(s.current).map_or(0, |b| b.changes);
    IdempotencyKey::for_step(
        &s.run,
        &ItemId(format!("batch-{}", s.current)),
        &StepName("batch".to_string()),
        what,
        changes,
    )
}

fn set_phase(s: &mut RunState, phase: BatchPhase, out: &mut Vec<Action>) {
    let b = s.current;
    let Some(batch) = s.batches.get_mut(b) else {
        return;
    };
    batch.changes += 1;
    batch.phase = phase.clone();
    let key = batch_key(s, phase.word());
    journal(out, None, key, EventBody::RolloutBatch { batch: b, phase });
}

pub(super) fn halt(s: &mut RunState, why: HaltReason, out: &mut Vec<Action>) {
    let b = s.current;
    if let Some(batch) = s.batches.get_mut(b) {
        batch.changes += 1;
        batch.phase = BatchPhase::Halted { why: why.clone() };
    }
    let key = batch_key(s, "halted");
    journal(
        out,
        None,
        key,
        EventBody::RolloutHalted {
            batch: b,
            why: why.clone(),
        },
    );
    s.status = RolloutStatus::Halted { why };
}

fn refuse_now(s: &RunState, what: &str, out: &mut Vec<Action>) {
    out.push(Action::Refused(Refusal::NotNow {
        what: what.to_string(),
        status: s.status.to_string(),
    }));
}

/// Whether the run may still change state on its own (halts included).
fn is_live(s: &RunState) -> bool {
    matches!(
        s.status,
        RolloutStatus::Running | RolloutStatus::Paused { .. }
    )
}

/// The clusters the release reached in this run: their metrics are the evidence.
fn watched(s: &RunState) -> Vec<ClusterId> {
    s.items
        .iter()
        .filter(|(_, i)| i.phase != ItemPhase::Pending)
        .map(|(c, _)| c.clone())
        .collect()
}

fn approve(s: &mut RunState, batch: usize, by: crate::model::run::Actor, out: &mut Vec<Action>) {
    if !is_live(s) {
        return refuse_now(s, "approve", out);
    }
    let phase = match s.batches.get(batch) {
        Some(b) if batch == s.current => b.phase.clone(),
        Some(b) => b.phase.clone(),
        None => {
            return out.push(Action::Refused(Refusal::NotAwaitingApproval {
                batch,
                phase: "not part of this rollout".into(),
            }));
        }
    };
    if let Err(refusal) = check_approval(s.approvals, &s.author, &by, batch, &phase) {
        return out.push(Action::Refused(refusal));
    }
    // The person's approval is journaled already, under their name; journaling it again
    // here read as a second approval. The batch's phase change below is this record.
    if let Some(b) = s.batches.get_mut(batch) {
        b.approved_by = Some(by);
    }
    set_phase(s, BatchPhase::Executing, out);
}

fn fail_item(s: &mut RunState, cluster: &ClusterId, error: String, out: &mut Vec<Action>) {
    let Some(item) = s.items.get_mut(cluster) else {
        return;
    };
    item.phase = ItemPhase::Failed {
        error: error.clone(),
    };
    let attempt = item.attempt;
    s.failed.push(cluster.clone());
    let key = item_key(s, cluster, "apply", "failed", attempt);
    journal(
        out,
        Some(cluster),
        key,
        EventBody::StepStatusChanged {
            status: StepStatus::Failed { error },
        },
    );
}

pub(super) fn applied(
    s: &mut RunState,
    cluster: &ClusterId,
    result: Result<super::digest::ReleaseDigest, String>,
    out: &mut Vec<Action>,
) {
    let digest = s.digest.clone();
    let Some(item) = s.items.get_mut(cluster) else {
        return;
    };
    if item.phase != ItemPhase::Applying {
        // A duplicate or late report: the first one decided.
        return;
    }
    item.reconciling = false;
    match result {
        Ok(d) if d == digest => {
            item.applied = Some(d.clone());
            item.phase = ItemPhase::Verifying;
            item.verifications += 1;
            let attempt = item.attempt;
            let key = item_key(s, cluster, "apply", "applied", attempt);
            journal(
                out,
                Some(cluster),
                key,
                EventBody::ItemApplied { digest: d },
            );
            out.push(Action::Verify {
                cluster: cluster.clone(),
            });
        }
        Ok(other) => {
            item.applied = Some(other.clone());
            let error =
                format!("the cluster reports release {other} after the apply, expected {digest}");
            fail_item(s, cluster, error, out);
        }
        Err(error) => fail_item(s, cluster, error, out),
    }
}

fn verified(s: &mut RunState, cluster: &ClusterId, outcome: VerifyOutcome, out: &mut Vec<Action>) {
    let Some(item) = s.items.get_mut(cluster) else {
        return;
    };
    if item.phase != ItemPhase::Verifying {
        return;
    }
    let round = item.verifications;
    item.phase = match &outcome {
        VerifyOutcome::Pass => ItemPhase::Succeeded,
        VerifyOutcome::Fail { reason } => ItemPhase::Failed {
            error: reason.clone(),
        },
        VerifyOutcome::Unknown { why } => ItemPhase::Unknown { why: why.clone() },
    };
    if matches!(outcome, VerifyOutcome::Fail { .. }) {
        s.failed.push(cluster.clone());
    }
    let key = item_key(s, cluster, "verify", "outcome", round);
    journal(out, Some(cluster), key, EventBody::ItemVerified { outcome });
}

/// Failed and unknown clusters, checked after every change while a batch is active.
fn items_gate(s: &mut RunState, out: &mut Vec<Action>) {
    if !is_live(s)
        || !s
            .batches
            .get(s.current)
            .is_some_and(|b| b.phase.is_active())
    {
        return;
    }
    let unknown =
        s.batches[s.current]
            .clusters
            .iter()
            .find_map(|c| match s.items.get(c).map(|i| &i.phase) {
                Some(ItemPhase::Unknown { why }) => Some((c.clone(), why.clone())),
                _ => None,
            });
    if let Some((cluster, why)) = unknown {
        return halt(
            s,
            HaltReason::OutcomeUnknown {
                cluster: cluster.to_string(),
                why,
            },
            out,
        );
    }
    let finished = s.items.values().filter(|i| i.phase.is_final()).count();
    let recent = s
        .failed
        .get(s.accepted_failures..)
        .unwrap_or_default()
        .to_vec();
    if let Some(why) = failed_gate(&s.stop_when, &recent, finished) {
        halt(s, why, out);
    }
}

fn observe_evidence(s: &mut RunState, now: Timestamp, evidence: &Evidence, out: &mut Vec<Action>) {
    let Some(batch) = s.batches.get(s.current) else {
        return;
    };
    if !is_live(s) || matches!(batch.phase, BatchPhase::Done | BatchPhase::Halted { .. }) {
        return;
    }
    let reached = watched(s);
    if reached.is_empty() {
        return;
    }
    if let Some(why) = metrics_gate(&s.stop_when, &reached, evidence) {
        return halt(s, why, out);
    }
    s.short_window_only = super::gates::short_window_only(&s.stop_when, &reached, evidence);
    if let Some(b) = s.batches.get_mut(s.current)
        && let BatchPhase::Soaking { evidence_at, .. } = &mut b.phase
    {
        *evidence_at = Some(now);
    }
}

fn resume(s: &mut RunState, now: Timestamp, by: crate::model::run::Actor, out: &mut Vec<Action>) {
    if by.is_automation() {
        return out.push(Action::Refused(Refusal::OnlyAPerson {
            actor: by,
            what: "resume a rollout".into(),
        }));
    }
    match &s.status {
        RolloutStatus::Paused { .. } => {
            // Evidence from before the pause says nothing about the time it lasted: a
            // soak that ended meanwhile ends only on evidence gathered from now on.
            if let Some(b) = s.batches.get_mut(s.current)
                && let BatchPhase::Soaking { evidence_at, .. } = &mut b.phase
            {
                *evidence_at = None;
            }
        }
        RolloutStatus::Halted { .. } => {
            // The person accepts the failures seen so far and asks for fresh evidence:
            // unknown clusters are verified again, a finished batch soaks again.
            s.accepted_failures = s.failed.len();
            let b = s.current;
            let clusters = s
                .batches
                .get(b)
                .map(|x| x.clusters.clone())
                .unwrap_or_default();
            for c in &clusters {
                // Records still being read get a fresh allowance from the resume.
                if let Some(item) = s.items.get_mut(c)
                    && item.reading_since.is_some()
                {
                    item.reading_since = Some(now);
                }
                if let Some(item) = s.items.get_mut(c)
                    && matches!(item.phase, ItemPhase::Unknown { .. })
                {
                    item.phase = ItemPhase::Verifying;
                    item.verifications += 1;
                    out.push(Action::Verify { cluster: c.clone() });
                }
            }
            let phases: Vec<&ItemPhase> = clusters
                .iter()
                .filter_map(|c| s.items.get(c).map(|i| &i.phase))
                .collect();
            let untouched = phases.iter().all(|p| **p == ItemPhase::Pending);
            let unapproved = s
                .batches
                .get(b)
                .is_some_and(|x| x.approval == Approval::Required && x.approved_by.is_none());
            let phase = if untouched && unapproved {
                BatchPhase::Pending
            } else if phases
                .iter()
                .any(|p| matches!(p, ItemPhase::Pending | ItemPhase::Applying))
            {
                BatchPhase::Executing
            } else if phases.iter().any(|p| **p == ItemPhase::Verifying) {
                BatchPhase::Verifying
            } else {
                let soak = s.batches.get(b).map(|x| x.soak).unwrap_or_default();
                let until = now.checked_add(soak).unwrap_or(now);
                out.push(Action::WakeAt(until));
                BatchPhase::Soaking {
                    until,
                    evidence_at: None,
                }
            };
            set_phase(s, phase, out);
        }
        _ => return refuse_now(s, "resume", out),
    }
    // The person's resume is journaled already, under their name (as a pause is): the
    // reducer journals nothing of its own for it.
    s.status = RolloutStatus::Running;
}

/// Whether the current batch's soak is over but still waits for the metric evidence it
/// needs (none was gathered during it): the executor then gathers evidence at once rather
/// than at its next interval.
pub fn soak_awaits_evidence(s: &RunState, now: Timestamp) -> bool {
    s.status == RolloutStatus::Running
        && s.stop_when.slo_burn_rate.is_some()
        && matches!(
            s.batches.get(s.current).map(|b| &b.phase),
            Some(BatchPhase::Soaking { until, evidence_at: None }) if now >= *until
        )
}

/// What the release record of a cluster the journal says runs the release shows: the
/// same digest, it is only verified; anything else, it is applied like any other (once
/// the run goes on, if it is paused or halted); unreadable, it is asked again next tick.
pub(super) fn confirmed(
    s: &mut RunState,
    now: Timestamp,
    cluster: &ClusterId,
    seen: &super::restart::AppliedSeen,
    out: &mut Vec<Action>,
) {
    let digest = s.digest.clone();
    let running = s.status == RolloutStatus::Running;
    let Some(item) = s.items.get_mut(cluster) else {
        return;
    };
    match super::restart::reconcile_apply(&digest, seen) {
        super::restart::ApplyResolution::Happened => {
            item.confirming = false;
            item.reconciling = false;
            item.reading_since = None;
            item.phase = ItemPhase::Verifying;
            item.verifications += 1;
            let key = item_key(s, cluster, "apply", "skipped", 0);
            journal(
                out,
                Some(cluster),
                key,
                EventBody::StepStatusChanged {
                    status: StepStatus::Skipped,
                },
            );
            out.push(Action::Verify {
                cluster: cluster.clone(),
            });
        }
        super::restart::ApplyResolution::NotDone => {
            item.confirming = false;
            item.reconciling = false;
            item.reading_since = None;
            item.applied = None;
            item.phase = ItemPhase::Pending;
            let key = item_key(s, cluster, "apply", "unconfirmed", 0);
            journal(
                out,
                Some(cluster),
                key,
                EventBody::ExecutorNote {
                    text: format!(
                        "the journal says {cluster} runs {digest}, but its release record \
                         shows {}: applied like any other cluster",
                        describe_seen(seen)
                    ),
                },
            );
            if running {
                start_items(s, now, out);
            }
        }
        super::restart::ApplyResolution::Unknown { why } => {
            super::restart::unreadable_for_long(s, now, cluster, &why, out)
        }
    }
}

fn describe_seen(seen: &super::restart::AppliedSeen) -> String {
    match seen {
        super::restart::AppliedSeen::Digest { digest } => format!("release {digest}"),
        super::restart::AppliedSeen::Nothing => "no release".to_string(),
        super::restart::AppliedSeen::Unreachable { why } => format!("nothing readable ({why})"),
    }
}

/// Starts what may start in the current batch.
fn start_items(s: &mut RunState, now: Timestamp, out: &mut Vec<Action>) {
    let clusters = s
        .batches
        .get(s.current)
        .map(|b| b.clusters.clone())
        .unwrap_or_default();
    for cluster in clusters {
        let digest = s.digest.clone();
        let Some(item) = s.items.get_mut(&cluster) else {
            continue;
        };
        if item.phase != ItemPhase::Pending {
            continue;
        }
        if item.applied.as_ref() == Some(&digest) && s.confirm_applied {
            // The journal says the cluster runs this release. Its release record (the
            // deployed id) decides: a cluster rebuilt under the same id runs nothing.
            item.phase = ItemPhase::Applying;
            item.confirming = true;
            item.reading_since = Some(now);
            out.push(Action::ObserveApplied { cluster });
            continue;
        }
        if item.applied.as_ref() == Some(&digest) {
            // A run journaled before release records were read first: verified at once,
            // as it was decided then.
            item.phase = ItemPhase::Verifying;
            item.verifications += 1;
            let key = item_key(s, &cluster, "apply", "skipped", 0);
            journal(
                out,
                Some(&cluster),
                key,
                EventBody::StepStatusChanged {
                    status: StepStatus::Skipped,
                },
            );
            out.push(Action::Verify { cluster });
            continue;
        }
        item.attempt += 1;
        item.staged = Some(digest.clone());
        item.phase = ItemPhase::Applying;
        let attempt = item.attempt;
        journal(
            out,
            Some(&cluster),
            item_key(s, &cluster, "apply", "staged", attempt),
            EventBody::ItemStaged {
                digest: digest.clone(),
            },
        );
        out.push(Action::Apply {
            key: item_key(s, &cluster, "apply", "intent", attempt),
            cluster,
            digest,
        });
    }
}

/// Moves the current batch on as far as it can go now.
fn advance(s: &mut RunState, now: Timestamp, out: &mut Vec<Action>) {
    while s.status == RolloutStatus::Running {
        let Some(batch) = s.batches.get(s.current) else {
            return;
        };
        let phases: Vec<ItemPhase> = batch
            .clusters
            .iter()
            .filter_map(|c| s.items.get(c).map(|i| i.phase.clone()))
            .collect();
        match batch.phase.clone() {
            BatchPhase::Pending => {
                if batch.approval == Approval::Required && batch.approved_by.is_none() {
                    set_phase(s, BatchPhase::AwaitingApproval, out);
                    out.push(Action::AwaitApproval { batch: s.current });
                    return;
                }
                set_phase(s, BatchPhase::Executing, out);
            }
            BatchPhase::Executing => {
                start_items(s, now, out);
                let busy = s.batches[s.current].clusters.iter().any(|c| {
                    s.items.get(c).is_some_and(|i| {
                        matches!(i.phase, ItemPhase::Pending | ItemPhase::Applying)
                    })
                });
                if busy {
                    return;
                }
                set_phase(s, BatchPhase::Verifying, out);
            }
            BatchPhase::Verifying => {
                if !phases.iter().all(ItemPhase::is_final) {
                    return;
                }
                let until = now.checked_add(batch.soak).unwrap_or(now);
                set_phase(
                    s,
                    BatchPhase::Soaking {
                        until,
                        evidence_at: None,
                    },
                    out,
                );
                out.push(Action::WakeAt(until));
                if s.stop_when.slo_burn_rate.is_some() {
                    out.push(Action::CollectEvidence {
                        clusters: watched(s),
                    });
                }
                // The soak's end is judged on a later observation, after evidence came in.
                return;
            }
            BatchPhase::Soaking { until, evidence_at } => {
                let needs_evidence = s.stop_when.slo_burn_rate.is_some();
                if now < until {
                    if needs_evidence {
                        out.push(Action::CollectEvidence {
                            clusters: watched(s),
                        });
                    }
                    return;
                }
                if needs_evidence && evidence_at.is_none() {
                    // None came during the soak (one shorter than the executor's evidence
                    // interval): the soak ends only once evidence gathered now is judged —
                    // a burn rate halts, unknown metrics halt unless ignored. Nothing new
                    // starts meanwhile.
                    out.push(Action::CollectEvidence {
                        clusters: watched(s),
                    });
                    return;
                }
                let key = batch_key(s, "gate");
                journal(
                    out,
                    None,
                    key,
                    EventBody::GateEvaluated {
                        batch: s.current,
                        halt: None,
                    },
                );
                set_phase(s, BatchPhase::Done, out);
            }
            BatchPhase::Done => {
                if s.current + 1 >= s.batches.len() {
                    s.status = RolloutStatus::Succeeded;
                    let key = batch_key(s, "succeeded");
                    journal(
                        out,
                        None,
                        key,
                        EventBody::RunStatusChanged {
                            status: RunStatus::Succeeded,
                        },
                    );
                    return;
                }
                s.current += 1;
            }
            BatchPhase::AwaitingApproval | BatchPhase::Halted { .. } => return,
        }
    }
}

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
