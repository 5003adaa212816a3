//! fleetdeck's own credential layer, in front of every client of every cluster.
//!
//! kube's built-in auth runs an exec plugin with a blocking process inside the async
//! runtime, without a timeout, once per client, on the terminal's stderr, and never again
//! after a 401. For a fleet behind EKS, GKE, AKS or OIDC plugins that is hundreds of
//! processes at start, a console painted over by the plugins, and clusters called
//! unreachable when their credential is the problem. So kube is given the kubeconfig user
//! without its credentials ([`source::without_credentials`]), and this layer adds them:
//!
//! - [`source`]: how a kubeconfig user authenticates ([`CredentialSource`]); equal sources
//!   are one credential.
//! - [`cell`]: one credential, obtained once for everyone waiting (single-flight), renewed
//!   in the background, asked again once on a 401, with its problem and back-off.
//! - [`exec`]: running a plugin with `tokio::process`, a timeout and stderr captured.
//! - [`shared`]: the bound on plugins running at once, and the terminal for logins.
//! - [`layer`]: the tower layer that puts the credential on each request.
//! - [`client_cert`]: certificates a plugin hands out, presented by rustls.
//!
//! One [`CredentialStore`] serves the whole process ([`store`]), so the console's fleet
//! sync, the executor and the findings reader share every credential.

pub mod cell;
pub mod client_cert;
pub mod exec;
mod header;
pub mod layer;
pub mod shared;
pub mod source;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use kube::config::Kubeconfig;

pub use cell::{CredentialCell, Issued};
pub use layer::{CredentialError, CredentialLayer};
pub use shared::{CredentialSettings, PluginStats, Prompt};
pub use source::CredentialSource;

use shared::Shared;

/// Every credential of the process, by source, and which contexts use which.
pub struct CredentialStore {
    shared: Arc<Shared>,
    cells: Mutex<HashMap<CredentialSource, Arc<CredentialCell>>>,
    contexts: Mutex<HashMap<String, (String, Arc<CredentialCell>)>>,
}

/// The process's credential store.
pub fn store() -> &'static CredentialStore {
    static STORE: OnceLock<CredentialStore> = OnceLock::new();
    STORE.get_or_init(|| CredentialStore::new(CredentialSettings::default()))
}

impl CredentialStore {
    /// An empty store with `settings`.
    pub fn new(settings: CredentialSettings) -> CredentialStore {
        CredentialStore {
            shared: Arc::new(Shared::new(settings)),
            cells: Mutex::new(HashMap::new()),
            contexts: Mutex::new(HashMap::new()),
        }
    }

    /// Sets how credentials are obtained from now on.
    pub fn configure(&self, settings: CredentialSettings) {
        self.shared.configure(settings);
    }

    /// The settings in force.
    pub fn settings(&self) -> CredentialSettings {
        self.shared.settings()
    }

    /// How many plugins ran, and the most at once.
    pub fn stats(&self) -> PluginStats {
        self.shared.stats()
    }

    /// The one cell of `source`.
    pub fn cell(&self, source: CredentialSource) -> Arc<CredentialCell> {
        let mut cells = self.cells.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(
            cells
                .entry(source.clone())
                .or_insert_with(|| Arc::new(CredentialCell::new(source, Arc::clone(&self.shared)))),
        )
    }

    /// The credential `context` of `kubeconfig` uses, with its user's name; remembered so
    /// that a login asked for by context name finds it. `None` for a context the
    /// kubeconfig lacks.
    pub fn for_context(
        &self,
        kubeconfig: &Kubeconfig,
        context: &str,
    ) -> Option<(String, Arc<CredentialCell>)> {
        let named = kubeconfig
            .contexts
            .iter()
            .find(|c| c.name == context)?
            .context
            .as_ref()?;
        let cluster = kubeconfig
            .clusters
            .iter()
            .find(|c| c.name == named.cluster)
            .and_then(|c| c.cluster.as_ref());
        let user_name = named.user.clone().unwrap_or_default();
        let source = kubeconfig
            .auth_infos
            .iter()
            .find(|a| a.name == user_name)
            .and_then(|a| a.auth_info.as_ref())
            .map_or(CredentialSource::None, |user| {
                CredentialSource::of(user, cluster)
            });
        let cell = self.cell(source);
        self.contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(context.to_string(), (user_name.clone(), Arc::clone(&cell)));
        Some((user_name, cell))
    }

    /// The credential of a context a client was built for, by name.
    pub fn context(&self, context: &str) -> Option<(String, Arc<CredentialCell>)> {
        self.contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(context)
            .cloned()
    }

    /// The contexts that use `cell`, sorted: the clusters a login reconnects.
    pub fn contexts_of(&self, cell: &Arc<CredentialCell>) -> Vec<String> {
        let mut out: Vec<String> = self
            .contexts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(_, (_, c))| Arc::ptr_eq(c, cell))
            .map(|(name, _)| name.clone())
            .collect();
        out.sort();
        out
    }
}
