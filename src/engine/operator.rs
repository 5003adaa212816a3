//! Carrying out operator commands: check them against the journal's current projection
//! and append the event they become, with the operator as actor. One path for the CLI
//! (`pause`, `maintenance handoff`, …) and the console, so both refuse and record alike.

use jiff::Timestamp;

use crate::i18n::{Arg, Lang, Msg};

use crate::journal::{JournalError, JournalStore, OpenMode};
use crate::model::maintenance::{MaintenanceSpec, NodeFacts};
use crate::model::run::{
    Actor, ClusterRefusal, CommandRefusal, OperatorCommand, RunId, Sequence, cluster_refusal_event,
    command_event, refusal_event,
};

use super::start::{StartError, plan, record_run};

/// Why a command was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    /// Read-only mode refuses every command that writes.
    #[error("read-only mode: refusing to {0} (drop --readonly to act)")]
    ReadOnly(String),
    /// The command does not apply to the journal as it stands.
    #[error(transparent)]
    Refused(#[from] CommandRefusal),
    /// The maintenance could not be planned or recorded.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The journal failed.
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// What was recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The journal sequence of the event.
    pub seq: Sequence,
    /// A sentence for the operator, in whichever language they read.
    pub message: Msg,
}

impl Recorded {
    /// The sentence in English (the CLI's default, and the log).
    pub fn summary(&self) -> String {
        self.message.text(Lang::En)
    }
}

/// Checks `command` and appends it for `actor`. A refusal by the rules is journaled too
/// (see [`refusal_event`]), so the audit trail shows who tried what; if that write fails
/// the refusal is still returned, and the failure logged.
pub fn execute(
    store: &mut impl JournalStore,
    command: &OperatorCommand,
    actor: &Actor,
    mode: OpenMode,
    now: Timestamp,
) -> Result<Recorded, OperatorError> {
    if mode == OpenMode::ReadOnly {
        return Err(OperatorError::ReadOnly(command.verb().to_string()));
    }
    let projection = store.projection()?;
    let event = match command_event(&projection, command, actor, now, std::process::id()) {
        Ok(event) => event,
        Err(refusal) => {
            if let Some(record) = refusal_event(
                &projection,
                command,
                actor,
                now,
                std::process::id(),
                &refusal,
            ) && let Err(error) = store.append(record, None)
            {
                tracing::warn!(%error, command = command.verb(), "refusal not journaled");
            }
            return Err(refusal.into());
        }
    };
    let appended = store.append(event, None)?;
    Ok(Recorded {
        seq: appended.event.seq,
        message: Msg::new("recorded")
            .arg("verb", Msg::new(verb_id(command)))
            .arg("actor", actor.to_string())
            .arg("seq", appended.event.seq.0.to_string())
            .arg(
                "waits",
                waits_for_resume(&projection, command).map_or(Arg::Str(String::new()), Arg::from),
            ),
    })
}

/// For an approval or a return on a paused run: that nothing it lets go happens until the
/// run is resumed, and which pause holds it.
fn waits_for_resume(
    projection: &crate::model::run::Projection,
    command: &OperatorCommand,
) -> Option<Msg> {
    let run = match command {
        OperatorCommand::Approve { run, .. } | OperatorCommand::Return { run, .. } => run,
        _ => return None,
    };
    let view = projection.runs.get(run)?;
    let pause = projection.pause_for(view)?;
    Some(
        Msg::new("recorded-waits-for-resume")
            .arg("scope", pause.scope.to_string())
            .arg("reason", pause.reason.clone())
            .arg("by", pause.by.to_string()),
    )
}

/// The message naming the command's verb (`verb-approve`): the command as people say it.
fn verb_id(command: &OperatorCommand) -> &'static str {
    match command {
        OperatorCommand::Pause { .. } => "verb-pause",
        OperatorCommand::Resume { .. } => "verb-resume",
        OperatorCommand::HandOff { .. } => "verb-handoff",
        OperatorCommand::TakeOver { .. } => "verb-takeover",
        OperatorCommand::Return { .. } => "verb-return",
        OperatorCommand::Abort { .. } => "verb-abort",
        OperatorCommand::Approve { .. } => "verb-approve",
        OperatorCommand::Note { .. } => "verb-note",
        OperatorCommand::Acknowledge { .. } => "verb-acknowledge",
    }
}

/// Journals that `actor` tried `command` and the console refused it by the run's rules
/// before sending it (an approver the rollout's policy does not allow), as `execute`
/// journals such a refusal. The rules are asked again against the journal: only a refusal
/// they confirm is recorded, and the command itself is never appended here, so a console
/// whose view was behind cannot make it happen. Whether a refusal was written.
pub fn record_refused_command(
    store: &mut impl JournalStore,
    command: &OperatorCommand,
    actor: &Actor,
    mode: OpenMode,
    now: Timestamp,
) -> bool {
    if mode == OpenMode::ReadOnly {
        return false;
    }
    let refusal = match store.projection() {
        Ok(projection) => match command_event(&projection, command, actor, now, std::process::id())
        {
            Ok(_) => return false,
            Err(refusal) => refusal_event(
                &projection,
                command,
                actor,
                now,
                std::process::id(),
                &refusal,
            ),
        },
        Err(error) => {
            tracing::warn!(%error, command = command.verb(), "refusal not journaled");
            return false;
        }
    };
    let Some(record) = refusal else {
        return false;
    };
    match store.append(record, None) {
        Ok(_) => true,
        Err(error) => {
            tracing::warn!(%error, command = command.verb(), "refusal not journaled");
            false
        }
    }
}

