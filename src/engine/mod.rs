//! The engine: executes maintenance runs from the journal, performing the model's actions
//! through ports and feeding back what it observed.

pub mod checkpoint;
pub mod clock;
pub mod executor;
pub mod gitops_sync;
pub mod guard_watch;
pub mod ledger_watch;
pub mod operator;
pub mod rollout_start;
pub mod start;
pub mod window_override;
pub mod windows;
