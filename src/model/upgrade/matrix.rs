//! The support matrix: the combinations of versions the platform has validated
//! (Kubernetes, etcd, runtime, kernel, CNI, CSI, GPU driver and device plugin, ingress…),
//! each with when and on what evidence. A release is a validated combination, not a
//! version name: a cluster's combination is supported when one validated combination
//! covers every version it lists, untested when each version was validated but never in
//! this combination, unsupported when a version was never validated at all.

use std::collections::BTreeMap;

use jiff::civil::Date;
use serde::Serialize;

use super::version::covers;

/// One validated combination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Validated {
    /// Its name (`2026-10 baseline`).
    pub name: String,
    /// When it was validated.
    pub validated: Date,
    /// On what evidence (a CI run, a staging soak, a vendor's statement).
    pub evidence: String,
    /// Component → version pattern (`kubernetes: v1.32`, `cni: cilium 1.16`).
    pub versions: BTreeMap<String, String>,
}

/// Every validated combination.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct SupportMatrix(pub Vec<Validated>);

/// A combination against the matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "support", rename_all = "camelCase")]
pub enum Support {
    /// A validated combination covers it.
    Supported {
        /// The combination's name.
        combination: String,
    },
    /// Each version was validated, but never together with the others.
    Untested {
        /// The validated combination closest to it, and the components in which it
        /// differs.
        closest: String,
        /// Those components.
        differs: Vec<String>,
    },
    /// A version no validated combination has.
    Unsupported {
        /// Each such component and its version (`cni: cilium 1.13.4`).
        components: Vec<(String, String)>,
    },
    /// There is no matrix to judge by.
    NoMatrix,
}

impl Support {
    /// A word for tables: `supported`, `untested`, `unsupported`, `no matrix`.
    pub fn label(&self) -> &'static str {
        match self {
            Support::Supported { .. } => "supported",
            Support::Untested { .. } => "untested",
            Support::Unsupported { .. } => "unsupported",
            Support::NoMatrix => "no matrix",
        }
    }

    /// In words: which combination, or what is outside it.
    pub fn describe(&self) -> String {
        match self {
            Support::Supported { combination } => format!("supported ({combination})"),
            Support::Untested { closest, differs } => format!(
                "untested: closest validated combination {closest} differs in {}",
                differs.join(", ")
            ),
            Support::Unsupported { components } => format!(
                "unsupported: {}",
                components
                    .iter()
                    .map(|(c, v)| format!("{c} {v} is in no validated combination"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Support::NoMatrix => "no support matrix".into(),
        }
    }
}

impl SupportMatrix {
    /// No combination at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The components the matrix speaks of.
    pub fn components(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .0
            .iter()
            .flat_map(|c| c.versions.keys().map(String::as_str))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `versions` (component → version, as the ledger or a release bundle writes them)
    /// against the matrix. Only the components the matrix speaks of are judged.
    pub fn judge(&self, versions: &BTreeMap<String, String>) -> Support {
        if self.0.is_empty() {
            return Support::NoMatrix;
        }
        let judged: Vec<(&str, &str)> = self
            .components()
            .into_iter()
            .filter_map(|c| versions.get(c).map(|v| (c, v.as_str())))
            .collect();
        // Components the combination does not name are not part of what it validated.
        let differs = |combination: &Validated| -> Vec<String> {
            judged
                .iter()
                .filter(|(c, v)| {
                    combination
                        .versions
                        .get(*c)
                        .is_some_and(|pattern| !covers(pattern, v))
                })
                .map(|(c, _)| c.to_string())
                .collect()
        };
        if let Some(found) = self.0.iter().find(|c| differs(c).is_empty()) {
            return Support::Supported {
                combination: found.name.clone(),
            };
        }
        let unvalidated: Vec<(String, String)> = judged
            .iter()
            .filter(|(c, v)| {
                !self
                    .0
                    .iter()
                    .any(|combo| combo.versions.get(*c).is_some_and(|p| covers(p, v)))
            })
            .map(|(c, v)| (c.to_string(), v.to_string()))
            .collect();
        if !unvalidated.is_empty() {
            return Support::Unsupported {
                components: unvalidated,
            };
        }
        let (closest, differs) = self
            .0
            .iter()
            .map(|c| (c, differs(c)))
            .min_by_key(|(_, d)| d.len())
            .map(|(c, d)| (c.name.clone(), d))
            .unwrap_or_default();
        Support::Untested { closest, differs }
    }

    /// What the matrix says each component may be run at on `kubernetes`: the patterns
    /// of every combination validated with it (`cni` → [`cilium 1.16`, `cilium 1.17`]).
    pub fn with_kubernetes(&self, kubernetes: &str) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for combination in &self.0 {
            let Some(pattern) = combination.versions.get("kubernetes") else {
                continue;
            };
            if !covers(pattern, kubernetes) {
                continue;
            }
            for (component, version) in &combination.versions {
                if component != "kubernetes" {
                    let entry = out.entry(component.clone()).or_default();
                    if !entry.contains(version) {
                        entry.push(version.clone());
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combo(name: &str, versions: &[(&str, &str)]) -> Validated {
        Validated {
            name: name.into(),
            validated: jiff::civil::date(2026, 10, 15),
            evidence: "staging soak".into(),
            versions: versions
                .iter()
                .map(|(c, v)| (c.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn matrix() -> SupportMatrix {
        SupportMatrix(vec![
            combo(
                "2026-09",
                &[
                    ("kubernetes", "v1.31"),
                    ("cni", "cilium 1.15"),
                    ("kernel", "6.1"),
                ],
            ),
            combo(
                "2026-10",
                &[
                    ("kubernetes", "v1.32"),
                    ("cni", "cilium 1.16"),
                    ("kernel", "6.1"),
                ],
            ),
        ])
    }

    fn versions(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(c, v)| (c.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_validated_combination_covers_its_patch_releases() {
        let judged = matrix().judge(&versions(&[
            ("kubernetes", "v1.32.3"),
            ("cni", "cilium 1.16.6"),
            ("kernel", "6.1.0-31-cloud-amd64"),
            ("csi", "ebs-csi 1.38.1"),
        ]));
        assert_eq!(
            judged,
            Support::Supported {
                combination: "2026-10".into()
            },
            "a component the matrix does not speak of is not judged"
        );
    }

    #[test]
    fn versions_validated_apart_are_untested_together() {
        let judged = matrix().judge(&versions(&[
            ("kubernetes", "v1.32.3"),
            ("cni", "cilium 1.15.9"),
            ("kernel", "6.1.0-31"),
        ]));
        assert_eq!(
            judged,
            Support::Untested {
                closest: "2026-09".into(),
                differs: vec!["kubernetes".into()]
            }
        );
        assert_eq!(judged.label(), "untested");
    }

    #[test]
    fn a_version_never_validated_is_unsupported_naming_it() {
        let judged = matrix().judge(&versions(&[
            ("kubernetes", "v1.32.3"),
            ("cni", "cilium 1.13.4"),
        ]));
        assert_eq!(
            judged.describe(),
            "unsupported: cni cilium 1.13.4 is in no validated combination"
        );
        assert_eq!(
            SupportMatrix::default().judge(&versions(&[])),
            Support::NoMatrix
        );
        assert_eq!(
            matrix().with_kubernetes("v1.32.3").get("cni"),
            Some(&vec!["cilium 1.16".to_string()])
        );
    }
}
