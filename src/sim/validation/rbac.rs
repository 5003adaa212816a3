//! rbac.authorization.k8s.io/v1 Roles, ClusterRoles and their bindings
//! (`pkg/apis/rbac/validation`): rules need verbs, groups and resources; a binding
//! names a role of the right kind and subjects it can hold; its roleRef is fixed once
//! created. (Their names are path segments: see the rules table.)

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};
use super::json::{items, text};
use super::names::is_path_segment_name;
use super::require;

/// The API group of RBAC, and of User and Group subjects.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

fn policy_rules(obj: &Value, namespaced: bool) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, rule) in items(obj, "rules").iter().enumerate() {
        let f = |k: &str| format!("rules[{i}].{k}");
        let urls = items(rule, "nonResourceURLs");
        errs.extend(verbs(rule, &f("")));
        if namespaced && !urls.is_empty() {
            errs.push(FieldError::invalid(
                f("nonResourceURLs"),
                &Value::Array(urls.to_vec()),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !urls.is_empty() {
            if !items(rule, "apiGroups").is_empty() || !items(rule, "resources").is_empty() {
                errs.push(FieldError::invalid(
                    f("nonResourceURLs"),
                    &Value::Array(urls.to_vec()),
                    "rules cannot apply to both regular resources and non-resource URLs",
                ));
            }
            continue;
        }
        errs.extend(resource_rule(rule, &f("")));
    }
    errs
}

/// A rule's verbs (RBAC and flow-control rules alike); `path` ends with `.`.
pub fn verbs(rule: &Value, path: &str) -> Option<FieldError> {
    require::listed(
        items(rule, "verbs"),
        format!("{path}verbs"),
        "verbs must contain at least one value",
    )
}

/// A resource rule's API groups and resources (flow-control resource rules word these
/// as RBAC rules do); `path` is the rule's, ending with `.`.
pub fn resource_rule(rule: &Value, path: &str) -> ErrorList {
    [
        require::listed(
            items(rule, "apiGroups"),
            format!("{path}apiGroups"),
            "resource rules must supply at least one api group",
        ),
        require::listed(
            items(rule, "resources"),
            format!("{path}resources"),
            "resource rules must supply at least one resource",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A Role (`ValidateRole`).
pub fn role(obj: &Value) -> ErrorList {
    policy_rules(obj, true)
}

/// A ClusterRole (`ValidateClusterRole`).
pub fn cluster_role(obj: &Value) -> ErrorList {
    policy_rules(obj, false)
}

fn binding(obj: &Value, namespaced: bool) -> ErrorList {
    let mut errs = ErrorList::new();
    errs.extend(require::supported(
        text(obj, "/roleRef/apiGroup"),
        "roleRef.apiGroup",
        &[RBAC_GROUP],
    ));
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    errs.extend(require::supported(
        text(obj, "/roleRef/kind"),
        "roleRef.kind",
        kinds,
    ));
    let role_name = text(obj, "/roleRef/name");
    if role_name.is_empty() {
        errs.push(FieldError::required("roleRef.name", ""));
    } else {
        errs.extend(require::valid(role_name, "roleRef.name", |n| {
            is_path_segment_name(n, false)
        }));
    }
    for (i, s) in items(obj, "subjects").iter().enumerate() {
        let f = |k: &str| format!("subjects[{i}].{k}");
        errs.extend(require::set(text(s, "/name"), f("name"), ""));
        let group = text(s, "/apiGroup");
        match text(s, "/kind") {
            "ServiceAccount" => {
                errs.extend(require::supported(group, f("apiGroup"), &[""]));
                if !namespaced {
                    errs.extend(require::set(text(s, "/namespace"), f("namespace"), ""));
                }
            }
            "User" | "Group" => {
                errs.extend(require::supported(group, f("apiGroup"), &[RBAC_GROUP]));
            }
            other => errs.push(FieldError::not_supported(
                f("kind"),
                BadValue::Str(other.into()),
                &["ServiceAccount", "User", "Group"],
            )),
        }
    }
    errs
}

/// A RoleBinding (`ValidateRoleBinding`).
pub fn role_binding(obj: &Value) -> ErrorList {
    binding(obj, true)
}

/// A ClusterRoleBinding (`ValidateClusterRoleBinding`).
pub fn cluster_role_binding(obj: &Value) -> ErrorList {
    binding(obj, false)
}

fn role_ref_kept(new: &Value, old: &Value) -> ErrorList {
    if old.get("roleRef") == new.get("roleRef") {
        return Vec::new();
    }
    vec![FieldError::invalid(
        "roleRef",
        new.get("roleRef").unwrap_or(&Value::Null),
        "cannot change roleRef",
    )]
}

/// A RoleBinding update: valid, and the same roleRef.
pub fn role_binding_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = role_binding(new);
    errs.extend(role_ref_kept(new, old));
    errs
}

/// A ClusterRoleBinding update: valid, and the same roleRef.
pub fn cluster_role_binding_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = cluster_role_binding(new);
    errs.extend(role_ref_kept(new, old));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(errs: &ErrorList) -> Vec<&str> {
        errs.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn rules_and_bindings_are_checked() {
        let errs = role(
            &json!({"metadata": {"name": "r"}, "rules": [{"apiGroups": [""], "resources": ["pods"]},
                {"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]}),
        );
        assert_eq!(
            fields(&errs),
            ["rules[0].verbs", "rules[1].nonResourceURLs"]
        );
        // Subjects as defaulting leaves them: User and Group with the RBAC group.
        let b = json!({"metadata": {"name": "b"}, "roleRef": {"apiGroup": RBAC_GROUP, "kind": "Role", "name": "r"},
            "subjects": [{"kind": "User", "name": "viewer", "apiGroup": RBAC_GROUP}, {"kind": "ServiceAccount", "name": "sa"}]});
        assert!(role_binding(&b).is_empty());
        assert_eq!(
            fields(&cluster_role_binding(&b)),
            ["roleRef.kind", "subjects[1].namespace"]
        );
        let mut changed = b.clone();
        changed["roleRef"]["name"] = json!("other");
        let errs = role_binding_update(&changed, &b);
        assert_eq!(errs.len(), 1);
        assert!(errs[0].body().contains("cannot change roleRef"));
    }
}
