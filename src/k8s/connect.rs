//! One kube client per ledger cluster, built from the ledger's kubeconfig context — never
//! from whatever the current context happens to be.

use std::time::Duration;

use http::HeaderValue;
use http::header::USER_AGENT;
use kube::client::ClientBuilder;
use kube::config::{KubeConfigOptions, Kubeconfig};

use super::budget::{Budget, BudgetLayer, RequestCounter};
use crate::model::ledger::Cluster;

/// The user agent every request carries, so API Priority and Fairness and audit logs can
/// tell fleetdeck's traffic apart.
pub const FLEETDECK_USER_AGENT: &str = concat!("fleetdeck/", env!("CARGO_PKG_VERSION"));

/// Connection settings shared by every cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConnectOptions {
    /// TCP/TLS connect timeout: a dead cluster is noticed quickly.
    pub connect_timeout: Duration,
    /// Read timeout; longer than the watch timeout, or watches would be cut.
    pub read_timeout: Duration,
    /// Request budget per cluster.
    pub budget: Budget,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            connect_timeout: Duration::from_secs(5),
            read_timeout: Duration::from_secs(330),
            budget: Budget::default(),
        }
    }
}

/// Why a client could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The context is missing or unusable.
    #[error("cluster {cluster}: kubeconfig context {context:?}: {source}")]
    Kubeconfig {
        /// Ledger id.
        cluster: String,
        /// The context.
        context: String,
        /// What kube said.
        #[source]
        source: kube::config::KubeconfigError,
    },
    /// The client stack could not be assembled (e.g. TLS material).
    #[error("cluster {cluster}: {source}")]
    Client {
        /// Ledger id.
        cluster: String,
        /// What kube said.
        #[source]
        source: kube::Error,
    },
}

/// A client for one cluster and the counter of the requests it sends.
#[derive(Clone)]
pub struct ClusterClient {
    /// The kube client: no built-in retry, our user agent, our request budget.
    pub client: kube::Client,
    /// Requests sent through `client`.
    pub requests: RequestCounter,
    /// The API server URL the context points at.
    pub server: String,
}

/// Builds the client for `cluster` from its own context in `kubeconfig`.
pub async fn connect(
    cluster: &Cluster,
    kubeconfig: &Kubeconfig,
    options: &ConnectOptions,
) -> Result<ClusterClient, ConnectError> {
    let kube_options = KubeConfigOptions {
        context: Some(cluster.context.clone()),
        ..KubeConfigOptions::default()
    };
    let mut config = kube::Config::from_custom_kubeconfig(kubeconfig.clone(), &kube_options)
        .await
        .map_err(|source| ConnectError::Kubeconfig {
            cluster: cluster.id.0.clone(),
            context: cluster.context.clone(),
            source,
        })?;
    config.connect_timeout = Some(options.connect_timeout);
    config.read_timeout = Some(options.read_timeout);
    // kube's default retry re-sends 429s for minutes; we retry reads ourselves.
    config.default_retry = false;
    config
        .headers
        .push((USER_AGENT, HeaderValue::from_static(FLEETDECK_USER_AGENT)));
    let server = config.cluster_url.to_string();
    let requests = RequestCounter::default();
    let client = ClientBuilder::try_from(config)
        .map_err(|source| ConnectError::Client {
            cluster: cluster.id.0.clone(),
            source,
        })?
        .with_layer(&BudgetLayer::new(options.budget, requests.clone()))
        .build();
    Ok(ClusterClient {
        client,
        requests,
        server,
    })
}
