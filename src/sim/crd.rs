//! CustomResourceDefinitions: the controller that establishes them (its kind then is
//! served through the same store as every built-in kind, and discovery lists it) and
//! tears them down (custom resources deleted, kind withdrawn), and the validation of a
//! CRD. Custom resources are checked against their schema in [`super::crd_schema`].

use std::sync::Arc;

use serde_json::{Value, json};

use super::field_errors::FieldError;
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
pub(crate) mod tests {
    use super::*;

    pub(crate) fn crontab_type() -> ResourceType {
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
