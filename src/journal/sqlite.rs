//! The embedded journal: one SQLite file in WAL mode.
//!
//! Durability: `synchronous=FULL` by default. In WAL mode, NORMAL survives a killed
//! process but may lose the last commits on power loss — and an intent lost after its
//! side effect happened is exactly what the journal exists to prevent (a lost cordon
//! intent would make us record the node as "already cordoned" and never uncordon it).
//! NORMAL is offered for benchmarks and throwaway journals.
//!
//! Over 600 lines: the whole SQLite store behind `JournalStore` (schema, appends under the
//! fence, leases, queries, projection); its tests are shared with PostgreSQL's through the
//! store trait. It splits by concern (leases, queries) if it grows further.

use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;
use rusqlite::types::Value as SqlValue;
use rusqlite::{
    Connection, OpenFlags, OptionalExtension, Row, Transaction, TransactionBehavior, params,
};

use super::lease::{Fence, Lease, LeaseGrant};
use super::migrations::{MIGRATIONS, current_version};
use super::row::{RawRow, decode, from_micros, micros};
use super::{Appended, EventQuery, JournalError, JournalStore};
use crate::model::ledger::ClusterId;
use crate::model::run::writers::key_scope;
use crate::model::run::{
    Actor, Event, EventBody, FencingToken, IdempotencyKey, LeaseScope, NewEvent, RunId, Sequence,
};

/// How hard each commit is pushed to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// fsync on every commit: a committed event survives power loss.
    #[default]
    Full,
    /// fsync at checkpoints: survives a killed process, not a power cut.
    Normal,
}

/// How long a writer waits for another process's transaction before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A journal in one SQLite database file.
pub struct SqliteJournal {
    conn: Connection,
}

const COLUMNS: &str =
    "seq, time_us, actor, kind, run_id, item, step, cluster, payload, idem_key, lease_token";

