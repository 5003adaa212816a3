//! The team journal: PostgreSQL, shared by every console, CLI and executor of a team.
//!
//! The database does what a client could otherwise fake (see [`schema`]): it numbers the
//! events, writes the actor as the authenticated role, checks roles, fences and the
//! four-eyes rule in the write's own transaction. Durability is the server's:
//! `synchronous_commit=on` (its default) flushes the WAL on every commit, as SQLite's FULL.

mod bridge;
pub mod conninfo;
mod errors;
pub mod listen;
pub mod schema;
pub mod throwaway;
mod tls;

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use jiff::Timestamp;
use tokio_postgres::types::ToSql;

pub use conninfo::ConnInfo;
use errors::{from_pg, from_pool};
pub use schema::{PG_MIGRATIONS, ROLES, current_pg_version};

use super::lease::{Fence, Lease, LeaseGrant};
use super::row::{RawRow, decode, from_micros, micros};
use super::{Appended, EventQuery, JournalError, JournalStore};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, Event, FencingToken, LeaseScope, NewEvent, RunId, Sequence};

const COLUMNS: &str =
    "seq, time_us, actor, kind, run_id, item, step, cluster, payload::text, idem_key, lease_token";

const INSERT: &str = "INSERT INTO fleetdeck.events (time_us, kind, run_id, item, step, cluster, payload, idem_key, lease_scope, lease_token)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8, $9, $10)
     ON CONFLICT (idem_key) DO NOTHING RETURNING seq, actor";

/// A journal in a PostgreSQL database.
pub struct PostgresJournal {
    pool: Pool,
    info: ConnInfo,
    read_only: bool,
    identity: Identity,
    /// Wake-ups from the LISTEN connection, started on the first wait for a change.
    changes: std::sync::Mutex<Option<listen::Changes>>,
}

/// Who the database says this connection is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The authenticated role (`session_user`).
    pub role: Actor,
    /// The fleetdeck roles it is a member of (`fleetdeck_operator`, …).
    pub fleetdeck_roles: Vec<String>,
    /// Whether it may do everything (an admin, the journal's owner or a superuser).
    pub admin: bool,
}

impl Identity {
    /// Whether it may act as `role` (`fleetdeck_approver`, …).
    pub fn may(&self, role: &str) -> bool {
        self.admin || self.fleetdeck_roles.iter().any(|r| r == role)
    }

    /// Its roles without the `fleetdeck_` prefix, for the header (`operator+approver`).
    pub fn short_roles(&self) -> String {
        if self.admin {
            return "admin".into();
        }
        let roles: Vec<&str> = self
            .fleetdeck_roles
            .iter()
            .map(|r| r.strip_prefix("fleetdeck_").unwrap_or(r))
            .filter(|r| *r != "viewer" || self.fleetdeck_roles.len() == 1)
            .collect();
        if roles.is_empty() {
            "no fleetdeck role".into()
        } else {
            roles.join("+")
        }
    }
}

/// Another session connected to the journal's database (the header's "others").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Its role.
    pub role: String,
    /// Its fleetdeck roles, short (`operator`, `viewer`).
    pub roles: String,
}

/// What `fleetdeck journal init` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitReport {
    /// The version before.
    pub from: i64,
    /// The version now.
    pub to: i64,
    /// Whether the roles were created or refreshed.
    pub roles: bool,
}

