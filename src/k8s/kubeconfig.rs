//! Finding and merging kubeconfig files exactly as kubectl does, and mapping the ledger's
//! clusters onto their contexts.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use kube::config::Kubeconfig;
use serde::Serialize;

use crate::model::ledger::Ledger;

/// Why the kubeconfig could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigError {
    /// A file named explicitly does not exist.
    #[error("kubeconfig {0} does not exist")]
    Missing(PathBuf),
    /// A file could not be read or parsed.
    #[error("kubeconfig {path}: {source}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What kube reported.
        #[source]
        source: kube::config::KubeconfigError,
    },
    /// No file was found anywhere.
    #[error("no kubeconfig found (looked at {0})")]
    NotFound(String),
}

/// Where the kubeconfig comes from, in kubectl's order of precedence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KubeconfigSource {
    /// The files to merge, first wins.
    pub paths: Vec<PathBuf>,
    /// True for `--kubeconfig`: a missing file is an error rather than skipped.
    pub explicit: bool,
}

/// `--kubeconfig`, else every path in `KUBECONFIG`, else `~/.kube/config`.
pub fn resolve_source(
    flag: Option<&Path>,
    env: Option<OsString>,
    home: Option<PathBuf>,
) -> KubeconfigSource {
    if let Some(path) = flag {
        return KubeconfigSource {
            paths: vec![path.to_path_buf()],
            explicit: true,
        };
    }
    if let Some(value) = env {
        let paths: Vec<PathBuf> = std::env::split_paths(&value)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
        if !paths.is_empty() {
            return KubeconfigSource {
                paths,
                explicit: false,
            };
        }
    }
    KubeconfigSource {
        paths: home
            .map(|h| vec![h.join(".kube").join("config")])
            .unwrap_or_default(),
        explicit: false,
    }
}

/// Where a pod's service account token, CA and namespace are mounted.
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// The name of the context for the cluster fleetdeck runs in (an executor in a pod): a
/// ledger cluster names it as its `context`.
pub const IN_CLUSTER_CONTEXT: &str = "in-cluster";

/// The context of the cluster this process runs in, when it runs in a pod: the API
/// server from `KUBERNETES_SERVICE_HOST` and `_PORT`, the mounted CA, and the mounted
/// service-account token as a token file (re-read as it rotates, hourly for projected
/// tokens). `None` outside a pod. `dir` is where the service account is mounted.
pub fn in_cluster(dir: &Path, host: Option<String>, port: Option<String>) -> Option<Kubeconfig> {
    let host = host.filter(|h| !h.is_empty())?;
    let token = dir.join("token");
    if !token.exists() {
        return None;
    }
    // An IPv6 address is written in brackets in a URL.
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    let port = port
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "443".into());
    let ca = dir.join("ca.crt");
    let text = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": IN_CLUSTER_CONTEXT, "cluster": {
            "server": format!("https://{host}:{port}"),
            "certificate-authority": ca.display().to_string(),
        }}],
        "users": [{"name": IN_CLUSTER_CONTEXT, "user": {"tokenFile": token.display().to_string()}}],
        "contexts": [{"name": IN_CLUSTER_CONTEXT, "context": {
            "cluster": IN_CLUSTER_CONTEXT, "user": IN_CLUSTER_CONTEXT,
        }}],
    })
    .to_string();
    Kubeconfig::from_yaml(&text).ok()
}

/// [`in_cluster`] as the process finds itself: the standard mount and environment.
fn this_pod() -> Option<Kubeconfig> {
    in_cluster(
        Path::new(SERVICE_ACCOUNT_DIR),
        std::env::var("KUBERNETES_SERVICE_HOST").ok(),
        std::env::var("KUBERNETES_SERVICE_PORT").ok(),
    )
}

/// Loads and merges the files of `source`. Like kubectl, files listed in `KUBECONFIG` that
/// do not exist are skipped; a file given with `--kubeconfig` must exist. In a pod, the
/// cluster it runs in is there too, as the context `in-cluster` (after the files: a file's
/// own `in-cluster` wins).
pub fn load(source: &KubeconfigSource) -> Result<Kubeconfig, KubeconfigError> {
    match (load_files(source), this_pod()) {
        (Ok(files), Some(pod)) => files.merge(pod).map_err(|source| KubeconfigError::Invalid {
            path: PathBuf::from(SERVICE_ACCOUNT_DIR),
            source,
        }),
        (Err(KubeconfigError::NotFound(_)), Some(pod)) => Ok(pod),
        (result, _) => result,
    }
}

fn load_files(source: &KubeconfigSource) -> Result<Kubeconfig, KubeconfigError> {
    let mut merged: Option<Kubeconfig> = None;
    for path in &source.paths {
        if !path.exists() {
            if source.explicit {
                return Err(KubeconfigError::Missing(path.clone()));
            }
            continue;
        }
        let invalid = |source| KubeconfigError::Invalid {
            path: path.clone(),
            source,
        };
        let config = Kubeconfig::read_from(path).map_err(invalid)?;
        merged = Some(match merged {
            None => config,
            Some(first) => first.merge(config).map_err(invalid)?,
        });
    }
    merged.ok_or_else(|| {
        KubeconfigError::NotFound(
            source
                .paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        )
    })
}

/// How one ledger cluster maps onto the kubeconfig.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextMapping {
    /// Ledger id.
    pub cluster: String,
    /// The context the ledger names.
    pub context: String,
    /// The server that context points at, if the context exists.
    pub server: Option<String>,
    /// Whether the context exists in the kubeconfig.
    pub found: bool,
    /// The server pinned in the ledger differs from the context's server.
    pub server_differs: bool,
}

