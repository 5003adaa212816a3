//! A hidden command that appends to a journal as fast as it can, one event per
//! transaction, until killed. The crash-consistency test kills it with SIGKILL.

use std::path::Path;
use std::process::ExitCode;

use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, StepName, StepStatus,
};
use jiff::Timestamp;

/// Appends events whose payload encodes their own number, forever.
pub fn run(db: &Path) -> anyhow::Result<ExitCode> {
    let mut journal = SqliteJournal::open(db, Durability::Normal)?;
    let pid = std::process::id();
    for i in 0u64.. {
        let event = NewEvent::new(
            Timestamp::now(),
            Actor(format!("executor/stress-{pid}")),
            IdempotencyKey(format!("stress/{pid}/{i}")),
            EventBody::StepStatusChanged {
                status: StepStatus::Blocked {
                    reason: format!("{i}:{}", "x".repeat((i % 512) as usize)),
                },
            },
        )
        .with_run(RunId(format!("stress-{pid}")))
        .with_item(ItemId(format!("node-{}", i % 100)))
        .with_step(StepName("Drain".into()));
        journal.append(event, None)?;
        if i == 0 {
            super::output::outln!("ready")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
