//! What the fleet and the journal must show after a run that went through a failure:
//! nodes with pods to drain, each node acted on once, each release applied once, and the
//! journal's events and runs as read by the database's superuser.

use std::collections::HashMap;

use super::backend::TestJournal;
use super::rollout::Workspace;
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::run::{Event, EventBody, RunId, RunStatus};
use fleetdeck::sim::SimFleet;

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

/// One cordon and one uncordon of `node`, no pod evicted twice (some evicted), and every
/// write identifying as fleetdeck, in `cluster`'s request log from `from` on.
pub fn node_acted_on_once(ws: &Workspace, cluster: &str, node: &str, from: usize) {
    fleet_acted_on_node_once(&ws.fleet, cluster, node, from);
}

/// [`node_acted_on_once`] on a simulated fleet of one's own.
pub fn fleet_acted_on_node_once(fleet: &SimFleet, cluster: &str, node: &str, from: usize) {
    let log = &fleet.request_log(cluster).expect("log")[from..];
    let patches = log
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/api/v1/nodes/{node}"))
        .count();
    assert_eq!(
        patches, 2,
        "{cluster}/{node}: cordon and uncordon once each: {log:#?}"
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
    assert!(
        log.iter().all(|r| r
            .user_agent
            .as_deref()
            .is_some_and(|ua| ua.starts_with("fleetdeck/"))),
        "{cluster}: every request identifies as fleetdeck"
    );
}

/// A maintenance of `nodes` of `cluster`, one at a time, running `argv` (a YAML flow
/// sequence) as its hook, with the deadlines and drain options the failover tests share.
pub fn maintenance_yaml(
    name: &str,
    cluster: &str,
    nodes: &[String],
    argv: &str,
    idempotent: bool,
) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: {name}\ncluster: {cluster}\nnodes:\n  names: [{}]\naction:\n  exec:\n    argv: {argv}\n    timeout: 30s\n    idempotent: {idempotent}\nbudgets:\n  maxUnavailable: 1\n  failureDomainLabel: topology.kubernetes.io/zone\ndeadlines:\n  drain: 60s\n  verifyNode: 60s\n  verifyWorkloads: 60s\ndrain:\n  gracePeriod: 1s\n  evictionRetry: 1s\n",
        nodes.join(", ")
    )
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

/// Journals, as `actor` at `at`, the maintenance `yaml` describes, planned against its
/// cluster's nodes as they are now: what `maintenance start` does.
pub async fn record_maintenance(
    ws: &Workspace,
    actor: &str,
    yaml: &str,
    at: jiff::Timestamp,
) -> RunId {
    use fleetdeck::engine::start::{node_facts, plan, record_run};
    let spec = fleetdeck::model::maintenance::read_maintenance(yaml)
        .spec
        .expect("valid maintenance");
    let cluster = spec.cluster.to_string();
    let client = ws.fleet.client(&cluster).expect("client");
    let inventory = node_facts(&client, &cluster).await.expect("nodes");
    let plan = plan(&spec, &inventory).expect("plan");
    record_run(
        &mut ws.journal.open_as(actor),
        &fleetdeck::model::run::Actor(actor.into()),
        &spec,
        &plan,
        at,
    )
    .expect("recorded")
}
