//! Opening the journal: the driver's configuration from a connection string, the pool,
//! the schema check on connect, and `journal init` (migrations and roles).

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};

use super::conninfo::{self, ConnInfo};
use super::errors::{from_pg, from_pool};
use super::schema::{self, PG_MIGRATIONS, current_pg_version};
use super::{PostgresJournal, bridge, identity, tls};
use crate::journal::JournalError;

/// What `fleetdeck journal init` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitReport {
    /// The version before.
    pub from: i64,
    /// The version now.
    pub to: i64,
    /// Whether the roles were created or refreshed.
    pub roles: bool,
    /// What was taken away from PUBLIC on the journal's database (with `--roles`), as
    /// the message ids that say it.
    pub revoked: Vec<&'static str>,
    /// What could not be taken away (its message id), and the database's answer: the
    /// admin does it.
    pub not_revoked: Vec<(&'static str, String)>,
    /// The server's `max_prepared_transactions`: above 0, a writer can hold the journal's
    /// write lock past its own disconnect with a prepared transaction.
    pub max_prepared_transactions: i64,
}

/// How long a write waits for the journal's write lock before the server gives up (and
/// rolls it back): a writer that holds it longer is stuck, and a person is told.
pub const LOCK_TIMEOUT: &str = "5s";

/// How long any statement may run (a scan sets its own, longer, bound).
pub const STATEMENT_TIMEOUT: &str = "30s";

/// The session settings fleetdeck starts every connection with, before the connection
/// string's own `options` (which win): bounded waits for locks and statements, and no
/// transaction left open by a client that stalled.
fn session_options(info: &ConnInfo) -> String {
    let mut options = format!(
        "-c lock_timeout={LOCK_TIMEOUT} -c statement_timeout={STATEMENT_TIMEOUT} -c idle_in_transaction_session_timeout=60s"
    );
    if let Some(theirs) = &info.options {
        options.push(' ');
        options.push_str(theirs);
    }
    options
}

fn pool_for(info: &ConnInfo, read_only: bool) -> Result<Pool, JournalError> {
    let (cfg, tls) = driver_config(info)?;
    let manager = Manager::from_config(
        cfg,
        tls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let _guard = bridge::handle()?.enter();
    Pool::builder(manager)
        .post_create(deadpool_postgres::Hook::async_fn(move |client, _| {
            Box::pin(async move {
                // A server that has gone away is noticed within a second even while a
                // statement of ours runs (PostgreSQL 14 and later; older ones ignore it).
                let _ = client
                    .batch_execute("SET client_connection_check_interval = '1s'")
                    .await;
                if read_only {
                    // The server refuses every write of these sessions, whatever the role
                    // may do (set here, not at startup: a session that must be on a
                    // read-write server is checked for that before this).
                    client
                        .batch_execute("SET default_transaction_read_only = on")
                        .await
                        .map_err(deadpool_postgres::HookError::Backend)?;
                }
                Ok(())
            })
        }))
        .max_size(4)
        .runtime(Runtime::Tokio1)
        .create_timeout(Some(Duration::from_secs(
            info.connect_timeout.unwrap_or(10),
        )))
        .wait_timeout(Some(Duration::from_secs(30)))
        .build()
        .map_err(|e| JournalError::Invalid(format!("connection pool: {e}")))
}

/// The driver's configuration and TLS connector for `info`.
pub(super) fn driver_config(
    info: &ConnInfo,
) -> Result<(tokio_postgres::Config, tls::RustlsMakeConnect), JournalError> {
    let mut cfg = tokio_postgres::Config::new();
    for host in &info.hosts {
        cfg.host(host);
    }
    for port in &info.ports {
        cfg.port(*port);
    }
    cfg.user(&info.user)
        .dbname(&info.dbname)
        .application_name(identity::session_name(info))
        .connect_timeout(Duration::from_secs(info.connect_timeout.unwrap_or(10)))
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(10))
        .keepalives_interval(Duration::from_secs(5))
        .keepalives_retries(3)
        // A server that stops acknowledging (a primary's machine gone) fails the write
        // within this, rather than after the kernel's minutes of retransmissions.
        .tcp_user_timeout(Duration::from_secs(20))
        .target_session_attrs(match info.target_session_attrs {
            conninfo::SessionAttrs::Any => tokio_postgres::config::TargetSessionAttrs::Any,
            conninfo::SessionAttrs::ReadWrite => {
                tokio_postgres::config::TargetSessionAttrs::ReadWrite
            }
            conninfo::SessionAttrs::ReadOnly => {
                tokio_postgres::config::TargetSessionAttrs::ReadOnly
            }
        })
        .options(session_options(info));
    if let Some(password) = &info.password {
        cfg.password(password);
    }
    cfg.ssl_mode(match info.sslmode {
        conninfo::SslMode::Disable => tokio_postgres::config::SslMode::Disable,
        conninfo::SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
        _ => tokio_postgres::config::SslMode::Require,
    });
    let tls = tls::RustlsMakeConnect::new(info.sslmode, info.root_certs.as_ref())
        .map_err(JournalError::Invalid)?;
    Ok((cfg, tls))
}

/// Reads a connection string with the process's environment.
pub fn conninfo(text: &str) -> Result<ConnInfo, JournalError> {
    conninfo::parse(text, &conninfo::ProcessEnvironment)
        .map_err(|e| JournalError::Invalid(format!("journal connection string: {e}")))
}

