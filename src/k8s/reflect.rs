//! A list-then-watch loop for one resource of one cluster, written out rather than taken
//! from kube's watcher so that the console sees bookmarks (proof that a quiet cluster is
//! alive), list pages as they arrive, and every failure with whether the server was
//! reachable at all.

use std::fmt::Debug;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use kube::Api;
use kube::api::{ListParams, WatchEvent, WatchParams};
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

use super::retry::RetryPolicy;

/// What the loop tells its consumer.
#[derive(Debug)]
pub enum Delta<K> {
    /// A fresh list begins: the consumer starts collecting a new full set.
    ListStarted,
    /// One page of that list.
    Page(Vec<K>),
    /// The list is complete; the collected set replaces the old one.
    ListDone,
    /// An object was added or changed.
    Applied(K),
    /// An object was deleted.
    Deleted(K),
    /// A bookmark or a watch that ended quietly: the server is alive.
    Alive,
    /// A request failed; the loop backs off and tries again.
    Failed {
        /// What went wrong.
        error: String,
        /// True when the server could not be reached at all.
        unreachable: bool,
    },
}

/// How lists and watches are made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReflectOptions {
    /// Objects per list page.
    pub page_size: u32,
    /// Server-side watch timeout; a watch that ends quietly is simply resumed.
    pub watch_timeout_secs: u32,
    /// Backoff between failed attempts.
    pub backoff: RetryPolicy,
}

impl Default for ReflectOptions {
    fn default() -> Self {
        ReflectOptions {
            page_size: 500,
            watch_timeout_secs: 290,
            backoff: RetryPolicy {
                attempts: u32::MAX,
                base: Duration::from_millis(500),
                max: Duration::from_secs(30),
            },
        }
    }
}

/// Whether a kube error means the server was not reached.
pub fn is_unreachable(error: &kube::Error) -> bool {
    matches!(error, kube::Error::HyperError(_) | kube::Error::Service(_))
}

fn is_gone(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(status) if status.code == 410)
}

enum Next {
    Relist,
    Stop,
}

/// Runs until the receiver of `tx` is dropped.
pub async fn reflect<K>(api: Api<K>, options: ReflectOptions, tx: mpsc::Sender<Delta<K>>)
where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + 'static,
{
    let mut failures: u32 = 0;
    loop {
        match list_then_watch(&api, &options, &tx, &mut failures).await {
            Next::Stop => return,
            Next::Relist => continue,
        }
    }
}

async fn backoff(options: &ReflectOptions, failures: &mut u32) {
    *failures = failures.saturating_add(1);
    let delay = options.backoff.backoff(*failures, &mut rand::rng());
    tokio::time::sleep(delay).await;
}

async fn fail<K>(
    tx: &mpsc::Sender<Delta<K>>,
    error: &kube::Error,
    options: &ReflectOptions,
    failures: &mut u32,
) -> Result<(), ()> {
    let delta = Delta::Failed {
        error: error.to_string(),
        unreachable: is_unreachable(error),
    };
    tx.send(delta).await.map_err(|_| ())?;
    backoff(options, failures).await;
    Ok(())
}

async fn list_then_watch<K>(
    api: &Api<K>,
    options: &ReflectOptions,
    tx: &mpsc::Sender<Delta<K>>,
    failures: &mut u32,
) -> Next
where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + 'static,
{
    // List, page by page.
    if tx.send(Delta::ListStarted).await.is_err() {
        return Next::Stop;
    }
    let mut continue_token: Option<String> = None;
    let resource_version = loop {
        let mut params = ListParams::default().limit(options.page_size);
        if let Some(token) = &continue_token {
            params = params.continue_token(token);
        }
        match api.list(&params).await {
            Ok(list) => {
                *failures = 0;
                let version = list.metadata.resource_version.clone();
                continue_token = list.metadata.continue_.clone().filter(|t| !t.is_empty());
                if tx.send(Delta::Page(list.items)).await.is_err() {
                    return Next::Stop;
                }
                if continue_token.is_none() {
                    break version.unwrap_or_default();
                }
            }
            Err(error) => {
                // An expired continue token (410) or any failure: start the list over.
                if fail(tx, &error, options, failures).await.is_err() {
                    return Next::Stop;
                }
                return Next::Relist;
            }
        }
    };
    if tx.send(Delta::ListDone).await.is_err() {
        return Next::Stop;
    }
    // Watch from the list's version, resuming after quiet ends.
    let mut version = resource_version;
    loop {
        let params = WatchParams::default().timeout(options.watch_timeout_secs);
        let stream = match api.watch(&params, &version).await {
            Ok(stream) => stream,
            Err(error) if is_gone(&error) => return Next::Relist,
            Err(error) => {
                if fail(tx, &error, options, failures).await.is_err() {
                    return Next::Stop;
                }
                continue;
            }
        };
        let mut stream = stream.boxed();
        loop {
            // `ended`: the server closed the watch at its timeout; resume from `version`.
            let (delta, ended) = match stream.try_next().await {
                Ok(Some(WatchEvent::Added(object) | WatchEvent::Modified(object))) => {
                    if let Some(v) = object.meta().resource_version.clone() {
                        version = v;
                    }
                    (Delta::Applied(object), false)
                }
                Ok(Some(WatchEvent::Deleted(object))) => {
                    if let Some(v) = object.meta().resource_version.clone() {
                        version = v;
                    }
                    (Delta::Deleted(object), false)
                }
                Ok(Some(WatchEvent::Bookmark(bookmark))) => {
                    version = bookmark.metadata.resource_version;
                    (Delta::Alive, false)
                }
                Ok(Some(WatchEvent::Error(status))) if status.code == 410 => return Next::Relist,
                Ok(Some(WatchEvent::Error(status))) => {
                    let error = kube::Error::Api(status);
                    if fail(tx, &error, options, failures).await.is_err() {
                        return Next::Stop;
                    }
                    break;
                }
                Ok(None) => (Delta::Alive, true),
                Err(error) => {
                    if fail(tx, &error, options, failures).await.is_err() {
                        return Next::Stop;
                    }
                    break;
                }
            };
            *failures = 0;
            if tx.send(delta).await.is_err() {
                return Next::Stop;
            }
            if ended {
                break;
            }
        }
    }
}
