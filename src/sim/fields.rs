//! Field ownership for `metadata.managedFields` (FieldsV1), and server-side apply.
//!
//! A field set is a set of paths; a path is a list of FieldsV1 tokens: `f:name` for a map
//! key, `k:{"name":"x"}` for an element of a keyed list, `v:"x"` for an element of a set
//! list, and `.` for "the element itself". Paths end at leaves (scalars, atomic lists,
//! empty maps), as in the real API server.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::error::ApiError;
use super::patch::{is_primitive_set, merge_key, strategic_merge};
use super::resource::ResourceType;

/// One path of FieldsV1 tokens.
pub type FieldPath = Vec<String>;
/// A set of owned fields.
pub type FieldSet = BTreeSet<FieldPath>;

const SYSTEM_META: &[&str] = &[
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "managedFields",
    "selfLink",
];

/// The leaf paths of an object: the spec/metadata side, or only `status` when
/// `status_only` (writes through the status subresource).
pub fn leaves(obj: &Value, status_only: bool) -> FieldSet {
    let mut out = FieldSet::new();
    let Some(map) = obj.as_object() else {
        return out;
    };
    for (k, v) in map {
        if k == "apiVersion" || k == "kind" || (k == "status") != status_only {
            continue;
        }
        let mut path = vec![format!("f:{k}")];
        if k == "metadata" {
            if let Some(m) = v.as_object() {
                for (mk, mv) in m {
                    if SYSTEM_META.contains(&mk.as_str()) {
                        continue;
                    }
                    path.push(format!("f:{mk}"));
                    walk(mv, mk, &mut path, &mut out);
                    path.pop();
                }
            }
            continue;
        }
        walk(v, k, &mut path, &mut out);
    }
    out
}

fn walk(v: &Value, field: &str, path: &mut FieldPath, out: &mut FieldSet) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, child) in m {
                path.push(format!("f:{k}"));
                walk(child, k, path, out);
                path.pop();
            }
        }
        Value::Array(items) if is_primitive_set(field) => {
            for it in items {
                path.push(format!("v:{it}"));
                out.insert(path.clone());
                path.pop();
            }
        }
        Value::Array(items) => match merge_key(field) {
            Some(key) if items.iter().all(|i| i.get(key).is_some()) => {
                for it in items {
                    let id = it.get(key).cloned().unwrap_or(Value::Null);
                    path.push(format!("k:{}", json!({ key: id })));
                    path.push(".".into());
                    out.insert(path.clone());
                    path.pop();
                    walk(it, "", path, out);
                    path.pop();
                }
            }
            _ => {
                out.insert(path.clone());
            }
        },
        _ => {
            out.insert(path.clone());
        }
    }
}

/// Finds the value a path points at.
pub fn value_at<'a>(obj: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut cur = obj;
    for tok in path {
        cur = step(cur, tok)?;
    }
    Some(cur)
}

fn step<'a>(cur: &'a Value, tok: &str) -> Option<&'a Value> {
    if tok == "." {
        return Some(cur);
    }
    if let Some(f) = tok.strip_prefix("f:") {
        return cur.get(f);
    }
    let items = cur.as_array()?;
    if let Some(k) = tok.strip_prefix("k:") {
        let keys: Map<String, Value> = serde_json::from_str(k).ok()?;
        return items
            .iter()
            .find(|i| keys.iter().all(|(kk, kv)| i.get(kk) == Some(kv)));
    }
    if let Some(v) = tok.strip_prefix("v:") {
        let want: Value = serde_json::from_str(v).ok()?;
        return items.iter().find(|i| **i == want);
    }
    None
}

/// Removes the field a path points at (a map key, a list element, or a set element).
pub fn remove_at(obj: &mut Value, path: &[String]) {
    let (last, parent_path) = match path.split_last() {
        Some((l, p)) if l == "." => match p.split_last() {
            Some((l2, p2)) => (l2, p2),
            None => return,
        },
        Some(x) => x,
        None => return,
    };
    let mut cur = obj;
    for tok in parent_path {
        let next = match step_mut(cur, tok) {
            Some(n) => n,
            None => return,
        };
        cur = next;
    }
    if let Some(f) = last.strip_prefix("f:") {
        if let Some(m) = cur.as_object_mut() {
            m.remove(f);
        }
    } else if let Some(items) = cur.as_array_mut() {
        let snapshot = Value::Array(items.clone());
        if let Some(target) = step(&snapshot, last).cloned() {
            items.retain(|i| *i != target);
        }
    }
}

fn step_mut<'a>(cur: &'a mut Value, tok: &str) -> Option<&'a mut Value> {
    if let Some(f) = tok.strip_prefix("f:") {
        return cur.get_mut(f);
    }
    let snapshot = cur.clone();
    let target = step(&snapshot, tok)?.clone();
    cur.as_array_mut()?.iter_mut().find(|i| **i == target)
}

