//! A list-then-watch loop for one resource of one cluster, written out rather than taken
//! from kube's watcher so that the console sees bookmarks (proof that a quiet cluster is
//! alive), list pages as they arrive, and every failure with whether the server was
//! reachable at all.

use std::time::Duration;

use futures::{StreamExt, TryStream, TryStreamExt};
use http_body_util::BodyExt;
use kube::api::{ListParams, WatchEvent, WatchParams};
use kube::core::Request;
use serde::Deserialize;
use tokio::sync::mpsc;

use super::retry::RetryPolicy;
use super::slim::{ItemOf, ListPage, SlimKind, decode_list, decode_object};
use crate::model::fleet::Interner;

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
        /// Which kind of failure it was.
        failure: Failure,
    },
}

/// What kind of failure a list or watch met: it decides what the cluster's status says
/// and whether waiting can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The server could not be reached at all.
    Unreachable,
    /// The server answered that the resource may not be read (403) or is not served
    /// (404): retrying will not help until someone changes the cluster.
    Refused,
    /// The server answered with another error (429, 5xx, an expired or broken watch):
    /// it is alive, and asking again may succeed.
    Answered,
}

impl Failure {
    /// The kind of failure `error` is.
    pub fn of(error: &kube::Error) -> Failure {
        match error {
            kube::Error::Api(status) if status.code == 403 || status.code == 404 => {
                Failure::Refused
            }
            error if is_unreachable(error) => Failure::Unreachable,
            _ => Failure::Answered,
        }
    }
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
    /// A list page not answered in this long is given up and the list retried (a well
    /// server answers a page in well under a second; the client's read timeout is sized
    /// for watches, so a hung server would otherwise hold a list for minutes).
    pub list_page_timeout: Duration,
    /// A watch whose response has not begun in this long is given up as unreachable: a
    /// well server answers a watch request at once and then streams, while a hung one
    /// would hold it for the whole watch-sized read timeout with the cluster still
    /// reading as it did before.
    pub watch_start_timeout: Duration,
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
            list_page_timeout: Duration::from_secs(60),
            watch_start_timeout: Duration::from_secs(30),
        }
    }
}

/// Whether a kube error means the server was not reached.
pub fn is_unreachable(error: &kube::Error) -> bool {
    matches!(error, kube::Error::HyperError(_) | kube::Error::Service(_))
        && !is_credential_failure(error)
}

/// Whether `error` is a credential's: the credential layer had none to send, or the
/// server refused the one sent (401). Not a sign the server cannot be reached.
pub fn is_credential_failure(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(status) if status.code == 401)
        || crate::k8s::credentials::CredentialError::find(error).is_some()
}

/// An error with its causes, outermost first ("…: client error (Connect): Connection
/// refused"), because kube's own message often hides the one part an operator needs.
pub fn describe_error(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = level_text(error);
    let mut source = (!is_api_status(error)).then(|| error.source()).flatten();
    while let Some(cause) = source {
        let cause_text = level_text(cause);
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        // An API status says all there is: its own source repeats it.
        source = (!is_api_status(cause)).then(|| cause.source()).flatten();
    }
    text
}

