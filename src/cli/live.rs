//! Starting the live fleet view for one-shot commands (`snapshot`, `capacity`,
//! `ledger reconcile`): sync every ledger cluster, wait until each has a verdict, return.

use std::time::Duration;

use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::k8s::kubeconfig;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::live::FleetSnapshot;

use super::settings::Settings;

/// Parses `30s`, `2m` for `--wait-synced`.
pub fn parse_wait(text: &str) -> Result<Duration, String> {
    fleetdeck::model::duration::parse_duration(text).map_err(|e| e.to_string())
}

/// Loads the ledger and kubeconfig, syncs the fleet, and returns the snapshot once every
/// cluster has settled (or `wait` passed: clusters still connecting then show as such).
pub fn observe(settings: &Settings, wait: Duration) -> anyhow::Result<(Ledger, FleetSnapshot)> {
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let kubeconfig = kubeconfig::load(&settings.kubeconfig)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let snapshot = runtime.block_on(async {
        let mut sync = FleetSync::start(&ledger, kubeconfig, settings.sync);
        let snapshot = sync.wait_settled(wait).await;
        sync.stop();
        snapshot
    });
    // Watches are long-polls; do not wait for them to notice the shutdown.
    runtime.shutdown_background();
    Ok((ledger, snapshot))
}

/// How long ago `then` was (see [`fleetdeck::model::duration::age`]), or "never".
pub fn age(then: Option<jiff::Timestamp>, now: jiff::Timestamp) -> String {
    then.map_or_else(
        || "never".to_string(),
        |then| fleetdeck::model::duration::age(now, then),
    )
}
