//! The capacity sentences as messages (`i18n::Msg`), beside the English their `Display`
//! writes: the console shows them in the reader's language. The English of each message
//! is the `Display` text byte for byte (`tests` compare them); JSON and the CLI's English
//! keep the `Display` text.

use crate::i18n::Msg;
use crate::model::fleet::{Dimension, OwnerRef};
use crate::model::text::count;

use super::explain::{HeadroomLimit, NodesNotCounted};
use super::whatif::Scenario;
use super::whatif_report::UnplacedReason;

/// `a, b, c` in the reader's punctuation, from messages.
pub fn joined(parts: impl IntoIterator<Item = Msg>) -> Msg {
    parts
        .into_iter()
        .reduce(|a, b| Msg::new("cap-join").arg("a", a).arg("b", b))
        .unwrap_or_else(|| Msg::new("cap-empty"))
}

/// `3 pods`, `1 pod` (digits grouped).
pub fn pods_msg(n: i64) -> Msg {
    Msg::new("cap-count-pods")
        .arg("count", n)
        .arg("n", count(n))
}

/// A dimension as a sentence names it (`CPU`, `memory`, `pods`).
pub fn dim_msg(dim: &Dimension) -> Msg {
    match dim {
        Dimension::Cpu => Msg::new("cap-word-cpu"),
        Dimension::Memory => Msg::new("cap-word-memory"),
        Dimension::Gpu => Msg::new("cap-word-gpu"),
        Dimension::Pods => Msg::new("cap-word-pods"),
        Dimension::Mig(p) => Msg::new("cap-word-mig").arg("profile", p.to_string()),
        Dimension::AttachableVolumes(d) => {
            Msg::new("cap-word-volumes").arg("driver", d.to_string())
        }
    }
}

/// The short word of a well-known domain key (`zone`), as `short_domain_name` has it.
fn domain_kind_msg(key: &str) -> Option<Msg> {
    let id = match key {
        "topology.kubernetes.io/zone" => "cap-domain-zone",
        "topology.kubernetes.io/region" => "cap-domain-region",
        "topology.kubernetes.io/rack" => "cap-domain-rack",
        "nvidia.com/gpu.clique" => "cap-domain-clique",
        "cloud.google.com/gce-topology-block" => "cap-domain-topology-block",
        "topology.k8s.aws/network-node-layer-3" => "cap-domain-network-block",
        _ => return None,
    };
    Some(Msg::new(id))
}

/// `kind owner namespace/name` of a group, as three arguments.
fn owner_args(msg: Msg, example: &(std::sync::Arc<str>, OwnerRef)) -> Msg {
    msg.arg("kind", example.1.kind.to_string())
        .arg("namespace", example.0.to_string())
        .arg("name", example.1.name.to_string())
}

impl Scenario {
    /// What is taken away, as a message (`after losing zone eu-west-1b`).
    pub fn msg(&self) -> Msg {
        match self {
            Self::Baseline => Msg::new("cap-scn-baseline"),
            Self::LoseNodes(nodes) if nodes.len() == 1 => {
                Msg::new("cap-scn-lose-node").arg("node", nodes[0].to_string())
            }
            Self::LoseNodes(nodes) => Msg::new("cap-scn-lose-nodes")
                .arg("count", nodes.len())
                .arg("n", nodes.len().to_string()),
            Self::LoseFailureDomain { key, value } => match domain_kind_msg(key) {
                Some(kind) => Msg::new("cap-scn-lose-domain")
                    .arg("kind", kind)
                    .arg("value", value.to_string()),
                None => Msg::new("cap-scn-lose-label")
                    .arg("key", key.to_string())
                    .arg("value", value.to_string()),
            },
            Self::LoseCluster => Msg::new("cap-scn-lose-cluster"),
            Self::MaintenanceBatch(nodes) if nodes.len() == 1 => {
                Msg::new("cap-scn-drain-node").arg("node", nodes[0].to_string())
            }
            Self::MaintenanceBatch(nodes) => Msg::new("cap-scn-drain-batch")
                .arg("count", nodes.len())
                .arg("n", nodes.len().to_string()),
        }
    }
}

