//! Reading the facts the findings judge (`model::findings`), per cluster, beside its
//! watches and through the same budgeted client: certificates and credentials, admission
//! webhooks and aggregated APIs, the priority levels our requests land in, the health
//! endpoints, GitOps objects; and, from the client itself, how our own requests fare.

pub mod credentials;
pub mod gitops;
pub mod health;
pub mod observe;
pub mod privilege;
pub mod reader;
pub mod tls_probe;
pub mod x509;

use std::sync::Arc;

use tokio::sync::mpsc;

pub use observe::{ObserveLayer, RequestLog};
pub use reader::{FactsOptions, FactsReader};

use crate::model::findings::ClusterFacts;

/// Reads `reader`'s facts now and then every `interval`, sending each round until the
/// receiver is gone.
pub async fn run_facts(
    mut reader: FactsReader,
    interval: std::time::Duration,
    tx: mpsc::Sender<Arc<ClusterFacts>>,
) {
    loop {
        let facts = reader.read().await;
        if tx.send(Arc::new(facts)).await.is_err() {
            return;
        }
        tokio::time::sleep(interval).await;
    }
}
