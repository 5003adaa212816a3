//! `/openapi/v3`: the index of group versions and, per group version, a document with
//! each served type's paths and operations (no schemas). It is what kubectl reads to
//! learn that the server takes the `fieldValidation` parameter, so `kubectl apply`
//! leaves validation to the server instead of downloading schemas.

use serde_json::{Map, Value, json};

use super::generate::fnv;
use super::resource::Registry;

fn gv_path(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// The `/openapi/v3` index.
pub fn index(registry: &Registry) -> Value {
    let mut paths = Map::new();
    let mut gvs = vec![(String::new(), "v1".to_string())];
    for (g, versions) in registry.groups() {
        for v in versions {
            gvs.push((g.clone(), v));
        }
    }
    for (g, v) in gvs {
        let p = gv_path(&g, &v);
        let hash = format!("{:016X}", fnv(&format!("{p}/{}", registry.all().len())));
        paths.insert(
            p.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{p}?hash={hash}")}),
        );
    }
    json!({"paths": paths})
}

/// The document of one group version (`/openapi/v3/api/v1`, `/openapi/v3/apis/{g}/{v}`).
pub fn group_version(registry: &Registry, path: &str) -> Option<Value> {
    let rest = path.trim_start_matches('/');
    let (group, version) = match rest.split('/').collect::<Vec<_>>().as_slice() {
        ["api", v] => (String::new(), v.to_string()),
        ["apis", g, v] => (g.to_string(), v.to_string()),
        _ => return None,
    };
    let types: Vec<_> = registry
        .all()
        .iter()
        .filter(|t| t.group == group && t.version == version)
        .collect();
    if types.is_empty() {
        return None;
    }
    let query = |name: &str| json!({"name": name, "in": "query", "schema": {"type": "string", "uniqueItems": true}});
    let mut paths = Map::new();
    for t in types {
        let gvk = json!({"group": t.group, "version": t.version, "kind": t.kind});
        let op = |action: &str, params: Vec<Value>| {
            json!({"operationId": format!("{action}{}", t.kind), "parameters": params,
                "x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk,
                "responses": {"200": {"description": "OK"}}})
        };
        let base = if t.namespaced {
            format!(
                "/{}/namespaces/{{namespace}}/{}",
                gv_path(&group, &version),
                t.plural
            )
        } else {
            format!("/{}/{}", gv_path(&group, &version), t.plural)
        };
        let write = vec![
            query("dryRun"),
            query("fieldManager"),
            query("fieldValidation"),
        ];
        let mut patch = write.clone();
        patch.push(query("force"));
        paths.insert(
            base.clone(),
            json!({"get": op("list", vec![query("labelSelector"), query("fieldSelector")]),
                "post": op("post", write.clone())}),
        );
        paths.insert(
            format!("{base}/{{name}}"),
            json!({"get": op("get", Vec::new()), "put": op("put", write),
                "patch": op("patch", patch), "delete": op("delete", vec![query("dryRun")])}),
        );
    }
    Some(
        json!({"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "unversioned"},
        "paths": paths, "components": {"schemas": {}}}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_version_is_indexed_with_its_patch_operations() {
        let r = Registry::builtin();
        let idx = index(&r);
        assert!(idx["paths"]["api/v1"]["serverRelativeURL"].is_string());
        assert!(idx["paths"]["apis/batch/v1"].is_object());
        let doc = group_version(&r, "/apis/apps/v1").unwrap_or_default();
        let patch =
            &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert_eq!(
            patch["x-kubernetes-group-version-kind"]["kind"],
            "Deployment"
        );
        assert!(
            patch["parameters"]
                .as_array()
                .is_some_and(|p| p.iter().any(|x| x["name"] == "fieldValidation"))
        );
        assert!(group_version(&r, "/apis/nope/v1").is_none());
    }
}
