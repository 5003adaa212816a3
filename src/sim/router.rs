//! The HTTP front: `/clusters/{id}/…` paths for every cluster of the fleet, the
//! simulator-only `/sim/v1/…` endpoints, fault injection in front of every API request,
//! then what a real API server's filter chain does before a handler runs: an `Audit-Id`
//! on every answer, authentication (401), authorization by RBAC (403), classification by
//! API priority and fairness (`X-Kubernetes-PF-*` headers), and the mapping of paths to
//! handlers through the cluster's registry of served types.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, Request, State};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, Method, header};

use super::apf::Classifier;
use super::auth::{self, Attributes, SimUser};
use super::error::ApiError;
use super::faults::{Faults, Gate};
use super::fleet::{Cluster, SimFleet};
use super::http::{ApiRequest, value_response};
use super::rbac::Policy;
use super::resource::{Kind, Registry, ResourceType, Storage};
use super::{control, delete, discovery, eviction, health, list, reviews, scale, watch, write};

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

/// Serves one API request for one cluster: faults first, then the filter chain, then
/// the handler; every answer carries an `Audit-Id`.
async fn serve(cluster: Arc<Cluster>, path: &str, req: Request) -> Response {
    let audit_id = cluster.audit_id();
    let mut response = serve_request(cluster, path, req).await;
    if let Ok(v) = HeaderValue::from_str(&audit_id) {
        response.headers_mut().insert("audit-id", v);
    }
    response
}

async fn serve_request(cluster: Arc<Cluster>, path: &str, req: Request) -> Response {
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
    let authorization = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let user = match auth::authenticate(&cluster.users, &cluster.issuer, &authorization) {
        Ok(u) => u.clone(),
        Err(e) => return e.into_response(),
    };
    let method = req.method().clone();
    let query = Query::<HashMap<String, String>>::try_from_uri(req.uri())
        .map(|q| q.0)
        .unwrap_or_default();
    let raw_query = req.uri().query().unwrap_or_default().to_string();
    // One short hold of the cluster's lock for what the filters need.
    let (registry, policy, classifier) = {
        let mut st = cluster.lock();
        let policy = Policy::current(&st.store, st.policy.as_ref());
        st.policy = Some(policy.clone());
        let classifier = Classifier::current(&st.store, st.classifier.as_ref());
        st.classifier = Some(classifier.clone());
        (st.registry.clone(), policy, classifier)
    };
    let route = parse(path, &registry);
    let attributes = attributes_of(&method, path, route.as_ref(), &query);
    let allowed = policy.allows(&user, &attributes).is_some();
    let flow = classifier.classify(&user, &attributes);
    let mut response = if !allowed || forbidden_by_fault(&faults, route.as_ref()) {
        denied(&user, &attributes).into_response()
    } else {
        handle(
            &cluster, &faults, &user, &registry, path, route, method, query, raw_query, req,
        )
        .await
    };
    if let Some((fs, pl)) = flow {
        for (name, v) in [
            ("x-kubernetes-pf-flowschema-uid", fs),
            ("x-kubernetes-pf-prioritylevel-uid", pl),
        ] {
            if let Ok(v) = HeaderValue::from_str(&v) {
                response.headers_mut().insert(name, v);
            }
        }
    }
    response
}

/// The `forbiddenResources` fault: requests to these plurals are refused as if RBAC
/// denied them.
fn forbidden_by_fault(faults: &Faults, route: Option<&Route>) -> bool {
    let Some(Route::Collection { rt, .. } | Route::Item { rt, .. }) = route else {
        return false;
    };
    faults.forbidden_resources.iter().any(|r| *r == rt.plural)
}

fn denied(user: &SimUser, a: &Attributes) -> ApiError {
    match a {
        Attributes::Resource {
            verb,
            group,
            resource,
            subresource,
            namespace,
            name,
        } => {
            let full = if subresource.is_empty() {
                resource.clone()
            } else {
                format!("{resource}/{subresource}")
            };
            ApiError::access_denied(&user.name, verb, group, &full, name, Some(namespace))
        }
        Attributes::NonResource { verb, path } => ApiError::path_denied(&user.name, verb, path),
    }
}

