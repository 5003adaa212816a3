//! The executor's port, built the same way by `fleetdeck run`, the console and the demo:
//! one client per ledger cluster from its own context, the live fleet view, and what
//! rollouts need (Prometheus, the kubeconfig and contexts given to exec actions).

use std::collections::HashMap;

use fleetdeck::hooks::prometheus::Prometheus;
use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::k8s::rollout_kube::RolloutSettings;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::live::FleetSnapshot;
use kube::config::Kubeconfig;
use tokio::sync::watch;

use super::settings::Settings;

/// The port for an executor acting as `settings.actor`.
pub async fn kube_port(
    settings: &Settings,
    ledger: &Ledger,
    kubeconfig: &Kubeconfig,
    snapshots: watch::Receiver<FleetSnapshot>,
) -> KubePort {
    let mut clients = HashMap::new();
    let mut contexts = HashMap::new();
    for cluster in &ledger.clusters {
        contexts.insert(cluster.id.to_string(), cluster.context.clone());
        match connect(cluster, kubeconfig, &ConnectOptions::default()).await {
            Ok(client) => {
                clients.insert(cluster.id.to_string(), client);
            }
            Err(error) => tracing::warn!(%error, "no client; runs on this cluster wait"),
        }
    }
    let paths: Vec<String> = settings
        .kubeconfig
        .paths
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let rollout = RolloutSettings {
        prometheus: settings.prometheus.as_deref().map(Prometheus::new),
        kubeconfig: (!paths.is_empty()).then(|| paths.join(":").into()),
        contexts,
        ..RolloutSettings::default()
    };
    KubePort::new(clients, snapshots, settings.actor.clone())
        .with_rollout_settings(rollout)
        .with_capacity(settings.capacity.clone())
}
