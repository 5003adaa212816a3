//! The PostgreSQL driver is async; the journal's store trait is synchronous (the SQLite
//! journal blocks its caller too, and the engine calls it between awaits). Every
//! PostgreSQL journal in the process shares one small runtime of its own; a call sends
//! its work there and waits for the answer. This works from plain threads and from inside
//! another tokio runtime alike (where `block_on` would panic).

use std::future::Future;
use std::sync::OnceLock;

use tokio::runtime::{Handle, Runtime};

use crate::journal::JournalError;

/// The runtime that drives every PostgreSQL connection of this process.
pub fn handle() -> Result<&'static Handle, JournalError> {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("journal-postgres")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map(Runtime::handle)
        .map_err(|e| JournalError::Invalid(format!("cannot start the PostgreSQL runtime: {e}")))
}

/// Runs `work` on the PostgreSQL runtime and waits for its result.
pub fn block<T, F>(work: F) -> Result<T, JournalError>
where
    T: Send + 'static,
    F: Future<Output = Result<T, JournalError>> + Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    handle()?.spawn(async move {
        let _ = tx.send(work.await);
    });
    rx.recv()
        .map_err(|_| JournalError::Invalid("the PostgreSQL journal task stopped".into()))?
}
