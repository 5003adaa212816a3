//! The rollout run's state, its observations and its actions: the plain data the run
//! reducer works on. The executor performs actions and feeds observations back; the
//! journal keeps every observation so a replay rebuilds the state exactly.

use std::collections::BTreeMap;
use std::time::Duration;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::digest::ReleaseDigest;
use super::gates::{Evidence, HaltReason};
#[cfg(test)]
use super::planner::RolloutPlan;
use super::restart::AppliedSeen;
use super::spec::{Approval, ApprovalPolicy, StopWhen};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, EventBody, IdempotencyKey, RunId};

/// Where a batch of clusters stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "phase",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum BatchPhase {
    /// Not reached yet.
    Pending,
    /// Waiting for a person to approve it.
    AwaitingApproval,
    /// Its clusters are being applied.
    Executing,
    /// Every apply returned; checks are running.
    Verifying,
    /// Every cluster verified; watched until `until` before the next batch starts.
    Soaking {
        /// When the soak ends.
        until: Timestamp,
        /// When metric evidence last arrived during this soak.
        #[serde(alias = "evidence_at")]
        evidence_at: Option<Timestamp>,
    },
    /// Finished and soaked without a stop condition.
    Done,
    /// Stopped by a stop condition; a person resumes or aborts.
    Halted {
        /// Why.
        why: HaltReason,
    },
}

impl BatchPhase {
    /// A short word for tables.
    pub fn word(&self) -> &'static str {
        match self {
            BatchPhase::Pending => "pending",
            BatchPhase::AwaitingApproval => "awaiting-approval",
            BatchPhase::Executing => "executing",
            BatchPhase::Verifying => "verifying",
            BatchPhase::Soaking { .. } => "soaking",
            BatchPhase::Done => "done",
            BatchPhase::Halted { .. } => "halted",
        }
    }

    /// Whether stop conditions are watched in this phase.
    pub fn is_active(&self) -> bool {
        matches!(
            self,
            BatchPhase::Executing | BatchPhase::Verifying | BatchPhase::Soaking { .. }
        )
    }
}

/// Where one cluster of the rollout stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "camelCase")]
pub enum ItemPhase {
    /// Not started.
    Pending,
    /// The release is being applied.
    Applying,
    /// Applied; its checks are running.
    Verifying,
    /// Applied and verified.
    Succeeded,
    /// The apply or a check failed.
    Failed {
        /// What went wrong.
        error: String,
    },
    /// The outcome could not be established: not healthy, a reason to stop.
    Unknown {
        /// Why.
        why: String,
    },
}

impl ItemPhase {
    /// Whether the item has an outcome (succeeded, failed or unknown).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            ItemPhase::Succeeded | ItemPhase::Failed { .. } | ItemPhase::Unknown { .. }
        )
    }
}

/// One cluster: its phase and the staged-versus-applied digests that make a re-run
/// idempotent (a cluster whose applied digest is the run's is never applied again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// Where it stands.
    pub phase: ItemPhase,
    /// The digest this run decided to apply to it.
    pub staged: Option<ReleaseDigest>,
    /// The digest the cluster is known to run.
    pub applied: Option<ReleaseDigest>,
    /// How many applies were requested (part of the apply's idempotency key).
    pub attempt: u32,
    /// After a restart, waiting to learn whether an apply without outcome happened.
    pub reconciling: bool,
    /// The journal says the cluster runs the run's release: waiting for its release
    /// record to confirm it before it is only verified (a cluster rebuilt under the same
    /// id runs nothing of it).
    pub confirming: bool,
    /// When its release record was first asked for while reconciling or confirming: one
    /// that stays unreadable for [`RECORD_READ_LIMIT`](super::RECORD_READ_LIMIT) halts
    /// the run rather than keeping its batch busy for ever.
    #[serde(default)]
    pub reading_since: Option<Timestamp>,
    /// How many verification rounds were requested (part of the verdict's key).
    pub verifications: u32,
}

/// One batch of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Batch {
    /// The stage it belongs to.
    pub stage: String,
    /// Its clusters.
    pub clusters: Vec<ClusterId>,
    /// Whether it waits for a person.
    pub approval: Approval,
    /// How long it is watched after verifying.
    #[serde(serialize_with = "super::gates::seconds::serialize")]
    pub soak: Duration,
    /// Where it stands.
    pub phase: BatchPhase,
    /// Who approved it.
    pub approved_by: Option<Actor>,
    /// How many phase changes were journaled (part of their keys, so a batch entering
    /// the same phase twice, e.g. after a resume, gets a fresh key).
    pub changes: u32,
}

