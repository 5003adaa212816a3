//! The resource kinds the simulator serves, with the naming facts (plural, group, scope)
//! that paths, discovery and error messages are built from.

/// One Kubernetes resource kind served by the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// core/v1 Namespace (cluster-scoped).
    Namespace,
    /// core/v1 Node (cluster-scoped).
    Node,
    /// core/v1 Pod.
    Pod,
    /// core/v1 ConfigMap.
    ConfigMap,
    /// core/v1 Event.
    Event,
    /// policy/v1 PodDisruptionBudget.
    PodDisruptionBudget,
    /// coordination.k8s.io/v1 Lease.
    Lease,
    /// apps/v1 Deployment.
    Deployment,
    /// apps/v1 ReplicaSet.
    ReplicaSet,
    /// apps/v1 DaemonSet.
    DaemonSet,
    /// apps/v1 StatefulSet.
    StatefulSet,
    /// core/v1 PersistentVolumeClaim.
    PersistentVolumeClaim,
    /// core/v1 PersistentVolume (cluster-scoped).
    PersistentVolume,
}

impl Kind {
    /// Every kind, in a fixed order (used for storage slots and discovery).
    pub const ALL: [Kind; 13] = [
        Kind::Namespace,
        Kind::Node,
        Kind::Pod,
        Kind::ConfigMap,
        Kind::Event,
        Kind::PodDisruptionBudget,
        Kind::Lease,
        Kind::Deployment,
        Kind::ReplicaSet,
        Kind::DaemonSet,
        Kind::StatefulSet,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
    ];

    /// Position in [`Kind::ALL`], used to index per-kind storage.
    pub fn slot(self) -> usize {
        self as usize
    }

    /// The `kind` field value.
    pub fn kind(self) -> &'static str {
        match self {
            Kind::Namespace => "Namespace",
            Kind::Node => "Node",
            Kind::Pod => "Pod",
            Kind::ConfigMap => "ConfigMap",
            Kind::Event => "Event",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::Lease => "Lease",
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::DaemonSet => "DaemonSet",
            Kind::StatefulSet => "StatefulSet",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::PersistentVolume => "PersistentVolume",
        }
    }

    /// The lower-case plural used in paths.
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Namespace => "namespaces",
            Kind::Node => "nodes",
            Kind::Pod => "pods",
            Kind::ConfigMap => "configmaps",
            Kind::Event => "events",
            Kind::PodDisruptionBudget => "poddisruptionbudgets",
            Kind::Lease => "leases",
            Kind::Deployment => "deployments",
            Kind::ReplicaSet => "replicasets",
            Kind::DaemonSet => "daemonsets",
            Kind::StatefulSet => "statefulsets",
            Kind::PersistentVolumeClaim => "persistentvolumeclaims",
            Kind::PersistentVolume => "persistentvolumes",
        }
    }

    /// The lower-case singular name advertised in discovery.
    pub fn singular(self) -> String {
        self.kind().to_ascii_lowercase()
    }

    /// Short names advertised in discovery (what `kubectl get po` resolves).
    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            Kind::Namespace => &["ns"],
            Kind::Node => &["no"],
            Kind::Pod => &["po"],
            Kind::ConfigMap => &["cm"],
            Kind::Event => &["ev"],
            Kind::PodDisruptionBudget => &["pdb"],
            Kind::Lease => &[],
            Kind::Deployment => &["deploy"],
            Kind::ReplicaSet => &["rs"],
            Kind::DaemonSet => &["ds"],
            Kind::StatefulSet => &["sts"],
            Kind::PersistentVolumeClaim => &["pvc"],
            Kind::PersistentVolume => &["pv"],
        }
    }

    /// API group ("" for the core group).
    pub fn group(self) -> &'static str {
        match self {
            Kind::PodDisruptionBudget => "policy",
            Kind::Lease => "coordination.k8s.io",
            Kind::Deployment | Kind::ReplicaSet | Kind::DaemonSet | Kind::StatefulSet => "apps",
            _ => "",
        }
    }

    /// The `apiVersion` field value.
    pub fn api_version(self) -> &'static str {
        match self.group() {
            "" => "v1",
            "policy" => "policy/v1",
            "coordination.k8s.io" => "coordination.k8s.io/v1",
            _ => "apps/v1",
        }
    }

    /// Whether objects live in a namespace.
    pub fn namespaced(self) -> bool {
        !matches!(self, Kind::Namespace | Kind::Node | Kind::PersistentVolume)
    }

    /// Whether the kind has a `/status` subresource (main-resource writes keep status).
    pub fn has_status(self) -> bool {
        !matches!(self, Kind::ConfigMap | Kind::Event | Kind::Lease)
    }

    /// Whether `metadata.generation` is bumped on spec changes.
    pub fn tracks_generation(self) -> bool {
        matches!(
            self,
            Kind::PodDisruptionBudget
                | Kind::Deployment
                | Kind::ReplicaSet
                | Kind::DaemonSet
                | Kind::StatefulSet
        )
    }

    /// Whether an update without `metadata.resourceVersion` is accepted. Leases refuse it
    /// (422), which is what makes leader election safe.
    pub fn allows_unconditional_update(self) -> bool {
        !matches!(self, Kind::Lease)
    }

    /// `pods`, `leases.coordination.k8s.io`: the resource name used in error messages.
    pub fn qualified(self) -> String {
        match self.group() {
            "" => self.plural().to_string(),
            g => format!("{}.{}", self.plural(), g),
        }
    }

    /// `Pod`, `Lease.coordination.k8s.io`: the kind name used in "is invalid" messages.
    pub fn qualified_kind(self) -> String {
        match self.group() {
            "" => self.kind().to_string(),
            g => format!("{}.{}", self.kind(), g),
        }
    }

    /// Finds the kind served at `group`/`plural`.
    pub fn from_plural(group: &str, plural: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.group() == group && k.plural() == plural)
    }

    /// Verbs advertised in discovery.
    pub fn verbs(self) -> &'static [&'static str] {
        &[
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch",
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_lookup_round_trips() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_plural(k.group(), k.plural()), Some(k));
        }
        assert_eq!(Kind::Lease.qualified(), "leases.coordination.k8s.io");
    }

    #[test]
    fn volumes_are_core_and_only_claims_are_namespaced() {
        assert_eq!(
            Kind::from_plural("apps", "statefulsets"),
            Some(Kind::StatefulSet)
        );
        assert_eq!(Kind::PersistentVolumeClaim.api_version(), "v1");
        assert!(Kind::PersistentVolumeClaim.namespaced());
        assert!(!Kind::PersistentVolume.namespaced());
        assert!(Kind::StatefulSet.tracks_generation());
        assert_eq!(Kind::PersistentVolume.short_names(), &["pv"]);
    }
}
