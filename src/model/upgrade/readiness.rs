//! Whether one cluster is ready for a Kubernetes minor release, before the first batch:
//! the control plane goes one minor at a time; kubelets stay within the skew the target
//! allows; no client still requests, no webhook or APIService still names, and no CRD
//! still stores objects in, an API version the target removes; its add-ons are validated
//! with the target in the support matrix. Each blocker says what to do; what could not be
//! read is unknown, never ready.

use std::collections::BTreeMap;

use serde::Serialize;

use super::matrix::SupportMatrix;
use super::removed::{removed_between, removed_version};
use super::version::{Minor, covers};
use crate::model::findings::Read;

/// How far behind the API server a kubelet may be (the version skew policy since 1.28).
pub const KUBELET_SKEW: u32 = 3;

/// A request for a deprecated API, as the API server counts it
/// (`apiserver_requested_deprecated_apis`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeprecatedRequest {
    /// API group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Resource.
    pub resource: String,
    /// The release it is removed in, as the server labels it (`1.32`), if it says.
    pub removed_release: Option<String>,
}

/// A CRD's stored versions against those it serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredVersions {
    /// The CRD's name.
    pub crd: String,
    /// `status.storedVersions`.
    pub stored: Vec<String>,
    /// The versions it serves.
    pub served: Vec<String>,
}

/// One rule of an admission webhook, or an APIService's group and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionUse {
    /// What names it: `ValidatingWebhookConfiguration/kyverno webhook validate.kyverno.svc`,
    /// `APIService/v1beta1.metrics.k8s.io`.
    pub by: String,
    /// API groups (`*` for all).
    pub groups: Vec<String>,
    /// API versions (`*` for all).
    pub versions: Vec<String>,
}

/// What is read from a cluster for the check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeFacts {
    /// The API server's version (`/version`).
    pub server: Read<String>,
    /// Kubelet versions and how many nodes run each.
    pub kubelets: Read<Vec<(String, u32)>>,
    /// Requests for deprecated APIs the server counted.
    pub deprecated_requests: Read<Vec<DeprecatedRequest>>,
    /// Every CRD's stored and served versions.
    pub stored_versions: Read<Vec<StoredVersions>>,
    /// Admission webhook rules and APIServices, with the versions they name.
    pub version_uses: Read<Vec<VersionUse>>,
}

impl UpgradeFacts {
    /// Nothing could be read, for `why`.
    pub fn unknown(why: &str) -> UpgradeFacts {
        UpgradeFacts {
            server: Read::Unknown(why.to_string()),
            kubelets: Read::Unknown(why.to_string()),
            deprecated_requests: Read::Unknown(why.to_string()),
            stored_versions: Read::Unknown(why.to_string()),
            version_uses: Read::Unknown(why.to_string()),
        }
    }
}

/// What keeps a cluster from the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BlockerKind {
    /// The control plane would skip a minor.
    ControlPlaneSkip,
    /// Kubelets further behind the target than the skew policy allows.
    KubeletSkew,
    /// A client requests an API the target removes.
    RemovedApiInUse,
    /// A CRD stores objects in a version it no longer serves.
    StoredVersion,
    /// A webhook rule or APIService names a version the target removes.
    RemovedVersionNamed,
    /// An add-on's version is not validated with the target.
    AddOn,
}

/// One reason the cluster is not ready, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Blocker {
    /// What kind.
    pub kind: BlockerKind,
    /// What, in words.
    pub what: String,
    /// What to do.
    pub fix: String,
}

/// The verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Readiness {
    /// Nothing found in the way, and everything could be read.
    Ready,
    /// At least one blocker.
    Blocked,
    /// No blocker found, but something could not be read: not ready, not blocked.
    Unknown,
    /// Already at (or past) the target.
    AtTarget,
}

impl Readiness {
    /// The word tables print.
    pub fn label(self) -> &'static str {
        match self {
            Readiness::Ready => "ready",
            Readiness::Blocked => "blocked",
            Readiness::Unknown => "unknown",
            Readiness::AtTarget => "at target",
        }
    }
}

/// One cluster's readiness for the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterReadiness {
    /// Ledger id.
    pub cluster: String,
    /// The version it runs.
    pub current: Option<String>,
    /// The target.
    pub target: String,
    /// The verdict.
    pub readiness: Readiness,
    /// Each blocker.
    pub blockers: Vec<Blocker>,
    /// What could not be read.
    pub unknown: Vec<String>,
}

