//! Pure domain model: plain data and the decisions made over it. No IO, no async.

pub mod duration;
pub mod ledger;
pub mod maintenance;
pub mod run;
