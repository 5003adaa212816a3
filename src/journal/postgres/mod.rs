//! The team journal: PostgreSQL, shared by every console, CLI and executor of a team.
//!
//! The database does what a client could otherwise fake (see [`schema`]): it numbers the
//! events, writes the actor as the authenticated role, checks roles, fences and the
//! four-eyes rule in the write's own transaction. Durability is the server's:
//! `synchronous_commit=on` (its default) flushes the WAL on every commit, as SQLite's FULL.
//!
//! One job per file: [`connect`](self::connect) opens and migrates, `identity` asks who
//! we are and who else is there, `write` appends, `read` scans, `lease` keeps executor
//! leases, `store` puts them behind [`JournalStore`](super::JournalStore).

mod bridge;
mod connect;
pub mod conninfo;
mod errors;
mod identity;
mod lease;
pub mod listen;
mod read;
pub mod schema;
pub mod schema_v4;
mod store;
pub mod throwaway;
mod tls;
mod write;

use std::time::Duration;

use deadpool_postgres::Pool;

pub use connect::{InitReport, conninfo};
pub use conninfo::ConnInfo;
use errors::from_pool;
pub use identity::{Identity, Peer};
pub use schema::{PG_MIGRATIONS, ROLES, current_pg_version};

use super::JournalError;

/// A journal in a PostgreSQL database.
pub struct PostgresJournal {
    pool: Pool,
    info: ConnInfo,
    identity: Identity,
    /// Wake-ups from the LISTEN connection, started on the first wait for a change.
    changes: std::sync::Mutex<Option<listen::Changes>>,
}

impl PostgresJournal {
    /// Who the database says this connection is.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The connection, without its password.
    pub fn conninfo(&self) -> &ConnInfo {
        &self.info
    }

    /// Where it is, as a person reads it.
    pub fn describe(&self) -> String {
        self.info.display()
    }

    /// Runs `work` with a pooled connection on the PostgreSQL runtime.
    fn run<T, F, Fut>(&self, work: F) -> Result<T, JournalError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object, String) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<T, JournalError>> + Send,
    {
        let pool = self.pool.clone();
        let where_ = self.info.display();
        bridge::block(async move {
            let client = pool.get().await.map_err(|e| from_pool(e, &where_))?;
            work(client, where_).await
        })
    }

    /// Blocks until the database announces new events, the LISTEN connection is lost or
    /// regained, or the safety interval passed (see [`listen`]).
    fn wait_for_announcement(&self, poll: Duration) {
        let Ok(mut changes) = self.changes.lock() else {
            return;
        };
        if changes.is_none() {
            match connect::driver_config(&self.info) {
                Ok((cfg, tls)) => match listen::Changes::start(cfg, tls) {
                    Ok(started) => *changes = Some(started),
                    Err(error) => tracing::warn!(%error, "cannot listen for journal events"),
                },
                Err(error) => tracing::warn!(%error, "cannot listen for journal events"),
            }
        }
        match changes.as_ref() {
            Some(listening) => listening.wait(listen::SAFETY_CATCH_UP),
            None => std::thread::sleep(poll),
        }
    }
}
