//! The steps of a node's maintenance, in order.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::model::run::StepName;

/// One step of the per-node state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Identity, pause, budgets, PDB headroom, capacity, mass-failure guard.
    Precheck,
    /// Mark the node unschedulable (remembering whether it already was).
    Cordon,
    /// Evict its pods through the Eviction API.
    Drain,
    /// Run the hook or wait for a person.
    Maintain,
    /// Ready, expected versions, GPUs back in allocatable.
    VerifyNode,
    /// The displaced workloads are Ready and their PDBs healthy.
    VerifyWorkloads,
    /// Undo our own cordon (never someone else's).
    Uncordon,
    /// Finished.
    Done,
}

impl Step {
    /// Every step that does work, in order (not `Done`).
    pub const WORK: [Step; 7] = [
        Step::Precheck,
        Step::Cordon,
        Step::Drain,
        Step::Maintain,
        Step::VerifyNode,
        Step::VerifyWorkloads,
        Step::Uncordon,
    ];

    /// Every step, `Done` last.
    pub const ALL: [Step; 8] = [
        Step::Precheck,
        Step::Cordon,
        Step::Drain,
        Step::Maintain,
        Step::VerifyNode,
        Step::VerifyWorkloads,
        Step::Uncordon,
        Step::Done,
    ];

    /// The step after this one.
    pub fn next(self) -> Step {
        match self {
            Step::Precheck => Step::Cordon,
            Step::Cordon => Step::Drain,
            Step::Drain => Step::Maintain,
            Step::Maintain => Step::VerifyNode,
            Step::VerifyNode => Step::VerifyWorkloads,
            Step::VerifyWorkloads => Step::Uncordon,
            Step::Uncordon | Step::Done => Step::Done,
        }
    }

    /// The name used in files (`verifyNode`) for deadlines.
    pub fn file_key(self) -> &'static str {
        match self {
            Step::Precheck => "precheck",
            Step::Cordon => "cordon",
            Step::Drain => "drain",
            Step::Maintain => "maintain",
            Step::VerifyNode => "verifyNode",
            Step::VerifyWorkloads => "verifyWorkloads",
            Step::Uncordon => "uncordon",
            Step::Done => "done",
        }
    }

    /// The step a file key names.
    pub fn from_file_key(key: &str) -> Option<Step> {
        Step::WORK.into_iter().find(|s| s.file_key() == key)
    }

    /// The name recorded in the journal (`VerifyNode`).
    pub fn name(self) -> StepName {
        StepName(format!("{self:?}"))
    }

    /// How long the step may take when the file does not say.
    pub fn default_deadline(self) -> Duration {
        let minutes = match self {
            Step::Precheck | Step::Cordon | Step::Uncordon => 5,
            Step::Drain => 30,
            Step::Maintain => 60,
            Step::VerifyNode | Step::VerifyWorkloads => 15,
            Step::Done => 0,
        };
        Duration::from_secs(minutes * 60)
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
