//! What the simulated API server refuses, and how: per-kind validation on create and
//! update (`422 Invalid` with `details.causes` as the real server builds them), and the
//! request options every kind shares ([`options`]).
//!
//! Kinds are found by API group and kind name, so any kind the simulator serves is
//! validated by the same entry points ([`validate_create`], [`validate_update`]); a kind
//! without rules of its own gets the metadata checks every object passes. The checks
//! are pure functions over the object's JSON, ported from the Kubernetes sources named
//! in each file.

mod config;
mod containers;
mod events;
mod field;
mod meta;
mod names;
pub mod options;
mod pods;
mod policy;
mod quantity;
mod selectors;
mod workloads;

use serde_json::{Value, json};

use super::error::ApiError;
pub use field::{ErrorList, FieldError, go_quote};
use meta::FinalizerRule;
use names::NameRule;

/// What is wrong with a label key (empty when it is valid).
pub fn label_key_errors(key: &str) -> Vec<String> {
    names::is_qualified_name(key)
}

/// What is wrong with a label value (empty when it is valid).
pub fn label_value_errors(value: &str) -> Vec<String> {
    names::is_label_value(value)
}

/// An object refused with `422 Invalid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The object's API group ("" for core, `meta.k8s.io` for request options).
    pub group: String,
    /// Its kind (`Pod`, `CreateOptions`).
    pub kind: String,
    /// Its name ("" when it has none).
    pub name: String,
    /// What is wrong, in the order found.
    pub errors: ErrorList,
}

impl Invalid {
    /// `Deployment.apps`, or `Pod` for the core group.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(inv: Invalid) -> ApiError {
        let causes: Vec<Value> = inv
            .errors
            .iter()
            .map(|e| {
                let mut c = json!({"reason": e.kind.reason(), "message": e.body()});
                if !e.field.is_empty() {
                    c["field"] = json!(e.field);
                }
                c
            })
            .collect();
        // StatusDetails leaves empty strings out (`omitempty`).
        let mut details = json!({});
        for (k, v) in [
            ("name", &inv.name),
            ("group", &inv.group),
            ("kind", &inv.kind),
        ] {
            if !v.is_empty() {
                details[k] = json!(v);
            }
        }
        details["causes"] = Value::Array(causes);
        ApiError {
            code: 422,
            reason: "Invalid",
            message: format!(
                "{} {:?} is invalid: {}",
                inv.qualified_kind(),
                inv.name,
                field::aggregate(&inv.errors)
            ),
            details: Some(Box::new(details)),
            retry_after: None,
        }
    }
}

/// Why a write is refused before it is stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The object is invalid (422).
    Invalid(Invalid),
    /// The body cannot be decoded as the kind (400), e.g. a malformed quantity.
    Undecodable(String),
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Invalid(inv) => inv.into(),
            Refusal::Undecodable(m) => ApiError::bad_request(m),
        }
    }
}

/// How a kind's metadata is validated by its own strategy.
#[derive(Clone, Copy)]
enum Meta {
    /// Core and apps kinds: the name rule plus the standard-finalizer rule.
    Core(NameRule),
    /// Other groups: the name rule only.
    Plain(NameRule),
    /// The strategy leaves metadata to the generic pass (core/v1 Events, PDBs).
    Generic,
}

type Check = fn(&Value) -> ErrorList;
type UpdateCheck = fn(&Value, &Value) -> ErrorList;

/// The validation rules of one kind.
struct Rules {
    namespaced: Option<bool>,
    meta: Meta,
    create: Check,
    update: UpdateCheck,
}

fn nothing(_: &Value) -> ErrorList {
    Vec::new()
}

fn nothing_changed(_: &Value, _: &Value) -> ErrorList {
    Vec::new()
}

