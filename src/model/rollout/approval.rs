//! Who may approve a batch, resume or abort a run: decisions only a person takes, and
//! under `distinctApprover` not the person who started the rollout.

use serde::Serialize;

use super::spec::ApprovalPolicy;
use super::state::BatchPhase;
use crate::model::ledger::ClusterId;
use crate::model::run::Actor;

/// Why an operator command was refused, in words the person can act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "refusal", rename_all = "camelCase")]
pub enum Refusal {
    /// `distinctApprover` is set and the approver started the rollout.
    #[error(
        "{approver} started this rollout and cannot approve its batches (approvals.distinctApprover is true): ask another person"
    )]
    AuthorCannotApprove {
        /// The would-be approver.
        approver: Actor,
    },
    /// Approvals, resumes and aborts are decisions for a person, never for automation.
    #[error("{actor} is automation: only a person may {what}")]
    OnlyAPerson {
        /// Who tried.
        actor: Actor,
        /// What they tried.
        what: String,
    },
    /// The batch named is not the one waiting for approval.
    #[error("batch {batch} is not awaiting approval (it is {phase})")]
    NotAwaitingApproval {
        /// The batch named.
        batch: usize,
        /// Its phase.
        phase: String,
    },
    /// Clusters of the batch to approve cannot take actions now (unreachable, not the
    /// cluster the ledger pins, not pinned at all, nothing recent known): approving would
    /// only fail them.
    #[error(
        "batch {number} cannot be approved now: {} cannot take actions; pause or abort the run, or wait until every cluster of the batch can take actions (Synced or Degraded, with the identity the ledger pins confirmed) and approve then",
        named(.clusters)
    )]
    ClustersCannotAct {
        /// The batch, counted from 1 as people count it.
        number: usize,
        /// Each cluster that cannot act, with its reason.
        clusters: Vec<BlockedCluster>,
    },
    /// The command does not apply to the run as it stands.
    #[error("cannot {what}: the run is {status}")]
    NotNow {
        /// What was asked.
        what: String,
        /// The run's status.
        status: String,
    },
}

/// A cluster that cannot take actions now, and why (in the words of whoever looked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockedCluster {
    /// The cluster.
    pub cluster: ClusterId,
    /// Why it cannot take actions (`Unreachable`, `the ledger pins no identity`, …).
    pub reason: String,
}

/// `prod-apse1-03 (Unreachable), prod-apse1-05 (the ledger pins no identity)`.
fn named(clusters: &[BlockedCluster]) -> String {
    clusters
        .iter()
        .map(|c| format!("{} ({})", c.cluster, c.reason))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `approver` may approve batch `batch`, which stands at `phase`, of a rollout
/// started by `author`.
pub fn check_approval(
    policy: ApprovalPolicy,
    author: &Actor,
    approver: &Actor,
    batch: usize,
    phase: &BatchPhase,
) -> Result<(), Refusal> {
    if approver.is_automation() {
        return Err(Refusal::OnlyAPerson {
            actor: approver.clone(),
            what: "approve a batch".into(),
        });
    }
    if policy == ApprovalPolicy::DistinctFromAuthor && approver == author {
        return Err(Refusal::AuthorCannotApprove {
            approver: approver.clone(),
        });
    }
    if *phase != BatchPhase::AwaitingApproval {
        return Err(Refusal::NotAwaitingApproval {
            batch,
            phase: phase.word().to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_author_is_refused_only_under_distinct_approver() {
        let alice = Actor("alice@h".into());
        let bob = Actor("bob@h".into());
        let waiting = BatchPhase::AwaitingApproval;
        let refused = check_approval(
            ApprovalPolicy::DistinctFromAuthor,
            &alice,
            &alice,
            0,
            &waiting,
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("alice@h started this rollout and cannot approve its batches (approvals.distinctApprover is true): ask another person".to_string())
        );
        assert!(
            check_approval(
                ApprovalPolicy::DistinctFromAuthor,
                &alice,
                &bob,
                0,
                &waiting
            )
            .is_ok()
        );
        assert!(check_approval(ApprovalPolicy::AnyPerson, &alice, &alice, 0, &waiting).is_ok());
        let robot = Actor("executor/x".into());
        assert!(matches!(
            check_approval(ApprovalPolicy::AnyPerson, &alice, &robot, 0, &waiting),
            Err(Refusal::OnlyAPerson { .. })
        ));
        assert!(matches!(
            check_approval(
                ApprovalPolicy::AnyPerson,
                &alice,
                &bob,
                2,
                &BatchPhase::Pending
            ),
            Err(Refusal::NotAwaitingApproval { batch: 2, .. })
        ));
    }
}
