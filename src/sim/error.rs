//! Errors: [`SimError`] for the simulator's own API, [`ApiError`] for what the simulated
//! API server answers (a `Status` object with the reason strings clients match on).

use std::path::PathBuf;

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde_json::{Value, json};

use super::field_errors::FieldError;
use super::resource::{Kind, ResourceType};

/// Errors of the simulator itself (loading scenarios, writing files, serving).
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A scenario could not be found, parsed or understood.
    #[error("scenario {name}: {message}")]
    Scenario {
        /// Scenario name or file.
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// A cluster id that the fleet does not have.
    #[error("unknown cluster {0:?}")]
    UnknownCluster(String),
    /// A user name the fleet does not have.
    #[error("unknown user {0:?}")]
    UnknownUser(String),
    /// A node name that the cluster does not have.
    #[error("cluster {cluster}: unknown node {node:?}")]
    UnknownNode {
        /// Cluster id.
        cluster: String,
        /// Node name.
        node: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Binding or serving the loopback listener failed.
    #[error("serving on {addr}: {source}")]
    Serve {
        /// The address.
        addr: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The simulator only listens on loopback addresses.
    #[error("refusing to listen on {0}: the simulator serves loopback (127.0.0.1) only")]
    NotLoopback(String),
    /// JSON (de)serialisation of a generated object failed.
    #[error("serialising: {0}")]
    Json(#[from] serde_json::Error),
}

/// An error answered by the simulated API server, rendered as a `meta/v1 Status`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status code (also `Status.code`).
    pub code: u16,
    /// `Status.reason`, e.g. `NotFound`, `Conflict`, `Expired`, `TooManyRequests`.
    pub reason: &'static str,
    /// `Status.message`.
    pub message: String,
    /// `Status.details`, when the real server sends them (boxed: keeps errors small).
    pub details: Option<Box<Value>>,
    /// `Retry-After` header in seconds (429 faults).
    pub retry_after: Option<u32>,
}

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
            retry_after: None,
        }
    }

    fn with_details(mut self, details: Value) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// 404 `pods "x" not found`.
    pub fn not_found(kind: &ResourceType, name: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("{} \"{}\" not found", kind.qualified(), name),
        )
        .with_details(json!({"name": name, "group": kind.group, "kind": kind.plural}))
    }

    /// 404 for a namespace that does not exist when creating into it.
    pub fn namespace_not_found(ns: &str) -> Self {
        Self::not_found(Kind::NAMESPACE.info(), ns)
    }

    /// 404 for a path the simulator does not serve.
    pub fn no_route(path: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("the server could not find the requested resource ({path})"),
        )
        .with_details(json!({"causes": [{"reason": "UnexpectedServerResponse", "message": "404 page not found"}]}))
    }

    /// 409 `AlreadyExists`.
    pub fn already_exists(kind: &ResourceType, name: &str) -> Self {
        Self::new(
            409,
            "AlreadyExists",
            format!("{} \"{}\" already exists", kind.qualified(), name),
        )
        .with_details(json!({"name": name, "group": kind.group, "kind": kind.plural}))
    }

    /// 409 `Conflict` for a stale resourceVersion (optimistic concurrency).
    pub fn conflict(kind: &ResourceType, name: &str) -> Self {
        Self::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{}\": the object has been modified; please apply your changes to the latest version and try again",
                kind.qualified(),
                name
            ),
        )
        .with_details(json!({"name": name, "group": kind.group, "kind": kind.plural}))
    }

    /// 409 `Conflict` with a precondition message (uid/resourceVersion preconditions).
    pub fn precondition(kind: &ResourceType, name: &str, what: &str) -> Self {
        Self::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} \"{}\": {}",
                kind.qualified(),
                name,
                what
            ),
        )
        .with_details(json!({"name": name, "group": kind.group, "kind": kind.plural}))
    }

    /// 409 `Conflict` from server-side apply, with one `FieldManagerConflict` cause per
    /// field owned by another manager.
    pub fn apply_conflict(kind: &ResourceType, name: &str, conflicts: &[(String, String)]) -> Self {
        let api_version = kind.api_version();
        let causes: Vec<Value> = conflicts
            .iter()
            .map(|(manager, field)| {
                json!({
                    "reason": "FieldManagerConflict",
                    "message": format!("conflict with \"{manager}\" using {api_version}"),
                    "field": field,
                })
            })
            .collect();
        let list: Vec<String> = conflicts
            .iter()
            .map(|(m, f)| format!("- conflict with \"{m}\" using {api_version}: {f}"))
            .collect();
        let message = if conflicts.len() == 1 {
            format!(
                "Apply failed with 1 conflict: conflict with \"{}\" using {}: {}",
                conflicts[0].0, api_version, conflicts[0].1
            )
        } else {
            format!(
                "Apply failed with {} conflicts: {}",
                conflicts.len(),
                list.join("\n")
            )
        };
        Self::new(409, "Conflict", message).with_details(json!({
            "name": name, "group": kind.group, "kind": kind.plural, "causes": causes
        }))
    }

    /// 422 `Invalid` for one field.
    pub fn invalid(kind: &ResourceType, name: &str, field: &str, detail: &str) -> Self {
        Self::invalid_fields(
            kind,
            name,
            &[FieldError {
                reason: "FieldValueInvalid",
                field: field.to_string(),
                message: detail.to_string(),
            }],
        )
    }

    /// 422 `Invalid` listing every field error, as the API server words it
    /// (`Service "x" is invalid: [spec.ports: Required value, …]`).
    pub fn invalid_fields(kind: &ResourceType, name: &str, errors: &[FieldError]) -> Self {
        let lines: Vec<String> = errors.iter().map(FieldError::to_string).collect();
        let list = if lines.len() == 1 {
            lines[0].clone()
        } else {
            format!("[{}]", lines.join(", "))
        };
        let causes: Vec<Value> = errors
            .iter()
            .map(|e| json!({"reason": e.reason, "message": e.message, "field": e.field}))
            .collect();
        Self::new(
            422,
            "Invalid",
            format!(
                "{} \"{}\" is invalid: {}",
                kind.qualified_kind(),
                name,
                list
            ),
        )
        .with_details(json!({
            "name": name, "group": kind.group, "kind": kind.kind, "causes": causes
        }))
    }

    /// 401 `Unauthorized`: no credentials, or credentials the server does not know.
    pub fn unauthorized() -> Self {
        Self::new(401, "Unauthorized", "Unauthorized")
    }

    /// 403 for a request the authorizer denies, worded as the API server does
    /// (`pods "x" is forbidden: User "viewer" cannot delete resource "pods" in API group
    /// "" in the namespace "default"`).
    pub fn access_denied(
        user: &str,
        verb: &str,
        group: &str,
        resource: &str,
        name: &str,
        ns: Option<&str>,
    ) -> Self {
        let target = if name.is_empty() {
            resource.split('/').next().unwrap_or(resource).to_string()
        } else {
            format!(
                "{} \"{name}\"",
                resource.split('/').next().unwrap_or(resource)
            )
        };
        let target = match group {
            "" => target,
            g => {
                let (plural, rest) = target.split_once(' ').unwrap_or((&target, ""));
                format!(
                    "{plural}.{g}{}{rest}",
                    if rest.is_empty() { "" } else { " " }
                )
            }
        };
        let scope = match ns {
            Some(ns) if !ns.is_empty() => format!("in the namespace \"{ns}\""),
            _ => "at the cluster scope".to_string(),
        };
        let mut details = json!({"kind": resource.split('/').next().unwrap_or(resource)});
        if !name.is_empty() {
            details["name"] = json!(name);
        }
        if !group.is_empty() {
            details["group"] = json!(group);
        }
        Self::new(
            403,
            "Forbidden",
            format!(
                "{target} is forbidden: User \"{user}\" cannot {verb} resource \"{resource}\" in API group \"{group}\" {scope}"
            ),
        )
        .with_details(details)
    }

    /// 403 for a non-resource path the authorizer denies.
    pub fn path_denied(user: &str, verb: &str, path: &str) -> Self {
        Self::new(
            403,
            "Forbidden",
            format!("forbidden: User \"{user}\" cannot {verb} path \"{path}\""),
        )
        .with_details(json!({}))
    }

    /// 403 from the namespace lifecycle admission: nothing new may be created in a
    /// namespace that is being terminated.
    pub fn namespace_terminating(kind: &ResourceType, name: &str, ns: &str) -> Self {
        let target = if name.is_empty() {
            kind.qualified()
        } else {
            format!("{} \"{name}\"", kind.qualified())
        };
        let mut details = json!({"kind": kind.plural, "causes": [{
            "reason": "NamespaceTerminating",
            "message": format!("namespace {ns} is being terminated"),
            "field": "metadata.namespace"
        }]});
        if !name.is_empty() {
            details["name"] = json!(name);
        }
        if !kind.group.is_empty() {
            details["group"] = json!(kind.group);
        }
        Self::new(
            403,
            "Forbidden",
            format!(
                "{target} is forbidden: unable to create new content in namespace {ns} because it is being terminated"
            ),
        )
        .with_details(details)
    }

    /// 400 `BadRequest`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 405 `MethodNotAllowed`.
    pub fn method_not_allowed() -> Self {
        Self::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        )
    }

    /// 415 `UnsupportedMediaType`.
    pub fn unsupported_media(content_type: &str) -> Self {
        Self::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {content_type:?})"
            ),
        )
    }

    /// 415 for a strategic merge patch of a custom resource (only JSON, merge and apply
    /// patches are served for them).
    pub fn unsupported_media_for_custom(content_type: &str) -> Self {
        Self::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {content_type:?})"
            ),
        )
    }

    /// 410 `Expired` for a resourceVersion older than the kept history.
    pub fn expired(requested: u64, oldest: u64) -> Self {
        Self::new(
            410,
            "Expired",
            format!("too old resource version: {requested} ({oldest})"),
        )
    }

    /// 410 `Expired` for a continue token whose snapshot is no longer kept.
    pub fn continue_expired() -> Self {
        Self::new(
            410,
            "Expired",
            "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
        )
    }

    /// 504 `Timeout` for a resourceVersion newer than the store's.
    pub fn too_large_rv(requested: u64) -> Self {
        Self::new(
            504,
            "Timeout",
            format!("Too large resource version: {requested}"),
        )
        .with_details(json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1}))
    }

    /// 500 `InternalError`.
    pub fn internal(message: impl Into<String>) -> Self {
        let message = message.into();
        Self::new(
            500,
            "InternalError",
            format!("Internal error occurred: {message}"),
        )
        .with_details(json!({"causes": [{"message": message}]}))
    }

    /// 429 `TooManyRequests` with a `Retry-After` header (API priority and fairness).
    pub fn too_many_requests(retry_after: u32) -> Self {
        let mut e = Self::new(
            429,
            "TooManyRequests",
            "Too many requests, please try again later.",
        )
        .with_details(json!({"retryAfterSeconds": retry_after}));
        e.retry_after = Some(retry_after);
        e
    }

    /// 429 from the eviction subresource when a PodDisruptionBudget allows no disruption.
    pub fn disruption_budget(cause: String) -> Self {
        Self::new(
            429,
            "TooManyRequests",
            "Cannot evict pod as it would violate the pod's disruption budget.",
        )
        .with_details(json!({"causes": [{"reason": "DisruptionBudget", "message": cause}]}))
    }

    /// 403 `Forbidden`.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(403, "Forbidden", message)
    }

    /// The `Status` object as JSON.
    pub fn status(&self) -> Value {
        let mut s = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if let Some(d) = &self.details {
            s["details"] = (**d).clone();
        }
        s
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code, self.reason, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = StatusCode::from_u16(self.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = self.status().to_string();
        let mut resp = (code, body).into_response();
        resp.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Some(secs) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        resp
    }
}
