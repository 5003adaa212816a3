//! Drift: where the ledger and the live fleet disagree. Reported with the ledger edit that
//! would make the ledger true; the ledger is never rewritten silently.

use serde::Serialize;

use super::snapshot::{FleetSnapshot, VersionCount};
use super::status::ClusterStatus;
use crate::model::ledger::Ledger;

/// What kind of disagreement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DriftKind {
    /// The cluster could not be observed; nothing about it can be confirmed.
    Unobservable {
        /// Its status.
        status: ClusterStatus,
        /// Why, if known.
        error: Option<String>,
    },
    /// The cluster is not the one the ledger pins.
    Identity {
        /// What differs.
        reason: String,
    },
    /// The ledger pins no identity; the observed one could be pinned.
    UnpinnedIdentity {
        /// Observed kube-system UID.
        #[serde(rename = "kubeSystemUID")]
        kube_system_uid: String,
        /// Observed server.
        server: String,
    },
    /// Kubelets outside the version skew the API server supports: newer than it, or more
    /// than three minor versions older. Not a ledger edit: the nodes must be upgraded.
    KubeletSkew {
        /// The API server's version.
        api_server: String,
        /// The kubelet versions outside the policy (most common first).
        live: Vec<String>,
    },
    /// A version in the ledger differs from what nodes or the API server report.
    Version {
        /// Which version (`kubernetes`, `kubelet`, `kernel`, `runtime`).
        component: String,
        /// What the ledger says.
        ledger: String,
        /// What the cluster reports (most common first).
        live: Vec<String>,
        /// The same with how many nodes report each, for scripts (empty for the API
        /// server's version).
        nodes: Vec<VersionCount>,
    },
}

/// A ledger edit that would make the ledger true, for scripts (`suggestion` says it in
/// one line for people).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEdit {
    /// The cluster's field: `versions.kubernetes`, `identity`.
    pub field: String,
    /// What the ledger says now; none when the field is absent.
    pub from: Option<String>,
    /// What it would say.
    pub to: String,
}

impl DriftKind {
    /// What disagrees, in a word or two (`kubernetes`, `gpuDriver`, `identity`), for
    /// summaries; `None` for a cluster that could not be observed (its status says so).
    pub fn topic(&self) -> Option<String> {
        Some(match self {
            DriftKind::Version { component, .. } => component.clone(),
            DriftKind::KubeletSkew { .. } => "kubelet skew".into(),
            DriftKind::Identity { .. } => "identity".into(),
            DriftKind::UnpinnedIdentity { .. } => "identity not pinned".into(),
            DriftKind::Unobservable { .. } => return None,
        })
    }
}

/// One disagreement about one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Drift {
    /// Ledger id.
    pub cluster: String,
    /// What disagrees.
    #[serde(flatten)]
    pub kind: DriftKind,
    /// The ledger edit that would make it true, when there is one, in one line.
    pub suggestion: Option<String>,
    /// The same edit as fields.
    pub edit: Option<LedgerEdit>,
    /// Set when the edit is a decision only a person can make, saying what to make sure
    /// of first (re-pinning an identity: a new UID may be an impostor).
    pub decision: Option<String>,
}

impl Drift {
    /// A disagreement with no ledger edit to suggest.
    fn plain(cluster: &str, kind: DriftKind) -> Drift {
        Drift {
            cluster: cluster.to_string(),
            kind,
            suggestion: None,
            edit: None,
            decision: None,
        }
    }

    /// A disagreement the edit would mend.
    fn mended_by(cluster: &str, kind: DriftKind, edit: LedgerEdit) -> Drift {
        let text = match &edit.from {
            Some(from) => format!(
                "clusters[id={cluster}].{}: {from} -> {}",
                edit.field, edit.to
            ),
            None => format!("clusters[id={cluster}].{}: {}", edit.field, edit.to),
        };
        Drift {
            cluster: cluster.to_string(),
            kind,
            suggestion: Some(text),
            edit: Some(edit),
            decision: None,
        }
    }