fn pool_for(info: &ConnInfo, read_only: bool) -> Result<Pool, JournalError> {
    let (cfg, tls) = driver_config(info, read_only)?;
    let manager = Manager::from_config(
        cfg,
        tls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let _guard = bridge::handle()?.enter();
    Pool::builder(manager)
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
fn driver_config(
    info: &ConnInfo,
    read_only: bool,
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
        .application_name(&info.application_name)
        .connect_timeout(Duration::from_secs(info.connect_timeout.unwrap_or(10)))
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(10));
    if let Some(password) = &info.password {
        cfg.password(password);
    }
    if read_only {
        // The server refuses every write of these sessions, whatever the role may do.
        cfg.options("-c default_transaction_read_only=on");
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
                let identity = identity(&client, &where_).await?;
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
            read_only,
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
            Ok(InitReport {
                from: from.unwrap_or(0),
                to,
                roles,
            })
        })
    }

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

    /// Other fleetdeck sessions connected to the same database now, with their roles
    /// (this process's own connections are not counted).
    pub fn peers(&self) -> Result<Vec<Peer>, JournalError> {
        self.run(|client, where_| async move {
            let rows = client
                .query(
                    "SELECT a.usename::text, coalesce(array_agg(DISTINCT r.rolname::text) FILTER (WHERE r.rolname IS NOT NULL), '{}')
                       FROM pg_stat_activity a
                       LEFT JOIN pg_roles r ON r.rolname LIKE 'fleetdeck\\_%' AND pg_has_role(a.usename, r.oid, 'MEMBER')
                      WHERE a.datname = current_database() AND a.application_name LIKE 'fleetdeck%'
                        AND a.usename IS NOT NULL
                        AND a.client_port IS DISTINCT FROM (SELECT b.client_port FROM pg_stat_activity b WHERE b.pid = pg_backend_pid())
                        AND a.application_name <> $1
                      GROUP BY a.pid, a.usename ORDER BY a.usename",
                    &[&own_application_name()],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            Ok(rows
                .into_iter()
                .map(|r| {
                    let roles: Vec<String> = r.get(1);
                    Peer {
                        role: r.get(0),
                        roles: short(&roles),
                    }
                })
                .collect())
        })
    }

    /// The schema version stored in the database.
    pub fn schema_version(&self) -> Result<i64, JournalError> {
        self.run(|client, where_| async move {
            Ok(client
                .query_one("SELECT version FROM fleetdeck.schema_version", &[])
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0))
        })
    }

    /// Every cluster the journal's events name, sorted.
    pub fn clusters(&self) -> Result<Vec<ClusterId>, JournalError> {
        self.distinct("cluster")
            .map(|v| v.into_iter().map(ClusterId).collect())
    }

    /// Every run the journal's events name, sorted.
    pub fn run_ids(&self) -> Result<Vec<RunId>, JournalError> {
        self.distinct("run_id")
            .map(|v| v.into_iter().map(RunId).collect())
    }

    fn distinct(&self, column: &'static str) -> Result<Vec<String>, JournalError> {
        self.run(move |client, where_| async move {
            let sql = format!(
                "SELECT DISTINCT {column} FROM fleetdeck.events WHERE {column} IS NOT NULL ORDER BY {column}"
            );
            let rows = client.query(&sql, &[]).await.map_err(|e| from_pg(e, &where_))?;
            Ok(rows.into_iter().map(|r| r.get(0)).collect())
        })
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

    /// Appends events copied from another journal as they were (sequence, actor, time,
    /// token), in one transaction: an admin's job, each after the journal's last event.
    pub fn import(&mut self, events: Vec<Event>) -> Result<u64, JournalError> {
        self.run(move |mut client, where_| async move {
            let pg = |e| from_pg(e, &where_);
            let tx = client.transaction().await.map_err(pg)?;
            tx.batch_execute("SET LOCAL fleetdeck.import = 'on'")
                .await
                .map_err(pg)?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO fleetdeck.events (seq, time_us, actor, kind, run_id, item, step, cluster, payload, idem_key, lease_token)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::json, $10, $11)",
                )
                .await
                .map_err(pg)?;
            let mut n = 0;
            for e in events {
                let (kind, payload) = e.event.body.to_parts();
                let payload = serde_json::to_string(&payload)
                    .map_err(|err| JournalError::Invalid(format!("payload cannot be written: {err}")))?;
                tx.execute(
                    &insert,
                    &[
                        &e.seq.0,
                        &micros(e.event.time),
                        &e.event.actor.0,
                        &kind,
                        &e.event.run.as_ref().map(|r| &r.0),
                        &e.event.item.as_ref().map(|i| &i.0),
                        &e.event.step.as_ref().map(|s| &s.0),
                        &e.event.cluster.as_ref().map(|c| &c.0),
                        &payload,
                        &e.event.key.0,
                        &e.token.map(|t| t.0),
                    ],
                )
                .await
                .map_err(pg)?;
                n += 1;
            }
            tx.commit().await.map_err(pg)?;
            Ok(n)
        })
    }

    fn write(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
        last_seen: Option<Option<Sequence>>,
    ) -> Result<Vec<Appended>, JournalError> {
        let fence = fence.cloned();
        let role = self.identity.role.clone();
        self.run(move |mut client, where_| async move {
            let tx = client.transaction().await.map_err(|e| from_pg(e, &where_))?;
            let fail = |e| errors::from_write(e, &where_, fence.as_ref(), &role);
            if let Some(last_seen) = last_seen {
                let found: i64 = tx
                    .query_one(
                        "SELECT pg_advisory_xact_lock(7380453045844698467)::text, coalesce(max(seq), 0) FROM fleetdeck.events",
                        &[],
                    )
                    .await
                    .map_err(fail)?
                    .get(1);
                let expected = last_seen.map_or(0, |s| s.0);
                if found != expected {
                    return Err(JournalError::MovedOn { expected, found });
                }
            }
            let insert = tx.prepare_cached(INSERT).await.map_err(fail)?;
            let mut out = Vec::with_capacity(events.len());
            for mut event in events {
                let (kind, payload) = event.body.to_parts();
                let payload = serde_json::to_string(&payload)
                    .map_err(|e| JournalError::Invalid(format!("payload cannot be written: {e}")))?;
                let time = micros(event.time);
                let scope = fence.as_ref().map(|f| f.scope.0.clone());
                let token = fence.as_ref().map(|f| f.token.0);
                let row = tx
                    .query_opt(
                        &insert,
                        &[
                            &time,
                            &kind,
                            &event.run.as_ref().map(|r| &r.0),
                            &event.item.as_ref().map(|i| &i.0),
                            &event.step.as_ref().map(|s| &s.0),
                            &event.cluster.as_ref().map(|c| &c.0),
                            &payload,
                            &event.key.0,
                            &scope,
                            &token,
                        ],
                    )
                    .await
                    .map_err(fail)?;
                match row {
                    Some(row) => {
                        event.actor = Actor(row.get(1));
                        out.push(Appended {
                            event: Event {
                                seq: Sequence(row.get(0)),
                                token: fence.as_ref().map(|f| f.token),
                                event,
                            },
                            duplicate: false,
                        });
                    }
                    None => {
                        let stored = tx
                            .query_one(
                                &format!("SELECT {COLUMNS} FROM fleetdeck.events WHERE idem_key = $1"),
                                &[&event.key.0],
                            )
                            .await
                            .map_err(fail)?;
                        out.push(Appended {
                            event: decode(raw(&stored))?,
                            duplicate: true,
                        });
                    }
                }
            }
            tx.commit().await.map_err(fail)?;
            Ok(out)
        })
    }
}

