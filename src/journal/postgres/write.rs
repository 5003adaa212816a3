//! Appending: one transaction per call, the database numbering, stamping and checking
//! each event (see [`super::schema`]); and importing another journal's events as they were.

use super::PostgresJournal;
use super::errors::{self, from_pg};
use super::read::{COLUMNS, raw};
use crate::journal::row::{decode, micros};
use crate::journal::{Appended, Fence, JournalError};
use crate::model::run::{Actor, Event, NewEvent, Sequence};

const INSERT: &str = "INSERT INTO fleetdeck.events (time_us, kind, run_id, item, step, cluster, payload, idem_key, lease_scope, lease_token)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text::json, $8, $9, $10)
     ON CONFLICT (idem_key) DO NOTHING RETURNING seq, actor";

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

    pub(super) fn write(
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
