//! What limits a cluster's headroom, as typed findings that render as plain sentences
//! ("GPU: 16 free but no node has 8 (largest gang 2)").

use std::fmt;
use std::sync::Arc;

use super::format::format_amount;
use super::gpu_shape::GpuShape;
use super::health::NodeHealth;
use super::n_minus_one::FailureDomainHeadroom;
use super::whatif::{Scenario, short_domain_name};
use super::whatif_report::{UnplacedReason, WhatIfReport};
use crate::model::fleet::{Dimension, OwnerRef};

/// One thing that limits a cluster's headroom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadroomLimit {
    /// Enough GPUs in total, but not on one node for the largest configured gang.
    GpuFragmented {
        /// Free physical GPUs in the cluster.
        free: i64,
        /// Gang size that does not fit.
        gang: u32,
        /// Largest gang that does fit on one node.
        largest: i64,
    },
    /// Headroom is already negative with nothing lost.
    NegativeNow {
        /// Dimension.
        dimension: Dimension,
        /// Headroom after reservations and safety reserve.
        headroom: i64,
    },
    /// Losing the worst failure domain leaves negative headroom.
    NegativeAfterDomainLoss {
        /// Dimension.
        dimension: Dimension,
        /// Failure-domain label key.
        key: Arc<str>,
        /// Worst domain.
        domain: Arc<str>,
        /// Headroom after losing it.
        headroom: i64,
    },
    /// Losing a failure domain leaves pods without a node.
    Unplaceable {
        /// The scenario with the most unplaced pods.
        scenario: Scenario,
        /// Unplaced pods.
        pods: u32,
        /// Largest group's owner and namespace.
        example: (Arc<str>, OwnerRef),
        /// Largest group's reason.
        reason: UnplacedReason,
    },
    /// Pods wait now, held by their volumes where no healthy node is left (a zone that is
    /// down): no capacity elsewhere takes them.
    WaitingNow {
        /// Pods waiting.
        pods: u32,
        /// Largest group's owner and namespace.
        example: (Arc<str>, OwnerRef),
        /// Largest group's reason (where their volumes hold them).
        reason: UnplacedReason,
    },
    /// Losing a failure domain would stop a workload whole: every one of its pods waits
    /// there for the domain to return, held by its volume. Not capacity missing, but an
    /// outage a spread of replicas across domains would avoid.
    StrandedByDomainLoss {
        /// The domain loss.
        scenario: Scenario,
        /// The workload's pods (all of them).
        pods: u32,
        /// The workload's namespace and owner.
        example: (Arc<str>, OwnerRef),
    },
    /// No node carries the failure-domain label: N−1 is unknown, not fine.
    NoFailureDomains {
        /// The label key looked for.
        key: Arc<str>,
    },
    /// Some nodes do not count as healthy allocatable.
    UnhealthyNodes(NodesNotCounted),
}

/// The nodes that do not count, and why: "3 not ready, all in zone eu-west-1b" says a
/// zone is down where a bare count would not.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodesNotCounted {
    /// Nodes not counted.
    pub count: u32,
    /// All nodes.
    pub total: u32,
    /// How many for each reason, most first.
    pub reasons: Vec<(&'static str, u32)>,
    /// The failure domain all of them are in, when they share one (and are more than one).
    pub domain: Option<(Arc<str>, Arc<str>)>,
}

impl NodesNotCounted {
    /// Tallies `health` (per node, in view order) with each node's failure-domain value.
    pub fn tally<'a>(
        health: &[NodeHealth],
        domain_of: impl Fn(usize) -> Option<&'a Arc<str>>,
        key: &Arc<str>,
    ) -> NodesNotCounted {
        let mut reasons: Vec<(&'static str, u32)> = Vec::new();
        let mut domains: Vec<Option<&Arc<str>>> = Vec::new();
        for (i, h) in health.iter().enumerate() {
            let reason = match h {
                NodeHealth::Healthy => continue,
                NodeHealth::NotReady => "not ready",
                NodeHealth::ReadinessUnknown => "readiness unknown",
                NodeHealth::Cordoned => "cordoned",
                NodeHealth::UnderMaintenance => "in maintenance",
                NodeHealth::Tainted(_) => "tainted",
            };
            match reasons.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => reasons.push((reason, 1)),
            }
            domains.push(domain_of(i));
        }
        reasons.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let count = u32::try_from(domains.len()).unwrap_or(u32::MAX);
        let domain = match domains.as_slice() {
            [Some(first), rest @ ..]
                if !rest.is_empty() && rest.iter().all(|d| *d == Some(*first)) =>
            {
                Some((Arc::clone(key), Arc::clone(first)))
            }
            _ => None,
        };
        NodesNotCounted {
            count,
            total: u32::try_from(health.len()).unwrap_or(u32::MAX),
            reasons,
            domain,
        }
    }
}

