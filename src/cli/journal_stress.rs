//! A hidden command that appends to a journal as fast as it can, one event per
//! transaction, until killed. The crash-consistency tests kill it (or the database under
//! it) with SIGKILL, and check that every event it was told was committed is there, whole.

use std::path::Path;
use std::process::ExitCode;

use fleetdeck::journal::{
    AnyJournal, Durability, JournalStore, JournalTarget, OpenMode, SqliteJournal,
};
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, StepName, StepStatus,
};
use jiff::Timestamp;

/// Appends events whose payload encodes their own number, forever: prints `ready` after
/// the first, then `committed SEQ` after each commit the journal acknowledged.
pub fn run(db: &Path) -> anyhow::Result<ExitCode> {
    let target = JournalTarget::from_path(db);
    let mut journal = match &target {
        // Committed transactions survive a killed process in NORMAL too; FULL adds power
        // loss, which this test cannot cause.
        JournalTarget::Sqlite(path) => {
            AnyJournal::Sqlite(SqliteJournal::open(path, Durability::Normal)?)
        }
        JournalTarget::Postgres(_) => AnyJournal::open(&target, OpenMode::ReadWrite)?,
    };
    let pid = std::process::id();
    // An executor's events go under a lease: one of its own (shards of one key may be
    // held together), so several of these can write to one journal at once.
    let holder = Actor(format!("executor/stress-{pid}"));
    let scope = fleetdeck::model::run::LeaseScope(format!("stress={pid}"));
    let fence = match journal.acquire_lease(
        &scope,
        &holder,
        std::time::Duration::from_secs(24 * 3600),
        Timestamp::now(),
    )? {
        fleetdeck::journal::LeaseGrant::Acquired { lease } => lease.fence(),
        fleetdeck::journal::LeaseGrant::HeldByOther { lease } => {
            // i18n: not for people (a hidden command the crash tests run)
            anyhow::bail!("lease {scope} is held by {:?}", lease.holder)
        }
    };
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
        let appended = journal.append(event, Some(&fence))?;
        if i == 0 {
            super::output::outln!("ready")?;
        }
        // i18n: not for people (read by the journal benchmark, not a person)
        super::output::outln!("committed {}", appended.event.seq.0)?;
    }
    Ok(ExitCode::SUCCESS)
}
