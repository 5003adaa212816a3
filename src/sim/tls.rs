//! The simulator's TLS: a fixed certificate authority and a server certificate for
//! `127.0.0.1` / `localhost`, both made for this test server only (their key is no
//! secret: it protects nothing but loopback traffic in tests). kubectl sends bearer
//! tokens only over TLS, so the kubeconfig the simulator writes points at `https://`
//! and carries this CA; the same port also answers plain HTTP.

use std::sync::{Arc, OnceLock};

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The CA that signed the server certificate, in PEM (for `certificate-authority-data`).
pub const CA_PEM: &str = include_str!("tls/ca.pem");
const SERVER_PEM: &str = include_str!("tls/server.pem");
const SERVER_KEY_PEM: &str = include_str!("tls/server-key.pem");

/// The server's TLS configuration (built once), offering HTTP/1.1 only.
pub fn server_config() -> Result<Arc<ServerConfig>, String> {
    static CONFIG: OnceLock<Result<Arc<ServerConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let certs = CertificateDer::pem_slice_iter(SERVER_PEM.as_bytes())
                .chain(CertificateDer::pem_slice_iter(CA_PEM.as_bytes()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("simulator certificate: {e}"))?;
            let key = PrivateKeyDer::from_pem_slice(SERVER_KEY_PEM.as_bytes())
                .map_err(|e| format!("simulator key: {e}"))?;
            let mut config = ServerConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS versions: {e}"))?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(|e| format!("simulator certificate: {e}"))?;
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Ok(Arc::new(config))
        })
        .clone()
}

/// Serves the built-in certificate, or a cluster's own under its TLS server name.
#[derive(Debug)]
struct BySni {
    default: Arc<rustls::sign::CertifiedKey>,
    own: Vec<(String, Arc<rustls::sign::CertifiedKey>)>,
}

impl rustls::server::ResolvesServerCert for BySni {
    fn resolve(
        &self,
        hello: rustls::server::ClientHello<'_>,
    ) -> Option<Arc<rustls::sign::CertifiedKey>> {
        let own = hello
            .server_name()
            .and_then(|name| self.own.iter().find(|(n, _)| n == name));
        Some(own.map_or_else(|| self.default.clone(), |(_, key)| key.clone()))
    }
}

/// The server's TLS configuration with clusters' own certificates (by TLS server name;
/// see `serving_cert`), the built-in one for every other name; without any, the shared
/// configuration of [`server_config`].
pub fn server_config_with(
    own: Vec<(String, Arc<rustls::sign::CertifiedKey>)>,
) -> Result<Arc<ServerConfig>, String> {
    if own.is_empty() {
        return server_config();
    }
    let certs = CertificateDer::pem_slice_iter(SERVER_PEM.as_bytes())
        .chain(CertificateDer::pem_slice_iter(CA_PEM.as_bytes()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("simulator certificate: {e}"))?;
    let key = PrivateKeyDer::from_pem_slice(SERVER_KEY_PEM.as_bytes())
        .map_err(|e| format!("simulator key: {e}"))?;
    let signing = rustls::crypto::ring::sign::any_supported_type(&key)
        .map_err(|e| format!("simulator key: {e}"))?;
    let resolver = BySni {
        default: Arc::new(rustls::sign::CertifiedKey::new(certs, signing)),
        own,
    };
    let mut config =
        ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS versions: {e}"))?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(resolver));
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_built_in_certificate_loads() {
        assert!(super::server_config().is_ok());
        assert!(super::CA_PEM.starts_with("-----BEGIN CERTIFICATE-----"));
    }
}
