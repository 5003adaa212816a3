//! "N−1 failure domain" headroom: the what-if for losing each failure domain of a
//! cluster in turn, and the worst outcome per dimension.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::index::ClusterIndex;
use super::whatif::{Scenario, what_if};
use super::whatif_report::WhatIfReport;
use crate::model::fleet::{ClusterId, Dimension, NodeName};

/// The worst single-domain loss for one dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorstDomain {
    /// Dimension.
    pub dimension: Dimension,
    /// Failure-domain value whose loss leaves the least headroom.
    pub domain: Arc<str>,
    /// That headroom (negative: short).
    pub headroom: i64,
}

/// N−1 headroom of one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureDomainHeadroom {
    /// Cluster.
    pub cluster: ClusterId,
    /// Failure-domain label key used.
    pub key: Arc<str>,
    /// One what-if per failure-domain value, in value order.
    pub per_domain: Vec<WhatIfReport>,
    /// Per dimension, the domain whose loss hurts most.
    pub worst: Vec<WorstDomain>,
    /// Nodes without the failure-domain label: they are never lost in these what-ifs,
    /// so a high count makes the N−1 figures optimistic.
    pub nodes_without_domain: u32,
}

impl FailureDomainHeadroom {
    /// The worst single-domain loss for `dim`, if the cluster has failure domains.
    pub fn worst_for(&self, dim: &Dimension) -> Option<&WorstDomain> {
        self.worst.iter().find(|w| w.dimension == *dim)
    }

    /// The domain loss that leaves the most pods unplaced, if any pod is left unplaced.
    pub fn most_unplaced(&self) -> Option<&WhatIfReport> {
        // The first domain (in value order) among those with the most pods short of
        // capacity (pods stranded with their volumes wait for their domain instead).
        self.per_domain
            .iter()
            .fold(None, |best: Option<&WhatIfReport>, r| {
                let count = r.short_pods();
                match best {
                    Some(b) if b.short_pods() >= count => Some(b),
                    _ if count > 0 => Some(r),
                    _ => best,
                }
            })
    }
}

/// Runs the what-if for every failure domain of the cluster.
pub fn n_minus_one(index: &ClusterIndex<'_>, reserved: &[NodeName]) -> FailureDomainHeadroom {
    let key = Arc::clone(&index.config.failure_domain_key);
    let per_domain: Vec<WhatIfReport> = index
        .domains
        .iter()
        .map(|value| {
            let scenario = Scenario::LoseFailureDomain {
                key: Arc::clone(&key),
                value: Arc::clone(value),
            };
            what_if(index, &scenario, reserved)
        })
        .collect();
    // Per dimension: the least headroom; between equal ones, the loss that leaves more
    // pods without a place (else the worst named could be the milder of two).
    let mut worst: BTreeMap<Dimension, (i64, u32, Arc<str>)> = BTreeMap::new();
    for report in &per_domain {
        let Scenario::LoseFailureDomain { value, .. } = &report.scenario else {
            continue;
        };
        let unplaced = report.unplaced_pods();
        for (dim, headroom) in report.headroom.iter() {
            let entry = worst
                .entry(dim)
                .or_insert((headroom, unplaced, Arc::clone(value)));
            if (headroom, std::cmp::Reverse(unplaced)) < (entry.0, std::cmp::Reverse(entry.1)) {
                *entry = (headroom, unplaced, Arc::clone(value));
            }
        }
    }
    let nodes_without_domain = index.node_domain.iter().filter(|d| d.is_none()).count();
    FailureDomainHeadroom {
        cluster: index.cluster.id.clone(),
        key,
        per_domain,
        worst: worst
            .into_iter()
            .map(|(dimension, (headroom, _, domain))| WorstDomain {
                dimension,
                domain,
                headroom,
            })
            .collect(),
        nodes_without_domain: u32::try_from(nodes_without_domain).unwrap_or(u32::MAX),
    }
}
