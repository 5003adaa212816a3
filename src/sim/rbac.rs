//! Authorization by the RBAC objects each cluster stores (ClusterRoles, Roles and their
//! bindings), as the API server's RBAC authorizer decides, and the bootstrap objects the
//! simulator creates: the system roles every authenticated user is bound to (discovery,
//! health, self-reviews) and one binding per simulator user with access.

use std::sync::Arc;

use serde_json::{Value, json};

use super::auth::{Access, Attributes, SimUser};
use super::resource::Kind;
use super::store::{Store, str_at};

/// One policy rule.
#[derive(Debug, Clone, Default)]
struct Rule {
    verbs: Vec<String>,
    groups: Vec<String>,
    resources: Vec<String>,
    names: Vec<String>,
    urls: Vec<String>,
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

impl Rule {
    fn of(v: &Value) -> Rule {
        Rule {
            verbs: strings(v, "verbs"),
            groups: strings(v, "apiGroups"),
            resources: strings(v, "resources"),
            names: strings(v, "resourceNames"),
            urls: strings(v, "nonResourceURLs"),
        }
    }

    fn allows(&self, a: &Attributes) -> bool {
        let any = |list: &[String], x: &str| list.iter().any(|e| e == "*" || e == x);
        match a {
            Attributes::Resource {
                verb,
                group,
                resource,
                subresource,
                name,
                ..
            } => {
                let full = if subresource.is_empty() {
                    resource.clone()
                } else {
                    format!("{resource}/{subresource}")
                };
                any(&self.verbs, verb)
                    && any(&self.groups, group)
                    && self.resources.iter().any(|r| {
                        r == "*"
                            || *r == full
                            || (!subresource.is_empty()
                                && (*r == format!("{resource}/*")
                                    || *r == format!("*/{subresource}")))
                    })
                    && (self.names.is_empty() || self.names.iter().any(|n| n == name))
            }
            Attributes::NonResource { verb, path } => {
                any(&self.verbs, verb)
                    && self.urls.iter().any(|u| {
                        u == path
                            || u.strip_suffix('*')
                                .is_some_and(|prefix| path.starts_with(prefix))
                    })
            }
        }
    }
}

/// A binding of subjects to a role.
#[derive(Debug, Clone)]
struct Binding {
    /// `ClusterRoleBinding "x"` or `RoleBinding "x/ns"`, as reasons name it.
    describe: String,
    /// Namespace of a RoleBinding ("" for a ClusterRoleBinding).
    namespace: String,
    role_kind: String,
    role_name: String,
    /// `(kind, name, namespace)` of each subject.
    subjects: Vec<(String, String, String)>,
}

/// The parsed RBAC objects of a cluster, rebuilt when any of them changes.
#[derive(Debug, Default)]
pub struct Policy {
    versions: [u64; 4],
    cluster_roles: Vec<(String, Vec<Rule>)>,
    roles: Vec<(String, String, Vec<Rule>)>,
    bindings: Vec<Binding>,
}

const SLOTS: [Kind; 4] = [
    Kind::CLUSTER_ROLE,
    Kind::CLUSTER_ROLE_BINDING,
    Kind::ROLE,
    Kind::ROLE_BINDING,
];

fn versions(store: &Store) -> [u64; 4] {
    SLOTS.map(|k| store.slot_version(k))
}

fn rules(v: &Value) -> Vec<Rule> {
    v.get("rules")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(Rule::of).collect())
        .unwrap_or_default()
}