impl fmt::Display for NodesNotCounted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        write!(
            f,
            "nodes: {} of {} do not count: {}",
            self.count,
            self.total,
            reasons.join(", ")
        )?;
        if let Some((key, value)) = &self.domain {
            match short_domain_name(key) {
                Some(name) => write!(f, ", all in {name} {value}")?,
                None => write!(f, ", all in {key}={value}")?,
            }
        }
        Ok(())
    }
}

impl HeadroomLimit {
    /// A stable name for the kind of limit, for scripts that filter on it (the sentence
    /// is for people and may change).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::GpuFragmented { .. } => "gpuFragmented",
            Self::NegativeNow { .. } => "negativeNow",
            Self::NegativeAfterDomainLoss { .. } => "negativeAfterDomainLoss",
            Self::Unplaceable { .. } => "unplaceable",
            Self::WaitingNow { .. } => "waitingNow",
            Self::StrandedByDomainLoss { .. } => "strandedByDomainLoss",
            Self::NoFailureDomains { .. } => "noFailureDomains",
            Self::UnhealthyNodes(_) => "unhealthyNodes",
        }
    }
}

impl fmt::Display for HeadroomLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GpuFragmented {
                free,
                gang,
                largest,
            } => {
                write!(
                    f,
                    "GPU: {free} free but no node has {gang} (largest gang {largest})"
                )
            }
            Self::NegativeNow {
                dimension,
                headroom,
            } => write!(
                f,
                "{dimension}: headroom is negative ({}) even with nothing lost",
                format_amount(dimension, *headroom)
            ),
            Self::NegativeAfterDomainLoss {
                dimension,
                key,
                domain,
                headroom,
            } => {
                let kind = short_domain_name(key).unwrap_or("failure-domain");
                let scenario = Scenario::LoseFailureDomain {
                    key: Arc::clone(key),
                    value: Arc::clone(domain),
                };
                write!(
                    f,
                    "{dimension}: N−1 {kind} headroom is negative ({}) {scenario}",
                    format_amount(dimension, *headroom)
                )
            }
            Self::Unplaceable {
                scenario,
                pods,
                example,
                reason,
            } => {
                let prefix = match reason {
                    UnplacedReason::Insufficient(dim) => dim.to_string(),
                    _ => "placement".to_owned(),
                };
                let noun = if *pods == 1 { "pod" } else { "pods" };
                write!(
                    f,
                    "{prefix}: {pods} {noun} cannot be re-placed {scenario} (largest group {} {}/{}: {reason})",
                    example.1.kind, example.0, example.1.name
                )
            }
            Self::WaitingNow {
                pods,
                example,
                reason,
            } => {
                let verb = if *pods == 1 { "pod waits" } else { "pods wait" };
                write!(
                    f,
                    "placement: {pods} {verb} now (largest group {} {}/{}: {reason})",
                    example.1.kind, example.0, example.1.name
                )
            }
            Self::StrandedByDomainLoss {
                scenario,
                pods,
                example,
            } => {
                write!(
                    f,
                    "placement: {scenario}, every pod of {} {}/{} ({pods}) waits for it to return: their volumes are there",
                    example.1.kind, example.0, example.1.name
                )
            }
            Self::NoFailureDomains { key } => write!(
                f,
                "N−1: no node carries {key}, so failure-domain headroom is unknown"
            ),
            Self::UnhealthyNodes(nodes) => nodes.fmt(f),
        }
    }
}

