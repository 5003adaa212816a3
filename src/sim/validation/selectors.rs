//! `metav1.LabelSelector` objects in specs (`ValidateLabelSelector`) and their Go
//! rendering in messages.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError, child, go_quote, index};
use super::meta::{label_name, labels};
use crate::sim::selector::string_pairs;

/// A label selector object: `matchLabels` as labels, each `matchExpressions` entry with
/// an operator its values fit.
pub fn label_selector(sel: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return errs;
    };
    errs.extend(labels(sel.get("matchLabels"), &child(path, "matchLabels")));
    let exprs = sel
        .get("matchExpressions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, e) in exprs.iter().enumerate() {
        let p = index(&child(path, "matchExpressions"), i);
        let values = e
            .get("values")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let op = e.get("operator").and_then(Value::as_str).unwrap_or("");
        match op {
            "In" | "NotIn" => {
                if values == 0 {
                    errs.push(FieldError::required(
                        child(&p, "values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if values > 0 {
                    errs.push(FieldError::forbidden(
                        child(&p, "values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            other => errs.push(FieldError::invalid(
                child(&p, "operator"),
                BadValue::Raw(go_quote(other)),
                "not a valid selector operator",
            )),
        }
        let key = e.get("key").and_then(Value::as_str).unwrap_or("");
        errs.extend(label_name(key, &child(&p, "key")));
    }
    errs
}

/// Whether a selector object selects nothing in particular (no labels, no expressions).
pub fn is_empty(sel: &Value) -> bool {
    let n = |k: &str| {
        sel.get(k)
            .map(|v| match v {
                Value::Object(m) => m.len(),
                Value::Array(a) => a.len(),
                _ => 0,
            })
            .unwrap_or(0)
    };
    n("matchLabels") + n("matchExpressions") == 0
}

/// A selector printed as the API server's generated `String()` prints a
/// `*metav1.LabelSelector` (used as the bad value of immutable-selector errors).
pub fn go_label_selector(sel: &Value) -> String {
    if sel.is_null() {
        return "nil".into();
    }
    let mut pairs = string_pairs(sel.get("matchLabels"));
    pairs.sort();
    let labels: String = pairs.iter().map(|(k, v)| format!("{k}: {v},")).collect();
    let exprs: String = sel
        .get("matchExpressions")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|e| {
                    let values: Vec<&str> = e
                        .get("values")
                        .and_then(Value::as_array)
                        .map(|v| v.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    format!(
                        "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                        e.get("key").and_then(Value::as_str).unwrap_or(""),
                        e.get("operator").and_then(Value::as_str).unwrap_or(""),
                        values.join(" ")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    format!(
        "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{{exprs}}},}}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn operators_and_values_must_fit() {
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [
            {"key": "a", "operator": "In"},
            {"key": "b", "operator": "Exists", "values": ["x"]},
            {"key": "c", "operator": "Near"}]});
        let errs = label_selector(Some(&sel), "spec.selector");
        let msgs: Vec<String> = errs.iter().map(FieldError::message).collect();
        assert_eq!(
            msgs,
            vec![
                "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
                "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                "spec.selector.matchExpressions[2].operator: Invalid value: \"Near\": not a valid selector operator",
            ]
        );
        assert!(is_empty(&json!({})));
        assert!(!is_empty(&sel));
        assert_eq!(
            go_label_selector(&json!({"matchLabels": {"app": "web"}})),
            "&LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}"
        );
    }
}
