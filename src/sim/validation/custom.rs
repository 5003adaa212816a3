//! Custom resources checked against their CustomResourceDefinition's structural
//! `openAPIV3Schema`, as the API server does after pruning: types, required fields,
//! enums, bounds, lengths, patterns and list sizes.

use serde_json::Value;

use super::field::{BadValue, ErrorList, ErrorType, FieldError, child};
use super::json::items;

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

fn check(v: &Value, schema: &Value, path: &str, errs: &mut ErrorList) {
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
                BadValue::Str(type_name(v).into()),
                format!(
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
            BadValue::Str(type_name(v).into()),
            format!("{path} in body must be of type {want}: {:?}", type_name(v)),
        ));
        return;
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array)
        && !options.contains(v)
    {
        let list: Vec<String> = options
            .iter()
            .map(|o| BadValue::from(o).to_string())
            .collect();
        errs.push(FieldError {
            kind: ErrorType::NotSupported,
            field: path.to_string(),
            value: BadValue::from(v),
            detail: format!("supported values: {}", list.join(", ")),
        });
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            errs.push(FieldError::invalid(
                path,
                v,
                format!(
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
                format!(
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
                format!("{path} in body should be at least {min} chars long"),
            ));
        }
        if let Some(p) = schema.get("pattern").and_then(Value::as_str)
            && let Ok(re) = regex::Regex::new(p)
            && !re.is_match(s)
        {
            errs.push(FieldError::invalid(
                path,
                v,
                format!("{path} in body should match '{p}'"),
            ));
        }
    }
    match v {
        Value::Object(map) => {
            for r in items(schema, "required").iter().filter_map(Value::as_str) {
                if !map.contains_key(r) {
                    errs.push(FieldError::required(child(path, r), ""));
                }
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (k, value) in map {
                let sub = props
                    .and_then(|p| p.get(k))
                    .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                if let Some(s) = sub {
                    check(value, s, &child(path, k), errs);
                }
            }
        }
        Value::Array(items) => {
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
                && items.len() as u64 > max
            {
                errs.push(FieldError::too_many(
                    path,
                    items.len(),
                    usize::try_from(max).unwrap_or(usize::MAX),
                ));
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

/// The fields every object has, which a CRD's schema does not describe.
const OBJECT_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// A custom resource (already pruned, see `defaults::custom`) against its type's
/// structural schema; the fields every object has are not the schema's to check.
pub fn custom_resource(schema: &Value, obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut rest = obj.clone();
    if let Some(map) = rest.as_object_mut() {
        for k in OBJECT_FIELDS {
            map.remove(k);
        }
    }
    let mut schema_top = schema.clone();
    if let Some(props) = schema_top
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    {
        for k in OBJECT_FIELDS {
            props.remove(k);
        }
    }
    check(&rest, &schema_top, "", &mut errs);
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::crd::tests::crontab_type;
    use serde_json::json;

    #[test]
    fn custom_resources_are_checked_against_the_schema() {
        let t = crontab_type();
        let schema = t.schema.as_deref().unwrap_or(&Value::Null);
        let ok = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
            "spec": {"cronSpec": "* * * * */5"}});
        assert!(custom_resource(schema, &ok).is_empty());
        let bad = json!({"metadata": {"name": "x"}, "spec": {"replicas": "two", "mode": "c"}});
        let errs = custom_resource(schema, &bad);
        let fields: Vec<(&str, &str)> = errs
            .iter()
            .map(|e| (e.field.as_str(), e.kind.reason()))
            .collect();
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
                .map(FieldError::body),
            Some(
                "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"".to_string()
            )
        );
    }
}