/// Lists what limits a cluster's headroom, most urgent first: negative headroom now,
/// pods that a domain loss would strand, negative N−1 headroom, GPU fragmentation,
/// unknown failure domains, unhealthy nodes.
pub fn explain(
    baseline: &WhatIfReport,
    gpu: &GpuShape,
    n_minus_one: &FailureDomainHeadroom,
    gang_sizes: &[u32],
    not_counted: &NodesNotCounted,
    workload_pods: impl Fn(&str, &OwnerRef) -> u32,
) -> Vec<HeadroomLimit> {
    let mut limits = Vec::new();
    for (dimension, headroom) in baseline.headroom.iter() {
        if headroom < 0 {
            limits.push(HeadroomLimit::NegativeNow {
                dimension,
                headroom,
            });
        }
    }
    if let Some(group) = baseline.waiting.first() {
        limits.push(HeadroomLimit::WaitingNow {
            pods: baseline.waiting.iter().map(|g| g.pods).sum(),
            example: (Arc::clone(&group.namespace), group.owner.clone()),
            reason: group.reason.clone(),
        });
    }
    if let Some((report, group)) = n_minus_one
        .most_unplaced()
        .and_then(|r| r.short_groups().next().map(|g| (r, g)))
    {
        limits.push(HeadroomLimit::Unplaceable {
            scenario: report.scenario.clone(),
            pods: report.short_pods(),
            example: (Arc::clone(&group.namespace), group.owner.clone()),
            reason: group.reason.clone(),
        });
    }
    // A replica held in a lost zone is what spreading replicas is for; a workload with
    // every pod there stops. Only that is worth a line.
    let whole = n_minus_one
        .per_domain
        .iter()
        .flat_map(|r| r.unplaced.iter().map(move |g| (r, g)))
        .filter(|(_, g)| g.reason.is_stranded() && g.pods >= workload_pods(&g.namespace, &g.owner))
        // The first of equals (domains in value order): `max_by_key` keeps the last.
        .rev()
        .max_by_key(|(_, g)| g.pods);
    if let Some((report, group)) = whole {
        limits.push(HeadroomLimit::StrandedByDomainLoss {
            scenario: report.scenario.clone(),
            pods: group.pods,
            example: (Arc::clone(&group.namespace), group.owner.clone()),
        });
    }
    for worst in &n_minus_one.worst {
        let already_negative = baseline.headroom.get(&worst.dimension) < 0;
        if worst.headroom < 0 && !already_negative {
            limits.push(HeadroomLimit::NegativeAfterDomainLoss {
                dimension: worst.dimension.clone(),
                key: Arc::clone(&n_minus_one.key),
                domain: Arc::clone(&worst.domain),
                headroom: worst.headroom,
            });
        }
    }
    // The largest configured gang size that the free total could hold but no node can.
    let fragmented = gang_sizes
        .iter()
        .rev()
        .find(|&&k| gpu.free_gpus >= i64::from(k) && gpu.largest_gang < i64::from(k));
    if let Some(&gang) = fragmented {
        limits.push(HeadroomLimit::GpuFragmented {
            free: gpu.free_gpus,
            gang,
            largest: gpu.largest_gang,
        });
    }
    if n_minus_one.per_domain.is_empty() && not_counted.total > 0 {
        limits.push(HeadroomLimit::NoFailureDomains {
            key: Arc::clone(&n_minus_one.key),
        });
    }
    if not_counted.count > 0 {
        limits.push(HeadroomLimit::UnhealthyNodes(not_counted.clone()));
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_waiting_now_and_one_a_zone_loss_would_strand_are_named() {
        use crate::fixtures::capacity::{cluster, node, pod};
        use crate::model::capacity::{CapacityConfig, cluster_report};
        // Zone b is down with db-1 on it, its volume there: it waits now. Losing zone a
        // would hold db-0 there too, but db keeps a replica elsewhere: no line. The one
        // cache replica's volume is in zone a: losing zone a stops cache whole.
        let view = cluster(
            vec![
                node("a0", "a").build(),
                node("b0", "b").not_ready().build(),
                node("c0", "c").build(),
            ],
            vec![
                pod("db-0", Some("a0"))
                    .owner("shop", "StatefulSet", "db")
                    .cpu(1000)
                    .domain("topology.kubernetes.io/zone", "a")
                    .build(),
                pod("db-1", Some("b0"))
                    .owner("shop", "StatefulSet", "db")
                    .cpu(1000)
                    .domain("topology.kubernetes.io/zone", "b")
                    .build(),
                pod("web", Some("a0")).cpu(1000).build(),
                // One replica, its volume in zone a: losing zone a stops it.
                pod("cache-0", Some("a0"))
                    .owner("shop", "StatefulSet", "cache")
                    .cpu(500)
                    .domain("topology.kubernetes.io/zone", "a")
                    .build(),
            ],
        );
        let report = cluster_report(&view, &CapacityConfig::default(), &[]);
        let texts: Vec<String> = report.limits.iter().map(ToString::to_string).collect();
        assert!(
            texts.contains(
                &"placement: 1 pod waits now (largest group StatefulSet shop/db: its volume keeps it in topology.kubernetes.io/zone=b, where no healthy node is left)".to_owned()
            ),
            "{texts:#?}"
        );
        assert!(
            texts.contains(
                &"placement: after losing zone a, every pod of StatefulSet shop/cache (1) waits for it to return: their volumes are there".to_owned()
            ),
            "{texts:#?}"
        );
        let kinds: Vec<&str> = report.limits.iter().map(HeadroomLimit::kind).collect();
        assert_eq!(
            kinds[..2],
            ["waitingNow", "strandedByDomainLoss"],
            "{kinds:?}"
        );
    }

    #[test]
    fn nodes_not_counted_say_why_and_name_the_zone_they_share() {
        let zone: Arc<str> = Arc::from("topology.kubernetes.io/zone");
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("eu-west-1a"), Arc::from("eu-west-1b"));
        let health = [
            NodeHealth::Healthy,
            NodeHealth::NotReady,
            NodeHealth::NotReady,
            NodeHealth::Cordoned,
        ];
        let zones = [&a, &b, &b, &b];
        let tally = NodesNotCounted::tally(&health, |i| Some(zones[i]), &zone);
        assert_eq!(
            tally.to_string(),
            "nodes: 3 of 4 do not count: 2 not ready, 1 cordoned, all in zone eu-west-1b"
        );
        let zones = [&b, &a, &b, &b];
        let tally = NodesNotCounted::tally(&health, |i| Some(zones[i]), &zone);
        assert_eq!(
            tally.to_string(),
            "nodes: 3 of 4 do not count: 2 not ready, 1 cordoned",
            "spread over zones: none named"
        );
    }
}