    /// Drops the suggested edit (another drift already suggests it, or it would
    /// contradict one).
    fn without_edit(&mut self) {
        self.suggestion = None;
        self.edit = None;
    }
}

fn strip_v(v: &str) -> &str {
    v.strip_prefix('v').unwrap_or(v)
}

/// Whether a node-reported version matches the ledger's (`6.1.0-28` matches
/// `6.1.0-28-amd64`: kernels carry an architecture suffix the ledger usually omits).
pub(crate) fn version_matches(ledger: &str, live: &str) -> bool {
    let (ledger, live) = (strip_v(ledger), strip_v(live));
    live == ledger
        || live.starts_with(&format!("{ledger}-"))
        || live.starts_with(&format!("{ledger}+"))
}

/// The `(major, minor)` of a Kubernetes version (`v1.31.4-eks-1234` → `(1, 31)`).
fn major_minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = strip_v(version).split('.');
    let major = parts.next()?.parse().ok()?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, minor.parse().ok()?))
}

/// Kubelets the skew policy does not allow with an API server at `api_server`.
fn kubelet_skew(cluster: &str, api_server: &str, kubelets: &[VersionCount]) -> Option<Drift> {
    let (server_major, server_minor) = major_minor(api_server)?;
    let outside: Vec<String> = kubelets
        .iter()
        .filter(|k| match major_minor(&k.version) {
            Some((major, minor)) => {
                major != server_major || minor > server_minor || minor + 3 < server_minor
            }
            None => false,
        })
        .map(|k| format!("{} ({} nodes)", k.version, k.nodes))
        .collect();
    (!outside.is_empty()).then(|| {
        Drift::plain(
            cluster,
            DriftKind::KubeletSkew {
                api_server: api_server.to_string(),
                live: outside,
            },
        )
    })
}

fn version_drift(
    cluster: &str,
    component: &str,
    ledger_key: &str,
    ledger_value: Option<&String>,
    live: &[VersionCount],
) -> Option<Drift> {
    let ledger_value = ledger_value?;
    if live.is_empty()
        || live
            .iter()
            .all(|v| version_matches(ledger_value, &v.version))
    {
        return None;
    }
    let kind = DriftKind::Version {
        component: component.to_string(),
        ledger: ledger_value.clone(),
        live: live
            .iter()
            .map(|v| format!("{} ({} nodes)", v.version, v.nodes))
            .collect(),
        nodes: live.to_vec(),
    };
    // A cluster mid-upgrade has no single truth to write.
    Some(match live {
        [only] => Drift::mended_by(
            cluster,
            kind,
            LedgerEdit {
                field: format!("versions.{ledger_key}"),
                from: Some(ledger_value.clone()),
                to: only.version.to_string(),
            },
        ),
        _ => Drift::plain(cluster, kind),
    })
}

/// What a person must make sure of before re-pinning a cluster's identity.
pub const REPIN_DECISION: &str = "a decision for a person, not a correction: a new kube-system UID is what a rebuilt cluster shows, and also what another cluster behind this context shows; re-pin only once you know it is the same cluster (its owner rebuilt it), else fix the context";

