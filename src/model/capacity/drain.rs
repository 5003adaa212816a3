//! A drain is voluntary: every eviction asks the pod's disruption budget, where losing a
//! node does not. Capacity says whether the drained nodes' pods fit elsewhere; this says
//! which budgets would refuse their evictions now, so that a drain what-if whose pods all
//! fit is not read as a drain that would go through.

use std::sync::Arc;

use crate::model::fleet::{ClusterView, NodeName};

/// A disruption budget that would refuse some of a drain's evictions now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockingBudget {
    /// Namespace.
    pub namespace: Arc<str>,
    /// Name.
    pub name: Arc<str>,
    /// The drained nodes' pods it would refuse to evict now.
    pub pods: u32,
    /// `status.currentHealthy`, for the sentence.
    pub current_healthy: i32,
    /// `status.desiredHealthy`.
    pub desired_healthy: i32,
}

/// The budgets that would refuse, now, to evict a pod on one of `nodes`: each pod judged
/// as the node page judges it ([`PdbView::refuses_eviction`] with the pod's own
/// readiness), most refused pods first. DaemonSet, static and finished pods are not
/// evicted by a drain and are left out.
///
/// [`PdbView::refuses_eviction`]: crate::model::fleet::PdbView::refuses_eviction
pub fn budgets_blocking_drain(view: &ClusterView, nodes: &[NodeName]) -> Vec<BlockingBudget> {
    let mut refused: Vec<(u32, u32)> = Vec::new();
    for pod in &view.pods {
        let drained = pod.node.as_ref().is_some_and(|n| nodes.contains(n));
        if !drained || !pod.is_movable() || !pod.phase.holds_resources() {
            continue;
        }
        let Some(i) = pod.pdb else { continue };
        if !view
            .pdbs
            .get(i as usize)
            .is_some_and(|pdb| pdb.refuses_eviction(pod.ready))
        {
            continue;
        }
        match refused.iter_mut().find(|(pdb, _)| *pdb == i) {
            Some((_, pods)) => *pods += 1,
            None => refused.push((i, 1)),
        }
    }
    let mut out: Vec<BlockingBudget> = refused
        .into_iter()
        .filter_map(|(i, pods)| {
            let pdb = view.pdbs.get(i as usize)?;
            Some(BlockingBudget {
                namespace: Arc::clone(&pdb.namespace),
                name: Arc::clone(&pdb.name),
                pods,
                current_healthy: pdb.current_healthy,
                desired_healthy: pdb.desired_healthy,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.pods
            .cmp(&a.pods)
            .then_with(|| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity::{cluster, node, pdb as budget, pod};
    use crate::model::fleet::PodPhase;

    #[test]
    fn a_drain_waits_on_the_budgets_that_refuse_its_pods_now() {
        let mut view = cluster(
            vec![
                node("n1", "a").build(),
                node("n2", "a").build(),
                node("n3", "a").build(),
            ],
            vec![
                // Two web pods on drained nodes, both Ready, under a spent budget.
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-1a")
                    .build(),
                pod("web-2", Some("n2"))
                    .owner("shop", "ReplicaSet", "web-1a")
                    .build(),
                // Not drained.
                pod("web-3", Some("n3"))
                    .owner("shop", "ReplicaSet", "web-1a")
                    .build(),
                // Not Ready under a whole budget: it may go.
                pod("api-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "api-2b")
                    .not_ready()
                    .build(),
                // A budget with room: it goes.
                pod("cart-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "cart-3c")
                    .build(),
                // Already being deleted: no eviction to ask for.
                pod("web-0", Some("n2"))
                    .owner("shop", "ReplicaSet", "web-1a")
                    .phase(PodPhase::Terminating)
                    .build(),
            ],
        );
        view.pdbs = vec![
            budget("web", 0, 3, 3),
            budget("api", 0, 2, 2),
            budget("cart", 1, 3, 2),
        ];
        for (p, pdb) in [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (5, 0)] {
            view.pods[p].pdb = Some(pdb);
        }
        let drained = [NodeName::from("n1"), NodeName::from("n2")];
        assert_eq!(
            budgets_blocking_drain(&view, &drained),
            vec![BlockingBudget {
                namespace: "shop".into(),
                name: "web".into(),
                pods: 2,
                current_healthy: 3,
                desired_healthy: 3,
            }]
        );
        assert_eq!(
            budgets_blocking_drain(&view, &[NodeName::from("n3")]).len(),
            1
        );
        view.pdbs[0].disruptions_allowed = 1;
        assert!(budgets_blocking_drain(&view, &drained).is_empty());
    }
}
