//! The mass-failure guard: when a large share of one failure domain's nodes turns
//! NotReady within a short window, the cause is probably shared (network, power, a
//! dependency), not the nodes. Automation in that domain pauses itself and says so; only
//! a person resumes it. Zone-aware, unlike a cluster-wide short-circuit.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::drain::elapsed;
use crate::model::run::NodeName;

/// The reason every guard pause starts with.
pub const SUSPECT_SHARED_DEPENDENCY: &str = "suspect shared dependency";

/// When the guard trips.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuardPolicy {
    /// Share of a domain's nodes (0–1) that must turn NotReady within the window.
    pub share: f64,
    /// The window.
    pub window: Duration,
    /// Never trip on fewer nodes than this (one node down in a two-node domain is not a
    /// storm).
    #[serde(alias = "min_nodes")]
    pub min_nodes: usize,
}

impl Default for GuardPolicy {
    fn default() -> Self {
        GuardPolicy {
            share: 0.3,
            window: Duration::from_secs(300),
            min_nodes: 2,
        }
    }
}

/// A node's Ready condition changing, as watched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadinessChange {
    /// The node.
    pub node: NodeName,
    /// Its failure domain (label value).
    pub domain: String,
    /// When it changed.
    pub at: Timestamp,
    /// Ready after the change.
    pub ready: bool,
}

/// What the guard knows besides the changes.
#[derive(Debug, Clone, Default)]
pub struct GuardContext {
    /// Nodes per failure domain.
    pub totals: BTreeMap<String, usize>,
    /// Nodes we are taking down on purpose (rebooting): never counted.
    pub expected_down: BTreeSet<NodeName>,
    /// When a person last resumed each domain: only changes after that count, so the same
    /// outage does not trip the guard again right after a person decided to go on.
    pub resumed_at: BTreeMap<String, Timestamp>,
    /// Domains already paused by the guard.
    pub paused: BTreeSet<String>,
}

/// The guard tripped for one domain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuardTrip {
    /// The domain to pause.
    pub domain: String,
    /// The nodes that turned NotReady within the window and are still NotReady.
    #[serde(alias = "not_ready")]
    pub not_ready: Vec<NodeName>,
    /// Nodes in the domain.
    pub total: usize,
    /// The pause reason.
    pub reason: String,
}

