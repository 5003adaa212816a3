//! The HTTP front: `/clusters/{id}/…` paths for every cluster of the fleet, the
//! simulator-only `/sim/v1/…` endpoints, fault injection in front of every API request,
//! and the mapping of Kubernetes paths to handlers.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, Request, State};
use axum::response::{IntoResponse, Response};
use http::{Method, header};

use super::error::ApiError;
use super::faults::Gate;
use super::fleet::{Cluster, SimFleet};
use super::http::{ApiRequest, value_response};
use super::resource::Kind;
use super::{control, delete, discovery, eviction, list, scale, watch, write};

/// Marks a response whose connection should be dropped without an answer (a cluster
/// that refuses connections). The loopback server and the in-process client turn it
/// into a connection error; a plain `axum::serve` sends the 503 it carries.
#[derive(Debug, Clone, Copy)]
pub struct RefuseConnection;

/// Largest request body accepted (16 MiB).
const MAX_BODY: usize = 16 << 20;

/// The router for the whole fleet.
pub fn fleet_router(fleet: SimFleet) -> Router {
    Router::new().fallback(fleet_handler).with_state(fleet)
}

/// A router serving one cluster at the root (for `kube::Client::new` in-process).
pub fn cluster_router(cluster: Arc<Cluster>) -> Router {
    Router::new().fallback(cluster_handler).with_state(cluster)
}

async fn fleet_handler(State(fleet): State<SimFleet>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    if let Some(rest) = path.strip_prefix("/sim/v1/") {
        return control::handle(&fleet, req.method().clone(), rest, req).await;
    }
    let Some(rest) = path.strip_prefix("/clusters/") else {
        return ApiError::no_route(&path).into_response();
    };
    let (id, sub) = rest.split_once('/').map_or((rest, ""), |(a, b)| (a, b));
    match fleet.cluster(id) {
        Ok(c) => serve(c.clone(), &format!("/{sub}"), req).await,
        Err(_) => ApiError::no_route(&path).into_response(),
    }
}

async fn cluster_handler(State(cluster): State<Arc<Cluster>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    serve(cluster, &path, req).await
}

