//! Before `rollout approve` journals an approval: every cluster of the batch to approve is
//! reached, all at once, and its identity checked against the ledger's pin (as `maintenance
//! start` does); one that cannot take actions refuses the approval, naming it and why,
//! and the refusal is journaled as `operator.refused`, one event per such cluster.

use anyhow::Context;
use fleetdeck::engine::operator::record_refusals;
use fleetdeck::journal::JournalStore;
use fleetdeck::k8s::connect::ConnectOptions;
use fleetdeck::k8s::verified::verified_client;
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::rollout::check_batch_can_act;
use fleetdeck::model::run::{Actor, ClusterRefusal, check_approve};
use jiff::Timestamp;

use fleetdeck::t;

use super::journal_cmd::{open, run_view};
use super::settings::Settings;

/// Refuses approving `batch` (counted from 0; `None`: the one awaiting approval) of `run`
/// when any of its clusters cannot take actions now, and journals the refusal with the
/// settings' actor. A run or batch the journal does not have, or an approval the rules
/// refuse anyway, is left to the command's own refusal.
pub fn check_clusters(settings: &Settings, run: &str, batch: Option<usize>) -> anyhow::Result<()> {
    let mut store = open(settings)?;
    let projection = store.projection()?;
    let view = run_view(&projection, run)?;
    let actor = Actor(settings.actor.clone());
    let Ok(index) = check_approve(view, &actor, batch) else {
        return Ok(());
    };
    let clusters: Vec<ClusterId> = view
        .batches
        .get(index)
        .map(|b| b.iter().map(|c| ClusterId::from(c.0.clone())).collect())
        .unwrap_or_default();
    if clusters.is_empty() {
        return Ok(());
    }
    let ledger = fleetdeck::config::ledger_file::load(
        &settings
            .ledger_path()
            .context(t!(settings.lang, "approve-needs-ledger"))?,
    )?;
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig)?;
    let runtime = super::runtime()?;
    // Every cluster is reached at once, each within the reach timeout: the check takes as
    // long as the slowest cluster, not the sum of them.
    let options = ConnectOptions::default();
    let lang = settings.lang;
    let seen = runtime.block_on(futures::future::join_all(clusters.into_iter().map(
        |id| {
            let (ledger, kubeconfig, options) = (&ledger, &kubeconfig, &options);
            async move {
                let reason = match ledger.cluster(&id.0) {
                    None => Some(t!(lang, "approve-not-in-ledger")),
                    Some(cluster) => match verified_client(cluster, kubeconfig, options).await {
                        Ok(_) => None,
                        Err(why) => {
                            tracing::warn!(cluster = %id, reason = %why.detailed(), "cannot take actions");
                            Some(why.to_string())
                        }
                    },
                };
                (id, reason)
            }
        },
    )));
    runtime.shutdown_background();
    if let Err(refusal) = check_batch_can_act(index, &seen) {
        record_refusals(
            &mut store,
            &ClusterRefusal::of_approval(&view.id, &refusal),
            &actor,
            super::journal_cmd::mode(settings),
            Timestamp::now(),
        );
        return Err(refusal.into());
    }
    Ok(())
}
