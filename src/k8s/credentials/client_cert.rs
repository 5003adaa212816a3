//! Client certificates a plugin hands out (Pinniped and Teleport do), presented by the TLS
//! layer of every connection the cluster's client opens from then on. rustls asks for the
//! certificate during each handshake, so a rotated certificate is used by the next
//! connection without building the client again.

use std::sync::Arc;

use rustls::SignatureScheme;
use rustls::client::ResolvesClientCert;
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use super::cell::CredentialCell;

/// The certificate and key of an ExecCredential's status, ready for rustls.
pub fn certified_key(chain_pem: &str, key_pem: &str) -> Result<Arc<CertifiedKey>, String> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(chain_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("the plugin's clientCertificateData is not PEM: {e}"))?;
    if chain.is_empty() {
        return Err("the plugin's clientCertificateData holds no certificate".into());
    }
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes())
        .map_err(|e| format!("the plugin's clientKeyData is not a PEM private key: {e}"))?;
    let signer = rustls::crypto::ring::sign::any_supported_type(&key)
        .map_err(|e| format!("the plugin's clientKeyData cannot sign: {e}"))?;
    Ok(Arc::new(CertifiedKey::new(chain, signer)))
}

/// Presents whatever certificate the cell holds now.
#[derive(Debug)]
pub struct CellCertificate(pub Arc<CredentialCell>);

impl ResolvesClientCert for CellCertificate {
    fn resolve(
        &self,
        _root_hint_subjects: &[&[u8]],
        _sigschemes: &[SignatureScheme],
    ) -> Option<Arc<CertifiedKey>> {
        self.0.current_certificate()
    }

    fn has_certs(&self) -> bool {
        true
    }
}