/// Journals refusals made before a command was sent, because a cluster it concerns cannot
/// take actions (see [`cluster_refusal_event`]), with `actor`, in one write. The refusal
/// stands whatever happens here: read-only mode writes nothing, and a failed write is
/// logged. How many events were written.
pub fn record_refusals(
    store: &mut impl JournalStore,
    refusals: &[ClusterRefusal],
    actor: &Actor,
    mode: OpenMode,
    now: Timestamp,
) -> usize {
    if mode == OpenMode::ReadOnly || refusals.is_empty() {
        return 0;
    }
    let events = refusals
        .iter()
        .map(|refusal| cluster_refusal_event(refusal, actor, now, std::process::id()))
        .collect();
    match store.append_all(events, None) {
        Ok(appended) => appended.len(),
        Err(error) => {
            tracing::warn!(%error, command = refusals[0].command, "refusal not journaled");
            0
        }
    }
}

/// Plans `spec` against `inventory` (the cluster's nodes as last seen) and journals the
/// run, as `maintenance start` does; the executor picks it up.
pub fn start_maintenance(
    store: &mut impl JournalStore,
    spec: &MaintenanceSpec,
    inventory: &[NodeFacts],
    actor: &Actor,
    mode: OpenMode,
    now: Timestamp,
) -> Result<(RunId, crate::model::maintenance::Plan), OperatorError> {
    if mode == OpenMode::ReadOnly {
        return Err(OperatorError::ReadOnly("start maintenance".into()));
    }
    let plan = plan(spec, inventory)?;
    let run = record_run(store, actor, spec, &plan, now)?;
    Ok((run, plan))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SqliteJournal;
    use crate::model::run::PauseScope;

    #[test]
    fn commands_are_journaled_with_the_actor_and_readonly_refuses() {
        let mut store = SqliteJournal::in_memory().unwrap();
        let actor = Actor("dana@ops".into());
        let pause = OperatorCommand::Pause {
            scope: PauseScope::Fleet,
            reason: "incident 42".into(),
        };
        let refused = execute(
            &mut store,
            &pause,
            &actor,
            OpenMode::ReadOnly,
            Timestamp::now(),
        );
        assert!(matches!(refused, Err(OperatorError::ReadOnly(_))));
        assert!(store.projection().unwrap().pauses.is_empty());
        let done = execute(
            &mut store,
            &pause,
            &actor,
            OpenMode::ReadWrite,
            Timestamp::now(),
        )
        .unwrap();
        assert!(done.summary().contains("dana@ops"), "{}", done.summary());
        let projection = store.projection().unwrap();
        assert_eq!(projection.pauses[&PauseScope::Fleet].by, actor);
    }

    #[test]
    fn approvals_follow_the_rollout_policy_in_a_sqlite_journal() {
        use crate::model::rollout::{BatchPhase, read_rollout};
        use crate::model::run::{EventBody, IdempotencyKey, NewEvent, RunId};
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteJournal::open(
            &dir.path().join("j.sqlite"),
            crate::journal::Durability::Full,
        )
        .unwrap();
        let spec = read_rollout(include_str!("../../examples/rollout.yaml"))
            .spec
            .unwrap();
        let run = RunId("ro-1".into());
        let carol = Actor("carol@ops".into());
        let planned = NewEvent::new(
            Timestamp::now(),
            carol.clone(),
            IdempotencyKey("ro-1/planned".into()),
            EventBody::RunPlanned {
                title: "cni".into(),
                items: vec!["c1".into()],
                batches: vec![vec!["c1".into()]],
                spec: crate::model::rollout::journaled_for_tests(spec),
            },
        )
        .with_run(run.clone());
        let waiting = NewEvent::new(
            Timestamp::now(),
            Actor("executor/e1".into()),
            IdempotencyKey("ro-1/batch0".into()),
            EventBody::RolloutBatch {
                batch: 0,
                phase: BatchPhase::AwaitingApproval,
            },
        )
        .with_run(run.clone());
        store.append(planned, None).unwrap();
        let lease = match store
            .acquire_lease(
                &crate::model::run::LeaseScope::fleet(),
                &Actor("executor/e1".into()),
                std::time::Duration::from_secs(60),
                Timestamp::now(),
            )
            .unwrap()
        {
            crate::journal::LeaseGrant::Acquired { lease } => lease,
            other => panic!("{other:?}"),
        };
        store.append(waiting, Some(&lease.fence())).unwrap();
        let approve = OperatorCommand::Approve {
            run: run.clone(),
            batch: None,
            note: "canary looks fine".into(),
        };
        let refused = execute(
            &mut store,
            &approve,
            &carol,
            OpenMode::ReadWrite,
            Timestamp::now(),
        );
        let Err(OperatorError::Refused(why)) = refused else {
            panic!("{refused:?}")
        };
        assert!(why.to_string().contains("distinctApprover"), "{why}");
        // The attempt is in the audit trail, about the run, and changed nothing.
        let events = store.query(&crate::journal::EventQuery::default()).unwrap();
        let Some(last) = events.last() else {
            panic!("no events")
        };
        assert_eq!(last.event.actor, carol);
        assert_eq!(last.event.run.as_ref(), Some(&run));
        assert!(
            matches!(&last.event.body, EventBody::CommandRefused { command, reason }
                if command == "approve" && reason.contains("distinctApprover")),
            "{:?}",
            last.event.body
        );
        assert!(store.projection().unwrap().runs[&run].approvals.is_empty());
        // A mistyped run is the person's to fix, not the audit trail's.
        let unknown = OperatorCommand::Approve {
            run: RunId("ro-typo".into()),
            batch: None,
            note: "x".into(),
        };
        assert!(
            execute(
                &mut store,
                &unknown,
                &carol,
                OpenMode::ReadWrite,
                Timestamp::now()
            )
            .is_err()
        );
        assert_eq!(
            store
                .query(&crate::journal::EventQuery::default())
                .unwrap()
                .len(),
            events.len()
        );
        // Approved while paused: recorded, and the approver is told it waits.
        let pause = OperatorCommand::Pause {
            scope: PauseScope::Run { run: run.clone() },
            reason: "error budget".into(),
        };
        execute(
            &mut store,
            &pause,
            &carol,
            OpenMode::ReadWrite,
            Timestamp::now(),
        )
        .unwrap();
        // The console's refusal by the same rule is recorded the same way; a command the
        // journal's rules would accept is never carried out by it.
        let before = store
            .query(&crate::journal::EventQuery::default())
            .unwrap()
            .len();
        assert!(record_refused_command(
            &mut store,
            &approve,
            &carol,
            OpenMode::ReadWrite,
            Timestamp::now()
        ));
        assert!(!record_refused_command(
            &mut store,
            &approve,
            &carol,
            OpenMode::ReadOnly,
            Timestamp::now()
        ));
        let dave = Actor("dave@ops".into());
        assert!(!record_refused_command(
            &mut store,
            &approve,
            &dave,
            OpenMode::ReadWrite,
            Timestamp::now()
        ));
        let after = store.query(&crate::journal::EventQuery::default()).unwrap();
        assert_eq!(after.len(), before + 1, "one refusal, no approval");
        assert!(matches!(
            &after[after.len() - 1].event.body,
            EventBody::CommandRefused { command, .. } if command == "approve"
        ));
        let approved = execute(
            &mut store,
            &approve,
            &dave,
            OpenMode::ReadWrite,
            Timestamp::now(),
        )
        .unwrap();
        assert!(
            approved
                .summary()
                .contains("the run is paused (run ro-1: error budget, by carol@ops)"),
            "{}",
            approved.summary()
        );
        // The same outcome in Chinese: the verb and frame translated, the pause as given.
        let zh = approved.message.text(Lang::ZhCn);
        assert!(zh.starts_with("批准已由 dave@ops 记录"), "{zh}");
        assert!(zh.contains("error budget"), "{zh}");
        let projection = store.projection().unwrap();
        let view = &projection.runs[&run];
        assert_eq!(view.approvals.len(), 1);
        assert_eq!(view.approvals[0].0, dave);
        assert_eq!(view.approvals[0].2, Some(0));
    }

    #[test]
    fn refusals_before_sending_are_journaled_with_the_actor_unless_read_only() {
        use crate::model::ledger::ClusterId;
        use crate::model::run::EventBody;
        let mut store = SqliteJournal::in_memory().unwrap();
        let bob = Actor("bob@ops".into());
        let refusals = [
            ClusterRefusal::start_maintenance("patch", ClusterId("c1".into()), "Unreachable"),
            ClusterRefusal::start_maintenance("patch", ClusterId("c2".into()), "Unreachable"),
        ];
        let now = Timestamp::now();
        assert_eq!(
            record_refusals(&mut store, &refusals, &bob, OpenMode::ReadOnly, now),
            0
        );
        let all = crate::journal::EventQuery::default();
        assert!(
            store.query(&all).unwrap().is_empty(),
            "read-only writes nothing"
        );
        assert_eq!(
            record_refusals(&mut store, &refusals, &bob, OpenMode::ReadWrite, now),
            2
        );
        let events = store.query(&all).unwrap();
        assert_eq!(events.len(), 2);
        assert!(events.iter().all(|e| e.event.actor == bob));
        assert_eq!(
            events[1].event.cluster.as_ref().map(|c| c.as_str()),
            Some("c2")
        );
        assert!(matches!(
            &events[0].event.body,
            EventBody::CommandRefused { command, reason }
                if command == "start-maintenance" && reason.contains("c1: Unreachable")
        ));
    }
}