fn namespace_spec(ns: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    for f in ns
        .pointer("/spec/finalizers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let f = f.as_str().unwrap_or_default();
        let bad = names::is_qualified_name(f);
        errs.extend(
            bad.into_iter()
                .map(|m| FieldError::invalid("spec.finalizers", field::BadValue::Str(f.into()), m)),
        );
        if !f.contains('/') && f != "kubernetes" {
            errs.push(FieldError::invalid(
                "spec.finalizers",
                field::BadValue::Str(f.into()),
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
    errs
}

fn pod_update(new: &Value, old: &Value) -> ErrorList {
    pods::pod_update(new, old)
}

fn deployment_update(new: &Value, old: &Value) -> ErrorList {
    workloads::workload_update(workloads::deployment, new, old)
}

fn replica_set_update(new: &Value, old: &Value) -> ErrorList {
    workloads::workload_update(workloads::replica_set, new, old)
}

fn daemon_set_update(new: &Value, old: &Value) -> ErrorList {
    workloads::workload_update(workloads::daemon_set, new, old)
}

fn event_update(new: &Value, _: &Value) -> ErrorList {
    events::event(new)
}

fn pdb_update(new: &Value, _: &Value) -> ErrorList {
    policy::pod_disruption_budget(new)
}

fn lease_update(new: &Value, _: &Value) -> ErrorList {
    policy::lease(new)
}

fn rules(group: &str, kind: &str) -> Rules {
    let r = |namespaced, meta, create: Check, update: UpdateCheck| Rules {
        namespaced: Some(namespaced),
        meta,
        create,
        update,
    };
    use Meta::{Core, Generic, Plain};
    use NameRule::{Dns1035Label, Label, PathSegment, Subdomain};
    match (group, kind) {
        ("", "Pod") => r(true, Core(Subdomain), pods::pod_create, pod_update),
        ("", "Namespace") => r(false, Core(Label), namespace_spec, nothing_changed),
        ("", "Node") => r(false, Core(Subdomain), nothing, nothing_changed),
        ("", "ConfigMap") => r(
            true,
            Core(Subdomain),
            config::config_map,
            config::config_map_update,
        ),
        ("", "Secret") => r(true, Core(Subdomain), config::secret, config::secret_update),
        ("", "Event") => r(true, Generic, events::event, event_update),
        ("", "Service") => r(true, Core(Dns1035Label), nothing, nothing_changed),
        ("", "ServiceAccount" | "PersistentVolumeClaim" | "Endpoints") => {
            r(true, Core(Subdomain), nothing, nothing_changed)
        }
        ("", "PersistentVolume") => r(false, Core(Subdomain), nothing, nothing_changed),
        ("apps", "Deployment") => r(
            true,
            Core(Subdomain),
            workloads::deployment,
            deployment_update,
        ),
        ("apps", "ReplicaSet") => r(
            true,
            Core(Subdomain),
            workloads::replica_set,
            replica_set_update,
        ),
        ("apps", "DaemonSet") => r(
            true,
            Core(Subdomain),
            workloads::daemon_set,
            daemon_set_update,
        ),
        ("apps", "StatefulSet") => r(
            true,
            Core(Subdomain),
            workloads::stateful_set,
            workloads::stateful_set_update,
        ),
        ("policy", "PodDisruptionBudget") => {
            r(true, Generic, policy::pod_disruption_budget, pdb_update)
        }
        ("coordination.k8s.io", "Lease") => r(true, Plain(Subdomain), policy::lease, lease_update),
        ("batch", "Job" | "CronJob") | ("networking.k8s.io", "Ingress") => {
            r(true, Core(Subdomain), nothing, nothing_changed)
        }
        ("rbac.authorization.k8s.io", "Role" | "RoleBinding") => {
            r(true, Core(PathSegment), nothing, nothing_changed)
        }
        ("rbac.authorization.k8s.io", "ClusterRole" | "ClusterRoleBinding") => {
            r(false, Core(PathSegment), nothing, nothing_changed)
        }
        _ => Rules {
            namespaced: None,
            meta: Generic,
            create: nothing,
            update: nothing_changed,
        },
    }
}

fn namespaced(rules: &Rules, obj: &Value) -> bool {
    rules.namespaced.unwrap_or_else(|| {
        obj.pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty())
    })
}

fn strategy_meta(rules: &Rules, obj: &Value) -> ErrorList {
    let ns = namespaced(rules, obj);
    match rules.meta {
        Meta::Core(rule) => meta::object_meta(obj, ns, rule, FinalizerRule::Kube),
        Meta::Plain(rule) => meta::object_meta(obj, ns, rule, FinalizerRule::Plain),
        Meta::Generic => Vec::new(),
    }
}

/// The metadata checks every object passes after its kind's own (`BeforeCreate`).
fn generic_meta(rules: &Rules, obj: &Value) -> ErrorList {
    meta::object_meta(
        obj,
        namespaced(rules, obj),
        NameRule::PathSegment,
        FinalizerRule::Plain,
    )
}

fn name_of(obj: &Value) -> String {
    obj.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn refuse(group: &str, kind: &str, obj: &Value, errors: ErrorList) -> Result<(), Refusal> {
    if errors.is_empty() {
        return Ok(());
    }
    Err(Refusal::Invalid(Invalid {
        group: group.to_string(),
        kind: kind.to_string(),
        name: name_of(obj),
        errors,
    }))
}

/// Bodies the API server cannot decode as the kind (a quantity that does not parse).
fn decodable(kind: &str, obj: &Value) -> Result<(), Refusal> {
    let lists = [
        "/spec/containers",
        "/spec/initContainers",
        "/spec/template/spec/containers",
        "/spec/template/spec/initContainers",
    ];
    let bad = lists.iter().any(|p| {
        obj.pointer(p)
            .and_then(Value::as_array)
            .is_some_and(|c| containers::undecodable_quantity(c))
    });
    if bad {
        // Every kind the simulator serves is at version v1.
        return Err(Refusal::Undecodable(format!(
            "{kind} in version \"v1\" cannot be handled as a {kind}: {}",
            quantity::PARSE_ERROR
        )));
    }
    Ok(())
}

/// Validates an object about to be created (after defaults and name generation), as
/// the kind's strategy and then the generic metadata pass of `BeforeCreate` do.
pub fn validate_create(group: &str, kind: &str, obj: &Value) -> Result<(), Refusal> {
    decodable(kind, obj)?;
    let rules = rules(group, kind);
    let mut errs = strategy_meta(&rules, obj);
    errs.extend((rules.create)(obj));
    refuse(group, kind, obj, errs)?;
    refuse(group, kind, obj, generic_meta(&rules, obj))
}

/// Validates an update: `new` is the object as it would be stored (after a patch, with
/// what clients cannot change carried over from `old`).
pub fn validate_update(group: &str, kind: &str, new: &Value, old: &Value) -> Result<(), Refusal> {
    decodable(kind, new)?;
    let rules = rules(group, kind);
    let mut errs = generic_meta(&rules, new);
    errs.extend(meta::object_meta_update(new, old));
    for e in strategy_meta(&rules, new) {
        if !errs.contains(&e) {
            errs.push(e);
        }
    }
    errs.extend((rules.update)(new, old));
    refuse(group, kind, new, errs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(r: Result<(), Refusal>) -> Value {
        match r {
            Ok(()) => Value::Null,
            Err(e) => ApiError::from(e).status(),
        }
    }

    #[test]
    fn invalid_objects_answer_as_the_api_server_does() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": []}});
        let s = status(validate_create("", "Pod", &pod));
        assert_eq!(s["code"], 422);
        assert_eq!(s["reason"], "Invalid");
        assert_eq!(
            s["message"],
            "Pod \"p\" is invalid: spec.containers: Required value"
        );
        assert_eq!(
            s["details"],
            json!({"name": "p", "kind": "Pod", "causes": [
                {"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers"}]})
        );
        let ns = json!({"metadata": {"name": "Difftest_Bad"}});
        let s = status(validate_create("", "Namespace", &ns));
        assert!(
            s["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Namespace \"Difftest_Bad\" is invalid: metadata.name: Invalid value: \"Difftest_Bad\": a lowercase RFC 1123 label")),
            "{s}"
        );
        let lease = json!({"metadata": {"name": "l", "namespace": "d"}, "spec": {"leaseDurationSeconds": -1}});
        let s = status(validate_create("coordination.k8s.io", "Lease", &lease));
        assert_eq!(
            s["message"],
            "Lease.coordination.k8s.io \"l\" is invalid: spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0"
        );
        assert_eq!(s["details"]["group"], "coordination.k8s.io");
    }

    #[test]
    fn generic_metadata_runs_after_the_kinds_own_rules() {
        let pdb = json!({"metadata": {"name": "Any_Name", "namespace": "d"}, "spec": {"maxUnavailable": 1}});
        assert_eq!(
            validate_create("policy", "PodDisruptionBudget", &pdb),
            Ok(())
        );
        let slash =
            json!({"metadata": {"name": "a%b", "namespace": "d"}, "spec": {"maxUnavailable": 1}});
        let s = status(validate_create("policy", "PodDisruptionBudget", &slash));
        assert_eq!(
            s["message"],
            "PodDisruptionBudget.policy \"a%b\" is invalid: metadata.name: Invalid value: \"a%b\": may not contain '%'"
        );
        let unknown = json!({"metadata": {"name": "x/y"}});
        assert!(validate_create("example.com", "Widget", &unknown).is_err());
    }

    #[test]
    fn a_malformed_quantity_is_undecodable() {
        let pod = json!({"metadata": {"name": "p", "namespace": "d"},
            "spec": {"containers": [{"name": "a", "image": "i", "resources": {"requests": {"cpu": "lots"}}}]}});
        let err = ApiError::from(validate_create("", "Pod", &pod).unwrap_err());
        assert_eq!(err.code, 400);
        assert!(err.message.starts_with(
            "Pod in version \"v1\" cannot be handled as a Pod: quantities must match"
        ));
    }
}

#[cfg(test)]
mod scenario_tests {
    //! Everything the simulator creates itself (scenario objects and what its
    //! controllers make from them) must be valid too: a product that updates such an
    //! object would otherwise be refused for the simulator's mistake.

    use super::validate_create;
    use crate::sim::SimFleet;

    fn invalid_objects(fleet: &SimFleet) -> Vec<String> {
        let mut bad = Vec::new();
        for cluster in fleet.clusters() {
            let st = cluster.lock();
            for kind in st.store.used_slots() {
                let info = kind.info();
                for obj in st.store.values(kind, None) {
                    if let Err(e) = validate_create(&info.group, &info.kind, &obj) {
                        let e = crate::sim::ApiError::from(e);
                        bad.push(format!("{}: {}", cluster.profile.id, e.message));
                    }
                }
            }
        }
        bad
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn generated_and_controller_made_objects_are_valid() {
        for scenario in ["small", "demo"] {
            let fleet = SimFleet::load(scenario, 3, 20.0).expect("scenario loads");
            let bad = invalid_objects(&fleet);
            assert!(bad.is_empty(), "{scenario}: {}", bad.join("\n"));
            fleet.start_controllers();
            tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
            let bad = invalid_objects(&fleet);
            assert!(
                bad.is_empty(),
                "{scenario} after its controllers ran: {}",
                bad.join("\n")
            );
        }
    }
}
