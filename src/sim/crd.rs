//! CustomResourceDefinitions: the controller that establishes them (its kind then is
//! served through the same store as every built-in kind, and discovery lists it) and
//! tears them down (custom resources deleted, kind withdrawn), the validation of a CRD,
//! and the validation of custom resources against the structural `openAPIV3Schema`
//! (unknown fields pruned, types, required fields, enums, bounds, patterns).

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::field_errors::{FieldError, quoted};
use super::fleet::{Cluster, ClusterState};
use super::resource::{Kind, ResourceType, Storage};
use super::store::str_at;

/// The finalizer that holds a deleted CRD until its custom resources are gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The types a CRD serves (one per served version), in `slot`.
pub fn served_types(crd: &Value, slot: Kind) -> Vec<ResourceType> {
    let group = str_at(crd, "/spec/group");
    let names = crd.pointer("/spec/names").cloned().unwrap_or(Value::Null);
    let kind = str_at(&names, "/kind");
    let list_kind = Some(str_at(&names, "/listKind"))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("{kind}List"));
    let singular = Some(str_at(&names, "/singular"))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| kind.to_ascii_lowercase());
    let namespaced = str_at(crd, "/spec/scope") != "Cluster";
    crd.pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.get("served").and_then(Value::as_bool) != Some(false))
        .map(|v| ResourceType {
            slot,
            group: group.clone(),
            version: str_at(v, "/name"),
            kind: kind.clone(),
            list_kind: list_kind.clone(),
            plural: str_at(&names, "/plural"),
            singular: singular.clone(),
            short_names: strings(names.get("shortNames")),
            categories: strings(names.get("categories")),
            namespaced,
            status: v.pointer("/subresources/status").is_some(),
            scale: false,
            generation: true,
            unconditional_update: true,
            storage: Storage::Stored,
            schema: v.pointer("/schema/openAPIV3Schema").cloned().map(Arc::new),
            custom: true,
        })
        .collect()
}

fn set_condition(
    crd: &mut Value,
    ctype: &str,
    status: &str,
    reason: &str,
    message: &str,
    ts: &str,
) {
    super::objects::set_condition(crd, ctype, status, reason, message, ts);
    if let Some(c) = crd["status"]["conditions"]
        .as_array_mut()
        .and_then(|l| l.iter_mut().find(|c| c["type"] == ctype))
        .and_then(Value::as_object_mut)
    {
        c.remove("lastHeartbeatTime");
    }
}

