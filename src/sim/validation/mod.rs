//! What the simulated API server refuses, and how: per-kind validation on create and
//! update (`422 Invalid` with `details.causes` as the real server builds them, see
//! [`Invalid`]), bodies it cannot decode (`400`), and the request options every kind
//! shares ([`options`]).
//!
//! Kinds are found by API group and kind name ([`rules`]), so any kind the simulator
//! serves, custom resources included, is validated by the same entry points
//! ([`validate_create`], [`validate_update`], [`validate_status_update`]); a kind
//! without rules of its own gets the metadata checks every object passes. The checks
//! are pure functions over the object's JSON, after the defaults of `sim::defaults`,
//! ported from the Kubernetes sources named in each file.

mod batch;
mod config;
mod containers;
mod custom;
mod events;
mod extensions;
mod field;
mod flowcontrol;
mod invalid;
mod json;
mod meta;
pub mod names;
mod networking;
pub mod options;
mod pods;
mod policy;
mod quantity;
mod rbac;
mod require;
mod rules;
mod selectors;
mod services;
mod workloads;

use serde_json::Value;

use super::error::ApiError;
use super::resource::ResourceType;
pub use field::{BadValue, ErrorList, FieldError, go_quote};
pub use invalid::Invalid;
use meta::FinalizerRule;
use names::NameRule;
use rules::{Meta, Rules};

/// What is wrong with a label key (empty when it is valid).
pub fn label_key_errors(key: &str) -> Vec<String> {
    names::is_qualified_name(key)
}

/// What is wrong with a label value (empty when it is valid).
pub fn label_value_errors(value: &str) -> Vec<String> {
    names::is_label_value(value)
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

fn strategy_meta(rules: &Rules, rt: &ResourceType, obj: &Value) -> ErrorList {
    let ns = rt.namespaced;
    match rules.meta {
        Meta::Core(rule) => meta::object_meta(obj, ns, rule, FinalizerRule::Kube),
        Meta::Plain(rule) => meta::object_meta(obj, ns, rule, FinalizerRule::Plain),
        Meta::Generic => Vec::new(),
    }
}

/// The metadata checks every object passes after its kind's own (`BeforeCreate`).
fn generic_meta(rt: &ResourceType, obj: &Value) -> ErrorList {
    meta::object_meta(
        obj,
        rt.namespaced,
        NameRule::PathSegment,
        FinalizerRule::Plain,
    )
}

/// A custom resource's errors against its CRD's schema (none for built-in kinds).
fn schema_errors(rt: &ResourceType, obj: &Value) -> ErrorList {
    match rt.schema.as_deref() {
        Some(schema) if rt.custom => custom::custom_resource(schema, obj),
        _ => Vec::new(),
    }
}

fn name_of(obj: &Value) -> String {
    json::text(obj, "/metadata/name").to_string()
}

fn refuse(rt: &ResourceType, obj: &Value, errors: ErrorList) -> Result<(), Refusal> {
    if errors.is_empty() {
        return Ok(());
    }
    Err(Refusal::Invalid(Invalid::of(rt, &name_of(obj), errors)))
}

/// Bodies the API server cannot decode as the kind: a quantity that does not parse, a
/// Secret value that is not base64.
fn decodable(rt: &ResourceType, obj: &Value) -> Result<(), Refusal> {
    let kind = &rt.kind;
    // Every kind the simulator serves is at version v1.
    let refuse = |why: &str| {
        Err(Refusal::Undecodable(format!(
            "{kind} in version \"v1\" cannot be handled as a {kind}: {why}"
        )))
    };
    if rt.group.is_empty()
        && kind == "Secret"
        && let Some(why) = config::undecodable_secret(obj)
    {
        return refuse(&why);
    }
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
        return refuse(quantity::PARSE_ERROR);
    }
    Ok(())
}

/// Validates an object about to be created (after defaults and name generation), as
/// the kind's strategy and then the generic metadata pass of `BeforeCreate` do.
pub fn validate_create(rt: &ResourceType, obj: &Value) -> Result<(), Refusal> {
    decodable(rt, obj)?;
    let rules = rules::rules(rt);
    let mut errs = strategy_meta(&rules, rt, obj);
    errs.extend((rules.create)(obj));
    errs.extend(schema_errors(rt, obj));
    refuse(rt, obj, errs)?;
    refuse(rt, obj, generic_meta(rt, obj))
}

/// Validates an update: `new` is the object as it would be stored (after a patch, with
/// what clients cannot change carried over from `old`).
pub fn validate_update(rt: &ResourceType, new: &Value, old: &Value) -> Result<(), Refusal> {
    decodable(rt, new)?;
    let rules = rules::rules(rt);
    let mut errs = generic_meta(rt, new);
    errs.extend(meta::object_meta_update(new, old));
    for e in strategy_meta(&rules, rt, new) {
        if !errs.contains(&e) {
            errs.push(e);
        }
    }
    errs.extend(rules.update_errors(new, old));
    errs.extend(schema_errors(rt, new));
    refuse(rt, new, errs)
}

/// Validates a write of the status subresource (`new` is `old` with the new status):
/// a custom resource's status against its schema. Built-in kinds' status rules are
/// not modelled.
pub fn validate_status_update(rt: &ResourceType, new: &Value) -> Result<(), Refusal> {
    refuse(rt, new, schema_errors(rt, new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::resource::Kind;
    use serde_json::json;

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
        let s = status(validate_create(Kind::POD.info(), &pod));
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
        let s = status(validate_create(Kind::NAMESPACE.info(), &ns));
        assert!(
            s["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Namespace \"Difftest_Bad\" is invalid: metadata.name: Invalid value: \"Difftest_Bad\": a lowercase RFC 1123 label")),
            "{s}"
        );
        let lease = json!({"metadata": {"name": "l", "namespace": "d"}, "spec": {"leaseDurationSeconds": -1}});
        let s = status(validate_create(Kind::LEASE.info(), &lease));
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
            validate_create(Kind::POD_DISRUPTION_BUDGET.info(), &pdb),
            Ok(())
        );
        let slash =
            json!({"metadata": {"name": "a%b", "namespace": "d"}, "spec": {"maxUnavailable": 1}});
        let s = status(validate_create(Kind::POD_DISRUPTION_BUDGET.info(), &slash));
        assert_eq!(
            s["message"],
            "PodDisruptionBudget.policy \"a%b\" is invalid: metadata.name: Invalid value: \"a%b\": may not contain '%'"
        );
        let custom = json!({"metadata": {"name": "x/y", "namespace": "d"}});
        let crontab = crate::sim::crd::tests::crontab_type();
        assert!(validate_create(&crontab, &custom).is_err());
    }

    #[test]
    fn a_malformed_quantity_is_undecodable() {
        let pod = json!({"metadata": {"name": "p", "namespace": "d"},
            "spec": {"containers": [{"name": "a", "image": "i", "resources": {"requests": {"cpu": "lots"}}}]}});
        let err = ApiError::from(validate_create(Kind::POD.info(), &pod).unwrap_err());
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
                    if let Err(e) = validate_create(info, &obj) {
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
