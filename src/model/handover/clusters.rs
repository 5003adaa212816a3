//! The clusters' sections: clusters that cannot be trusted (Unreachable,
//! IdentityMismatch, UNKNOWN), and clusters whose data is fresh but that are not whole.

use super::{ClusterHealth, HandoverInput, HandoverItem, Section, Subject};
use crate::model::ledger::ClusterId;
use crate::model::live::ClusterStatus;

/// Every cluster's health as the live fleet view reports it.
pub fn cluster_health(snapshot: &crate::model::live::FleetSnapshot) -> Vec<ClusterHealth> {
    snapshot
        .clusters
        .iter()
        .map(|c| ClusterHealth {
            id: ClusterId(c.id.to_string()),
            status: c.status,
            error: c.last_error.clone(),
            nodes_ready: c.nodes_ready(),
            budgets_below_minimum: c
                .view
                .pdbs
                .iter()
                .filter(|pdb| pdb.current_healthy < pdb.desired_healthy)
                .map(|pdb| {
                    format!(
                        "{}/{} has {}, needs {}",
                        pdb.namespace, pdb.name, pdb.current_healthy, pdb.desired_healthy
                    )
                })
                .collect(),
        })
        .collect()
}

/// Clusters Unreachable, IdentityMismatch or UNKNOWN.
pub(super) fn untrusted(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    for c in input.clusters.unwrap_or(&[]) {
        if !matches!(
            c.status,
            ClusterStatus::Unreachable | ClusterStatus::IdentityMismatch | ClusterStatus::Unknown
        ) {
            continue;
        }
        let mut details = vec![format!("status: {}", c.status.label())];
        if let Some(e) = &c.error {
            details.push(format!("last error: {e}"));
        }
        if c.status == ClusterStatus::IdentityMismatch {
            details.push("every action on it is refused until the ledger pin is checked".into());
        }
        items.push(HandoverItem {
            key: format!("cluster/{}/{}", c.id, c.status.label()),
            section: Section::Clusters,
            title: format!("{} is {}", c.id, c.status.label()),
            details,
            since: None,
            subject: Subject {
                cluster: Some(c.id.clone()),
                ..Subject::default()
            },
            acks: Vec::new(),
        });
    }
    items
}

/// Clusters with fresh data that are not whole: Degraded data, nodes not ready,
/// disruption budgets below their minimum.
pub(super) fn not_whole(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    for c in input.clusters.unwrap_or(&[]) {
        let facts = what_is_wrong(c);
        let Some((first, more)) = facts.split_first() else {
            continue;
        };
        // Keyed by what is wrong, so an acknowledgement does not go on covering a
        // cluster that got worse.
        let (ready, total) = c.nodes_ready;
        items.push(HandoverItem {
            key: format!(
                "cluster/{}/not-whole/{}/{}/{}",
                c.id,
                c.status.label(),
                total - ready,
                c.budgets_below_minimum.len()
            ),
            section: Section::ClustersNotWhole,
            title: format!("{}: {first}", c.id),
            details: more.to_vec(),
            since: None,
            subject: Subject {
                cluster: Some(c.id.clone()),
                ..Subject::default()
            },
            acks: Vec::new(),
        });
    }
    items
}

/// What is wrong with a cluster whose data is fresh, one fact per line; empty when it is
/// whole.
fn what_is_wrong(c: &ClusterHealth) -> Vec<String> {
    if !c.status.data_usable() {
        return Vec::new();
    }
    let mut facts = Vec::new();
    if c.status == ClusterStatus::Degraded {
        facts.push(match &c.error {
            Some(why) => format!("data Degraded: {why}"),
            None => "data Degraded: part of it could not be read".into(),
        });
    }
    let (ready, total) = c.nodes_ready;
    if ready < total {
        facts.push(format!("{} of {total} nodes not ready", total - ready));
    }
    facts.extend(
        c.budgets_below_minimum
            .iter()
            .map(|b| format!("PDB {b} healthy: below its minimum")),
    );
    facts
}
