//! rbac.authorization.k8s.io/v1 binding defaults (`pkg/apis/rbac/v1/defaults.go`):
//! User and Group subjects get the RBAC API group.

use serde_json::{Value, json};

use super::super::store::str_at;

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_and_group_subjects_get_the_rbac_group() {
        let mut b = json!({"subjects": [{"kind": "User", "name": "viewer"}, {"kind": "ServiceAccount", "name": "sa"},
            {"kind": "Group", "name": "ops", "apiGroup": "example.com"}]});
        binding_defaults(&mut b);
        assert_eq!(b["subjects"][0]["apiGroup"], RBAC_GROUP);
        assert_eq!(b["subjects"][1].get("apiGroup"), None);
        assert_eq!(b["subjects"][2]["apiGroup"], "example.com");
    }
}
