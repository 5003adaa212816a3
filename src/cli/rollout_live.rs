//! What a rollout's targets actually run, for `rollout plan` and `start`: canaries are
//! picked by the versions seen on the clusters where those differ from the ledger's. The
//! targets are read through the same fleet view as `snapshot` (pinned contexts, identity
//! checked); one that cannot be read in time, or is not the cluster the ledger pins, is
//! planned by the ledger's versions and named as such.

use std::collections::BTreeMap;
use std::time::Duration;

use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::model::ledger::{ClusterId, Ledger};
use fleetdeck::model::live::ClusterSnapshot;
use fleetdeck::model::rollout::LiveVersions;

use super::settings::Settings;

/// How long `rollout plan` and `start` wait for the targets' versions.
const WAIT: Duration = Duration::from_secs(15);

/// The versions each of `targets` was seen running, or why none could be read at all
/// (no kubeconfig): then the plan is the ledger's.
pub fn observe(
    settings: &Settings,
    ledger: &Ledger,
    targets: &[ClusterId],
) -> Result<BTreeMap<String, LiveVersions>, String> {
    let kubeconfig =
        fleetdeck::kubeconfig::load(&settings.kubeconfig).map_err(|e| e.to_string())?;
    let mut only = ledger.clone();
    only.clusters.retain(|c| targets.contains(&c.id));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let snapshot = runtime.block_on(async {
        let mut sync = FleetSync::start(&only, kubeconfig, settings.sync);
        let snapshot = sync.wait_settled(WAIT).await;
        sync.stop();
        snapshot
    });
    runtime.shutdown_background();
    Ok(snapshot
        .clusters
        .iter()
        .filter_map(|c| Some((c.id.to_string(), seen(c)?)))
        .collect())
}

/// What one cluster was seen running: only a cluster whose data is usable and whose
/// identity is not known to be another's.
fn seen(cluster: &ClusterSnapshot) -> Option<LiveVersions> {
    let trusted = cluster.status.data_usable()
        && !cluster
            .identity_verdict
            .as_ref()
            .is_some_and(|v| v.is_mismatch());
    if !trusted {
        return None;
    }
    let most = |counts: &[fleetdeck::model::live::VersionCount]| {
        counts
            .iter()
            .max_by_key(|v| v.nodes)
            .map(|v| v.version.to_string())
    };
    Some(LiveVersions {
        kubernetes: cluster.server_version.clone(),
        runtime: most(&cluster.runtime_versions),
        kernel: most(&cluster.kernel_versions),
    })
}