/// Serves one API request for one cluster, after the cluster's faults had their say.
async fn serve(cluster: Arc<Cluster>, path: &str, req: Request) -> Response {
    // One copy of the faults per request: they apply to it as they were when it came in.
    let faults = cluster.faults();
    match faults.gate().await {
        Gate::Pass => {}
        Gate::Fail(e) => return e.into_response(),
        Gate::Refuse => {
            let mut resp = ApiError {
                code: 503,
                reason: "ServiceUnavailable",
                message: "connection refused (simulated)".into(),
                details: None,
                retry_after: None,
            }
            .into_response();
            resp.extensions_mut().insert(RefuseConnection);
            return resp;
        }
        Gate::Hang => std::future::pending::<()>().await,
    }
    let kind = parse(path).and_then(|route| match route {
        Route::Collection { kind, .. } | Route::Item { kind, .. } => Some(kind),
        _ => None,
    });
    let extra = kind.and_then(|kind| faults.slow_resources.get(kind.plural()).copied());
    if let Some(ms) = extra {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    if let Some(kind) = kind
        && faults
            .forbidden_resources
            .iter()
            .any(|r| r == kind.plural())
    {
        return ApiError::forbidden(format!(
            "{} is forbidden: the caller may not access it (simulated RBAC)",
            kind.plural()
        ))
        .into_response();
    }
    let is_list = req.method() == Method::GET
        && matches!(parse(path), Some(Route::Collection { .. }))
        && !req
            .uri()
            .query()
            .is_some_and(|q| q.contains("watch=true") || q.contains("watch=1"));
    if is_list && cluster.take_list_failure() {
        return ApiError::internal("simulated list failure").into_response();
    }
    let method = req.method().clone();
    let query = Query::<HashMap<String, String>>::try_from_uri(req.uri())
        .map(|q| q.0)
        .unwrap_or_default();
    let headers = req.headers().clone();
    let body = match axum::body::to_bytes(req.into_body(), MAX_BODY).await {
        Ok(b) => b,
        Err(e) => return ApiError::bad_request(format!("reading body: {e}")).into_response(),
    };
    let api = ApiRequest {
        query,
        headers,
        body,
    };
    let result = dispatch(&cluster, &method, path, &api);
    tracing::debug!(cluster = %cluster.profile.id, %method, path, "sim request");
    let response = result.unwrap_or_else(IntoResponse::into_response);
    if method != Method::GET && method != Method::HEAD {
        cluster.log_request(super::fleet::LoggedRequest {
            method: method.to_string(),
            path: path.to_string(),
            status: response.status().as_u16(),
            user_agent: api
                .headers
                .get(header::USER_AGENT)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
        });
    }
    response
}

/// A parsed Kubernetes API path.
#[derive(Debug, PartialEq)]
enum Route {
    Version,
    CoreVersions,
    Groups,
    Group(String),
    Resources(String, String),
    Collection {
        kind: Kind,
        ns: Option<String>,
    },
    Item {
        kind: Kind,
        ns: Option<String>,
        name: String,
        sub: Option<String>,
    },
}

fn parse(path: &str) -> Option<Route> {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let (group, version, rest) = match segs.as_slice() {
        ["version"] => return Some(Route::Version),
        ["api"] => return Some(Route::CoreVersions),
        ["apis"] => return Some(Route::Groups),
        ["apis", g] => return Some(Route::Group(g.to_string())),
        ["api", v, rest @ ..] => ("", *v, rest),
        ["apis", g, v, rest @ ..] => (*g, *v, rest),
        _ => return None,
    };
    if rest.is_empty() {
        return Some(Route::Resources(group.to_string(), version.to_string()));
    }
    if version != "v1" {
        return None;
    }
    let kind_of = |plural: &str| Kind::from_plural(group, plural);
    match rest {
        ["namespaces", ns, plural, tail @ ..] if kind_of(plural).is_some_and(Kind::namespaced) => {
            let kind = kind_of(plural)?;
            let ns = Some(ns.to_string());
            match tail {
                [] => Some(Route::Collection { kind, ns }),
                [name] => Some(Route::Item {
                    kind,
                    ns,
                    name: name.to_string(),
                    sub: None,
                }),
                [name, sub] => Some(Route::Item {
                    kind,
                    ns,
                    name: name.to_string(),
                    sub: Some(sub.to_string()),
                }),
                _ => None,
            }
        }
        [plural] => Some(Route::Collection {
            kind: kind_of(plural)?,
            ns: None,
        }),
        [plural, name] if !kind_of(plural)?.namespaced() => Some(Route::Item {
            kind: kind_of(plural)?,
            ns: None,
            name: name.to_string(),
            sub: None,
        }),
        [plural, name, sub] if !kind_of(plural)?.namespaced() => Some(Route::Item {
            kind: kind_of(plural)?,
            ns: None,
            name: name.to_string(),
            sub: Some(sub.to_string()),
        }),
        _ => None,
    }
}

fn dispatch(
    cluster: &Arc<Cluster>,
    method: &Method,
    path: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let route = parse(path).ok_or_else(|| ApiError::no_route(path))?;
    let accept = req.header(header::ACCEPT).to_string();
    let read_only = |v| {
        if method == Method::GET {
            Ok(value_response(200, &v))
        } else {
            Err(ApiError::method_not_allowed())
        }
    };
    match route {
        Route::Version => read_only(discovery::version(&cluster.profile)),
        Route::CoreVersions => read_only(discovery::core_versions()),
        Route::Groups => read_only(discovery::group_list()),
        Route::Group(g) => {
            read_only(discovery::api_group(&g).ok_or_else(|| ApiError::no_route(path))?)
        }
        Route::Resources(g, v) => {
            read_only(discovery::resource_list(&g, &v).ok_or_else(|| ApiError::no_route(path))?)
        }
        Route::Collection { kind, ns } => match *method {
            Method::GET
                if matches!(
                    req.query.get("watch").map(String::as_str),
                    Some("true") | Some("1")
                ) =>
            {
                watch::watch(cluster, kind, ns, &req.query, &accept)
            }
            Method::GET => list::list(cluster, kind, ns.as_deref(), &req.query, &accept),
            Method::POST if kind.namespaced() == ns.is_some() => {
                write::create(cluster, kind, ns.as_deref().unwrap_or(""), req)
            }
            Method::DELETE => delete::delete_collection(cluster, kind, ns.as_deref(), req),
            _ => Err(ApiError::method_not_allowed()),
        },
        Route::Item {
            kind,
            ns,
            name,
            sub,
        } => {
            let ns = ns.unwrap_or_default();
            match (sub.as_deref(), method.clone()) {
                (None | Some("status"), Method::GET) => {
                    write::get(cluster, kind, &ns, &name, &accept)
                }
                (None | Some("status"), Method::PUT) => {
                    write::replace(cluster, kind, &ns, &name, sub.as_deref(), req)
                }
                (None | Some("status"), Method::PATCH) => {
                    write::patch(cluster, kind, &ns, &name, sub.as_deref(), req)
                }
                (None, Method::DELETE) => delete::delete(cluster, kind, &ns, &name, req),
                (Some("eviction"), Method::POST) if kind == Kind::Pod => {
                    eviction::evict(cluster, &ns, &name, req)
                }
                (Some("scale"), m) => scale::scale(cluster, kind, &ns, &name, &m, req),
                (Some(s), _) if s != "status" && s != "eviction" => Err(ApiError::no_route(path)),
                _ => Err(ApiError::method_not_allowed()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kubernetes_paths() {
        assert_eq!(
            parse("/api/v1/namespaces"),
            Some(Route::Collection {
                kind: Kind::Namespace,
                ns: None
            })
        );
        assert_eq!(
            parse("/api/v1/namespaces/kube-system"),
            Some(Route::Item {
                kind: Kind::Namespace,
                ns: None,
                name: "kube-system".into(),
                sub: None
            })
        );
        assert_eq!(
            parse("/api/v1/namespaces/a/pods"),
            Some(Route::Collection {
                kind: Kind::Pod,
                ns: Some("a".into())
            })
        );
        assert_eq!(
            parse("/api/v1/namespaces/a/pods/p/eviction"),
            Some(Route::Item {
                kind: Kind::Pod,
                ns: Some("a".into()),
                name: "p".into(),
                sub: Some("eviction".into())
            })
        );
        assert_eq!(
            parse("/apis/apps/v1/deployments"),
            Some(Route::Collection {
                kind: Kind::Deployment,
                ns: None
            })
        );
        assert_eq!(
            parse("/api/v1/nodes/n1/status").map(|r| matches!(r, Route::Item { .. })),
            Some(true)
        );
        assert_eq!(parse("/api/v1/pods/x"), None);
    }
}