impl SqliteJournal {
    /// Opens (creating if needed) the journal at `path` and brings its schema up to date.
    pub fn open(path: &Path, durability: Durability) -> Result<Self, JournalError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                JournalError::Invalid(format!("cannot create {}: {e}", parent.display()))
            })?;
        }
        Self::from_connection(Connection::open(path)?, durability)
    }

    /// Opens the existing journal at `path` for reading only (read-only mode): no file is
    /// created, no schema is migrated and every write is refused by SQLite itself. A
    /// journal that does not exist yet, or whose schema an older fleetdeck wrote, is an
    /// error that says so.
    pub fn open_read_only(path: &Path) -> Result<Self, JournalError> {
        if !path.is_file() {
            return Err(JournalError::Invalid(format!(
                "no journal at {} yet (read-only mode creates none)",
                path.display()
            )));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let journal = SqliteJournal { conn };
        let found = journal.schema_version()?;
        let known = current_version();
        if found > known {
            return Err(JournalError::SchemaTooNew { found, known });
        }
        if found < known {
            return Err(JournalError::Invalid(format!(
                "journal {} has schema version {found}, older than this fleetdeck's {known}; \
                 open it once without --readonly to bring it up to date",
                path.display()
            )));
        }
        Ok(journal)
    }

    /// A journal in memory, for tests and dry runs.
    pub fn in_memory() -> Result<Self, JournalError> {
        Self::from_connection(Connection::open_in_memory()?, Durability::Normal)
    }

    fn from_connection(conn: Connection, durability: Durability) -> Result<Self, JournalError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // `journal_mode` answers with the mode in effect (memory databases stay "memory").
        let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        conn.pragma_update(
            None,
            "synchronous",
            match durability {
                Durability::Full => "FULL",
                Durability::Normal => "NORMAL",
            },
        )?;
        let mut journal = SqliteJournal { conn };
        journal.migrate()?;
        Ok(journal)
    }

    /// Every cluster the journal's events name, sorted (what `--cluster` can match).
    pub fn clusters(&self) -> Result<Vec<ClusterId>, JournalError> {
        self.distinct("cluster")
            .map(|v| v.into_iter().map(ClusterId::from).collect())
    }

    /// Every run the journal's events name, sorted (what `--run` can match).
    pub fn run_ids(&self) -> Result<Vec<RunId>, JournalError> {
        self.distinct("run_id")
            .map(|v| v.into_iter().map(RunId).collect())
    }

    /// The distinct values of one indexed column (`cluster`, `run_id`), sorted.
    fn distinct(&self, column: &'static str) -> Result<Vec<String>, JournalError> {
        let sql = format!(
            "SELECT DISTINCT {column} FROM events WHERE {column} IS NOT NULL ORDER BY {column}"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let values = stmt
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(values)
    }

    /// The schema version stored in the database.
    pub fn schema_version(&self) -> Result<i64, JournalError> {
        Ok(self
            .conn
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .optional()?
            .unwrap_or(0))
    }

    /// The result of `PRAGMA integrity_check` (`"ok"` when healthy).
    pub fn integrity_check(&self) -> Result<String, JournalError> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let lines: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(lines.join("\n"))
    }

    fn migrate(&mut self) -> Result<(), JournalError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
        let found: Option<i64> = tx
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .optional()?;
        if found.is_none() {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", [])?;
        }
        tx.commit()?;
        let found = found.unwrap_or(0);
        if found > current_version() {
            return Err(JournalError::SchemaTooNew {
                found,
                known: current_version(),
            });
        }
        for migration in MIGRATIONS.iter().filter(|m| m.version > found) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            // Another process may have migrated between our read and this transaction.
            let now: i64 = tx.query_row("SELECT version FROM schema_version", [], |r| r.get(0))?;
            if now >= migration.version {
                continue;
            }
            tx.execute_batch(migration.sql)?;
            tx.execute(
                "UPDATE schema_version SET version = ?1",
                [migration.version],
            )?;
            tx.commit()?;
            tracing::info!(
                version = migration.version,
                what = migration.description,
                "journal migrated"
            );
        }
        Ok(())
    }

    /// Appends events copied from another journal as they were (sequence, actor, time,
    /// token), in one transaction; each must come after the journal's last event.
    pub fn import(&mut self, events: Vec<Event>) -> Result<u64, JournalError> {
        let tx = self.write_tx()?;
        let mut last: i64 =
            tx.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))?;
        let mut n = 0;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO events (seq, time_us, actor, kind, run_id, item, step, cluster, payload, idem_key, lease_token)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?;
            for e in events {
                if let EventBody::Unreadable { kind, reason } = &e.event.body {
                    return Err(JournalError::Invalid(format!(
                        "event {} ({kind}) cannot be read ({reason}), so it cannot be copied",
                        e.seq.0
                    )));
                }
                if e.seq.0 <= last {
                    return Err(JournalError::Invalid(format!(
                        "an imported event ({}) must come after the journal's last one ({last})",
                        e.seq.0
                    )));
                }
                let (kind, payload) = e.event.body.to_parts();
                let payload = serde_json::to_string(&payload).map_err(|err| {
                    JournalError::Invalid(format!("payload cannot be written: {err}"))
                })?;
                stmt.execute(params![
                    e.seq.0,
                    micros(e.event.time),
                    e.event.actor.0,
                    kind,
                    e.event.run.as_ref().map(|r| &r.0),
                    e.event.item.as_ref().map(|i| &i.0),
                    e.event.step.as_ref().map(|s| &s.0),
                    e.event.cluster.as_ref().map(|c| &c.0),
                    payload,
                    e.event.key.0,
                    e.token.map(|t| t.0),
                ])?;
                last = e.seq.0;
                n += 1;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    fn write_tx(&mut self) -> Result<Transaction<'_>, JournalError> {
        // IMMEDIATE takes the write lock up front, so the fence check and the write cannot
        // interleave with another process's lease change.
        Ok(self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?)
    }
}

/// Whether `fence` is the live lease's: its current token, and held (a released or
/// revoked lease keeps its token but has no holder).
fn check_fence(tx: &Transaction<'_>, fence: &Fence) -> Result<(), JournalError> {
    let current: Option<(i64, Option<String>)> = tx
        .query_row(
            "SELECT token, holder FROM leases WHERE scope = ?1",
            [&fence.scope.0],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let (token, held) = current.map_or((0, false), |(t, h)| (t, h.is_some()));
    if token != fence.token.0 || !held {
        return Err(JournalError::StaleToken {
            scope: fence.scope.clone(),
            presented: fence.token,
            current: FencingToken(token),
        });
    }
    Ok(())
}

/// Where a batch stands with its fence: checked once, before the first event it writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FenceCheck {
    Pending,
    Passed,
}

