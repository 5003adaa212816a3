//! The maintenance batch planner: which nodes, in which batches, under the budgets.
//! A batch is a set of nodes out at the same time; every budget counts the nodes that are
//! already unavailable in the cluster too.

use std::collections::BTreeMap;

use serde::Serialize;

use super::observe::CheckOutcome;
use super::spec::{Budgets, NodeSelection};
use crate::i18n::{Arg, Msg};
use crate::model::budget::{self, Limit, Usage};
use crate::model::fleet::{ClusterView, NodeView, Readiness, Schedulability};
use crate::model::ledger::{Requirement, Selector};
use crate::model::run::NodeName;

/// What the planner needs to know about a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeFacts {
    /// The node.
    pub name: NodeName,
    /// Its labels (failure domain, replica group, …).
    pub labels: BTreeMap<String, String>,
    /// Already unavailable (NotReady, or cordoned by someone else).
    pub unavailable: bool,
}

impl NodeFacts {
    /// The one rule for what the planner knows of a node, whatever it was read from: it is
    /// already unavailable when it is not Ready (NotReady or Unknown) or is cordoned, and
    /// that counts against every batch's budget.
    pub fn new(
        name: NodeName,
        labels: BTreeMap<String, String>,
        readiness: Readiness,
        schedulability: Schedulability,
    ) -> Self {
        NodeFacts {
            name,
            labels,
            unavailable: readiness != Readiness::Ready
                || schedulability == Schedulability::Cordoned,
        }
    }

    /// A node known only by its name (planned offline without a node list): no labels,
    /// assumed available.
    pub fn named(name: NodeName) -> Self {
        NodeFacts {
            name,
            labels: BTreeMap::new(),
            unavailable: false,
        }
    }

    /// The facts of a node of a fleet view.
    pub fn of_view(node: &NodeView) -> Self {
        let labels = node
            .labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        NodeFacts::new(
            node.name.clone(),
            labels,
            node.readiness,
            node.schedulability,
        )
    }
}

/// The nodes of a cluster view as the planner needs them, in view order.
pub fn inventory(view: &ClusterView) -> Vec<NodeFacts> {
    view.nodes.iter().map(NodeFacts::of_view).collect()
}

/// The plan: batches in order, nodes that cannot be planned, and the prechecks known
/// without the cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// Batches, in order; each node appears once.
    pub batches: Vec<Vec<NodeName>>,
    /// Nodes that fit in no batch, with why.
    pub unplanned: Vec<(NodeName, String)>,
    /// Per node, each precheck with what is known now.
    pub prechecks: Vec<(NodeName, Vec<(String, CheckOutcome)>)>,
    /// Things worth knowing about the plan.
    pub warnings: Vec<String>,
    /// `unplanned`'s reasons as messages for the reader's language, in the same order
    /// (never serialised; empty: shown as written).
    #[serde(skip)]
    pub unplanned_said: Vec<Msg>,
    /// `warnings` as messages, in the same order (never serialised).
    #[serde(skip)]
    pub warnings_said: Vec<Msg>,
}

/// Whether `labels` satisfy every requirement of `selector`.
pub fn labels_match(selector: &Selector, labels: &BTreeMap<String, String>) -> bool {
    selector.requirements.iter().all(|r| match r {
        Requirement::Equals(k, v) => labels.get(k) == Some(v),
        Requirement::NotEquals(k, v) => labels.get(k) != Some(v),
        Requirement::In(k, set) => labels.get(k).is_some_and(|x| set.contains(x)),
        Requirement::NotIn(k, set) => labels.get(k).is_none_or(|x| !set.contains(x)),
        Requirement::Exists(k) => labels.contains_key(k),
        Requirement::DoesNotExist(k) => !labels.contains_key(k),
    })
}

