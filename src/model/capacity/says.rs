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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::i18n::Lang;
    use crate::model::fleet::{NodeName, RequiredDomain};

    fn owner() -> (Arc<str>, OwnerRef) {
        (
            Arc::from("shop"),
            OwnerRef {
                kind: Arc::from("ReplicaSet"),
                name: Arc::from("web-5f6c"),
            },
        )
    }

    fn zone() -> Scenario {
        Scenario::LoseFailureDomain {
            key: Arc::from("topology.kubernetes.io/zone"),
            value: Arc::from("eu-west-1b"),
        }
    }

    fn domain() -> RequiredDomain {
        RequiredDomain {
            key: Arc::from("topology.kubernetes.io/zone"),
            values: Arc::from(vec![Arc::from("a")]),
        }
    }

    /// Every shape of the sentences, with their messages: the English is the `Display`
    /// text byte for byte, and the Chinese is there, whole.
    #[test]
    fn each_sentence_says_in_english_what_display_writes_and_has_chinese() {
        let node = |n: &str| NodeName(Arc::from(n));
        let scenarios = [
            Scenario::Baseline,
            Scenario::LoseNodes(vec![node("n1")]),
            Scenario::LoseNodes(vec![node("n1"), node("n2")]),
            zone(),
            Scenario::LoseFailureDomain {
                key: Arc::from("example.com/pod"),
                value: Arc::from("p1"),
            },
            Scenario::LoseCluster,
            Scenario::MaintenanceBatch(vec![node("n1")]),
            Scenario::MaintenanceBatch(vec![node("n1"), node("n2"), node("n3")]),
        ];
        let reasons = [
            UnplacedReason::ClusterLost,
            UnplacedReason::NoEligibleNode,
            UnplacedReason::VolumeDomainLost(domain()),
            UnplacedReason::VolumeWithLostCluster(domain()),
            UnplacedReason::NotRunElsewhere,
            UnplacedReason::Insufficient(Dimension::Memory),
            UnplacedReason::Fragmented,
            UnplacedReason::VolumesUnknown(Arc::from("the claim is unreadable")),
        ];
        let limits = [
            HeadroomLimit::GpuFragmented {
                free: 16,
                gang: 8,
                largest: 2,
            },
            HeadroomLimit::NegativeNow {
                dimension: Dimension::Cpu,
                headroom: -1_500,
            },
            HeadroomLimit::NegativeAfterDomainLoss {
                dimension: Dimension::Memory,
                key: Arc::from("topology.kubernetes.io/zone"),
                domain: Arc::from("b"),
                headroom: -(3 << 30),
            },
            HeadroomLimit::Unplaceable {
                scenario: zone(),
                pods: 1,
                example: owner(),
                reason: UnplacedReason::Insufficient(Dimension::Gpu),
            },
            HeadroomLimit::Unplaceable {
                scenario: zone(),
                pods: 4,
                example: owner(),
                reason: UnplacedReason::Fragmented,
            },
            HeadroomLimit::WaitingNow {
                pods: 3,
                example: owner(),
                reason: UnplacedReason::VolumeDomainLost(domain()),
            },
            HeadroomLimit::StrandedByDomainLoss {
                scenario: zone(),
                pods: 2,
                example: owner(),
            },
            HeadroomLimit::NoFailureDomains {
                key: Arc::from("topology.kubernetes.io/zone"),
            },
            HeadroomLimit::UnhealthyNodes(NodesNotCounted {
                count: 3,
                total: 12,
                reasons: vec![("not ready", 2), ("cordoned", 1)],
                domain: Some((Arc::from("topology.kubernetes.io/zone"), Arc::from("b"))),
            }),
            HeadroomLimit::UnhealthyNodes(NodesNotCounted {
                count: 1,
                total: 4,
                reasons: vec![("tainted", 1)],
                domain: None,
            }),
        ];
        let said: Vec<(String, Msg)> = scenarios
            .iter()
            .map(|s| (s.to_string(), s.msg()))
            .chain(reasons.iter().map(|r| (r.to_string(), r.msg())))
            .chain(limits.iter().map(|l| (l.to_string(), l.msg())))
            .collect();
        for (english, msg) in said {
            assert_eq!(msg.text(Lang::En), english);
            let zh = msg.text(Lang::ZhCn);
            assert!(zh != english && !zh.contains('{'), "{english} → {zh}");
        }
        for (d, n) in [
            (Dimension::Cpu, 1_000),
            (Dimension::Cpu, 2_500),
            (Dimension::Memory, 3 << 29),
            (Dimension::Gpu, 1),
            (Dimension::Pods, -40),
            (Dimension::Mig(Arc::from("1g.5gb")), 2),
        ] {
            let english = super::super::format_amount(&d, n);
            assert_eq!(super::super::amount_msg(&d, n).text(Lang::En), english);
        }
    }

    #[test]
    fn a_what_if_verdict_reads_in_chinese_with_its_numbers() {
        let limit = HeadroomLimit::Unplaceable {
            scenario: zone(),
            pods: 4,
            example: owner(),
            reason: UnplacedReason::Insufficient(Dimension::Cpu),
        };
        assert_eq!(
            limit.msg().text(Lang::ZhCn),
            "CPU：失去可用区 eu-west-1b 后，4 个 Pod 无法重新调度（最大一组 ReplicaSet shop/web-5f6c：没有符合条件的节点有足够的空闲CPU）"
        );
        let nodes = HeadroomLimit::NegativeNow {
            dimension: Dimension::Cpu,
            headroom: -1_500,
        };
        assert_eq!(
            nodes.msg().text(Lang::ZhCn),
            "CPU：即使不损失任何资源，余量也为负（−1.5 核）"
        );
    }
}
