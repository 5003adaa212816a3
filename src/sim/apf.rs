//! API priority and fairness, as far as a client can see it: the FlowSchemas and
//! PriorityLevelConfigurations a real API server bootstraps (exempt, probes,
//! system-*, workload-*, global-default, catch-all …), and the classification of each
//! request — the first FlowSchema in matchingPrecedence order whose rules match the
//! request's user and attributes — reported in the `X-Kubernetes-PF-FlowSchema-UID` and
//! `X-Kubernetes-PF-PriorityLevel-UID` response headers.

use std::sync::Arc;

use serde_json::{Value, json};

use super::auth::{Attributes, SimUser};
use super::resource::Kind;
use super::store::{Store, str_at};

/// A FlowSchema reduced to what classification needs.
#[derive(Debug, Clone)]
struct Schema {
    name: String,
    uid: String,
    precedence: i64,
    level: String,
    rules: Vec<Value>,
}

/// The parsed flow-control objects of a cluster, rebuilt when any of them changes.
#[derive(Debug, Default)]
pub struct Classifier {
    versions: [u64; 2],
    schemas: Vec<Schema>,
    levels: Vec<(String, String)>,
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

fn has(list: &[String], x: &str, all: &str) -> bool {
    list.iter().any(|e| e == all || e == x)
}

fn subject_matches(s: &Value, user: &SimUser, groups: &[String]) -> bool {
    match s.get("kind").and_then(Value::as_str) {
        Some("User") => {
            let n = str_at(s, "/user/name");
            n == "*" || n == user.name
        }
        Some("Group") => {
            let n = str_at(s, "/group/name");
            n == "*" || groups.contains(&n)
        }
        Some("ServiceAccount") => {
            let ns = str_at(s, "/serviceAccount/namespace");
            let name = str_at(s, "/serviceAccount/name");
            let (sa_ns, sa_name) = user
                .name
                .strip_prefix("system:serviceaccount:")
                .and_then(|r| r.split_once(':'))
                .unwrap_or(("", ""));
            !sa_ns.is_empty() && ns == sa_ns && (name == "*" || name == sa_name)
        }
        _ => false,
    }
}

fn rule_matches(rule: &Value, user: &SimUser, groups: &[String], a: &Attributes) -> bool {
    let subjects = rule
        .get("subjects")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if !subjects.iter().any(|s| subject_matches(s, user, groups)) {
        return false;
    }
    match a {
        Attributes::Resource {
            verb,
            group,
            resource,
            subresource,
            namespace,
            ..
        } => rule
            .get("resourceRules")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|r| {
                let resources = strings(r, "resources");
                let full = format!("{resource}/{subresource}");
                has(&strings(r, "verbs"), verb, "*")
                    && has(&strings(r, "apiGroups"), group, "*")
                    && (has(&resources, resource, "*")
                        || (!subresource.is_empty() && resources.contains(&full)))
                    && if namespace.is_empty() {
                        r.get("clusterScope").and_then(Value::as_bool) == Some(true)
                    } else {
                        has(&strings(r, "namespaces"), namespace, "*")
                    }
            }),
        Attributes::NonResource { verb, path } => rule
            .get("nonResourceRules")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|r| {
                has(&strings(r, "verbs"), verb, "*")
                    && strings(r, "nonResourceURLs").iter().any(|u| {
                        u == "*"
                            || u == path
                            || u.strip_suffix("/*")
                                .is_some_and(|p| path == p || path.starts_with(&format!("{p}/")))
                    })
            }),
    }
}

impl Classifier {
    /// The classifier of `store`, reusing `cached` when nothing changed.
    pub fn current(store: &Store, cached: Option<&Arc<Classifier>>) -> Arc<Classifier> {
        let v = [
            store.slot_version(Kind::FLOW_SCHEMA),
            store.slot_version(Kind::PRIORITY_LEVEL_CONFIGURATION),
        ];
        if let Some(c) = cached.filter(|c| c.versions == v) {
            return c.clone();
        }
        let levels: Vec<(String, String)> = store
            .values(Kind::PRIORITY_LEVEL_CONFIGURATION, None)
            .iter()
            .map(|p| (str_at(p, "/metadata/name"), str_at(p, "/metadata/uid")))
            .collect();
        let mut schemas: Vec<Schema> = store
            .values(Kind::FLOW_SCHEMA, None)
            .iter()
            .map(|f| Schema {
                name: str_at(f, "/metadata/name"),
                uid: str_at(f, "/metadata/uid"),
                precedence: f
                    .pointer("/spec/matchingPrecedence")
                    .and_then(Value::as_i64)
                    .unwrap_or(1000),
                level: str_at(f, "/spec/priorityLevelConfiguration/name"),
                rules: f
                    .pointer("/spec/rules")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
            })
            .collect();
        schemas.sort_by(|a, b| (a.precedence, &a.name).cmp(&(b.precedence, &b.name)));
        Arc::new(Classifier {
            versions: v,
            schemas,
            levels,
        })
    }

