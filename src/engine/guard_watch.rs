//! Feeds the mass-failure guard from the live fleet view: node readiness transitions per
//! failure domain, seen by watches (no polling), for the clusters with active runs.

use std::collections::{BTreeMap, HashMap};

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
    /// Each person's resume of a (cluster, domain): the time the journal has (the
    /// writer's clock) and when this executor first saw it (its own clock, the one
    /// readiness changes are timed by).
    resumes_seen: HashMap<(String, String), (Timestamp, Timestamp)>,
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

    /// When this executor first saw each resume in `written` (domain → the resume's time
    /// in the journal), by its own clock. Only readiness changes after a resume count, and
    /// those are timed by this clock: comparing them with the writer's clock would let a
    /// clock ahead of the executor's hide a new outage for as long as the skew, and one
    /// behind let the outage the person chose to go on through trip the guard again.
    pub fn resumes_as_seen(
        &mut self,
        cluster: &str,
        written: &BTreeMap<String, Timestamp>,
        now: Timestamp,
    ) -> BTreeMap<String, Timestamp> {
        written
            .iter()
            .map(|(domain, at)| {
                let seen = self
                    .resumes_seen
                    .entry((cluster.to_string(), domain.clone()))
                    .or_insert((*at, now));
                if seen.0 != *at {
                    *seen = (*at, now);
                }
                (domain.clone(), seen.1)
            })
            .collect()
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
            claims: Vec::new(),
            volumes: Vec::new(),
            volumes_unreadable: None,
            controllers: Default::default(),
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

    #[test]
    fn a_resume_counts_from_when_this_executor_saw_it_not_the_writers_clock() {
        let at = |s: i64| Timestamp::from_second(1_800_000_000 + s).unwrap();
        let mut watch = GuardWatch::default();
        let healthy = fleet(ClusterStatus::Synced, nodes(true));
        let dark = fleet(ClusterStatus::Synced, nodes(false));
        watch.observe(&healthy, "c1", ZONE_LABEL, at(0));
        // A person resumed zone `a`; their clock is ten minutes ahead of the executor's.
        let written = BTreeMap::from([("a".to_string(), at(600))]);
        let resumed_at = watch.resumes_as_seen("c1", &written, at(5));
        assert_eq!(resumed_at["a"], at(5));
        // Zone `a` then goes dark, by the executor's clock after the resume.
        watch.observe(&dark, "c1", ZONE_LABEL, at(10));
        let context = GuardContext {
            resumed_at: watch.resumes_as_seen("c1", &written, at(10)),
            ..GuardContext::default()
        };
        let trips = watch.trips(&dark, "c1", ZONE_LABEL, context, at(10));
        assert_eq!(trips.len(), 1, "the new outage trips despite the skew");
        // The writer's own time would have hidden it.
        let by_writer = GuardContext {
            resumed_at: written.clone(),
            ..GuardContext::default()
        };
        assert!(
            watch
                .trips(&dark, "c1", ZONE_LABEL, by_writer, at(10))
                .is_empty()
        );
        // A later resume is seen anew.
        let again = BTreeMap::from([("a".to_string(), at(700))]);
        assert_eq!(watch.resumes_as_seen("c1", &again, at(20))["a"], at(20));
    }
}
