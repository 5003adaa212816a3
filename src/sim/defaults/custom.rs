//! Custom resources pruned as the API server prunes them on every write: the fields
//! their CustomResourceDefinition's structural schema does not declare are dropped
//! (apiVersion, kind and metadata are every object's and stay).

use serde_json::{Map, Value};

use super::super::resource::ResourceType;

/// The fields every object has, which a CRD's schema does not describe.
const OBJECT_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// Prunes a custom resource of type `rt` by its schema (nothing without one).
pub fn prune_custom(rt: &ResourceType, obj: &mut Value) {
    let (Some(schema), Some(map)) = (rt.schema.as_deref(), obj.as_object_mut()) else {
        return;
    };
    let keep: Map<String, Value> = OBJECT_FIELDS
        .iter()
        .filter_map(|k| map.remove(*k).map(|v| (k.to_string(), v)))
        .collect();
    let mut rest = Value::Object(std::mem::take(map));
    prune(&mut rest, schema);
    if let Value::Object(r) = rest {
        map.extend(r);
    }
    map.extend(keep);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::crd::tests::crontab_type;
    use serde_json::json;

    #[test]
    fn fields_the_schema_does_not_declare_are_pruned() {
        let t = crontab_type();
        let mut obj = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
            "spec": {"cronSpec": "* * * * */5", "unknown": 1}, "status": {"anything": true}});
        prune_custom(&t, &mut obj);
        assert_eq!(
            obj.pointer("/spec/unknown"),
            None,
            "unknown fields are pruned"
        );
        assert_eq!(obj.pointer("/spec/cronSpec"), Some(&json!("* * * * */5")));
        assert_eq!(obj.pointer("/metadata/name"), Some(&json!("x")));
        assert_eq!(obj.pointer("/status/anything"), Some(&json!(true)));
    }
}
