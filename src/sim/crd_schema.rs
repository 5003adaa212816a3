//! Custom resources checked against their CustomResourceDefinition's structural
//! `openAPIV3Schema`, as the API server does: fields the schema does not declare are
//! pruned, then types, required fields, enums, bounds, lengths and patterns are checked.

use serde_json::{Map, Value, json};

use super::field_errors::{FieldError, quoted};
use super::resource::ResourceType;

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The JSON type name of a value, as schema errors name it.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_ok(want: &str, v: &Value) -> bool {
    match want {
        "" => true,
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        w => type_name(v) == w,
    }
}

/// Removes the fields a structural schema does not declare (unless it preserves
/// unknown fields), as the API server prunes custom resources.
fn prune(v: &mut Value, schema: &Value) {
    if schema
        .get("x-kubernetes-preserve-unknown-fields")
        .and_then(Value::as_bool)
        == Some(true)
    {
        return;
    }
    match v {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties");
            if let Some(props) = props {
                map.retain(|k, _| props.contains_key(k));
                for (k, child) in map.iter_mut() {
                    if let Some(s) = props.get(k) {
                        prune(child, s);
                    }
                }
            } else if let Some(add) = additional.filter(|a| a.is_object()) {
                for child in map.values_mut() {
                    prune(child, add);
                }
            } else if additional.and_then(Value::as_bool) != Some(true)
                && schema.get("type").and_then(Value::as_str) == Some("object")
            {
                map.clear();
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for it in items {
                    prune(it, s);
                }
            }
        }
        _ => {}
    }
}

fn check(v: &Value, schema: &Value, path: &str, errs: &mut Vec<FieldError>) {
    if v.is_null() && schema.get("nullable").and_then(Value::as_bool) == Some(true) {
        return;
    }
    let want = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let int_or_string = schema
        .get("x-kubernetes-int-or-string")
        .and_then(Value::as_bool)
        == Some(true);
    if int_or_string {
        if !(v.is_string() || v.is_i64() || v.is_u64()) {
            errs.push(FieldError::type_invalid(
                path,
                &json!(type_name(v)),
                &format!(
                    "{path} in body must be of type int-or-string: {:?}",
                    type_name(v)
                ),
            ));
        }
        return;
    }
    if !type_ok(want, v) {
        errs.push(FieldError::type_invalid(
            path,
            &json!(type_name(v)),
            &format!("{path} in body must be of type {want}: {:?}", type_name(v)),
        ));
        return;
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(v)
    {
        let list: Vec<String> = options.iter().map(quoted).collect();
        errs.push(FieldError {
            reason: "FieldValueNotSupported",
            field: path.to_string(),
            message: format!(
                "Unsupported value: {}: supported values: {}",
                quoted(v),
                list.join(", ")
            ),
        });
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            errs.push(FieldError::invalid(
                path,
                v,
                &format!(
                    "{path} in body should be greater than or equal to {}",
                    schema["minimum"]
                ),
            ));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            errs.push(FieldError::invalid(
                path,
                v,
                &format!(
                    "{path} in body should be less than or equal to {}",
                    schema["maximum"]
                ),
            ));
        }
    }
    if let Some(s) = v.as_str() {
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && s.chars().count() as u64 > max
        {
            errs.push(FieldError::too_long(path, max as usize));
        }
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && (s.chars().count() as u64) < min
        {
            errs.push(FieldError::invalid(
                path,
                v,
                &format!("{path} in body should be at least {min} chars long"),
            ));
        }
        if let Some(p) = schema.get("pattern").and_then(Value::as_str)
            && let Ok(re) = regex::Regex::new(p)
            && !re.is_match(s)
        {
            errs.push(FieldError::invalid(
                path,
                v,
                &format!("{path} in body should match '{p}'"),
            ));
        }
    }
    match v {
        Value::Object(map) => {
            for r in strings(schema.get("required")) {
                if !map.contains_key(&r) {
                    errs.push(FieldError::required(join(path, &r), ""));
                }
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (k, child) in map {
                let sub = props
                    .and_then(|p| p.get(k))
                    .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                if let Some(s) = sub {
                    check(child, s, &join(path, k), errs);
                }
            }
        }
        Value::Array(items) => {
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
                && items.len() as u64 > max
            {
                errs.push(FieldError {
                    reason: "FieldValueTooMany",
                    field: path.to_string(),
                    message: format!("Too many: {}: must have at most {max} items", items.len()),
                });
            }
            if let Some(s) = schema.get("items") {
                for (i, it) in items.iter().enumerate() {
                    check(it, s, &format!("{path}[{i}]"), errs);
                }
            }
        }
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Prunes and validates a custom resource against its type's schema.
pub fn validate_custom(rt: &ResourceType, obj: &mut Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    super::field_errors::object_meta(obj, super::field_errors::dns1123_subdomain, &mut errs);
    let Some(schema) = rt.schema.as_deref() else {
        return errs;
    };
    if let Some(map) = obj.as_object_mut() {
        let keep: Map<String, Value> = ["apiVersion", "kind", "metadata"]
            .iter()
            .filter_map(|k| map.remove(*k).map(|v| (k.to_string(), v)))
            .collect();
        let mut rest = Value::Object(std::mem::take(map));
        prune(&mut rest, schema);
        let mut schema_top = schema.clone();
        if let Some(props) = schema_top
            .get_mut("properties")
            .and_then(Value::as_object_mut)
        {
            for k in ["apiVersion", "kind", "metadata"] {
                props.remove(k);
            }
        }
        check(&rest, &schema_top, "", &mut errs);
        if let Value::Object(r) = rest {
            map.extend(r);
        }
        map.extend(keep);
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::crd::tests::crontab_type;

    #[test]
    fn custom_resources_are_pruned_and_checked_against_the_schema() {
        let t = crontab_type();
        let mut ok = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
            "spec": {"cronSpec": "* * * * */5", "unknown": 1}});
        assert!(validate_custom(&t, &mut ok).is_empty());
        assert_eq!(
            ok.pointer("/spec/unknown"),
            None,
            "unknown fields are pruned"
        );
        assert_eq!(ok.pointer("/metadata/name"), Some(&json!("x")));
        let mut bad = json!({"metadata": {"name": "x"}, "spec": {"replicas": "two", "mode": "c"}});
        let errs = validate_custom(&t, &mut bad);
        let fields: Vec<(&str, &str)> = errs.iter().map(|e| (e.field.as_str(), e.reason)).collect();
        assert!(
            fields.contains(&("spec.cronSpec", "FieldValueRequired")),
            "{errs:?}"
        );
        assert!(
            fields.contains(&("spec.replicas", "FieldValueTypeInvalid")),
            "{errs:?}"
        );
        assert!(
            fields.contains(&("spec.mode", "FieldValueNotSupported")),
            "{errs:?}"
        );
        assert_eq!(
            errs.iter()
                .find(|e| e.field == "spec.replicas")
                .map(|e| e.message.as_str()),
            Some(
                "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""
            )
        );
    }
}