/// Ledger clusters against kubeconfig contexts, both ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextReport {
    /// One row per ledger cluster.
    pub clusters: Vec<ContextMapping>,
    /// Contexts in the kubeconfig that no ledger cluster uses.
    pub unregistered_contexts: Vec<String>,
}

/// Maps every ledger cluster to its context and lists contexts the ledger does not know.
pub fn map_contexts(ledger: &Ledger, kubeconfig: &Kubeconfig) -> ContextReport {
    let server_of = |context: &str| -> Option<String> {
        let named = kubeconfig.contexts.iter().find(|c| c.name == context)?;
        let cluster_name = &named.context.as_ref()?.cluster;
        kubeconfig
            .clusters
            .iter()
            .find(|c| &c.name == cluster_name)?
            .cluster
            .as_ref()?
            .server
            .clone()
    };
    let clusters = ledger
        .clusters
        .iter()
        .map(|cluster| {
            let found = kubeconfig
                .contexts
                .iter()
                .any(|c| c.name == cluster.context);
            let server = server_of(&cluster.context);
            let server_differs = match (&cluster.identity, &server) {
                (Some(identity), Some(server)) => {
                    identity.server.trim_end_matches('/') != server.trim_end_matches('/')
                }
                _ => false,
            };
            ContextMapping {
                cluster: cluster.id.to_string(),
                context: cluster.context.clone(),
                server,
                found,
                server_differs,
            }
        })
        .collect();
    // A job's own context (maintenance, release) is the ledger's too.
    let known: BTreeSet<&str> = ledger
        .clusters
        .iter()
        .flat_map(|c| {
            crate::model::ledger::Job::ALL
                .iter()
                .map(move |job| c.context_for(*job))
        })
        .collect();
    let unregistered_contexts = kubeconfig
        .contexts
        .iter()
        .map(|c| c.name.clone())
        .filter(|name| !known.contains(name.as_str()))
        .collect();
    ContextReport {
        clusters,
        unregistered_contexts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_env_beats_home() {
        let home = Some(PathBuf::from("/home/op"));
        let env = Some(OsString::from("/a:/b::/c"));
        assert_eq!(
            resolve_source(Some(Path::new("/x")), env.clone(), home.clone()).paths,
            vec![PathBuf::from("/x")]
        );
        let from_env = resolve_source(None, env, home.clone());
        assert_eq!(
            from_env.paths,
            vec![
                PathBuf::from("/a"),
                PathBuf::from("/b"),
                PathBuf::from("/c")
            ]
        );
        assert!(!from_env.explicit);
        assert_eq!(
            resolve_source(None, None, home).paths,
            vec![PathBuf::from("/home/op/.kube/config")]
        );
    }

    #[test]
    fn merge_skips_missing_env_files_and_first_file_wins() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(
            &a,
            "apiVersion: v1\nkind: Config\ncurrent-context: one\nclusters:\n- name: c1\n  cluster: {server: 'https://one:6443'}\ncontexts:\n- name: one\n  context: {cluster: c1, user: u}\nusers:\n- name: u\n  user: {}\n",
        )
        .unwrap();
        std::fs::write(
            &b,
            "apiVersion: v1\nkind: Config\ncurrent-context: two\nclusters:\n- name: c1\n  cluster: {server: 'https://other:6443'}\n- name: c2\n  cluster: {server: 'https://two:6443'}\ncontexts:\n- name: two\n  context: {cluster: c2, user: u}\nusers:\n- name: u\n  user: {}\n",
        )
        .unwrap();
        let source = KubeconfigSource {
            paths: vec![a, dir.path().join("missing"), b],
            explicit: false,
        };
        let merged = load(&source).unwrap();
        assert_eq!(merged.current_context.as_deref(), Some("one"));
        assert_eq!(merged.contexts.len(), 2);
        let c1 = merged.clusters.iter().find(|c| c.name == "c1").unwrap();
        assert_eq!(
            c1.cluster.as_ref().unwrap().server.as_deref(),
            Some("https://one:6443")
        );
    }

    #[test]
    fn a_pod_reaches_its_own_cluster_with_its_service_account_token_file() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            in_cluster(dir.path(), Some("10.96.0.1".into()), Some("443".into())).is_none(),
            "no token mounted: not in a pod"
        );
        std::fs::write(dir.path().join("token"), "sa-token\n").unwrap();
        assert!(
            in_cluster(dir.path(), None, None).is_none(),
            "no service host"
        );
        let config = in_cluster(dir.path(), Some("fd00::1".into()), None).unwrap();
        assert_eq!(config.contexts[0].name, IN_CLUSTER_CONTEXT);
        let cluster = config.clusters[0].cluster.as_ref().unwrap();
        assert_eq!(cluster.server.as_deref(), Some("https://[fd00::1]:443"));
        let user = config.auth_infos[0].auth_info.as_ref().unwrap();
        let source = crate::k8s::credentials::CredentialSource::of(user, None);
        assert_eq!(
            source,
            crate::k8s::credentials::CredentialSource::TokenFile(dir.path().join("token")),
            "re-read as the projected token rotates"
        );
    }

    #[test]
    fn explicit_missing_file_is_an_error() {
        let source = KubeconfigSource {
            paths: vec![PathBuf::from("/nonexistent/kubeconfig")],
            explicit: true,
        };
        assert!(matches!(load(&source), Err(KubeconfigError::Missing(_))));
    }
}