/// The check of one cluster (`ledger_versions`: the ledger's component versions, for the
/// add-ons; `matrix`: the support matrix).
pub fn check(
    cluster: &str,
    target: Minor,
    facts: &UpgradeFacts,
    ledger_versions: &BTreeMap<String, String>,
    matrix: &SupportMatrix,
) -> ClusterReadiness {
    let mut blockers = Vec::new();
    let mut unknown = Vec::new();
    let current = match &facts.server {
        Read::Known(v) => Some(v.clone()),
        Read::Unknown(why) => {
            unknown.push(format!("the API server's version: {why}"));
            None
        }
    };
    let done = |readiness, blockers, unknown| ClusterReadiness {
        cluster: cluster.to_string(),
        current: current.clone(),
        target: target.to_string(),
        readiness,
        blockers,
        unknown,
    };
    let Some(now) = current.as_deref().and_then(Minor::parse) else {
        if current.is_some() {
            unknown.push(format!(
                "the API server's version {:?} is not a Kubernetes version",
                current.as_deref().unwrap_or_default()
            ));
        }
        return done(Readiness::Unknown, blockers, unknown);
    };
    if now >= target {
        return done(Readiness::AtTarget, blockers, unknown);
    }
    if now.behind(target) > 1 {
        blockers.push(Blocker {
            kind: BlockerKind::ControlPlaneSkip,
            what: format!(
                "the control plane runs {now}: {target} is {} minors ahead, and a control plane goes one minor at a time",
                now.behind(target)
            ),
            fix: format!("upgrade to {} first", now.next()),
        });
    }
    match &facts.kubelets {
        Read::Known(kubelets) => {
            for (version, nodes) in kubelets {
                let Some(kubelet) = Minor::parse(version) else {
                    unknown.push(format!("kubelet version {version:?} cannot be read"));
                    continue;
                };
                if kubelet.behind(target) > KUBELET_SKEW {
                    blockers.push(Blocker {
                        kind: BlockerKind::KubeletSkew,
                        what: format!(
                            "kubelet {version} on {nodes} node(s) is {} minors behind {target}; kubelets may be at most {KUBELET_SKEW} behind the API server",
                            kubelet.behind(target)
                        ),
                        fix: format!(
                            "upgrade those nodes to at least v{}.{} before the control plane",
                            target.major,
                            target.minor.saturating_sub(KUBELET_SKEW)
                        ),
                    });
                }
            }
        }
        Read::Unknown(why) => unknown.push(format!("kubelet versions: {why}")),
    }
    let removals = removed_between(now, target);
    match &facts.deprecated_requests {
        Read::Known(requests) => {
            for request in requests {
                let removed_by_label = request
                    .removed_release
                    .as_deref()
                    .and_then(Minor::parse)
                    .is_some_and(|at| at > now && at <= target);
                let removed_by_table = removals.iter().any(|r| {
                    r.group == request.group
                        && r.version == request.version
                        && r.resource == request.resource
                });
                if removed_by_label || removed_by_table {
                    let gv = group_version(&request.group, &request.version);
                    let instead = removals
                        .iter()
                        .find(|r| r.group == request.group && r.version == request.version)
                        .map_or_else(|| "a served version".to_string(), |r| r.instead.to_string());
                    blockers.push(Blocker {
                        kind: BlockerKind::RemovedApiInUse,
                        what: format!(
                            "clients request {gv} {}, removed in {target} or before (apiserver_requested_deprecated_apis)",
                            request.resource
                        ),
                        fix: format!(
                            "move those clients to {instead} (the API server's audit log names them)"
                        ),
                    });
                }
            }
        }
        Read::Unknown(why) => unknown.push(format!("deprecated API requests: {why}")),
    }
    match &facts.stored_versions {
        Read::Known(crds) => {
            for crd in crds {
                let stale: Vec<&String> = crd
                    .stored
                    .iter()
                    .filter(|v| !crd.served.contains(v))
                    .collect();
                if !stale.is_empty() {
                    let stale = stale
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ");
                    blockers.push(Blocker {
                        kind: BlockerKind::StoredVersion,
                        what: format!(
                            "CRD {} still lists {stale} in status.storedVersions, which it no longer serves",
                            crd.crd
                        ),
                        fix: "migrate its stored objects to a served version (a storage version migration), then drop the old one from status.storedVersions".into(),
                    });
                }
            }
        }
        Read::Unknown(why) => unknown.push(format!("CRD stored versions: {why}")),
    }
    match &facts.version_uses {
        Read::Known(uses) => {
            for used in uses {
                for group in &used.groups {
                    for version in &used.versions {
                        if let Some(r) = removed_version(group, version, target)
                            .filter(|r| now.major != 1 || r.removed_in > now.minor)
                        {
                            blockers.push(Blocker {
                                kind: BlockerKind::RemovedVersionNamed,
                                what: format!(
                                    "{} names {}, removed in v1.{}",
                                    used.by,
                                    group_version(group, version),
                                    r.removed_in
                                ),
                                fix: format!("name {} instead", r.instead),
                            });
                        }
                    }
                }
            }
        }
        Read::Unknown(why) => unknown.push(format!("webhooks and APIServices: {why}")),
    }
    if !matrix.0.is_empty() {
        let allowed = matrix.with_kubernetes(&target.to_string());
        if allowed.is_empty() {
            unknown.push(format!(
                "the support matrix has no combination with {target}"
            ));
        }
        for (component, patterns) in &allowed {
            let Some(version) = ledger_versions.get(component) else {
                continue;
            };
            if !patterns.iter().any(|p| covers(p, version)) {
                blockers.push(Blocker {
                    kind: BlockerKind::AddOn,
                    what: format!(
                        "{component} {version} is not validated with {target} (validated: {})",
                        patterns.join(", ")
                    ),
                    fix: format!("upgrade {component} to a validated version first"),
                });
            }
        }
    }
    blockers.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.what.cmp(&b.what)));
    blockers.dedup();
    let readiness = if !blockers.is_empty() {
        Readiness::Blocked
    } else if !unknown.is_empty() {
        Readiness::Unknown
    } else {
        Readiness::Ready
    };
    done(readiness, blockers, unknown)
}

fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

#[cfg(test)]
#[path = "readiness_tests.rs"]
mod tests;