/// The targets of a maintenance among `inventory`, in the file's order for names; names
/// not in the inventory are returned separately.
pub fn select_nodes(
    selection: &NodeSelection,
    inventory: &[NodeFacts],
) -> (Vec<NodeFacts>, Vec<NodeName>) {
    match selection {
        NodeSelection::Names(names) => {
            let mut found = Vec::new();
            let mut missing = Vec::new();
            for name in names {
                match inventory.iter().find(|n| &n.name == name) {
                    Some(node) => found.push(node.clone()),
                    None => missing.push(name.clone()),
                }
            }
            (found, missing)
        }
        NodeSelection::Selector(text) => match Selector::parse(text) {
            Ok(selector) => (
                inventory
                    .iter()
                    .filter(|n| labels_match(&selector, &n.labels))
                    .cloned()
                    .collect(),
                Vec::new(),
            ),
            Err(_) => (Vec::new(), Vec::new()),
        },
    }
}

/// The domain key of a node for a label: its value, or a shared "unknown" bucket so that
/// unlabelled nodes are budgeted together (conservative), never each on their own.
fn bucket(node: &NodeFacts, label: &str) -> String {
    node.labels
        .get(label)
        .cloned()
        .unwrap_or_else(|| format!("(no {label})"))
}

/// The budgets one node counts against, in the order they are checked (whole cluster,
/// failure domain, then each labelled group), for the shared partitioner.
fn limits(node: &NodeFacts, budgets: &Budgets) -> Vec<Limit> {
    limits_said(node, budgets)
        .into_iter()
        .map(|(limit, _)| limit)
        .collect()
}

/// [`limits`], each with its reason as a message for the reader's language.
fn limits_said(node: &NodeFacts, budgets: &Budgets) -> Vec<(Limit, Msg)> {
    let mut out = vec![(
        Limit {
            key: "total".to_string(),
            max: budgets.max_unavailable,
            reason: format!("maxUnavailable {} reached", budgets.max_unavailable),
        },
        Msg::new("plan-limit-max").arg("max", budgets.max_unavailable.to_string()),
    )];
    if let Some(per) = budgets.per_failure_domain {
        let domain = bucket(node, &budgets.failure_domain_label);
        out.push((
            Limit {
                key: format!("domain={domain}"),
                max: per,
                reason: format!("perFailureDomain {per} reached in {domain}"),
            },
            Msg::new("plan-limit-domain")
                .arg("per", per.to_string())
                .arg("domain", domain),
        ));
    }
    for b in &budgets.per_label {
        if let Some(value) = node.labels.get(&b.label) {
            out.push((
                Limit {
                    key: format!("label:{}={value}", b.label),
                    max: b.max_unavailable,
                    reason: format!(
                        "perLabel {}={value} maxUnavailable {} reached",
                        b.label, b.max_unavailable
                    ),
                },
                Msg::new("plan-limit-label")
                    .arg("label", &b.label)
                    .arg("value", value)
                    .arg("max", b.max_unavailable.to_string()),
            ));
        }
    }
    out
}

/// A maintenance planned against a cluster's nodes: its targets, the names it gives that
/// the cluster does not have, and the batches.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedOn {
    /// The nodes selected.
    pub targets: Vec<NodeFacts>,
    /// Names in the file that are not on the cluster.
    pub missing: Vec<NodeName>,
    /// The batches.
    pub plan: Plan,
}

/// Why a planned maintenance may not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanRefusal {
    /// Nodes named in the file do not exist.
    #[error("nodes not found on the cluster: {0}")]
    Missing(String),
    /// The selection selects no node.
    #[error("no node to maintain: {0} selects nothing")]
    NothingSelected(String),
    /// Nodes are selected but none fits in a batch within the budgets.
    #[error("no node can be planned within the budgets: {0}")]
    NothingPlannable(String),
}

impl PlanRefusal {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language (node names, the selection and each node's reason as they are).
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::i18n::Msg;
        match self {
            PlanRefusal::Missing(nodes) => Msg::new("reason-plan-missing").arg("nodes", nodes),
            PlanRefusal::NothingSelected(selection) => {
                Msg::new("reason-plan-nothing-selected").arg("selection", selection)
            }
            PlanRefusal::NothingPlannable(why) => {
                Msg::new("reason-plan-nothing-plannable").arg("why", why)
            }
        }
    }
}