fn insert(
    tx: &Transaction<'_>,
    event: NewEvent,
    fence: Option<&Fence>,
    checked: &mut FenceCheck,
) -> Result<Appended, JournalError> {
    // A stored key is looked up first (the write lock is held): an insert that conflicts
    // would still use up a number, and the journal's numbers have no gaps. The same write
    // again (same kind, same writer's key space) is answered with the stored event,
    // whatever the fence: it was checked when it went in.
    let mut stmt =
        tx.prepare_cached(&format!("SELECT {COLUMNS} FROM events WHERE idem_key = ?1"))?;
    let stored = stmt
        .query_row([&event.key.0], raw_row)
        .optional()?
        .map(decode);
    let kind = event.body.kind();
    if let Some(stored) = &stored {
        let stored_kind = stored.event.body.kind();
        let same_writer =
            key_scope(&stored_kind, &stored.event.actor.0) == key_scope(&kind, &event.actor.0);
        if stored_kind == kind && same_writer {
            return Ok(Appended {
                event: stored.clone(),
                duplicate: true,
            });
        }
    }
    let admitted = super::door::admit(&event, fence)?;
    if let (Some(fence), FenceCheck::Pending) = (fence, *checked) {
        check_fence(tx, fence)?;
        *checked = FenceCheck::Passed;
    }
    check_run_rules(tx, &event, &admitted.kind)?;
    if let Some(stored) = stored {
        // One key space for everyone in a file journal: another writer's key is refused,
        // never taken for this write.
        return Err(JournalError::KeyTaken {
            key: event.key.0,
            kind,
            stored: stored.event.body.kind(),
        });
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO events (time_us, actor, kind, run_id, item, step, cluster, payload, idem_key, lease_scope, lease_token)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    let inserted = stmt.execute(params![
        micros(event.time),
        event.actor.0,
        admitted.kind,
        event.run.as_ref().map(|r| &r.0),
        event.item.as_ref().map(|i| &i.0),
        event.step.as_ref().map(|s| &s.0),
        event.cluster.as_ref().map(|c| &c.0),
        admitted.payload,
        event.key.0,
        fence.map(|f| &f.scope.0),
        fence.map(|f| f.token.0),
    ])?;
    debug_assert_eq!(inserted, 1);
    let seq = tx.last_insert_rowid();
    Ok(Appended {
        event: Event {
            seq: Sequence(seq),
            token: fence.map(|f| f.token),
            event,
        },
        duplicate: false,
    })
}

/// The rules about runs both journals keep: a run has one plan, and an approval is of a
/// run that has one.
fn check_run_rules(tx: &Transaction<'_>, event: &NewEvent, kind: &str) -> Result<(), JournalError> {
    let planned = |run: &RunId| -> Result<bool, JournalError> {
        let mut stmt = tx.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM events WHERE run_id = ?1 AND kind = 'run.planned')",
        )?;
        Ok(stmt.query_row([&run.0], |r| r.get(0))?)
    };
    match (kind, &event.run) {
        ("run.planned", Some(run)) if planned(run)? => {
            Err(JournalError::AlreadyPlanned { run: run.clone() })
        }
        ("run.approved", Some(run)) if !planned(run)? => Err(JournalError::Refused(format!(
            "run {run} has no plan to approve"
        ))),
        ("run.approved", None) => Err(JournalError::Refused(
            "an approval names the run it approves".into(),
        )),
        _ => Ok(()),
    }
}

fn raw_row(r: &Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        seq: r.get(0)?,
        time_us: r.get(1)?,
        actor: r.get(2)?,
        kind: r.get(3)?,
        run: r.get(4)?,
        item: r.get(5)?,
        step: r.get(6)?,
        cluster: r.get(7)?,
        payload: r.get(8)?,
        key: r.get(9)?,
        token: r.get(10)?,
    })
}

