//! Restart, pure: an apply journaled without an outcome is settled by reading the digest
//! the cluster reports (the deployed id), never by assuming.

use serde::{Deserialize, Serialize};

use jiff::Timestamp;

use super::digest::ReleaseDigest;
use super::gates::HaltReason;
use super::machine::{applied, item_key};
use super::state::{Action, BatchPhase, ItemPhase, Observation, RolloutStatus, RunState};
use crate::model::ledger::ClusterId;
use crate::model::run::{EventBody, IdempotencyKey};

/// What a cluster reports as its applied release after a restart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "seen", rename_all = "camelCase")]
pub enum AppliedSeen {
    /// The cluster records this digest as applied.
    Digest {
        /// The digest.
        digest: ReleaseDigest,
    },
    /// The cluster records no fleetdeck release.
    Nothing,
    /// The cluster could not be read: decide nothing yet.
    Unreachable {
        /// Why.
        why: String,
    },
}

/// How an apply without outcome is settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ApplyResolution {
    /// The cluster runs the intended digest: record it, do not apply again.
    Happened,
    /// It does not: the apply may be requested again (server-side apply and
    /// `helm upgrade` converge, so a second request cannot double the change).
    NotDone,
    /// Cannot tell yet: ask the cluster again later.
    Unknown {
        /// Why.
        why: String,
    },
}

/// Settles an apply of `intended` from what the cluster shows.
pub fn reconcile_apply(intended: &ReleaseDigest, seen: &AppliedSeen) -> ApplyResolution {
    match seen {
        AppliedSeen::Digest { digest } if digest == intended => ApplyResolution::Happened,
        AppliedSeen::Digest { .. } | AppliedSeen::Nothing => ApplyResolution::NotDone,
        AppliedSeen::Unreachable { why } => ApplyResolution::Unknown { why: why.clone() },
    }
}

/// A new executor took over: ask each cluster with an apply in flight what it runs,
/// verify again what was verifying (reading is harmless), repeat waits.
pub(super) fn restarted(s: &mut RunState, now: Timestamp, out: &mut Vec<Action>) {
    for (cluster, item) in s.items.iter_mut() {
        match item.phase {
            ItemPhase::Applying => {
                // A confirmation is asked again as it was; an apply is settled.
                item.reconciling = !item.confirming;
                item.reading_since = Some(now);
                out.push(Action::ObserveApplied {
                    cluster: cluster.clone(),
                });
            }
            ItemPhase::Verifying => {
                item.verifications += 1;
                out.push(Action::Verify {
                    cluster: cluster.clone(),
                });
            }
            _ => {}
        }
    }
    match s.batches.get(s.current).map(|b| &b.phase) {
        Some(BatchPhase::AwaitingApproval) => out.push(Action::AwaitApproval { batch: s.current }),
        Some(BatchPhase::Soaking { until, .. }) => out.push(Action::WakeAt(*until)),
        _ => {}
    }
}

/// Reports of applies whose outcome the journal holds but that were never fed to the
/// run (the executor stopped between journaling the outcome and folding it), for each
/// cluster still applying: `outcome_of` gives what an intent's outcome said. Folding them
/// before [`Observation::Restarted`] matters for failures: settling a failed apply by
/// reading the cluster would find its release missing and apply it again.
pub fn unfolded_applies(
    s: &RunState,
    outcome_of: impl Fn(&IdempotencyKey) -> Option<Result<ReleaseDigest, String>>,
) -> Vec<Observation> {
    s.items
        .iter()
        .filter(|(_, item)| item.phase == ItemPhase::Applying && !item.confirming)
        .filter_map(|(cluster, item)| {
            let intent = item_key(s, cluster, "apply", "intent", item.attempt);
            outcome_of(&intent).map(|result| Observation::Applied {
                cluster: cluster.clone(),
                result,
            })
        })
        .collect()
}

/// What an apply's journaled outcome says, as the apply reported it: `{"Ok": digest}` or
/// `{"Err": why}` (outcomes settled by reading the cluster carry what was seen as well).
pub fn apply_result(detail: &serde_json::Value) -> Option<Result<ReleaseDigest, String>> {
    if let Some(ok) = detail.get("Ok") {
        return serde_json::from_value(ok.clone()).ok().map(Ok);
    }
    detail.get("Err")?.as_str().map(|e| Err(e.to_string()))
}