fn own_application_name() -> String {
    "fleetdeck".to_string()
}

fn short(roles: &[String]) -> String {
    let names: Vec<&str> = roles
        .iter()
        .map(|r| r.strip_prefix("fleetdeck_").unwrap_or(r))
        .collect();
    if names.contains(&"admin") {
        return "admin".into();
    }
    let useful: Vec<&str> = names
        .iter()
        .copied()
        .filter(|r| *r != "viewer" || names.len() == 1)
        .collect();
    if useful.is_empty() {
        "no role".into()
    } else {
        useful.join("+")
    }
}

async fn identity(client: &tokio_postgres::Client, where_: &str) -> Result<Identity, JournalError> {
    let row = client
        .query_one(
            "SELECT session_user::text,
                    coalesce((SELECT array_agg(r.rolname::text ORDER BY r.rolname) FROM pg_roles r
                               WHERE r.rolname LIKE 'fleetdeck\\_%' AND pg_has_role(session_user, r.oid, 'MEMBER')), '{}'),
                    (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
                    OR session_user = (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'fleetdeck')
                    OR EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'fleetdeck_admin' AND pg_has_role(session_user, r.oid, 'MEMBER'))",
            &[],
        )
        .await
        .map_err(|e| from_pg(e, where_))?;
    Ok(Identity {
        role: Actor(row.get(0)),
        fleetdeck_roles: row.get(1),
        admin: row.get::<_, Option<bool>>(2).unwrap_or(false),
    })
}