impl UnplacedReason {
    /// Why the pods could not be placed, as a message.
    pub fn msg(&self) -> Msg {
        match self {
            Self::ClusterLost => Msg::new("cap-why-cluster-lost"),
            Self::NoEligibleNode => Msg::new("cap-why-no-eligible-node"),
            Self::VolumeDomainLost(domain) => {
                Msg::new("cap-why-volume-domain-lost").arg("domain", domain.to_string())
            }
            Self::VolumeWithLostCluster(domain) => {
                Msg::new("cap-why-volume-with-lost-cluster").arg("domain", domain.to_string())
            }
            Self::NotRunElsewhere => Msg::new("cap-why-not-run-elsewhere"),
            Self::Insufficient(dim) => Msg::new("cap-why-insufficient").arg("dim", dim_msg(dim)),
            Self::Fragmented => Msg::new("cap-why-fragmented"),
            Self::VolumesUnknown(why) => {
                Msg::new("cap-why-volumes-unknown").arg("why", why.to_string())
            }
        }
    }
}

impl NodesNotCounted {
    /// The sentence as a message (`nodes: 3 of 12 do not count: 3 not ready, all in zone
    /// eu-west-1b`).
    pub fn msg(&self) -> Msg {
        let reasons = joined(self.reasons.iter().map(|(reason, n)| {
            let id = match *reason {
                "not ready" => "cap-node-not-ready",
                "readiness unknown" => "cap-node-readiness-unknown",
                "cordoned" => "cap-node-cordoned",
                "in maintenance" => "cap-node-in-maintenance",
                _ => "cap-node-tainted",
            };
            Msg::new(id).arg("n", n.to_string())
        }));
        let msg = |id| {
            Msg::new(id)
                .arg("count", self.count.to_string())
                .arg("total", self.total.to_string())
                .arg("reasons", reasons.clone())
        };
        match &self.domain {
            None => msg("cap-nodes-not-counted"),
            Some((key, value)) => {
                let place = match domain_kind_msg(key) {
                    Some(kind) => Msg::new("cap-place-kind")
                        .arg("kind", kind)
                        .arg("value", value.to_string()),
                    None => Msg::new("cap-place-label")
                        .arg("key", key.to_string())
                        .arg("value", value.to_string()),
                };
                msg("cap-nodes-not-counted-in").arg("place", place)
            }
        }
    }
}

impl HeadroomLimit {
    /// The sentence as a message.
    pub fn msg(&self) -> Msg {
        let amount = |d: &Dimension, n: i64| super::format::amount_msg(d, n);
        match self {
            Self::GpuFragmented {
                free,
                gang,
                largest,
            } => Msg::new("cap-limit-gpu-fragmented")
                .arg("free", free.to_string())
                .arg("gang", gang.to_string())
                .arg("largest", largest.to_string()),
            Self::NegativeNow {
                dimension,
                headroom,
            } => Msg::new("cap-limit-negative-now")
                .arg("dim", dim_msg(dimension))
                .arg("amount", amount(dimension, *headroom)),
            Self::NegativeAfterDomainLoss {
                dimension,
                key,
                domain,
                headroom,
            } => {
                let kind =
                    domain_kind_msg(key).unwrap_or_else(|| Msg::new("cap-domain-failure-domain"));
                let scenario = Scenario::LoseFailureDomain {
                    key: std::sync::Arc::clone(key),
                    value: std::sync::Arc::clone(domain),
                };
                Msg::new("cap-limit-negative-after-loss")
                    .arg("dim", dim_msg(dimension))
                    .arg("kind", kind)
                    .arg("amount", amount(dimension, *headroom))
                    .arg("scenario", scenario.msg())
            }
            Self::Unplaceable {
                scenario,
                pods,
                example,
                reason,
            } => {
                let prefix = match reason {
                    UnplacedReason::Insufficient(dim) => dim_msg(dim),
                    _ => Msg::new("cap-word-placement"),
                };
                owner_args(Msg::new("cap-limit-unplaceable"), example)
                    .arg("prefix", prefix)
                    .arg("count", *pods)
                    .arg("pods", pods.to_string())
                    .arg("scenario", scenario.msg())
                    .arg("reason", reason.msg())
            }
            Self::WaitingNow {
                pods,
                example,
                reason,
            } => owner_args(Msg::new("cap-limit-waiting-now"), example)
                .arg("count", *pods)
                .arg("pods", pods.to_string())
                .arg("reason", reason.msg()),
            Self::StrandedByDomainLoss {
                scenario,
                pods,
                example,
            } => owner_args(Msg::new("cap-limit-stranded"), example)
                .arg("pods", pods.to_string())
                .arg("scenario", scenario.msg()),
            Self::NoFailureDomains { key } => {
                Msg::new("cap-limit-no-failure-domains").arg("key", key.to_string())
            }
            Self::UnhealthyNodes(nodes) => nodes.msg(),
        }
    }
}
