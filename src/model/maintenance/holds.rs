//! The nodes maintenance holds, as capacity must count them, read from the journal's
//! projection:
//!
//! - a node whose maintenance has begun (past the precheck) and not ended (uncordoned, or
//!   the run finished) is under maintenance: not healthy capacity, whatever it reports —
//!   between the start of a step and its cordon the node still looks schedulable;
//! - the nodes not begun yet of the batch a run is working on are reserved: the run was
//!   let go on that batch (approved, or by policy), so their capacity is spoken for.
//!
//! Batches after the current one are not reserved: they wait for their own approval and
//! go one at a time, within the run's budgets.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::model::fleet::{ClusterId, ClusterView, MaintenanceState, NodeName};
use crate::model::run::{ItemView, Projection, RunStatus, RunView, StepStatus};

use super::Step;

/// Nodes held by maintenance, per cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaintenanceHolds {
    /// Clusters with anything held.
    pub clusters: BTreeMap<ClusterId, ClusterHolds>,
}

/// Nodes held by maintenance in one cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterHolds {
    /// Nodes under maintenance now.
    pub under_maintenance: Vec<NodeName>,
    /// Nodes reserved for the batch being worked on.
    pub reserved: Vec<NodeName>,
}

/// What a cluster with nothing held holds.
static NOTHING_HELD: ClusterHolds = ClusterHolds {
    under_maintenance: Vec::new(),
    reserved: Vec::new(),
};

impl MaintenanceHolds {
    /// What is held in `cluster` (nothing, for a cluster no run works on).
    pub fn of(&self, cluster: &ClusterId) -> &ClusterHolds {
        self.clusters.get(cluster).unwrap_or(&NOTHING_HELD)
    }
}

impl ClusterHolds {
    /// The cluster's view as capacity must see it: its held nodes marked under
    /// maintenance (a copy only when something is held; otherwise the same view).
    pub fn apply(&self, view: &Arc<ClusterView>) -> Arc<ClusterView> {
        if self.under_maintenance.is_empty() {
            return Arc::clone(view);
        }
        let mut marked = ClusterView::clone(view);
        for node in &mut marked.nodes {
            if self.under_maintenance.contains(&node.name) {
                node.maintenance = MaintenanceState::UnderMaintenance;
            }
        }
        Arc::new(marked)
    }
}

/// Whether the item's maintenance has begun: a step past the precheck has a status.
fn begun(item: &ItemView) -> bool {
    item.steps.keys().any(|name| *name != Step::Precheck.name())
}

/// Whether the item's maintenance has ended: its uncordon is done (or deliberately not
/// done), or it reached `Done`.
fn ended(item: &ItemView) -> bool {
    let finished = |step: Step| {
        item.steps
            .get(&step.name())
            .is_some_and(|s| matches!(s.status, StepStatus::Succeeded | StepStatus::Skipped))
    };
    finished(Step::Uncordon) || item.steps.contains_key(&Step::Done.name())
}

/// Whether the item's node is between the start and the end of its maintenance: begun
/// and not uncordoned (nor done).
pub fn mid_maintenance(item: &ItemView) -> bool {
    begun(item) && !ended(item)
}

/// Whether fleetdeck cordoned the item's node and has not uncordoned it.
pub fn left_cordoned(item: &ItemView) -> bool {
    item.steps
        .get(&Step::Cordon.name())
        .is_some_and(|s| s.status == StepStatus::Succeeded)
        && !ended(item)
}

/// Reads the holds of every maintenance run that is still going.
pub fn maintenance_holds(projection: &Projection) -> MaintenanceHolds {
    let mut holds = MaintenanceHolds::default();
    for run in projection.runs.values() {
        if run.is_rollout() || matches!(run.status, RunStatus::Succeeded | RunStatus::Aborted) {
            continue;
        }
        let Some(cluster) = &run.cluster else {
            continue;
        };
        let cluster = ClusterId(Arc::from(cluster.as_str()));
        let node = |item: &crate::model::run::ItemId| NodeName(Arc::from(item.0.as_str()));
        let held = holds.clusters.entry(cluster).or_default();
        for (id, item) in &run.items {
            if begun(item) && !ended(item) {
                held.under_maintenance.push(node(id));
            }
        }
        if matches!(run.status, RunStatus::Running | RunStatus::Paused) {
            held.reserved.extend(
                current_batch(run)
                    .filter(|id| run.items.get(*id).is_none_or(|item| !begun(item)))
                    .map(node),
            );
        }
    }
    holds
        .clusters
        .retain(|_, held| *held != ClusterHolds::default());
    holds
}

