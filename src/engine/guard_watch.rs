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
