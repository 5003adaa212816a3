//! The APIs Kubernetes removed, release by release (the deprecated API migration guide,
//! kubernetes.io/docs/reference/using-api/deprecation-guide): a cluster upgraded to or past
//! the release no longer serves them, so a client, a webhook rule or an APIService that
//! still uses one breaks. Data, not fetched.

use super::version::Minor;

/// One API version of one resource, removed in a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    /// API group ("" for core).
    pub group: &'static str,
    /// The version removed.
    pub version: &'static str,
    /// The resource (plural).
    pub resource: &'static str,
    /// The release that stopped serving it (its minor).
    pub removed_in: u32,
    /// What to use instead (`v1`).
    pub instead: &'static str,
}

const fn r(
    group: &'static str,
    version: &'static str,
    resource: &'static str,
    removed_in: u32,
    instead: &'static str,
) -> Removed {
    Removed {
        group,
        version,
        resource,
        removed_in,
        instead,
    }
}

/// Every removal fleetdeck knows of, oldest first.
pub const REMOVED: &[Removed] = &[
    r("extensions", "v1beta1", "deployments", 16, "apps/v1"),
    r("extensions", "v1beta1", "daemonsets", 16, "apps/v1"),
    r("extensions", "v1beta1", "replicasets", 16, "apps/v1"),
    r("apps", "v1beta1", "deployments", 16, "apps/v1"),
    r("apps", "v1beta2", "deployments", 16, "apps/v1"),
    r(
        "admissionregistration.k8s.io",
        "v1beta1",
        "validatingwebhookconfigurations",
        22,
        "admissionregistration.k8s.io/v1",
    ),
    r(
        "admissionregistration.k8s.io",
        "v1beta1",
        "mutatingwebhookconfigurations",
        22,
        "admissionregistration.k8s.io/v1",
    ),
    r(
        "apiextensions.k8s.io",
        "v1beta1",
        "customresourcedefinitions",
        22,
        "apiextensions.k8s.io/v1",
    ),
    r(
        "apiregistration.k8s.io",
        "v1beta1",
        "apiservices",
        22,
        "apiregistration.k8s.io/v1",
    ),
    r(
        "certificates.k8s.io",
        "v1beta1",
        "certificatesigningrequests",
        22,
        "certificates.k8s.io/v1",
    ),
    r(
        "coordination.k8s.io",
        "v1beta1",
        "leases",
        22,
        "coordination.k8s.io/v1",
    ),
    r(
        "extensions",
        "v1beta1",
        "ingresses",
        22,
        "networking.k8s.io/v1",
    ),
    r(
        "networking.k8s.io",
        "v1beta1",
        "ingresses",
        22,
        "networking.k8s.io/v1",
    ),
    r(
        "networking.k8s.io",
        "v1beta1",
        "ingressclasses",
        22,
        "networking.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io",
        "v1beta1",
        "clusterroles",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io",
        "v1beta1",
        "clusterrolebindings",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io",
        "v1beta1",
        "roles",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "rbac.authorization.k8s.io",
        "v1beta1",
        "rolebindings",
        22,
        "rbac.authorization.k8s.io/v1",
    ),
    r(
        "scheduling.k8s.io",
        "v1beta1",
        "priorityclasses",
        22,
        "scheduling.k8s.io/v1",
    ),
    r(
        "storage.k8s.io",
        "v1beta1",
        "storageclasses",
        22,
        "storage.k8s.io/v1",
    ),
    r(
        "storage.k8s.io",
        "v1beta1",
        "volumeattachments",
        22,
        "storage.k8s.io/v1",
    ),
    r(
        "storage.k8s.io",
        "v1beta1",
        "csidrivers",
        22,
        "storage.k8s.io/v1",
    ),
    r(
        "storage.k8s.io",
        "v1beta1",
        "csinodes",
        22,
        "storage.k8s.io/v1",
    ),
    r("batch", "v1beta1", "cronjobs", 25, "batch/v1"),
    r(
        "discovery.k8s.io",
        "v1beta1",
        "endpointslices",
        25,
        "discovery.k8s.io/v1",
    ),
    r("events.k8s.io", "v1beta1", "events", 25, "events.k8s.io/v1"),
    r(
        "autoscaling",
        "v2beta1",
        "horizontalpodautoscalers",
        25,
        "autoscaling/v2",
    ),
    r("policy", "v1beta1", "poddisruptionbudgets", 25, "policy/v1"),
    r(
        "policy",
        "v1beta1",
        "podsecuritypolicies",
        25,
        "Pod Security Admission",
    ),
    r(
        "node.k8s.io",
        "v1beta1",
        "runtimeclasses",
        25,
        "node.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta1",
        "flowschemas",
        26,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta1",
        "prioritylevelconfigurations",
        26,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "autoscaling",
        "v2beta2",
        "horizontalpodautoscalers",
        26,
        "autoscaling/v2",
    ),
    r(
        "storage.k8s.io",
        "v1beta1",
        "csistoragecapacities",
        27,
        "storage.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "flowschemas",
        29,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "prioritylevelconfigurations",
        29,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        "flowschemas",
        32,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        "prioritylevelconfigurations",
        32,
        "flowcontrol.apiserver.k8s.io/v1",
    ),
];

/// The removals that take effect on the way from `current` to `target` (removed after
/// `current`, at or before `target`): what still works today and breaks after.
pub fn removed_between(current: Minor, target: Minor) -> Vec<Removed> {
    REMOVED
        .iter()
        .filter(|r| target.major == 1 && r.removed_in <= target.minor)
        .filter(|r| current.major != 1 || r.removed_in > current.minor)
        .copied()
        .collect()
}

/// The removal of `group/version` (any resource) by `target`, if there is one.
pub fn removed_version(group: &str, version: &str, target: Minor) -> Option<Removed> {
    REMOVED
        .iter()
        .find(|r| {
            r.group == group
                && r.version == version
                && target.major == 1
                && r.removed_in <= target.minor
        })
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_between_two_releases_are_those_after_the_one_and_by_the_other() {
        let m = |s| Minor::parse(s).unwrap();
        let between = removed_between(m("v1.31.4"), m("v1.32"));
        assert_eq!(
            between
                .iter()
                .map(|r| format!("{}/{} {}", r.group, r.version, r.resource))
                .collect::<Vec<_>>(),
            [
                "flowcontrol.apiserver.k8s.io/v1beta3 flowschemas",
                "flowcontrol.apiserver.k8s.io/v1beta3 prioritylevelconfigurations"
            ]
        );
        assert!(removed_between(m("v1.32.0"), m("v1.32")).is_empty());
        assert_eq!(removed_between(m("v1.24.0"), m("v1.26")).len(), 10);
        assert!(removed_version("batch", "v1beta1", m("v1.25")).is_some());
        assert!(removed_version("batch", "v1beta1", m("v1.24")).is_none());
    }
}
