//! The capacity screen's decisions: fleet totals per dimension over usable clusters only,
//! the cached cluster report, and what-if results.

use std::sync::Arc;

use crate::model::capacity::{
    BlockingBudget, CapacityConfig, ClusterIndex, ClusterReport, Scenario, WhatIfReport,
    budgets_blocking_drain, cluster_report, default_siblings, what_if,
};
use crate::model::fleet::{ClusterView, NodeName, ResourceVector};
use crate::model::ledger::Ledger;
use crate::model::live::{ClusterLoss, ClusterStatus, FleetSnapshot, cluster_loss};
use crate::model::maintenance::ClusterHolds;
use crate::model::maintenance::MaintenanceHolds;
use crate::tui::filter::Filter;
use crate::tui::fleet_data::FleetData;

/// Fleet totals per dimension; clusters whose data is not usable are counted apart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetTotals {
    /// Healthy allocatable of usable clusters.
    pub allocatable: ResourceVector,
    /// Requests on those nodes.
    pub used: ResourceVector,
    /// Free GPUs and total GPUs of usable clusters.
    pub gpus: (i64, i64),
    /// Usable clusters.
    pub counted: usize,
    /// Clusters left out, per status (unknown is not healthy, and not capacity).
    pub not_counted: Vec<(ClusterStatus, usize)>,
}

/// Sums the fleet per dimension over clusters whose data is usable.
pub fn fleet_totals(snapshot: &FleetSnapshot, data: &FleetData) -> FleetTotals {
    let mut totals = FleetTotals::default();
    for c in snapshot.clusters.iter() {
        match data.cluster(&c.id).filter(|_| c.status.data_usable()) {
            Some(f) => {
                totals.allocatable.add_assign(&f.allocatable);
                totals.used.add_assign(&f.used);
                totals.gpus.0 += f.gpus_free;
                totals.gpus.1 += f.gpu.total_gpus;
                totals.counted += 1;
            }
            None => match totals.not_counted.iter_mut().find(|(s, _)| *s == c.status) {
                Some(entry) => entry.1 += 1,
                None => totals.not_counted.push((c.status, 1)),
            },
        }
    }
    totals.not_counted.sort();
    totals
}

/// A cluster report with the view it was computed from.
#[derive(Debug, Clone)]
pub struct ReportCache {
    /// The view (compared by pointer to know when to recompute).
    pub view: Arc<ClusterView>,
    /// What maintenance held (compared to know when to recompute).
    pub held: ClusterHolds,
    /// The report.
    pub report: ClusterReport,
}

/// A what-if result on one cluster.
#[derive(Debug, Clone)]
pub struct WhatIfView {
    /// Cluster id.
    pub cluster: String,
    /// What was taken away (kept to run it again on newer data).
    pub scenario: Scenario,
    /// The snapshot's view it was computed on (compared by pointer).
    pub view: Arc<ClusterView>,
    /// What maintenance held when it was computed.
    pub held: ClusterHolds,
    /// The outcome.
    pub report: WhatIfReport,
    /// Headroom with nothing lost, for the before → after comparison.
    pub baseline: ResourceVector,
    /// For a drain (a maintenance batch): the budgets that would refuse its evictions
    /// now. Losing nodes asks no budget.
    pub blocking: Vec<BlockingBudget>,
}

/// Runs a what-if on one cluster view, with what maintenance holds there.
pub fn run_what_if(
    view: &Arc<ClusterView>,
    config: &CapacityConfig,
    held: &ClusterHolds,
    scenario: Scenario,
) -> WhatIfView {
    let applied = held.apply(view);
    let index = ClusterIndex::new(&applied, config);
    let baseline = what_if(&index, &Scenario::Baseline, &held.reserved).headroom;
    let blocking = match &scenario {
        Scenario::MaintenanceBatch(nodes) => budgets_blocking_drain(&applied, nodes),
        _ => Vec::new(),
    };
    WhatIfView {
        blocking,
        cluster: view.id.to_string(),
        report: what_if(&index, &scenario, &held.reserved),
        baseline,
        scenario,
        view: Arc::clone(view),
        held: held.clone(),
    }
}