fn lease_row(r: &Row<'_>) -> rusqlite::Result<(String, Option<String>, i64, i64, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn read_lease(conn: &Connection, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
    let row = conn
        .query_row(
            "SELECT scope, holder, token, acquired_us, expires_us FROM leases WHERE scope = ?1",
            [&scope.0],
            lease_row,
        )
        .optional()?;
    row.map(|(scope, holder, token, acquired, expires)| {
        Ok(Lease {
            scope: LeaseScope(scope),
            holder: holder.map(Actor),
            token: FencingToken(token),
            acquired_at: from_micros(acquired, 0)?,
            expires_at: from_micros(expires, 0)?,
        })
    })
    .transpose()
}

/// Every stored lease that may not be held by another executor while `scope` is held
/// (see [`crate::model::shard::may_coexist`]).
fn other_leases(conn: &Connection, scope: &LeaseScope) -> Result<Vec<Lease>, JournalError> {
    let mut stmt = conn.prepare_cached(
        "SELECT scope, holder, token, acquired_us, expires_us FROM leases WHERE scope <> ?1 ORDER BY scope",
    )?;
    let rows = stmt
        .query_map([&scope.0], lease_row)?
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    for (other, holder, token, acquired, expires) in rows {
        let other = LeaseScope(other);
        if crate::model::shard::may_coexist(scope, &other) {
            continue;
        }
        out.push(Lease {
            scope: other,
            holder: holder.map(Actor),
            token: FencingToken(token),
            acquired_at: from_micros(acquired, 0)?,
            expires_at: from_micros(expires, 0)?,
        });
    }
    Ok(out)
}

fn expiry(now: Timestamp, ttl: Duration) -> Result<Timestamp, JournalError> {
    let ttl = jiff::SignedDuration::try_from(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))?;
    now.checked_add(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))
}

impl JournalStore for SqliteJournal {
    fn append(&mut self, event: NewEvent, fence: Option<&Fence>) -> Result<Appended, JournalError> {
        let tx = self.write_tx()?;
        let appended = insert(&tx, event, fence, &mut FenceCheck::Pending)?;
        tx.commit()?;
        Ok(appended)
    }

