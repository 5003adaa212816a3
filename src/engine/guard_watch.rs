//! Feeds the mass-failure guard from the live fleet view: node readiness transitions per
//! failure domain, seen by watches (no polling), for the clusters with active runs.

use std::collections::HashMap;

use jiff::Timestamp;

use crate::model::fleet::Readiness;
use crate::model::live::FleetSnapshot;
use crate::model::maintenance::{
    GuardContext, GuardPolicy, GuardTrip, ReadinessChange, evaluate_guard,
};
use crate::model::run::NodeName;

/// Readiness history of the clusters being maintained.
#[derive(Debug, Default)]
pub struct GuardWatch {
    policy: GuardPolicy,
    last_ready: HashMap<(String, String), bool>,
    changes: HashMap<String, Vec<ReadinessChange>>,
}

impl GuardWatch {
    /// A watch with `policy`.
    pub fn new(policy: GuardPolicy) -> Self {
        GuardWatch {
            policy,
            ..GuardWatch::default()
        }
    }

    /// Records readiness transitions of `cluster` since the last look. The first look
    /// only learns the starting state: a node that was already down is not a new failure.
    pub fn observe(
        &mut self,
        snapshot: &FleetSnapshot,
        cluster: &str,
        domain_label: &str,
        now: Timestamp,
    ) {
        let Some(live) = snapshot.cluster(cluster) else {
            return;
        };
        if !live.status.data_usable() {
            return;
        }
        for node in &live.view.nodes {
            let ready = node.readiness == Readiness::Ready;
            let key = (cluster.to_string(), node.name.to_string());
            let previous = self.last_ready.insert(key, ready);
            if previous.is_some_and(|was| was != ready) {
                self.changes
                    .entry(cluster.to_string())
                    .or_default()
                    .push(ReadinessChange {
                        node: NodeName(node.name.to_string()),
                        domain: node
                            .labels
                            .get(domain_label)
                            .map(|v| v.to_string())
                            .unwrap_or_default(),
                        at: now,
                        ready,
                    });
            }
        }
        // Keep only what the window can still use.
        let horizon = now
            .checked_sub(jiff::SignedDuration::try_from(self.policy.window * 2).unwrap_or_default())
            .unwrap_or(now);
        if let Some(changes) = self.changes.get_mut(cluster) {
            changes.retain(|c| c.at >= horizon);
        }
    }

    /// Domains of `cluster` that trip the guard now. `context` says which nodes our own
    /// maintenance takes down (a reboot is not a failure), which domains are paused
    /// already and when a person last resumed each; the domains' sizes are counted here,
    /// from the fleet view.
    pub fn trips(
        &self,
        snapshot: &FleetSnapshot,
        cluster: &str,
        domain_label: &str,
        mut context: GuardContext,
        now: Timestamp,
    ) -> Vec<GuardTrip> {
        let Some(live) = snapshot.cluster(cluster) else {
            return Vec::new();
        };
        // Without a whole, fresh view the domains' sizes are not known (an empty view
        // would make every recorded NotReady node 100% of its domain).
        if !live.status.data_usable() {
            return Vec::new();
        }
        context.totals.clear();
        for node in &live.view.nodes {
            let domain = node
                .labels
                .get(domain_label)
                .map(|v| v.to_string())
                .unwrap_or_default();
            *context.totals.entry(domain).or_default() += 1;
        }
        let changes = self.changes.get(cluster).map(Vec::as_slice).unwrap_or(&[]);
        evaluate_guard(&self.policy, &context, changes, now)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::capacity::ZONE_LABEL;
    use crate::model::fleet::{
        ClusterId, ClusterView, Labels, MaintenanceState, NodeView, ResourceVector, Schedulability,
    };
    use crate::model::live::{ClusterSnapshot, ClusterStatus, ConnectionFacts, SyncPhase};

    fn node(name: &str, zone: &str, ready: bool) -> NodeView {
        NodeView {
            name: crate::model::fleet::NodeName::from(name),
            labels: Labels::new([(Arc::from(ZONE_LABEL), Arc::from(zone))]),
            readiness: if ready {
                Readiness::Ready
            } else {
                Readiness::NotReady
            },
            schedulability: Schedulability::Schedulable,
            maintenance: MaintenanceState::InService,
            taints: Box::new([]),
            allocatable: ResourceVector::new(16_000, 64 << 30, 0, 110),
            gpu_replicas: 1,
            kubelet_version: Arc::from("v1.34.1"),
        }
    }

    /// Zone `a` (four nodes, Ready or not) and zone `b` (four Ready nodes).
    fn nodes(a_ready: bool) -> Vec<NodeView> {
        (0..4)
            .map(|i| node(&format!("a{i}"), "a", a_ready))
            .chain((0..4).map(|i| node(&format!("b{i}"), "b", true)))
            .collect()
    }

    fn fleet(status: ClusterStatus, nodes: Vec<NodeView>) -> FleetSnapshot {
        let mut facts = ConnectionFacts::connecting();
        facts.listed = status != ClusterStatus::Connecting;
        if facts.listed {
            facts.phase = SyncPhase::Watching { complete: true };
        }
        let mut cluster = ClusterSnapshot::connecting("c1");
        cluster.status = status;
        cluster.facts = facts;
        cluster.view = Arc::new(ClusterView {
            id: ClusterId::from("c1"),
            nodes,
            pods: Vec::new(),
            pdbs: Vec::new(),
        });
        FleetSnapshot {
            version: 1,
            taken_at: Timestamp::from_second(1_800_000_000).unwrap(),
            clusters: Arc::from(vec![Arc::new(cluster)]),
        }
    }

    #[test]
    fn a_dark_zone_trips_only_on_a_usable_view() {
        let mut watch = GuardWatch::default();
        let t0 = Timestamp::from_second(1_800_000_000).unwrap();
        let t1 = Timestamp::from_second(1_800_000_010).unwrap();
        watch.observe(
            &fleet(ClusterStatus::Synced, nodes(true)),
            "c1",
            ZONE_LABEL,
            t0,
        );
        let dark = fleet(ClusterStatus::Synced, nodes(false));
        watch.observe(&dark, "c1", ZONE_LABEL, t1);
        let trips = watch.trips(&dark, "c1", ZONE_LABEL, GuardContext::default(), t1);
        assert_eq!(trips.len(), 1);
        assert_eq!(trips[0].domain, "a");
        assert_eq!((trips[0].not_ready.len(), trips[0].total), (4, 4));
        // The same history, but the cluster reconnected and has not listed yet: its empty
        // view says nothing about the size of zone `a`.
        let reconnecting = fleet(ClusterStatus::Connecting, Vec::new());
        assert!(
            watch
                .trips(&reconnecting, "c1", ZONE_LABEL, GuardContext::default(), t1)
                .is_empty()
        );
    }
}
