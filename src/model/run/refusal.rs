//! Refused commands: why an operator command was not written, and the journal events
//! that keep a refusal in the audit trail (a command the rules refused, or a change
//! refused before it was sent because a cluster it concerns cannot take actions).

use jiff::Timestamp;

use super::command::{OperatorCommand, about_run, operator_event, run_of};
use super::event::{EventBody, NewEvent};
use super::ids::{Actor, ItemId, RunId};
use super::projection::Projection;
use super::status::RunStatus;
use crate::i18n::{Arg, Msg};
use crate::model::ledger::ClusterId;
use crate::model::rollout::Refusal;

/// Why a command was not written, in words the operator can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandRefusal {
    /// The run is not in the journal.
    #[error("no run {0} in the journal")]
    NoRun(RunId),
    /// The run has no such item.
    #[error("run {run} has no node {item}")]
    NoItem {
        /// The run.
        run: RunId,
        /// The item asked for.
        item: ItemId,
    },
    /// No batch is waiting for approval.
    #[error("no batch of {0} is awaiting approval")]
    NothingToApprove(RunId),
    /// The rollout's approval rules refuse this approver or batch.
    #[error(transparent)]
    Approval(#[from] Refusal),
    /// A required text (reason, note, assignee) is empty.
    #[error("{0} must not be empty")]
    Empty(&'static str),
    /// A return for a node nobody was handed or took over: the engine still has it.
    #[error(
        "node {item} of {run} is not in a person's hands: hand it off or take it over first, then return it"
    )]
    NotInHand {
        /// The run.
        run: RunId,
        /// The item.
        item: ItemId,
    },
    /// The run is over (aborted or succeeded): nothing follows an abort or a return of
    /// it any more.
    #[error("{run} is already {status}: {what}")]
    RunOver {
        /// The run.
        run: RunId,
        /// How it ended.
        status: RunStatus,
        /// What that means for the command.
        what: &'static str,
    },
}

impl CommandRefusal {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language (ids, names and statuses as they are).
    pub fn msg(&self) -> Msg {
        match self {
            CommandRefusal::NoRun(run) => Msg::new("reason-no-run").arg("run", run.to_string()),
            CommandRefusal::NoItem { run, item } => Msg::new("reason-no-item")
                .arg("run", run.to_string())
                .arg("item", item.to_string()),
            CommandRefusal::NothingToApprove(run) => {
                Msg::new("reason-nothing-to-approve").arg("run", run.to_string())
            }
            CommandRefusal::Approval(refusal) => refusal.msg(),
            CommandRefusal::Empty(what) => Msg::new("reason-empty").arg(
                "what",
                match *what {
                    "the reason" => Msg::new("reason-field-reason").into(),
                    "the assignee" => Msg::new("reason-field-assignee").into(),
                    "the note" => Msg::new("reason-field-note").into(),
                    other => Arg::from(other),
                },
            ),
            CommandRefusal::NotInHand { run, item } => Msg::new("reason-not-in-hand")
                .arg("run", run.to_string())
                .arg("item", item.to_string()),
            CommandRefusal::RunOver { run, status, what } => Msg::new("reason-run-over")
                .arg("run", run.to_string())
                .arg("status", status.to_string())
                .arg("what", over_msg(what)),
        }
    }

    /// Whether the refusal is worth an entry in the audit trail: the rules said no to
    /// something a person meant to do. Input that names nothing real or leaves a text
    /// empty is a typing mistake, reported to the person only.
    pub fn is_audited(&self) -> bool {
        !matches!(
            self,
            CommandRefusal::NoRun(_) | CommandRefusal::NoItem { .. } | CommandRefusal::Empty(_)
        )
    }
}

/// What a refusal of a command on a run that is over means, as a message when it is one
/// of the model's own phrases.
fn over_msg(what: &str) -> Arg {
    match what {
        OVER_NOTHING_TO_ABORT => Msg::new("reason-over-nothing-to-abort").into(),
        OVER_ABORTED_NODES => Msg::new("reason-over-aborted-nodes").into(),
        OVER_FINISHED => Msg::new("reason-over-finished").into(),
        other => Arg::from(other),
    }
}

/// An abort of a run that is over.
pub(super) const OVER_NOTHING_TO_ABORT: &str = "there is nothing left to abort";
/// A node's hand-off, take-over or return in an aborted run.
pub(super) const OVER_ABORTED_NODES: &str = "nothing follows on its nodes any more; a node it left stays as it is \
     (uncordon it by hand once it is fit)";
/// A node's hand-off, take-over or return in a run that finished.
pub(super) const OVER_FINISHED: &str = "every node of it finished; nothing follows";