/// The authorizer's view of a request.
fn attributes_of(
    method: &Method,
    path: &str,
    route: Option<&Route>,
    query: &HashMap<String, String>,
) -> Attributes {
    let watching = matches!(
        query.get("watch").map(String::as_str),
        Some("true") | Some("1")
    );
    let (rt, ns, name, sub, collection) = match route {
        Some(Route::Collection { rt, ns }) => (rt, ns.clone(), String::new(), String::new(), true),
        Some(Route::Item { rt, ns, name, sub }) => (
            rt,
            ns.clone(),
            name.clone(),
            sub.clone().unwrap_or_default(),
            false,
        ),
        _ => {
            return Attributes::NonResource {
                verb: method.as_str().to_ascii_lowercase(),
                path: path.to_string(),
            };
        }
    };
    let verb = match (method.clone(), collection) {
        (Method::GET, true) if watching => "watch",
        (Method::GET, true) => "list",
        (Method::GET, false) if watching => "watch",
        (Method::GET | Method::HEAD, _) => "get",
        (Method::POST, _) => "create",
        (Method::PUT, _) => "update",
        (Method::PATCH, _) => "patch",
        (Method::DELETE, true) => "deletecollection",
        (Method::DELETE, false) => "delete",
        _ => "unknown",
    };
    // A namespace is addressed as a cluster-scoped object, but authorized in itself.
    let ns = match (ns, rt.slot == Kind::NAMESPACE && !name.is_empty()) {
        (_, true) => name.clone(),
        (ns, false) => ns.unwrap_or_default(),
    };
    Attributes::Resource {
        verb: verb.into(),
        group: rt.group.clone(),
        resource: rt.plural.clone(),
        subresource: sub,
        namespace: ns,
        name,
    }
}