/// The outcome of an apply intent settled by observing the cluster, under the key an
/// executor that saw the apply finish would have used: the intent is closed either way
/// (and a late outcome from that executor, should there be one, is the same event).
fn settle(
    cluster: &ClusterId,
    intent: &IdempotencyKey,
    ok: bool,
    detail: serde_json::Value,
    out: &mut Vec<Action>,
) {
    out.push(Action::Journal {
        cluster: Some(cluster.clone()),
        key: intent.outcome(),
        body: EventBody::Outcome {
            intent: intent.clone(),
            ok,
            detail,
        },
    });
}

/// What a cluster reports settles its apply without outcome, and closes its intent.
pub(super) fn reconciled(
    s: &mut RunState,
    now: Timestamp,
    cluster: &ClusterId,
    seen: &AppliedSeen,
    out: &mut Vec<Action>,
) {
    let running = s.status == RolloutStatus::Running;
    let Some(item) = s.items.get(cluster) else {
        return;
    };
    if item.phase != ItemPhase::Applying {
        return;
    }
    if item.confirming {
        // No apply was started: the record only confirms what the journal said.
        return super::machine::confirmed(s, now, cluster, seen, out);
    }
    if !item.reconciling {
        return;
    }
    let intended = item.staged.clone().unwrap_or_else(|| s.digest.clone());
    // The intent being settled is the one of the attempt in flight.
    let attempt = item.attempt;
    let intent = item_key(s, cluster, "apply", "intent", attempt);
    match reconcile_apply(&intended, seen) {
        ApplyResolution::Happened => {
            if let Some(item) = s.items.get_mut(cluster) {
                item.reading_since = None;
            }
            // Shaped like an apply's own outcome (`Ok` and the digest), with what was seen.
            let detail = serde_json::json!({"Ok": intended, "observed": seen});
            settle(cluster, &intent, true, detail, out);
            applied(s, cluster, Ok(intended), out)
        }
        ApplyResolution::NotDone => {
            let next = item_key(s, cluster, "apply", "intent", attempt + 1);
            let why = if running {
                format!("not done; applied again as {next}")
            } else {
                "not done; applied again when the run goes on".to_string()
            };
            let detail = serde_json::json!({"Err": why, "observed": seen});
            settle(cluster, &intent, false, detail, out);
            let Some(item) = s.items.get_mut(cluster) else {
                return;
            };
            item.reconciling = false;
            item.reading_since = None;
            if running {
                item.attempt = attempt + 1;
                out.push(Action::Apply {
                    cluster: cluster.clone(),
                    digest: intended,
                    key: next,
                });
            } else {
                // Paused or halted: the apply waits for a person, like any new one.
                item.phase = ItemPhase::Pending;
            }
        }
        // Still reconciling: the next tick asks the cluster again.
        ApplyResolution::Unknown { why } => unreadable_for_long(s, now, cluster, &why, out),
    }
}

/// How long a release record may stay unreadable, while an apply without outcome is
/// settled or a journaled release confirmed, before the run halts for a person: the
/// cluster's batch cannot go on without knowing (a cluster rebuilt with a new identity
/// answers nothing fleetdeck may act on).
pub const RECORD_READ_LIMIT: jiff::SignedDuration = jiff::SignedDuration::from_secs(600);

/// Halts a running run whose cluster's release record has been unreadable for
/// [`RECORD_READ_LIMIT`]; the record is still asked for each tick, and a resume gives it
/// a fresh allowance.
pub(super) fn unreadable_for_long(
    s: &mut RunState,
    now: Timestamp,
    cluster: &ClusterId,
    why: &str,
    out: &mut Vec<Action>,
) {
    let overdue = s
        .items
        .get(cluster)
        .and_then(|item| item.reading_since)
        .is_some_and(|since| now.duration_since(since) >= RECORD_READ_LIMIT);
    if overdue && s.status == RolloutStatus::Running {
        let minutes = RECORD_READ_LIMIT.as_secs() / 60;
        super::machine::halt(
            s,
            HaltReason::OutcomeUnknown {
                cluster: cluster.to_string(),
                why: format!("its release record could not be read for {minutes} minutes: {why}"),
            },
            out,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deployed_digest_decides() {
        let d = ReleaseDigest("sha256:aa".into());
        let other = ReleaseDigest("sha256:bb".into());
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Digest { digest: d.clone() }),
            ApplyResolution::Happened
        );
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Digest { digest: other }),
            ApplyResolution::NotDone
        );
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Nothing),
            ApplyResolution::NotDone
        );
        assert!(matches!(
            reconcile_apply(
                &d,
                &AppliedSeen::Unreachable {
                    why: "timeout".into()
                }
            ),
            ApplyResolution::Unknown { .. }
        ));
    }
}