fn raw(row: &tokio_postgres::Row) -> RawRow {
    RawRow {
        seq: row.get(0),
        time_us: row.get(1),
        actor: row.get(2),
        kind: row.get(3),
        run: row.get(4),
        item: row.get(5),
        step: row.get(6),
        cluster: row.get(7),
        payload: row.get(8),
        key: row.get(9),
        token: row.get(10),
    }
}

fn lease_from(
    scope: &LeaseScope,
    holder: Option<String>,
    token: i64,
    acquired: i64,
    expires: i64,
) -> Result<Lease, JournalError> {
    Ok(Lease {
        scope: scope.clone(),
        holder: holder.map(Actor),
        token: FencingToken(token),
        acquired_at: from_micros(acquired, 0)?,
        expires_at: from_micros(expires, 0)?,
    })
}

fn expiry(now: Timestamp, ttl: Duration) -> Result<Timestamp, JournalError> {
    let ttl = jiff::SignedDuration::try_from(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))?;
    now.checked_add(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))
}

/// Rows handed from the database task to the caller's thread at a time.
const SCAN_CHUNK: usize = 2048;

impl JournalStore for PostgresJournal {
    fn append(&mut self, event: NewEvent, fence: Option<&Fence>) -> Result<Appended, JournalError> {
        let mut out = self.write(vec![event], fence, None)?;
        out.pop()
            .ok_or_else(|| JournalError::Invalid("the database wrote nothing".into()))
    }

    fn append_all(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
    ) -> Result<Vec<Appended>, JournalError> {
        self.write(events, fence, None)
    }

    fn append_if_last(
        &mut self,
        event: NewEvent,
        last_seen: Option<Sequence>,
    ) -> Result<Appended, JournalError> {
        let mut out = self.write(vec![event], None, Some(last_seen))?;
        out.pop()
            .ok_or_else(|| JournalError::Invalid("the database wrote nothing".into()))
    }

    fn scan(&self, query: &EventQuery, visit: &mut dyn FnMut(Event)) -> Result<(), JournalError> {
        let mut sql = format!("SELECT {COLUMNS} FROM fleetdeck.events WHERE true");
        let mut args: Vec<Box<dyn ToSql + Sync + Send>> = Vec::new();
        let mut push = |sql: &mut String, clause: &str, value: Box<dyn ToSql + Sync + Send>| {
            args.push(value);
            sql.push_str(&clause.replace('#', &format!("${}", args.len())));
        };
        if let Some(since) = query.since {
            push(&mut sql, " AND time_us >= #", Box::new(micros(since)));
        }
        if let Some(after) = query.after {
            push(&mut sql, " AND seq > #", Box::new(after.0));
        }
        if let Some(cluster) = &query.cluster {
            push(&mut sql, " AND cluster = #", Box::new(cluster.0.clone()));
        }
        if let Some(run) = &query.run {
            push(&mut sql, " AND run_id = #", Box::new(run.0.clone()));
        }
        if !query.kinds.is_empty() {
            push(
                &mut sql,
                " AND kind = ANY(#)",
                Box::new(query.kinds.clone()),
            );
        }
        sql.push_str(" ORDER BY seq");
        if let Some(limit) = query.limit {
            push(
                &mut sql,
                " LIMIT #",
                Box::new(i64::try_from(limit).unwrap_or(i64::MAX)),
            );
        }
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<RawRow>, JournalError>>(4);
        let pool = self.pool.clone();
        let where_ = self.info.display();
        bridge::handle()?.spawn(async move {
            use futures::StreamExt;
            let result: Result<(), JournalError> = async {
                let client = pool.get().await.map_err(|e| from_pool(e, &where_))?;
                let stmt = client
                    .prepare_cached(&sql)
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                let params = args.iter().map(|a| a.as_ref() as &(dyn ToSql + Sync));
                let rows = client
                    .query_raw(&stmt, params)
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                futures::pin_mut!(rows);
                let mut chunk = Vec::with_capacity(SCAN_CHUNK);
                while let Some(row) = rows.next().await {
                    chunk.push(raw(&row.map_err(|e| from_pg(e, &where_))?));
                    if chunk.len() == SCAN_CHUNK
                        && tx
                            .send(Ok(std::mem::replace(
                                &mut chunk,
                                Vec::with_capacity(SCAN_CHUNK),
                            )))
                            .is_err()
                    {
                        return Ok(());
                    }
                }
                let _ = tx.send(Ok(chunk));
                Ok(())
            }
            .await;
            if let Err(e) = result {
                let _ = tx.send(Err(e));
            }
        });
        // The receiving side blocks this thread only, never the PostgreSQL runtime: the
        // sender waits for room (at most four chunks are in flight).
        for chunk in rx {
            for row in chunk? {
                visit(decode(row)?);
            }
        }
        Ok(())
    }

