//! The API server's serving certificate, as its TLS handshake presents it: one handshake
//! (no HTTP request, so nothing against the request budget) at a slow cadence. The
//! certificate is read, not trusted: the kube client's own TLS setup decides trust; this
//! only wants to know when the certificate the server shows expires, including one the
//! client would refuse.

use std::sync::Arc;
use std::time::Duration;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use tokio::net::TcpStream;

use super::x509::{CertInfo, read_der};

/// Reads any certificate (the signatures of the handshake itself are still checked, so
/// the server holds the certificate's key).
#[derive(Debug)]
struct ReadOnly(Arc<CryptoProvider>);

impl ServerCertVerifier for ReadOnly {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The serving certificate of the API server at `server` (its URL), presented for
/// `server_name` (the kubeconfig's `tls-server-name`, else the URL's host). `Ok(None)`
/// for a plain-HTTP server, which has none.
pub async fn serving_certificate(
    server: &str,
    server_name: Option<&str>,
    timeout: Duration,
) -> Result<Option<CertInfo>, String> {
    let uri: http::Uri = server
        .parse()
        .map_err(|e| format!("server URL {server:?}: {e}"))?;
    if uri.scheme_str() == Some("http") {
        return Ok(None);
    }
    let host = uri
        .host()
        .ok_or_else(|| format!("server URL {server:?} has no host"))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = uri.port_u16().unwrap_or(443);
    let name = server_name.unwrap_or(&host).to_string();
    let server_name =
        ServerName::try_from(name.clone()).map_err(|e| format!("TLS server name {name:?}: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS versions: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(ReadOnly(provider)))
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let handshake = async {
        let tcp = TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| format!("connect {host}:{port}: {e}"))?;
        let tls = connector
            .connect(server_name, tcp)
            .await
            .map_err(|e| format!("TLS handshake with {host}:{port}: {e}"))?;
        let (_, connection) = tls.get_ref();
        let leaf = connection
            .peer_certificates()
            .and_then(|certs| certs.first())
            .ok_or_else(|| "the server presented no certificate".to_string())?;
        read_der(leaf.as_ref()).map_err(|e| format!("its certificate: {e}"))
    };
    match tokio::time::timeout(timeout, handshake).await {
        Ok(result) => result.map(Some),
        Err(_) => Err(format!(
            "TLS handshake with {host}:{port}: no answer within {}s",
            timeout.as_secs()
        )),
    }
}
