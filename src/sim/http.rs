//! Small HTTP helpers shared by the handlers.

use std::collections::HashMap;

use axum::body::Body;
use axum::response::Response;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::Value;

use super::error::ApiError;

/// A request as the handlers see it.
pub struct ApiRequest {
    /// Query parameters (last value wins).
    pub query: HashMap<String, String>,
    /// Headers.
    pub headers: HeaderMap,
    /// The body.
    pub body: Bytes,
}

impl ApiRequest {
    /// A header as text ("" if absent).
    pub fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The body as JSON; an empty body is `None`.
    pub fn json(&self) -> Result<Option<Value>, ApiError> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let content_type = self.header(header::CONTENT_TYPE);
        if content_type.starts_with(super::proto::MEDIA_TYPE) {
            // Protobuf is read only for the self-review kinds (see proto.rs).
            return Err(ApiError::unsupported_media(content_type));
        }
        serde_json::from_slice(&self.body).map(Some).map_err(|e| {
            ApiError::bad_request(format!("the body of the request could not be decoded: {e}"))
        })
    }

    /// The field manager: `fieldManager`, else the client name from `User-Agent`.
    pub fn manager(&self) -> String {
        if let Some(m) = self.query.get("fieldManager").filter(|m| !m.is_empty()) {
            return m.clone();
        }
        let ua = self.header(header::USER_AGENT);
        let name = ua.split('/').next().unwrap_or_default().trim();
        if name.is_empty() {
            "unknown".into()
        } else {
            name.to_string()
        }
    }

    /// Whether this is a dry run (`dryRun=All`).
    pub fn dry_run(&self) -> bool {
        self.query.get("dryRun").is_some_and(|v| v == "All")
    }
}

/// A JSON response.
pub fn json_response(code: u16, body: impl Into<Body>) -> Response {
    let mut resp = Response::new(body.into());
    *resp.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::OK);
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}

/// A JSON response from a value.
pub fn value_response(code: u16, v: &Value) -> Response {
    json_response(code, v.to_string())
}
