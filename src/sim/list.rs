//! List: selectors, `limit`/`continue` pagination, resourceVersion semantics, and the
//! list body assembled from stored bytes.

use std::collections::HashMap;

use axum::response::Response;
use bytes::{BufMut, Bytes, BytesMut};
use serde_json::{Value, json};

use super::error::ApiError;
use super::fleet::Cluster;
use super::http::json_response;
use super::resource::ResourceType;
use super::selector::{FieldSelector, LabelSelector};
use super::store::Key;
use super::table;

/// The parsed selectors of a list or watch.
pub struct Filter {
    /// `labelSelector`.
    pub labels: LabelSelector,
    /// `fieldSelector`.
    pub fields: FieldSelector,
}

impl Filter {
    /// From query parameters.
    pub fn from_query(q: &HashMap<String, String>) -> Result<Filter, ApiError> {
        Ok(Filter {
            labels: LabelSelector::parse(q.get("labelSelector").map(String::as_str).unwrap_or(""))?,
            fields: FieldSelector::parse(q.get("fieldSelector").map(String::as_str).unwrap_or(""))?,
        })
    }

    /// Whether an object matches.
    pub fn matches(&self, ns: &str, name: &str, idx: &super::store::Index) -> bool {
        self.labels.matches(&idx.labels) && self.fields.matches(ns, name, idx)
    }

    fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty()
    }
}

fn hex(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

/// Encodes a continue token: the list's resourceVersion and the last key returned.
fn encode_continue(rv: u64, key: &Key) -> String {
    hex(format!("{rv}\u{0}{}\u{0}{}", key.0, key.1).as_bytes())
}

fn decode_continue(token: &str) -> Option<(u64, Key)> {
    let raw = String::from_utf8(unhex(token)?).ok()?;
    let mut parts = raw.split('\u{0}');
    let rv = parts.next()?.parse().ok()?;
    Some((rv, (parts.next()?.to_string(), parts.next()?.to_string())))
}

/// Parses a resourceVersion parameter ("" and absent are None).
pub fn parse_rv(q: &HashMap<String, String>) -> Result<Option<u64>, ApiError> {
    match q.get("resourceVersion").map(String::as_str) {
        None | Some("") => Ok(None),
        Some(s) => s
            .parse()
            .map(Some)
            .map_err(|_| ApiError::bad_request(format!("invalid resource version: {s:?}"))),
    }
}

/// Serves a list.
///
/// Pages after the first continue from the live data after the last returned key and
/// report the first page's resourceVersion; a continue token older than the kept
/// history is 410 Expired, as with a compacted etcd.
pub fn list(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: Option<&str>,
    q: &HashMap<String, String>,
    accept: &str,
) -> Result<Response, ApiError> {
    let filter = Filter::from_query(q)?;
    super::validation::options::list_options(&rt.group, &rt.kind, q, false)?;
    let limit: usize = match q.get("limit").map(String::as_str) {
        None | Some("") | Some("0") => usize::MAX,
        Some(s) => s
            .parse()
            .map_err(|_| ApiError::bad_request(format!("invalid limit: {s:?}")))?,
    };
    let st = cluster.lock();
    let store = &st.store;
    let current = store.rv();
    let (list_rv, after) = match q.get("continue").filter(|c| !c.is_empty()) {
        Some(token) => {
            let (rv, key) = decode_continue(token)
                .ok_or_else(|| ApiError::bad_request("invalid continue token"))?;
            if rv < store.compacted() {
                return Err(ApiError::continue_expired());
            }
            (rv, Some(key))
        }
        None => {
            let requested = parse_rv(q)?;
            match (q.get("resourceVersionMatch").map(String::as_str), requested) {
                (Some("Exact"), Some(rv)) if rv != current => {
                    // Only the newest snapshot is kept.
                    return Err(ApiError::expired(rv, store.compacted()));
                }
                (_, Some(rv)) if rv > current => return Err(ApiError::too_large_rv(rv)),
                _ => (current, None),
            }
        }
    };
    let mut items: Vec<(&Key, &super::store::Stored)> = Vec::new();
    let mut remaining = 0usize;
    let mut next_key = None;
    for (key, stored) in store.iter(rt.slot, ns, after.as_ref()) {
        if !filter.matches(&key.0, &key.1, &stored.idx) {
            continue;
        }
        if items.len() < limit {
            items.push((key, stored));
        } else {
            if next_key.is_none() {
                next_key = items.last().map(|(k, _)| (*k).clone());
            }
            remaining += 1;
            if !filter.is_empty() {
                break;
            }
        }
    }
    let mut meta = json!({"resourceVersion": list_rv.to_string()});
    if let Some(k) = &next_key {
        meta["continue"] = json!(encode_continue(list_rv, k));
        if filter.is_empty() {
            meta["remainingItemCount"] = json!(remaining);
        }
    }
    if table::wants_table(accept) {
        let objects: Vec<Value> = items.iter().map(|(_, s)| s.value()).collect();
        drop(st);
        let t = table::table(rt, &objects, meta, &cluster.clock);
        return Ok(json_response(200, Bytes::from(t.to_string())));
    }
    let size: usize = items.iter().map(|(_, s)| s.json.len() + 1).sum();
    let mut body = BytesMut::with_capacity(size + 256);
    body.put_slice(
        format!(
            r#"{{"kind":"{}","apiVersion":"{}","metadata":{},"items":["#,
            rt.list_kind,
            rt.api_version(),
            meta
        )
        .as_bytes(),
    );
    for (i, (_, s)) in items.iter().enumerate() {
        if i > 0 {
            body.put_u8(b',');
        }
        body.put_slice(&s.json);
    }
    body.put_slice(b"]}");
    Ok(json_response(200, body.freeze()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_token_round_trips() {
        let key = ("ns".to_string(), "pod-1".to_string());
        assert_eq!(decode_continue(&encode_continue(42, &key)), Some((42, key)));
        assert_eq!(decode_continue("zz"), None);
    }
}
