//! Appending: one transaction per call, the database numbering, stamping and checking
//! each event (see [`super::schema`]); and importing another journal's events as they were.

use std::collections::HashMap;
use std::time::Duration;

use tokio_postgres::types::ToSql;

use super::errors::{self, from_pg};
use super::read::{COLUMNS, raw};
use super::{PostgresJournal, bridge};
use crate::journal::door::admit;
use crate::journal::row::{decode, micros};
use crate::journal::{Appended, Fence, JournalError};
use crate::model::run::{Actor, Event, NewEvent, Sequence};

/// Every event of a batch in one statement, in the batch's order (the trigger numbers
/// them as they come). A key already stored in the writer's key space is skipped by the
/// conflict: the same write again answers with the stored event.
const INSERT: &str = "INSERT INTO fleetdeck.events (time_us, kind, run_id, item, step, cluster, payload, idem_key, lease_scope, lease_token)
     SELECT u.time_us, u.kind, u.run_id, u.item, u.step, u.cluster, u.payload::json, u.idem_key, $9, $10
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS u(time_us, kind, run_id, item, step, cluster, payload, idem_key, n)
      ORDER BY u.n
     ON CONFLICT (key_scope, idem_key) DO NOTHING RETURNING seq, actor, idem_key";

/// The stored events under the batch's keys, each in the key space its kind gives this
/// writer.
fn stored_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM fleetdeck.events
          WHERE (key_scope, idem_key) IN (
                SELECT fleetdeck.key_scope_for(u.k, session_user), u.key
                  FROM unnest($1::text[], $2::text[]) AS u(k, key))"
    )
}

/// How long a write whose answer was lost keeps asking the journal again (a failover to
/// a standby takes seconds) before it says the outcome is unknown: this many times the
/// connection's `connect_timeout` (10 s unless the connection string says otherwise).
const RESOLVE_CONNECT_TIMEOUTS: u32 = 3;

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
    scope: Option<String>,
    token: Option<i64>,
}

impl Rows {
    /// The batch's columns, each event checked at the door first (the database checks
    /// again; this says the same without a round trip).
    fn of(events: &[NewEvent], fence: Option<&Fence>) -> Result<Rows, JournalError> {
        let mut rows = Rows {
            time: Vec::with_capacity(events.len()),
            kind: Vec::with_capacity(events.len()),
            run: Vec::with_capacity(events.len()),
            item: Vec::with_capacity(events.len()),
            step: Vec::with_capacity(events.len()),
            cluster: Vec::with_capacity(events.len()),
            payload: Vec::with_capacity(events.len()),
            key: Vec::with_capacity(events.len()),
            scope: fence.map(|f| f.scope.0.clone()),
            token: fence.map(|f| f.token.0),
        };
        for event in events {
            let admitted = admit(event, fence)?;
            rows.payload.push(admitted.payload);
            rows.time.push(micros(event.time));
            rows.kind.push(admitted.kind);
            rows.run.push(event.run.as_ref().map(|r| r.0.clone()));
            rows.item.push(event.item.as_ref().map(|i| i.0.clone()));
            rows.step.push(event.step.as_ref().map(|s| s.0.clone()));
            rows.cluster
                .push(event.cluster.as_ref().map(|c| c.to_string()));
            rows.key.push(event.key.0.clone());
        }
        Ok(rows)
    }
}

/// How a write attempt ended when it did not succeed.
enum Failed {
    /// Nothing was written: the database refused it or never got it.
    Definitely(JournalError),
    /// The answer was lost after the write was sent: it may have been recorded.
    Maybe(String),
}

/// A driver error met once the statement may have reached the server: the database's
/// refusal is definite (it rolled the statement back); a broken connection is not.
fn after_sending(
    error: tokio_postgres::Error,
    refused: impl FnOnce(tokio_postgres::Error) -> JournalError,
) -> Failed {
    if error.as_db_error().is_some() {
        Failed::Definitely(refused(error))
    } else {
        Failed::Maybe(chain(&error))
    }
}

/// An error with its causes, in a line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}

