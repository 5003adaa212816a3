//! fleetdeck: a keyboard-driven terminal console for operating tens to hundreds of
//! Kubernetes clusters. The library holds every layer; `main.rs` is only the CLI edge.

pub mod config;
pub mod config_capacity;
pub mod config_findings;
pub mod config_sync;
pub mod engine;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod journal;
pub mod k8s;
pub mod kubeconfig;
pub mod ledger_file;
pub mod model;
pub mod sim;
pub mod tui;
pub mod yaml;
