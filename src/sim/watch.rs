//! Watch: a chunked stream of single-line JSON events, resumable from a resourceVersion
//! kept in the bounded history, with bookmarks, `timeoutSeconds`, the streaming-list
//! mode (`sendInitialEvents=true` ending with the `k8s.io/initial-events-end` bookmark)
//! and, for a too-old resourceVersion, HTTP 200 with one ERROR event (410 Expired).

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::response::Response;
use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;

use super::clock::SimClock;
use super::error::ApiError;
use super::fleet::Cluster;
use super::list::{Filter, parse_rv};
use super::resource::ResourceType;
use super::store::{Change, EventType};
use super::table;

struct WatchState {
    rx: broadcast::Receiver<Arc<Change>>,
    queue: VecDeque<Bytes>,
    rt: Arc<ResourceType>,
    ns: Option<String>,
    filter: Filter,
    last_rv: u64,
    bookmarks: bool,
    bookmark_every: Duration,
    next_bookmark: Instant,
    deadline: Instant,
    as_table: bool,
    clock: SimClock,
    done: bool,
    /// Changes at or below this version are not sent (a watch from a version newer
    /// than the store's starts there).
    after: u64,
}

fn event_line(etype: &str, object: &[u8]) -> Bytes {
    let mut v = Vec::with_capacity(object.len() + 32);
    v.extend_from_slice(br#"{"type":""#);
    v.extend_from_slice(etype.as_bytes());
    v.extend_from_slice(br#"","object":"#);
    v.extend_from_slice(object);
    v.extend_from_slice(b"}\n");
    Bytes::from(v)
}

fn bookmark(rt: &ResourceType, rv: u64, initial_end: bool) -> Bytes {
    let mut meta = json!({"resourceVersion": rv.to_string()});
    if initial_end {
        meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    let obj = json!({"kind": rt.kind, "apiVersion": rt.api_version(), "metadata": meta});
    event_line("BOOKMARK", obj.to_string().as_bytes())
}

impl WatchState {
    fn object_bytes(&self, json: &Bytes) -> Bytes {
        if !self.as_table {
            return json.clone();
        }
        let obj: Value = serde_json::from_slice(json).unwrap_or(Value::Null);
        let meta = json!({"resourceVersion": obj.pointer("/metadata/resourceVersion").cloned().unwrap_or(Value::Null)});
        Bytes::from(table::table(&self.rt, &[obj], meta, &self.clock).to_string())
    }

    /// Turns a change into the event this watch sees, if any: a change that leaves the
    /// selection is DELETED, one that enters it is ADDED.
    fn event_for(&self, c: &Change) -> Option<Bytes> {
        if c.rv <= self.after
            || c.kind != self.rt.slot
            || self.ns.as_deref().is_some_and(|ns| ns != c.ns)
        {
            return None;
        }
        let now = self.filter.matches(&c.ns, &c.name, &c.idx);
        let before = c
            .prev
            .as_ref()
            .is_some_and(|p| self.filter.matches(&c.ns, &c.name, p));
        let etype = match (c.etype, before, now) {
            (EventType::Deleted, true, _) => EventType::Deleted,
            (EventType::Deleted, false, _) => return None,
            (_, true, true) => EventType::Modified,
            (_, false, true) => EventType::Added,
            (_, true, false) => EventType::Deleted,
            (_, false, false) => return None,
        };
        Some(event_line(etype.as_str(), &self.object_bytes(&c.json)))
    }
}

fn truthy(q: &HashMap<String, String>, key: &str) -> bool {
    matches!(q.get(key).map(String::as_str), Some("true") | Some("1"))
}

/// Serves a watch.
pub fn watch(
    cluster: &Arc<Cluster>,
    rt: &Arc<ResourceType>,
    ns: Option<String>,
    q: &HashMap<String, String>,
    accept: &str,
) -> Result<Response, ApiError> {
    let filter = Filter::from_query(q)?;
    super::validation::options::list_options(&rt.group, &rt.kind, q, true)?;
    let requested = parse_rv(q)?;
    let bookmarks = truthy(q, "allowWatchBookmarks");
    let send_initial = match q.get("sendInitialEvents").map(String::as_str) {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    };
    if send_initial == Some(true)
        && (!bookmarks || q.get("resourceVersionMatch").map(String::as_str) != Some("NotOlderThan"))
    {
        return Err(ApiError::invalid(
            rt,
            "",
            "sendInitialEvents",
            "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled and the resourceVersionMatch is set to NotOlderThan and allowWatchBookmarks is set to true",
        ));
    }
    let timeout = q
        .get("timeoutSeconds")
        .and_then(|s| s.parse::<u64>().ok())
        .map(Duration::from_secs)
        .unwrap_or(Duration::from_secs(1800));
    let faults = cluster.faults();
    let timeout = match faults.drop_watches_after_seconds {
        Some(s) if s >= 0.0 => timeout.min(Duration::from_secs_f64(s)),
        _ => timeout,
    };
    let as_table = table::wants_table(accept);
    let mut queue = VecDeque::new();
    let st = cluster.lock();
    let store = &st.store;
    let rx = store.subscribe();
    let current = store.rv();
    let mut state = WatchState {
        rx,
        queue: VecDeque::new(),
        rt: rt.clone(),
        ns,
        filter,
        last_rv: current,
        bookmarks,
        bookmark_every: Duration::from_secs_f64(cluster.settings.bookmark_seconds.max(0.05)),
        next_bookmark: Instant::now(),
        deadline: Instant::now() + timeout,
        as_table,
        clock: cluster.clock,
        done: false,
        after: requested.unwrap_or(0),
    };
    state.next_bookmark = Instant::now() + state.bookmark_every;
    let initial = match (send_initial, requested) {
        (Some(v), _) => v,
        (None, None) | (None, Some(0)) => true,
        (None, Some(_)) => false,
    };
    if initial {
        for (key, s) in store.iter(rt.slot, state.ns.as_deref(), None) {
            if state.filter.matches(&key.0, &key.1, &s.idx) {
                queue.push_back(event_line("ADDED", &state.object_bytes(&s.json)));
            }
        }
        if send_initial == Some(true) {
            queue.push_back(bookmark(rt, current, true));
        }
    } else if let Some(rv) = requested {
        if rv < store.compacted() {
            let status = ApiError::expired(rv, store.compacted()).status();
            queue.push_back(event_line("ERROR", status.to_string().as_bytes()));
            state.done = true;
        } else {
            for c in store.changes_since(rv) {
                if let Some(ev) = state.event_for(&c) {
                    queue.push_back(ev);
                }
            }
        }
    }
    drop(st);
    state.queue = queue;
    let stream = futures::stream::unfold(state, next_chunk);
    let mut resp = Response::new(Body::from_stream(stream));
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    Ok(resp)
}

async fn next_chunk(mut s: WatchState) -> Option<(Result<Bytes, Infallible>, WatchState)> {
    loop {
        if let Some(b) = s.queue.pop_front() {
            return Some((Ok(b), s));
        }
        if s.done {
            return None;
        }
        let bookmark_at = if s.bookmarks {
            s.next_bookmark
        } else {
            s.deadline
        };
        tokio::select! {
            msg = s.rx.recv() => match msg {
                Ok(c) => {
                    s.last_rv = s.last_rv.max(c.rv);
                    if let Some(ev) = s.event_for(&c) {
                        return Some((Ok(ev), s));
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // The watcher fell behind the kept buffer: tell it to relist.
                    let status = ApiError::expired(s.last_rv, s.last_rv).status();
                    s.done = true;
                    return Some((Ok(event_line("ERROR", status.to_string().as_bytes())), s));
                }
                Err(RecvError::Closed) => return None,
            },
            _ = tokio::time::sleep_until(bookmark_at), if s.bookmarks => {
                s.next_bookmark = Instant::now() + s.bookmark_every;
                return Some((Ok(bookmark(&s.rt, s.last_rv, false)), s));
            }
            _ = tokio::time::sleep_until(s.deadline) => return None,
        }
    }
}
