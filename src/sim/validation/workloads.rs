//! apps/v1 workloads (pkg/apis/apps/validation and the registry strategies): replica
//! counts, a selector that matches the template's labels, a valid template that always
//! restarts, rollout strategies, and a selector that never changes.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError, go_string_map};
use super::names::is_valid_percent;
use super::pods::pod_template;
use super::require;
use super::selectors::{go_label_selector, is_empty, label_selector};
use crate::sim::selector::{LabelSelector, string_pairs};

fn nonnegative(spec: &Value, field: &str) -> ErrorList {
    match spec.get(field).and_then(Value::as_i64) {
        Some(n) if n < 0 => vec![FieldError::invalid(
            format!("spec.{field}"),
            BadValue::Int(n),
            "must be greater than or equal to 0",
        )],
        _ => Vec::new(),
    }
}

/// The selector and template of a workload (`ValidatePodTemplateSpecForReplicaSet`):
/// the selector must be set, not empty, and match the template's labels.
fn selector_and_template(spec: &Value, kind_word: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let selector = spec.get("selector").filter(|s| !s.is_null());
    match selector {
        None => errs.push(FieldError::required("spec.selector", "")),
        Some(sel) => {
            errs.extend(label_selector(Some(sel), "spec.selector"));
            if is_empty(sel) {
                errs.push(FieldError::invalid(
                    "spec.selector",
                    BadValue::Raw(go_label_selector(sel)),
                    format!("empty selector is invalid for {kind_word}"),
                ));
            }
        }
    }
    let empty = Value::Null;
    let template = spec.get("template").unwrap_or(&empty);
    if let Some(sel) = selector
        && !is_empty(sel)
    {
        let labels: Vec<(String, String)> = string_pairs(template.pointer("/metadata/labels"));
        if !LabelSelector::from_object(sel).matches(&labels) {
            let shown = template
                .pointer("/metadata/labels")
                .and_then(Value::as_object)
                .map(go_string_map)
                .unwrap_or_else(|| "map[string]string(nil)".into());
            errs.push(FieldError::invalid(
                "spec.template.metadata.labels",
                BadValue::Raw(shown),
                "`selector` does not match template `labels`",
            ));
        }
    }
    errs.extend(pod_template(template, "spec.template"));
    let restart = template
        .pointer("/spec/restartPolicy")
        .and_then(Value::as_str)
        .unwrap_or("Always");
    if restart != "Always" {
        errs.push(FieldError::not_supported(
            "spec.template.spec.restartPolicy",
            BadValue::Str(restart.into()),
            &["Always"],
        ));
    }
    if let Some(ads) = template.pointer("/spec/activeDeadlineSeconds")
        && !ads.is_null()
    {
        errs.push(FieldError::invalid(
            "spec.template.spec.activeDeadlineSeconds",
            BadValue::Raw(ads.to_string()),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
    errs
}

/// An int-or-percent field (`ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`).
pub fn int_or_percent(v: &Value, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    match v {
        Value::String(s) => {
            errs.extend(
                is_valid_percent(s)
                    .into_iter()
                    .map(|m| FieldError::invalid(path, BadValue::Raw(s.clone()), m)),
            );
            if let Some(n) = s.strip_suffix('%').and_then(|d| d.parse::<u64>().ok())
                && n > 100
            {
                errs.push(FieldError::invalid(
                    path,
                    BadValue::Raw(s.clone()),
                    "must not be greater than 100%",
                ));
            }
        }
        Value::Number(n) => {
            if let Some(i) = n.as_i64()
                && i < 0
            {
                errs.push(FieldError::invalid(
                    path,
                    BadValue::Int(i),
                    "must be greater than or equal to 0",
                ));
            }
        }
        Value::Null => {}
        other => errs.push(FieldError::invalid(
            path,
            BadValue::Raw(other.to_string()),
            "must be an integer or percentage (e.g '5%')",
        )),
    }
    errs
}

fn is_zero_int_or_percent(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Number(n)) => n.as_i64() == Some(0),
        Some(Value::String(s)) => s == "0%" || s == "0",
        _ => false,
    }
}

fn deployment_strategy(spec: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let empty = Value::Null;
    let strategy = spec.get("strategy").unwrap_or(&empty);
    let kind = strategy.get("type").and_then(Value::as_str).unwrap_or("");
    let rolling = strategy.get("rollingUpdate").filter(|r| !r.is_null());
    match kind {
        "" | "RollingUpdate" => {
            if let Some(r) = rolling {
                let surge = r.get("maxSurge");
                let unavailable = r.get("maxUnavailable");
                errs.extend(int_or_percent(
                    surge.unwrap_or(&empty),
                    "spec.strategy.rollingUpdate.maxSurge",
                ));
                errs.extend(int_or_percent(
                    unavailable.unwrap_or(&empty),
                    "spec.strategy.rollingUpdate.maxUnavailable",
                ));
                if is_zero_int_or_percent(surge) && is_zero_int_or_percent(unavailable) {
                    errs.push(FieldError::invalid(
                        "spec.strategy.rollingUpdate.maxUnavailable",
                        BadValue::Raw(match unavailable {
                            Some(Value::String(s)) => s.clone(),
                            Some(v) => v.to_string(),
                            None => String::new(),
                        }),
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
            }
        }
        "Recreate" => {
            if rolling.is_some() {
                errs.push(FieldError::forbidden(
                    "spec.strategy.rollingUpdate",
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        other => errs.push(FieldError::not_supported(
            "spec.strategy.type",
            BadValue::Str(other.into()),
            &["Recreate", "RollingUpdate"],
        )),
    }
    errs
}

/// A Deployment (`ValidateDeploymentSpec`).
pub fn deployment(obj: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let mut errs = nonnegative(spec, "replicas");
    errs.extend(selector_and_template(spec, "deployment"));
    errs.extend(deployment_strategy(spec));
    errs.extend(nonnegative(spec, "minReadySeconds"));
    errs.extend(nonnegative(spec, "revisionHistoryLimit"));
    if let Some(deadline) = spec.get("progressDeadlineSeconds").and_then(Value::as_i64) {
        errs.extend(nonnegative(spec, "progressDeadlineSeconds"));
        let min_ready = spec
            .get("minReadySeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if deadline <= min_ready {
            errs.push(FieldError::invalid(
                "spec.progressDeadlineSeconds",
                BadValue::Int(deadline),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// A ReplicaSet (`ValidateReplicaSetSpec`).
pub fn replica_set(obj: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let mut errs = nonnegative(spec, "replicas");
    errs.extend(nonnegative(spec, "minReadySeconds"));
    errs.extend(selector_and_template(spec, "deployment"));
    errs
}

/// A DaemonSet (`ValidateDaemonSetSpec`).
pub fn daemon_set(obj: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let mut errs = selector_and_template(spec, "daemonset");
    errs.extend(nonnegative(spec, "minReadySeconds"));
    let kind = spec
        .pointer("/updateStrategy/type")
        .and_then(Value::as_str)
        .unwrap_or("");
    errs.extend(require::defaulted(
        kind,
        "spec.updateStrategy.type",
        &["OnDelete", "RollingUpdate"],
    ));
    errs
}

/// A StatefulSet (`ValidateStatefulSetSpec`).
pub fn stateful_set(obj: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let mut errs = ErrorList::new();
    let policy = spec
        .get("podManagementPolicy")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !policy.is_empty() && !["OrderedReady", "Parallel"].contains(&policy) {
        errs.push(FieldError::invalid(
            "spec.podManagementPolicy",
            BadValue::Str(policy.into()),
            "must be 'OrderedReady' or 'Parallel'",
        ));
    }
    errs.extend(nonnegative(spec, "replicas"));
    errs.extend(selector_and_template(spec, "statefulset"));
    errs
}

/// A selector that may not change (apps/v1 forbids it for every workload).
fn immutable_selector(new: &Value, old: &Value) -> ErrorList {
    let empty = Value::Null;
    let a = new.pointer("/spec/selector").unwrap_or(&empty);
    let b = old.pointer("/spec/selector").unwrap_or(&empty);
    if LabelSelector::from_object(a) == LabelSelector::from_object(b) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "spec.selector",
        BadValue::Raw(go_label_selector(a)),
        "field is immutable",
    )]
}

/// An update of a Deployment, ReplicaSet or DaemonSet: valid, with the same selector.
pub fn workload_update(validate: fn(&Value) -> ErrorList, new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate(new);
    errs.extend(immutable_selector(new, old));
    errs
}

/// An update of a StatefulSet: only some spec fields may change.
pub fn stateful_set_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = stateful_set(new);
    let strip = |v: &Value| {
        let mut spec = v.get("spec").cloned().unwrap_or(Value::Null);
        if let Some(m) = spec.as_object_mut() {
            for k in [
                "replicas",
                "ordinals",
                "template",
                "updateStrategy",
                "persistentVolumeClaimRetentionPolicy",
                "minReadySeconds",
                "revisionHistoryLimit",
            ] {
                m.remove(k);
            }
        }
        spec
    };
    if strip(new) != strip(old) {
        errs.push(FieldError::forbidden(
            "spec",
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dep(selector: Value, labels: Value) -> Value {
        json!({"metadata": {"name": "d", "namespace": "n"}, "spec": {"replicas": 2,
            "selector": selector,
            "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}})
    }

    #[test]
    fn the_selector_must_match_the_template() {
        assert!(
            deployment(&dep(
                json!({"matchLabels": {"app": "web"}}),
                json!({"app": "web"})
            ))
            .is_empty()
        );
        let errs = deployment(&dep(
            json!({"matchLabels": {"app": "web"}}),
            json!({"app": "db"}),
        ));
        let m: Vec<String> = errs.iter().map(FieldError::message).collect();
        assert_eq!(
            m,
            vec![
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"db\"}: `selector` does not match template `labels`"
            ]
        );
        let empty = deployment(&dep(json!({}), json!({"app": "db"})));
        assert_eq!(empty[0].field, "spec.selector");
        assert!(
            empty[0]
                .detail
                .contains("empty selector is invalid for deployment")
        );
    }

    #[test]
    fn percentages_and_the_immutable_selector() {
        assert_eq!(
            int_or_percent(&json!("150%"), "spec.maxUnavailable")[0].message(),
            "spec.maxUnavailable: Invalid value: 150%: must not be greater than 100%"
        );
        let old = dep(
            json!({"matchLabels": {"app": "web"}}),
            json!({"app": "web", "v": "2"}),
        );
        let new = dep(
            json!({"matchLabels": {"app": "web", "v": "2"}}),
            json!({"app": "web", "v": "2"}),
        );
        let errs = workload_update(deployment, &new, &old);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec.selector");
        assert_eq!(errs[0].detail, "field is immutable");
        assert!(workload_update(deployment, &old, &old).is_empty());
    }
}
