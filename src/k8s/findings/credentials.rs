//! The certificates and credentials a kubeconfig context carries for one cluster: the CA
//! it trusts, the client certificate it authenticates with, and when what its exec plugin
//! handed out expires (as the credential layer holds it: the plugin is not run again).

use std::sync::Arc;

use kube::config::Kubeconfig;

use super::x509::{base64_decode, earliest_expiry};
use crate::k8s::credentials::CredentialCell;
use crate::model::findings::{CertSource, CertificateFact, Read};

/// Where a PEM comes from: inline (base64 of the PEM) or a file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PemSource {
    Data(String),
    File(String),
}

/// What one context's kubeconfig entries hold that can expire.
#[derive(Debug, Clone, Default)]
pub struct ContextCredentials {
    /// The API server URL.
    pub server: Option<String>,
    /// `tls-server-name`, when set.
    pub tls_server_name: Option<String>,
    ca: Option<PemSource>,
    client: Option<PemSource>,
    /// The credential the cluster is reached with, once a client was built for it.
    pub credential: Option<Arc<CredentialCell>>,
}

/// The credentials `context` of `kubeconfig` uses (nothing for a context it lacks).
pub fn context_credentials(kubeconfig: &Kubeconfig, context: &str) -> ContextCredentials {
    let Some(ctx) = kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == context)
        .and_then(|c| c.context.as_ref())
    else {
        return ContextCredentials::default();
    };
    let cluster = kubeconfig
        .clusters
        .iter()
        .find(|c| c.name == ctx.cluster)
        .and_then(|c| c.cluster.as_ref());
    let user = ctx.user.as_deref().and_then(|user| {
        kubeconfig
            .auth_infos
            .iter()
            .find(|a| a.name == user)
            .and_then(|a| a.auth_info.as_ref())
    });
    let source = |data: Option<&String>, file: Option<&String>| match (data, file) {
        (Some(d), _) => Some(PemSource::Data(d.clone())),
        (None, Some(f)) => Some(PemSource::File(f.clone())),
        (None, None) => None,
    };
    ContextCredentials {
        server: cluster.and_then(|c| c.server.clone()),
        tls_server_name: cluster.and_then(|c| c.tls_server_name.clone()),
        ca: cluster.and_then(|c| {
            source(
                c.certificate_authority_data.as_ref(),
                c.certificate_authority.as_ref(),
            )
        }),
        client: user.and_then(|u| {
            source(
                u.client_certificate_data.as_ref(),
                u.client_certificate.as_ref(),
            )
        }),
        credential: None,
    }
}

fn read_pem(source: &PemSource) -> Result<String, String> {
    match source {
        PemSource::Data(data) => base64_decode(data)
            .map_err(|e| format!("inline data: {e}"))
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| "inline data is not PEM text".to_string())
            }),
        PemSource::File(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
        }
    }
}

fn fact(source: CertSource, pem: &PemSource) -> CertificateFact {
    match read_pem(pem).and_then(|text| earliest_expiry(&text).map_err(|e| e.to_string())) {
        Ok(info) => CertificateFact {
            source,
            subject: info.subject,
            not_after: Read::Known(info.not_after),
        },
        Err(why) => CertificateFact {
            source,
            subject: String::new(),
            not_after: Read::Unknown(why),
        },
    }
}

impl ContextCredentials {
    /// The kubeconfig's CA and client certificate with their expiry (read from the
    /// kubeconfig's data or files: no request is made).
    pub fn certificates(&self) -> Vec<CertificateFact> {
        let mut out = Vec::new();
        if let Some(ca) = &self.ca {
            out.push(fact(CertSource::KubeconfigCa, ca));
        }
        if let Some(client) = &self.client {
            out.push(fact(CertSource::ClientCertificate, client));
        }
        out
    }
}

/// The expiry of the credential the cluster is reached with, read from the credential
/// layer (never by running its plugin again): an exec credential's expiration and, when
/// the plugin handed out a client certificate, that certificate's. Other kinds of
/// credential report nothing here (their certificates are read from the kubeconfig).
pub fn exec_credential(cell: &CredentialCell) -> Vec<CertificateFact> {
    let Some(program) = cell.program() else {
        return Vec::new();
    };
    let report = cell.report("");
    let mut out = Vec::new();
    match (report.expires_at, &report.problem) {
        (Some(at), _) => out.push(CertificateFact {
            source: CertSource::ExecCredential,
            subject: program.to_string(),
            not_after: Read::Known(at),
        }),
        (None, Some(problem)) => out.push(CertificateFact {
            source: CertSource::ExecCredential,
            subject: program.to_string(),
            not_after: Read::Unknown(problem.reason()),
        }),
        // Handed out without an expiry: used until a server refuses it.
        (None, None) => {}
    }
    if let Some((subject, not_after)) = cell.certificate_expiry() {
        out.push(CertificateFact {
            source: CertSource::ClientCertificate,
            subject,
            not_after: Read::Known(not_after),
        });
    }
    out
}
