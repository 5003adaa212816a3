//! Feeds the console from the journal: whether automation runs or is paused (and why, by
//! whom), its runs and recent events. Reads the local journal file incrementally on a
//! short interval; never talks to a cluster.

use std::time::Duration;

use tokio::sync::watch;

use crate::journal::{EventQuery, JournalStore};
use crate::model::run::{Event, EventBody, Projection, Sequence};
use crate::tui::{Activity, JournalLine, JournalView, LostLine};

/// Recent lines kept for the console.
const RECENT: usize = 300;
/// Events kept for the timeline (the journal itself keeps everything).
const TIMELINE: usize = 5000;
/// How often who else is connected to a shared journal is asked again.
const TEAM_EVERY: Duration = Duration::from_secs(5);

use crate::model::run::describe_msg;

/// [`feed`] from the journal `open` gives, trying again every `every` while it fails
/// (a read-only console whose journal does not exist yet): until then the console's
/// header says automation's state is unknown.
pub fn feed_once_open<S: JournalStore>(
    mut open: impl FnMut() -> Result<S, crate::journal::JournalError>,
    activity_tx: watch::Sender<Activity>,
    every: Duration,
) {
    let mut logged = false;
    loop {
        if activity_tx.is_closed() {
            return;
        }
        match open() {
            Ok(store) => return feed(store, activity_tx, every),
            Err(error) => {
                if !std::mem::replace(&mut logged, true) {
                    tracing::warn!(%error, "console feed cannot open the journal; trying again");
                }
                std::thread::sleep(every);
            }
        }
    }
}

/// Publishes the journal's activity (runs, pauses, recent events) from `store` every
/// `every` until the receiver is gone. Blocking (SQLite reads): run it on a thread of its own, e.g. with
/// `tokio::task::spawn_blocking`, never on the console's async workers.
pub fn feed(store: impl JournalStore, activity_tx: watch::Sender<Activity>, every: Duration) {
    let mut projection = Projection::default();
    let mut timeline: Vec<Event> = Vec::new();
    let mut team = None;
    let mut team_asked: Option<std::time::Instant> = None;
    let mut lost: Vec<LostLine> = Vec::new();
    // The key of the last event folded: a catch-up reads from it, and finds it there
    // unless the journal went back.
    let mut last_key: Option<crate::model::run::IdempotencyKey> = None;
    loop {
        if activity_tx.is_closed() {
            return;
        }
        let mut events = Vec::new();
        let query = EventQuery {
            after: projection.last_seq.map(|s| Sequence(s.0 - 1)),
            ..EventQuery::default()
        };
        let read = store.scan(&query, &mut |e| events.push(e));
        let read = read.and_then(|()| {
            let Some(last) = projection.last_seq else {
                return Ok(());
            };
            if events
                .first()
                .is_some_and(|e| e.seq == last && Some(&e.event.key) == last_key.as_ref())
            {
                events.remove(0);
                return Ok(());
            }
            // The journal no longer holds what was read last: read it all again, and say
            // which events shown are gone.
            tracing::error!(last = last.0, "the journal went back; reading it again");
            events.clear();
            store.scan(&EventQuery::default(), &mut |e| events.push(e))?;
            let now: std::collections::BTreeMap<i64, &crate::model::run::IdempotencyKey> =
                events.iter().map(|e| (e.seq.0, &e.event.key)).collect();
            lost.extend(
                timeline
                    .iter()
                    .filter(|e| now.get(&e.seq.0) != Some(&&e.event.key))
                    .map(|e| LostLine {
                        seq: e.seq.0,
                        text: describe_msg(e),
                    }),
            );
            projection = Projection::default();
            timeline.clear();
            Ok(())
        });
        if let Err(error) = read {
            tracing::warn!(%error, "console feed cannot read the journal");
            // What was read before stays on screen, marked as no longer known to be
            // current: the header then says automation's state is unknown.
            activity_tx
                .send_if_modified(|activity| std::mem::replace(&mut activity.connected, false));
            std::thread::sleep(every);
            continue;
        }
        // Read again after a lost connection: the state shown is current once more.
        activity_tx.send_if_modified(|activity| !std::mem::replace(&mut activity.connected, true));
        // Who this console is on a shared journal, and who else is there.
        if team_asked.is_none_or(|at| at.elapsed() >= TEAM_EVERY) {
            team_asked = Some(std::time::Instant::now());
            match store.team() {
                Ok(facts) => {
                    team = facts;
                    activity_tx.send_if_modified(|activity| {
                        activity.team != team && {
                            activity.team = team.clone();
                            true
                        }
                    });
                }
                Err(error) => tracing::debug!(%error, "who else is connected: not read"),
            }
        }
        if events.is_empty() && projection.last_seq.is_some() {
            // A SQLite journal is read again after `every`; a PostgreSQL journal as soon
            // as the database announces new events.
            store.wait_for_change(every);
            continue;
        }
        if let Some(event) = events.last() {
            last_key = Some(event.event.key.clone());
        }
        for event in events {
            projection.apply(&event);
            if !matches!(
                event.event.body,
                EventBody::Observed { .. }
                    | EventBody::RolloutObserved { .. }
                    | EventBody::LeaseAcquired { .. }
                    | EventBody::Dispatched { .. }
                    | EventBody::Claimed { .. }
                    | EventBody::Answered { .. }
            ) {
                timeline.push(event);
            }
        }
        if timeline.len() > TIMELINE {
            timeline.drain(..timeline.len() - TIMELINE);
        }
        let recent = timeline[timeline.len().saturating_sub(RECENT)..]
            .iter()
            .map(|event| JournalLine {
                at: event.event.time,
                actor: event.event.actor.to_string(),
                cluster: event.event.cluster.as_ref().map(|c| c.to_string()),
                text: describe_msg(event),
            })
            .collect();
        let _ = activity_tx.send(Activity {
            recent,
            connected: true,
            journal: JournalView::new(projection.clone(), timeline.clone()),
            team: team.clone(),
            lost: lost.clone(),
        });
        store.wait_for_change(every);
    }
}
