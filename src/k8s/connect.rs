//! One kube client per ledger cluster, built from the ledger's kubeconfig context — never
//! from whatever the current context happens to be.

use std::sync::Arc;
use std::time::Duration;

use http::HeaderValue;
use http::header::USER_AGENT;
use hyper_timeout::TimeoutConnector;
use hyper_util::rt::TokioExecutor;
use kube::client::{ClientBuilder, ConfigExt};
use kube::config::{KubeConfigOptions, Kubeconfig};
use tower::{BoxError, ServiceBuilder};

use super::budget::{Budget, BudgetLayer, RequestCounter};
use super::credentials::{self, CredentialCell, CredentialLayer, CredentialSource};
use super::findings::{ObserveLayer, RequestLog};
use super::tls;
use crate::model::ledger::{Cluster, Job};

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
    /// The kubeconfig has no context of the name the ledger gives.
    #[error(
        "cluster {cluster}: the kubeconfig has no context {context:?} (the ledger's `context`; `fleetdeck ledger contexts` compares the two)"
    )]
    MissingContext {
        /// Ledger id.
        cluster: String,
        /// The context the ledger names.
        context: String,
    },
    /// The context is unusable.
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
    /// What those requests met: latency, status, priority level (read by the findings).
    pub log: RequestLog,
    /// The API server URL the context points at.
    pub server: String,
    /// The credential every request of `client` carries (shared with every client whose
    /// kubeconfig user reads the same way).
    pub credential: Arc<CredentialCell>,
    /// The kubeconfig user's name.
    pub user: String,
}

/// Builds the client for `cluster` from its own context in `kubeconfig` (the one every
/// read uses).
pub async fn connect(
    cluster: &Cluster,
    kubeconfig: &Kubeconfig,
    options: &ConnectOptions,
) -> Result<ClusterClient, ConnectError> {
    connect_for(cluster, Job::Read, kubeconfig, options).await
}