/// The journal event recording that `actor` gave `command` at `now` and it was refused,
/// about the same run, item and cluster the command would have been; `None` when the
/// refusal is not audited (see [`CommandRefusal::is_audited`]). Pure: the caller appends.
pub fn refusal_event(
    projection: &Projection,
    command: &OperatorCommand,
    actor: &Actor,
    now: Timestamp,
    process: u32,
    refusal: &CommandRefusal,
) -> Option<NewEvent> {
    if !refusal.is_audited() {
        return None;
    }
    let mut event = operator_event(
        actor,
        now,
        process,
        &format!("refused-{}", command.verb()),
        EventBody::CommandRefused {
            command: command.verb().to_string(),
            reason: refusal.to_string(),
        },
    );
    // The rules refuse only approvals, aborts and a node's hand-off, take-over or return:
    // every other command is refused only for naming nothing real or leaving a text
    // empty, which is not audited (the test
    // `only_approvals_aborts_and_returns_are_refused_by_the_rules` keeps this true).
    // Should that change, the refusal is still kept, about nothing in particular.
    let (run, item) = match command {
        OperatorCommand::Approve { run, .. } | OperatorCommand::Abort { run, .. } => {
            (Some(run), None)
        }
        OperatorCommand::Return { run, item, .. }
        | OperatorCommand::HandOff { run, item, .. }
        | OperatorCommand::TakeOver { run, item, .. } => (Some(run), Some(item)),
        _ => (None, None),
    };
    if let Some(view) = run.and_then(|run| run_of(projection, run).ok()) {
        event = about_run(event, view);
    }
    event.item = item.cloned();
    Some(event)
}

/// A change a person asked for, refused before anything was sent because a cluster it
/// concerns cannot take actions now (unreachable, not the cluster the ledger pins, not
/// pinned, nothing recent known). Built by the constructors, which fix the verb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterRefusal {
    /// The command's verb (`approve`, `start-maintenance`).
    pub command: &'static str,
    /// The run it concerns, if it has one yet.
    pub run: Option<RunId>,
    /// The cluster that cannot take actions.
    pub cluster: ClusterId,
    /// Why, in the words the person was told.
    pub reason: String,
}

impl ClusterRefusal {
    /// The verb of starting a maintenance.
    pub const START_MAINTENANCE: &'static str = "start-maintenance";

    /// One refusal per cluster an approval of `run` was refused for, each with the
    /// refusal as it reads for that cluster alone; none when `refusal` is not about
    /// clusters that cannot act.
    pub fn of_approval(run: &RunId, refusal: &Refusal) -> Vec<ClusterRefusal> {
        let Refusal::ClustersCannotAct { number, clusters } = refusal else {
            return Vec::new();
        };
        clusters
            .iter()
            .map(|blocked| ClusterRefusal {
                command: "approve",
                run: Some(run.clone()),
                cluster: blocked.cluster.clone(),
                reason: Refusal::ClustersCannotAct {
                    number: *number,
                    clusters: vec![blocked.clone()],
                }
                .to_string(),
            })
            .collect()
    }

    /// Starting the maintenance `name` on `cluster` was refused: `reason` is why the
    /// cluster cannot take actions.
    pub fn start_maintenance(name: &str, cluster: ClusterId, reason: &str) -> ClusterRefusal {
        ClusterRefusal {
            command: Self::START_MAINTENANCE,
            run: None,
            reason: format!("maintenance {name} on {cluster}: {reason}"),
            cluster,
        }
    }
}

/// The journal event recording that `actor` was refused `refusal` at `now`, about its run
/// and cluster. Several refusals of one attempt (one per cluster) get distinct keys. Pure:
/// the caller appends.
pub fn cluster_refusal_event(
    refusal: &ClusterRefusal,
    actor: &Actor,
    now: Timestamp,
    process: u32,
) -> NewEvent {
    let mut event = operator_event(
        actor,
        now,
        process,
        &format!("refused-{}/{}", refusal.command, refusal.cluster),
        EventBody::CommandRefused {
            command: refusal.command.to_string(),
            reason: refusal.reason.clone(),
        },
    )
    .with_cluster(refusal.cluster.clone());
    event.run = refusal.run.clone();
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_command_refusal_says_its_english_as_a_message_and_in_chinese() {
        let run = RunId::from("mt-1");
        let item = ItemId::from("node-a");
        let all = [
            CommandRefusal::NoRun(run.clone()),
            CommandRefusal::NoItem {
                run: run.clone(),
                item: item.clone(),
            },
            CommandRefusal::NothingToApprove(run.clone()),
            CommandRefusal::Approval(Refusal::NotNow {
                what: "abort".into(),
                status: "succeeded".into(),
            }),
            CommandRefusal::Empty("the reason"),
            CommandRefusal::Empty("the note"),
            CommandRefusal::Empty("the assignee"),
            CommandRefusal::NotInHand {
                run: run.clone(),
                item: item.clone(),
            },
            CommandRefusal::RunOver {
                run: run.clone(),
                status: RunStatus::Aborted,
                what: OVER_NOTHING_TO_ABORT,
            },
            CommandRefusal::RunOver {
                run: run.clone(),
                status: RunStatus::Aborted,
                what: OVER_ABORTED_NODES,
            },
            CommandRefusal::RunOver {
                run: run.clone(),
                status: RunStatus::Succeeded,
                what: OVER_FINISHED,
            },
        ];
        for refusal in &all {
            assert_eq!(refusal.msg().text(Lang::En), refusal.to_string());
            let zh = refusal.msg().text(Lang::ZhCn);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "not Chinese: {zh}"
            );
        }
        assert_eq!(all[4].msg().text(Lang::ZhCn), "原因不能为空");
        assert_eq!(
            all[9].msg().text(Lang::ZhCn),
            "mt-1 已是 aborted：它的节点上不会再有后续操作；它留下的节点保持原样（待节点恢复正常后请手动解除封锁）"
        );
        assert_eq!(
            all[3].msg().text(Lang::ZhCn),
            "无法中止：运行处于 succeeded"
        );
    }
}
