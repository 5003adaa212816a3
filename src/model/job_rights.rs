//! What each of fleetdeck's jobs needs the right to do on a cluster, as data: written from
//! the requests the code makes (the fleet view's watches and identity check, the findings'
//! reads, a drain's cordon, evictions and node events, a release's apply and record).
//! `fleetdeck rbac` prints ClusterRoles from it, and the least-privilege finding judges
//! what an identity may do against it.

use crate::model::ledger::Job;

/// A right on a resource: an API group ("" for core), a resource (`pods/eviction` for a
/// subresource) and a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Right {
    /// API group.
    pub group: &'static str,
    /// Resource, as RBAC names it.
    pub resource: &'static str,
    /// Verb.
    pub verb: &'static str,
}

/// A group of rights as a role writes them, and whether the job cannot do without them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// API groups.
    pub groups: &'static [&'static str],
    /// Resources.
    pub resources: &'static [&'static str],
    /// Verbs.
    pub verbs: &'static [&'static str],
    /// Needed for the job to work at all (the fleet view's own watches; a drain's
    /// writes); `false` for what only a part of it reads (a finding, a workload's name).
    pub required: bool,
}

const WATCH: &[&str] = &["get", "list", "watch"];

const READ: &[Grant] = &[
    Grant {
        groups: &[""],
        resources: &["nodes", "pods"],
        verbs: WATCH,
        required: true,
    },
    Grant {
        groups: &["policy"],
        resources: &["poddisruptionbudgets"],
        verbs: WATCH,
        required: true,
    },
    Grant {
        groups: &[""],
        resources: &["namespaces"],
        verbs: &["get"],
        required: true,
    },
    Grant {
        groups: &[""],
        resources: &["persistentvolumeclaims", "persistentvolumes"],
        verbs: WATCH,
        required: false,
    },
    Grant {
        groups: &["apps"],
        resources: &["replicasets"],
        verbs: WATCH,
        required: false,
    },
    Grant {
        groups: &["batch"],
        resources: &["jobs"],
        verbs: WATCH,
        required: false,
    },
    Grant {
        groups: &["apps"],
        resources: &["deployments", "daemonsets", "statefulsets"],
        verbs: &["get", "list"],
        required: false,
    },
    Grant {
        groups: &["admissionregistration.k8s.io"],
        resources: &[
            "validatingwebhookconfigurations",
            "mutatingwebhookconfigurations",
        ],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["apiregistration.k8s.io"],
        resources: &["apiservices"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["discovery.k8s.io"],
        resources: &["endpointslices"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["flowcontrol.apiserver.k8s.io"],
        resources: &["flowschemas", "prioritylevelconfigurations"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["argoproj.io"],
        resources: &["applications"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["kustomize.toolkit.fluxcd.io"],
        resources: &["kustomizations"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["helm.toolkit.fluxcd.io"],
        resources: &["helmreleases"],
        verbs: &["list"],
        required: false,
    },
    Grant {
        groups: &["authorization.k8s.io"],
        resources: &["selfsubjectrulesreviews"],
        verbs: &["create"],
        required: false,
    },
];

// Reads go through the read job's identity; maintenance only changes.
const MAINTENANCE: &[Grant] = &[
    Grant {
        groups: &[""],
        resources: &["nodes"],
        verbs: &["patch"],
        required: true,
    },
    Grant {
        groups: &[""],
        resources: &["pods/eviction"],
        verbs: &["create"],
        required: true,
    },
    Grant {
        groups: &[""],
        resources: &["events"],
        verbs: &["create"],
        required: true,
    },
];

const RELEASE: &[Grant] = &[Grant {
    groups: &[""],
    resources: &["configmaps"],
    verbs: &["get", "create", "patch"],
    required: true,
}];

/// What `job` may need, as a role writes it (a release's own manifests' kinds come on
/// top of these, from its file).
pub fn grants(job: Job) -> &'static [Grant] {
    match job {
        Job::Read => READ,
        Job::Maintenance => MAINTENANCE,
        Job::Release => RELEASE,
    }
}

/// The paths outside the resource API `job` reads.
pub fn non_resource_urls(job: Job) -> &'static [&'static str] {
    match job {
        Job::Read => &[
            "/version", "/readyz", "/livez", "/api", "/api/*", "/apis", "/apis/*",
        ],
        Job::Maintenance => &[],
        Job::Release => &["/api", "/api/*", "/apis", "/apis/*"],
    }
}

/// Every single right of `grants`, the required ones only when `required_only`.
pub fn rights(grants: &[Grant], required_only: bool) -> Vec<Right> {
    let mut out = Vec::new();
    for grant in grants.iter().filter(|g| g.required || !required_only) {
        for group in grant.groups {
            for resource in grant.resources {
                for verb in grant.verbs {
                    out.push(Right {
                        group,
                        resource,
                        verb,
                    });
                }
            }
        }
    }
    out
}

/// Verbs that change something.
pub const WRITE_VERBS: &[&str] = &[
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "escalate",
    "bind",
    "impersonate",
    "*",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_read_job_changes_nothing_and_maintenance_only_what_a_drain_changes() {
        let read_writes: Vec<Right> = rights(grants(Job::Read), false)
            .into_iter()
            .filter(|r| WRITE_VERBS.contains(&r.verb))
            .collect();
        // Asking what it may do is the only "create" a reader makes; it changes nothing.
        assert_eq!(
            read_writes,
            [Right {
                group: "authorization.k8s.io",
                resource: "selfsubjectrulesreviews",
                verb: "create"
            }]
        );
        assert_eq!(
            rights(grants(Job::Maintenance), true)
                .iter()
                .map(|r| format!("{} {}", r.verb, r.resource))
                .collect::<Vec<_>>(),
            ["patch nodes", "create pods/eviction", "create events"]
        );
        assert!(rights(grants(Job::Read), true).len() < rights(grants(Job::Read), false).len());
    }
}
