//! What the fleet and the journal must show after a run that went through a failure:
//! nodes with pods to drain, each node acted on once, each release applied once, and the
//! journal's events and runs as read by the database's superuser.

use std::collections::HashMap;

use super::backend::TestJournal;
use super::rollout::Workspace;
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::run::{Event, EventBody, RunId, RunStatus};

/// A node of `cluster` hosting pods other than DaemonSets' (so its drain evicts some),
/// none of them one the scenario's always-refusing PDB covers (`checkout`).
pub async fn busy_node(ws: &Workspace, cluster: &str) -> String {
    busy_nodes(ws, cluster, 1).await.remove(0)
}

/// The first `n` such nodes of `cluster`, sorted by name.
pub async fn busy_nodes(ws: &Workspace, cluster: &str, n: usize) -> Vec<String> {
    use k8s_openapi::api::core::v1::Pod;
    let client = ws.fleet.client(cluster).expect("client");
    let pods = kube::Api::<Pod>::all(client)
        .list(&Default::default())
        .await
        .expect("pods");
    let node_of = |p: &Pod| p.spec.as_ref()?.node_name.clone();
    let blocked: Vec<String> = pods
        .items
        .iter()
        .filter(|p| {
            p.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with("checkout"))
        })
        .filter_map(node_of)
        .collect();
    let mut nodes: Vec<String> = pods
        .items
        .iter()
        .filter(|p| {
            !p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.kind == "DaemonSet")
        })
        .filter_map(node_of)
        .filter(|n| !blocked.contains(n))
        .collect();
    nodes.sort();
    nodes.dedup();
    assert!(
        nodes.len() >= n,
        "{cluster}: {n} nodes with pods, have {nodes:?}"
    );
    nodes.truncate(n);
    nodes
}

pub fn events(journal: &TestJournal) -> Vec<Event> {
    super::executor::journal(journal)
        .query(&EventQuery::default())
        .unwrap_or_default()
}

pub fn run_status(journal: &TestJournal, run: &RunId) -> Option<RunStatus> {
    super::executor::journal(journal)
        .projection()
        .ok()
        .and_then(|p| p.runs.get(run).map(|r| r.status.clone()))
}

/// One cordon and one uncordon of `node`, and no pod evicted twice, in the cluster's log
/// from `from` on.
pub fn node_acted_on_once(ws: &Workspace, cluster: &str, node: &str, from: usize) {
    let log = &ws.fleet.request_log(cluster).expect("log")[from..];
    let patches = log
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/api/v1/nodes/{node}"))
        .count();
    assert_eq!(
        patches, 2,
        "{cluster}/{node}: cordon and uncordon once each"
    );
    let mut accepted: HashMap<&str, usize> = HashMap::new();
    for r in log
        .iter()
        .filter(|r| r.path.ends_with("/eviction") && r.status < 300)
    {
        *accepted.entry(r.path.as_str()).or_default() += 1;
    }
    assert!(!accepted.is_empty(), "{cluster}: pods were evicted");
    assert!(
        accepted.values().all(|n| *n == 1),
        "{cluster}: a pod evicted twice: {accepted:?}"
    );
}

/// Every cluster's release record written once, and applied once by the journal.
pub fn each_release_applied_once(ws: &Workspace, clusters: &[&str]) {
    let all = events(&ws.journal);
    for cluster in clusters {
        let applied = all
            .iter()
            .filter(|e| {
                matches!(e.event.body, EventBody::ItemApplied { .. })
                    && e.event
                        .cluster
                        .as_ref()
                        .is_some_and(|c| c.as_str() == *cluster)
            })
            .count();
        assert_eq!(applied, 1, "journal: {cluster} applied once");
        assert_eq!(
            ws.patches(cluster, "/configmaps/fleetdeck-release"),
            1,
            "simulator: {cluster}'s release record written once"
        );
    }
}
