//! One HTTPS connector per distinct TLS setting, shared by every cluster client.
//!
//! kube builds a fresh rustls configuration for each client it creates. When a kubeconfig
//! names no CA, that means loading and parsing the whole system trust store (hundreds of
//! PEM files) once per cluster: seconds of CPU when 300 clusters connect at start-up. The
//! connector is a cheap clone around an `Arc`'d rustls configuration, so clients whose TLS
//! settings are identical (same CA bundle, server name and verification switch, no client
//! certificate) share one.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use kube::client::ConfigExt;

/// The connector kube would build for a config: HTTPS or plain HTTP by URL scheme.
pub type Connector = HttpsConnector<HttpConnector>;

/// Everything the shared connector depends on.
#[derive(Hash, PartialEq, Eq)]
struct TlsKey {
    root_cert: Option<Vec<Vec<u8>>>,
    accept_invalid: bool,
    server_name: Option<String>,
}

/// More distinct settings than this (far more than any fleet has) and the cache starts
/// over rather than growing without bound.
const MAX_SHARED: usize = 4096;

/// Whether the config's TLS setup can be shared: no client certificate of its own (a
/// per-cluster identity lives in the rustls configuration) and no exec plugin (which may
/// hand out one; the credential layer strips plugins before kube sees the config, and
/// presents their certificates itself with [`https_connector_presenting`]).
pub fn shareable(config: &kube::Config) -> bool {
    let auth = &config.auth_info;
    auth.client_certificate.is_none()
        && auth.client_certificate_data.is_none()
        && auth.client_key.is_none()
        && auth.client_key_data.is_none()
        && auth.exec.is_none()
        && config.root_cert_file.is_none()
}

/// The HTTPS connector for `config` presenting whatever client certificate `cell` holds
/// at each handshake (an exec plugin's). The rustls configuration it starts from is shared
/// as [`https_connector`]'s is, so no trust store is parsed per cluster.
pub fn https_connector_presenting(
    config: &kube::Config,
    cell: std::sync::Arc<crate::k8s::credentials::CredentialCell>,
) -> Result<Connector, kube::Error> {
    let mut rustls_config = if shareable(config) {
        shared_client_config(config)?
    } else {
        config.rustls_client_config()?
    };
    rustls_config.client_auth_cert_resolver =
        std::sync::Arc::new(crate::k8s::credentials::client_cert::CellCertificate(cell));
    let builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(rustls_config)
        .https_or_http();
    let builder = match config.tls_server_name.as_ref() {
        Some(name) => {
            let name = rustls_pki_types::ServerName::try_from(name.clone()).map_err(|e| {
                kube::Error::Service(format!("tls-server-name {name:?}: {e}").into())
            })?;
            builder.with_server_name_resolver(hyper_rustls::FixedServerNameResolver::new(name))
        }
        None => builder,
    };
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    Ok(builder.enable_http1().wrap_connector(http))
}

/// The rustls configuration for `config`'s TLS settings, built once per distinct setting.
fn shared_client_config(config: &kube::Config) -> Result<rustls::ClientConfig, kube::Error> {
    static SHARED: OnceLock<Mutex<HashMap<TlsKey, rustls::ClientConfig>>> = OnceLock::new();
    once_per_setting(&SHARED, config, || config.rustls_client_config())
}

/// The HTTPS connector for `config`, shared with every earlier config that had the same TLS
/// settings when that is safe, built fresh otherwise.
pub fn https_connector(config: &kube::Config) -> Result<Connector, kube::Error> {
    if !shareable(config) {
        return config.rustls_https_connector();
    }
    static SHARED: OnceLock<Mutex<HashMap<TlsKey, Connector>>> = OnceLock::new();
    once_per_setting(&SHARED, config, || config.rustls_https_connector())
}

/// What `build` makes for `config`'s TLS settings, made once per distinct setting and kept
/// in `shared`. Built under the lock on purpose: when many clusters connect at once, one
/// of them builds it and the others wait for it instead of each building their own.
fn once_per_setting<T: Clone>(
    shared: &OnceLock<Mutex<HashMap<TlsKey, T>>>,
    config: &kube::Config,
    build: impl FnOnce() -> Result<T, kube::Error>,
) -> Result<T, kube::Error> {
    let key = TlsKey {
        root_cert: config.root_cert.clone(),
        accept_invalid: config.accept_invalid_certs,
        server_name: config.tls_server_name.clone(),
    };
    let mut shared = shared
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = shared.get(&key) {
        return Ok(found.clone());
    }
    let built = build()?;
    if shared.len() >= MAX_SHARED {
        shared.clear();
    }
    shared.insert(key, built.clone());
    Ok(built)
}