/// Establishes new or changed CRDs and tears down deleted ones. Returns whether
/// anything changed.
pub fn reconcile(cluster: &Cluster, st: &mut ClusterState) -> bool {
    if st.store.count(Kind::CUSTOM_RESOURCE_DEFINITION) == 0
        && st.registry.all().iter().all(|t| !t.custom)
    {
        return false;
    }
    let mut changed = false;
    let now = cluster.clock.now_rfc3339();
    let crds = st.store.values(Kind::CUSTOM_RESOURCE_DEFINITION, None);
    let mut registry = (*st.registry).clone();
    let mut live_slots = Vec::new();
    for mut crd in crds {
        let name = str_at(&crd, "/metadata/name");
        let group = str_at(&crd, "/spec/group");
        let plural = str_at(&crd, "/spec/names/plural");
        let slot = registry.slot_for(&group, &plural);
        if super::objects::deleting(&crd) {
            // Custom resources go first, then the kind, then the CRD.
            let keys: Vec<(String, String)> = st
                .store
                .iter(slot, None, None)
                .map(|(k, _)| k.clone())
                .collect();
            for (ns, n) in keys {
                st.store.remove(slot, &ns, &n);
            }
            registry.withdraw(slot);
            if let Some(list) = crd
                .pointer_mut("/metadata/finalizers")
                .and_then(Value::as_array_mut)
            {
                list.retain(|f| f != CLEANUP_FINALIZER);
            }
            if crd
                .pointer("/metadata/finalizers")
                .and_then(Value::as_array)
                .is_none_or(|f| f.is_empty())
            {
                st.store.remove(Kind::CUSTOM_RESOURCE_DEFINITION, "", &name);
            } else {
                st.store.put(Kind::CUSTOM_RESOURCE_DEFINITION, crd);
            }
            changed = true;
            continue;
        }
        live_slots.push(slot);
        let kind = str_at(&crd, "/spec/names/kind");
        let conflict = registry
            .all()
            .iter()
            .any(|t| t.slot != slot && t.group == group && t.kind == kind);
        let before = crd.clone();
        if conflict {
            set_condition(
                &mut crd,
                "NamesAccepted",
                "False",
                "KindConflict",
                &format!("\"{kind}\" is already in use"),
                &now,
            );
            set_condition(
                &mut crd,
                "Established",
                "False",
                "NotAccepted",
                "not all names are accepted",
                &now,
            );
        } else {
            let types = served_types(&crd, slot);
            let fresh = registry.of_slot(slot).next().is_none();
            registry.serve(slot, types);
            let mut accepted = crd.pointer("/spec/names").cloned().unwrap_or(json!({}));
            if accepted.get("listKind").is_none() {
                accepted["listKind"] = json!(format!("{kind}List"));
            }
            if accepted.get("singular").is_none() {
                accepted["singular"] = json!(kind.to_ascii_lowercase());
            }
            crd["status"]["acceptedNames"] = accepted;
            set_condition(
                &mut crd,
                "NamesAccepted",
                "True",
                "NoConflicts",
                "no conflicts found",
                &now,
            );
            set_condition(
                &mut crd,
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted",
                &now,
            );
            let storage = crd
                .pointer("/spec/versions")
                .and_then(Value::as_array)
                .and_then(|vs| {
                    vs.iter()
                        .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
                })
                .map(|v| str_at(v, "/name"))
                .unwrap_or_default();
            let mut stored = strings(crd.pointer("/status/storedVersions"));
            if !storage.is_empty() && !stored.contains(&storage) {
                stored.push(storage);
            }
            crd["status"]["storedVersions"] = json!(stored);
            if fresh {
                for t in registry.of_slot(slot) {
                    let svc = format!("{}.{}", t.version, t.group);
                    if st.store.get(Kind::API_SERVICE, "", &svc).is_none() {
                        let mut obj =
                            super::system::local_api_service(&t.group, &t.version, &now, true);
                        obj["metadata"]["uid"] = json!(st.store.new_uid());
                        st.store.put(Kind::API_SERVICE, obj);
                    }
                }
            }
        }
        if crd != before {
            st.store.put(Kind::CUSTOM_RESOURCE_DEFINITION, crd);
            changed = true;
        }
    }
    // Kinds whose CRD vanished without the cleanup finalizer.
    let orphaned: Vec<Kind> = registry
        .all()
        .iter()
        .filter(|t| t.custom && !live_slots.contains(&t.slot))
        .map(|t| t.slot)
        .collect();
    for slot in orphaned {
        registry.withdraw(slot);
        changed = true;
    }
    if changed {
        st.registry = Arc::new(registry);
    }
    changed
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

/// Validates a CustomResourceDefinition (the rules a client most often breaks).
pub fn validate_definition(crd: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(crd, "/metadata/name");
    let group = str_at(crd, "/spec/group");
    let plural = str_at(crd, "/spec/names/plural");
    let kind = str_at(crd, "/spec/names/kind");
    if name != format!("{plural}.{group}") {
        errs.push(FieldError::invalid(
            "metadata.name",
            &json!(name),
            "must be spec.names.plural+\".\"+spec.group",
        ));
    }
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else if !group.contains('.') {
        errs.push(FieldError::invalid(
            "spec.group",
            &json!(group),
            "should be a domain with at least one dot",
        ));
    }
    if plural.is_empty() {
        errs.push(FieldError::required("spec.names.plural", ""));
    } else {
        for m in super::field_errors::dns1035_label(&plural) {
            errs.push(FieldError::invalid("spec.names.plural", &json!(plural), &m));
        }
    }
    if kind.is_empty() {
        errs.push(FieldError::required("spec.names.kind", ""));
    }
    let scope = str_at(crd, "/spec/scope");
    if !["Cluster", "Namespaced"].contains(&scope.as_str()) {
        errs.push(if scope.is_empty() {
            FieldError::required("spec.scope", "")
        } else {
            FieldError::not_supported("spec.scope", &json!(scope), &["Cluster", "Namespaced"])
        });
    }
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if versions.is_empty() {
        errs.push(FieldError::invalid(
            "spec.versions",
            &json!(versions),
            "must have exactly one version marked as storage version",
        ));
    } else {
        let storage = versions
            .iter()
            .filter(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
            .count();
        if storage != 1 {
            errs.push(FieldError::invalid(
                "spec.versions",
                &Value::Array(versions.clone()),
                "must have exactly one version marked as storage version",
            ));
        }
        for (i, v) in versions.iter().enumerate() {
            let vname = str_at(v, "/name");
            if vname.is_empty() {
                errs.push(FieldError::required(format!("spec.versions[{i}].name"), ""));
            }
            match v.pointer("/schema/openAPIV3Schema") {
                None => errs.push(FieldError::required(
                    format!("spec.versions[{i}].schema.openAPIV3Schema"),
                    "schemas are required",
                )),
                Some(s) if s.get("type").and_then(Value::as_str) != Some("object") => {
                    errs.push(FieldError::invalid(
                        format!("spec.versions[{i}].schema.openAPIV3Schema.type"),
                        &s.get("type").cloned().unwrap_or(json!("")),
                        "must be object at the root",
                    ))
                }
                Some(_) => {}
            }
        }
    }
    if let Some(old) = old {
        for f in ["/spec/group", "/spec/names/plural", "/spec/scope"] {
            if old.pointer(f) != crd.pointer(f) && f == "/spec/group" {
                errs.push(FieldError::invalid(
                    "spec.group",
                    &json!(group),
                    "field is immutable",
                ));
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crontab_type() -> ResourceType {
        let crd = json!({"spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab", "shortNames": ["ct"]},
            "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "required": ["cronSpec"], "properties": {
                        "cronSpec": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1},
                        "mode": {"type": "string", "enum": ["a", "b"]}}},
                    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}});
        let mut types = served_types(&crd, Kind(40));
        types.remove(0)
    }

    #[test]
    fn served_types_follow_the_definition() {
        let t = crontab_type();
        assert_eq!(
            (t.kind.as_str(), t.list_kind.as_str(), t.singular.as_str()),
            ("CronTab", "CronTabList", "crontab")
        );
        assert!(t.namespaced && t.status && t.custom);
        assert_eq!(t.api_version(), "stable.example.com/v1");
    }

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

    #[test]
    fn a_definition_must_name_itself_after_its_plural_and_group() {
        let crd = json!({"metadata": {"name": "wrong"}, "spec": {"group": "example", "scope": "Namespaced",
            "names": {"plural": "things", "kind": "Thing"}, "versions": [{"name": "v1", "served": true, "storage": false}]}});
        let fields: Vec<String> = validate_definition(&crd, None)
            .into_iter()
            .map(|e| e.field)
            .collect();
        for f in [
            "metadata.name",
            "spec.group",
            "spec.versions",
            "spec.versions[0].schema.openAPIV3Schema",
        ] {
            assert!(fields.iter().any(|x| x == f), "{f}: {fields:?}");
        }
    }
}
