//! Who may approve a batch, resume or abort a run: decisions only a person takes, and
//! under `distinctApprover` not the person who started the rollout.

use serde::Serialize;

use super::spec::ApprovalPolicy;
use super::state::BatchPhase;
use crate::i18n::{Arg, Msg};
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

impl Refusal {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language. Cluster names, phases and statuses, and a blocked cluster's reason (in
    /// the words of whoever looked), are shown as they are.
    pub fn msg(&self) -> Msg {
        self.msg_naming(|blocked| format!("{} ({})", blocked.cluster, blocked.reason))
    }

    /// [`Refusal::msg`], with each blocked cluster and its reason as `name` words them
    /// (the console has the live view's reasons in the reader's language).
    pub fn msg_naming(&self, name: impl Fn(&BlockedCluster) -> String) -> Msg {
        match self {
            Refusal::AuthorCannotApprove { approver } => {
                Msg::new("reason-author-cannot-approve").arg("approver", approver.to_string())
            }
            Refusal::OnlyAPerson { actor, what } => Msg::new("reason-only-a-person")
                .arg("actor", actor.to_string())
                .arg("what", what_msg(what)),
            Refusal::NotAwaitingApproval { batch, phase } => {
                Msg::new("reason-not-awaiting-approval")
                    .arg("batch", batch.to_string())
                    .arg("phase", phase)
            }
            Refusal::ClustersCannotAct { number, clusters } => {
                Msg::new("reason-clusters-cannot-act")
                    .arg("number", number.to_string())
                    .arg(
                        "clusters",
                        clusters.iter().map(&name).collect::<Vec<_>>().join(", "),
                    )
            }
            Refusal::NotNow { what, status } => Msg::new("reason-not-now")
                .arg("what", what_msg(what))
                .arg("status", status),
        }
    }
}

/// What a person (not automation) was refused, as a message when it is one of the
/// model's own phrases; shown as written otherwise.
fn what_msg(what: &str) -> Arg {
    match what {
        "approve a batch" => Msg::new("reason-what-approve-batch").into(),
        "abort a rollout" => Msg::new("reason-what-abort-rollout").into(),
        "resume a rollout" => Msg::new("reason-what-resume-rollout").into(),
        "pause" => Msg::new("reason-what-pause").into(),
        "abort" => Msg::new("reason-what-abort").into(),
        "approve" => Msg::new("reason-what-approve").into(),
        "resume" => Msg::new("reason-what-resume").into(),
        other => Arg::from(other),
    }
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
    check_approver(policy, author, approver)?;
    if *phase != BatchPhase::AwaitingApproval {
        return Err(Refusal::NotAwaitingApproval {
            batch,
            phase: phase.word().to_string(),
        });
    }
    Ok(())
}

/// Whether `approver` is someone who may approve a rollout started by `author` at all
/// (a person, and under `distinctApprover` not its author), whatever its batches stand
/// at: the rule an approval in the journal must meet to count, for every reader (the
/// PostgreSQL journal checks the same before it stores one).
pub fn check_approver(
    policy: ApprovalPolicy,
    author: &Actor,
    approver: &Actor,
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_says_its_english_as_a_message_and_in_chinese() {
        use crate::i18n::Lang;
        let blocked = |c: &str, why: &str| BlockedCluster {
            cluster: ClusterId::from(c.to_string()),
            reason: why.into(),
        };
        let all = [
            Refusal::AuthorCannotApprove {
                approver: Actor("alice@h".into()),
            },
            Refusal::OnlyAPerson {
                actor: Actor("executor/x".into()),
                what: "approve a batch".into(),
            },
            Refusal::OnlyAPerson {
                actor: Actor("executor/x".into()),
                what: "something new".into(),
            },
            Refusal::NotAwaitingApproval {
                batch: 2,
                phase: "executing".into(),
            },
            Refusal::ClustersCannotAct {
                number: 2,
                clusters: vec![
                    blocked("prod-apse1-03", "Unreachable"),
                    blocked("prod-apse1-05", "the ledger pins no identity"),
                ],
            },
            Refusal::NotNow {
                what: "resume".into(),
                status: "running".into(),
            },
        ];
        for refusal in &all {
            // English from the catalogue is the model's own sentence, byte for byte.
            assert_eq!(refusal.msg().text(Lang::En), refusal.to_string());
            let zh = refusal.msg().text(Lang::ZhCn);
            assert_ne!(zh, refusal.to_string(), "{zh}");
        }
        let zh = all[4].msg().text(Lang::ZhCn);
        assert_eq!(
            zh,
            "第 2 批次现在不能批准：prod-apse1-03 (Unreachable), prod-apse1-05 (the ledger pins no identity) 无法执行操作；请暂停或中止运行，或等到该批次的每个集群都能执行操作（Synced 或 Degraded，且已确认台账固定的身份）后再批准"
        );
        assert_eq!(
            all[0].msg().text(Lang::ZhCn),
            "alice@h 发起了这次发布，不能批准它的批次（approvals.distinctApprover 为 true）：请另一个人批准"
        );
        assert_eq!(
            all[1].msg().text(Lang::ZhCn),
            "executor/x 是自动化：只有人可以批准批次"
        );
        // A phrase the catalogue does not know is shown as written, inside Chinese.
        assert_eq!(
            all[2].msg().text(Lang::ZhCn),
            "executor/x 是自动化：只有人可以something new"
        );
    }

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
