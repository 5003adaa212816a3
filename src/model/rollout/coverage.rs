//! Version/hardware combinations: what a canary has to cover so that "it worked on the
//! canaries" means something for the rest of the fleet.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::model::ledger::Cluster;

/// The label that names a cluster's GPU product (`h100`, `a100`, …); the `gpuProduct`
/// entry of `versions` is used when the label is absent.
pub const GPU_PRODUCT_LABEL: &str = "accelerator";

/// What a cluster without a value for a dimension shows, so that "no GPU" is a
/// combination of its own rather than a gap.
pub const NONE: &str = "-";

/// One (kubernetes, runtime, kernel, CNI, GPU product) combination.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Combination {
    /// `versions.kubernetes`.
    pub kubernetes: String,
    /// `versions.runtime`.
    pub runtime: String,
    /// `versions.kernel`.
    pub kernel: String,
    /// `versions.cni`.
    pub cni: String,
    /// The GPU product (label `accelerator`, else `versions.gpuProduct`), `-` for none.
    pub gpu: String,
}

/// What a cluster was seen running, for the versions of a combination that can be seen
/// (the API server's, the nodes' runtime and kernel; the most common where nodes differ):
/// `None` where it could not be seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveVersions {
    /// `/version`'s gitVersion.
    pub kubernetes: Option<String>,
    /// The nodes' container runtime.
    pub runtime: Option<String>,
    /// The nodes' kernel.
    pub kernel: Option<String>,
}

impl Combination {
    /// The combination a cluster runs, as seen where `live` saw it and as the ledger says
    /// elsewhere. A live version that matches the ledger's (the same, or it with a `-…`
    /// or `+…` suffix, as drift is judged) keeps the ledger's spelling, so only a real
    /// difference makes another combination.
    pub fn live(cluster: &Cluster, live: Option<&LiveVersions>) -> Combination {
        let mut combination = Combination::of(cluster);
        let Some(live) = live else {
            return combination;
        };
        for (field, seen) in [
            (&mut combination.kubernetes, &live.kubernetes),
            (&mut combination.runtime, &live.runtime),
            (&mut combination.kernel, &live.kernel),
        ] {
            if let Some(seen) = seen
                && !crate::model::live::drift::version_matches(field, seen)
            {
                *field = seen.clone();
            }
        }
        combination
    }

    /// The combination a ledger cluster runs.
    pub fn of(cluster: &Cluster) -> Combination {
        let version = |key: &str| {
            cluster
                .versions
                .get(key)
                .cloned()
                .unwrap_or_else(|| NONE.to_string())
        };
        Combination {
            kubernetes: version("kubernetes"),
            runtime: version("runtime"),
            kernel: version("kernel"),
            cni: version("cni"),
            gpu: cluster
                .labels
                .get(GPU_PRODUCT_LABEL)
                .cloned()
                .unwrap_or_else(|| version("gpuProduct")),
        }
    }

    /// Each dimension with its value, for counting which single values are still untested.
    pub fn values(&self) -> [(&'static str, &str); 5] {
        [
            ("kubernetes", &self.kubernetes),
            ("runtime", &self.runtime),
            ("kernel", &self.kernel),
            ("cni", &self.cni),
            ("gpu", &self.gpu),
        ]
    }
}

impl std::fmt::Display for Combination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}/{}",
            self.kubernetes, self.runtime, self.kernel, self.cni, self.gpu
        )
    }
}

/// What has been tested so far: whole combinations and single dimension values.
#[derive(Debug, Clone, Default)]
pub struct Tested {
    combinations: BTreeSet<Combination>,
    values: BTreeSet<(&'static str, String)>,
}

impl Tested {
    /// Records that a cluster with `combo` received the release.
    pub fn add(&mut self, combo: &Combination) {
        self.combinations.insert(combo.clone());
        for (dim, value) in combo.values() {
            self.values.insert((dim, value.to_string()));
        }
    }

    /// Whether this exact combination has been tested.
    pub fn has(&self, combo: &Combination) -> bool {
        self.combinations.contains(combo)
    }

    /// How many of the combination's single values are not tested yet (a new kernel on a
    /// known Kubernetes still teaches something).
    pub fn new_values(&self, combo: &Combination) -> usize {
        combo
            .values()
            .iter()
            .filter(|(dim, value)| !self.values.contains(&(*dim, value.to_string())))
            .count()
    }

    /// The tested combinations.
    pub fn combinations(&self) -> &BTreeSet<Combination> {
        &self.combinations
    }
}

/// How many distinct combinations `clusters` cover.
pub fn distinct<'a>(clusters: impl IntoIterator<Item = &'a Cluster>) -> usize {
    clusters
        .into_iter()
        .map(Combination::of)
        .collect::<BTreeSet<_>>()
        .len()
}