impl PlannedOn {
    /// Whether the run may be journaled: every named node exists, something is selected,
    /// and at least one selected node fits in a batch within the budgets (a run that
    /// would do nothing now is refused, with each node's reason, rather than journaled
    /// as a run without a batch). Nodes that do not fit while others do are planned
    /// around, with the plan's warnings.
    pub fn check(&self, selection: &NodeSelection) -> Result<(), PlanRefusal> {
        if !self.missing.is_empty() {
            let names: Vec<&str> = self.missing.iter().map(|n| n.as_str()).collect();
            return Err(PlanRefusal::Missing(names.join(", ")));
        }
        if self.targets.is_empty() {
            return Err(PlanRefusal::NothingSelected(format!("{selection:?}")));
        }
        if self.plan.batches.is_empty() {
            let reasons: Vec<String> = self
                .plan
                .unplanned
                .iter()
                .map(|(n, why)| format!("{n}: {why}"))
                .collect();
            return Err(PlanRefusal::NothingPlannable(reasons.join("; ")));
        }
        Ok(())
    }
}

/// Selects `selection` among `inventory` and partitions it under `budgets`, counting the
/// cluster's other unavailable nodes against every batch.
pub fn plan_on(selection: &NodeSelection, budgets: &Budgets, inventory: &[NodeFacts]) -> PlannedOn {
    let (targets, missing) = select_nodes(selection, inventory);
    let down: Vec<NodeFacts> = inventory
        .iter()
        .filter(|n| n.unavailable && !targets.iter().any(|t| t.name == n.name))
        .cloned()
        .collect();
    let plan = plan_batches(&targets, &down, budgets);
    PlannedOn {
        targets,
        missing,
        plan,
    }
}

