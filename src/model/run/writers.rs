//! Who writes each kind of journal event: one writer role per kind. The PostgreSQL
//! journal checks it in the database (`fleetdeck.role_for_kind`, which mirrors this
//! table; a test holds them equal), and every event an executor writes must carry the
//! fence of the lease it holds (see [`needs_fence`]). docs/team.md shows the table.

/// The team role that may write an event kind (an admin may write every kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Writer {
    /// A person operating the fleet: plans runs, pauses, hands off, notes.
    Operator,
    /// A person approving batches.
    Approver,
    /// The executor holding the lease: everything it does and observes.
    Executor,
    /// Nobody but an admin: kinds this version does not know (a newer fleetdeck's).
    Admin,
}

impl Writer {
    /// The PostgreSQL role of team mode that writes it (`fleetdeck_operator`, …).
    pub fn role(self) -> &'static str {
        match self {
            Writer::Operator => "fleetdeck_operator",
            Writer::Approver => "fleetdeck_approver",
            Writer::Executor => "fleetdeck_executor",
            Writer::Admin => "fleetdeck_admin",
        }
    }
}

/// The one role that writes `kind`.
pub fn writer_of(kind: &str) -> Writer {
    match kind {
        "run.approved" => Writer::Approver,
        "run.planned"
        | "operator.pause"
        | "operator.resume"
        | "operator.handoff"
        | "operator.takeover"
        | "operator.return"
        | "operator.abort"
        | "operator.note"
        | "operator.acknowledge"
        | "operator.refused"
        | "operator.windowOverride"
        | "gitops.intent"
        | "gitops.outcome" => Writer::Operator,
        "run.status"
        | "step.status"
        | "step.intent"
        | "step.outcome"
        | "step.observed"
        | "step.waiting"
        | "step.nodeEventFailed"
        | "guard.tripped"
        | "lease.acquired"
        | "executor.note"
        | "rollout.batch"
        | "rollout.staged"
        | "rollout.applied"
        | "rollout.verified"
        | "rollout.gate"
        | "rollout.halted"
        | "rollout.observed"
        | "rollout.dispatched"
        | "rollout.claimed"
        | "rollout.answered" => Writer::Executor,
        _ => Writer::Admin,
    }
}

/// Whether an event of `kind` is written only under a lease: every executor kind is, and
/// the store refuses one without a fence, or with a fence that is not the live lease's.
pub fn needs_fence(kind: &str) -> bool {
    writer_of(kind) == Writer::Executor
}

/// The space an idempotency key lives in, so that one writer cannot take another's key
/// ahead of it: every executor shares one (a standby repeats the key of what the holder
/// before it did), everyone else has their own (the actor's name).
pub fn key_scope(kind: &str, actor: &str) -> String {
    if needs_fence(kind) {
        EXECUTOR_KEY_SCOPE.to_string()
    } else {
        actor.to_string()
    }
}

/// The key scope every executor writes in (see [`key_scope`]).
pub const EXECUTOR_KEY_SCOPE: &str = "executor";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::EVENT_KINDS;

    #[test]
    fn every_kind_this_version_writes_has_a_person_or_the_executor_as_its_writer() {
        for kind in EVENT_KINDS {
            assert_ne!(writer_of(kind), Writer::Admin, "{kind} has no writer");
        }
        assert_eq!(writer_of("future.kind"), Writer::Admin);
        // The executor's kinds, and only they, go under a fence.
        assert!(
            needs_fence("run.status"),
            "a run's status is the executor's"
        );
        assert!(needs_fence("executor.note"));
        assert!(!needs_fence("operator.note"));
        assert!(!needs_fence("run.planned"));
        assert_eq!(key_scope("step.intent", "exec_a"), "executor");
        assert_eq!(key_scope("step.intent", "exec_b"), "executor");
        assert_eq!(key_scope("operator.note", "op_a"), "op_a");
    }
}