/// Renders a path as the API server does in conflict messages (`.spec.replicas`,
/// `.spec.containers[name="app"].image`).
pub fn display(path: &[String]) -> String {
    let mut s = String::new();
    for tok in path {
        if let Some(f) = tok.strip_prefix("f:") {
            s.push('.');
            s.push_str(f);
        } else if let Some(k) = tok.strip_prefix("k:") {
            let keys: Map<String, Value> = serde_json::from_str(k).unwrap_or_default();
            let inner: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
            s.push_str(&format!("[{}]", inner.join(",")));
        } else if let Some(v) = tok.strip_prefix("v:") {
            s.push_str(&format!("[={v}]"));
        }
    }
    s
}

/// Converts a field set to the FieldsV1 JSON tree.
pub fn to_fields_v1(set: &FieldSet) -> Value {
    let mut root = Value::Object(Map::new());
    for path in set {
        let mut cur = &mut root;
        for tok in path {
            let Some(m) = cur.as_object_mut() else { break };
            cur = m
                .entry(tok.clone())
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    root
}

/// Converts a FieldsV1 JSON tree back to a field set.
pub fn from_fields_v1(v: &Value) -> FieldSet {
    fn rec(v: &Value, path: &mut FieldPath, out: &mut FieldSet) {
        match v.as_object() {
            Some(m) if !m.is_empty() => {
                for (k, child) in m {
                    path.push(k.clone());
                    rec(child, path, out);
                    path.pop();
                }
            }
            _ => {
                if !path.is_empty() {
                    out.insert(path.clone());
                }
            }
        }
    }
    let mut out = FieldSet::new();
    rec(v, &mut Vec::new(), &mut out);
    out
}

/// One `managedFields` entry.
#[derive(Debug, Clone)]
pub struct Manager {
    /// Manager name (`fieldManager`).
    pub manager: String,
    /// `Apply` or `Update`.
    pub operation: String,
    /// API version the fields were written with.
    pub api_version: String,
    /// When the entry last changed.
    pub time: String,
    /// `status` for writes through that subresource.
    pub subresource: Option<String>,
    /// The owned fields.
    pub fields: FieldSet,
}

/// Reads `metadata.managedFields`.
pub fn read_managers(obj: &Value) -> Vec<Manager> {
    let Some(items) = obj
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    items
        .iter()
        .map(|e| {
            let s = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            Manager {
                manager: s("manager"),
                operation: s("operation"),
                api_version: s("apiVersion"),
                time: s("time"),
                subresource: e
                    .get("subresource")
                    .and_then(Value::as_str)
                    .map(String::from),
                fields: e.get("fieldsV1").map(from_fields_v1).unwrap_or_default(),
            }
        })
        .collect()
}

/// Writes `metadata.managedFields`, dropping managers that own nothing.
pub fn write_managers(obj: &mut Value, managers: &[Manager]) {
    let items: Vec<Value> = managers
        .iter()
        .filter(|m| !m.fields.is_empty())
        .map(|m| {
            let mut e = json!({
                "manager": m.manager,
                "operation": m.operation,
                "apiVersion": m.api_version,
                "time": m.time,
                "fieldsType": "FieldsV1",
                "fieldsV1": to_fields_v1(&m.fields),
            });
            if let Some(sub) = &m.subresource {
                e["subresource"] = Value::String(sub.clone());
            }
            e
        })
        .collect();
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        if items.is_empty() {
            meta.remove("managedFields");
        } else {
            meta.insert("managedFields".into(), Value::Array(items));
        }
    }
}

/// Records an `Update` by `manager`: it takes ownership of the fields whose values it
/// changed; other managers lose those fields; fields that no longer exist are dropped.
pub fn record_update(
    old: Option<&Value>,
    new: &mut Value,
    manager: &str,
    kind: &ResourceType,
    subresource: Option<&str>,
    now: &str,
) {
    let status_only = subresource == Some("status");
    let mut managers = old.map(read_managers).unwrap_or_default();
    let present = leaves(new, status_only);
    let changed: FieldSet = present
        .iter()
        .filter(|p| old.and_then(|o| value_at(o, p)) != value_at(new, p))
        .cloned()
        .collect();
    for m in managers.iter_mut() {
        if m.subresource.as_deref() == subresource {
            m.fields
                .retain(|p| present.contains(p) && !changed.contains(p));
        }
    }
    if !changed.is_empty() {
        let sub = subresource.map(String::from);
        match managers
            .iter_mut()
            .find(|m| m.manager == manager && m.operation == "Update" && m.subresource == sub)
        {
            Some(m) => {
                m.fields.extend(changed);
                m.time = now.to_string();
            }
            None => managers.push(Manager {
                manager: manager.to_string(),
                operation: "Update".into(),
                api_version: kind.api_version(),
                time: now.to_string(),
                subresource: sub,
                fields: changed,
            }),
        }
    }
    write_managers(new, &managers);
}

/// Server-side apply of `config` by `manager` onto `live` (None: the object does not
/// exist yet). Returns the merged object with updated `managedFields`, or a 409
/// `Conflict` listing fields that other managers own with different values (unless
/// `force`).
pub fn apply(
    live: Option<&Value>,
    config: &Value,
    manager: &str,
    force: bool,
    kind: &ResourceType,
    name: &str,
    now: &str,
) -> Result<Value, ApiError> {
    let mut managers = live.map(read_managers).unwrap_or_default();
    let applied = leaves(config, false);
    let mut conflicts = Vec::new();
    let mut conflicting_paths = FieldSet::new();
    if let Some(live) = live {
        for path in applied
            .iter()
            .filter(|p| p.last().is_some_and(|t| t != "."))
        {
            for m in managers
                .iter()
                .filter(|m| m.manager != manager && m.subresource.is_none())
            {
                if m.fields.contains(path) && value_at(live, path) != value_at(config, path) {
                    conflicts.push((m.manager.clone(), display(path)));
                    conflicting_paths.insert(path.clone());
                }
            }
        }
    }
    if !conflicts.is_empty() && !force {
        return Err(ApiError::apply_conflict(kind, name, &conflicts));
    }
    for m in managers.iter_mut().filter(|m| m.manager != manager) {
        m.fields.retain(|p| !conflicting_paths.contains(p));
    }
    let mut merged = live.cloned().unwrap_or_else(|| json!({"metadata": {}}));
    let mut patch = config.clone();
    if let Some(meta) = patch.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
        meta.remove("resourceVersion");
    }
    strategic_merge(&mut merged, &patch);
    let idx = managers
        .iter()
        .position(|m| m.manager == manager && m.operation == "Apply" && m.subresource.is_none());
    if let Some(i) = idx {
        let dropped: Vec<FieldPath> = managers[i].fields.difference(&applied).cloned().collect();
        for path in dropped {
            let owned_elsewhere = managers
                .iter()
                .enumerate()
                .any(|(j, m)| j != i && m.fields.contains(&path));
            if !owned_elsewhere {
                remove_at(&mut merged, &path);
            }
        }
        managers[i].fields = applied;
        managers[i].time = now.to_string();
    } else {
        managers.push(Manager {
            manager: manager.to_string(),
            operation: "Apply".into(),
            api_version: kind.api_version(),
            time: now.to_string(),
            subresource: None,
            fields: applied,
        });
    }
    write_managers(&mut merged, &managers);
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::resource::Kind;

    #[test]
    fn fields_round_trip_through_fields_v1() {
        let obj = json!({"metadata": {"name": "x", "labels": {"a": "1"}, "finalizers": ["f"]},
            "spec": {"containers": [{"name": "c", "image": "i"}], "tolerations": [{"key": "k"}]}});
        let set = leaves(&obj, false);
        assert!(set.contains(&vec!["f:metadata".into(), "f:labels".into(), "f:a".into()]));
        assert!(set.contains(&vec!["f:spec".into(), "f:tolerations".into()]));
        assert_eq!(from_fields_v1(&to_fields_v1(&set)), set);
        let img = vec![
            "f:spec".into(),
            "f:containers".into(),
            r#"k:{"name":"c"}"#.into(),
            "f:image".into(),
        ];
        assert_eq!(value_at(&obj, &img), Some(&json!("i")));
        assert_eq!(display(&img), r#".spec.containers[name="c"].image"#);
    }

    #[test]
    fn apply_conflicts_then_force_takes_ownership() {
        let cfg_a = json!({"metadata": {"name": "d"}, "spec": {"replicas": 2}});
        let a = apply(None, &cfg_a, "a", false, Kind::DEPLOYMENT.info(), "d", "t").ok();
        let Some(a) = a else {
            panic!("first apply failed")
        };
        let cfg_b = json!({"metadata": {"name": "d"}, "spec": {"replicas": 3}});
        let err = apply(
            Some(&a),
            &cfg_b,
            "b",
            false,
            Kind::DEPLOYMENT.info(),
            "d",
            "t",
        )
        .err();
        assert_eq!(err.map(|e| (e.code, e.reason)), Some((409, "Conflict")));
        let forced = apply(
            Some(&a),
            &cfg_b,
            "b",
            true,
            Kind::DEPLOYMENT.info(),
            "d",
            "t",
        )
        .ok();
        let managers = forced.as_ref().map(read_managers).unwrap_or_default();
        assert_eq!(managers.len(), 1);
        assert_eq!(managers[0].manager, "b");
        // Same value from a second manager: shared, no conflict.
        let shared = apply(
            Some(&a),
            &cfg_a,
            "c",
            false,
            Kind::DEPLOYMENT.info(),
            "d",
            "t",
        );
        assert!(shared.is_ok());
    }

    #[test]
    fn apply_removes_fields_the_manager_no_longer_sets() {
        let v1 = json!({"metadata": {"name": "c", "labels": {"a": "1", "b": "2"}}});
        let v2 = json!({"metadata": {"name": "c", "labels": {"a": "1"}}});
        let live = apply(None, &v1, "m", false, Kind::CONFIG_MAP.info(), "c", "t").ok();
        let next = live
            .and_then(|l| apply(Some(&l), &v2, "m", false, Kind::CONFIG_MAP.info(), "c", "t").ok());
        assert_eq!(
            next.and_then(|n| n.pointer("/metadata/labels").cloned()),
            Some(json!({"a": "1"}))
        );
    }
}