/// The items of the first batch with an item not ended.
fn current_batch(run: &RunView) -> impl Iterator<Item = &crate::model::run::ItemId> {
    run.batches
        .iter()
        .find(|batch| {
            batch
                .iter()
                .any(|id| run.items.get(id).is_none_or(|item| !ended(item)))
        })
        .into_iter()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::{ItemId, StepView};

    fn item(steps: &[(Step, StepStatus)]) -> ItemView {
        let since = jiff::Timestamp::UNIX_EPOCH;
        ItemView {
            steps: steps
                .iter()
                .map(|(step, status)| {
                    (
                        step.name(),
                        StepView {
                            status: status.clone(),
                            since,
                            by: crate::model::run::Actor("x".into()),
                        },
                    )
                })
                .collect(),
            current: steps.last().map(|(step, _)| step.name()),
            ..ItemView::default()
        }
    }

    fn names(nodes: &[NodeName]) -> Vec<&str> {
        nodes.iter().map(|n| &*n.0).collect()
    }

    #[test]
    fn begun_nodes_are_held_and_the_current_batch_reserved() {
        use StepStatus::*;
        let mut projection = Projection::default();
        let run_id = crate::model::run::RunId("mnt-1".into());
        let id = |s: &str| ItemId(s.into());
        let mut run = RunView {
            id: run_id.clone(),
            title: "kernel".into(),
            cluster: Some(crate::model::ledger::ClusterId("c1".into())),
            status: RunStatus::Running,
            created_by: crate::model::run::Actor("x".into()),
            created_at: jiff::Timestamp::UNIX_EPOCH,
            items: BTreeMap::new(),
            order: vec![],
            batches: vec![
                vec![id("n1"), id("n2")],
                vec![id("n3"), id("n4")],
                vec![id("n5")],
            ],
            spec: serde_json::Value::Null,
            approvals: vec![],
            notes: vec![],
            aborted: None,
            rollout: Default::default(),
        };
        run.items.insert(
            id("n1"),
            item(&[
                (Step::Precheck, Succeeded),
                (Step::Cordon, Succeeded),
                (Step::Drain, Succeeded),
                (Step::Maintain, Succeeded),
                (Step::VerifyNode, Succeeded),
                (Step::VerifyWorkloads, Succeeded),
                (Step::Uncordon, Succeeded),
            ]),
        );
        run.items.insert(
            id("n2"),
            item(&[
                (Step::Precheck, Succeeded),
                (Step::Cordon, Skipped),
                (Step::Drain, Succeeded),
                (Step::Maintain, Succeeded),
                (Step::VerifyNode, Succeeded),
                (Step::VerifyWorkloads, Succeeded),
                (Step::Uncordon, Skipped),
            ]),
        );
        run.items.insert(
            id("n3"),
            item(&[(Step::Precheck, Succeeded), (Step::Cordon, Running)]),
        );
        run.items
            .insert(id("n4"), item(&[(Step::Precheck, Running)]));
        projection.runs.insert(run_id.clone(), run.clone());

        let holds = maintenance_holds(&projection);
        let c1 = ClusterId("c1".into());
        assert_eq!(names(&holds.of(&c1).under_maintenance), ["n3"]);
        assert_eq!(
            names(&holds.of(&c1).reserved),
            ["n4"],
            "n5 waits for its own batch"
        );

        // Waiting for approval of the next batch, nothing is reserved; what has begun is
        // still held.
        run.status = RunStatus::AwaitingApproval;
        projection.runs.insert(run_id.clone(), run.clone());
        let holds = maintenance_holds(&projection);
        assert!(holds.of(&c1).reserved.is_empty());
        assert_eq!(names(&holds.of(&c1).under_maintenance), ["n3"]);

        // A run that finished or was aborted holds nothing.
        run.status = RunStatus::Aborted;
        projection.runs.insert(run_id, run);
        assert_eq!(maintenance_holds(&projection), MaintenanceHolds::default());
    }

    #[test]
    fn held_nodes_are_marked_under_maintenance() {
        use crate::fixtures::capacity::{cluster, node};
        let held = ClusterHolds {
            under_maintenance: vec![NodeName(Arc::from("n2"))],
            reserved: vec![],
        };
        let view = Arc::new(cluster(
            vec![node("n1", "a").build(), node("n2", "a").build()],
            vec![],
        ));
        let marked = held.apply(&view);
        assert_eq!(marked.nodes[0].maintenance, MaintenanceState::InService);
        assert_eq!(
            marked.nodes[1].maintenance,
            MaintenanceState::UnderMaintenance
        );
        assert_eq!(
            view.nodes[1].maintenance,
            MaintenanceState::InService,
            "a copy"
        );
        assert!(Arc::ptr_eq(&ClusterHolds::default().apply(&view), &view));
    }
}