/// The domains to pause now. Pure: the caller keeps the readiness history.
pub fn evaluate(
    policy: &GuardPolicy,
    context: &GuardContext,
    changes: &[ReadinessChange],
    now: Timestamp,
) -> Vec<GuardTrip> {
    // The latest change per node up to now: a node that recovered does not count.
    let mut latest: BTreeMap<&NodeName, &ReadinessChange> = BTreeMap::new();
    for change in changes.iter().filter(|c| c.at <= now) {
        if latest
            .get(&change.node)
            .is_none_or(|prev| prev.at <= change.at)
        {
            latest.insert(&change.node, change);
        }
    }
    let mut down: BTreeMap<&str, Vec<NodeName>> = BTreeMap::new();
    for change in latest.values() {
        let in_window = elapsed(change.at, now) <= policy.window;
        let after_resume = context
            .resumed_at
            .get(&change.domain)
            .is_none_or(|resumed| change.at > *resumed);
        if !change.ready
            && in_window
            && after_resume
            && !context.expected_down.contains(&change.node)
        {
            down.entry(&change.domain)
                .or_default()
                .push(change.node.clone());
        }
    }
    let mut trips = Vec::new();
    for (domain, nodes) in down {
        if context.paused.contains(domain) {
            continue;
        }
        let total = context
            .totals
            .get(domain)
            .copied()
            .unwrap_or(nodes.len())
            .max(nodes.len());
        let by_share = (policy.share * total as f64).ceil() as usize;
        let threshold = by_share.max(policy.min_nodes).max(1);
        if nodes.len() >= threshold {
            trips.push(GuardTrip {
                domain: domain.to_string(),
                reason: format!(
                    "{SUSPECT_SHARED_DEPENDENCY}: {} of {total} nodes in {domain} turned NotReady within {}",
                    nodes.len(),
                    crate::model::duration::format_duration(policy.window)
                ),
                not_ready: nodes,
                total,
            });
        }
    }
    trips
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> Timestamp {
        Timestamp::from_second(1_750_000_000 + s).unwrap()
    }

    fn change(node: &str, domain: &str, at: i64, ready: bool) -> ReadinessChange {
        ReadinessChange {
            node: NodeName(node.into()),
            domain: domain.into(),
            at: t(at),
            ready,
        }
    }

    fn context() -> GuardContext {
        GuardContext {
            totals: [("zone-a".to_string(), 10), ("zone-b".to_string(), 10)].into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_zone_outage_trips_that_zone_only() {
        let mut changes: Vec<_> = (0..4)
            .map(|i| change(&format!("a{i}"), "zone-a", i * 10, false))
            .collect();
        changes.push(change("b0", "zone-b", 5, false));
        let trips = evaluate(&GuardPolicy::default(), &context(), &changes, t(60));
        assert_eq!(trips.len(), 1);
        assert_eq!(trips[0].domain, "zone-a");
        assert_eq!(
            trips[0].reason,
            "suspect shared dependency: 4 of 10 nodes in zone-a turned NotReady within 5m"
        );
    }

    #[test]
    fn below_the_share_outside_the_window_or_recovered_does_not_trip() {
        let policy = GuardPolicy::default();
        let two = vec![
            change("a0", "zone-a", 0, false),
            change("a1", "zone-a", 1, false),
        ];
        assert!(
            evaluate(&policy, &context(), &two, t(10)).is_empty(),
            "2 of 10 < 30%"
        );
        let spread: Vec<_> = (0..4)
            .map(|i| change(&format!("a{i}"), "zone-a", i * 200, false))
            .collect();
        assert!(
            evaluate(&policy, &context(), &spread, t(600)).is_empty(),
            "outside the window"
        );
        let mut flapping: Vec<_> = (0..4)
            .map(|i| change(&format!("a{i}"), "zone-a", i, false))
            .collect();
        flapping.push(change("a0", "zone-a", 20, true));
        flapping.push(change("a1", "zone-a", 21, true));
        assert!(
            evaluate(&policy, &context(), &flapping, t(30)).is_empty(),
            "recovered nodes do not count"
        );
    }

    #[test]
    fn our_own_reboots_and_changes_before_a_resume_do_not_count() {
        let policy = GuardPolicy::default();
        let changes: Vec<_> = (0..4)
            .map(|i| change(&format!("a{i}"), "zone-a", i, false))
            .collect();
        let mut ctx = context();
        ctx.expected_down = [NodeName("a0".into()), NodeName("a1".into())].into();
        assert!(evaluate(&policy, &ctx, &changes, t(10)).is_empty());
        let mut ctx = context();
        ctx.resumed_at.insert("zone-a".into(), t(5));
        assert!(evaluate(&policy, &ctx, &changes, t(10)).is_empty());
        let mut ctx = context();
        ctx.paused.insert("zone-a".into());
        assert!(
            evaluate(&policy, &ctx, &changes, t(10)).is_empty(),
            "already paused"
        );
    }

    #[test]
    fn small_domains_need_at_least_min_nodes() {
        let ctx = GuardContext {
            totals: [("rack-1".to_string(), 2)].into(),
            ..Default::default()
        };
        let one = vec![change("r0", "rack-1", 0, false)];
        assert!(evaluate(&GuardPolicy::default(), &ctx, &one, t(1)).is_empty());
        let both = vec![
            change("r0", "rack-1", 0, false),
            change("r1", "rack-1", 0, false),
        ];
        assert_eq!(
            evaluate(&GuardPolicy::default(), &ctx, &both, t(1)).len(),
            1
        );
    }
}