/// Every disagreement between `ledger` and `snapshot`, in ledger order.
pub fn find_drift(ledger: &Ledger, snapshot: &FleetSnapshot) -> Vec<Drift> {
    let mut out = Vec::new();
    for cluster in &ledger.clusters {
        let id = cluster.id.0.as_str();
        let Some(live) = snapshot.cluster(id) else {
            continue;
        };
        if let Some(verdict) = &live.identity_verdict {
            match verdict {
                super::IdentityVerdict::Mismatch { reason } => {
                    let kind = DriftKind::Identity {
                        reason: reason.clone(),
                    };
                    // The re-pin that would make the ledger true, offered as a person's
                    // decision: a cluster rebuilt under the same name looks exactly like
                    // another cluster behind the same context.
                    let drift = match (&cluster.identity, &live.identity) {
                        (Some(pinned), Some(observed)) => {
                            let mut drift = Drift::mended_by(
                                id,
                                kind,
                                LedgerEdit {
                                    field: "identity".into(),
                                    from: Some(format!(
                                        "{{kubeSystemUID: {}, server: {}}}",
                                        pinned.kube_system_uid, pinned.server
                                    )),
                                    to: format!(
                                        "{{kubeSystemUID: {}, server: {}}}",
                                        observed.kube_system_uid, observed.server
                                    ),
                                },
                            );
                            drift.decision = Some(REPIN_DECISION.to_string());
                            drift
                        }
                        _ => Drift::plain(id, kind),
                    };
                    out.push(drift);
                    // Nothing else about an impostor is worth comparing.
                    continue;
                }
                super::IdentityVerdict::NotPinned => {
                    if let Some(observed) = &live.identity {
                        out.push(Drift::mended_by(
                            id,
                            DriftKind::UnpinnedIdentity {
                                kube_system_uid: observed.kube_system_uid.clone(),
                                server: observed.server.clone(),
                            },
                            LedgerEdit {
                                field: "identity".into(),
                                from: None,
                                to: format!(
                                    "{{kubeSystemUID: {}, server: {}}}",
                                    observed.kube_system_uid, observed.server
                                ),
                            },
                        ));
                    }
                }
                super::IdentityVerdict::Match => {}
            }
        }
        if !live.status.data_usable() {
            out.push(Drift::plain(
                id,
                DriftKind::Unobservable {
                    status: live.status,
                    error: live.last_error.clone(),
                },
            ));
            continue;
        }
        let kubernetes = cluster.versions.get("kubernetes");
        if let Some(server) = &live.server_version {
            let api = [VersionCount {
                version: server.as_str().into(),
                nodes: 0,
            }];
            if let Some(mut drift) = version_drift(id, "kubernetes", "kubernetes", kubernetes, &api)
            {
                if let DriftKind::Version { live, nodes, .. } = &mut drift.kind {
                    *live = vec![server.clone()];
                    nodes.clear();
                }
                out.push(drift);
            }
        }
        // The ledger's `kubernetes` is the control plane's version; kubelets lag it
        // during every upgrade (control plane first). They are reported against it, but
        // suggest a ledger edit only when the API server runs that same version, or the
        // two suggestions would contradict each other under normal skew.
        if let Some(mut drift) = version_drift(
            id,
            "kubelet",
            "kubernetes",
            kubernetes,
            &live.kubelet_versions,
        ) {
            let agrees_with_server = live.server_version.as_deref().is_some_and(|server| {
                live.kubelet_versions
                    .first()
                    .is_some_and(|k| version_matches(&k.version, server))
            });
            if !agrees_with_server {
                drift.without_edit();
            }
            out.push(drift);
        }
        if let Some(server) = &live.server_version {
            out.extend(kubelet_skew(id, server, &live.kubelet_versions));
        }
        out.extend(version_drift(
            id,
            "kernel",
            "kernel",
            cluster.versions.get("kernel"),
            &live.kernel_versions,
        ));
        out.extend(version_drift(
            id,
            "runtime",
            "runtime",
            cluster.versions.get("runtime"),
            &live.runtime_versions,
        ));
        // A ledger's `gpuDriver: none` is a claim too: a driver on its nodes is drift.
        out.extend(version_drift(
            id,
            "gpuDriver",
            "gpuDriver",
            cluster.versions.get("gpuDriver"),
            &live.gpu_driver_versions,
        ));
    }
    // The API server and the kubelets can both point at the same ledger edit.
    let mut seen = std::collections::HashSet::new();
    for drift in &mut out {
        if let Some(s) = &drift.suggestion
            && !seen.insert(s.clone())
        {
            drift.without_edit();
        }
    }
    out
}

