//! `/version` and API discovery generated from the cluster's registry of served types:
//! `/api`, `/apis`, `/apis/{group}`, `/api/v1` and `/apis/{group}/{version}`, and the
//! aggregated form (`apidiscovery.k8s.io/v2 APIGroupDiscoveryList`) that kubectl asks
//! for first.

use axum::response::Response;
use http::{HeaderValue, Method, header};
use serde_json::{Value, json};

use super::error::ApiError;
use super::generate::{ClusterProfile, fnv};
use super::http::value_response;
use super::resource::{Registry, ResourceType};

/// The content type of aggregated discovery.
const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// The `version.Info` of a cluster, every field filled.
pub fn version(profile: &ClusterProfile) -> Value {
    let git = profile
        .versions
        .get("kubernetes")
        .cloned()
        .unwrap_or_else(|| "v1.32.3".into());
    let mut parts = git.trim_start_matches('v').split('.');
    let major = parts.next().unwrap_or("1").to_string();
    let minor = parts.next().unwrap_or("32").to_string();
    let prev_minor = minor
        .parse::<u32>()
        .map(|m| m.saturating_sub(1).to_string())
        .unwrap_or_else(|_| minor.clone());
    json!({
        "major": major, "minor": minor, "emulationMajor": major, "emulationMinor": minor,
        "minCompatibilityMajor": major, "minCompatibilityMinor": prev_minor,
        "gitVersion": git, "gitCommit": format!("{:016x}{:016x}{:08x}", fnv(&git), fnv(&profile.id), fnv(&git) as u32),
        "gitTreeState": "clean", "buildDate": "2025-03-11T19:52:21Z", "goVersion": "go1.23.6",
        "compiler": "gc", "platform": "linux/amd64"
    })
}

fn wants_aggregated(accept: &str) -> bool {
    accept.split(',').next().is_some_and(|first| {
        first.contains("as=APIGroupDiscoveryList")
            && first.contains("v=v2")
            && !first.contains("v=v2beta1")
    })
}

fn aggregated(body: &Value) -> Response {
    let mut resp = value_response(200, body);
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(AGGREGATED));
    resp
}

/// `/api`.
pub fn core(registry: &Registry, accept: &str, method: &Method) -> Result<Response, ApiError> {
    if method != Method::GET {
        return Err(ApiError::method_not_allowed());
    }
    if wants_aggregated(accept) {
        return Ok(aggregated(&json!({"kind": "APIGroupDiscoveryList",
            "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {},
            "items": [group_discovery(registry, "", &["v1".to_string()])]})));
    }
    Ok(value_response(
        200,
        &json!({"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:443"}]}),
    ))
}

fn group_value(name: &str, versions: &[String]) -> Value {
    let vs: Vec<Value> = versions
        .iter()
        .map(|v| json!({"groupVersion": format!("{name}/{v}"), "version": v}))
        .collect();
    let preferred = vs.first().cloned().unwrap_or(Value::Null);
    json!({"name": name, "versions": vs, "preferredVersion": preferred})
}

