//! Reading: scans streamed from the database a chunk at a time, and the lists of what
//! the events name.

use tokio_postgres::types::ToSql;

use super::errors::{from_pg, from_pool};
use super::{PostgresJournal, bridge};
use crate::journal::row::{RawRow, decode, micros};
use crate::journal::{EventQuery, JournalError};
use crate::model::ledger::ClusterId;
use crate::model::run::{Event, RunId};

/// The columns of an event row, in [`RawRow`]'s order.
pub(super) const COLUMNS: &str =
    "seq, time_us, actor, kind, run_id, item, step, cluster, payload::text, idem_key, lease_token";

/// Rows handed from the database task to the caller's thread at a time.
const SCAN_CHUNK: usize = 2048;

impl PostgresJournal {
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
            .map(|v| v.into_iter().map(ClusterId::from).collect())
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

    /// Calls `visit` with every matching event, in sequence order.
    pub(super) fn scan_events(
        &self,
        query: &EventQuery,
        visit: &mut dyn FnMut(Event),
    ) -> Result<(), JournalError> {
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
            push(&mut sql, " AND cluster = #", Box::new(cluster.to_string()));
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
        let (tx_out, rx) = std::sync::mpsc::sync_channel::<Result<Vec<RawRow>, JournalError>>(4);
        let pool = self.pool.clone();
        let where_ = self.info.display();
        bridge::handle()?.spawn(async move {
            use futures::StreamExt;
            let result: Result<(), JournalError> = async {
                let mut client = pool.get().await.map_err(|e| from_pool(e, &where_))?;
                // A whole journal streamed to a slow reader may take longer than the
                // session's statement_timeout, which is for writes and short reads; a
                // read holds no lock a writer waits for.
                let tx = client
                    .transaction()
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                tx.batch_execute("SET LOCAL statement_timeout = 0")
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                let stmt = tx
                    .prepare_cached(&sql)
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                let params = args.iter().map(|a| a.as_ref() as &(dyn ToSql + Sync));
                let rows = tx
                    .query_raw(&stmt, params)
                    .await
                    .map_err(|e| from_pg(e, &where_))?;
                futures::pin_mut!(rows);
                let mut chunk = Vec::with_capacity(SCAN_CHUNK);
                while let Some(row) = rows.next().await {
                    chunk.push(raw(&row.map_err(|e| from_pg(e, &where_))?));
                    if chunk.len() == SCAN_CHUNK
                        && tx_out
                            .send(Ok(std::mem::replace(
                                &mut chunk,
                                Vec::with_capacity(SCAN_CHUNK),
                            )))
                            .is_err()
                    {
                        return Ok(());
                    }
                }
                let _ = tx_out.send(Ok(chunk));
                // Every row was read: ending the read's transaction cannot lose anything.
                let _ = tx.commit().await;
                Ok(())
            }
            .await;
            if let Err(e) = result {
                let _ = tx_out.send(Err(e));
            }
        });
        // The receiving side blocks this thread only, never the PostgreSQL runtime: the
        // sender waits for room (at most four chunks are in flight).
        for chunk in rx {
            for row in chunk? {
                visit(decode(row));
            }
        }
        Ok(())
    }
}

pub(super) fn raw(row: &tokio_postgres::Row) -> RawRow {
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
