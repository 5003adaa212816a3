//! Object metadata (`k8s.io/apimachinery/pkg/api/validation/objectmeta.go` and the core
//! group's finalizer rule): name or generateName, namespace, labels, annotations, owner
//! references and finalizers, on create and on update.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError, child, go_string_slice};
use super::json::text;
use super::names::{NameRule, is_dns1123_label, is_label_value, is_qualified_name};
use super::require;

/// Largest total size of an object's annotations (keys and values).
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// Finalizers every kind accepts without a domain prefix.
const STANDARD_FINALIZERS: [&str; 3] = ["kubernetes", "orphan", "foregroundDeletion"];

/// Whether finalizers without a `/` must be one of the standard ones (the core and
/// apps groups validate metadata with this extra rule; others do not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalizerRule {
    /// Any qualified name.
    Plain,
    /// A bare name must be `kubernetes`, `orphan` or `foregroundDeletion`.
    Kube,
}

/// A label key (`ValidateLabelName`).
pub fn label_name(key: &str, path: &str) -> ErrorList {
    require::valid(key, path, is_qualified_name)
}

/// A label map (`ValidateLabels`): keys qualified names, values label values.
pub fn labels(map: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(map) = map.and_then(Value::as_object) else {
        return errs;
    };
    for (k, v) in map {
        errs.extend(label_name(k, path));
        let value = v.as_str().unwrap_or_default();
        errs.extend(require::valid(value, path, is_label_value));
    }
    errs
}

/// An annotation map (`ValidateAnnotations`): keys are qualified names in any case, and
/// all of them together stay under 256 KiB.
pub fn annotations(map: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(map) = map.and_then(Value::as_object) else {
        return errs;
    };
    let mut size = 0usize;
    for (k, v) in map {
        errs.extend(
            is_qualified_name(&k.to_lowercase())
                .into_iter()
                .map(|m| FieldError::invalid(path, BadValue::Str(k.clone()), m)),
        );
        size += k.len() + v.as_str().map_or(0, str::len);
    }
    if size > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(FieldError::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errs
}

fn owner_references(refs: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(refs) = refs.and_then(Value::as_array) else {
        return errs;
    };
    let mut first_controller: Option<String> = None;
    for r in refs {
        let api_version = text(r, "/apiVersion");
        let kind = text(r, "/kind");
        let version = api_version.rsplit('/').next().unwrap_or("");
        if version.is_empty() {
            errs.push(FieldError::invalid(
                child(path, "apiVersion"),
                BadValue::Str(api_version.into()),
                "version must not be empty",
            ));
        }
        for (field, value) in [
            ("kind", kind),
            ("name", text(r, "/name")),
            ("uid", text(r, "/uid")),
        ] {
            if value.is_empty() {
                errs.push(FieldError::invalid(
                    child(path, field),
                    BadValue::Str(String::new()),
                    "must not be empty",
                ));
            }
        }
        if api_version == "v1" && kind == "Event" {
            errs.push(FieldError::invalid(
                path,
                BadValue::Raw(r.to_string()),
                "/v1, Kind=Event is disallowed from being an owner",
            ));
        }
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let this = format!("{kind}/{}", text(r, "/name"));
            match &first_controller {
                Some(first) => errs.push(FieldError::invalid(
                    path,
                    BadValue::Raw(Value::Array(refs.clone()).to_string()),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"
                    ),
                )),
                None => first_controller = Some(this),
            }
        }
    }
    errs
}

