//! What limits a cluster's headroom, as typed findings that render as plain sentences
//! ("GPU: 16 free but no node has 8 (largest gang 2)").

use std::fmt;
use std::sync::Arc;

use super::format::format_amount;
use super::gpu_shape::GpuShape;
use super::n_minus_one::FailureDomainHeadroom;
use super::whatif::{Scenario, UnplacedReason, WhatIfReport, short_domain_name};
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
    /// No node carries the failure-domain label: N−1 is unknown, not fine.
    NoFailureDomains {
        /// The label key looked for.
        key: Arc<str>,
    },
    /// Some nodes do not count as healthy allocatable.
    UnhealthyNodes {
        /// Nodes not counted.
        unhealthy: u32,
        /// All nodes.
        total: u32,
    },
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
            Self::NoFailureDomains { key } => write!(
                f,
                "N−1: no node carries {key}, so failure-domain headroom is unknown"
            ),
            Self::UnhealthyNodes { unhealthy, total } => write!(
                f,
                "nodes: {unhealthy} of {total} do not count (not ready, cordoned, in maintenance or tainted)"
            ),
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
    unhealthy: u32,
    total_nodes: u32,
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
    if n_minus_one.per_domain.is_empty() && total_nodes > 0 {
        limits.push(HeadroomLimit::NoFailureDomains {
            key: Arc::clone(&n_minus_one.key),
        });
    }
    if unhealthy > 0 {
        limits.push(HeadroomLimit::UnhealthyNodes {
            unhealthy,
            total: total_nodes,
        });
    }
    limits
}
