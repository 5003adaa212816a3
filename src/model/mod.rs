//! The pure model: plain data and decisions as plain functions. Nothing in here does IO or
//! awaits, so every decision can be unit-tested with hand-computed answers.

pub mod budget;
pub mod capacity;
pub mod duration;
pub mod findings;
pub mod fleet;
pub mod handover;
pub mod identity;
pub mod job_rights;
pub mod ledger;
pub mod live;
pub mod maintenance;
pub mod quantity;
pub mod rollout;
pub mod run;
pub mod serde_pairs;
pub mod shard;
pub mod team;
pub mod text;
pub mod upgrade;
