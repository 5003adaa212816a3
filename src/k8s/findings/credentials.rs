//! The certificates and credentials a kubeconfig context carries for one cluster: the CA
//! it trusts, the client certificate it authenticates with, and what its exec plugin
//! hands out (run as kubectl runs it, with `KUBERNETES_EXEC_INFO`, at a slow cadence).

use std::collections::HashMap;
use std::time::Duration;

use jiff::Timestamp;
use kube::config::{ExecConfig, Kubeconfig};

use super::x509::{base64_decode, earliest_expiry};
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
    /// The exec plugin, when the user has one.
    pub exec: Option<ExecConfig>,
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
        exec: user.and_then(|u| u.exec.clone()),
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

/// Runs the exec plugin once and reads its credential's expiry (and, when it hands out
/// a client certificate, that certificate's). `Ok(None)` when the credential declares
/// no expiry (it is used until refused).
pub async fn exec_credential(
    exec: &ExecConfig,
    timeout: Duration,
) -> Result<Vec<CertificateFact>, String> {
    let command = exec
        .command
        .as_deref()
        .ok_or("the exec plugin names no command")?;
    let api_version = exec
        .api_version
        .clone()
        .unwrap_or_else(|| "client.authentication.k8s.io/v1".into());
    let info = serde_json::json!({
        "apiVersion": api_version,
        "kind": "ExecCredential",
        "spec": {"interactive": false},
    });
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(exec.args.iter().flatten())
        .env("KUBERNETES_EXEC_INFO", info.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    for pair in exec.env.iter().flatten() {
        let map: &HashMap<String, String> = pair;
        if let (Some(name), Some(value)) = (map.get("name"), map.get("value")) {
            cmd.env(name, value);
        }
    }
    let output = tokio::time::timeout(timeout, cmd.output())
        .await
        .map_err(|_| {
            format!(
                "exec plugin {command} did not finish within {}s",
                timeout.as_secs()
            )
        })?
        .map_err(|e| format!("exec plugin {command}: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "exec plugin {command} failed ({}): {}",
            output.status,
            stderr.lines().next().unwrap_or("")
        ));
    }
    let credential: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("exec plugin {command} printed no ExecCredential: {e}"))?;
    let mut out = Vec::new();
    if let Some(expiry) = credential
        .pointer("/status/expirationTimestamp")
        .and_then(|v| v.as_str())
    {
        let at: Timestamp = expiry
            .parse()
            .map_err(|e| format!("exec plugin {command}: expirationTimestamp {expiry:?}: {e}"))?;
        out.push(CertificateFact {
            source: CertSource::ExecCredential,
            subject: command.to_string(),
            not_after: Read::Known(at),
        });
    }
    if let Some(pem) = credential
        .pointer("/status/clientCertificateData")
        .and_then(|v| v.as_str())
    {
        out.push(match earliest_expiry(pem) {
            Ok(info) => CertificateFact {
                source: CertSource::ClientCertificate,
                subject: info.subject,
                not_after: Read::Known(info.not_after),
            },
            Err(e) => CertificateFact {
                source: CertSource::ClientCertificate,
                subject: command.to_string(),
                not_after: Read::Unknown(format!("exec plugin's clientCertificateData: {e}")),
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_exec_plugin_credential_is_read_for_its_expiry() {
        let exec = ExecConfig {
            api_version: Some("client.authentication.k8s.io/v1".into()),
            command: Some("sh".into()),
            args: Some(vec![
                "-c".into(),
                r#"case "$KUBERNETES_EXEC_INFO" in *ExecCredential*) echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"2026-12-01T19:00:00Z"}}';; *) exit 3;; esac"#.into(),
            ]),
            ..ExecConfig::default()
        };
        let facts = exec_credential(&exec, Duration::from_secs(10))
            .await
            .expect("read");
        assert_eq!(facts.len(), 1);
        assert_eq!(facts[0].source, CertSource::ExecCredential);
        assert_eq!(
            facts[0].not_after,
            Read::Known("2026-12-01T19:00:00Z".parse().unwrap())
        );
        let failing = ExecConfig {
            args: Some(vec!["-c".into(), "echo no >&2; exit 1".into()]),
            ..exec
        };
        let why = exec_credential(&failing, Duration::from_secs(10))
            .await
            .unwrap_err();
        assert!(why.starts_with("exec plugin sh failed"), "{why}");
        assert!(why.ends_with(": no"), "{why}");
    }
}
