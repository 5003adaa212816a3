//! rbac.authorization.k8s.io/v1 Roles, ClusterRoles and their bindings, validated as
//! `pkg/apis/rbac/validation` does (names are path segments; rules need verbs, groups
//! and resources; a binding's roleRef is fixed once created).

use serde_json::{Value, json};

use super::super::field_errors::{FieldError, object_meta, path_segment};
use super::super::store::str_at;

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

fn list(v: &Value, key: &str) -> Vec<Value> {
    v.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Validation of a Role (`namespaced`) or ClusterRole.
pub fn validate_role(obj: &Value, namespaced: bool, errs: &mut Vec<FieldError>) {
    object_meta(obj, path_segment, errs);
    for (i, rule) in list(obj, "rules").iter().enumerate() {
        let f = |k: &str| format!("rules[{i}].{k}");
        let urls = list(rule, "nonResourceURLs");
        if list(rule, "verbs").is_empty() {
            errs.push(FieldError::required(
                f("verbs"),
                "verbs must contain at least one value",
            ));
        }
        if namespaced && !urls.is_empty() {
            errs.push(FieldError::invalid(
                f("nonResourceURLs"),
                &Value::Array(urls.clone()),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !urls.is_empty() {
            if !list(rule, "apiGroups").is_empty() || !list(rule, "resources").is_empty() {
                errs.push(FieldError::invalid(
                    f("nonResourceURLs"),
                    &Value::Array(urls),
                    "rules cannot apply to both regular resources and non-resource URLs",
                ));
            }
            continue;
        }
        if list(rule, "apiGroups").is_empty() {
            errs.push(FieldError::required(
                f("apiGroups"),
                "resource rules must supply at least one api group",
            ));
        }
        if list(rule, "resources").is_empty() {
            errs.push(FieldError::required(
                f("resources"),
                "resource rules must supply at least one resource",
            ));
        }
    }
}

/// Defaults of a binding: User and Group subjects get the RBAC API group.
pub fn binding_defaults(obj: &mut Value) {
    for s in obj
        .get_mut("subjects")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let kind = str_at(s, "/kind");
        if (kind == "User" || kind == "Group") && s.get("apiGroup").is_none() {
            s["apiGroup"] = json!(RBAC_GROUP);
        }
    }
}

/// Validation of a RoleBinding (`namespaced`) or ClusterRoleBinding.
pub fn validate_binding(
    obj: &Value,
    old: Option<&Value>,
    namespaced: bool,
    errs: &mut Vec<FieldError>,
) {
    object_meta(obj, path_segment, errs);
    let role_group = str_at(obj, "/roleRef/apiGroup");
    if role_group != RBAC_GROUP {
        errs.push(FieldError::not_supported(
            "roleRef.apiGroup",
            &json!(role_group),
            &[RBAC_GROUP],
        ));
    }
    let role_kind = str_at(obj, "/roleRef/kind");
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&role_kind.as_str()) {
        errs.push(FieldError::not_supported(
            "roleRef.kind",
            &json!(role_kind),
            kinds,
        ));
    }
    let role_name = str_at(obj, "/roleRef/name");
    if role_name.is_empty() {
        errs.push(FieldError::required("roleRef.name", ""));
    } else {
        for m in path_segment(&role_name) {
            errs.push(FieldError::invalid("roleRef.name", &json!(role_name), &m));
        }
    }
    for (i, s) in list(obj, "subjects").iter().enumerate() {
        let f = |k: &str| format!("subjects[{i}].{k}");
        let name = str_at(s, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(f("name"), ""));
        }
        let group = str_at(s, "/apiGroup");
        match str_at(s, "/kind").as_str() {
            "ServiceAccount" => {
                if !group.is_empty() {
                    errs.push(FieldError::not_supported(
                        f("apiGroup"),
                        &json!(group),
                        &[""],
                    ));
                }
                if !namespaced && str_at(s, "/namespace").is_empty() {
                    errs.push(FieldError::required(f("namespace"), ""));
                }
            }
            "User" | "Group" => {
                if group != RBAC_GROUP {
                    errs.push(FieldError::not_supported(
                        f("apiGroup"),
                        &json!(group),
                        &[RBAC_GROUP],
                    ));
                }
            }
            other => errs.push(FieldError::not_supported(
                f("kind"),
                &json!(other),
                &["ServiceAccount", "User", "Group"],
            )),
        }
    }
    if let Some(old) = old
        && old.get("roleRef") != obj.get("roleRef")
    {
        errs.push(FieldError::invalid(
            "roleRef",
            obj.get("roleRef").unwrap_or(&Value::Null),
            "cannot change roleRef",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_bindings_are_checked() {
        let mut errs = Vec::new();
        validate_role(
            &json!({"metadata": {"name": "r"}, "rules": [{"apiGroups": [""], "resources": ["pods"]},
                {"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]}),
            true,
            &mut errs,
        );
        let f: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(f, ["rules[0].verbs", "rules[1].nonResourceURLs"]);
        let mut b = json!({"metadata": {"name": "b"}, "roleRef": {"apiGroup": RBAC_GROUP, "kind": "Role", "name": "r"},
            "subjects": [{"kind": "User", "name": "viewer"}, {"kind": "ServiceAccount", "name": "sa"}]});
        binding_defaults(&mut b);
        let mut errs = Vec::new();
        validate_binding(&b, None, true, &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
        let mut errs = Vec::new();
        validate_binding(&b, None, false, &mut errs);
        let f: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(f, ["roleRef.kind", "subjects[1].namespace"]);
        let mut changed = b.clone();
        changed["roleRef"]["name"] = json!("other");
        let mut errs = Vec::new();
        validate_binding(&changed, Some(&b), true, &mut errs);
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message.contains("cannot change roleRef"));
    }
}
