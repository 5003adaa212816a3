//! The clusters' sections: clusters that cannot be trusted (Unreachable, Credentials,
//! IdentityMismatch, UNKNOWN), and clusters whose data is fresh but that are not whole.
//! One item per cluster and section, keyed by the cluster alone: what is wrong with it
//! is its extent, so an acknowledgement holds while the counts move within it and
//! re-opens when it gets worse (a new status is another problem; more nodes not ready, a
//! budget further below its minimum, Degraded data, a new budget below it are worse).

use super::{
    BudgetShort, Check, ClusterHealth, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Says,
    Section, Subject,
};
use crate::i18n::Msg;
use crate::model::ledger::ClusterId;
use crate::model::live::ClusterStatus;

/// The fact of Degraded data.
pub(super) const DEGRADED: &str = "data Degraded";
/// The fact of nodes not ready (counted).
pub(super) const NODES_NOT_READY: &str = "nodes not ready";

/// The key of a cluster's "not whole" item.
pub(super) fn not_whole_key(cluster: &str) -> ProblemKey {
    ProblemKey(format!("cluster/{cluster}/not-whole"))
}

/// The key of a cluster's "cannot be trusted" item.
pub(super) fn untrusted_key(cluster: &str) -> ProblemKey {
    ProblemKey(format!("cluster/{cluster}/untrusted"))
}

/// Every cluster's health as the live fleet view reports it.
pub fn cluster_health(snapshot: &crate::model::live::FleetSnapshot) -> Vec<ClusterHealth> {
    snapshot
        .clusters
        .iter()
        .map(|c| ClusterHealth {
            id: ClusterId(c.id.clone()),
            status: c.status,
            error: c.last_error.clone(),
            nodes_ready: c.nodes_ready(),
            budgets_below_minimum: c
                .view
                .pdbs
                .iter()
                .filter(|pdb| pdb.current_healthy < pdb.desired_healthy)
                .map(|pdb| BudgetShort {
                    budget: format!("{}/{}", pdb.namespace, pdb.name),
                    healthy: pdb.current_healthy,
                    needs: pdb.desired_healthy,
                })
                .collect(),
            nodes: c
                .view
                .nodes
                .iter()
                .map(|n| (n.name.0.to_string(), n.schedulability))
                .collect(),
        })
        .collect()
}

/// Clusters Unreachable, Credentials, IdentityMismatch or UNKNOWN.
pub(super) fn untrusted(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    for c in input.fleet.read().unwrap_or(&[]) {
        if !matches!(
            c.status,
            ClusterStatus::Unreachable
                | ClusterStatus::Credentials
                | ClusterStatus::IdentityMismatch
                | ClusterStatus::Unknown
        ) {
            continue;
        }
        let label = c.status.label();
        let mut details = vec![format!("status: {label}")];
        let mut said = vec![Some(Msg::new("handover-status").arg("status", label))];
        if let Some(e) = &c.error {
            details.push(format!("last error: {e}"));
            said.push(Some(Msg::new("handover-last-error").arg("error", e)));
        }
        if c.status == ClusterStatus::IdentityMismatch {
            details.push("every action on it is refused until the ledger pin is checked".into());
            said.push(Some(Msg::new("handover-identity-refused")));
        }
        if c.status == ClusterStatus::Credentials {
            details.push(
                "nothing is read from it until its credential works: log in (:login in the console) or fix the kubeconfig user".into(),
            );
            said.push(Some(Msg::new("handover-credentials-fix")));
        }
        items.push(HandoverItem {
            key: untrusted_key(&c.id.0),
            section: Section::Clusters,
            title: format!("{} is {label}", c.id),
            details,
            says: Says {
                title: Some(
                    Msg::new("handover-cluster-is")
                        .arg("cluster", c.id.to_string())
                        .arg("status", label),
                ),
                details: said,
            },
            since: None,
            subject: cluster_subject(&c.id),
            extent: Extent(vec![Fact::kind(label, label)]),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}

fn cluster_subject(id: &ClusterId) -> Subject {
    Subject {
        cluster: Some(id.clone()),
        ..Subject::default()
    }
}

/// Clusters with fresh data that are not whole: Degraded data, nodes not ready,
/// disruption budgets below their minimum.
pub(super) fn not_whole(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = Vec::new();
    for c in input.fleet.read().unwrap_or(&[]) {
        let (facts, msgs): (Vec<Fact>, Vec<Msg>) = what_is_wrong(c).into_iter().unzip();
        let Some((first, more)) = facts.split_first() else {
            continue;
        };
        let (first_msg, more_msgs) = msgs.split_first().map_or((None, &[][..]), |(f, m)| {
            (
                Some(
                    Msg::new("handover-cluster-fact")
                        .arg("cluster", c.id.to_string())
                        .arg("fact", f.clone()),
                ),
                m,
            )
        });
        items.push(HandoverItem {
            key: not_whole_key(&c.id.0),
            section: Section::ClustersNotWhole,
            title: format!("{}: {}", c.id, first.says),
            details: more.iter().map(|f| f.says.clone()).collect(),
            says: Says {
                title: first_msg,
                details: more_msgs.iter().cloned().map(Some).collect(),
            },
            since: None,
            subject: cluster_subject(&c.id),
            extent: Extent(facts),
            check: Check::Current,
            acks: Vec::new(),
        });
    }
    items
}

/// What is wrong with a cluster whose data is fresh, one fact each with its message;
/// empty when it is whole.
fn what_is_wrong(c: &ClusterHealth) -> Vec<(Fact, Msg)> {
    if !c.status.data_usable() {
        return Vec::new();
    }
    let mut facts = Vec::new();
    if c.status == ClusterStatus::Degraded {
        let (says, msg) = match &c.error {
            Some(why) => (
                format!("data Degraded: {why}"),
                Msg::new("handover-degraded").arg("why", why),
            ),
            None => (
                "data Degraded: part of it could not be read".into(),
                Msg::new("handover-degraded-unread"),
            ),
        };
        facts.push((Fact::kind(DEGRADED, says), msg));
    }
    let (ready, total) = c.nodes_ready;
    if ready < total {
        let down = total - ready;
        facts.push((
            Fact::counted(
                NODES_NOT_READY,
                i64::try_from(down).unwrap_or(i64::MAX),
                format!("{down} of {total} nodes not ready"),
            ),
            Msg::new("handover-nodes-not-ready")
                .arg("down", down)
                .arg("total", total),
        ));
    }
    facts.extend(c.budgets_below_minimum.iter().map(budget_fact));
    facts
}

/// A budget below its minimum; the further below, the worse.
fn budget_fact(b: &BudgetShort) -> (Fact, Msg) {
    (
        Fact::counted(
            format!("PDB {} below its minimum", b.budget),
            i64::from(b.needs) - i64::from(b.healthy),
            format!(
                "PDB {} has {}, needs {} healthy: below its minimum",
                b.budget, b.healthy, b.needs
            ),
        ),
        Msg::new("handover-budget-below")
            .arg("budget", &b.budget)
            .arg("healthy", b.healthy)
            .arg("needs", b.needs),
    )
}
