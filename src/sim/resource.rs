//! The resource types the simulator serves, as data: each type's naming facts (group,
//! version, kind, plural, singular, short names, categories), its scope, its
//! subresources and verbs. Paths, discovery, error messages and storage are all built
//! from these facts, so a kind added here (or by a CustomResourceDefinition, see
//! [`Registry`]) is served through the same code as every other.

use std::sync::{Arc, LazyLock};

use serde_json::Value;

pub use super::registry::Registry;

/// A storage slot of a cluster's store: which resource type an object belongs to.
/// Built-in types have fixed slots (the constants below); custom resources get the
/// next free slot of their cluster when their CustomResourceDefinition is established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub u16);

/// How objects of a type are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Stored objects (get, list, watch …).
    Stored,
    /// Requests answered and forgotten (SelfSubjectAccessReview, SelfSubjectReview):
    /// only `create` is served.
    Virtual,
}

/// One resource type served by a cluster.
#[derive(Clone, Debug)]
pub struct ResourceType {
    /// Storage slot.
    pub slot: Kind,
    /// API group ("" for core).
    pub group: String,
    /// Version served (and stored).
    pub version: String,
    /// `kind` value.
    pub kind: String,
    /// `listKind` value.
    pub list_kind: String,
    /// Lower-case plural (path segment).
    pub plural: String,
    /// Lower-case singular.
    pub singular: String,
    /// Short names (`po`, `deploy`).
    pub short_names: Vec<String>,
    /// Categories (`all`).
    pub categories: Vec<String>,
    /// Whether objects live in a namespace.
    pub namespaced: bool,
    /// Whether a `/status` subresource exists (main-resource writes then keep status).
    pub status: bool,
    /// Whether a `/scale` subresource exists.
    pub scale: bool,
    /// Whether `metadata.generation` is bumped on changes outside metadata and status.
    pub generation: bool,
    /// Whether an update without `metadata.resourceVersion` is accepted (Leases
    /// refuse it, which makes leader election safe).
    pub unconditional_update: bool,
    /// Stored or create-only.
    pub storage: Storage,
    /// The structural schema of a custom resource (`openAPIV3Schema`), when defined by a
    /// CustomResourceDefinition.
    pub schema: Option<Arc<Value>>,
    /// Whether a CustomResourceDefinition defines the type.
    pub custom: bool,
}

/// The verbs of a stored type, as advertised in discovery.
const STORED_VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

impl ResourceType {
    /// The `apiVersion` value.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `pods`, `leases.coordination.k8s.io`: the resource name used in error messages.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// `Pod`, `Lease.coordination.k8s.io`: the kind name used in "is invalid" messages.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }

    /// Verbs advertised in discovery.
    pub fn verbs(&self) -> &'static [&'static str] {
        match self.storage {
            Storage::Stored => &STORED_VERBS,
            Storage::Virtual => &["create"],
        }
    }

    /// Whether the type serves this verb.
    pub fn serves(&self, verb: &str) -> bool {
        self.verbs().contains(&verb)
    }
}

/// The facts of a built-in type, as written in the table below.
struct Builtin {
    group: &'static str,
    kind: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
    namespaced: bool,
    status: bool,
    scale: bool,
    generation: bool,
    all: bool,
    storage: Storage,
}

const fn b(group: &'static str, kind: &'static str, plural: &'static str) -> Builtin {
    Builtin {
        group,
        kind,
        plural,
        short: &[],
        namespaced: true,
        status: false,
        scale: false,
        generation: false,
        all: false,
        storage: Storage::Stored,
    }
}

impl Builtin {
    const fn short(mut self, s: &'static [&'static str]) -> Self {
        self.short = s;
        self
    }
    const fn cluster(mut self) -> Self {
        self.namespaced = false;
        self
    }
    const fn status(mut self) -> Self {
        self.status = true;
        self
    }
    const fn generation(mut self) -> Self {
        self.generation = true;
        self
    }
    const fn scale(mut self) -> Self {
        self.scale = true;
        self
    }
    const fn all(mut self) -> Self {
        self.all = true;
        self
    }
    const fn virtual_create(mut self) -> Self {
        self.storage = Storage::Virtual;
        self
    }
}