    /// The `(FlowSchema uid, PriorityLevelConfiguration uid)` a request is classified
    /// into, or None when no FlowSchema with an existing priority level matches.
    pub fn classify(&self, user: &SimUser, a: &Attributes) -> Option<(String, String)> {
        let groups = user.all_groups();
        self.schemas.iter().find_map(|s| {
            let level = self.levels.iter().find(|(n, _)| *n == s.level)?;
            s.rules
                .iter()
                .any(|r| rule_matches(r, user, &groups, a))
                .then(|| (s.uid.clone(), level.1.clone()))
        })
    }
}

fn all_resources() -> Value {
    json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"], "clusterScope": true})
}

fn all_paths() -> Value {
    json!({"verbs": ["*"], "nonResourceURLs": ["*"]})
}

fn groups(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"kind": "Group", "group": {"name": n}}))
            .collect(),
    )
}

fn users(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"kind": "User", "user": {"name": n}}))
            .collect(),
    )
}

fn kube_system_service_accounts() -> Value {
    json!([{"kind": "ServiceAccount", "serviceAccount": {"name": "*", "namespace": "kube-system"}}])
}

fn flow_schema(
    name: &str,
    level: &str,
    precedence: i64,
    distinguisher: Option<&str>,
    rules: Value,
    ts: &str,
) -> Value {
    let mut spec = json!({"priorityLevelConfiguration": {"name": level},
        "matchingPrecedence": precedence, "rules": rules});
    if let Some(d) = distinguisher {
        spec["distinguisherMethod"] = json!({"type": d});
    }
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
        "metadata": {"name": name, "creationTimestamp": ts, "generation": 1,
            "annotations": {"apf.kubernetes.io/autoupdate-spec": "true"}},
        "spec": spec,
        "status": {"conditions": [{"type": "Dangling", "status": "False", "reason": "Found",
            "message": format!("This FlowSchema references the PriorityLevelConfiguration object named \"{level}\" and it exists"),
            "lastTransitionTime": ts}]}})
}

fn limited(
    name: &str,
    shares: i64,
    lendable: i64,
    queuing: Option<(i64, i64, i64)>,
    ts: &str,
) -> Value {
    let limit = match queuing {
        Some((queues, hand, length)) => json!({"type": "Queue",
            "queuing": {"queues": queues, "handSize": hand, "queueLengthLimit": length}}),
        None => json!({"type": "Reject"}),
    };
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
        "metadata": {"name": name, "creationTimestamp": ts, "generation": 1,
            "annotations": {"apf.kubernetes.io/autoupdate-spec": "true"}},
        "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": shares,
            "lendablePercent": lendable, "limitResponse": limit}},
        "status": {}})
}

