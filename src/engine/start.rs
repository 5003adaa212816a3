//! Starting a maintenance run: resolve the nodes on the cluster, plan batches under the
//! budgets, and journal the plan. Nothing is done to the cluster here; the executor acts.

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Node;
use kube::Api;
use kube::api::ListParams;

use crate::journal::{JournalError, JournalStore};
use crate::model::maintenance::{MaintenanceSpec, NodeFacts, Plan, plan_on};
use crate::model::run::{Actor, EventBody, IdempotencyKey, ItemId, NewEvent, NodeName, RunId};

/// Why a run could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The cluster's nodes could not be listed.
    #[error("listing nodes of {cluster}: {source}")]
    Nodes {
        /// Ledger id.
        cluster: String,
        /// What kube said.
        #[source]
        source: kube::Error,
    },
    /// The plan may not start (unknown nodes, nothing selected, nothing fits).
    #[error(transparent)]
    Refused(#[from] crate::model::maintenance::PlanRefusal),
    /// The journal refused.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The spec could not be recorded.
    #[error("recording the maintenance spec: {0}")]
    Spec(#[from] serde_json::Error),
}

/// The cluster's nodes as the planner needs them: labels, and whether each is already
/// unavailable (NotReady or cordoned), which counts against every batch's budget.
pub async fn node_facts(
    client: &kube::Client,
    cluster: &str,
) -> Result<Vec<NodeFacts>, StartError> {
    let nodes: Api<Node> = Api::all(client.clone());
    let list = nodes
        .list(&ListParams::default())
        .await
        .map_err(|source| StartError::Nodes {
            cluster: cluster.to_string(),
            source,
        })?;
    Ok(list.items.iter().map(facts_of).collect())
}

/// What the planner needs of one node: name, labels, and whether it is already
/// unavailable (NotReady or cordoned), which counts against every batch's budget.
pub fn facts_of(node: &Node) -> NodeFacts {
    let ready = super::kube_port::node_is_ready(node);
    let cordoned = node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false);
    NodeFacts {
        name: NodeName(node.metadata.name.clone().unwrap_or_default()),
        labels: node
            .metadata
            .labels
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect::<BTreeMap<_, _>>(),
        unavailable: !ready || cordoned,
    }
}

/// Plans `spec` against the cluster's `inventory`.
pub fn plan(spec: &MaintenanceSpec, inventory: &[NodeFacts]) -> Result<Plan, StartError> {
    let planned = plan_on(&spec.nodes, &spec.budgets, inventory);
    planned.check(&spec.nodes)?;
    Ok(planned.plan)
}

/// Journals a new run for `spec` with `plan`; returns its id. The executor picks it up.
pub fn record_run(
    store: &mut impl JournalStore,
    actor: &Actor,
    spec: &MaintenanceSpec,
    plan: &Plan,
    now: Timestamp,
) -> Result<RunId, StartError> {
    let run = RunId(format!("mnt-{}-{}", spec.name, now.as_second()));
    let batches: Vec<Vec<ItemId>> = plan
        .batches
        .iter()
        .map(|b| b.iter().map(|n| ItemId(n.as_str().to_string())).collect())
        .collect();
    let title = format!("maintenance {} on {}", spec.name, spec.cluster);
    let event = planned_event(
        actor,
        &run,
        title,
        batches,
        serde_json::to_value(spec)?,
        now,
    )
    .with_cluster(spec.cluster.clone());
    store.append(event, None)?;
    Ok(run)
}

/// The event that starts a run (maintenance or rollout): its items in batch order and the
/// spec the executor works from, under the run's one `planned` key.
pub fn planned_event(
    actor: &Actor,
    run: &RunId,
    title: String,
    batches: Vec<Vec<ItemId>>,
    spec: serde_json::Value,
    now: Timestamp,
) -> NewEvent {
    let items = batches.iter().flatten().cloned().collect();
    NewEvent::new(
        now,
        actor.clone(),
        IdempotencyKey(format!("{run}/planned")),
        EventBody::RunPlanned {
            title,
            items,
            batches,
            spec,
        },
    )
    .with_run(run.clone())
}