    fn acquire_lease(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<LeaseGrant, JournalError> {
        let expires = expiry(now, ttl)?;
        let scope = scope.clone();
        let holder = holder.clone();
        self.run(move |client, where_| async move {
            let row = client
                .query_one(
                    "SELECT * FROM fleetdeck.acquire_lease($1, $2, $3, $4)",
                    &[&scope.0, &holder.0, &micros(now), &micros(expires)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            let granted: bool = row.get(0);
            let lease = lease_from(&scope, row.get(1), row.get(2), row.get(3), row.get(4))?;
            Ok(if granted {
                LeaseGrant::Acquired { lease }
            } else {
                LeaseGrant::HeldByOther { lease }
            })
        })
    }

    fn renew_lease(
        &mut self,
        lease: &Lease,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<Lease, JournalError> {
        let expires = expiry(now, ttl)?;
        let holder = lease
            .holder
            .clone()
            .ok_or_else(|| JournalError::Invalid("cannot renew a released lease".into()))?;
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let renewed: bool = client
                .query_one(
                    "SELECT fleetdeck.renew_lease($1, $2, $3, $4)",
                    &[&held.scope.0, &holder.0, &held.token.0, &micros(expires)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0);
            if !renewed {
                return Err(JournalError::LeaseLost {
                    scope: held.scope.clone(),
                    holder,
                });
            }
            Ok(Lease {
                expires_at: expires,
                ..held
            })
        })
    }

    fn release_lease(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError> {
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let released: bool = client
                .query_one(
                    "SELECT fleetdeck.release_lease($1, $2, $3)",
                    &[&held.scope.0, &held.token.0, &micros(now)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0);
            if !released {
                return Err(JournalError::LeaseLost {
                    scope: held.scope.clone(),
                    holder: held.holder.clone().unwrap_or_else(|| Actor(String::new())),
                });
            }
            Ok(())
        })
    }

    fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
        let scope = scope.clone();
        self.run(move |client, where_| async move {
            let row = client
                .query_opt(
                    "SELECT holder, token, acquired_us, expires_us FROM fleetdeck.leases WHERE scope = $1",
                    &[&scope.0],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            row.map(|r| lease_from(&scope, r.get(0), r.get(1), r.get(2), r.get(3)))
                .transpose()
        })
    }

    fn authenticated_actor(&self) -> Option<Actor> {
        Some(self.identity.role.clone())
    }

    fn wait_for_change(&self, _poll: Duration) {
        let Ok(mut changes) = self.changes.lock() else {
            return;
        };
        if changes.is_none() {
            match driver_config(&self.info, self.read_only) {
                Ok((cfg, tls)) => match listen::Changes::start(cfg, tls) {
                    Ok(started) => *changes = Some(started),
                    Err(error) => tracing::warn!(%error, "cannot listen for journal events"),
                },
                Err(error) => tracing::warn!(%error, "cannot listen for journal events"),
            }
        }
        match changes.as_ref() {
            Some(listening) => listening.wait(listen::SAFETY_CATCH_UP),
            None => std::thread::sleep(_poll),
        }
    }
}