/// Builds the client `job` acts through on `cluster`: the job's own context when the
/// ledger names one (`jobContexts`), else the cluster's.
pub async fn connect_for(
    cluster: &Cluster,
    job: Job,
    kubeconfig: &Kubeconfig,
    options: &ConnectOptions,
) -> Result<ClusterClient, ConnectError> {
    let context = cluster.context_for(job).to_string();
    // kube would say it "failed to load current context", which reads as if the
    // current context were used: it never is.
    if !kubeconfig.contexts.iter().any(|c| c.name == context) {
        return Err(ConnectError::MissingContext {
            cluster: cluster.id.to_string(),
            context,
        });
    }
    let kube_options = KubeConfigOptions {
        context: Some(context.clone()),
        ..KubeConfigOptions::default()
    };
    let (user, credential) = credentials::store()
        .for_context(kubeconfig, &context)
        .ok_or_else(|| ConnectError::MissingContext {
            cluster: cluster.id.to_string(),
            context: context.clone(),
        })?;
    let mut config =
        kube::Config::from_custom_kubeconfig(only_context(kubeconfig, &context), &kube_options)
            .await
            .map_err(|source| ConnectError::Kubeconfig {
                cluster: cluster.id.to_string(),
                context: context.clone(),
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
    let log = RequestLog::default();
    let client = build_client(
        config,
        &credential,
        &BudgetLayer::new(options.budget, requests.clone()),
        &ObserveLayer::new(log.clone()),
    )
    .map_err(|source| ConnectError::Client {
        cluster: cluster.id.to_string(),
        source,
    })?;
    Ok(ClusterClient {
        client,
        requests,
        log,
        server,
        credential,
        user,
    })
}

/// The parts of `kubeconfig` that `context` uses: kube clones the whole file for every
/// client it configures, which for a fleet kubeconfig is quadratic in the number of
/// clusters. A context that is missing stays missing, so kube reports it as before. The
/// user is given without its credentials: the credential layer adds them.
fn only_context(kubeconfig: &Kubeconfig, context: &str) -> Kubeconfig {
    let named = kubeconfig.contexts.iter().find(|c| c.name == context);
    let (cluster, user) = named
        .and_then(|c| c.context.as_ref())
        .map_or((None, None), |c| {
            (Some(c.cluster.as_str()), c.user.as_deref())
        });
    Kubeconfig {
        contexts: named.cloned().into_iter().collect(),
        clusters: kubeconfig
            .clusters
            .iter()
            .filter(|c| Some(c.name.as_str()) == cluster)
            .cloned()
            .collect(),
        auth_infos: kubeconfig
            .auth_infos
            .iter()
            .filter(|a| Some(a.name.as_str()) == user)
            .map(|a| kube::config::NamedAuthInfo {
                name: a.name.clone(),
                auth_info: a
                    .auth_info
                    .as_ref()
                    .map(credentials::source::without_credentials),
                other: a.other.clone(),
            })
            .collect(),
        preferences: kubeconfig.preferences.clone(),
        current_context: kubeconfig.current_context.clone(),
        extensions: kubeconfig.extensions.clone(),
        kind: kubeconfig.kind.clone(),
        api_version: kubeconfig.api_version.clone(),
        other: kubeconfig.other.clone(),
    }
}

/// The most a connection's read buffer may grow to. A connection keeps the buffer it
/// grew to for as long as it lives, and after the initial lists every cluster keeps
/// three connections open for its watches: with hyper's default (about 400 KiB) a
/// fleet of 300 clusters held some 300 MiB of buffers for watch events of a few KiB.
/// List pages still stream through in reads of this size.
const READ_BUFFER_LIMIT: usize = 64 << 10;

/// kube's client stack (base URL, extra headers, timeouts) over an HTTPS connector
/// (shared by every cluster with the same TLS settings, see [`tls`]), with the credential
/// layer where kube's auth would be, our request budget outermost and the request log
/// inside it (so a request's latency is the server's, not the time it waited for the
/// budget or its credential). An exec plugin's certificate is presented by the connector
/// of its cell. A proxy is refused: this build has no proxy connector.
fn build_client(
    config: kube::Config,
    credential: &Arc<CredentialCell>,
    budget: &BudgetLayer,
    observe: &ObserveLayer,
) -> Result<kube::Client, kube::Error> {
    if let Some(proxy) = &config.proxy_url {
        return Err(kube::Error::Service(
            format!(
                "proxy-url {proxy} is not supported: fleetdeck connects to API servers directly"
            )
            .into(),
        ));
    }
    let credential_layer = CredentialLayer::new(Arc::clone(credential));
    let exec = matches!(credential.source(), CredentialSource::Exec(_));
    let https = if exec {
        tls::https_connector_presenting(&config, Arc::clone(credential))?
    } else {
        tls::https_connector(&config)?
    };
    let mut connector = TimeoutConnector::new(https);
    connector.set_connect_timeout(config.connect_timeout);
    connector.set_read_timeout(config.read_timeout);
    connector.set_write_timeout(config.write_timeout);
    connector.set_reset_reader_on_write(config.reset_reader_on_write);
    let http: hyper_util::client::legacy::Client<_, kube::client::Body> =
        hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .http1_max_buf_size(READ_BUFFER_LIMIT)
            .build(connector);
    // Same order as kube's default stack (which has no retry here: `default_retry` is off).
    let service = ServiceBuilder::new()
        .layer(config.base_uri_layer())
        .layer(credential_layer)
        .layer(config.extra_headers_layer()?)
        .map_err(BoxError::from)
        .service(http);
    Ok(
        ClientBuilder::new(service, config.default_namespace.clone())
            .with_layer(observe)
            .with_layer(budget)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_context_the_kubeconfig_lacks_is_named_as_such() {
        let mut cluster = crate::fixtures::console::ledger().clusters[0].clone();
        cluster.context = "prod-old".into();
        let error = connect(&cluster, &Kubeconfig::default(), &ConnectOptions::default())
            .await
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                format!(
                    "cluster {}: the kubeconfig has no context \"prod-old\" (the ledger's `context`; `fleetdeck ledger contexts` compares the two)",
                    cluster.id
                )
                .as_str()
            )
        );
    }
}