/// `/apis`.
pub fn groups(registry: &Registry, accept: &str, method: &Method) -> Result<Response, ApiError> {
    if method != Method::GET {
        return Err(ApiError::method_not_allowed());
    }
    let groups = registry.groups();
    if wants_aggregated(accept) {
        let items: Vec<Value> = groups
            .iter()
            .map(|(g, vs)| group_discovery(registry, g, vs))
            .collect();
        return Ok(aggregated(&json!({"kind": "APIGroupDiscoveryList",
            "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items})));
    }
    Ok(value_response(
        200,
        &json!({"kind": "APIGroupList", "apiVersion": "v1",
            "groups": groups.iter().map(|(g, vs)| group_value(g, vs)).collect::<Vec<_>>()}),
    ))
}

/// `/apis/{group}`.
pub fn api_group(registry: &Registry, name: &str) -> Option<Value> {
    let (g, vs) = registry.groups().into_iter().find(|(g, _)| g == name)?;
    let mut v = group_value(&g, &vs);
    v["kind"] = json!("APIGroup");
    v["apiVersion"] = json!("v1");
    Some(v)
}

fn types_in<'a>(
    registry: &'a Registry,
    group: &'a str,
    version: &'a str,
) -> impl Iterator<Item = &'a std::sync::Arc<ResourceType>> + 'a {
    registry
        .all()
        .iter()
        .filter(move |t| t.group == group && t.version == version)
}

/// `/api/v1` or `/apis/{group}/{version}`.
pub fn resource_list(registry: &Registry, group: &str, version: &str) -> Option<Value> {
    let mut types = types_in(registry, group, version).peekable();
    types.peek()?;
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    let mut resources = Vec::new();
    for t in types {
        let mut r = json!({
            "name": t.plural, "singularName": t.singular, "namespaced": t.namespaced, "kind": t.kind,
            "verbs": t.verbs(), "storageVersionHash": format!("{:x}", fnv(&format!("{}/{}", t.group, t.kind)) as u32)
        });
        if !t.short_names.is_empty() {
            r["shortNames"] = json!(t.short_names);
        }
        if !t.categories.is_empty() {
            r["categories"] = json!(t.categories);
        }
        resources.push(r);
        if t.status {
            resources.push(json!({"name": format!("{}/status", t.plural), "singularName": "", "namespaced": t.namespaced,
                "kind": t.kind, "verbs": ["get", "patch", "update"]}));
        }
        if t.scale {
            resources.push(json!({"name": format!("{}/scale", t.plural), "singularName": "", "namespaced": t.namespaced,
                "group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": ["get", "patch", "update"]}));
        }
    }
    if group.is_empty() {
        resources.push(
            json!({"name": "pods/eviction", "singularName": "", "namespaced": true,
            "group": "policy", "version": "v1", "kind": "Eviction", "verbs": ["create"]}),
        );
        resources.push(
            json!({"name": "namespaces/finalize", "singularName": "", "namespaced": false,
            "kind": "Namespace", "verbs": ["update"]}),
        );
    }
    Some(
        json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}),
    )
}

/// One group of aggregated discovery, with every version's resources.
fn group_discovery(registry: &Registry, group: &str, versions: &[String]) -> Value {
    let versions: Vec<Value> = versions
        .iter()
        .map(|v| {
            let resources: Vec<Value> = types_in(registry, group, v)
                .map(|t| {
                    let mut subs = Vec::new();
                    if t.status {
                        subs.push(json!({"subresource": "status",
                            "responseKind": {"group": t.group, "version": t.version, "kind": t.kind},
                            "verbs": ["get", "patch", "update"]}));
                    }
                    if t.scale {
                        subs.push(json!({"subresource": "scale",
                            "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"},
                            "verbs": ["get", "patch", "update"]}));
                    }
                    if group.is_empty() && t.plural == "pods" {
                        subs.push(json!({"subresource": "eviction",
                            "responseKind": {"group": "policy", "version": "v1", "kind": "Eviction"},
                            "verbs": ["create"]}));
                    }
                    let mut r = json!({"resource": t.plural,
                        "responseKind": {"group": t.group, "version": t.version, "kind": t.kind},
                        "scope": if t.namespaced { "Namespaced" } else { "Cluster" },
                        "singularResource": t.singular, "verbs": t.verbs()});
                    if !t.short_names.is_empty() {
                        r["shortNames"] = json!(t.short_names);
                    }
                    if !t.categories.is_empty() {
                        r["categories"] = json!(t.categories);
                    }
                    if !subs.is_empty() {
                        r["subresources"] = Value::Array(subs);
                    }
                    r
                })
                .collect();
            json!({"version": v, "resources": resources, "freshness": "Current"})
        })
        .collect();
    let mut meta = json!({"creationTimestamp": Value::Null});
    if !group.is_empty() {
        meta["name"] = json!(group);
    }
    json!({"metadata": meta, "versions": versions})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_lists_every_builtin_group_and_its_resources() {
        let r = Registry::builtin();
        let core = resource_list(&r, "", "v1").unwrap_or_default();
        let names: Vec<&str> = core["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x["name"].as_str())
            .collect();
        for n in [
            "pods",
            "pods/status",
            "pods/eviction",
            "services",
            "secrets",
            "serviceaccounts",
        ] {
            assert!(names.contains(&n), "{n}: {names:?}");
        }
        let rbac = resource_list(&r, "rbac.authorization.k8s.io", "v1").unwrap_or_default();
        assert_eq!(rbac["groupVersion"], "rbac.authorization.k8s.io/v1");
        assert!(resource_list(&r, "apps", "v9").is_none());
        assert!(api_group(&r, "batch").is_some());
        let ssar = resource_list(&r, "authorization.k8s.io", "v1").unwrap_or_default();
        assert_eq!(ssar["resources"][0]["verbs"], json!(["create"]));
        assert!(wants_aggregated(
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
        ));
        assert!(!wants_aggregated("application/json"));
    }
}
