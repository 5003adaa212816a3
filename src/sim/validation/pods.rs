//! Pods and pod templates (`ValidatePodSpec`, `ValidatePodCreate`, `ValidatePodUpdate`,
//! `ValidatePodTemplateSpec` in pkg/apis/core/validation/validation.go).

use serde_json::{Map, Value};

use super::containers::{containers, dns_label, init_containers};
use super::field::{BadValue, ErrorList, FieldError, child, index};
use super::json::{array, items, text};
use super::meta::{annotations, label_name, labels};
use super::names::{is_dns1123_subdomain, is_label_value, is_qualified_name};
use super::require;

/// The fields a pod update may change, as the refusal lists them.
const UPDATABLE_POD_SPEC_FIELDS: [&str; 5] = [
    "`spec.containers[*].image`",
    "`spec.initContainers[*].image`",
    "`spec.activeDeadlineSeconds`",
    "`spec.tolerations` (only additions to existing tolerations)",
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

/// A field whose value must be one of `valid` (when set; an empty value is defaulted).
fn one_of(spec: &Value, field: &str, path: &str, valid: &[&str]) -> Option<FieldError> {
    require::defaulted(text(spec, &format!("/{field}")), child(path, field), valid)
}

fn volumes(list: Option<&Value>, path: &str) -> (Vec<String>, ErrorList) {
    let mut names = Vec::new();
    let mut errs = ErrorList::new();
    for (i, v) in array(list).iter().enumerate() {
        let p = index(path, i);
        let name = text(v, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(child(&p, "name"), ""));
        } else {
            errs.extend(dns_label(name, &child(&p, "name")));
        }
        if names.iter().any(|n| n == name) {
            errs.push(FieldError::duplicate(
                child(&p, "name"),
                BadValue::Str(name.into()),
            ));
        } else {
            names.push(name.to_string());
        }
        let sources = v.as_object().map_or(0, |m| {
            m.iter()
                .filter(|(k, s)| *k != "name" && !s.is_null())
                .count()
        });
        if sources == 0 {
            errs.push(FieldError::required(&p, "must specify a volume type"));
        }
    }
    (names, errs)
}

