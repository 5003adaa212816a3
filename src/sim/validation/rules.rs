//! The validation rules of every kind, found by API group and kind (what each kind's
//! registry strategy calls): how its metadata is checked, what a new object must pass,
//! and what an update must pass. A kind without rules of its own gets only the
//! metadata checks every object passes.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};
use super::names::{self, NameRule};
use super::require;
use super::{
    batch, config, events, extensions, flowcontrol, networking, pods, policy, rbac, services,
    workloads,
};
use crate::sim::resource::ResourceType;

/// How a kind's metadata is validated by its own strategy.
#[derive(Clone, Copy)]
pub enum Meta {
    /// Core-group validation (`pkg/apis/core/validation.ValidateObjectMeta`): the name
    /// rule plus the standard-finalizer rule.
    Core(NameRule),
    /// apimachinery's `ValidateObjectMeta`: the name rule only.
    Plain(NameRule),
    /// The strategy leaves metadata to the generic pass (core/v1 Events, PDBs).
    Generic,
}

/// A check of one object.
pub type Check = fn(&Value) -> ErrorList;
/// A check of an updated object against the stored one.
pub type UpdateCheck = fn(&Value, &Value) -> ErrorList;

/// What an update must pass besides metadata.
#[derive(Clone, Copy)]
pub enum OnUpdate {
    /// The new object passes the create checks again.
    AsCreate,
    /// Nothing more (a Namespace's spec is the finalize subresource's).
    Nothing,
    /// Its own check of the new object against the old.
    Check(UpdateCheck),
}

/// The validation rules of one kind.
pub struct Rules {
    /// How its metadata is checked.
    pub meta: Meta,
    /// What a new object must pass.
    pub create: Check,
    /// What an update must pass.
    pub update: OnUpdate,
}

impl Rules {
    /// The errors of an update of `old` to `new` (besides metadata).
    pub fn update_errors(&self, new: &Value, old: &Value) -> ErrorList {
        match self.update {
            OnUpdate::AsCreate => (self.create)(new),
            OnUpdate::Nothing => Vec::new(),
            OnUpdate::Check(check) => check(new, old),
        }
    }
}

fn nothing(_: &Value) -> ErrorList {
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
        errs.extend(require::valid(
            f,
            "spec.finalizers",
            names::is_qualified_name,
        ));
        if !f.contains('/') && f != "kubernetes" {
            errs.push(FieldError::invalid(
                "spec.finalizers",
                BadValue::Str(f.into()),
                "name is neither a standard finalizer name nor is it fully qualified",
            ));
        }
    }
    errs
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

fn built_in(group: &str, kind: &str) -> Rules {
    let r = |meta, create: Check, update| Rules {
        meta,
        create,
        update,
    };
    use Meta::{Core, Generic, Plain};
    use NameRule::{Dns1035Label, Label, PathSegment, Subdomain};
    use OnUpdate::{AsCreate, Check as Own, Nothing};
    match (group, kind) {
        ("", "Pod") => r(Core(Subdomain), pods::pod_create, Own(pods::pod_update)),
        ("", "Namespace") => r(Core(Label), namespace_spec, Nothing),
        ("", "ConfigMap") => r(
            Core(Subdomain),
            config::config_map,
            Own(config::config_map_update),
        ),
        ("", "Secret") => r(Core(Subdomain), config::secret, Own(config::secret_update)),
        ("", "Event") => r(Generic, events::event, AsCreate),
        ("", "Service") => r(
            Core(Dns1035Label),
            services::service,
            Own(services::service_update),
        ),
        ("", "ServiceAccount") => r(Core(Subdomain), services::service_account, AsCreate),
        ("", "Node" | "PersistentVolumeClaim" | "PersistentVolume" | "Endpoints") => {
            r(Core(Subdomain), nothing, AsCreate)
        }
        ("apps", "Deployment") => r(
            Core(Subdomain),
            workloads::deployment,
            Own(deployment_update),
        ),
        ("apps", "ReplicaSet") => r(
            Core(Subdomain),
            workloads::replica_set,
            Own(replica_set_update),
        ),
        ("apps", "DaemonSet") => r(
            Core(Subdomain),
            workloads::daemon_set,
            Own(daemon_set_update),
        ),
        ("apps", "StatefulSet") => r(
            Core(Subdomain),
            workloads::stateful_set,
            Own(workloads::stateful_set_update),
        ),
        ("policy", "PodDisruptionBudget") => r(Generic, policy::pod_disruption_budget, AsCreate),
        ("coordination.k8s.io", "Lease") => r(Plain(Subdomain), policy::lease, AsCreate),
        ("batch", "Job") => r(Core(Subdomain), batch::job, Own(batch::job_update)),
        ("batch", "CronJob") => r(Core(Subdomain), batch::cron_job, AsCreate),
        ("networking.k8s.io", "Ingress") => r(Core(Subdomain), networking::ingress, AsCreate),
        ("discovery.k8s.io", "EndpointSlice") => {
            r(Core(Subdomain), networking::endpoint_slice, AsCreate)
        }
        ("rbac.authorization.k8s.io", "Role") => r(Core(PathSegment), rbac::role, AsCreate),
        ("rbac.authorization.k8s.io", "ClusterRole") => {
            r(Core(PathSegment), rbac::cluster_role, AsCreate)
        }
        ("rbac.authorization.k8s.io", "RoleBinding") => r(
            Core(PathSegment),
            rbac::role_binding,
            Own(rbac::role_binding_update),
        ),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding") => r(
            Core(PathSegment),
            rbac::cluster_role_binding,
            Own(rbac::cluster_role_binding_update),
        ),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema") => {
            r(Core(Subdomain), flowcontrol::flow_schema, AsCreate)
        }
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration") => {
            r(Core(Subdomain), flowcontrol::priority_level, AsCreate)
        }
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration") => {
            r(Plain(Subdomain), extensions::validating_webhooks, AsCreate)
        }
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration") => {
            r(Plain(Subdomain), extensions::mutating_webhooks, AsCreate)
        }
        ("apiextensions.k8s.io", "CustomResourceDefinition") => r(
            Plain(Subdomain),
            extensions::custom_resource_definition,
            Own(extensions::custom_resource_definition_update),
        ),
        ("apiregistration.k8s.io", "APIService") => {
            r(Plain(PathSegment), extensions::api_service, AsCreate)
        }
        _ => r(Generic, nothing, AsCreate),
    }
}

/// The rules of a type: a custom resource's metadata is checked as
/// `customResourceStrategy` does (its name a DNS subdomain; its schema is checked by
/// the caller), a built-in kind's by its group and kind.
pub fn rules(rt: &ResourceType) -> Rules {
    if rt.custom {
        return Rules {
            meta: Meta::Plain(NameRule::Subdomain),
            create: nothing,
            update: OnUpdate::AsCreate,
        };
    }
    built_in(&rt.group, &rt.kind)
}
