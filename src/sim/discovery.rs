//! `/version` and API discovery (`/api`, `/apis`, group and resource lists), enough for
//! kube's discovery and for kubectl (which also reads the eviction subresource from it).

use serde_json::{Value, json};

use super::generate::{ClusterProfile, fnv};
use super::resource::Kind;

const GROUPS: &[&str] = &["apps", "policy", "coordination.k8s.io"];

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

/// `/api`.
pub fn core_versions() -> Value {
    json!({"kind": "APIVersions", "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:443"}]})
}

fn group(name: &str) -> Value {
    let gv = format!("{name}/v1");
    json!({"name": name, "versions": [{"groupVersion": gv, "version": "v1"}],
        "preferredVersion": {"groupVersion": gv, "version": "v1"}})
}

/// `/apis`.
pub fn group_list() -> Value {
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": GROUPS.iter().map(|g| group(g)).collect::<Vec<_>>()})
}

/// `/apis/{group}`.
pub fn api_group(name: &str) -> Option<Value> {
    GROUPS.contains(&name).then(|| {
        let mut g = group(name);
        g["kind"] = json!("APIGroup");
        g["apiVersion"] = json!("v1");
        g
    })
}

/// `/api/v1` or `/apis/{group}/v1`.
pub fn resource_list(group: &str, version: &str) -> Option<Value> {
    if version != "v1" || (!group.is_empty() && !GROUPS.contains(&group)) {
        return None;
    }
    let gv = if group.is_empty() {
        "v1".to_string()
    } else {
        format!("{group}/v1")
    };
    let mut resources = Vec::new();
    for k in Kind::ALL.into_iter().filter(|k| k.group() == group) {
        resources.push(json!({
            "name": k.plural(), "singularName": k.singular(), "namespaced": k.namespaced(), "kind": k.kind(),
            "verbs": k.verbs(), "shortNames": k.short_names(),
            "storageVersionHash": format!("{:x}", fnv(k.kind()) as u32)
        }));
        if k.has_status() {
            resources.push(json!({"name": format!("{}/status", k.plural()), "singularName": "", "namespaced": k.namespaced(),
                "kind": k.kind(), "verbs": ["get", "patch", "update"]}));
        }
    }
    if group.is_empty() {
        resources.push(
            json!({"name": "pods/eviction", "singularName": "", "namespaced": true,
            "group": "policy", "version": "v1", "kind": "Eviction", "verbs": ["create"]}),
        );
    }
    Some(
        json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}),
    )
}
