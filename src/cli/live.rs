//! Starting the live fleet view for one-shot commands (`snapshot`, `capacity`,
//! `ledger reconcile`): sync every ledger cluster, wait until each has a verdict, return.

use std::time::Duration;

use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::kubeconfig;
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
    let ledger = super::ledger_findings::load(&settings.ledger_path()?)?;
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

/// "12s", "4m", "3h" since `then`, or "never".
pub fn age(then: Option<jiff::Timestamp>, now: jiff::Timestamp) -> String {
    let Some(then) = then else {
        return "never".to_string();
    };
    let secs = now.duration_since(then).as_secs().max(0);
    match secs {
        0..=119 => format!("{secs}s"),
        120..=7199 => format!("{}m", secs / 60),
        7200..=172_799 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}