/// The FlowSchemas and PriorityLevelConfigurations a real API server creates at start.
pub fn bootstrap(ts: &str) -> Vec<(Kind, Value)> {
    let pl = Kind::PRIORITY_LEVEL_CONFIGURATION;
    let fs = Kind::FLOW_SCHEMA;
    let everything = |subjects: Value| json!([{"subjects": subjects, "resourceRules": [all_resources()], "nonResourceRules": [all_paths()]}]);
    let leader_election = |ns: &str| {
        json!([
            {"verbs": ["get", "create", "update"], "apiGroups": [""], "resources": ["endpoints", "configmaps"], "namespaces": [ns]},
            {"verbs": ["get", "create", "update"], "apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "namespaces": ["*"]}
        ])
    };
    let mut system_leader = users(&["system:kube-controller-manager", "system:kube-scheduler"]);
    if let (Some(a), Some(b)) = (
        system_leader.as_array_mut(),
        kube_system_service_accounts().as_array(),
    ) {
        a.extend(b.iter().cloned());
    }
    vec![
        (
            pl,
            json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
                "metadata": {"name": "exempt", "creationTimestamp": ts, "generation": 1,
                    "annotations": {"apf.kubernetes.io/autoupdate-spec": "true"}},
                "spec": {"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}},
                "status": {}}),
        ),
        (pl, limited("system", 30, 33, Some((64, 6, 50)), ts)),
        (pl, limited("node-high", 40, 25, Some((64, 6, 50)), ts)),
        (pl, limited("leader-election", 10, 0, Some((16, 4, 50)), ts)),
        (pl, limited("workload-high", 40, 50, Some((128, 6, 50)), ts)),
        (pl, limited("workload-low", 100, 90, Some((128, 6, 50)), ts)),
        (
            pl,
            limited("global-default", 20, 50, Some((128, 6, 50)), ts),
        ),
        (pl, limited("catch-all", 5, 0, None, ts)),
        (
            fs,
            flow_schema(
                "exempt",
                "exempt",
                1,
                None,
                everything(groups(&["system:masters"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "probes",
                "exempt",
                2,
                None,
                json!([{"subjects": groups(&["system:unauthenticated", "system:authenticated"]),
                    "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz", "/readyz", "/livez"]}]}]),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "system-leader-election",
                "leader-election",
                100,
                Some("ByUser"),
                json!([{"subjects": system_leader, "resourceRules": leader_election("kube-system")}]),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "workload-leader-election",
                "leader-election",
                200,
                Some("ByUser"),
                json!([{"subjects": kube_system_service_accounts(), "resourceRules": leader_election("*")}]),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "system-node-high",
                "node-high",
                400,
                Some("ByUser"),
                json!([{"subjects": groups(&["system:nodes"]), "resourceRules": [
                    {"verbs": ["*"], "apiGroups": [""], "resources": ["nodes", "nodes/status"], "namespaces": ["*"], "clusterScope": true},
                    {"verbs": ["*"], "apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "namespaces": ["*"]}
                ]}]),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "system-nodes",
                "system",
                500,
                Some("ByUser"),
                everything(groups(&["system:nodes"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "kube-controller-manager",
                "workload-high",
                800,
                Some("ByNamespace"),
                everything(users(&["system:kube-controller-manager"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "kube-scheduler",
                "workload-high",
                800,
                Some("ByNamespace"),
                everything(users(&["system:kube-scheduler"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "kube-system-service-accounts",
                "workload-high",
                900,
                Some("ByNamespace"),
                everything(kube_system_service_accounts()),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "service-accounts",
                "workload-low",
                9000,
                Some("ByUser"),
                everything(groups(&["system:serviceaccounts"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "global-default",
                "global-default",
                9900,
                Some("ByUser"),
                everything(groups(&["system:unauthenticated", "system:authenticated"])),
                ts,
            ),
        ),
        (
            fs,
            flow_schema(
                "catch-all",
                "catch-all",
                10000,
                Some("ByUser"),
                everything(groups(&["system:unauthenticated", "system:authenticated"])),
                ts,
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classified(store: &Store, user: &SimUser, a: &Attributes) -> Option<String> {
        let c = Classifier::current(store, None);
        let (fs, _) = c.classify(user, a)?;
        store
            .values(Kind::FLOW_SCHEMA, None)
            .into_iter()
            .find(|f| str_at(f, "/metadata/uid") == fs)
            .map(|f| str_at(&f, "/metadata/name"))
    }

    #[test]
    fn requests_land_in_the_schema_a_real_server_picks() {
        let mut store = Store::new(3, 10);
        for (k, mut o) in bootstrap("t") {
            o["metadata"]["uid"] = json!(store.new_uid());
            store.put(k, o);
        }
        let admin = &SimUser::builtins()[0];
        let list = Attributes::Resource {
            verb: "list".into(),
            group: "".into(),
            resource: "pods".into(),
            subresource: "".into(),
            namespace: "".into(),
            name: "".into(),
        };
        assert_eq!(
            classified(&store, admin, &list).as_deref(),
            Some("global-default")
        );
        let probe = Attributes::NonResource {
            verb: "get".into(),
            path: "/readyz".into(),
        };
        assert_eq!(classified(&store, admin, &probe).as_deref(), Some("probes"));
        let mut ours = flow_schema(
            "fleetdeck",
            "workload-low",
            500,
            Some("ByUser"),
            json!([{"subjects": users(&["admin"]), "resourceRules": [all_resources()]}]),
            "t",
        );
        ours["metadata"]["uid"] = json!("ours");
        store.put(Kind::FLOW_SCHEMA, ours);
        assert_eq!(
            classified(&store, admin, &list).as_deref(),
            Some("fleetdeck")
        );
    }
}