#[allow(clippy::too_many_arguments)]
async fn handle(
    cluster: &Arc<Cluster>,
    faults: &Faults,
    user: &SimUser,
    registry: &Registry,
    path: &str,
    route: Option<Route>,
    method: Method,
    query: HashMap<String, String>,
    raw_query: String,
    req: Request,
) -> Response {
    if let Some(resp) = health::answer(path, &raw_query, &faults.failing_health_checks)
        .filter(|_| method == Method::GET)
    {
        return resp;
    }
    if method == Method::GET && path == "/metrics" {
        return super::apiserver_metrics::answer(cluster);
    }
    if method == Method::GET
        && let Some(rest) = path.strip_prefix("/openapi/v3")
    {
        return match rest {
            "" | "/" => value_response(200, &super::openapi::index(registry)),
            gv => super::openapi::group_version(registry, gv)
                .map(|doc| value_response(200, &doc))
                .unwrap_or_else(|| ApiError::no_route(path).into_response()),
        };
    }
    let plural = match &route {
        Some(Route::Collection { rt, .. } | Route::Item { rt, .. }) => Some(rt.plural.clone()),
        _ => None,
    };
    let extra = plural
        .as_ref()
        .and_then(|p| faults.slow_resources.get(p).copied());
    if let Some(ms) = extra {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    let is_list = method == Method::GET
        && matches!(route, Some(Route::Collection { .. }))
        && !matches!(
            query.get("watch").map(String::as_str),
            Some("true") | Some("1")
        );
    if is_list && cluster.take_list_failure() {
        return ApiError::internal("simulated list failure").into_response();
    }
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
    let result = dispatch(cluster, user, registry, &method, path, route, &api);
    tracing::debug!(cluster = %cluster.profile.id, %method, path, "sim request");
    let response = result.unwrap_or_else(IntoResponse::into_response);
    if method != Method::GET && method != Method::HEAD {
        cluster.log_request(super::fleet::LoggedRequest {
            method: method.to_string(),
            path: path.to_string(),
            status: response.status().as_u16(),
            user_agent: user_agent(&api.headers),
            user: user.name.clone(),
        });
    }
    response
}

fn user_agent(headers: &http::HeaderMap) -> Option<String> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// A parsed Kubernetes API path.
#[derive(Debug)]
enum Route {
    Version,
    CoreVersions,
    Groups,
    Group(String),
    Resources(String, String),
    Collection {
        rt: Arc<ResourceType>,
        ns: Option<String>,
    },
    Item {
        rt: Arc<ResourceType>,
        ns: Option<String>,
        name: String,
        sub: Option<String>,
    },
}

fn parse(path: &str, registry: &Registry) -> Option<Route> {
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
    let type_of = |plural: &str| registry.by_plural(group, version, plural);
    match rest {
        ["namespaces", ns, plural, tail @ ..] if type_of(plural).is_some_and(|t| t.namespaced) => {
            let rt = type_of(plural)?;
            let ns = Some(ns.to_string());
            match tail {
                [] => Some(Route::Collection { rt, ns }),
                [name] => Some(Route::Item {
                    rt,
                    ns,
                    name: name.to_string(),
                    sub: None,
                }),
                [name, sub] => Some(Route::Item {
                    rt,
                    ns,
                    name: name.to_string(),
                    sub: Some(sub.to_string()),
                }),
                _ => None,
            }
        }
        [plural] => Some(Route::Collection {
            rt: type_of(plural)?,
            ns: None,
        }),
        [plural, name] if !type_of(plural)?.namespaced => Some(Route::Item {
            rt: type_of(plural)?,
            ns: None,
            name: name.to_string(),
            sub: None,
        }),
        [plural, name, sub] if !type_of(plural)?.namespaced => Some(Route::Item {
            rt: type_of(plural)?,
            ns: None,
            name: name.to_string(),
            sub: Some(sub.to_string()),
        }),
        _ => None,
    }
}

fn dispatch(
    cluster: &Arc<Cluster>,
    user: &SimUser,
    registry: &Registry,
    method: &Method,
    path: &str,
    route: Option<Route>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let route = route.ok_or_else(|| ApiError::no_route(path))?;
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
        Route::CoreVersions => discovery::core(registry, &accept, method),
        Route::Groups => discovery::groups(registry, &accept, method),
        Route::Group(g) => {
            read_only(discovery::api_group(registry, &g).ok_or_else(|| ApiError::no_route(path))?)
        }
        Route::Resources(g, v) => read_only(
            discovery::resource_list(registry, &g, &v).ok_or_else(|| ApiError::no_route(path))?,
        ),
        Route::Collection { rt, ns } if rt.storage == Storage::Virtual => match *method {
            Method::POST if ns.is_none() => reviews::create(cluster, user, &rt, req),
            _ => Err(ApiError::method_not_allowed()),
        },
        Route::Collection { rt, ns } => match *method {
            Method::GET
                if matches!(
                    req.query.get("watch").map(String::as_str),
                    Some("true") | Some("1")
                ) =>
            {
                watch::watch(cluster, &rt, ns, &req.query, &accept)
            }
            Method::GET => list::list(cluster, &rt, ns.as_deref(), &req.query, &accept),
            Method::POST if rt.namespaced == ns.is_some() => {
                write::create(cluster, &rt, ns.as_deref().unwrap_or(""), req)
            }
            Method::DELETE => delete::delete_collection(cluster, &rt, ns.as_deref(), req),
            _ => Err(ApiError::method_not_allowed()),
        },
        Route::Item { rt, .. } if rt.storage == Storage::Virtual => Err(ApiError::no_route(path)),
        Route::Item { rt, ns, name, sub } => {
            let ns = ns.unwrap_or_default();
            let status = sub.as_deref() == Some("status") && rt.status;
            match (sub.as_deref(), method.clone()) {
                (None, Method::GET) => write::get(cluster, &rt, &ns, &name, &accept),
                (Some("status"), Method::GET) if status => {
                    write::get(cluster, &rt, &ns, &name, &accept)
                }
                (None, Method::PUT) => write::replace(cluster, &rt, &ns, &name, None, req),
                (Some("status"), Method::PUT) if status => {
                    write::replace(cluster, &rt, &ns, &name, sub.as_deref(), req)
                }
                (None, Method::PATCH) => write::patch(cluster, &rt, &ns, &name, None, req),
                (Some("status"), Method::PATCH) if status => {
                    write::patch(cluster, &rt, &ns, &name, sub.as_deref(), req)
                }
                (None, Method::DELETE) => delete::delete(cluster, &rt, &ns, &name, req),
                (Some("eviction"), Method::POST) if rt.slot == Kind::POD => {
                    eviction::evict(cluster, &ns, &name, req)
                }
                (Some("finalize"), Method::PUT) if rt.slot == Kind::NAMESPACE => {
                    write::finalize_namespace(cluster, &name, req)
                }
                (Some("scale"), m) if rt.scale => scale::scale(cluster, &rt, &ns, &name, &m, req),
                (Some("status"), _) if status => Err(ApiError::method_not_allowed()),
                (Some("eviction"), _) if rt.slot == Kind::POD => {
                    Err(ApiError::method_not_allowed())
                }
                (Some("finalize"), _) if rt.slot == Kind::NAMESPACE => {
                    Err(ApiError::method_not_allowed())
                }
                _ => Err(ApiError::no_route(path)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(path: &str) -> Option<(String, Option<String>, String, Option<String>)> {
        match parse(path, &Registry::builtin())? {
            Route::Item { rt, ns, name, sub } => Some((rt.plural.clone(), ns, name, sub)),
            _ => None,
        }
    }

    fn collection(path: &str) -> Option<(String, Option<String>)> {
        match parse(path, &Registry::builtin())? {
            Route::Collection { rt, ns } => Some((rt.plural.clone(), ns)),
            _ => None,
        }
    }

    #[test]
    fn parses_kubernetes_paths() {
        assert_eq!(
            collection("/api/v1/namespaces"),
            Some(("namespaces".into(), None))
        );
        assert_eq!(
            item("/api/v1/namespaces/kube-system"),
            Some(("namespaces".into(), None, "kube-system".into(), None))
        );
        assert_eq!(
            collection("/api/v1/namespaces/a/pods"),
            Some(("pods".into(), Some("a".into())))
        );
        assert_eq!(
            item("/api/v1/namespaces/a/pods/p/eviction"),
            Some((
                "pods".into(),
                Some("a".into()),
                "p".into(),
                Some("eviction".into())
            ))
        );
        assert_eq!(
            collection("/apis/apps/v1/deployments"),
            Some(("deployments".into(), None))
        );
        assert_eq!(
            collection("/apis/rbac.authorization.k8s.io/v1/namespaces/a/rolebindings"),
            Some(("rolebindings".into(), Some("a".into())))
        );
        assert!(item("/api/v1/nodes/n1/status").is_some());
        assert!(parse("/api/v1/pods/x", &Registry::builtin()).is_none());
        assert!(parse("/apis/apps/v2/deployments", &Registry::builtin()).is_none());
    }

    #[test]
    fn attributes_name_the_verb_the_authorizer_checks() {
        let r = Registry::builtin();
        let q = HashMap::new();
        let route = parse("/api/v1/namespaces/a/pods/p/eviction", &r);
        let a = attributes_of(&Method::POST, "", route.as_ref(), &q);
        assert_eq!(
            a,
            Attributes::Resource {
                verb: "create".into(),
                group: "".into(),
                resource: "pods".into(),
                subresource: "eviction".into(),
                namespace: "a".into(),
                name: "p".into()
            }
        );
        let watch: HashMap<String, String> = [("watch".to_string(), "true".to_string())].into();
        let route = parse("/apis/apps/v1/deployments", &r);
        assert!(matches!(
            attributes_of(&Method::GET, "", route.as_ref(), &watch),
            Attributes::Resource { verb, .. } if verb == "watch"
        ));
        let a = attributes_of(&Method::GET, "/readyz", None, &q);
        assert_eq!(
            a,
            Attributes::NonResource {
                verb: "get".into(),
                path: "/readyz".into()
            }
        );
    }
}
