//! The executor's port, built the same way by `fleetdeck run`, the console and the demo:
//! one client per ledger cluster from its own context, the live fleet view, and what
//! rollouts need (Prometheus, the kubeconfig and contexts given to exec actions).

use std::collections::HashMap;

use fleetdeck::hooks::prometheus::Prometheus;
use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::k8s::job_clients::{JobClient, job_clients_of};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::k8s::rollout_kube::RolloutSettings;
use fleetdeck::model::ledger::{Job, Ledger};
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
    let mut job_clients = HashMap::new();
    let mut contexts = HashMap::new();
    for cluster in &ledger.clusters {
        // Exec actions of a release (helm, kubectl) act as the release job does.
        contexts.insert(
            cluster.id.to_string(),
            cluster.context_for(Job::Release).to_string(),
        );
        let read = match connect(cluster, kubeconfig, &ConnectOptions::default()).await {
            Ok(client) => client,
            Err(error) => {
                tracing::warn!(%error, "no client; runs on this cluster wait");
                continue;
            }
        };
        for (job, own) in job_clients_of(cluster, &read.server, kubeconfig).await {
            if let JobClient::Unusable { reason, .. } = &own {
                tracing::warn!(cluster = %cluster.id, job = job.name(), %reason, "job context unusable; that job waits");
            }
            job_clients.insert((cluster.id.to_string(), job), own);
        }
        clients.insert(cluster.id.to_string(), read);
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
        .with_job_clients(job_clients)
        .with_rollout_settings(rollout)
        .with_capacity(settings.capacity.clone())
}