    fn append_all(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
    ) -> Result<Vec<Appended>, JournalError> {
        let tx = self.write_tx()?;
        let mut checked = FenceCheck::Pending;
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            out.push(insert(&tx, event, fence, &mut checked)?);
        }
        tx.commit()?;
        Ok(out)
    }

    fn append_if_last(
        &mut self,
        event: NewEvent,
        last_seen: Option<Sequence>,
    ) -> Result<Appended, JournalError> {
        let tx = self.write_tx()?;
        let found: i64 =
            tx.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))?;
        let expected = last_seen.map_or(0, |s| s.0);
        if found != expected {
            return Err(JournalError::MovedOn { expected, found });
        }
        let appended = insert(&tx, event, None, &mut FenceCheck::Pending)?;
        tx.commit()?;
        Ok(appended)
    }

    fn scan(&self, query: &EventQuery, visit: &mut dyn FnMut(Event)) -> Result<(), JournalError> {
        let mut sql = format!("SELECT {COLUMNS} FROM events WHERE 1=1");
        let mut args: Vec<SqlValue> = Vec::new();
        if let Some(since) = query.since {
            args.push(SqlValue::Integer(micros(since)));
            sql.push_str(&format!(" AND time_us >= ?{}", args.len()));
        }
        if let Some(after) = query.after {
            args.push(SqlValue::Integer(after.0));
            sql.push_str(&format!(" AND seq > ?{}", args.len()));
        }
        if let Some(cluster) = &query.cluster {
            args.push(SqlValue::Text(cluster.to_string()));
            sql.push_str(&format!(" AND cluster = ?{}", args.len()));
        }
        if let Some(run) = &query.run {
            args.push(SqlValue::Text(run.0.clone()));
            sql.push_str(&format!(" AND run_id = ?{}", args.len()));
        }
        if !query.kinds.is_empty() {
            let mut marks = Vec::new();
            for kind in &query.kinds {
                args.push(SqlValue::Text(kind.clone()));
                marks.push(format!("?{}", args.len()));
            }
            sql.push_str(&format!(" AND kind IN ({})", marks.join(",")));
        }
        sql.push_str(" ORDER BY seq");
        if let Some(limit) = query.limit {
            args.push(SqlValue::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
            sql.push_str(&format!(" LIMIT ?{}", args.len()));
        }
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
        while let Some(row) = rows.next()? {
            visit(decode(raw_row(row)?));
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
        let tx = self.write_tx()?;
        // A lease that may not be held beside ours (the fleet's and any shard's, shards of
        // two keys) and that someone holds now refuses us.
        let others = other_leases(&tx, scope)?;
        if let Some(blocking) = others.iter().find(|l| l.is_held_at(now)) {
            return Ok(LeaseGrant::HeldByOther {
                lease: blocking.clone(),
            });
        }
        let current = read_lease(&tx, scope)?;
        let token = match &current {
            Some(lease) if lease.is_held_at(now) && lease.holder.as_ref() == Some(holder) => {
                // Ours and still valid: a renewal, same token.
                lease.token
            }
            Some(lease) if lease.is_held_at(now) => {
                return Ok(LeaseGrant::HeldByOther {
                    lease: lease.clone(),
                });
            }
            // Lapsed while nobody else took it: still the same holding, the same token
            // (what its holder wrote meanwhile was fenced with it, and nobody else acted).
            Some(lease) if lease.holder.as_ref() == Some(holder) => lease.token,
            Some(lease) => FencingToken(lease.token.0 + 1),
            None => FencingToken(1),
        };
        // Lapsed leases that may not be held beside ours are revoked (a new token, no
        // holder): whatever their holder still writes under them is refused.
        for lapsed in others.iter().filter(|l| l.holder.is_some()) {
            tx.execute(
                "UPDATE leases SET holder = NULL, token = token + 1 WHERE scope = ?1",
                [&lapsed.scope.0],
            )?;
        }
        let changed_hands = current.as_ref().is_none_or(|l| l.token != token);
        let acquired_at = if changed_hands {
            now
        } else {
            current.as_ref().map_or(now, |l| l.acquired_at)
        };
        tx.execute(
            "INSERT INTO leases (scope, holder, token, acquired_us, expires_us) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (scope) DO UPDATE SET holder = excluded.holder, token = excluded.token,
                 acquired_us = excluded.acquired_us, expires_us = excluded.expires_us",
            params![scope.0, holder.0, token.0, micros(acquired_at), micros(expires)],
        )?;
        if changed_hands {
            let event = NewEvent::new(
                now,
                holder.clone(),
                IdempotencyKey::for_lease(scope, token),
                EventBody::LeaseAcquired {
                    scope: scope.clone(),
                    token,
                },
            );
            insert(
                &tx,
                event,
                Some(&Fence {
                    scope: scope.clone(),
                    token,
                }),
                &mut FenceCheck::Pending,
            )?;
        }
        tx.commit()?;
        Ok(LeaseGrant::Acquired {
            lease: Lease {
                scope: scope.clone(),
                holder: Some(holder.clone()),
                token,
                acquired_at,
                expires_at: expires,
            },
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
        let tx = self.write_tx()?;
        let changed = tx.execute(
            "UPDATE leases SET expires_us = ?1 WHERE scope = ?2 AND token = ?3 AND holder = ?4",
            params![micros(expires), lease.scope.0, lease.token.0, holder.0],
        )?;
        if changed != 1 {
            return Err(JournalError::LeaseLost {
                scope: lease.scope.clone(),
                holder,
            });
        }
        tx.commit()?;
        Ok(Lease {
            expires_at: expires,
            ..lease.clone()
        })
    }

    fn release_lease(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError> {
        let tx = self.write_tx()?;
        // Releasing keeps the row (and so the token) so that the next holder's token is
        // still larger than every token ever handed out.
        let changed = tx.execute(
            "UPDATE leases SET holder = NULL, expires_us = ?1 WHERE scope = ?2 AND token = ?3",
            params![micros(now), lease.scope.0, lease.token.0],
        )?;
        if changed != 1 {
            return Err(JournalError::LeaseLost {
                scope: lease.scope.clone(),
                holder: lease.holder.clone().unwrap_or_else(|| Actor(String::new())),
            });
        }
        tx.commit()?;
        Ok(())
    }

    fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
        read_lease(&self.conn, scope)
    }
}

#[cfg(test)]
#[path = "sqlite_tests.rs"]
mod tests;