/// Why a ledger version was not compared with the live cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum NotComparedWhy {
    /// Nothing fleetdeck watches reports it (etcd, CNI, CSI, …: their versions live in
    /// pods' images or on the control plane, which it does not read).
    NotWatched,
    /// fleetdeck reads it, but this cluster reported none (no node carries GPU feature
    /// discovery's driver labels, or the API server's version is not read yet).
    NotReported,
}

impl NotComparedWhy {
    /// In words, for the table.
    pub fn describe(self, component: &str) -> &'static str {
        match (self, component) {
            (Self::NotWatched, _) => "nothing fleetdeck watches reports it",
            (Self::NotReported, "gpuDriver") => {
                "no node carries GPU feature discovery's driver labels"
            }
            (Self::NotReported, "kubernetes") => "the API server's version is not read yet",
            (Self::NotReported, _) => "no node reports it",
        }
    }
}

/// A ledger version that could not be compared, and the clusters where it could not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotCompared {
    /// The ledger's `versions` key.
    pub component: String,
    /// Why not.
    pub why: NotComparedWhy,
    /// Ledger ids, in ledger order.
    pub clusters: Vec<String>,
}

/// The ledger's version keys [`find_drift`] compares, each with the live reading it is
/// compared against (`None` when the cluster reported nothing for it).
fn live_reading(key: &str, live: &super::ClusterSnapshot) -> Option<bool> {
    Some(match key {
        "kubernetes" => live.server_version.is_some(),
        "kernel" => !live.kernel_versions.is_empty(),
        "runtime" => !live.runtime_versions.is_empty(),
        "gpuDriver" => !live.gpu_driver_versions.is_empty(),
        _ => return None,
    })
}