/// Where the whole rollout stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum RolloutStatus {
    /// Working (or waiting for an approval).
    Running,
    /// A person paused it: nothing new starts, nothing is undone.
    Paused {
        /// Who.
        by: Actor,
        /// Why.
        reason: String,
    },
    /// A stop condition fired; a person resumes or aborts.
    Halted {
        /// Why.
        why: HaltReason,
    },
    /// Stopped for good by a person; nothing was undone.
    Aborted {
        /// Who.
        by: Actor,
        /// Why.
        note: String,
    },
    /// Every batch done.
    Succeeded,
}

impl std::fmt::Display for RolloutStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RolloutStatus::Running => write!(f, "running"),
            RolloutStatus::Paused { by, .. } => write!(f, "paused by {by}"),
            RolloutStatus::Halted { why } => write!(f, "halted: {why}"),
            RolloutStatus::Aborted { by, .. } => write!(f, "aborted by {by}"),
            RolloutStatus::Succeeded => write!(f, "succeeded"),
        }
    }
}

/// The rollout run: everything the reducer decides from. Rebuilt after a restart by
/// replaying the journaled observations through the reducer, so it is only written out.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunState {
    /// The run.
    pub run: RunId,
    /// Who started it (refused as approver under `distinctApprover`).
    pub author: Actor,
    /// The release digest every cluster should end up with.
    pub digest: ReleaseDigest,
    /// Stop conditions.
    pub stop_when: StopWhen,
    /// Who may approve.
    pub approvals: ApprovalPolicy,
    /// Where the run stands.
    pub status: RolloutStatus,
    /// Batches in order.
    pub batches: Vec<Batch>,
    /// The batch being worked on.
    pub current: usize,
    /// Every cluster, by id.
    #[serde(serialize_with = "items::serialize")]
    pub items: BTreeMap<ClusterId, Item>,
    /// Clusters that failed, in the order they failed.
    pub failed: Vec<ClusterId>,
    /// How many of `failed` a person accepted by resuming; only newer ones count.
    pub accepted_failures: usize,
    /// Whether a cluster the journal says runs the digest has its release record read
    /// before it is only verified. Runs journaled before this rule verified such a
    /// cluster at once; their spec says so, and they replay as they were decided.
    pub confirm_applied: bool,
    /// Clusters whose short window burns above its maximum while the long window does
    /// not (a two-window condition): the gate holds, and the evidence that changed this
    /// set is journaled, so the findings can say so.
    pub short_window_only: std::collections::BTreeSet<ClusterId>,
}

impl Batch {
    /// A batch not reached yet.
    pub fn pending(
        stage: String,
        clusters: Vec<ClusterId>,
        approval: Approval,
        soak: Duration,
    ) -> Batch {
        Batch {
            stage,
            clusters,
            approval,
            soak,
            phase: BatchPhase::Pending,
            approved_by: None,
            changes: 0,
        }
    }
}

impl RunState {
    /// A fresh run over `batches`. `applied` says which clusters already run which digest
    /// (from earlier runs in the journal or from the clusters): those are verified, never
    /// applied again.
    pub fn new(
        run: RunId,
        author: Actor,
        digest: ReleaseDigest,
        batches: Vec<Batch>,
        stop_when: StopWhen,
        approvals: ApprovalPolicy,
        applied: &BTreeMap<ClusterId, ReleaseDigest>,
    ) -> RunState {
        let items = batches
            .iter()
            .flat_map(|b| &b.clusters)
            .map(|c| {
                let item = Item {
                    phase: ItemPhase::Pending,
                    staged: None,
                    applied: applied.get(c).cloned(),
                    attempt: 0,
                    reconciling: false,
                    confirming: false,
                    reading_since: None,
                    verifications: 0,
                };
                (c.clone(), item)
            })
            .collect();
        RunState {
            run,
            author,
            digest,
            stop_when,
            approvals,
            status: RolloutStatus::Running,
            batches,
            current: 0,
            items,
            failed: Vec::new(),
            accepted_failures: 0,
            confirm_applied: true,
            short_window_only: std::collections::BTreeSet::new(),
        }
    }

