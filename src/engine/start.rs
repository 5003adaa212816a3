//! Starting a maintenance run: resolve the nodes on the cluster, plan batches under the
//! budgets, and journal the plan. Nothing is done to the cluster here; the executor acts.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Node;
use kube::Api;
use kube::api::ListParams;

use crate::journal::{JournalError, JournalStore};
use crate::model::maintenance::{MaintenanceSpec, NodeFacts, Plan, plan_on};
use crate::model::run::{Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, Sequence};

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
    Ok(list.items.iter().map(crate::k8s::nodes::facts_of).collect())
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
    let batches: Vec<Vec<ItemId>> = plan
        .batches
        .iter()
        .map(|b| b.iter().map(|n| ItemId(n.as_str().to_string())).collect())
        .collect();
    let planned = Planned {
        base: format!("mnt-{}-{}", spec.name, now.as_second()),
        title: format!("maintenance {} on {}", spec.name, spec.cluster),
        batches,
        spec: serde_json::to_value(spec)?,
        cluster: Some(spec.cluster.clone()),
        decided_on: DecidedOn::Anything,
    };
    Ok(append_planned(store, actor, planned, now)?)
}

/// A run about to be journaled: the id it would like, and what its planned event says.
pub(crate) struct Planned {
    /// The id, unless another run already has it.
    pub base: String,
    /// Its title.
    pub title: String,
    /// Its items, in batches.
    pub batches: Vec<Vec<ItemId>>,
    /// The spec the executor works from.
    pub spec: serde_json::Value,
    /// The cluster it works on (maintenance).
    pub cluster: Option<crate::model::ledger::ClusterId>,
    /// The journal state the start was decided on.
    pub decided_on: DecidedOn,
}

/// What the decision to start a run read from the journal.
pub(crate) enum DecidedOn {
    /// Nothing: the run is journaled whatever was written before it.
    Anything,
    /// The journal up to this last event (`None`: it was empty). The run is journaled only
    /// if nothing was written since ([`JournalError::MovedOn`] otherwise), so two starts
    /// checked against the same journal cannot both go in.
    LastEvent(Option<Sequence>),
}

/// How many ids `append_planned` tries before giving up.
const RUN_ID_TRIES: u32 = 100;

/// Journals a run's planned event under `planned.base` as its id, or `base-2`, `base-3`, …
/// when another run already has it (two runs of one name started within a second): a
/// new run is never taken for an older one. The same start journaled again (a retry by
/// the same person with the same spec) keeps the id it got.
pub(crate) fn append_planned(
    store: &mut impl JournalStore,
    actor: &Actor,
    planned: Planned,
    now: Timestamp,
) -> Result<RunId, JournalError> {
    for n in 1..=RUN_ID_TRIES {
        let run = RunId(match n {
            1 => planned.base.clone(),
            n => format!("{}-{n}", planned.base),
        });
        let mut event = planned_event(
            actor,
            &run,
            planned.title.clone(),
            planned.batches.clone(),
            planned.spec.clone(),
            now,
        );
        if let Some(cluster) = &planned.cluster {
            event = event.with_cluster(cluster.clone());
        }
        let appended = match planned.decided_on {
            DecidedOn::Anything => store.append(event, None),
            DecidedOn::LastEvent(last) => store.append_if_last(event, last),
        };
        let appended = match appended {
            // Another run has the id (one plan per run): this run takes the next one.
            Err(JournalError::AlreadyPlanned { .. } | JournalError::KeyTaken { .. }) => continue,
            other => other?,
        };
        let stored = &appended.event.event;
        let same_start = matches!(&stored.body, EventBody::RunPlanned { spec, .. } if *spec == planned.spec)
            && stored.cluster == planned.cluster
            && stored.actor == *actor;
        if !appended.duplicate || same_start {
            return Ok(run);
        }
    }
    Err(JournalError::Invalid(format!(
        "runs {}-2 to -{RUN_ID_TRIES} all exist already",
        planned.base
    )))
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
        IdempotencyKey::for_run(run, "planned"),
        EventBody::RunPlanned {
            title,
            items,
            batches,
            spec,
        },
    )
    .with_run(run.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::SqliteJournal;
    use crate::model::maintenance::read_maintenance;

    fn spec(cluster: &str) -> MaintenanceSpec {
        let yaml = format!(
            "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [n1]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\n    idempotent: false\nbudgets:\n  maxUnavailable: 1\n"
        );
        let report = read_maintenance(&yaml);
        report
            .spec
            .unwrap_or_else(|| panic!("{:?}", report.diagnostics))
    }

    #[test]
    fn runs_started_in_one_second_get_their_own_ids_and_a_retry_keeps_its_own() {
        let mut store = SqliteJournal::in_memory().unwrap();
        let alice = Actor("alice@ops".into());
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let plan = Plan {
            batches: vec![vec![crate::model::run::NodeName::from("n1")]],
            unplanned: vec![],
            prechecks: vec![],
            warnings: vec![],
            unplanned_said: vec![],
            warnings_said: vec![],
        };
        let first = record_run(&mut store, &alice, &spec("c1"), &plan, now).unwrap();
        let second = record_run(&mut store, &alice, &spec("c2"), &plan, now).unwrap();
        assert_ne!(first, second, "another cluster's run is its own");
        assert_eq!(second.0, format!("{}-2", first.0));
        let retried = record_run(&mut store, &alice, &spec("c1"), &plan, now).unwrap();
        assert_eq!(retried, first, "the same start again is the same run");
        let projection = store.projection().unwrap();
        assert_eq!(projection.runs.len(), 2);
        assert_eq!(
            projection.runs[&second]
                .cluster
                .as_ref()
                .map(|c| c.as_str()),
            Some("c2")
        );
    }
}
