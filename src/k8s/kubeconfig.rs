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

/// Loads and merges the files of `source`. Like kubectl, files listed in `KUBECONFIG` that
/// do not exist are skipped; a file given with `--kubeconfig` must exist.
pub fn load(source: &KubeconfigSource) -> Result<Kubeconfig, KubeconfigError> {
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
    fn explicit_missing_file_is_an_error() {
        let source = KubeconfigSource {
            paths: vec![PathBuf::from("/nonexistent/kubeconfig")],
            explicit: true,
        };
        assert!(matches!(load(&source), Err(KubeconfigError::Missing(_))));
    }
}
