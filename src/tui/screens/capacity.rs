//! The capacity screen's decisions: fleet totals per dimension over usable clusters only,
//! the cached cluster report, and what-if results; its keys, at each scope (moving, going
//! a scope deeper, the what-ifs).

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::ledger::LedgerRow;
use crate::model::capacity::{
    BlockingBudget, CapacityConfig, ClusterIndex, ClusterReport, Scenario, WhatIfReport,
    budgets_blocking_drain, cluster_report, default_siblings, what_if,
};
use crate::model::fleet::{ClusterView, NodeName, ResourceVector};
use crate::model::ledger::Ledger;
use crate::model::live::{ClusterLoss, ClusterStatus, FleetSnapshot, cluster_loss};
use crate::model::maintenance::ClusterHolds;
use crate::model::maintenance::MaintenanceHolds;
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion};
use crate::tui::filter::Filter;
use crate::tui::fleet_data::FleetData;
use crate::tui::nav::CapacityScope;

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
    /// The scope shown: the capacity route's, kept in step with it by the console.
    pub scope: CapacityScope,
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

    /// Usable cluster rows of the fleet list, in ledger order, filtered.
    pub fn fleet_rows<'r>(&self, rows: &'r [LedgerRow]) -> Vec<&'r LedgerRow> {
        rows.iter().filter(|r| self.filter.matches(*r)).collect()
    }

    /// Keeps the report that of cluster `id` as `snapshot` and `holds` have it: computed
    /// again when its view or what maintenance holds there changed, none when its data
    /// cannot be trusted.
    pub fn refresh_report(
        &mut self,
        id: &str,
        snapshot: &FleetSnapshot,
        holds: &MaintenanceHolds,
        config: &CapacityConfig,
    ) {
        let Some(live) = snapshot.cluster(id).filter(|c| c.status.data_usable()) else {
            self.report = None;
            return;
        };
        let held = holds.of(&live.view.id);
        let fresh = self
            .report
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(&r.view, &live.view) && r.held == *held);
        if !fresh {
            self.report = Some(report_for(&live.view, config, held));
        }
    }

    /// The fleet list's keys.
    fn on_fleet(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let rows = self.fleet_rows(ctx.rows);
        let pos = self
            .fleet_selected
            .as_ref()
            .and_then(|s| rows.iter().position(|r| r.id == *s))
            .unwrap_or(0);
        let selected = rows.get(pos).map(|r| r.id.clone());
        let Some(id) = selected else {
            if is_motion(action) {
                let (_, said) = motion(pos, rows.len(), action, ctx);
                self.fleet_selected = None;
                return Some(said);
            }
            if action == Action::WhatIfClear {
                self.clear_what_ifs();
                return Some(Vec::new());
            }
            let none = crate::t!(ctx.config.lang, "cap-no-cluster-listed");
            return Some(vec![Effect::Say(none)]);
        };
        let effects = match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, rows.len(), a, ctx);
                self.fleet_selected = rows.get(next).map(|r| r.id.clone());
                said
            }
            Action::Open | Action::ClusterCapacity => {
                self.fleet_selected = Some(id.clone());
                self.domain_selected = 0;
                vec![Effect::Capacity(CapacityScope::Cluster(id))]
            }
            Action::WhatIfLose => {
                self.fleet_selected = Some(id.clone());
                self.domain_selected = 0;
                // The cluster's report, as its capacity screen is about to show it, says
                // which domain is worst to lose.
                let holds = &ctx.activity.journal.holds;
                self.refresh_report(&id, ctx.snapshot, holds, &ctx.config.capacity);
                let worst = self.worst_domain();
                let open = Effect::Capacity(CapacityScope::Cluster(id.clone()));
                vec![
                    open,
                    match worst {
                        Some(scenario) => Effect::WhatIf(id, scenario),
                        None => Effect::Say(crate::t!(
                            ctx.config.lang,
                            "cap-no-domain-to-lose",
                            cluster = &id
                        )),
                    },
                ]
            }
            Action::WhatIfCluster => {
                self.fleet_selected = Some(id.clone());
                vec![Effect::WhatIfCluster(id)]
            }
            Action::WhatIfClear => {
                self.clear_what_ifs();
                Vec::new()
            }
            _ => return None,
        };
        Some(effects)
    }

    /// On the fleet list, `w` shows the selected cluster losing its worst failure domain:
    /// the one whose loss strands the most pods (the first of them in domain order).
    fn worst_domain(&self) -> Option<Scenario> {
        self.report.as_ref().and_then(|r| {
            r.report
                .n_minus_one
                .per_domain
                .iter()
                .rev()
                .max_by_key(|loss| loss.unplaced_pods())
                .map(|loss| loss.scenario.clone())
        })
    }

    /// One cluster's keys: its failure domains.
    fn on_cluster(&mut self, id: &str, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let domains: Vec<_> = self
            .report
            .as_ref()
            .map(|r| r.report.domains.iter().map(|d| d.domain.clone()).collect())
            .unwrap_or_default();
        let pos = self.domain_selected.min(domains.len().saturating_sub(1));
        let lose = |value: Arc<str>| {
            let key = ctx.config.capacity.failure_domain_key.clone();
            Effect::WhatIf(id.to_owned(), Scenario::LoseFailureDomain { key, value })
        };
        let effects = match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, domains.len(), a, ctx);
                self.domain_selected = next;
                said
            }
            Action::WhatIfLose | Action::Open if domains.is_empty() => {
                // No report, no domains: say why rather than do nothing.
                let status = ctx.snapshot.cluster(id).map(|c| c.status);
                vec![Effect::Say(crate::t!(
                    ctx.config.lang,
                    "cap-no-domain-untrusted",
                    cluster = id,
                    status = super::ledger::status_label(status)
                ))]
            }
            Action::Open => match domains.get(pos) {
                Some(Some(domain)) => {
                    self.node_selected = 0;
                    let scope = CapacityScope::Domain(id.to_owned(), domain.clone());
                    vec![Effect::Capacity(scope)]
                }
                _ => Vec::new(),
            },
            Action::WhatIfLose => match domains.get(pos) {
                Some(Some(domain)) => vec![lose(domain.clone())],
                _ => Vec::new(),
            },
            Action::WhatIfCluster => vec![Effect::WhatIfCluster(id.to_owned())],
            Action::WhatIfClear => {
                self.clear_what_ifs();
                Vec::new()
            }
            _ => return None,
        };
        Some(effects)
    }

    /// One failure domain's keys: its nodes, and losing it whole.
    fn on_domain(
        &mut self,
        id: &str,
        domain: &Arc<str>,
        action: Action,
        ctx: &Context,
    ) -> Option<Vec<Effect>> {
        let count = ctx.data.cluster(id).map_or(0, |f| {
            f.nodes
                .iter()
                .filter(|n| n.zone.as_deref() == Some(&**domain))
                .count()
        });
        let effects = match action {
            a if is_motion(a) => {
                let pos = self.node_selected.min(count.saturating_sub(1));
                let (next, said) = motion(pos, count, a, ctx);
                self.node_selected = next;
                said
            }
            Action::WhatIfLose => {
                let key = ctx.config.capacity.failure_domain_key.clone();
                let value = Arc::clone(domain);
                let scenario = Scenario::LoseFailureDomain { key, value };
                vec![Effect::WhatIf(id.to_owned(), scenario)]
            }
            Action::WhatIfCluster => vec![Effect::WhatIfCluster(id.to_owned())],
            Action::WhatIfClear => {
                self.clear_what_ifs();
                Vec::new()
            }
            _ => return None,
        };
        Some(effects)
    }
}

/// The capacity screen: at each scope, moving through its list, going a scope deeper, and
/// asking what-ifs (losing a domain, nodes or the whole cluster).
impl Screen for CapacityState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let nothing_to_clear = self.what_if.is_none() && self.cluster_loss.is_none();
        if action == Action::WhatIfClear && nothing_to_clear {
            let none = crate::t!(ctx.config.lang, "cap-nothing-to-clear");
            return Some(vec![Effect::Say(none)]);
        }
        match self.scope.clone() {
            CapacityScope::Fleet => self.on_fleet(action, ctx),
            CapacityScope::Cluster(id) => self.on_cluster(&id, action, ctx),
            CapacityScope::Domain(id, domain) => self.on_domain(&id, &domain, action, ctx),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::capacity_view::draw(self, ctx, area, buf);
    }

    fn filter(&self) -> Option<&Filter> {
        Some(&self.filter)
    }

    fn filter_mut(&mut self) -> Option<&mut Filter> {
        Some(&mut self.filter)
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
        .map(|c| format!("env={}, region={}", c.env, c.region)) // i18n: not for people (filter terms, as typed)
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
            scope: CapacityScope::Fleet,
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