fn is_api_status(error: &(dyn std::error::Error + 'static)) -> bool {
    matches!(
        error.downcast_ref::<kube::Error>(),
        Some(kube::Error::Api(_))
    )
}

/// One error's own words. kube writes an API server's refusal with the whole status
/// object in Rust's debug notation after it; what an operator needs from it is the
/// server's message, its reason and the HTTP code.
fn level_text(error: &(dyn std::error::Error + 'static)) -> String {
    match error.downcast_ref::<kube::Error>() {
        Some(kube::Error::Api(status)) => {
            let reason = if status.reason.is_empty() {
                String::new()
            } else {
                format!("{}, ", status.reason)
            };
            format!(
                "API error: {} ({reason}HTTP {})",
                status.message, status.code
            )
        }
        _ => error.to_string(),
    }
}

fn is_gone(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(status) if status.code == 410)
}

enum Next {
    Relist,
    Stop,
}

/// A watch event's object, kept as its text until it is decoded like a list item. The
/// API server writes `type` before `object`, which lets serde hand over the text as is.
#[derive(Clone, Deserialize)]
struct RawObject(Box<serde_json::value::RawValue>);

/// Lists and watches `K` at its path across all namespaces, through `client`.
struct Resource<K> {
    client: kube::Client,
    request: Request,
    /// Shares repeated strings (namespaces, label keys, node names) among this
    /// resource's objects for as long as the loop runs.
    interner: Interner,
    /// The text of the page being read, kept between the pages of one list: a fleet's
    /// lists are hundreds of MiB, and a fresh buffer per page means fresh memory from the
    /// kernel (a page fault per 4 KiB) every time. Released once the list is complete.
    page: Vec<u8>,
    _kind: std::marker::PhantomData<fn() -> K>,
}

/// The largest page buffer reserved up front from a Content-Length (a page of 500 pods
/// is about 1 MiB; larger pages still arrive, growing the buffer as they do).
const PRESIZE_LIMIT: u64 = 64 << 20;

/// A decoding failure, reported the way kube reports one of its own.
fn decode_error(error: impl std::fmt::Display) -> kube::Error {
    kube::Error::SerdeError(<serde_json::Error as serde::de::Error>::custom(error))
}

impl<K: SlimKind> Resource<K> {
    /// One list page, decoded from the response bytes where they arrived: no copy into a
    /// `String` first (a page is hundreds of kilobytes, a fleet's lists hundreds of MiB),
    /// and each object projected as it is read.
    async fn list(&mut self, params: &ListParams) -> Result<ListPage<ItemOf<K>>, kube::Error> {
        let request = self
            .request
            .list(params)
            .map_err(kube::Error::BuildRequest)?;
        let response = self
            .client
            .send(request.map(kube::client::Body::from))
            .await?;
        let status = response.status();
        let body = &mut self.page;
        body.clear();
        let mut frames = response.into_body();
        // With a Content-Length the page's size is known: one allocation of that size
        // rather than doublings that leave up to half of it unused. The header is the
        // server's word, so it is capped and a failed reservation is only a missed hint.
        if let Some(exact) = hyper::body::Body::size_hint(&frames).exact() {
            let wanted = exact.min(PRESIZE_LIMIT) as usize;
            if body.capacity() < wanted {
                // Growing the emptied buffer would have the allocator copy the whole old
                // allocation (it does not know the length is zero); a fresh one copies
                // nothing.
                *body = Vec::new();
            }
            let _ = body.try_reserve_exact(wanted);
        }
        while let Some(frame) = frames.frame().await {
            if let Ok(data) = frame?.into_data() {
                body.extend_from_slice(&data);
            }
        }
        if status.is_client_error() || status.is_server_error() {
            return Err(api_error(status, body));
        }
        // One UTF-8 check over the whole page; the reader then works on the `str`.
        match std::str::from_utf8(body) {
            Ok(text) => decode_list::<K>(text, &mut self.interner).map_err(decode_error),
            Err(error) => Err(decode_error(format!("list page is not UTF-8: {error}"))),
        }
    }

    /// A watch event's object as an item, with its resource version.
    fn decode(&mut self, object: &RawObject) -> Result<(ItemOf<K>, Option<String>), kube::Error> {
        decode_object::<K>(object.0.get(), &mut self.interner).map_err(decode_error)
    }

    async fn watch(
        &self,
        params: &WatchParams,
        version: &str,
    ) -> Result<
        impl TryStream<Item = Result<WatchEvent<RawObject>, kube::Error>> + use<K>,
        kube::Error,
    > {
        let request = self
            .request
            .watch(params, version)
            .map_err(kube::Error::BuildRequest)?;
        self.client.request_events::<RawObject>(request).await
    }
}

/// The API's error `Status` for a failed request, or one made from the body when it is
/// not a `Status` (a proxy's HTML page), as kube itself reports them.
fn api_error(code: http::StatusCode, body: &[u8]) -> kube::Error {
    let status = serde_json::from_slice::<kube::core::Status>(body).unwrap_or_else(|_| {
        let text = String::from_utf8_lossy(body);
        kube::core::Status::failure(text.trim(), "Failed to parse error data")
            .with_code(code.as_u16())
    });
    kube::Error::Api(status.boxed())
}

/// Runs until the receiver of `tx` is dropped.
pub async fn reflect<K: SlimKind>(
    client: kube::Client,
    options: ReflectOptions,
    tx: mpsc::Sender<Delta<ItemOf<K>>>,
) {
    let mut api = Resource::<K> {
        client,
        request: Request::new(K::PATH),
        interner: Interner::new(),
        page: Vec::new(),
        _kind: std::marker::PhantomData,
    };
    let mut failures: u32 = 0;
    loop {
        match list_then_watch(&mut api, &options, &tx, &mut failures).await {
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
    fail_with(
        tx,
        describe_error(error),
        Failure::of(error),
        options,
        failures,
    )
    .await
}

async fn fail_with<K>(
    tx: &mpsc::Sender<Delta<K>>,
    error: String,
    failure: Failure,
    options: &ReflectOptions,
    failures: &mut u32,
) -> Result<(), ()> {
    // A failure alone is retried after a short backoff without a word: one 429 or one
    // dropped connection says nothing about the cluster (and would end a wait for a first
    // verdict with a wrong one). The second in a row is reported.
    if *failures > 0 {
        let delta = Delta::Failed { error, failure };
        tx.send(delta).await.map_err(|_| ())?;
    }
    backoff(options, failures).await;
    Ok(())
}

async fn list_then_watch<K: SlimKind>(
    api: &mut Resource<K>,
    options: &ReflectOptions,
    tx: &mpsc::Sender<Delta<ItemOf<K>>>,
    failures: &mut u32,
) -> Next {
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
        let page = match tokio::time::timeout(options.list_page_timeout, api.list(&params)).await {
            Ok(page) => page,
            Err(_) => {
                api.page = Vec::new();
                let error = format!(
                    "list page not answered in {}s",
                    options.list_page_timeout.as_secs()
                );
                if fail_with(tx, error, Failure::Unreachable, options, failures)
                    .await
                    .is_err()
                {
                    return Next::Stop;
                }
                return Next::Relist;
            }
        };
        match page {
            Ok(list) => {
                *failures = 0;
                let version = list.resource_version;
                continue_token = list.continue_token.filter(|t| !t.is_empty());
                if tx.send(Delta::Page(list.items)).await.is_err() {
                    return Next::Stop;
                }
                if continue_token.is_none() {
                    break version.unwrap_or_default();
                }
            }
            Err(error) => {
                // An expired continue token (410) or any failure: start the list over.
                api.page = Vec::new();
                if fail(tx, &error, options, failures).await.is_err() {
                    return Next::Stop;
                }
                return Next::Relist;
            }
        }
    };
    api.page = Vec::new();
    if tx.send(Delta::ListDone).await.is_err() {
        return Next::Stop;
    }
    // Watch from the list's version, resuming after quiet ends.
    let mut version = resource_version;
    loop {
        let params = watch_params(options);
        let started =
            tokio::time::timeout(options.watch_start_timeout, api.watch(&params, &version));
        let stream = match started.await {
            Ok(Ok(stream)) => stream,
            Ok(Err(error)) if is_gone(&error) => return Next::Relist,
            Err(_) => {
                let error = format!(
                    "watch not answered in {}s",
                    options.watch_start_timeout.as_secs()
                );
                // Unlike one 429 or one dropped connection, that long a silence is news
                // the first time.
                *failures = (*failures).max(1);
                if fail_with(tx, error, Failure::Unreachable, options, failures)
                    .await
                    .is_err()
                {
                    return Next::Stop;
                }
                continue;
            }
            Ok(Err(error)) => {
                if fail(tx, &error, options, failures).await.is_err() {
                    return Next::Stop;
                }
                continue;
            }
        };
        let mut stream = stream.boxed();
        // Whether the server said anything on this watch (an event or a bookmark).
        let mut heard = false;
        loop {
            // `ended`: the server closed the watch at its timeout; resume from `version`.
            let event = stream.try_next().await;
            let (delta, ended) = match event {
                Ok(Some(WatchEvent::Bookmark(bookmark))) => {
                    version = bookmark.metadata.resource_version;
                    (Delta::Alive, false)
                }
                Ok(Some(WatchEvent::Error(status))) if status.code == 410 => return Next::Relist,
                Ok(None) if !heard => {
                    // Closed without a word (a proxy that cuts watches, a server that
                    // ends them at once): not a sign of life, and not to be reopened in
                    // a tight loop. Back off as after a failure, resume from `version`.
                    backoff(options, failures).await;
                    break;
                }
                Ok(None) => (Delta::Alive, true),
                other => match object_delta(api, other, &mut version) {
                    Ok(delta) => (delta, false),
                    Err(error) => {
                        if fail(tx, &error, options, failures).await.is_err() {
                            return Next::Stop;
                        }
                        break;
                    }
                },
            };
            *failures = 0;
            heard = true;
            if tx.send(delta).await.is_err() {
                return Next::Stop;
            }
            if ended {
                break;
            }
        }
    }
}

/// A watch's parameters: it ends after `watch_timeout_secs` (and is resumed), and asks for
/// bookmarks (`allowWatchBookmarks=true`): on an idle resource they are the only sign that
/// the server is alive and the data current, about once a minute from a real API server.
fn watch_params(options: &ReflectOptions) -> WatchParams {
    let mut params = WatchParams::default().timeout(options.watch_timeout_secs);
    params.bookmarks = true;
    params
}

/// An object event as a delta (moving `version` to the object's), or the failure of the
/// watch: an error event, a stream error, or an object that could not be decoded.
fn object_delta<K: SlimKind>(
    api: &mut Resource<K>,
    event: Result<Option<WatchEvent<RawObject>>, kube::Error>,
    version: &mut String,
) -> Result<Delta<ItemOf<K>>, kube::Error> {
    let (object, deleted) = match event? {
        Some(WatchEvent::Added(object) | WatchEvent::Modified(object)) => (object, false),
        Some(WatchEvent::Deleted(object)) => (object, true),
        Some(WatchEvent::Error(status)) => return Err(kube::Error::Api(status)),
        Some(WatchEvent::Bookmark(_)) | None => return Ok(Delta::Alive),
    };
    let (item, object_version) = api.decode(&object)?;
    if let Some(v) = object_version {
        *version = v;
    }
    Ok(if deleted {
        Delta::Deleted(item)
    } else {
        Delta::Applied(item)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_api_refusal_reads_as_the_servers_message_not_a_debug_dump() {
        let status = kube::core::Status {
            code: 403,
            message: "persistentvolumes is forbidden: User \"fleetdeck\" cannot list".into(),
            reason: "Forbidden".into(),
            ..kube::core::Status::default()
        };
        let error = kube::Error::Api(Box::new(status));
        assert_eq!(
            describe_error(&error),
            "API error: persistentvolumes is forbidden: User \"fleetdeck\" cannot list (Forbidden, HTTP 403)"
        );
    }

    #[test]
    fn watches_ask_for_bookmarks() {
        let request = kube::core::Request::new("/api/v1/pods")
            .watch(&watch_params(&ReflectOptions::default()), "42")
            .expect("request");
        let uri = request.uri().to_string();
        assert!(uri.contains("allowWatchBookmarks=true"), "{uri}");
        assert!(uri.contains("timeoutSeconds=290"), "{uri}");
    }
}