fn tolerations(list: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, t) in array(list).iter().enumerate() {
        let p = index(path, i);
        let key = text(t, "/key");
        let op = text(t, "/operator");
        let effect = text(t, "/effect");
        if !key.is_empty() {
            errs.extend(label_name(key, &child(&p, "key")));
        }
        if key.is_empty() && op != "Exists" {
            errs.push(FieldError::invalid(
                child(&p, "operator"),
                BadValue::Str(op.into()),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.get("tolerationSeconds").is_some_and(|s| !s.is_null()) && effect != "NoExecute" {
            errs.push(FieldError::invalid(
                child(&p, "effect"),
                BadValue::Str(effect.into()),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        let value = text(t, "/value");
        match op {
            "" | "Equal" => {
                let bad = is_label_value(value);
                if !bad.is_empty() {
                    errs.push(FieldError::invalid(
                        child(&p, "operator"),
                        BadValue::Str(value.into()),
                        bad.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        child(&p, "operator"),
                        BadValue::Str(value.into()),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errs.push(FieldError::not_supported(
                child(&p, "operator"),
                BadValue::Str(other.into()),
                &["Equal", "Exists"],
            )),
        }
        errs.extend(require::defaulted(
            effect,
            child(&p, "effect"),
            &["NoSchedule", "PreferNoSchedule", "NoExecute"],
        ));
    }
    errs
}

fn scheduling_gates(list: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut seen: Vec<String> = Vec::new();
    for (i, g) in array(list).iter().enumerate() {
        let p = index(path, i);
        let name = text(g, "/name");
        errs.extend(require::valid(name, &p, is_qualified_name));
        if seen.iter().any(|s| s == name) {
            errs.push(FieldError::duplicate(&p, BadValue::Str(name.into())));
        }
        seen.push(name.to_string());
    }
    errs
}

/// A pod spec, in a pod or a template (`ValidatePodSpec`).
pub fn pod_spec(spec: &Value, path: &str) -> ErrorList {
    let (vols, mut errs) = volumes(spec.get("volumes"), &child(path, "volumes"));
    errs.extend(containers(
        spec.get("containers"),
        &child(path, "containers"),
        &vols,
    ));
    errs.extend(init_containers(
        spec.get("initContainers"),
        spec.get("containers"),
        &child(path, "initContainers"),
        &vols,
    ));
    errs.extend(one_of(
        spec,
        "restartPolicy",
        path,
        &["Always", "OnFailure", "Never"],
    ));
    errs.extend(one_of(
        spec,
        "dnsPolicy",
        path,
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
    ));
    errs.extend(labels(
        spec.get("nodeSelector"),
        &child(path, "nodeSelector"),
    ));
    errs.extend(scheduling_gates(
        spec.get("schedulingGates"),
        &child(path, "schedulingGates"),
    ));
    for field in ["serviceAccountName", "nodeName", "priorityClassName"] {
        let v = text(spec, &format!("/{field}"));
        if !v.is_empty() {
            errs.extend(require::valid(v, child(path, field), is_dns1123_subdomain));
        }
    }
    if let Some(ads) = spec.get("activeDeadlineSeconds").and_then(Value::as_i64)
        && !(1..=i64::from(i32::MAX)).contains(&ads)
    {
        errs.push(FieldError::invalid(
            child(path, "activeDeadlineSeconds"),
            BadValue::Int(ads),
            "must be between 1 and 2147483647, inclusive",
        ));
    }
    for field in ["hostname", "subdomain"] {
        let v = text(spec, &format!("/{field}"));
        if !v.is_empty() {
            errs.extend(dns_label(v, &child(path, field)));
        }
    }
    errs.extend(tolerations(
        spec.get("tolerations"),
        &child(path, "tolerations"),
    ));
    errs
}

fn image_whitespace(list: Option<&Value>, path: &str) -> ErrorList {
    array(list)
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            let image = text(c, "/image");
            image.trim() != image
        })
        .map(|(i, c)| {
            FieldError::invalid(
                child(&index(path, i), "image"),
                BadValue::Str(text(c, "/image").into()),
                "must not have leading or trailing whitespace",
            )
        })
        .collect()
}

/// What a pod (not a template) is checked for beyond its metadata.
fn pod_fields(pod: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = pod.get("spec").unwrap_or(&empty);
    let mut errs = pod_spec(spec, "spec");
    errs.extend(image_whitespace(spec.get("containers"), "spec.containers"));
    errs.extend(image_whitespace(
        spec.get("initContainers"),
        "spec.initContainers",
    ));
    errs
}

/// A pod being created (`ValidatePodCreate`, after its metadata).
pub fn pod_create(pod: &Value) -> ErrorList {
    let mut errs = pod_fields(pod);
    let empty = Value::Null;
    let spec = pod.get("spec").unwrap_or(&empty);
    if !items(spec, "ephemeralContainers").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        ));
    }
    if !text(spec, "/nodeName").is_empty() && !items(spec, "schedulingGates").is_empty() {
        errs.push(FieldError::forbidden(
            "spec.nodeName",
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    errs
}

/// A pod template of a workload (`ValidatePodTemplateSpec`).
pub fn pod_template(template: &Value, path: &str) -> ErrorList {
    let mut errs = labels(template.pointer("/metadata/labels"), &child(path, "labels"));
    errs.extend(annotations(
        template.pointer("/metadata/annotations"),
        &child(path, "annotations"),
    ));
    let empty = Value::Null;
    errs.extend(pod_spec(
        template.get("spec").unwrap_or(&empty),
        &child(path, "spec"),
    ));
    if !array(template.pointer("/spec/ephemeralContainers")).is_empty() {
        errs.push(FieldError::forbidden(
            child(path, "spec.ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// Drops what Go's semantic equality does not see: nulls, empty lists and maps, empty
/// strings, `false` and zero scalars (unset and zero are the same in Go structs).
fn normalized(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), normalized(v)))
                .filter(|(_, v)| !is_zero(v))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalized).collect()),
        other => other.clone(),
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        Value::Number(_) => false,
    }
}

/// A `-`/`+` listing of the spec fields that differ (the API server prints a structural
/// diff of the two specs; this names the same fields).
fn spec_diff(old: &Value, new: &Value) -> String {
    let empty = Map::new();
    let o = old.as_object().unwrap_or(&empty);
    let n = new.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = String::from("  core.PodSpec{\n");
    for k in keys {
        let (a, b) = (o.get(k), n.get(k));
        if a != b {
            if let Some(a) = a {
                out.push_str(&format!("- \t{k}: {a},\n"));
            }
            if let Some(b) = b {
                out.push_str(&format!("+ \t{k}: {b},\n"));
            }
        }
    }
    out.push_str("  }\n");
    out
}

fn only_added_tolerations(new: &[Value], old: &[Value], path: &str) -> ErrorList {
    let without_seconds = |t: &Value| {
        let mut t = normalized(t);
        if let Some(m) = t.as_object_mut() {
            m.remove("tolerationSeconds");
        }
        t
    };
    let kept = old
        .iter()
        .all(|o| new.iter().any(|n| without_seconds(n) == without_seconds(o)));
    if !kept {
        return vec![FieldError::forbidden(
            path,
            "existing toleration can not be modified except its tolerationSeconds",
        )];
    }
    Vec::new()
}

/// A pod update (`ValidatePodUpdate`, after metadata): the new pod must be valid and may
/// change only images, `activeDeadlineSeconds` (downwards), tolerations (additions) and
/// scheduling gates (removals).
pub fn pod_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = pod_fields(new);
    let empty = Value::Null;
    let new_spec = new.get("spec").unwrap_or(&empty);
    let old_spec = old.get("spec").unwrap_or(&empty);
    for field in ["containers", "initContainers"] {
        if items(new_spec, field).len() != items(old_spec, field).len() {
            errs.push(FieldError::forbidden(
                format!("spec.{field}"),
                "pod updates may not add or remove containers",
            ));
            return errs;
        }
    }
    let new_ads = new_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64);
    let old_ads = old_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64);
    match (new_ads, old_ads) {
        (Some(n), _) if n < 0 || n > i64::from(i32::MAX) => {
            errs.push(FieldError::invalid(
                "spec.activeDeadlineSeconds",
                BadValue::Int(n),
                "must be between 0 and 2147483647, inclusive",
            ));
            return errs;
        }
        (Some(n), Some(o)) if o < n => {
            errs.push(FieldError::invalid(
                "spec.activeDeadlineSeconds",
                BadValue::Int(n),
                "must be less than or equal to previous value",
            ));
            return errs;
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            "spec.activeDeadlineSeconds",
            BadValue::Raw("null".into()),
            "must not update from a positive integer to nil value",
        )),
        _ => {}
    }
    errs.extend(only_added_tolerations(
        items(new_spec, "tolerations"),
        items(old_spec, "tolerations"),
        "spec.tolerations",
    ));
    let old_gates: Vec<String> = items(old_spec, "schedulingGates")
        .iter()
        .map(|g| text(g, "/name").to_string())
        .collect();
    for (i, g) in items(new_spec, "schedulingGates").iter().enumerate() {
        let name = text(g, "/name");
        if !old_gates.iter().any(|o| o == name) {
            errs.push(FieldError::forbidden(
                format!("spec.schedulingGates[{i}].name"),
                format!("only deletion is allowed, but found new scheduling gate '{name}'"),
            ));
        }
    }
    // Everything else must be as it was: put back what may change, then compare.
    let mut munged = new_spec.clone();
    for field in ["containers", "initContainers"] {
        let olds = items(old_spec, field);
        if let Some(list) = munged.get_mut(field).and_then(Value::as_array_mut) {
            for (c, o) in list.iter_mut().zip(olds.iter()) {
                c["image"] = o.get("image").cloned().unwrap_or(Value::Null);
            }
        }
    }
    if let Some(m) = munged.as_object_mut() {
        for field in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
            match old_spec.get(field) {
                Some(v) => {
                    m.insert(field.to_string(), v.clone());
                }
                None => {
                    m.remove(field);
                }
            }
        }
        let old_grace = old_spec
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64);
        let new_grace = m
            .get("terminationGracePeriodSeconds")
            .and_then(Value::as_i64);
        if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
            m.insert(
                "terminationGracePeriodSeconds".into(),
                old_spec["terminationGracePeriodSeconds"].clone(),
            );
        }
    }
    let (a, b) = (normalized(old_spec), normalized(&munged));
    if a != b {
        errs.push(FieldError::forbidden(
            "spec",
            format!(
                "pod updates may not change fields other than {}\n{}",
                UPDATABLE_POD_SPEC_FIELDS.join(","),
                spec_diff(&a, &b)
            ),
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(spec: Value) -> Value {
        json!({"metadata": {"name": "p", "namespace": "d"}, "spec": spec})
    }

    #[test]
    fn a_pod_needs_containers_and_valid_policies() {
        let errs = pod_create(&pod(
            json!({"containers": [], "restartPolicy": "Sometimes"}),
        ));
        let m: Vec<String> = errs.iter().map(FieldError::message).collect();
        assert_eq!(
            m,
            vec![
                "spec.containers: Required value",
                "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
            ]
        );
        let ok = pod(
            json!({"containers": [{"name": "a", "image": "i"}], "nodeName": "n1",
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]}),
        );
        assert!(pod_create(&ok).is_empty(), "{:?}", pod_create(&ok));
    }

    #[test]
    fn a_bound_pod_keeps_its_node_but_may_change_its_image() {
        let old = pod(json!({"containers": [{"name": "a", "image": "i:1"}], "nodeName": "n1"}));
        let image = pod(json!({"containers": [{"name": "a", "image": "i:2"}], "nodeName": "n1"}));
        assert!(pod_update(&image, &old).is_empty());
        let moved = pod(json!({"containers": [{"name": "a", "image": "i:1"}], "nodeName": "n2"}));
        let errs = pod_update(&moved, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec");
        assert!(errs[0].body().starts_with(
            "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n"
        ));
        assert!(errs[0].body().contains("- \tnodeName: \"n1\""));
        let added = pod(
            json!({"containers": [{"name": "a", "image": "i:1"}, {"name": "b", "image": "x"}], "nodeName": "n1"}),
        );
        assert_eq!(
            pod_update(&added, &old)[0].message(),
            "spec.containers: Forbidden: pod updates may not add or remove containers"
        );
        let toleration = pod(
            json!({"containers": [{"name": "a", "image": "i:1"}], "nodeName": "n1",
            "tolerations": [{"key": "k", "operator": "Exists"}]}),
        );
        assert!(pod_update(&toleration, &old).is_empty());
        assert_eq!(
            pod_update(&old, &toleration)[0].message(),
            "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"
        );
    }
}