/// Builds the report of one view, with what maintenance holds there.
pub fn report_for(
    view: &Arc<ClusterView>,
    config: &CapacityConfig,
    held: &ClusterHolds,
) -> ReportCache {
    ReportCache {
        view: Arc::clone(view),
        held: held.clone(),
        report: cluster_report(&held.apply(view), config, &held.reserved),
    }
}

/// Names as the model wants them.
pub fn node_names(names: &[Arc<str>]) -> Vec<NodeName> {
    names.iter().map(|n| NodeName(Arc::clone(n))).collect()
}

/// The capacity screen's state.
#[derive(Debug, Clone)]
pub struct CapacityState {
    /// Selected cluster in the fleet list.
    pub fleet_selected: Option<String>,
    /// Fleet list filter.
    pub filter: Filter,
    /// Selected failure domain in the cluster scope.
    pub domain_selected: usize,
    /// Selected node in the domain scope.
    pub node_selected: usize,
    /// The current cluster's report.
    pub report: Option<ReportCache>,
    /// The last what-if.
    pub what_if: Option<WhatIfView>,
    /// The last whole-cluster loss asked (shown instead of `what_if`: one at a time).
    pub cluster_loss: Option<ClusterLossView>,
}

impl CapacityState {
    /// Drops whichever what-if is shown.
    pub fn clear_what_ifs(&mut self) {
        self.what_if = None;
        self.cluster_loss = None;
    }
}

/// A whole cluster lost, and whether its siblings could take its pods.
#[derive(Debug, Clone)]
pub struct ClusterLossView {
    /// The lost cluster.
    pub cluster: String,
    /// How its siblings were chosen, in words.
    pub chosen_by: String,
    /// What it was worked out from: the lost cluster's and each sibling's view and
    /// status, and what maintenance held. Asked again only when one of these changes, not
    /// on every snapshot of a busy fleet (it runs on the console's thread).
    seen: Vec<Option<(Arc<ClusterView>, ClusterStatus)>>,
    holds: Arc<MaintenanceHolds>,
    /// The answer.
    pub loss: ClusterLoss,
}

impl ClusterLossView {
    /// Whether `snapshot` and `holds` still give the answer shown.
    pub fn is_current(
        &self,
        ledger: &Ledger,
        snapshot: &FleetSnapshot,
        holds: &Arc<MaintenanceHolds>,
    ) -> bool {
        let now = seen_in(&self.cluster, ledger, snapshot);
        *self.holds == **holds
            && now.len() == self.seen.len()
            && now.iter().zip(&self.seen).all(|(a, b)| match (a, b) {
                (Some((va, sa)), Some((vb, sb))) => Arc::ptr_eq(va, vb) && sa == sb,
                (None, None) => true,
                _ => false,
            })
    }
}

/// The lost cluster's and its siblings' views and statuses in `snapshot`.
fn seen_in(
    lost: &str,
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
) -> Vec<Option<(Arc<ClusterView>, ClusterStatus)>> {
    std::iter::once(lost)
        .chain(default_siblings(lost, ledger))
        .map(|id| {
            snapshot
                .cluster(id)
                .map(|c| (Arc::clone(&c.view), c.status))
        })
        .collect()
}

/// Asks whether `lost`'s siblings (the serving clusters of its environment and region)
/// could take its pods.
pub fn run_cluster_loss(
    lost: &str,
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
    holds: &Arc<MaintenanceHolds>,
    config: &CapacityConfig,
) -> ClusterLossView {
    let chosen_by = ledger
        .cluster(lost)
        .map(|c| format!("env={}, region={}", c.env, c.region))
        .unwrap_or_default();
    ClusterLossView {
        cluster: lost.to_owned(),
        chosen_by,
        seen: seen_in(lost, ledger, snapshot),
        holds: Arc::clone(holds),
        loss: cluster_loss(
            lost,
            &default_siblings(lost, ledger),
            snapshot,
            holds,
            config,
        ),
    }
}

impl Default for CapacityState {
    fn default() -> Self {
        CapacityState {
            fleet_selected: None,
            filter: Filter::parse(""),
            domain_selected: 0,
            node_selected: 0,
            report: None,
            what_if: None,
            cluster_loss: None,
        }
    }
}
