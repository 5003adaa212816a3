//! What differs between kinds on create and update: the defaults the API server fills
//! in and the validation it runs (names, required fields, immutable fields), keyed by
//! API group and kind. Custom resources are validated against their
//! CustomResourceDefinition's schema.

mod batch;
mod control;
mod core;
mod network;
mod rbac;

use serde_json::{Value, json};

pub use self::core::base64_encode;

use super::field_errors::{FieldError, object_meta};
use super::fleet::{Cluster, ClusterState};
use super::objects::default_tolerations;
use super::resource::ResourceType;
use super::store::str_at;

/// Fills in the defaults of a new object of type `rt`.
pub fn defaults(cluster: &Cluster, st: &mut ClusterState, rt: &ResourceType, obj: &mut Value) {
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
        ("", "Secret") => core::secret_defaults(obj),
        ("batch", "Job") => batch::job_defaults(obj),
        ("batch", "CronJob") => batch::cron_job_defaults(obj),
        ("networking.k8s.io", "Ingress") => obj["status"] = json!({"loadBalancer": {}}),
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
            rbac::binding_defaults(obj)
        }
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

/// Validates a new (`old` None) or updated object of type `rt`; may normalise it (a
/// custom resource loses the fields its schema does not know, as on a real server).
pub fn validate(
    st: &ClusterState,
    rt: &ResourceType,
    old: Option<&Value>,
    obj: &mut Value,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if rt.custom {
        return super::crd_schema::validate_custom(rt, obj);
    }
    match (rt.group.as_str(), rt.kind.as_str()) {
        ("", "Service") => core::validate_service(obj, old, &mut errs),
        ("", "Secret") => {
            core::fold_string_data(obj);
            core::validate_secret(obj, old, &mut errs)
        }
        ("", "ServiceAccount") => core::validate_service_account(obj, &mut errs),
        ("", "Endpoints") => object_meta(obj, super::field_errors::dns1123_subdomain, &mut errs),
        ("discovery.k8s.io", "EndpointSlice") => network::validate_endpoint_slice(obj, &mut errs),
        ("rbac.authorization.k8s.io", "Role") => rbac::validate_role(obj, true, &mut errs),
        ("rbac.authorization.k8s.io", "ClusterRole") => rbac::validate_role(obj, false, &mut errs),
        ("rbac.authorization.k8s.io", "RoleBinding") => {
            rbac::binding_defaults(obj);
            rbac::validate_binding(obj, old, true, &mut errs)
        }
        ("rbac.authorization.k8s.io", "ClusterRoleBinding") => {
            rbac::binding_defaults(obj);
            rbac::validate_binding(obj, old, false, &mut errs)
        }
        ("batch", "Job") => batch::validate_job(obj, old, &mut errs),
        ("batch", "CronJob") => batch::validate_cron_job(obj, &mut errs),
        ("networking.k8s.io", "Ingress") => network::validate_ingress(obj, &mut errs),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            errs = super::crd::validate_definition(obj, old)
        }
        ("flowcontrol.apiserver.k8s.io", "FlowSchema") => {
            control::validate_flow_schema(st, obj, &mut errs)
        }
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration") => {
            control::validate_priority_level(obj, &mut errs)
        }
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration") => {
            control::validate_webhooks(obj, false, &mut errs)
        }
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration") => {
            control::validate_webhooks(obj, true, &mut errs)
        }
        ("apiregistration.k8s.io", "APIService") => control::validate_api_service(obj, &mut errs),
        _ => {}
    }
    errs
}