    /// A fresh run over a plan's batches (runs themselves start from their journaled
    /// spec: [`RolloutRunSpec::initial_state`](super::RolloutRunSpec::initial_state)).
    #[cfg(test)]
    pub fn from_plan(
        run: RunId,
        author: Actor,
        digest: ReleaseDigest,
        plan: &RolloutPlan,
        stop_when: StopWhen,
        approvals: ApprovalPolicy,
        applied: &BTreeMap<ClusterId, ReleaseDigest>,
    ) -> RunState {
        let batches = plan
            .stages
            .iter()
            .flat_map(|stage| {
                stage.batches.iter().map(|clusters| {
                    Batch::pending(
                        stage.name.clone(),
                        clusters.clone(),
                        stage.approval,
                        stage.soak,
                    )
                })
            })
            .collect();
        RunState::new(run, author, digest, batches, stop_when, approvals, applied)
    }
}

/// How a cluster's checks came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum VerifyOutcome {
    /// Every check passed.
    Pass,
    /// A check failed.
    Fail {
        /// Which and how.
        reason: String,
    },
    /// A check could not be evaluated (cluster unreachable, query failed).
    Unknown {
        /// Why.
        why: String,
    },
}

/// What the executor (or a person, through the journal) tells the reducer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "observed", rename_all = "camelCase")]
pub enum Observation {
    /// Time passed (also the first observation of a run): start what may start.
    Tick,
    /// A person approved a batch.
    Approve {
        /// The batch index.
        batch: usize,
        /// Who.
        by: Actor,
        /// Why.
        note: String,
    },
    /// An apply returned: the digest the cluster now reports, or the error.
    Applied {
        /// The cluster.
        #[serde(with = "crate::model::run::cluster_id")]
        cluster: ClusterId,
        /// What happened.
        result: Result<ReleaseDigest, String>,
    },
    /// A cluster's checks finished.
    Verified {
        /// The cluster.
        #[serde(with = "crate::model::run::cluster_id")]
        cluster: ClusterId,
        /// How they came out.
        outcome: VerifyOutcome,
    },
    /// Metric samples for the clusters the run asked about.
    Evidence(Evidence),
    /// A person paused the run.
    Pause {
        /// Who.
        by: Actor,
        /// Why.
        reason: String,
    },
    /// A person resumed a paused or halted run.
    Resume {
        /// Who.
        by: Actor,
        /// Why it is safe now.
        note: String,
    },
    /// A person aborted the run.
    Abort {
        /// Who.
        by: Actor,
        /// Why.
        note: String,
    },
    /// A new executor took over: settle what was in flight before going on.
    Restarted,
    /// After a restart, what a cluster reports as applied.
    Reconciled {
        /// The cluster.
        #[serde(with = "crate::model::run::cluster_id")]
        cluster: ClusterId,
        /// What was seen.
        seen: AppliedSeen,
    },
}

/// What the reducer asks for. Side effects carry idempotency keys built like
/// [`IdempotencyKey::for_step`]; the executor journals the intent under that key before
/// performing them and the outcome after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum Action {
    /// Append this event to the journal (run in the envelope; cluster when given).
    Journal {
        /// The cluster it concerns, if any (also the envelope's item).
        cluster: Option<ClusterId>,
        /// The event's idempotency key.
        key: IdempotencyKey,
        /// The event.
        body: EventBody,
    },
    /// Tell the operators a batch waits for approval.
    AwaitApproval {
        /// The batch index.
        batch: usize,
    },
    /// Apply the release to a cluster, then feed back [`Observation::Applied`].
    Apply {
        /// The cluster.
        cluster: ClusterId,
        /// What to apply.
        digest: ReleaseDigest,
        /// The intent's key (also given to an exec action as `FLEETDECK_IDEMPOTENCY_KEY`).
        key: IdempotencyKey,
    },
    /// Run the release's checks on a cluster, then feed back [`Observation::Verified`].
    Verify {
        /// The cluster.
        cluster: ClusterId,
    },
    /// Read which release digest the cluster runs, then feed back
    /// [`Observation::Reconciled`].
    ObserveApplied {
        /// The cluster.
        cluster: ClusterId,
    },
    /// Query the metrics of these clusters, then feed back [`Observation::Evidence`].
    CollectEvidence {
        /// The clusters the release reached.
        clusters: Vec<ClusterId>,
    },
    /// Feed a [`Observation::Tick`] at this time at the latest (end of a soak).
    WakeAt(Timestamp),
    /// A command was refused; tell the person who gave it.
    Refused(super::approval::Refusal),
}

/// Run state keys items by cluster id text in serialised form.
mod items {
    use std::collections::BTreeMap;

    use serde::{Serialize, Serializer};

    use super::Item;
    use crate::model::ledger::ClusterId;

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<ClusterId, Item>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let plain: BTreeMap<&str, &Item> = map.iter().map(|(k, v)| (k.0.as_str(), v)).collect();
        plain.serialize(s)
    }
}
