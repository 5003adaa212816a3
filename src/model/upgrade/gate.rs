//! A release's targets against the support matrix and, for a Kubernetes release, against
//! each target's upgrade readiness: a target whose resulting combination (its versions
//! with the release's bundle applied) is unsupported, or that is blocked or unknown for
//! the release's Kubernetes minor, is left out of the plan with the reason; an untested
//! resulting combination is a warning naming where it differs.

use std::collections::BTreeMap;

use serde::Serialize;

use super::matrix::{Support, SupportMatrix};
use super::readiness::{ClusterReadiness, Readiness};
use crate::model::ledger::{Cluster, ClusterId};

/// A target the plan leaves out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    /// The cluster.
    pub cluster: ClusterId,
    /// Why, in words.
    pub reason: String,
}

/// What the gate decided.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    /// Targets left out.
    pub left_out: Vec<LeftOut>,
    /// Targets kept, with what to know about them.
    pub warnings: Vec<String>,
}

impl Gate {
    /// Whether `cluster` is left out.
    pub fn leaves_out(&self, cluster: &ClusterId) -> bool {
        self.left_out.iter().any(|l| &l.cluster == cluster)
    }
}

/// A cluster's versions with the release's `bundle` applied.
pub fn resulting(cluster: &Cluster, bundle: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut out = cluster.versions.clone();
    for (component, version) in bundle {
        out.insert(component.clone(), version.clone());
    }
    out
}

/// The gate over `targets` for a release of `bundle`; `readiness` is each target's upgrade
/// check when the bundle names a Kubernetes version (a target missing from it is left
/// out: its readiness is not known).
pub fn gate(
    targets: &[&Cluster],
    bundle: &BTreeMap<String, String>,
    matrix: &SupportMatrix,
    readiness: Option<&[ClusterReadiness]>,
) -> Gate {
    let mut out = Gate::default();
    for cluster in targets {
        if let Some(checked) = readiness {
            let found = checked.iter().find(|r| r.cluster == cluster.id.0.as_ref());
            let reason = match found {
                None => Some("its upgrade readiness is unknown (not checked)".to_string()),
                Some(r) if r.readiness == Readiness::Blocked => Some(format!(
                    "blocked for {}: {}",
                    r.target,
                    r.blockers
                        .iter()
                        .map(|b| b.what.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                )),
                Some(r) if r.readiness == Readiness::Unknown => Some(format!(
                    "its readiness for {} is unknown: {}",
                    r.target,
                    r.unknown.join("; ")
                )),
                Some(_) => None,
            };
            if let Some(reason) = reason {
                out.left_out.push(LeftOut {
                    cluster: cluster.id.clone(),
                    reason,
                });
                continue;
            }
        }
        match matrix.judge(&resulting(cluster, bundle)) {
            Support::Unsupported { .. } => {
                let said = matrix.judge(&resulting(cluster, bundle)).describe();
                out.left_out.push(LeftOut {
                    cluster: cluster.id.clone(),
                    reason: format!("the combination it would run is {said}"),
                });
            }
            Support::Untested { closest, differs } => out.warnings.push(format!(
                "{} would run an untested combination: the closest validated one, {closest}, differs in {}",
                cluster.id,
                differs.join(", ")
            )),
            Support::Supported { .. } | Support::NoMatrix => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::upgrade::{Blocker, BlockerKind, Validated};

    fn cluster(id: &str, cni: &str) -> Cluster {
        let text = format!(
            "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nclusters:\n  - {{id: {id}, context: {id}, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {{kubernetes: v1.31.6, cni: {cni}}}}}\n"
        );
        crate::model::ledger::read_ledger(
            &text,
            &crate::model::ledger::LedgerContext {
                today: jiff::civil::date(2026, 12, 4),
                is_known_zone: &|_| true,
            },
        )
        .ledger
        .expect("ledger")
        .clusters
        .remove(0)
    }

    fn matrix() -> SupportMatrix {
        let combo = |name: &str, k: &str, cni: &str| Validated {
            name: name.into(),
            validated: jiff::civil::date(2026, 9, 1),
            evidence: "soak".into(),
            versions: BTreeMap::from([
                ("kubernetes".to_string(), k.to_string()),
                ("cni".to_string(), cni.to_string()),
            ]),
        };
        SupportMatrix(vec![
            combo("a", "v1.32", "cilium 1.16"),
            combo("b", "v1.31", "calico 3.29"),
        ])
    }

    fn ready(id: &str, readiness: Readiness, blockers: Vec<Blocker>) -> ClusterReadiness {
        ClusterReadiness {
            cluster: id.into(),
            current: Some("v1.31.6".into()),
            target: "v1.32".into(),
            readiness,
            blockers,
            unknown: Vec::new(),
        }
    }

    #[test]
    fn blocked_unknown_and_unsupported_targets_are_left_out_untested_ones_warned() {
        let (a, b, c, d) = (
            cluster("a", "cilium 1.16.6"),
            cluster("b", "cilium 1.16.6"),
            cluster("c", "calico 3.29.1"),
            cluster("d", "calico 3.28.2"),
        );
        let bundle = BTreeMap::from([("kubernetes".to_string(), "v1.32.3".to_string())]);
        let checked = vec![
            ready("a", Readiness::Ready, Vec::new()),
            ready(
                "b",
                Readiness::Blocked,
                vec![Blocker {
                    kind: BlockerKind::KubeletSkew,
                    what: "kubelet v1.28.15 on 2 node(s) is 4 minors behind v1.32".into(),
                    fix: String::new(),
                }],
            ),
            ready("c", Readiness::Ready, Vec::new()),
            ready("d", Readiness::Ready, Vec::new()),
        ];
        let gated = gate(&[&a, &b, &c, &d], &bundle, &matrix(), Some(&checked));
        assert_eq!(
            gated.left_out,
            [
                LeftOut {
                    cluster: "b".into(),
                    reason: "blocked for v1.32: kubelet v1.28.15 on 2 node(s) is 4 minors behind v1.32".into()
                },
                LeftOut {
                    cluster: "d".into(),
                    reason: "the combination it would run is unsupported: cni calico 3.28.2 is in no validated combination".into()
                },
            ]
        );
        assert_eq!(
            gated.warnings,
            ["c would run an untested combination: the closest validated one, a, differs in cni"]
        );
        let unchecked = gate(&[&a], &bundle, &matrix(), Some(&[]));
        assert_eq!(
            unchecked.left_out[0].reason,
            "its upgrade readiness is unknown (not checked)"
        );
    }
}
