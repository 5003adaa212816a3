//! Before `rollout approve` journals an approval: every cluster of the batch to approve is
//! reached and its identity checked against the ledger's pin (as `maintenance start`
//! does); one that cannot take actions refuses the approval, naming it and its status.

use std::time::Duration;

use anyhow::Context;
use fleetdeck::journal::JournalStore;
use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::model::ledger::{Cluster, ClusterId};
use fleetdeck::model::live::{ClusterStatus, ObservedIdentity, may_change, verify_identity};
use fleetdeck::model::rollout::check_batch_can_act;
use fleetdeck::model::run::approval_target;
use k8s_openapi::api::core::v1::Namespace;
use kube::Api;
use kube::config::Kubeconfig;

use super::journal_cmd::{open, run_view};
use super::settings::Settings;

/// How long one cluster may take to answer before it counts as unreachable.
const REACH_TIMEOUT: Duration = Duration::from_secs(10);

/// Refuses approving `batch` (counted from 0; `None`: the one awaiting approval) of `run`
/// when any of its clusters cannot take actions now. A run or batch the journal does not
/// have is left to the command's own refusal.
pub fn check_clusters(settings: &Settings, run: &str, batch: Option<usize>) -> anyhow::Result<()> {
    let projection = open(settings)?.projection()?;
    let view = run_view(&projection, run)?;
    let Ok((index, _)) = approval_target(view, batch) else {
        return Ok(());
    };
    let clusters: Vec<ClusterId> = view
        .batches
        .get(index)
        .map(|b| b.iter().map(|c| ClusterId(c.0.clone())).collect())
        .unwrap_or_default();
    if clusters.is_empty() {
        return Ok(());
    }
    let ledger = fleetdeck::ledger_file::load(
        &settings
            .ledger_path()
            .context("the batch's clusters are checked before an approval")?,
    )?;
    let kubeconfig = fleetdeck::kubeconfig::load(&settings.kubeconfig)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let seen = runtime.block_on(async {
        let mut seen = Vec::new();
        for id in clusters {
            let status = match ledger.cluster(&id.0) {
                Some(cluster) => Some(status_of(cluster, &kubeconfig).await),
                None => None,
            };
            seen.push((id, status));
        }
        seen
    });
    runtime.shutdown_background();
    check_batch_can_act(index, &seen)?;
    Ok(())
}

/// `Synced` when the cluster answers and is the one the ledger pins; `IdentityMismatch`
/// when it answers as another (or is not pinned); `Unreachable` otherwise.
async fn status_of(cluster: &Cluster, kubeconfig: &Kubeconfig) -> ClusterStatus {
    let options = ConnectOptions {
        read_timeout: REACH_TIMEOUT,
        ..ConnectOptions::default()
    };
    let Ok(client) = connect(cluster, kubeconfig, &options).await else {
        return ClusterStatus::Unreachable;
    };
    let namespaces = Api::<Namespace>::all(client.client.clone());
    let read = namespaces.get("kube-system");
    let Ok(Ok(namespace)) = tokio::time::timeout(REACH_TIMEOUT, read).await else {
        return ClusterStatus::Unreachable;
    };
    let observed = ObservedIdentity {
        kube_system_uid: namespace.metadata.uid.unwrap_or_default(),
        server: client.server.clone(),
    };
    match may_change(Some(&verify_identity(cluster.identity.as_ref(), &observed))) {
        Ok(()) => ClusterStatus::Synced,
        Err(_) => ClusterStatus::IdentityMismatch,
    }
}
