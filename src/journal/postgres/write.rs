//! Appending: one transaction per call, the database numbering, stamping and checking
//! each event (see [`super::schema`]); and importing another journal's events as they were.

use std::collections::HashMap;

use tokio_postgres::types::ToSql;

use super::PostgresJournal;
use super::errors::{self, from_pg};
use super::read::{COLUMNS, raw};
use crate::journal::row::{decode, micros};
use crate::journal::{Appended, Fence, JournalError};
use crate::model::run::{Actor, Event, NewEvent, Sequence};

/// Every event of a batch in one statement, in the batch's order (the trigger numbers
/// them as they come).
const INSERT: &str = "INSERT INTO fleetdeck.events (time_us, kind, run_id, item, step, cluster, payload, idem_key, lease_scope, lease_token)
     SELECT u.time_us, u.kind, u.run_id, u.item, u.step, u.cluster, u.payload::json, u.idem_key, $9, $10
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS u(time_us, kind, run_id, item, step, cluster, payload, idem_key, n)
      ORDER BY u.n
     ON CONFLICT (idem_key) DO NOTHING RETURNING seq, actor, idem_key";

/// A batch's columns, as the insert takes them.
struct Rows {
    time: Vec<i64>,
    kind: Vec<String>,
    run: Vec<Option<String>>,
    item: Vec<Option<String>>,
    step: Vec<Option<String>>,
    cluster: Vec<Option<String>>,
    payload: Vec<String>,
    key: Vec<String>,
}

impl Rows {
    fn of(events: &[NewEvent]) -> Result<Rows, JournalError> {
        let mut rows = Rows {
            time: Vec::with_capacity(events.len()),
            kind: Vec::with_capacity(events.len()),
            run: Vec::with_capacity(events.len()),
            item: Vec::with_capacity(events.len()),
            step: Vec::with_capacity(events.len()),
            cluster: Vec::with_capacity(events.len()),
            payload: Vec::with_capacity(events.len()),
            key: Vec::with_capacity(events.len()),
        };
        for event in events {
            let (kind, payload) = event.body.to_parts();
            rows.payload.push(
                serde_json::to_string(&payload).map_err(|e| {
                    JournalError::Invalid(format!("payload cannot be written: {e}"))
                })?,
            );
            rows.time.push(micros(event.time));
            rows.kind.push(kind);
            rows.run.push(event.run.as_ref().map(|r| r.0.clone()));
            rows.item.push(event.item.as_ref().map(|i| i.0.clone()));
            rows.step.push(event.step.as_ref().map(|s| s.0.clone()));
            rows.cluster
                .push(event.cluster.as_ref().map(|c| c.0.clone()));
            rows.key.push(event.key.0.clone());
        }
        Ok(rows)
    }
}

impl PostgresJournal {
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

    /// Appends `events` as one statement: the database numbers, stamps and checks each in
    /// order, and the statement's implicit transaction makes them all or none. One round
    /// trip and one commit (one WAL flush) however many events there are. With
    /// `last_seen`, the journal's last event is checked first under the write lock, in one
    /// transaction with the insert.
    pub(super) fn write(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
        last_seen: Option<Option<Sequence>>,
    ) -> Result<Vec<Appended>, JournalError> {
        let fence = fence.cloned();
        let role = self.identity.role.clone();
        let rows = Rows::of(&events)?;
        self.run(move |mut client, where_| async move {
            let fail = |e| errors::from_write(e, &where_, fence.as_ref(), &role);
            let scope = fence.as_ref().map(|f| f.scope.0.clone());
            let token = fence.as_ref().map(|f| f.token.0);
            let params: [&(dyn ToSql + Sync); 10] = [
                &rows.time,
                &rows.kind,
                &rows.run,
                &rows.item,
                &rows.step,
                &rows.cluster,
                &rows.payload,
                &rows.key,
                &scope,
                &token,
            ];
            let inserted = match last_seen {
                None => {
                    let insert = client.prepare_cached(INSERT).await.map_err(fail)?;
                    client.query(&insert, &params).await.map_err(fail)?
                }
                Some(last_seen) => {
                    let tx = client.transaction().await.map_err(fail)?;
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
                    let insert = tx.prepare_cached(INSERT).await.map_err(fail)?;
                    let inserted = tx.query(&insert, &params).await.map_err(fail)?;
                    tx.commit().await.map_err(fail)?;
                    inserted
                }
            };
            let mut new: HashMap<String, (i64, String)> = inserted
                .iter()
                .map(|r| (r.get::<_, String>(2), (r.get(0), r.get(1))))
                .collect();
            // Keys already stored (before, or earlier in this very batch): the stored event.
            let missing: Vec<String> = rows
                .key
                .iter()
                .filter(|k| !new.contains_key(*k))
                .cloned()
                .collect();
            let mut stored: HashMap<String, Event> = HashMap::new();
            if !missing.is_empty() {
                let sql = format!("SELECT {COLUMNS} FROM fleetdeck.events WHERE idem_key = ANY($1)");
                for row in client.query(&sql, &[&missing]).await.map_err(fail)? {
                    let event = decode(raw(&row))?;
                    stored.insert(event.event.key.0.clone(), event);
                }
            }
            let mut out: Vec<Appended> = Vec::with_capacity(events.len());
            for mut event in events {
                if let Some((seq, actor)) = new.remove(&event.key.0) {
                    event.actor = Actor(actor);
                    let written = Event {
                        seq: Sequence(seq),
                        token: fence.as_ref().map(|f| f.token),
                        event,
                    };
                    stored.insert(written.event.key.0.clone(), written.clone());
                    out.push(Appended {
                        event: written,
                        duplicate: false,
                    });
                    continue;
                }
                let existing = stored.get(&event.key.0).cloned().ok_or_else(|| {
                    JournalError::Invalid(format!(
                        "event {} was neither written nor found",
                        event.key
                    ))
                })?;
                out.push(Appended {
                    event: existing,
                    duplicate: true,
                });
            }
            Ok(out)
        })
    }
}