/// Partitions `targets` into batches under `budgets`, counting `down_elsewhere` (nodes of
/// the cluster already unavailable) against every batch. Greedy in target order: each
/// batch takes every node that still fits.
pub fn plan_batches(
    targets: &[NodeFacts],
    down_elsewhere: &[NodeFacts],
    budgets: &Budgets,
) -> Plan {
    let mut baseline = Usage::default();
    for node in down_elsewhere {
        baseline.add(&limits(node, budgets));
    }
    let mut warnings = Vec::new();
    let mut warnings_said = Vec::new();
    if !down_elsewhere.is_empty() {
        let names: Vec<&str> = down_elsewhere.iter().map(|n| n.name.as_str()).collect();
        warnings.push(format!(
            "{} node(s) already unavailable count against every batch: {}",
            names.len(),
            names.join(", ")
        ));
        warnings_said.push(
            Msg::new("plan-warning-down")
                .arg("n", names.len().to_string())
                .arg("nodes", names.join(", ")),
        );
    }
    let unlabelled: Vec<&str> = targets
        .iter()
        .filter(|n| !n.labels.contains_key(&budgets.failure_domain_label))
        .map(|n| n.name.as_str())
        .collect();
    if !unlabelled.is_empty() && budgets.per_failure_domain.is_some() {
        warnings.push(format!(
            "no {} label on {}: they share one failure domain for the budget",
            budgets.failure_domain_label,
            unlabelled.join(", ")
        ));
        warnings_said.push(
            Msg::new("plan-warning-unlabelled")
                .arg("label", &budgets.failure_domain_label)
                .arg("nodes", unlabelled.join(", ")),
        );
    }
    let partition = budget::partition(
        &targets
            .iter()
            .map(|n| limits(n, budgets))
            .collect::<Vec<_>>(),
        &baseline,
    );
    let batches: Vec<Vec<NodeName>> = partition
        .batches
        .iter()
        .map(|b| b.iter().map(|&i| targets[i].name.clone()).collect())
        .collect();
    // Even alone, these nodes exceed a budget: the nodes already down use it up.
    let unplanned: Vec<(NodeName, String)> = partition
        .unplaced
        .iter()
        .map(|(i, why)| {
            (
                targets[*i].name.clone(),
                format!("{why} by nodes already unavailable"),
            )
        })
        .collect();
    let unplanned_said: Vec<Msg> = partition
        .unplaced
        .iter()
        .map(|(i, why)| {
            let limit = limits_said(&targets[*i], budgets)
                .into_iter()
                .find(|(limit, _)| limit.reason == *why)
                .map_or_else(|| Arg::from(why.as_str()), |(_, msg)| msg.into());
            Msg::new("plan-unplanned-by-down").arg("why", limit)
        })
        .collect();
    let needs_cluster =
        CheckOutcome::Unknown("checked on the cluster when the node's turn comes".into());
    let prechecks = targets
        .iter()
        .map(|node| {
            let budget = match unplanned.iter().find(|(n, _)| n == &node.name) {
                Some((_, why)) => CheckOutcome::Fail(why.clone()),
                None => CheckOutcome::Pass,
            };
            (
                node.name.clone(),
                vec![
                    ("budgets".to_string(), budget),
                    ("identity".to_string(), needs_cluster.clone()),
                    ("PDB headroom".to_string(), needs_cluster.clone()),
                    ("capacity".to_string(), needs_cluster.clone()),
                    ("mass-failure guard".to_string(), needs_cluster.clone()),
                ],
            )
        })
        .collect();
    Plan {
        batches,
        unplanned,
        prechecks,
        warnings,
        unplanned_said,
        warnings_said,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::maintenance::spec::LabelBudget;

    fn node(name: &str, zone: &str, group: Option<&str>) -> NodeFacts {
        let mut labels =
            BTreeMap::from([("topology.kubernetes.io/zone".to_string(), zone.to_string())]);
        if let Some(g) = group {
            labels.insert("group".into(), g.into());
        }
        NodeFacts {
            name: NodeName(name.into()),
            labels,
            unavailable: false,
        }
    }

    fn budgets(max: u32, per_domain: Option<u32>, per_group: Option<u32>) -> Budgets {
        Budgets {
            max_unavailable: max,
            failure_domain_label: "topology.kubernetes.io/zone".into(),
            per_failure_domain: per_domain,
            per_label: per_group
                .map(|n| {
                    vec![LabelBudget {
                        label: "group".into(),
                        max_unavailable: n,
                    }]
                })
                .unwrap_or_default(),
        }
    }

    fn names(plan: &Plan) -> Vec<Vec<&str>> {
        plan.batches
            .iter()
            .map(|b| b.iter().map(|n| n.as_str()).collect())
            .collect()
    }

    #[test]
    fn batches_respect_cluster_domain_and_label_budgets() {
        let targets = vec![
            node("a1", "a", Some("g1")),
            node("a2", "a", Some("g2")),
            node("b1", "b", Some("g1")),
            node("b2", "b", Some("g2")),
            node("c1", "c", Some("g1")),
        ];
        let plan = plan_batches(&targets, &[], &budgets(2, Some(1), Some(1)));
        assert_eq!(
            names(&plan),
            vec![vec!["a1", "b2"], vec!["a2", "b1"], vec!["c1"]]
        );
        assert!(plan.unplanned.is_empty());
        let plan = plan_batches(&targets, &[], &budgets(3, None, None));
        assert_eq!(names(&plan), vec![vec!["a1", "a2", "b1"], vec!["b2", "c1"]]);
    }

    #[test]
    fn nodes_already_down_use_up_budget() {
        let targets = vec![node("a1", "a", None), node("b1", "b", None)];
        let down = vec![node("x", "a", None)];
        let plan = plan_batches(&targets, &down, &budgets(2, Some(1), None));
        assert_eq!(names(&plan), vec![vec!["b1"]]);
        assert_eq!(plan.unplanned[0].0, NodeName("a1".into()));
        assert_eq!(
            plan.unplanned[0].1,
            "perFailureDomain 1 reached in a by nodes already unavailable"
        );
        assert!(matches!(plan.prechecks[0].1[0].1, CheckOutcome::Fail(_)));
        assert_eq!(plan.warnings.len(), 1);
    }

    #[test]
    fn a_plans_reasons_and_warnings_say_their_english_as_messages_and_in_chinese() {
        use crate::i18n::Lang;
        let targets = vec![
            node("a1", "a", Some("g1")),
            node("b1", "b", Some("g1")),
            NodeFacts {
                name: NodeName("bare".into()),
                labels: BTreeMap::new(),
                unavailable: false,
            },
        ];
        let down = vec![node("x", "a", Some("g2")), node("y", "c", Some("g1"))];
        for b in [
            budgets(2, Some(1), None),
            budgets(1, None, None),
            budgets(3, None, Some(1)),
        ] {
            let plan = plan_batches(&targets, &down, &b);
            assert!(!plan.unplanned.is_empty());
            assert_eq!(plan.unplanned_said.len(), plan.unplanned.len());
            assert_eq!(plan.warnings_said.len(), plan.warnings.len());
            for ((_, why), said) in plan.unplanned.iter().zip(&plan.unplanned_said) {
                assert_eq!(said.text(Lang::En), *why);
            }
            for (w, said) in plan.warnings.iter().zip(&plan.warnings_said) {
                assert_eq!(said.text(Lang::En), *w);
            }
        }
        let plan = plan_batches(&targets, &down, &budgets(2, Some(1), None));
        assert_eq!(
            plan.unplanned_said[0].text(Lang::ZhCn),
            "已达到 maxUnavailable 2（被已不可用的节点占满）"
        );
        assert_eq!(
            plan.warnings_said[0].text(Lang::ZhCn),
            "2 个已不可用的节点计入每个批次：x, y"
        );
    }

    #[test]
    fn a_plan_needs_known_nodes_and_says_when_nothing_fits() {
        let inventory = vec![node("a1", "a", None), node("x", "a", None)];
        let names = |list: &[&str]| {
            NodeSelection::Names(list.iter().map(|n| NodeName((*n).into())).collect())
        };
        let check = |selection: NodeSelection, down: bool| {
            let mut inventory = inventory.clone();
            inventory[1].unavailable = down;
            let planned = plan_on(&selection, &budgets(1, Some(1), None), &inventory);
            planned.check(&selection)
        };
        assert_eq!(check(names(&["a1"]), false), Ok(()));
        assert!(matches!(
            check(names(&["a1", "zz"]), false),
            Err(PlanRefusal::Missing(m)) if m == "zz"
        ));
        assert!(matches!(
            check(NodeSelection::Selector("group=none".into()), false),
            Err(PlanRefusal::NothingSelected(_))
        ));
        // `x` already down uses up the only slot: `a1` fits in no batch.
        assert!(matches!(
            check(names(&["a1"]), true),
            Err(PlanRefusal::NothingPlannable(why)) if why.contains("a1")
        ));
    }

    #[test]
    fn unlabelled_nodes_share_one_domain() {
        let bare = |n: &str| NodeFacts {
            name: NodeName(n.into()),
            labels: BTreeMap::new(),
            unavailable: false,
        };
        let plan = plan_batches(&[bare("x"), bare("y")], &[], &budgets(2, Some(1), None));
        assert_eq!(names(&plan), vec![vec!["x"], vec!["y"]]);
        assert!(plan.warnings[0].contains("share one failure domain"));
    }

    #[test]
    fn selection_by_names_keeps_order_and_reports_missing_and_selectors_match_labels() {
        let inventory = vec![node("a1", "a", Some("g1")), node("b1", "b", Some("g2"))];
        let (found, missing) = select_nodes(
            &NodeSelection::Names(vec!["b1".into(), "zz".into(), "a1".into()]),
            &inventory,
        );
        assert_eq!(
            found.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(),
            vec!["b1", "a1"]
        );
        assert_eq!(missing, vec![NodeName("zz".into())]);
        let (found, _) = select_nodes(
            &NodeSelection::Selector("group in (g2),!gone".into()),
            &inventory,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name.as_str(), "b1");
    }
}
