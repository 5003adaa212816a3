//! The cluster drill-down's decisions: which nodes show (filtered, in view order), what
//! a what-if on the marked nodes means; its keys (moving and marking in the node list or
//! the PDB list, opening a node or a budget's pods, the what-ifs, maintenance, capacity).

use std::collections::BTreeSet;
use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::model::fleet::{MaintenanceState, NodeView, Readiness, Schedulability};
use crate::t;
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, NodeLoss, Screen, is_motion, motion, moved};
use crate::tui::filter::{Filter, Filterable};
use crate::tui::fleet_data::{ClusterFacts, NodeSummary};
use crate::tui::message::Overlay;
use crate::tui::nav::CapacityScope;

/// Which panel has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The node table.
    Nodes,
    /// PDBs that would block a drain.
    Pdbs,
}

/// The drill-down's state (one at a time; reset when another cluster opens).
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterState {
    /// Which cluster.
    pub id: String,
    /// Selected node.
    pub selected: Option<Arc<str>>,
    /// Selected PDB line.
    pub pdb_selected: usize,
    /// Marked nodes.
    pub marks: BTreeSet<Arc<str>>,
    /// Node filter.
    pub filter: Filter,
    /// Focused panel.
    pub focus: Focus,
}

impl ClusterState {
    /// A fresh drill-down on `id`.
    pub fn new(id: &str) -> ClusterState {
        ClusterState {
            id: id.to_owned(),
            selected: None,
            pdb_selected: 0,
            marks: BTreeSet::new(),
            filter: Filter::parse(""),
            focus: Focus::Nodes,
        }
    }

    /// Node indices that pass the filter, in view order; the node the filter names
    /// exactly comes first.
    pub fn visible(&self, facts: &ClusterFacts) -> Vec<usize> {
        let mut visible: Vec<usize> = facts
            .view
            .nodes
            .iter()
            .zip(&facts.nodes)
            .enumerate()
            .filter(|(_, (node, f))| self.filter.matches(&NodeRef { node, facts: f }))
            .map(|(i, _)| i)
            .collect();
        visible.sort_by_key(|i| !self.filter.names(&facts.view.nodes[*i].name.0));
        visible
    }

    /// Position of the selected node in `visible`.
    pub fn selected_pos(&self, facts: &ClusterFacts, visible: &[usize]) -> usize {
        self.selected
            .as_ref()
            .and_then(|s| {
                visible
                    .iter()
                    .position(|i| facts.view.nodes[*i].name.0 == *s)
            })
            .unwrap_or(0)
    }

    /// The nodes a what-if takes away: the marked ones, else the selected one.
    pub fn what_if_nodes(&self, facts: &ClusterFacts) -> Vec<Arc<str>> {
        if !self.marks.is_empty() {
            return self.marks.iter().cloned().collect();
        }
        let visible = self.visible(facts);
        visible
            .get(self.selected_pos(facts, &visible))
            .map(|i| vec![Arc::clone(&facts.view.nodes[*i].name.0)])
            .unwrap_or_default()
    }
}

impl ClusterState {
    /// The PDB list's keys, when it has the focus: `enter` lists a budget's pods and
    /// their nodes.
    fn on_pdbs(&mut self, facts: &ClusterFacts, action: Action, ctx: &Context) -> Vec<Effect> {
        let count = facts.blocking_pdbs.len();
        let pos = self.pdb_selected.min(count.saturating_sub(1));
        match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, count, a, ctx);
                self.pdb_selected = next;
                said
            }
            Action::Open => vec![match facts.blocking_pdbs.get(pos) {
                Some(b) => {
                    let pdb = &facts.view.pdbs[b.pdb];
                    Effect::Overlay(Overlay::PdbPods(super::pdb_pods::PdbPodsState {
                        cluster: self.id.clone(),
                        namespace: Arc::clone(&pdb.namespace),
                        name: Arc::clone(&pdb.name),
                        selected: 0,
                    }))
                }
                None => Effect::Say(t!(ctx.config.lang, "fleet-no-pdb-to-open")),
            }],
            _ => {
                let lang = ctx.config.lang;
                let said = ctx
                    .key_on(crate::tui::keymap::Context::Cluster, Action::FocusNext)
                    .map(|key| t!(lang, "fleet-marks-for-nodes-key", key = key))
                    .unwrap_or_else(|| t!(lang, "fleet-marks-for-nodes"));
                vec![Effect::Say(said)]
            }
        }
    }

    /// Motion and marks in the node list; `enter` opens the node's page.
    fn on_nodes(
        &mut self,
        facts: &ClusterFacts,
        action: Action,
        ctx: &Context,
    ) -> Option<Vec<Effect>> {
        let visible = self.visible(facts);
        let pos = self.selected_pos(facts, &visible);
        let name_at = |p: usize| {
            visible
                .get(p)
                .map(|i| Arc::clone(&facts.view.nodes[*i].name.0))
        };
        if is_motion(action) {
            let (next, said) = motion(pos, visible.len(), action, ctx);
            self.selected = name_at(next);
            return Some(said);
        }
        let Some(name) = name_at(pos) else {
            return match action {
                Action::Mark | Action::Open => Some(vec![Effect::Say(t!(
                    ctx.config.lang,
                    "fleet-no-node-listed"
                ))]),
                Action::ClearMarks => Some(self.clear_marks(ctx)),
                _ => None,
            };
        };
        let effects = match action {
            Action::Mark => {
                if !self.marks.remove(&name) {
                    self.marks.insert(name);
                }
                self.selected = name_at(moved(pos, visible.len(), Action::Down, 1));
                Vec::new()
            }
            Action::ClearMarks => self.clear_marks(ctx),
            Action::Open => vec![Effect::OpenNode(self.id.clone(), name)],
            _ => return None,
        };
        Some(effects)
    }

    /// Clears the marks, or says there are none.
    fn clear_marks(&mut self, ctx: &Context) -> Vec<Effect> {
        if self.marks.is_empty() {
            return vec![Effect::Say(t!(ctx.config.lang, "fleet-no-node-marked"))];
        }
        self.marks.clear();
        Vec::new()
    }
}