impl Policy {
    /// The policy of `store`, reusing `cached` when nothing changed.
    pub fn current(store: &Store, cached: Option<&Arc<Policy>>) -> Arc<Policy> {
        let v = versions(store);
        if let Some(c) = cached.filter(|c| c.versions == v) {
            return c.clone();
        }
        let mut p = Policy {
            versions: v,
            ..Policy::default()
        };
        for r in store.values(Kind::CLUSTER_ROLE, None) {
            p.cluster_roles
                .push((str_at(&r, "/metadata/name"), rules(&r)));
        }
        for r in store.values(Kind::ROLE, None) {
            p.roles.push((
                str_at(&r, "/metadata/namespace"),
                str_at(&r, "/metadata/name"),
                rules(&r),
            ));
        }
        for (kind, slot) in [
            ("ClusterRoleBinding", Kind::CLUSTER_ROLE_BINDING),
            ("RoleBinding", Kind::ROLE_BINDING),
        ] {
            for b in store.values(slot, None) {
                let ns = str_at(&b, "/metadata/namespace");
                let name = str_at(&b, "/metadata/name");
                let subjects = b
                    .get("subjects")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|s| {
                                (
                                    str_at(s, "/kind"),
                                    str_at(s, "/name"),
                                    str_at(s, "/namespace"),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                p.bindings.push(Binding {
                    describe: if ns.is_empty() {
                        format!("{kind} \"{name}\"")
                    } else {
                        format!("{kind} \"{name}/{ns}\"")
                    },
                    namespace: ns,
                    role_kind: str_at(&b, "/roleRef/kind"),
                    role_name: str_at(&b, "/roleRef/name"),
                    subjects,
                });
            }
        }
        Arc::new(p)
    }

    fn role_rules(&self, b: &Binding) -> Option<&[Rule]> {
        if b.role_kind == "ClusterRole" {
            self.cluster_roles
                .iter()
                .find(|(n, _)| *n == b.role_name)
                .map(|(_, r)| r.as_slice())
        } else {
            self.roles
                .iter()
                .find(|(ns, n, _)| *ns == b.namespace && *n == b.role_name)
                .map(|(_, _, r)| r.as_slice())
        }
    }

    /// Whether `user` may do what `a` describes; when allowed, the reason as the RBAC
    /// authorizer words it.
    pub fn allows(&self, user: &SimUser, a: &Attributes) -> Option<String> {
        let groups = user.all_groups();
        let namespace = match a {
            Attributes::Resource { namespace, .. } => namespace.as_str(),
            Attributes::NonResource { .. } => "",
        };
        for b in &self.bindings {
            // A RoleBinding grants only inside its namespace, and never non-resource URLs.
            if !b.namespace.is_empty()
                && (b.namespace != namespace || matches!(a, Attributes::NonResource { .. }))
            {
                continue;
            }
            let subject = b
                .subjects
                .iter()
                .find(|(kind, name, _)| match kind.as_str() {
                    "User" => *name == user.name,
                    "Group" => groups.iter().any(|g| g == name),
                    _ => false,
                });
            let Some((skind, sname, _)) = subject else {
                continue;
            };
            let Some(rules) = self.role_rules(b) else {
                continue;
            };
            if rules.iter().any(|r| r.allows(a)) {
                return Some(format!(
                    "RBAC: allowed by {} of {} \"{}\" to {} \"{}\"",
                    b.describe, b.role_kind, b.role_name, skind, sname
                ));
            }
        }
        None
    }

    /// The rules that apply to `user` in `namespace` (SelfSubjectRulesReview).
    pub fn rules_for(&self, user: &SimUser, namespace: &str) -> (Vec<Value>, Vec<Value>) {
        let groups = user.all_groups();
        let mut resource = Vec::new();
        let mut non_resource = Vec::new();
        for b in &self.bindings {
            if !b.namespace.is_empty() && b.namespace != namespace {
                continue;
            }
            let bound = b
                .subjects
                .iter()
                .any(|(kind, name, _)| match kind.as_str() {
                    "User" => *name == user.name,
                    "Group" => groups.iter().any(|g| g == name),
                    _ => false,
                });
            if !bound {
                continue;
            }
            for r in self.role_rules(b).unwrap_or_default() {
                if r.urls.is_empty() {
                    let mut v =
                        json!({"verbs": r.verbs, "apiGroups": r.groups, "resources": r.resources});
                    if !r.names.is_empty() {
                        v["resourceNames"] = json!(r.names);
                    }
                    resource.push(v);
                } else if b.namespace.is_empty() {
                    non_resource.push(json!({"verbs": r.verbs, "nonResourceURLs": r.urls}));
                }
            }
        }
        (resource, non_resource)
    }
}

fn cluster_role(name: &str, rules: Value, ts: &str) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": name, "creationTimestamp": ts,
            "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"},
            "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
        "rules": rules})
}

fn cluster_role_binding(name: &str, role: &str, subjects: Value, ts: &str) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": name, "creationTimestamp": ts,
            "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"},
            "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": subjects})
}

fn group(name: &str) -> Value {
    json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": name})
}