fn finalizers(list: Option<&Value>, path: &str, rule: FinalizerRule) -> ErrorList {
    let mut errs = ErrorList::new();
    let names: Vec<String> = list
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|f| f.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    for f in &names {
        errs.extend(require::valid(f, path, is_qualified_name));
    }
    if names.iter().any(|f| f == "orphan") && names.iter().any(|f| f == "foregroundDeletion") {
        errs.push(FieldError::invalid(
            path,
            BadValue::Raw(go_string_slice(&names)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    if rule == FinalizerRule::Kube {
        for f in &names {
            if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f.as_str()) {
                errs.push(FieldError::invalid(
                    path,
                    BadValue::Str(f.clone()),
                    "name is neither a standard finalizer name nor is it fully qualified",
                ));
            }
        }
    }
    errs
}

/// The parts of metadata validated the same way on create and update.
fn common(meta: &Value, namespaced: bool, rule: FinalizerRule) -> ErrorList {
    let mut errs = ErrorList::new();
    let ns = text(meta, "/namespace");
    if namespaced {
        if ns.is_empty() {
            errs.push(FieldError::required("metadata.namespace", ""));
        } else {
            errs.extend(require::valid(ns, "metadata.namespace", is_dns1123_label));
        }
    } else if !ns.is_empty() {
        errs.push(FieldError::forbidden(
            "metadata.namespace",
            "not allowed on this type",
        ));
    }
    if let Some(g) = meta.get("generation").and_then(Value::as_i64)
        && g < 0
    {
        errs.push(FieldError::invalid(
            "metadata.generation",
            BadValue::Int(g),
            "must be greater than or equal to 0",
        ));
    }
    errs.extend(labels(meta.get("labels"), "metadata.labels"));
    errs.extend(annotations(meta.get("annotations"), "metadata.annotations"));
    errs.extend(owner_references(
        meta.get("ownerReferences"),
        "metadata.ownerReferences",
    ));
    errs.extend(finalizers(
        meta.get("finalizers"),
        "metadata.finalizers",
        rule,
    ));
    errs
}

/// Metadata of an object being created (`ValidateObjectMeta`), its name checked by
/// the kind's rule.
pub fn object_meta(
    obj: &Value,
    namespaced: bool,
    name_rule: NameRule,
    rule: FinalizerRule,
) -> ErrorList {
    let empty = Value::Null;
    let meta = obj.get("metadata").unwrap_or(&empty);
    let mut errs = ErrorList::new();
    let generate = text(meta, "/generateName");
    if !generate.is_empty() {
        errs.extend(require::valid(generate, "metadata.generateName", |n| {
            name_rule.check(n, true)
        }));
    }
    let name = text(meta, "/name");
    if name.is_empty() {
        errs.push(FieldError::required(
            "metadata.name",
            "name or generateName is required",
        ));
    } else {
        errs.extend(require::valid(name, "metadata.name", |n| {
            name_rule.check(n, false)
        }));
    }
    errs.extend(common(meta, namespaced, rule));
    errs
}

/// What changes of metadata an update may not make (`ValidateObjectMetaAccessorUpdate`):
/// no new finalizers once the object is being deleted. (Name, namespace, UID and
/// timestamps are carried over from the stored object before validation.)
pub fn object_meta_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    if old
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|d| !d.is_null())
    {
        let list = |v: &Value| -> Vec<String> {
            v.pointer("/metadata/finalizers")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|f| f.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let before = list(old);
        let mut extra: Vec<String> = list(new)
            .into_iter()
            .filter(|f| !before.contains(f))
            .collect();
        extra.sort();
        extra.dedup();
        if !extra.is_empty() {
            errs.push(FieldError::forbidden(
                "metadata.finalizers",
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers {}",
                    go_string_slice(&extra)
                ),
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(errs: &ErrorList) -> Vec<(String, &'static str)> {
        errs.iter()
            .map(|e| (e.field.clone(), e.kind.reason()))
            .collect()
    }

    #[test]
    fn names_namespaces_labels_and_finalizers() {
        let ok =
            json!({"metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}}});
        assert!(object_meta(&ok, true, NameRule::Subdomain, FinalizerRule::Kube).is_empty());
        let bad = json!({"metadata": {"namespace": "shop",
            "labels": {"Bad Key": "x", "ok": "-bad"},
            "annotations": {"a/b/c": "x"},
            "finalizers": ["custom"],
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "", "uid": "u"}]}});
        let errs = object_meta(&bad, true, NameRule::Subdomain, FinalizerRule::Kube);
        assert_eq!(
            fields(&errs),
            vec![
                ("metadata.name".to_string(), "FieldValueRequired"),
                ("metadata.labels".to_string(), "FieldValueInvalid"),
                ("metadata.labels".to_string(), "FieldValueInvalid"),
                ("metadata.annotations".to_string(), "FieldValueInvalid"),
                (
                    "metadata.ownerReferences.name".to_string(),
                    "FieldValueInvalid"
                ),
                ("metadata.finalizers".to_string(), "FieldValueInvalid"),
            ]
        );
        let ns = json!({"metadata": {"name": "Difftest_Bad"}});
        let errs = object_meta(&ns, false, NameRule::Label, FinalizerRule::Kube);
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message().starts_with(
            "metadata.name: Invalid value: \"Difftest_Bad\": a lowercase RFC 1123 label"
        ));
        let scoped = json!({"metadata": {"name": "n", "namespace": "x"}});
        assert_eq!(
            fields(&object_meta(
                &scoped,
                false,
                NameRule::Subdomain,
                FinalizerRule::Plain
            )),
            vec![("metadata.namespace".to_string(), "FieldValueForbidden")]
        );
    }

    #[test]
    fn no_new_finalizers_while_deleting() {
        let old = json!({"metadata": {"deletionTimestamp": "t", "finalizers": ["a/b"]}});
        let new = json!({"metadata": {"finalizers": ["a/b", "c/d"]}});
        let errs = object_meta_update(&new, &old);
        assert_eq!(
            errs[0].message(),
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"c/d\"}"
        );
        assert!(object_meta_update(&new, &json!({"metadata": {}})).is_empty());
    }
}
