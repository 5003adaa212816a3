//! The statuses a step and a run can be in, as shown on screen and recorded.

use serde::{Deserialize, Serialize};

use super::ids::Actor;

/// Where one step of one item stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum StepStatus {
    /// Not started yet.
    Pending,
    /// Started; its side effects may be in flight.
    Running,
    /// Finished as intended.
    Succeeded,
    /// Stuck: the engine will not push it further on its own. The reason says why, in
    /// words an operator can act on ("PDB web-pdb needs 3 healthy pods and has 3").
    Blocked {
        /// Why it is stuck.
        reason: String,
    },
    /// Finished badly (hook failed, aborted by a person).
    Failed {
        /// What went wrong.
        error: String,
    },
    /// Belongs to a person until they return it; the engine leaves the item alone.
    HandedOff {
        /// Who has it.
        to: Actor,
        /// What they were told.
        note: String,
    },
    /// Deliberately not done (e.g. Uncordon of a node that was cordoned before we came).
    Skipped,
}

impl StepStatus {
    /// A short word for tables: `pending`, `running`, `blocked`, ….
    pub fn word(&self) -> &'static str {
        match self {
            StepStatus::Pending => "pending",
            StepStatus::Running => "running",
            StepStatus::Succeeded => "succeeded",
            StepStatus::Blocked { .. } => "blocked",
            StepStatus::Failed { .. } => "failed",
            StepStatus::HandedOff { .. } => "handed-off",
            StepStatus::Skipped => "skipped",
        }
    }

    /// Whether the step is finished one way or another (no more work on it).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            StepStatus::Succeeded | StepStatus::Failed { .. } | StepStatus::Skipped
        )
    }

    /// Whether a person has to act before the engine does anything more with the item.
    pub fn needs_person(&self) -> bool {
        matches!(
            self,
            StepStatus::Blocked { .. } | StepStatus::HandedOff { .. }
        )
    }
}

impl std::fmt::Display for StepStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepStatus::Blocked { reason } => write!(f, "blocked: {reason}"),
            StepStatus::Failed { error } => write!(f, "failed: {error}"),
            StepStatus::HandedOff { to, note } if note.trim().is_empty() => {
                write!(f, "handed off to {to}")
            }
            StepStatus::HandedOff { to, note } => write!(f, "handed off to {to}: {note}"),
            other => f.write_str(other.word()),
        }
    }
}

/// Where a whole run stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum RunStatus {
    /// Written down, not started.
    Planned,
    /// Waiting for a person to approve the next batch.
    AwaitingApproval,
    /// The engine is working on it.
    Running,
    /// A pause switch (fleet, cluster, run or failure domain) stops new steps.
    Paused,
    /// Every item done.
    Succeeded,
    /// Stopped by the engine (a stop condition, a failed item); needs a person.
    Halted {
        /// Why it stopped.
        why: String,
    },
    /// Stopped for good by a person.
    Aborted,
}

impl RunStatus {
    /// A short word for tables.
    pub fn word(&self) -> &'static str {
        match self {
            RunStatus::Planned => "planned",
            RunStatus::AwaitingApproval => "awaiting-approval",
            RunStatus::Running => "running",
            RunStatus::Paused => "paused",
            RunStatus::Succeeded => "succeeded",
            RunStatus::Halted { .. } => "halted",
            RunStatus::Aborted => "aborted",
        }
    }

    /// Whether the run will never do anything again.
    pub fn is_final(&self) -> bool {
        matches!(self, RunStatus::Succeeded | RunStatus::Aborted)
    }
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunStatus::Halted { why } => write!(f, "halted: {why}"),
            other => f.write_str(other.word()),
        }
    }
}