/// The ledger versions [`find_drift`] could not check on clusters it could observe, so a
/// clean report is not read as "everything matches". A cluster it could not observe or
/// whose identity is wrong is reported as drift instead, and a ledger value `none` (the
/// component is absent) is left out unless fleetdeck reads it.
pub fn not_compared(ledger: &Ledger, snapshot: &FleetSnapshot) -> Vec<NotCompared> {
    let mut out: std::collections::BTreeMap<(NotComparedWhy, &str), Vec<String>> =
        Default::default();
    for cluster in &ledger.clusters {
        let id = cluster.id.0.as_str();
        let Some(live) = snapshot.cluster(id) else {
            continue;
        };
        let impostor = matches!(
            live.identity_verdict,
            Some(super::IdentityVerdict::Mismatch { .. })
        );
        if impostor || !live.status.data_usable() {
            continue;
        }
        for (key, value) in &cluster.versions {
            let why = match live_reading(key, live) {
                Some(true) => continue,
                // Nothing read and nothing claimed: they agree.
                Some(false) if value == "none" => continue,
                Some(false) => NotComparedWhy::NotReported,
                None if value == "none" => continue,
                None => NotComparedWhy::NotWatched,
            };
            out.entry((why, key.as_str()))
                .or_default()
                .push(id.to_string());
        }
    }
    out.into_iter()
        .map(|((why, component), clusters)| NotCompared {
            component: component.to_string(),
            why,
            clusters,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_match_with_prefix_and_suffix_rules() {
        assert!(version_matches("v1.31.4", "v1.31.4"));
        assert!(version_matches("1.31.4", "v1.31.4"));
        assert!(version_matches("6.1.0-28", "6.1.0-28-amd64"));
        assert!(!version_matches("6.1.0-28", "6.1.0-280"));
        assert!(!version_matches("v1.31.4", "v1.31.5"));
    }

    #[test]
    fn kubelets_outside_the_skew_policy_are_reported_without_a_ledger_edit() {
        let kubelets = |versions: &[&str]| -> Vec<VersionCount> {
            versions
                .iter()
                .map(|v| VersionCount {
                    version: (*v).into(),
                    nodes: 2,
                })
                .collect()
        };
        // Up to three minors older is allowed; newer, or four older, is not.
        assert!(kubelet_skew("c1", "v1.32.1", &kubelets(&["v1.31.4", "v1.29.0-eks-1"])).is_none());
        let drift = kubelet_skew(
            "c1",
            "v1.32.1",
            &kubelets(&["v1.33.0", "v1.28.9", "v1.32.1"]),
        )
        .expect("outside the policy");
        assert_eq!(drift.suggestion, None);
        assert_eq!(
            drift.kind,
            DriftKind::KubeletSkew {
                api_server: "v1.32.1".into(),
                live: vec!["v1.33.0 (2 nodes)".into(), "v1.28.9 (2 nodes)".into()],
            }
        );
    }

    #[test]
    fn kubelets_lagging_an_upgraded_control_plane_suggest_no_ledger_edit() {
        let ledger = crate::model::ledger::one_cluster_ledger("versions: {kubernetes: v1.32.1}");
        let mut live = super::super::ClusterSnapshot::connecting("c1");
        live.status = ClusterStatus::Synced;
        live.server_version = Some("v1.32.1".into());
        live.kubelet_versions = vec![VersionCount {
            version: "v1.31.4".into(),
            nodes: 5,
        }];
        let mut snapshot = FleetSnapshot::empty();
        snapshot.clusters = std::sync::Arc::from(vec![std::sync::Arc::new(live)]);
        let drift = find_drift(&ledger, &snapshot);
        assert_eq!(drift.len(), 1, "{drift:?}");
        assert!(
            matches!(&drift[0].kind, DriftKind::Version { component, .. } if component == "kubelet")
        );
        assert_eq!(
            drift[0].suggestion, None,
            "the ledger is right about the API server"
        );
    }

    #[test]
    fn a_mismatched_identity_offers_the_re_pin_as_a_persons_decision() {
        let ledger = crate::model::ledger::one_cluster_ledger(
            "identity: {kubeSystemUID: 11111111-1111-1111-1111-111111111111, server: https://c1:6443}",
        );
        let mut live = synced("c1");
        live.identity = Some(super::super::ObservedIdentity {
            kube_system_uid: "22222222-2222-2222-2222-222222222222".into(),
            server: "https://c1:6443".into(),
        });
        live.identity_verdict = Some(super::super::IdentityVerdict::Mismatch {
            reason: "kube-system UID differs".into(),
        });
        let drift = find_drift(&ledger, &fleet(vec![live]));
        assert_eq!(drift.len(), 1, "{drift:?}");
        assert_eq!(
            drift[0].suggestion.as_deref(),
            Some(
                "clusters[id=c1].identity: {kubeSystemUID: 11111111-1111-1111-1111-111111111111, server: https://c1:6443} -> {kubeSystemUID: 22222222-2222-2222-2222-222222222222, server: https://c1:6443}"
            )
        );
        let decision = drift[0].decision.as_deref().expect("a decision");
        assert!(
            decision.contains("a decision for a person") && decision.contains("another cluster")
        );
    }

    fn synced(id: &str) -> super::super::ClusterSnapshot {
        let mut live = super::super::ClusterSnapshot::connecting(id);
        live.status = ClusterStatus::Synced;
        live.server_version = Some("v1.32.1".into());
        live.kernel_versions = vec![VersionCount {
            version: "6.1.0-31-cloud-amd64".into(),
            nodes: 3,
        }];
        live
    }

    fn fleet(clusters: Vec<super::super::ClusterSnapshot>) -> FleetSnapshot {
        let mut snapshot = FleetSnapshot::empty();
        snapshot.clusters = clusters.into_iter().map(std::sync::Arc::new).collect();
        snapshot
    }

    #[test]
    fn a_gpu_driver_the_nodes_report_is_compared_and_none_is_a_claim_too() {
        let ledger = crate::model::ledger::one_cluster_ledger(
            "versions: {kubernetes: v1.32.1, gpuDriver: 550.127.05}",
        );
        let mut live = synced("c1");
        live.gpu_driver_versions = vec![
            VersionCount {
                version: "550.127.08".into(),
                nodes: 6,
            },
            VersionCount {
                version: "550.127.05".into(),
                nodes: 2,
            },
        ];
        let drift = find_drift(&ledger, &fleet(vec![live.clone()]));
        assert_eq!(
            drift,
            vec![Drift {
                cluster: "c1".into(),
                kind: DriftKind::Version {
                    component: "gpuDriver".into(),
                    ledger: "550.127.05".into(),
                    live: vec!["550.127.08 (6 nodes)".into(), "550.127.05 (2 nodes)".into()],
                    nodes: live.gpu_driver_versions.clone(),
                },
                suggestion: None,
                edit: None,
                decision: None,
            }],
            "a driver rollout half done is drift, with no single edit to suggest"
        );

        let none = crate::model::ledger::one_cluster_ledger(
            "versions: {kubernetes: v1.32.1, gpuDriver: none}",
        );
        live.gpu_driver_versions.truncate(1);
        let drift = find_drift(&none, &fleet(vec![live.clone()]));
        assert_eq!(
            drift[0].suggestion.as_deref(),
            Some("clusters[id=c1].versions.gpuDriver: none -> 550.127.08")
        );
        assert_eq!(
            drift[0].edit,
            Some(LedgerEdit {
                field: "versions.gpuDriver".into(),
                from: Some("none".into()),
                to: "550.127.08".into(),
            })
        );
        live.gpu_driver_versions.clear();
        assert!(find_drift(&none, &fleet(vec![live])).is_empty());
    }

    #[test]
    fn versions_nothing_reports_are_listed_as_not_compared() {
        let ledger = crate::model::ledger::one_cluster_ledger(
            "versions: {kubernetes: v1.32.1, kernel: 6.1.0-31-cloud-amd64, etcd: 3.5.17, cni: none, gpuDriver: 550.127.05}",
        );
        let live = synced("c1");
        assert!(find_drift(&ledger, &fleet(vec![live.clone()])).is_empty());
        assert_eq!(
            not_compared(&ledger, &fleet(vec![live.clone()])),
            vec![
                NotCompared {
                    component: "etcd".into(),
                    why: NotComparedWhy::NotWatched,
                    clusters: vec!["c1".into()],
                },
                NotCompared {
                    component: "gpuDriver".into(),
                    why: NotComparedWhy::NotReported,
                    clusters: vec!["c1".into()],
                },
            ],
            "kubernetes and kernel were compared; cni claims nothing"
        );
        // A cluster that cannot be observed, or is another cluster, is drift instead.
        let mut down = live.clone();
        down.status = ClusterStatus::Unreachable;
        assert!(not_compared(&ledger, &fleet(vec![down])).is_empty());
        let mut impostor = live;
        impostor.identity_verdict = Some(super::super::IdentityVerdict::Mismatch {
            reason: "kube-system UID differs".into(),
        });
        assert!(not_compared(&ledger, &fleet(vec![impostor])).is_empty());
    }

    #[test]
    fn single_live_version_gets_a_suggestion() {
        let live = [VersionCount {
            version: "v1.32.1".into(),
            nodes: 3,
        }];
        let drift = version_drift(
            "c1",
            "kubelet",
            "kubernetes",
            Some(&"v1.31.4".to_string()),
            &live,
        )
        .unwrap();
        assert_eq!(
            drift.suggestion.as_deref(),
            Some("clusters[id=c1].versions.kubernetes: v1.31.4 -> v1.32.1")
        );
        let mixed = [
            VersionCount {
                version: "v1.32.1".into(),
                nodes: 3,
            },
            VersionCount {
                version: "v1.31.4".into(),
                nodes: 1,
            },
        ];
        let drift = version_drift(
            "c1",
            "kubelet",
            "kubernetes",
            Some(&"v1.31.4".to_string()),
            &mixed,
        )
        .unwrap();
        assert_eq!(
            drift.suggestion, None,
            "a cluster mid-upgrade has no single truth to write"
        );
    }
}