impl PostgresJournal {
    /// Connects to the journal `text` names (a URL or `key=value` string) and checks that
    /// its schema is the one this build writes.
    pub fn connect(text: &str) -> Result<Self, JournalError> {
        Self::connect_with(text, false)
    }

    /// Connects for reading only: the server refuses every write of these sessions.
    pub fn connect_read_only(text: &str) -> Result<Self, JournalError> {
        Self::connect_with(text, true)
    }

    fn connect_with(text: &str, read_only: bool) -> Result<Self, JournalError> {
        let info = conninfo(text)?;
        let pool = pool_for(&info, read_only)?;
        let where_ = info.display();
        let (found, identity) = {
            let pool = pool.clone();
            let where_ = where_.clone();
            bridge::block(async move {
                let client = pool.get().await.map_err(|e| from_pool(e, &where_))?;
                let version = match client
                    .query_opt("SELECT version FROM fleetdeck.schema_version", &[])
                    .await
                {
                    Ok(row) => row.map_or(0, |r| r.get::<_, i64>(0)),
                    Err(e)
                        if e.code() == Some(&tokio_postgres::error::SqlState::UNDEFINED_TABLE) =>
                    {
                        0
                    }
                    Err(e) => return Err(from_pg(e, &where_)),
                };
                let identity = identity::identity(&client, &where_).await?;
                Ok((version, identity))
            })?
        };
        let known = current_pg_version();
        if found > known {
            return Err(JournalError::SchemaTooNew { found, known });
        }
        if found < known {
            return Err(JournalError::Invalid(format!(
                "the journal at {where_} has schema version {found}, this fleetdeck needs {known}: \
                 run `fleetdeck journal init --journal URL` as the database's owner first"
            )));
        }
        Ok(PostgresJournal {
            pool,
            info,
            identity,
            changes: std::sync::Mutex::new(None),
        })
    }

    /// Brings the schema up to date (refusing one newer than this build) and, with
    /// `roles`, creates the team roles and their grants. Idempotent.
    pub fn init(text: &str, roles: bool) -> Result<InitReport, JournalError> {
        let info = conninfo(text)?;
        let pool = pool_for(&info, false)?;
        let where_ = info.display();
        bridge::block(async move {
            let mut client = pool.get().await.map_err(|e| from_pool(e, &where_))?;
            let pg = |e| from_pg(e, &where_);
            let mut from = None;
            let to;
            loop {
                let tx = client.transaction().await.map_err(pg)?;
                tx.batch_execute(
                    "SELECT pg_advisory_xact_lock(7380453045844698468);
                     CREATE SCHEMA IF NOT EXISTS fleetdeck;
                     CREATE TABLE IF NOT EXISTS fleetdeck.schema_version (version bigint NOT NULL);
                     INSERT INTO fleetdeck.schema_version SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM fleetdeck.schema_version);",
                )
                .await
                .map_err(pg)?;
                let found: i64 = tx
                    .query_one("SELECT version FROM fleetdeck.schema_version", &[])
                    .await
                    .map_err(pg)?
                    .get(0);
                from.get_or_insert(found);
                if found > current_pg_version() {
                    return Err(JournalError::SchemaTooNew {
                        found,
                        known: current_pg_version(),
                    });
                }
                let Some(migration) = PG_MIGRATIONS.iter().find(|m| m.version == found + 1) else {
                    to = found;
                    tx.commit().await.map_err(pg)?;
                    break;
                };
                tx.batch_execute(migration.sql).await.map_err(pg)?;
                tx.execute(
                    "UPDATE fleetdeck.schema_version SET version = $1",
                    &[&migration.version],
                )
                .await
                .map_err(pg)?;
                tx.commit().await.map_err(pg)?;
                tracing::info!(
                    version = migration.version,
                    what = migration.description,
                    "journal migrated"
                );
            }
            let exists: bool = client
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleetdeck_viewer')",
                    &[],
                )
                .await
                .map_err(pg)?
                .get(0);
            // Grants are refreshed whenever the roles exist, so objects a later migration
            // adds are granted too.
            if roles || exists {
                client.batch_execute(schema::ROLES_SQL).await.map_err(pg)?;
            }
            let mut revoked = Vec::new();
            let mut not_revoked = Vec::new();
            if roles {
                for (what, sql, still) in super::schema_v4::HARDENING {
                    let done = match client.batch_execute(sql).await {
                        Ok(()) => None,
                        Err(e) => Some(
                            e.as_db_error()
                                .map_or_else(|| e.to_string(), |d| d.message().to_string()),
                        ),
                    };
                    // A role that does not own the object revokes nothing, with a warning
                    // only: what PUBLIC still has says whether it went.
                    let granted: bool = client.query_one(*still, &[]).await.map_err(pg)?.get(0);
                    match (granted, done) {
                        (false, _) => revoked.push(*what),
                        (true, Some(why)) => not_revoked.push((*what, why)),
                        (true, None) => {
                            not_revoked.push((*what, "only its owner can take it away".to_string()))
                        }
                    }
                }
            }
            let max_prepared_transactions = client
                .query_one(
                    "SELECT current_setting('max_prepared_transactions')::bigint",
                    &[],
                )
                .await
                .map_err(pg)?
                .get(0);
            Ok(InitReport {
                from: from.unwrap_or(0),
                to,
                roles,
                revoked,
                not_revoked,
                max_prepared_transactions,
            })
        })
    }
}
