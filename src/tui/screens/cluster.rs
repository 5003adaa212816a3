//! The cluster drill-down's decisions: which nodes show (filtered, in view order), what
//! a what-if on the marked nodes means.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::model::fleet::{MaintenanceState, NodeView, Readiness, Schedulability};
use crate::tui::filter::{Filter, Filterable};
use crate::tui::fleet_data::{ClusterFacts, NodeSummary};

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
pub fn counts_as_capacity(usable: bool, health: &crate::model::capacity::NodeHealth) -> String {
    if !usable {
        "no: no fresh data".to_owned()
    } else if health.is_healthy() {
        "yes".to_owned()
    } else {
        format!("no: {}", health_reason(health))
    }
}

/// Why a node does not count as capacity, in words.
pub fn health_reason(h: &crate::model::capacity::NodeHealth) -> String {
    use crate::model::capacity::NodeHealth as H;
    match h {
        H::Healthy => "healthy".into(),
        H::NotReady => "not ready".into(),
        H::ReadinessUnknown => "readiness unknown".into(),
        H::Cordoned => "cordoned".into(),
        H::UnderMaintenance => "in maintenance".into(),
        H::Tainted(k) => format!("taint {k}"),
    }
}

/// Maintenance step label; the engine's per-step detail arrives with maintenance runs.
pub fn maintenance_label(m: MaintenanceState) -> &'static str {
    match m {
        MaintenanceState::InService => "-",
        MaintenanceState::UnderMaintenance => "in maintenance",
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