impl PostgresJournal {
    /// Appends events copied from another journal as they were (sequence, actor, time,
    /// token), in one transaction: an admin's job, each after the journal's last event.
    pub fn import(&mut self, events: Vec<Event>) -> Result<u64, JournalError> {
        // The batch as a person looks it up: its first and last events' keys.
        let keys: Vec<String> = match (events.first(), events.last()) {
            (Some(first), Some(last)) if events.len() > 1 => {
                vec![
                    first.event.key.0.clone(),
                    "…".into(),
                    last.event.key.0.clone(),
                ]
            }
            (Some(only), _) => vec![only.event.key.0.clone()],
            _ => Vec::new(),
        };
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
                        &e.event.cluster.as_ref().map(|c| c.as_str()),
                        &payload,
                        &e.event.key.0,
                        &e.token.map(|t| t.0),
                    ],
                )
                .await
                .map_err(pg)?;
                n += 1;
            }
            // A commit whose answer was lost may have gone in: said so, not "nothing was
            // recorded" (`journal copy` run again copies only what is missing).
            tx.commit().await.map_err(|e| match after_sending(e, pg) {
                Failed::Definitely(error) => error,
                Failed::Maybe(why) => JournalError::Unknown(why, keys),
            })?;
            Ok(n)
        })
    }

    /// Appends `events` as one statement: the database numbers, stamps and checks each in
    /// order, and the statement's implicit transaction makes them all or none. One round
    /// trip and one commit (one WAL flush) however many events there are. With
    /// `last_seen`, the journal's last event is checked first under the write lock, in one
    /// transaction with the insert.
    ///
    /// A connection that breaks once the write was sent leaves its outcome unknown: the
    /// same write is then sent again on a new connection (each event under its own key,
    /// in the writer's key space), which the database answers with what an earlier
    /// attempt stored, or by storing it now; only when the journal cannot be reached again
    /// within [`RESOLVE_CONNECT_TIMEOUTS`] connect timeouts is the outcome
    /// [`JournalError::Unknown`].
    pub(super) fn write(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
        last_seen: Option<Option<Sequence>>,
    ) -> Result<Vec<Appended>, JournalError> {
        let fence = fence.cloned();
        let role = self.identity.role.clone();
        let rows = std::sync::Arc::new(Rows::of(&events, fence.as_ref())?);
        let started = std::time::Instant::now();
        let resolve_within =
            Duration::from_secs(self.info.connect_timeout.unwrap_or(10)) * RESOLVE_CONNECT_TIMEOUTS;
        let mut retrying = false;
        let mut wait = Duration::from_millis(100);
        loop {
            let attempt = {
                let rows = rows.clone();
                let fence = fence.clone();
                let role = role.clone();
                let pool = self.pool.clone();
                let where_ = self.info.display();
                bridge::block(async move {
                    Ok(attempt(
                        pool,
                        where_,
                        &rows,
                        fence.as_ref(),
                        &role,
                        last_seen,
                        retrying,
                    )
                    .await)
                })?
            };
            match attempt {
                Ok(stored) => return answer(events, stored, fence.as_ref(), retrying),
                Err(Failed::Definitely(error)) if !retrying => return Err(error),
                Err(Failed::Definitely(JournalError::Unavailable(why)) | Failed::Maybe(why)) => {
                    if started.elapsed() >= resolve_within {
                        return Err(JournalError::Unknown(why, rows.key.clone()));
                    }
                    if !retrying {
                        tracing::warn!(%why, keys = ?rows.key, "journal write unanswered; asking again");
                    }
                    retrying = true;
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(1));
                }
                Err(Failed::Definitely(error)) => return Err(error),
            }
        }
    }
}

/// What one attempt stored or found: for each key, the new sequence and actor, or the
/// event stored under it before.
struct Stored {
    new: HashMap<String, (i64, String)>,
    before: HashMap<String, Event>,
}