const CORE: &str = "";
const APPS: &str = "apps";
const RBAC: &str = "rbac.authorization.k8s.io";
const FLOW: &str = "flowcontrol.apiserver.k8s.io";
const ADMISSION: &str = "admissionregistration.k8s.io";

/// Every built-in type, in slot order (the constants on [`Kind`] index this table).
const BUILTINS: [Builtin; 34] = [
    b(CORE, "Namespace", "namespaces")
        .short(&["ns"])
        .cluster()
        .status(),
    b(CORE, "Node", "nodes").short(&["no"]).cluster().status(),
    b(CORE, "Pod", "pods").short(&["po"]).status().all(),
    b(CORE, "ConfigMap", "configmaps").short(&["cm"]),
    b(CORE, "Event", "events").short(&["ev"]),
    b("policy", "PodDisruptionBudget", "poddisruptionbudgets")
        .short(&["pdb"])
        .status()
        .generation(),
    b("coordination.k8s.io", "Lease", "leases"),
    b(APPS, "Deployment", "deployments")
        .short(&["deploy"])
        .status()
        .generation()
        .scale()
        .all(),
    b(APPS, "ReplicaSet", "replicasets")
        .short(&["rs"])
        .status()
        .generation()
        .scale()
        .all(),
    b(APPS, "DaemonSet", "daemonsets")
        .short(&["ds"])
        .status()
        .generation()
        .all(),
    b(APPS, "StatefulSet", "statefulsets")
        .short(&["sts"])
        .status()
        .generation()
        .scale()
        .all(),
    b(CORE, "PersistentVolumeClaim", "persistentvolumeclaims")
        .short(&["pvc"])
        .status(),
    b(CORE, "PersistentVolume", "persistentvolumes")
        .short(&["pv"])
        .cluster()
        .status(),
    b(CORE, "Service", "services")
        .short(&["svc"])
        .status()
        .all(),
    b(CORE, "Endpoints", "endpoints").short(&["ep"]),
    b("discovery.k8s.io", "EndpointSlice", "endpointslices"),
    b(CORE, "Secret", "secrets"),
    b(CORE, "ServiceAccount", "serviceaccounts").short(&["sa"]),
    b(RBAC, "Role", "roles"),
    b(RBAC, "RoleBinding", "rolebindings"),
    b(RBAC, "ClusterRole", "clusterroles").cluster(),
    b(RBAC, "ClusterRoleBinding", "clusterrolebindings").cluster(),
    b("batch", "Job", "jobs").status().generation().all(),
    b("batch", "CronJob", "cronjobs")
        .short(&["cj"])
        .status()
        .generation()
        .all(),
    b("networking.k8s.io", "Ingress", "ingresses")
        .short(&["ing"])
        .status()
        .generation(),
    b(
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        "customresourcedefinitions",
    )
    .short(&["crd", "crds"])
    .cluster()
    .status()
    .generation(),
    b(FLOW, "FlowSchema", "flowschemas")
        .cluster()
        .status()
        .generation(),
    b(
        FLOW,
        "PriorityLevelConfiguration",
        "prioritylevelconfigurations",
    )
    .cluster()
    .status()
    .generation(),
    b(
        ADMISSION,
        "ValidatingWebhookConfiguration",
        "validatingwebhookconfigurations",
    )
    .cluster()
    .generation(),
    b(
        ADMISSION,
        "MutatingWebhookConfiguration",
        "mutatingwebhookconfigurations",
    )
    .cluster()
    .generation(),
    b("apiregistration.k8s.io", "APIService", "apiservices")
        .cluster()
        .status(),
    b(
        "authorization.k8s.io",
        "SelfSubjectAccessReview",
        "selfsubjectaccessreviews",
    )
    .cluster()
    .virtual_create(),
    b(
        "authorization.k8s.io",
        "SelfSubjectRulesReview",
        "selfsubjectrulesreviews",
    )
    .cluster()
    .virtual_create(),
    b(
        "authentication.k8s.io",
        "SelfSubjectReview",
        "selfsubjectreviews",
    )
    .cluster()
    .virtual_create(),
];

