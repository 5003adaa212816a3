//! Patch semantics: JSON merge patch (RFC 7386), strategic merge patch (lists merged by
//! their patch merge key, with the `$patch`, `$retainKeys`, `$deleteFromPrimitiveList`
//! and `$setElementOrder` directives) and JSON patch (RFC 6902).

use serde_json::{Map, Value};

use super::error::ApiError;

/// The kind of patch a request carries, from its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    /// `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
    /// `application/json-patch+json`.
    Json,
    /// `application/apply-patch+yaml` (server-side apply).
    Apply,
}

impl PatchKind {
    /// Maps a `Content-Type` header to a patch kind.
    pub fn from_content_type(ct: &str) -> Result<PatchKind, ApiError> {
        let base = ct.split(';').next().unwrap_or_default().trim();
        match base {
            "application/merge-patch+json" => Ok(PatchKind::Merge),
            "application/strategic-merge-patch+json" => Ok(PatchKind::Strategic),
            "application/json-patch+json" => Ok(PatchKind::Json),
            "application/apply-patch+yaml" | "application/apply-patch+json" => Ok(PatchKind::Apply),
            _ => Err(ApiError::unsupported_media(ct)),
        }
    }
}

/// The key that identifies elements of a list field in strategic merge patch and in
/// server-side apply (Kubernetes' `patchMergeKey` / `listMapKey`), by field name.
pub fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets"
        | "resourceClaims" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "conditions" | "addresses" => "type",
        "taints" => "key",
        "ownerReferences" => "uid",
        "hostAliases" => "ip",
        "topologySpreadConstraints" => "topologyKey",
        _ => return None,
    })
}

/// List fields of scalars that merge as sets (`patchStrategy: merge`).
pub fn is_primitive_set(field: &str) -> bool {
    field == "finalizers"
}

/// Applies an RFC 7386 merge patch.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    json_patch::merge(target, patch);
}

/// Applies an RFC 6902 JSON patch; a failed `test` or a bad path is a 422 like the real
/// server's.
pub fn json_patch(target: &mut Value, patch: &Value) -> Result<(), ApiError> {
    let ops: json_patch::Patch = serde_json::from_value(patch.clone())
        .map_err(|e| ApiError::bad_request(format!("invalid JSON patch: {e}")))?;
    json_patch::patch(target, &ops).map_err(|e| ApiError {
        code: 422,
        reason: "Invalid",
        message: format!("the server rejected our request due to an error in our request: {e}"),
        details: None,
        retry_after: None,
    })
}

/// Applies a strategic merge patch to `target`.
pub fn strategic_merge(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if p.get("$patch").and_then(Value::as_str) == Some("replace") {
                let mut clean = p.clone();
                clean.remove("$patch");
                *target = Value::Object(clean);
                return;
            }
            if !target.is_object() {
                *target = Value::Object(Map::new());
            }
            let Some(t) = target.as_object_mut() else {
                return;
            };
            if let Some(keep) = p.get("$retainKeys").and_then(Value::as_array) {
                let keep: Vec<&str> = keep.iter().filter_map(Value::as_str).collect();
                t.retain(|k, _| keep.contains(&k.as_str()));
            }
            for (k, v) in p {
                if k.starts_with("$setElementOrder/") || k == "$retainKeys" || k == "$patch" {
                    continue;
                }
                if let Some(field) = k.strip_prefix("$deleteFromPrimitiveList/") {
                    if let (Some(Value::Array(list)), Some(del)) = (t.get_mut(field), v.as_array())
                    {
                        list.retain(|x| !del.contains(x));
                    }
                    continue;
                }
                match v {
                    Value::Null => {
                        t.remove(k);
                    }
                    Value::Object(_) => {
                        let slot = t.entry(k.clone()).or_insert(Value::Null);
                        strategic_merge(slot, v);
                    }
                    Value::Array(items) => {
                        let slot = t.entry(k.clone()).or_insert(Value::Null);
                        merge_list(slot, items, k);
                    }
                    _ => {
                        t.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        other => *target = other.clone(),
    }
}

fn merge_list(target: &mut Value, items: &[Value], field: &str) {
    if is_primitive_set(field) {
        let mut list = target.as_array().cloned().unwrap_or_default();
        for it in items {
            if !list.contains(it) {
                list.push(it.clone());
            }
        }
        *target = Value::Array(list);
        return;
    }
    let Some(key) = merge_key(field) else {
        *target = Value::Array(items.iter().map(strip_directives).collect());
        return;
    };
    if items
        .iter()
        .any(|i| i.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        *target = Value::Array(
            items
                .iter()
                .filter(|i| i.get("$patch").is_none())
                .map(strip_directives)
                .collect(),
        );
        return;
    }
    let mut list = target.as_array().cloned().unwrap_or_default();
    for it in items {
        let id = it.get(key);
        let pos = id.and_then(|id| list.iter().position(|e| e.get(key) == Some(id)));
        let delete = it.get("$patch").and_then(Value::as_str) == Some("delete");
        match (pos, delete) {
            (Some(i), true) => {
                list.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => strategic_merge(&mut list[i], it),
            (None, false) => list.push(strip_directives(it)),
        }
    }
    *target = Value::Array(list);
}

fn strip_directives(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.starts_with('$'))
                .map(|(k, v)| (k.clone(), strip_directives(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strategic_merge_merges_containers_by_name_and_replaces_other_lists() {
        let mut pod = json!({"spec": {
            "containers": [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}],
            "tolerations": [{"key": "x"}],
        }, "metadata": {"finalizers": ["f1"]}});
        strategic_merge(
            &mut pod,
            &json!({"spec": {
                "containers": [{"name": "b", "image": "b:2"}, {"name": "c", "image": "c:1"}, {"name": "a", "$patch": "delete"}],
                "tolerations": [{"key": "y"}],
            }, "metadata": {"finalizers": ["f2"]}}),
        );
        assert_eq!(
            pod,
            json!({"spec": {
                "containers": [{"name": "b", "image": "b:2"}, {"name": "c", "image": "c:1"}],
                "tolerations": [{"key": "y"}],
            }, "metadata": {"finalizers": ["f1", "f2"]}})
        );
    }

    #[test]
    fn strategic_merge_null_deletes_and_primitive_delete_directive() {
        let mut node =
            json!({"spec": {"unschedulable": true}, "metadata": {"finalizers": ["a", "b"]}});
        strategic_merge(
            &mut node,
            &json!({"spec": {"unschedulable": null}, "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]}}),
        );
        assert_eq!(node, json!({"spec": {}, "metadata": {"finalizers": ["b"]}}));
    }

    #[test]
    fn json_patch_test_failure_is_invalid() {
        let mut v = json!({"a": 1});
        let err = json_patch(&mut v, &json!([{"op": "test", "path": "/a", "value": 2}]));
        assert_eq!(err.map_err(|e| e.code), Err(422));
    }
}
