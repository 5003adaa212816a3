//! Reaching one cluster before a person's change: build its client from the ledger's
//! context, read its kube-system namespace and check it against the identity the ledger
//! pins (`may_change`). Only a client that passed is handed out; every other outcome is a
//! reason, in words, not to act.

use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use kube::Api;
use kube::config::Kubeconfig;

use super::connect::{ClusterClient, ConnectError, ConnectOptions, connect};
use crate::model::ledger::Cluster;
use crate::model::live::{ChangeRefusal, ObservedIdentity, may_change, verify_identity};

/// How long reaching one cluster and reading its identity may take before it counts as
/// unreachable.
pub const REACH_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the cluster may not be changed now. The message is short (it is listed next to the
/// cluster's id); what went wrong underneath is its source.
#[derive(Debug, thiserror::Error)]
pub enum Unverified {
    /// No client could be built from the ledger's context.
    #[error("no client for it: {0}")]
    NoClient(#[source] ConnectError),
    /// The API server did not answer (refused, failed, or not within [`REACH_TIMEOUT`]).
    #[error("Unreachable")]
    Unreachable(#[source] NoAnswer),
    /// No usable credential: the plugin failed, timed out, needs a login, or the server
    /// refused what it handed out.
    #[error("{}", .0.reason())]
    Credentials(crate::model::live::CredentialProblem),
    /// The API server answered, but not with its kube-system namespace.
    #[error("its kube-system namespace cannot be read")]
    Unreadable(#[source] kube::Error),
    /// It answered, and the identity rule refuses changes: not pinned, or not the
    /// cluster the ledger pins.
    #[error(transparent)]
    Refused(#[from] ChangeRefusal),
}

/// What stood in for the API server's answer.
#[derive(Debug, thiserror::Error)]
pub enum NoAnswer {
    /// Nothing within the time allowed.
    #[error("no answer within {}s", .0.as_secs())]
    TimedOut(Duration),
    /// The request failed on the way.
    #[error(transparent)]
    Failed(kube::Error),
}

impl Unverified {
    /// The reason with what lies underneath it (`Unreachable: …`), for a record that has
    /// room for it.
    pub fn detailed(&self) -> String {
        super::reflect::describe_error(self)
    }
}

/// A client for `cluster`, once it answered within [`REACH_TIMEOUT`] and is the one the
/// ledger pins; otherwise why not. `options` shape the client handed out.
pub async fn verified_client(
    cluster: &Cluster,
    kubeconfig: &Kubeconfig,
    options: &ConnectOptions,
) -> Result<ClusterClient, Unverified> {
    // The credential first, on its own clock: the reach timeout starts once it is in hand.
    if let Some((_, cell)) = super::credentials::store().for_context(kubeconfig, &cluster.context)
        && let Err(problem) = cell.get().await
    {
        return Err(Unverified::Credentials(problem));
    }
    let reached = tokio::time::timeout(REACH_TIMEOUT, reach(cluster, kubeconfig, options)).await;
    let (client, namespace) = match reached {
        Err(_) => return Err(Unverified::Unreachable(NoAnswer::TimedOut(REACH_TIMEOUT))),
        Ok(reached) => reached?,
    };
    let observed = ObservedIdentity {
        kube_system_uid: namespace.metadata.uid.unwrap_or_default(),
        server: client.server.clone(),
    };
    may_change(Some(&verify_identity(cluster.identity.as_ref(), &observed)))?;
    Ok(client)
}

/// The client and the kube-system namespace it read.
async fn reach(
    cluster: &Cluster,
    kubeconfig: &Kubeconfig,
    options: &ConnectOptions,
) -> Result<(ClusterClient, Namespace), Unverified> {
    let client = connect(cluster, kubeconfig, options)
        .await
        .map_err(Unverified::NoClient)?;
    let read = Api::<Namespace>::all(client.client.clone())
        .get("kube-system")
        .await;
    match read {
        Ok(namespace) => Ok((client, namespace)),
        Err(error) if super::reflect::is_credential_failure(&error) => Err(
            Unverified::Credentials(client.credential.problem().unwrap_or_else(|| {
                crate::model::live::CredentialProblem {
                    kind: crate::model::live::ProblemKind::Refused,
                    message: super::reflect::describe_error(&error),
                    since: jiff::Timestamp::now(),
                }
            })),
        ),
        Err(error @ kube::Error::Api(_)) => Err(Unverified::Unreadable(error)),
        Err(error) => Err(Unverified::Unreachable(NoAnswer::Failed(error))),
    }
}
