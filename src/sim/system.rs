//! The objects a real API server creates for itself at start: RBAC bootstrap roles and
//! bindings, API priority and fairness configuration, and one local APIService per
//! served group version.

use serde_json::{Value, json};

use super::auth::SimUser;
use super::resource::{Kind, Registry};

/// The `APIService` of a group version served by the API server itself (or, with
/// `crd`, by the apiextensions server for a custom resource's group).
pub fn local_api_service(group: &str, version: &str, ts: &str, crd: bool) -> Value {
    let name = format!("{version}.{group}");
    let (group_priority, version_priority) = if crd { (1000, 100) } else { (18000, 15) };
    let mut obj = json!({
        "apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
        "metadata": {"name": name, "creationTimestamp": ts,
            "labels": {"kube-aggregator.kubernetes.io/automanaged": if crd { "true" } else { "onstart" }}},
        "spec": {"group": group, "version": version, "groupPriorityMinimum": group_priority,
            "versionPriority": version_priority},
        "status": {"conditions": [{"type": "Available", "status": "True", "reason": "Local",
            "message": "Local APIServices are always available", "lastTransitionTime": ts}]}
    });
    if group.is_empty() {
        obj["spec"]["groupPriorityMinimum"] = json!(18000);
        obj["spec"]["versionPriority"] = json!(1);
    }
    obj
}

/// Everything a cluster's API server creates at start, as `(slot, object)` (without
/// uids: the caller assigns them).
pub fn bootstrap(users: &[SimUser], ts: &str) -> Vec<(Kind, Value)> {
    let mut out = super::rbac::bootstrap(users, ts);
    out.extend(super::apf::bootstrap(ts));
    let registry = Registry::builtin();
    out.push((Kind::API_SERVICE, local_api_service("", "v1", ts, false)));
    for (group, versions) in registry.groups() {
        for v in versions {
            out.push((Kind::API_SERVICE, local_api_service(&group, &v, ts, false)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_group_has_its_local_api_service() {
        let objs = bootstrap(&SimUser::builtins(), "t");
        let names: Vec<String> = objs
            .iter()
            .filter(|(k, _)| *k == Kind::API_SERVICE)
            .filter_map(|(_, o)| o.pointer("/metadata/name")?.as_str().map(String::from))
            .collect();
        for n in ["v1.", "v1.apps", "v1.batch", "v1.apiextensions.k8s.io"] {
            assert!(names.iter().any(|x| x == n), "{n}: {names:?}");
        }
        assert!(objs.iter().any(|(k, o)| *k == Kind::FLOW_SCHEMA
            && o.pointer("/metadata/name") == Some(&json!("catch-all"))));
    }
}
