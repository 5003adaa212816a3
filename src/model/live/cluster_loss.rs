//! Losing a whole cluster, asked of the fleet snapshot: nothing inside a lost cluster can
//! take its pods, so the question is its siblings'. Those with fresh data are asked what
//! they would take ([`absorb_cluster_loss`]) when the lost cluster's pods are known, and
//! each says the room it has now; those without fresh data take nothing. The CLI's
//! `capacity --what-if cluster=C` and the console's `L` both answer from here.

use std::sync::Arc;

use crate::model::capacity::{
    AbsorbReport, CapacityConfig, ClusterIndex, Scenario, WhatIfReport, absorb_cluster_loss,
    what_if,
};
use crate::model::fleet::{ClusterView, NodeName};
use crate::model::maintenance::MaintenanceHolds;

use super::{ClusterStatus, FleetSnapshot};

/// A sibling with fresh data, before it takes anything.
#[derive(Debug, Clone)]
pub struct SiblingRoom {
    /// Its id.
    pub cluster: Arc<str>,
    /// `Synced`, or `Degraded` (counted, but part of its data is missing).
    pub status: ClusterStatus,
    /// Its capacity with nothing lost (headroom per dimension).
    pub baseline: WhatIfReport,
}

/// The answer.
#[derive(Debug, Clone)]
pub struct ClusterLoss {
    /// What the siblings would take; `None` when the lost cluster has no fresh data, so
    /// which pods it would shed is unknown.
    pub absorbed: Option<AbsorbReport>,
    /// Each sibling with fresh data, in the order given.
    pub room_now: Vec<SiblingRoom>,
    /// Siblings without fresh data (or not in the snapshot): they take nothing.
    pub not_counted: Vec<Arc<str>>,
}

/// Whether `siblings` could take `lost`'s pods, each cluster as capacity sees it (nodes
/// maintenance holds left out, those approved batches reserve taking nothing).
pub fn cluster_loss(
    lost: &str,
    siblings: &[&str],
    snapshot: &FleetSnapshot,
    holds: &MaintenanceHolds,
    config: &CapacityConfig,
) -> ClusterLoss {
    let mut fresh = Vec::new();
    let mut not_counted = Vec::new();
    for id in siblings {
        match snapshot.cluster(id) {
            Some(c) if c.status.data_usable() => fresh.push(c),
            Some(c) => not_counted.push(Arc::clone(&c.id)),
            None => not_counted.push(Arc::from(*id)),
        }
    }
    let views: Vec<(Arc<ClusterView>, &[NodeName])> = fresh
        .iter()
        .map(|c| {
            let held = holds.of(&c.view.id);
            (held.apply(&c.view), held.reserved.as_slice())
        })
        .collect();
    let indexes: Vec<ClusterIndex> = views
        .iter()
        .map(|(view, _)| ClusterIndex::new(view, config))
        .collect();
    let asked: Vec<(&ClusterIndex, &[NodeName])> = indexes
        .iter()
        .zip(&views)
        .map(|(index, (_, reserved))| (index, *reserved))
        .collect();
    let room_now = asked
        .iter()
        .zip(&fresh)
        .map(|((index, reserved), sibling)| SiblingRoom {
            cluster: Arc::clone(&sibling.id),
            status: sibling.status,
            baseline: what_if(index, &Scenario::Baseline, reserved),
        })
        .collect();
    let absorbed = snapshot
        .cluster(lost)
        .filter(|c| c.status.data_usable())
        .map(|c| {
            let view = holds.of(&c.view.id).apply(&c.view);
            absorb_cluster_loss(&ClusterIndex::new(&view, config), &asked)
        });
    ClusterLoss {
        absorbed,
        room_now,
        not_counted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::capacity::fixtures::{cluster, node, pod};
    use crate::model::fleet::ClusterId;
    use crate::model::live::ClusterSnapshot;

    fn member(id: &str, status: ClusterStatus, with_pod: bool) -> Arc<ClusterSnapshot> {
        let pods = if with_pod {
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .cpu(1_000)
                    .build(),
            ]
        } else {
            Vec::new()
        };
        let mut view = cluster(vec![node("n1", "a").build()], pods);
        view.id = ClusterId::from(id);
        let mut snapshot = ClusterSnapshot::connecting(id);
        snapshot.status = status;
        snapshot.view = Arc::new(view);
        Arc::new(snapshot)
    }

    fn fleet(members: Vec<Arc<ClusterSnapshot>>) -> FleetSnapshot {
        FleetSnapshot {
            clusters: Arc::from(members),
            ..FleetSnapshot::empty()
        }
    }

    #[test]
    fn siblings_with_fresh_data_are_asked_and_the_others_take_nothing() {
        let snapshot = fleet(vec![
            member("lost", ClusterStatus::Synced, true),
            member("a", ClusterStatus::Degraded, true),
            member("b", ClusterStatus::Unreachable, true),
        ]);
        let ask = |snapshot: &FleetSnapshot| {
            cluster_loss(
                "lost",
                &["a", "b", "gone"],
                snapshot,
                &MaintenanceHolds::default(),
                &CapacityConfig::default(),
            )
        };
        let loss = ask(&snapshot);
        let absorbed = loss.absorbed.expect("the lost cluster's pods are known");
        assert_eq!((absorbed.displaced_pods, absorbed.placed_pods), (1, 1));
        assert_eq!(&*absorbed.siblings[0].cluster.0, "a");
        let room: Vec<(&str, ClusterStatus)> = loss
            .room_now
            .iter()
            .map(|r| (&*r.cluster, r.status))
            .collect();
        assert_eq!(room, [("a", ClusterStatus::Degraded)]);
        assert!(loss.room_now[0].baseline.headroom.cpu_millis() > 0);
        assert_eq!(
            loss.not_counted.iter().map(|c| &**c).collect::<Vec<_>>(),
            ["b", "gone"]
        );
        // Without fresh data on the lost cluster its pods are unknown: only the room.
        let unknown = fleet(vec![
            member("lost", ClusterStatus::Unreachable, true),
            member("a", ClusterStatus::Synced, true),
        ]);
        let loss = ask(&unknown);
        assert!(loss.absorbed.is_none());
        assert_eq!(loss.room_now.len(), 1);
    }
}
