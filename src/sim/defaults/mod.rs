//! What the API server fills in before it validates a write, keyed by API group and
//! kind: [`on_create`] for what only a new object gets (allocated cluster IPs and node
//! ports, generated selectors, an initial status), [`on_write`] for what decoding
//! does to every write, updates and status writes included (Secret `stringData`
//! folded into `data`, RBAC subjects' group, custom resources pruned by their schema,
//! a FlowSchema's `Dangling` condition).
//!
//! Defaults are kept apart from `validation`: they read and allocate from the
//! cluster's state, while the validation rules are pure functions over the object.

mod batch;
mod control;
mod core;
mod custom;
mod rbac;

use serde_json::{Value, json};

use super::fleet::{Cluster, ClusterState};
use super::objects::default_tolerations;
use super::resource::ResourceType;
use super::store::str_at;

/// Fills in the defaults of a new object of type `rt` (then [`on_write`] runs too).
pub fn on_create(cluster: &Cluster, st: &mut ClusterState, rt: &ResourceType, obj: &mut Value) {
    let now = cluster.clock.now_rfc3339();
    if rt.custom {
        // With a status subresource, status is not the creator's to set.
        if rt.status
            && let Some(o) = obj.as_object_mut()
        {
            o.remove("status");
        }
        return;
    }
    match (rt.group.as_str(), rt.kind.as_str()) {
        ("", "Pod") => pod(obj, &now),
        ("", "Namespace") => {
            let name = str_at(obj, "/metadata/name");
            obj["spec"] = json!({"finalizers": ["kubernetes"]});
            obj["status"] = json!({"phase": "Active"});
            obj["metadata"]["labels"]["kubernetes.io/metadata.name"] = json!(name);
        }
        ("", "Service") => core::service_defaults(cluster, st, obj),
        ("", "Secret") => core::secret_type(obj),
        ("batch", "Job") => batch::job_defaults(obj),
        ("batch", "CronJob") => batch::cron_job_defaults(obj),
        ("networking.k8s.io", "Ingress") => obj["status"] = json!({"loadBalancer": {}}),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema") => control::flow_schema_defaults(obj),
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration") => {
            control::priority_level_defaults(obj)
        }
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration") => {
            control::webhook_defaults(obj, false)
        }
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration") => {
            control::webhook_defaults(obj, true)
        }
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            obj["status"] = json!({"conditions": [], "acceptedNames": {"kind": "", "plural": ""}, "storedVersions": []});
        }
        ("apiregistration.k8s.io", "APIService") => {
            obj["status"] = json!({});
        }
        _ => {}
    }
}

fn pod(obj: &mut Value, now: &str) {
    let spec = &mut obj["spec"];
    for (k, v) in [
        ("restartPolicy", json!("Always")),
        ("terminationGracePeriodSeconds", json!(30)),
        ("dnsPolicy", json!("ClusterFirst")),
        ("schedulerName", json!("default-scheduler")),
    ] {
        if spec.get(k).is_none() {
            spec[k] = v;
        }
    }
    let mut tol = spec
        .get("tolerations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for d in default_tolerations()
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        if !tol.iter().any(|t| t.get("key") == d.get("key")) {
            tol.push(d);
        }
    }
    spec["tolerations"] = Value::Array(tol);
    let bound = spec
        .get("nodeName")
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    obj["status"] = json!({"phase": "Pending", "qosClass": "Burstable"});
    if bound {
        super::objects::set_condition(obj, "PodScheduled", "True", "", "", now);
    }
}

/// Normalises an object of type `rt` about to be written (created, updated or its
/// status written), as decoding and defaulting do on every request.
pub fn on_write(st: &ClusterState, rt: &ResourceType, obj: &mut Value) {
    if rt.custom {
        custom::prune_custom(rt, obj);
        return;
    }
    match (rt.group.as_str(), rt.kind.as_str()) {
        ("", "Secret") => core::fold_string_data(obj),
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
            rbac::binding_defaults(obj)
        }
        ("flowcontrol.apiserver.k8s.io", "FlowSchema") => control::flow_schema_dangling(st, obj),
        _ => {}
    }
}
