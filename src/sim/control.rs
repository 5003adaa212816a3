//! Simulator-only endpoints (not part of the Kubernetes API), under `/sim/v1/`:
//!
//! - `GET  /sim/v1/clusters` — ids, object counts, resourceVersions and faults.
//! - `GET  /sim/v1/clusters/{id}/faults` — the cluster's [`Faults`] as JSON.
//! - `PUT  /sim/v1/clusters/{id}/faults` — replace them (body: `Faults` JSON, camelCase).
//! - `PATCH /sim/v1/clusters/{id}/faults` — merge-patch them.
//! - `POST /sim/v1/clusters/{id}/nodes/{node}/reboot` — NotReady now, Ready again after
//!   the scenario's `rebootSeconds` (simulated).
//! - `POST /sim/v1/clusters/{id}/compact` — drop the watch history (410 for old versions).
//! - `GET  /sim/v1/metrics` — every cluster's service request counters, in Prometheus's
//!   text format (what a Prometheus scrapes; see `metrics.rs`).
//! - `POST /sim/v1/tokens` — issue a token (body `{"user": "admin", "ttlSeconds": 15}`;
//!   answer `{"token": …, "expirationTimestamp": …}`), as an identity provider behind an
//!   exec plugin does (see `tokens.rs`).
//! - `POST /sim/v1/tokens/revoke` — revoke one token (`{"token": …}`) or every token of a
//!   user (`{"user": …}`).
//! - `GET  /sim/v1/tokens` — how many were issued, revoked, refused.
//! - `GET  /sim/v1/clusters/{id}/audit` — the cluster's writes: who (the authenticated
//!   user), what (method and path), and the answer's status.

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use http::Method;
use serde_json::{Value, json};

use super::error::ApiError;
use super::faults::Faults;
use super::fleet::SimFleet;
use super::http::value_response;
use super::resource::Kind;

/// Handles a `/sim/v1/{rest}` request.
pub async fn handle(fleet: &SimFleet, method: Method, rest: &str, req: Request) -> Response {
    let body = axum::body::to_bytes(req.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    route(fleet, &method, rest, &body).unwrap_or_else(IntoResponse::into_response)
}

fn route(fleet: &SimFleet, method: &Method, rest: &str, body: &[u8]) -> Result<Response, ApiError> {
    let segs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    let unknown = |id: &str| ApiError {
        code: 404,
        reason: "NotFound",
        message: format!("unknown cluster {id:?}"),
        details: None,
        retry_after: None,
    };
    match (method.clone(), segs.as_slice()) {
        (Method::GET, ["metrics"]) => Ok((
            [(
                http::header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            super::metrics::exposition(fleet),
        )
            .into_response()),
        (Method::GET, ["clusters"]) => {
            let items: Vec<Value> = fleet
                .clusters()
                .iter()
                .map(|c| {
                    let st = c.lock();
                    json!({"id": c.profile.id, "resourceVersion": st.store.rv(), "nodes": st.store.count(Kind::NODE),
                        "pods": st.store.count(Kind::POD), "faults": c.faults()})
                })
                .collect();
            Ok(value_response(200, &json!({"clusters": items})))
        }
        (Method::POST, ["tokens"]) => {
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "camelCase", deny_unknown_fields)]
            struct Ask {
                user: String,
                ttl_seconds: Option<f64>,
            }
            let ask: Ask = serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("tokens: {e}")))?;
            if !fleet.users().iter().any(|u| u.name == ask.user) {
                return Err(ApiError::bad_request(format!(
                    "tokens: no user {:?} in this fleet",
                    ask.user
                )));
            }
            let ttl = ask
                .ttl_seconds
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(std::time::Duration::from_secs_f64);
            let (token, expires) = fleet.issuer().issue(&ask.user, ttl);
            Ok(value_response(
                201,
                &json!({"token": token, "expirationTimestamp": expires.to_string()}),
            ))
        }
        (Method::POST, ["tokens", "revoke"]) => {
            let ask: Value = serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("revoke: {e}")))?;
            let revoked = match (ask["token"].as_str(), ask["user"].as_str()) {
                (Some(token), _) => u64::from(fleet.issuer().revoke(token)),
                (None, Some(user)) => fleet.issuer().revoke_user(user),
                _ => {
                    return Err(ApiError::bad_request(
                        "revoke: give a token or a user".to_string(),
                    ));
                }
            };
            Ok(value_response(200, &json!({"revoked": revoked})))
        }
        (Method::GET, ["tokens"]) => Ok(value_response(200, &json!(fleet.issuer().counts()))),
        (Method::GET, ["clusters", id, "audit"]) => {
            let cluster = fleet.cluster(id).map_err(|_| unknown(id))?;
            let items: Vec<Value> = cluster
                .request_log()
                .into_iter()
                .map(|r| json!({"user": r.user, "method": r.method, "path": r.path, "code": r.status}))
                .collect();
            Ok(value_response(200, &json!({"items": items})))
        }
        (Method::GET, ["clusters", id, "faults"]) => {
            let f = fleet.faults(id).map_err(|_| unknown(id))?;
            Ok(value_response(200, &json!(f)))
        }
        (Method::PUT, ["clusters", id, "faults"]) => {
            let f: Faults = serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("faults: {e}")))?;
            fleet.set_faults(id, f.clone()).map_err(|_| unknown(id))?;
            Ok(value_response(200, &json!(f)))
        }
        (Method::PATCH, ["clusters", id, "faults"]) => {
            let patch: Value = serde_json::from_slice(body)
                .map_err(|e| ApiError::bad_request(format!("faults: {e}")))?;
            let mut current = json!(fleet.faults(id).map_err(|_| unknown(id))?);
            json_patch::merge(&mut current, &patch);
            let f: Faults = serde_json::from_value(current)
                .map_err(|e| ApiError::bad_request(format!("faults: {e}")))?;
            fleet.set_faults(id, f.clone()).map_err(|_| unknown(id))?;
            Ok(value_response(200, &json!(f)))
        }
        (Method::POST, ["clusters", id, "nodes", node, "reboot"]) => {
            fleet.reboot_node(id, node).map_err(|e| ApiError {
                code: 404,
                reason: "NotFound",
                message: e.to_string(),
                details: None,
                retry_after: None,
            })?;
            Ok(value_response(
                202,
                &json!({"cluster": id, "node": node, "rebooting": true}),
            ))
        }
        (Method::POST, ["clusters", id, "compact"]) => {
            fleet.compact(id).map_err(|_| unknown(id))?;
            Ok(value_response(
                200,
                &json!({"cluster": id, "compacted": true}),
            ))
        }
        _ => Err(ApiError::no_route(rest)),
    }
}
