//! Everything capacity knows about one cluster (and the fleet) in one call, for the
//! `fleetdeck capacity` command and the Capacity screen.

use std::collections::HashMap;

use super::config::CapacityConfig;
use super::explain::{HeadroomLimit, NodesNotCounted, explain};
use super::gpu_shape::{GpuShape, gpu_shape};
use super::index::ClusterIndex;
use super::n_minus_one::{FailureDomainHeadroom, n_minus_one};
use super::summary::{DomainCapacity, domain_capacity};
use super::whatif::{Scenario, what_if};
use super::whatif_report::WhatIfReport;
use crate::model::fleet::{ClusterId, ClusterView, FleetView, NodeName, OwnerRef};

/// One cluster's capacity picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterReport {
    /// Cluster.
    pub cluster: ClusterId,
    /// Healthy allocatable, demand, reserve and headroom with nothing lost.
    pub baseline: WhatIfReport,
    /// Per failure domain, as things stand.
    pub domains: Vec<DomainCapacity>,
    /// GPU shape.
    pub gpu: GpuShape,
    /// N−1 failure-domain headroom.
    pub n_minus_one: FailureDomainHeadroom,
    /// What limits headroom, most urgent first; render each with `to_string()`.
    pub limits: Vec<HeadroomLimit>,
}

/// Builds the capacity picture of one cluster. `reserved` are nodes held by approved
/// maintenance reservations.
pub fn cluster_report(
    cluster: &ClusterView,
    config: &CapacityConfig,
    reserved: &[NodeName],
) -> ClusterReport {
    let index = ClusterIndex::new(cluster, config);
    let baseline = what_if(&index, &Scenario::Baseline, reserved);
    let gpu = gpu_shape(&index, reserved);
    let n1 = n_minus_one(&index, reserved);
    let key = &config.failure_domain_key;
    let not_counted = NodesNotCounted::tally(
        index.node_health(),
        |i| cluster.nodes[i].labels.get(key),
        key,
    );
    // How many pods a workload runs, for telling a stranded replica from a stopped
    // workload. Counted once, and only for a cluster where a domain loss strands some.
    let counts: std::cell::OnceCell<HashMap<(&str, &OwnerRef), u32>> = Default::default();
    let workload_pods = |namespace: &str, owner: &OwnerRef| {
        let counts = counts.get_or_init(|| {
            let mut counts = HashMap::new();
            for pod in cluster.pods.iter().filter(|p| p.phase.holds_resources()) {
                if let Some(owner) = &pod.owner {
                    *counts.entry((&*pod.namespace, owner)).or_insert(0) += 1;
                }
            }
            counts
        });
        counts.get(&(namespace, owner)).copied().unwrap_or(0)
    };
    let limits = explain(
        &baseline,
        &gpu,
        &n1,
        &config.gang_sizes,
        &not_counted,
        workload_pods,
    );
    ClusterReport {
        cluster: cluster.id.clone(),
        domains: domain_capacity(&index, reserved),
        baseline,
        gpu,
        n_minus_one: n1,
        limits,
    }
}

/// Builds the capacity picture of every cluster; `reserved_for` returns a cluster's
/// maintenance-reserved nodes.
pub fn fleet_report<'r>(
    fleet: &FleetView,
    config: &CapacityConfig,
    reserved_for: impl Fn(&ClusterId) -> &'r [NodeName],
) -> Vec<ClusterReport> {
    fleet
        .clusters
        .iter()
        .map(|c| cluster_report(c, config, reserved_for(&c.id)))
        .collect()
}