/// One attempt at a write, on a connection of its own from the pool.
async fn attempt(
    pool: deadpool_postgres::Pool,
    where_: String,
    rows: &Rows,
    fence: Option<&Fence>,
    role: &Actor,
    last_seen: Option<Option<Sequence>>,
    retrying: bool,
) -> Result<Stored, Failed> {
    let refused = |e| errors::from_write(e, &where_, fence, role);
    // Nothing was sent yet: whatever fails here leaves the journal as it was.
    let mut client = pool
        .get()
        .await
        .map_err(|e| Failed::Definitely(errors::from_pool(e, &where_)))?;
    let insert = client
        .prepare_cached(INSERT)
        .await
        .map_err(|e| Failed::Definitely(refused(e)))?;
    let params: [&(dyn ToSql + Sync); 10] = [
        &rows.time,
        &rows.kind,
        &rows.run,
        &rows.item,
        &rows.step,
        &rows.cluster,
        &rows.payload,
        &rows.key,
        &rows.scope,
        &rows.token,
    ];
    let inserted = match last_seen {
        None => client
            .query(&insert, &params)
            .await
            .map_err(|e| after_sending(e, refused))?,
        Some(last_seen) => {
            // Until the commit is sent, a broken connection rolls the transaction back.
            let definitely = |e| Failed::Definitely(refused(e));
            let tx = client.transaction().await.map_err(definitely)?;
            let found: i64 = tx
                .query_one("SELECT fleetdeck.lock_writes()", &[])
                .await
                .map_err(definitely)?
                .get(0);
            if retrying {
                // An earlier attempt may have gone in: then the journal moved on by it.
                let before = stored_before(&tx, rows, &where_, fence, role).await?;
                if before.len() == rows.key.len() {
                    return Ok(Stored {
                        new: HashMap::new(),
                        before,
                    });
                }
            }
            let expected = last_seen.map_or(0, |s| s.0);
            if found != expected {
                return Err(Failed::Definitely(JournalError::MovedOn {
                    expected,
                    found,
                }));
            }
            let inserted = tx.query(&insert, &params).await.map_err(definitely)?;
            tx.commit().await.map_err(|e| after_sending(e, refused))?;
            inserted
        }
    };
    let new: HashMap<String, (i64, String)> = inserted
        .iter()
        .map(|r| (r.get::<_, String>(2), (r.get(0), r.get(1))))
        .collect();
    let before = if new.len() == rows.key.len() {
        HashMap::new()
    } else {
        // Keys already stored (before, or earlier in this very batch): the stored event.
        // The write itself is settled; a lost answer here is only a lost read.
        stored_before(&client, rows, &where_, fence, role)
            .await
            .map_err(|failed| match failed {
                Failed::Maybe(why) => Failed::Definitely(JournalError::Unavailable(why)),
                definite => definite,
            })?
    };
    Ok(Stored { new, before })
}

/// The events already stored under the batch's keys, in the writer's key spaces.
async fn stored_before(
    client: &impl deadpool_postgres::GenericClient,
    rows: &Rows,
    where_: &str,
    fence: Option<&Fence>,
    role: &Actor,
) -> Result<HashMap<String, Event>, Failed> {
    let found = client
        .query(&stored_sql(), &[&rows.kind, &rows.key])
        .await
        .map_err(|e| after_sending(e, |e| errors::from_write(e, where_, fence, role)))?;
    Ok(found
        .iter()
        .map(|row| {
            let event = decode(raw(row));
            (event.event.key.0.clone(), event)
        })
        .collect())
}

/// Each event as stored: the new one, with the sequence and actor the database gave it,
/// or the one already stored under its key (a repeat; after a lost answer, found as the
/// earlier attempt wrote it). A key the writer used before for another kind of event is
/// [`JournalError::KeyTaken`].
fn answer(
    events: Vec<NewEvent>,
    mut stored: Stored,
    fence: Option<&Fence>,
    retrying: bool,
) -> Result<Vec<Appended>, JournalError> {
    let mut out: Vec<Appended> = Vec::with_capacity(events.len());
    for mut event in events {
        if let Some((seq, actor)) = stored.new.remove(&event.key.0) {
            event.actor = Actor(actor);
            let written = Event {
                seq: Sequence(seq),
                token: fence.map(|f| f.token),
                event,
            };
            stored
                .before
                .insert(written.event.key.0.clone(), written.clone());
            out.push(Appended {
                event: written,
                duplicate: false,
            });
            continue;
        }
        let existing = stored.before.get(&event.key.0).ok_or_else(|| {
            JournalError::Invalid(format!("event {} was neither written nor found", event.key))
        })?;
        let (kind, stored_kind) = (event.body.kind(), existing.event.body.kind());
        if kind != stored_kind {
            return Err(JournalError::KeyTaken {
                key: event.key.0,
                kind,
                stored: stored_kind,
            });
        }
        out.push(Appended {
            event: existing.clone(),
            duplicate: !retrying,
        });
    }
    Ok(out)
}