impl Kind {
    /// core/v1 Namespace.
    pub const NAMESPACE: Kind = Kind(0);
    /// core/v1 Node.
    pub const NODE: Kind = Kind(1);
    /// core/v1 Pod.
    pub const POD: Kind = Kind(2);
    /// core/v1 ConfigMap.
    pub const CONFIG_MAP: Kind = Kind(3);
    /// core/v1 Event.
    pub const EVENT: Kind = Kind(4);
    /// policy/v1 PodDisruptionBudget.
    pub const POD_DISRUPTION_BUDGET: Kind = Kind(5);
    /// coordination.k8s.io/v1 Lease.
    pub const LEASE: Kind = Kind(6);
    /// apps/v1 Deployment.
    pub const DEPLOYMENT: Kind = Kind(7);
    /// apps/v1 ReplicaSet.
    pub const REPLICA_SET: Kind = Kind(8);
    /// apps/v1 DaemonSet.
    pub const DAEMON_SET: Kind = Kind(9);
    /// apps/v1 StatefulSet.
    pub const STATEFUL_SET: Kind = Kind(10);
    /// core/v1 PersistentVolumeClaim.
    pub const PERSISTENT_VOLUME_CLAIM: Kind = Kind(11);
    /// core/v1 PersistentVolume.
    pub const PERSISTENT_VOLUME: Kind = Kind(12);
    /// core/v1 Service.
    pub const SERVICE: Kind = Kind(13);
    /// core/v1 Endpoints.
    pub const ENDPOINTS: Kind = Kind(14);
    /// discovery.k8s.io/v1 EndpointSlice.
    pub const ENDPOINT_SLICE: Kind = Kind(15);
    /// core/v1 Secret.
    pub const SECRET: Kind = Kind(16);
    /// core/v1 ServiceAccount.
    pub const SERVICE_ACCOUNT: Kind = Kind(17);
    /// rbac.authorization.k8s.io/v1 Role.
    pub const ROLE: Kind = Kind(18);
    /// rbac.authorization.k8s.io/v1 RoleBinding.
    pub const ROLE_BINDING: Kind = Kind(19);
    /// rbac.authorization.k8s.io/v1 ClusterRole.
    pub const CLUSTER_ROLE: Kind = Kind(20);
    /// rbac.authorization.k8s.io/v1 ClusterRoleBinding.
    pub const CLUSTER_ROLE_BINDING: Kind = Kind(21);
    /// batch/v1 Job.
    pub const JOB: Kind = Kind(22);
    /// batch/v1 CronJob.
    pub const CRON_JOB: Kind = Kind(23);
    /// networking.k8s.io/v1 Ingress.
    pub const INGRESS: Kind = Kind(24);
    /// apiextensions.k8s.io/v1 CustomResourceDefinition.
    pub const CUSTOM_RESOURCE_DEFINITION: Kind = Kind(25);
    /// flowcontrol.apiserver.k8s.io/v1 FlowSchema.
    pub const FLOW_SCHEMA: Kind = Kind(26);
    /// flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration.
    pub const PRIORITY_LEVEL_CONFIGURATION: Kind = Kind(27);
    /// admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration.
    pub const VALIDATING_WEBHOOK_CONFIGURATION: Kind = Kind(28);
    /// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration.
    pub const MUTATING_WEBHOOK_CONFIGURATION: Kind = Kind(29);
    /// apiregistration.k8s.io/v1 APIService.
    pub const API_SERVICE: Kind = Kind(30);
    /// authorization.k8s.io/v1 SelfSubjectAccessReview (create only).
    pub const SELF_SUBJECT_ACCESS_REVIEW: Kind = Kind(31);
    /// authorization.k8s.io/v1 SelfSubjectRulesReview (create only).
    pub const SELF_SUBJECT_RULES_REVIEW: Kind = Kind(32);
    /// authentication.k8s.io/v1 SelfSubjectReview (create only).
    pub const SELF_SUBJECT_REVIEW: Kind = Kind(33);

