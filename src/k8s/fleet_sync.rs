//! The whole fleet: one sync loop per ledger cluster, with bounded concurrency for first
//! lists, folded into one `FleetSnapshot` published on a watch channel.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use kube::config::Kubeconfig;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;

use super::cluster_sync::{ClusterUpdate, SyncOptions, run_cluster};
use crate::model::ledger::Ledger;
use crate::model::live::{ClusterSnapshot, FleetSnapshot};

/// Fleet-wide sync settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetSyncOptions {
    /// Per-cluster settings.
    pub cluster: SyncOptions,
    /// Clusters whose first lists may run at the same time.
    pub initial_list_concurrency: usize,
    /// Fleet snapshots are published at most this often.
    pub publish_every: Duration,
}

impl Default for FleetSyncOptions {
    fn default() -> Self {
        FleetSyncOptions {
            cluster: SyncOptions::default(),
            initial_list_concurrency: 32,
            publish_every: Duration::from_millis(100),
        }
    }
}

/// A running fleet sync. Dropping it stops every loop.
pub struct FleetSync {
    /// The latest snapshot; `changed()` wakes on every new one.
    pub snapshots: watch::Receiver<FleetSnapshot>,
    tasks: JoinSet<()>,
}

impl FleetSync {
    /// Starts one loop per ledger cluster. Must be called inside a tokio runtime.
    pub fn start(ledger: &Ledger, kubeconfig: Kubeconfig, options: FleetSyncOptions) -> FleetSync {
        let kubeconfig = Arc::new(kubeconfig);
        let permits = Arc::new(Semaphore::new(options.initial_list_concurrency.max(1)));
        let (updates_tx, updates_rx) = mpsc::channel::<ClusterUpdate>(1024);
        let initial: Vec<Arc<ClusterSnapshot>> = ledger
            .clusters
            .iter()
            .map(|c| connecting(&c.id.0))
            .collect();
        let (snapshot_tx, snapshots) = watch::channel(FleetSnapshot {
            version: 1,
            taken_at: Timestamp::now(),
            clusters: Arc::from(initial.clone()),
        });
        let mut tasks = JoinSet::new();
        for (index, cluster) in ledger.clusters.iter().enumerate() {
            tasks.spawn(run_cluster(
                index,
                cluster.clone(),
                Arc::clone(&kubeconfig),
                options.cluster,
                Arc::clone(&permits),
                updates_tx.clone(),
            ));
        }
        drop(updates_tx);
        tasks.spawn(fold_updates(
            initial,
            updates_rx,
            snapshot_tx,
            options.publish_every,
        ));
        FleetSync { snapshots, tasks }
    }

    /// Waits until no cluster is still connecting, or `timeout` passes; returns the
    /// latest snapshot either way.
    pub async fn wait_settled(&mut self, timeout: Duration) -> FleetSnapshot {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let current = self.snapshots.borrow_and_update().clone();
            if current.settled() {
                return current;
            }
            match tokio::time::timeout_at(deadline, self.snapshots.changed()).await {
                Ok(Ok(())) => continue,
                _ => return self.snapshots.borrow().clone(),
            }
        }
    }

    /// Stops every loop.
    pub fn stop(&mut self) {
        self.tasks.abort_all();
    }
}

fn connecting(id: &str) -> Arc<ClusterSnapshot> {
    Arc::new(ClusterSnapshot::connecting(id))
}

/// Folds per-cluster updates into fleet snapshots, coalescing bursts: an update after a
/// quiet spell is published at once, later ones in the same burst at most every
/// `publish_every`.
async fn fold_updates(
    mut clusters: Vec<Arc<ClusterSnapshot>>,
    mut updates: mpsc::Receiver<ClusterUpdate>,
    snapshots: watch::Sender<FleetSnapshot>,
    publish_every: Duration,
) {
    let mut version = 1;
    let mut dirty = false;
    let mut last_published = tokio::time::Instant::now();
    let mut ticker = tokio::time::interval(publish_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let publish = tokio::select! {
            update = updates.recv() => match update {
                Some((index, snapshot)) => {
                    if let Some(slot) = clusters.get_mut(index) {
                        *slot = snapshot;
                        dirty = true;
                    }
                    dirty && last_published.elapsed() >= publish_every
                }
                None => return,
            },
            _ = ticker.tick(), if dirty => true,
        };
        if publish {
            version += 1;
            dirty = false;
            last_published = tokio::time::Instant::now();
            let published = FleetSnapshot {
                version,
                taken_at: Timestamp::now(),
                clusters: Arc::from(clusters.clone()),
            };
            if snapshots.send(published).is_err() {
                return;
            }
        }
    }
}
