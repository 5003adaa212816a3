//! fleetdeck: a keyboard-driven terminal console for operating tens to hundreds of
//! Kubernetes clusters. The library holds every layer; `main.rs` is only the CLI edge.

pub mod config;
pub mod engine;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod hooks;
pub mod i18n;
pub mod journal;
pub mod k8s;
pub mod model;
pub mod sim;
pub mod tui;
pub mod yaml;

#[cfg(test)]
mod file_size_tests;
#[cfg(test)]
mod layering_tests;
#[cfg(test)]
mod message_id_tests;
#[cfg(test)]
mod user_text_tests;