    /// The first slot free for custom resources.
    pub const FIRST_CUSTOM: u16 = BUILTINS.len() as u16;

    /// Index into per-slot storage.
    pub fn slot(self) -> usize {
        self.0 as usize
    }

    /// The facts of a built-in type. Custom types' facts live in their cluster's
    /// [`Registry`]; asking here for one answers an empty placeholder type.
    pub fn info(self) -> &'static ResourceType {
        BUILTIN_TYPES
            .get(self.slot())
            .map(Arc::as_ref)
            .unwrap_or(&UNKNOWN)
    }

    /// The `kind` value of a built-in type.
    pub fn kind(self) -> &'static str {
        &self.info().kind
    }

    /// The `apiVersion` value of a built-in type.
    pub fn api_version(self) -> String {
        self.info().api_version()
    }

    /// The plural of a built-in type.
    pub fn plural(self) -> &'static str {
        &self.info().plural
    }

    /// Whether objects of a built-in type live in a namespace.
    pub fn namespaced(self) -> bool {
        self.info().namespaced
    }
}

static UNKNOWN: LazyLock<ResourceType> = LazyLock::new(|| ResourceType {
    slot: Kind(u16::MAX),
    group: String::new(),
    version: String::new(),
    kind: String::new(),
    list_kind: String::new(),
    plural: String::new(),
    singular: String::new(),
    short_names: Vec::new(),
    categories: Vec::new(),
    namespaced: false,
    status: false,
    scale: false,
    generation: false,
    unconditional_update: true,
    storage: Storage::Virtual,
    schema: None,
    custom: false,
});

/// The built-in types, in slot order.
pub(crate) static BUILTIN_TYPES: LazyLock<Vec<Arc<ResourceType>>> = LazyLock::new(|| {
    BUILTINS
        .iter()
        .enumerate()
        .map(|(i, b)| {
            Arc::new(ResourceType {
                slot: Kind(i as u16),
                group: b.group.to_string(),
                version: "v1".into(),
                kind: b.kind.to_string(),
                list_kind: format!("{}List", b.kind),
                plural: b.plural.to_string(),
                singular: b.kind.to_ascii_lowercase(),
                short_names: b.short.iter().map(|s| s.to_string()).collect(),
                categories: if b.all {
                    vec!["all".into()]
                } else {
                    Vec::new()
                },
                namespaced: b.namespaced,
                status: b.status,
                scale: b.scale,
                generation: b.generation,
                unconditional_update: b.kind != "Lease",
                storage: b.storage,
                schema: None,
                custom: false,
            })
        })
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_name_their_builtin_types() {
        let r = Registry::builtin();
        for (k, kind, plural) in [
            (Kind::NAMESPACE, "Namespace", "namespaces"),
            (
                Kind::POD_DISRUPTION_BUDGET,
                "PodDisruptionBudget",
                "poddisruptionbudgets",
            ),
            (
                Kind::PERSISTENT_VOLUME,
                "PersistentVolume",
                "persistentvolumes",
            ),
            (Kind::SERVICE, "Service", "services"),
            (Kind::ROLE_BINDING, "RoleBinding", "rolebindings"),
            (Kind::CRON_JOB, "CronJob", "cronjobs"),
            (Kind::API_SERVICE, "APIService", "apiservices"),
            (
                Kind::SELF_SUBJECT_REVIEW,
                "SelfSubjectReview",
                "selfsubjectreviews",
            ),
        ] {
            assert_eq!((k.kind(), k.plural()), (kind, plural));
            let t = r.by_plural(&k.info().group, "v1", plural);
            assert_eq!(t.map(|t| t.slot), Some(k));
        }
        assert_eq!(Kind::LEASE.info().qualified(), "leases.coordination.k8s.io");
        assert!(!Kind::LEASE.info().unconditional_update);
        assert!(!Kind::PERSISTENT_VOLUME.namespaced());
        assert_eq!(Kind::STATEFUL_SET.api_version(), "apps/v1");
        assert_eq!(Kind(999).kind(), "");
    }
}
