//! Exit codes, as docs/cli.md documents them: 0 done; 1 the command ran
//! and said no (the input has errors, the rules refused it, or it found problems); 2 it
//! could not run (a file it cannot read, a bad flag, an invalid configuration or ledger,
//! a journal or cluster it cannot reach); 3 the journal did not confirm a write, which
//! may have been recorded (never reported as failed: it may have happened).

use std::error::Error;
use std::process::ExitCode;

use fleetdeck::engine::operator::OperatorError;
use fleetdeck::engine::rollout_start::RolloutStartError;
use fleetdeck::engine::start::StartError;
use fleetdeck::k8s::verified::Unverified;
use fleetdeck::model::live::ChangeRefusal;
use fleetdeck::model::maintenance::PlanRefusal;
use fleetdeck::model::rollout::{PlanError, Refusal};
use fleetdeck::model::run::CommandRefusal;

/// A command the CLI itself refuses before any rule of the library is asked (read-only
/// mode, a file with errors): it ends with exit code 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// The exit code for a command that ended with `error`: 1 when anything in its chain is
/// a refusal or a problem with what the user gave, else 2.
pub fn code_for(error: &anyhow::Error) -> ExitCode {
    let unconfirmed = error.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<fleetdeck::journal::JournalError>(),
            Some(fleetdeck::journal::JournalError::Unknown(..))
        ) || matches!(
            cause.downcast_ref::<OperatorError>(),
            Some(OperatorError::Journal(
                fleetdeck::journal::JournalError::Unknown(..)
            ))
        )
    });
    if unconfirmed {
        return ExitCode::from(3);
    }
    if error.chain().any(is_refusal) {
        ExitCode::FAILURE
    } else {
        ExitCode::from(2)
    }
}

/// Whether `cause` says no to the command as given, rather than that it could not run.
fn is_refusal(cause: &(dyn Error + 'static)) -> bool {
    if let Some(error) = cause.downcast_ref::<OperatorError>() {
        return match error {
            OperatorError::ReadOnly(_) | OperatorError::Refused(_) => true,
            OperatorError::Start(start) => matches!(start, StartError::Refused(_)),
            OperatorError::Journal(_) => false,
        };
    }
    if let Some(error) = cause.downcast_ref::<StartError>() {
        return matches!(error, StartError::Refused(_));
    }
    // Not the cluster the ledger pins (or not pinned) is the identity rule saying no; a
    // cluster that does not answer is one the command could not reach.
    if let Some(error) = cause.downcast_ref::<Unverified>() {
        return matches!(error, Unverified::Refused(_));
    }
    if let Some(error) = cause.downcast_ref::<RolloutStartError>() {
        return matches!(error, RolloutStartError::Busy(_) | RolloutStartError::Empty);
    }
    if let Some(error) = cause.downcast_ref::<fleetdeck::engine::gitops_sync::SyncChangeError>() {
        use fleetdeck::engine::gitops_sync::SyncChangeError as E;
        return matches!(
            error,
            E::ReadOnly(_) | E::NoReason(_) | E::Refused(_) | E::NotFound(_)
        );
    }
    if let Some(error) = cause.downcast_ref::<fleetdeck::engine::window_override::OverrideError>() {
        use fleetdeck::engine::window_override::OverrideError as E;
        return !matches!(error, E::Journal(_));
    }
    cause.is::<Refused>()
        || cause.is::<CommandRefusal>()
        || cause.is::<Refusal>()
        || cause.is::<PlanRefusal>()
        || cause.is::<PlanError>()
        || cause.is::<ChangeRefusal>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetdeck::journal::JournalError;
    use fleetdeck::model::run::{Actor, RunId};

    fn code(error: anyhow::Error) -> ExitCode {
        code_for(&error)
    }

    #[test]
    fn refusals_exit_1_and_what_could_not_run_exits_2() {
        let refused = [
            anyhow::Error::new(OperatorError::ReadOnly("pause".into())),
            anyhow::Error::new(OperatorError::Refused(CommandRefusal::NoRun(RunId(
                "r1".into(),
            )))),
            anyhow::Error::new(Refusal::AuthorCannotApprove {
                approver: Actor("alice@ops".into()),
            }),
            anyhow::Error::new(Refused("read-only mode".into())),
            anyhow::Error::new(ChangeRefusal::NotPinned).context("c1: refusing to plan"),
            anyhow::Error::new(Unverified::Refused(ChangeRefusal::NotPinned))
                .context("c1: refusing to plan maintenance"),
        ];
        for error in refused {
            assert_eq!(code(error), ExitCode::FAILURE);
        }
        let could_not_run = [
            anyhow::Error::new(OperatorError::Journal(JournalError::Invalid("x".into()))),
            anyhow::anyhow!("cannot read nope.yaml"),
        ];
        for error in could_not_run {
            assert_eq!(code(error), ExitCode::from(2));
        }
        let unknown = JournalError::Unknown("connection closed".into(), vec!["cmd/a".into()]);
        assert_eq!(
            code(anyhow::Error::new(OperatorError::Journal(unknown))),
            ExitCode::from(3),
            "a write that may have happened is not reported as failed"
        );
    }
}