/// The RBAC objects a cluster starts with: the system roles and their bindings, and a
/// ClusterRoleBinding per user with `Full` or `Read` access.
pub fn bootstrap(users: &[SimUser], ts: &str) -> Vec<(Kind, Value)> {
    let public = ["/healthz", "/livez", "/readyz", "/version", "/version/"];
    let mut out = vec![
        (
            Kind::CLUSTER_ROLE,
            cluster_role(
                "cluster-admin",
                json!([{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
                    {"nonResourceURLs": ["*"], "verbs": ["*"]}]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE,
            cluster_role(
                "fleetdeck-sim:read-only",
                json!([{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get", "list", "watch"]},
                    {"nonResourceURLs": ["*"], "verbs": ["get"]}]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE,
            cluster_role(
                "system:discovery",
                json!([{"nonResourceURLs": ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
                    "/openapi", "/openapi/*", "/readyz", "/version", "/version/"], "verbs": ["get"]}]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE,
            cluster_role(
                "system:public-info-viewer",
                json!([{"nonResourceURLs": public, "verbs": ["get"]}]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE,
            cluster_role(
                "system:basic-user",
                json!([{"apiGroups": ["authorization.k8s.io"], "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], "verbs": ["create"]},
                    {"apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"], "verbs": ["create"]}]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE_BINDING,
            cluster_role_binding(
                "cluster-admin",
                "cluster-admin",
                json!([group("system:masters")]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE_BINDING,
            cluster_role_binding(
                "system:discovery",
                "system:discovery",
                json!([group("system:authenticated")]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE_BINDING,
            cluster_role_binding(
                "system:public-info-viewer",
                "system:public-info-viewer",
                json!([
                    group("system:authenticated"),
                    group("system:unauthenticated")
                ]),
                ts,
            ),
        ),
        (
            Kind::CLUSTER_ROLE_BINDING,
            cluster_role_binding(
                "system:basic-user",
                "system:basic-user",
                json!([group("system:authenticated")]),
                ts,
            ),
        ),
    ];
    for u in users {
        let role = match u.access {
            Access::Full => "cluster-admin",
            Access::Read => "fleetdeck-sim:read-only",
            Access::None => continue,
        };
        let mut b = cluster_role_binding(
            &format!("fleetdeck-sim:{}", u.name),
            role,
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": u.name}]),
            ts,
        );
        if let Some(m) = b["metadata"].as_object_mut() {
            m.remove("labels");
            m.remove("annotations");
        }
        out.push((Kind::CLUSTER_ROLE_BINDING, b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(verb: &str, group: &str, resource: &str, sub: &str, ns: &str) -> Attributes {
        Attributes::Resource {
            verb: verb.into(),
            group: group.into(),
            resource: resource.into(),
            subresource: sub.into(),
            namespace: ns.into(),
            name: String::new(),
        }
    }

    #[test]
    fn builtin_users_get_what_their_bindings_grant() {
        let users = SimUser::builtins();
        let mut store = Store::new(1, 10);
        for (k, mut o) in bootstrap(&users, "t") {
            o["metadata"]["uid"] = json!("u");
            store.put(k, o);
        }
        let p = Policy::current(&store, None);
        let (admin, viewer, nobody) = (&users[0], &users[1], &users[2]);
        let create = res("create", "", "pods", "", "default");
        assert!(
            p.allows(admin, &create)
                .is_some_and(|r| r.contains("ClusterRoleBinding \"fleetdeck-sim:admin\""))
        );
        assert!(p.allows(viewer, &create).is_none());
        assert!(
            p.allows(viewer, &res("list", "apps", "deployments", "", ""))
                .is_some()
        );
        assert!(
            p.allows(nobody, &res("get", "", "pods", "", "default"))
                .is_none()
        );
        let review = res(
            "create",
            "authorization.k8s.io",
            "selfsubjectaccessreviews",
            "",
            "",
        );
        assert!(p.allows(nobody, &review).is_some());
        let readyz = Attributes::NonResource {
            verb: "get".into(),
            path: "/readyz".into(),
        };
        assert!(p.allows(nobody, &readyz).is_some());
        let again = Policy::current(&store, Some(&p));
        assert!(
            Arc::ptr_eq(&again, &p),
            "unchanged objects reuse the parsed policy"
        );
    }

    #[test]
    fn rules_match_subresources_and_names() {
        let r = Rule::of(&json!({"verbs": ["create"], "apiGroups": [""], "resources": ["pods/*"]}));
        assert!(r.allows(&res("create", "", "pods", "eviction", "a")));
        assert!(!r.allows(&res("create", "", "pods", "", "a")));
        let named = Rule::of(
            &json!({"verbs": ["get"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["x"]}),
        );
        let mut a = res("get", "", "configmaps", "", "a");
        assert!(!named.allows(&a));
        if let Attributes::Resource { name, .. } = &mut a {
            *name = "x".into();
        }
        assert!(named.allows(&a));
    }
}