/// The drill-down: its what-if, maintenance and capacity keys act on the marked (or
/// selected) nodes and the cluster; the others move, mark and open in the focused list.
impl Screen for ClusterState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let effects = match action {
            Action::ClusterCapacity => {
                vec![Effect::Capacity(CapacityScope::Cluster(self.id.clone()))]
            }
            Action::WhatIfLose => vec![Effect::WhatIfNodes(NodeLoss::Lost)],
            Action::WhatIfBatch => vec![Effect::WhatIfNodes(NodeLoss::MaintenanceBatch)],
            Action::WhatIfCluster => vec![Effect::WhatIfCluster(self.id.clone())],
            Action::Login => vec![crate::tui::login::login_effect(ctx, &self.id)],
            Action::StartMaintenance => vec![Effect::Operator(action)],
            Action::FocusNext => {
                self.focus = if self.focus == Focus::Nodes {
                    Focus::Pdbs
                } else {
                    Focus::Nodes
                };
                Vec::new()
            }
            _ => {
                let Some(facts) = ctx.data.cluster(&self.id) else {
                    let none = t!(ctx.config.lang, "fleet-no-data-for", id = &self.id);
                    return Some(vec![Effect::Say(none)]);
                };
                return match self.focus {
                    Focus::Pdbs if is_pdb_action(action) => Some(self.on_pdbs(facts, action, ctx)),
                    Focus::Pdbs => None,
                    Focus::Nodes => self.on_nodes(facts, action, ctx),
                };
            }
        };
        Some(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::cluster_view::draw(self, ctx, area, buf);
    }

    fn filter(&self) -> Option<&Filter> {
        Some(&self.filter)
    }

    fn filter_mut(&mut self) -> Option<&mut Filter> {
        Some(&mut self.filter)
    }
}

/// Whether the PDB list does anything with `action`.
fn is_pdb_action(action: Action) -> bool {
    is_motion(action) || matches!(action, Action::Open | Action::Mark | Action::ClearMarks)
}

/// A node with its facts, for filtering.
pub struct NodeRef<'a> {
    /// The node.
    pub node: &'a NodeView,
    /// Its facts.
    pub facts: &'a NodeSummary,
}

/// `Ready`, `NotReady` or `Unknown`.
pub fn readiness_label(r: Readiness) -> &'static str {
    match r {
        Readiness::Ready => "Ready",
        Readiness::NotReady => "NotReady",
        Readiness::Unknown => "Unknown",
    }
}

/// Whether a node counts as capacity, in words: `yes`, or `no: ` and why. Nothing of a
/// cluster without fresh data counts, whatever its last seen nodes said.
pub fn counts_as_capacity(
    lang: Lang,
    usable: bool,
    health: &crate::model::capacity::NodeHealth,
) -> String {
    if !usable {
        t!(lang, "fleet-counts-no-fresh-data")
    } else if health.is_healthy() {
        t!(lang, "fleet-yes")
    } else {
        t!(lang, "fleet-counts-no", why = health_reason(lang, health))
    }
}

/// Why a node does not count as capacity, in words.
pub fn health_reason(lang: Lang, h: &crate::model::capacity::NodeHealth) -> String {
    use crate::model::capacity::NodeHealth as H;
    match h {
        H::Healthy => t!(lang, "fleet-health-healthy"),
        H::NotReady => t!(lang, "fleet-health-not-ready"),
        H::ReadinessUnknown => t!(lang, "fleet-health-readiness-unknown"),
        H::Cordoned => t!(lang, "fleet-health-cordoned"),
        H::UnderMaintenance => t!(lang, "fleet-health-in-maintenance"),
        H::Tainted(k) => t!(lang, "fleet-health-taint", key = k.to_string()),
    }
}

/// Maintenance step label; the engine's per-step detail arrives with maintenance runs.
pub fn maintenance_label(lang: Lang, m: MaintenanceState) -> String {
    match m {
        MaintenanceState::InService => "-".to_owned(),
        MaintenanceState::UnderMaintenance => t!(lang, "fleet-in-maintenance"),
    }
}

impl Filterable for NodeRef<'_> {
    fn haystack(&self) -> String {
        format!(
            "{} {} {} {}",
            self.node.name,
            self.facts.zone.as_deref().unwrap_or(""),
            self.facts.block.as_deref().unwrap_or(""),
            readiness_label(self.node.readiness)
        )
    }

    fn field(&self, key: &str) -> Option<String> {
        match key {
            "name" | "node" => Some(self.node.name.to_string()),
            "zone" => self.facts.zone.as_deref().map(str::to_owned),
            "block" => self.facts.block.as_deref().map(str::to_owned),
            "ready" => Some(readiness_label(self.node.readiness).to_owned()),
            "cordoned" => Some((self.node.schedulability == Schedulability::Cordoned).to_string()),
            "healthy" => Some(self.facts.health.is_healthy().to_string()),
            "gpu" => Some((self.facts.gpu_total > 0).to_string()),
            _ => self
                .node
                .labels
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.to_string()),
        }
    }
}
