//! A simulated fleet of Kubernetes clusters served over loopback HTTP.
//!
//! One router serves every cluster at `http://127.0.0.1:PORT/clusters/{id}/…` with the
//! parts of the Kubernetes API the product uses, following the real API server's
//! semantics (resourceVersions, pagination, watch with bookmarks and 410, patches and
//! server-side apply, eviction with PodDisruptionBudgets). A control loop per cluster
//! schedules pods, recreates evicted ones, makes them Ready, reboots nodes and keeps
//! statuses current. Faults are set per cluster at run time.
//!
//! It shares no code with the product except the k8s-openapi types; tests reach it
//! through the real kube client (in-process with [`SimFleet::client`] or over TCP with
//! [`start_on_loopback`] and [`write_kubeconfig`]) and through kubectl.
//!
//! ```no_run
//! # async fn demo() -> Result<(), fleetdeck::sim::SimError> {
//! use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig};
//! let fleet = SimFleet::load("small", 1, 1.0)?;
//! let (addr, server) = start_on_loopback(fleet.clone(), 0).await?;
//! write_kubeconfig(&fleet, std::path::Path::new("/tmp/sim.kubeconfig"), addr)?;
//! fleet.update_faults("small-02", |f| f.latency_ms = 200)?;
//! server.shutdown().await;
//! # Ok(()) }
//! ```

mod apf;
mod apiserver_metrics;
mod auth;
mod base64;
mod cli;
mod clock;
mod control;
mod controllers;
mod crd;
mod declared;
mod defaults;
mod delete;
mod discovery;
mod disruption;
mod error;
mod events;
mod eviction;
mod faults;
mod fields;
mod fleet;
mod generate;
mod health;
mod http;
mod jobs;
mod kubelet;
mod ledger;
mod lifecycle;
mod list;
mod metrics;
mod objects;
mod openapi;
mod patch;
mod plugin;
mod prometheus;
mod proto;
mod rbac;
mod registry;
mod resource;
mod reviews;
mod router;
mod scale;
mod scenario;
mod scheduler;
mod selector;
mod selector_parse;
mod server;
mod services;
mod serving_cert;
mod stateful;
mod stateful_sets;
mod store;
mod system;
mod table;
mod tls;
mod tokens;
mod validation;
mod volumes;
mod watch;
mod workloads;
mod write;
mod yaml;

pub use auth::{ADMIN_TOKEN, Access, SimUser};
pub use cli::{AuthMode, SimArgs, serve_from_cli};
pub use clock::SimClock;
pub use error::{ApiError, SimError};
pub use faults::{Degradation, Faults, PodSelector, Unreachable, ZoneOutage};
pub use fleet::{LoggedRequest, SimFleet};
pub use generate::ClusterProfile;
pub use ledger::{
    ExecAuth, KubeconfigAuth, kubeconfig, kubeconfig_for, kubeconfig_with, ledger,
    write_kubeconfig, write_kubeconfig_for, write_kubeconfig_with, write_ledger,
};
pub use plugin::{Behaviour, PluginArgs, PluginRun, most_at_once, runs_in};
pub use prometheus::ScrapingPrometheus;

/// Runs `fleetdeck __sim-plugin` (the simulator's exec credential plugin); the exit code.
pub fn run_plugin(args: &PluginArgs) -> i32 {
    plugin::run(args)
}
pub use resource::{Kind, Registry, ResourceType};
pub use router::RefuseConnection;
pub use scenario::{LedgerDrift, Scenario, Settings, StatefulSets};
pub use server::{SimServer, cluster_url, start_on_loopback};
pub use tokens::{TokenCounts, TokenIssuer};
