//! `fleetdeck run` follows ledger edits while it runs: the file is read again every few
//! seconds; a valid edit gets a fresh fleet view and port (a cluster re-pinned after a
//! rebuild is confirmed against its new pin, and what waited for it goes on, without a
//! restart); an invalid one is refused and the last good ledger kept. Both are journaled
//! by the executor and printed on its output.
//!
//! A shard's executor keeps the ownership it started with: a reloaded ledger gives it a
//! view and port of the clusters it owned at start, and an edit that would move clusters
//! between shards is said (it takes restarting the executors of the shards concerned), so
//! two executors never own one cluster because they read an edit at different times.

use std::path::PathBuf;
use std::time::Duration;

use fleetdeck::engine::executor::Reload;
use fleetdeck::engine::ledger_watch::{LedgerChange, LedgerWatch};
use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::model::shard::Ownership;
use tokio::sync::mpsc;

use super::settings::Settings;

/// How often the ledger file is read again.
const EVERY: Duration = Duration::from_secs(2);

/// Watches the ledger at `path` (the one `sync` was started from) and sends each edit to
/// the executor; returns the receiving end for `Executor::with_reloads`. The fleet view
/// in force (first `sync`, then each new one) lives in the watching task and is stopped
/// when it is replaced. Only the clusters `ownership` owns are watched and reached.
pub fn spawn(
    settings: Settings,
    path: PathBuf,
    mut sync: FleetSync,
    ownership: Ownership,
) -> mpsc::UnboundedReceiver<Reload<KubePort>> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut watch = LedgerWatch::new(&path);
        let mut ticker = tokio::time::interval(EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            let change = tokio::task::block_in_place(|| watch.poll());
            let reload = match change {
                LedgerChange::Unchanged => continue,
                LedgerChange::Refused(why) => Reload::Refused {
                    note: format!(
                        "ledger edit not used, the last good ledger stays in force: {why}" // i18n: not for people (journaled)
                    ),
                },
                LedgerChange::Changed(mut ledger) => {
                    // Clusters the edit gives to or takes from this shard.
                    let moved = ownership.shard_name().is_some_and(|shard| {
                        let now = Ownership::shard(shard.clone(), &ledger);
                        ledger
                            .clusters
                            .iter()
                            .any(|c| now.owns(&c.id) != ownership.owns(&c.id))
                    });
                    ledger.clusters.retain(|c| ownership.owns(&c.id));
                    let kubeconfig = match fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig) {
                        Ok(kubeconfig) => kubeconfig,
                        Err(error) => {
                            let note = format!(
                                "ledger {} changed but the kubeconfig cannot be read ({error}): the last good ledger stays in force", // i18n: not for people (journaled)
                                path.display()
                            );
                            if tx.send(Reload::Refused { note }).is_err() {
                                return;
                            }
                            continue;
                        }
                    };
                    let mut fresh = FleetSync::start(&ledger, kubeconfig.clone(), settings.sync);
                    // Changes wait for a verdict on each cluster, as at start.
                    fresh.wait_settled(Duration::from_secs(30)).await;
                    let port = super::engine_port::kube_port(
                        &settings,
                        &ledger,
                        &kubeconfig,
                        fresh.snapshots.clone(),
                    )
                    .await;
                    let fleet = fresh.snapshots.clone();
                    sync.stop();
                    sync = fresh;
                    let mut note = format!(
                        "ledger {} reloaded: {} cluster(s), pins and contexts as now written", // i18n: not for people (journaled)
                        path.display(),
                        ledger.clusters.len()
                    );
                    if moved {
                        note.push_str(
                            "; the edit changes which clusters this shard owns: this executor keeps acting for the clusters it owned at start until it is restarted (restart the executors of the shards concerned)", // i18n: not for people (journaled)
                        );
                    }
                    Reload::Taken { port, fleet, note }
                }
            };
            if tx.send(reload).is_err() {
                sync.stop();
                return;
            }
        }
    });
    rx
}
