//! The clients of the jobs that act through a context of their own (`jobContexts` in the
//! ledger: maintenance, release), so that each job acts under an identity with only its
//! rights, and the cluster's audit log tells the jobs apart.

use std::collections::HashMap;
use std::sync::Arc;

use crate::k8s::connect::ClusterClient;
use crate::k8s::kube_port::{KubePort, PortError};
use crate::model::ledger::{ClusterId, Job};

/// A job's own client, or why its context cannot be used.
#[derive(Clone)]
pub enum JobClient {
    /// Built from the job's context.
    Ready(ClusterClient),
    /// The context the ledger names, and why no client came of it.
    Unusable {
        /// The context.
        context: String,
        /// Why not.
        reason: String,
    },
}

/// The clients of the jobs the ledger names a context of their own for on `cluster`
/// (`jobContexts`). Each must reach the API server the cluster's own context reaches
/// (`server`, whose identity the fleet view checks): a job context that points elsewhere
/// would act on a cluster nothing vouches for, so it is unusable, and that job waits.
pub async fn job_clients_of(
    cluster: &crate::model::ledger::Cluster,
    server: &str,
    kubeconfig: &kube::config::Kubeconfig,
) -> Vec<(Job, JobClient)> {
    let mut out = Vec::new();
    for job in [Job::Maintenance, Job::Release] {
        let context = cluster.context_for(job).to_string();
        if context == cluster.context {
            continue;
        }
        let options = crate::k8s::connect::ConnectOptions::default();
        let own = match crate::k8s::connect::connect_for(cluster, job, kubeconfig, &options).await {
            Ok(client) if client.server.trim_end_matches('/') == server.trim_end_matches('/') => {
                JobClient::Ready(client)
            }
            Ok(client) => JobClient::Unusable {
                reason: crate::t!(
                    crate::i18n::Lang::En,
                    "job-context-other-server",
                    server = client.server.as_str(),
                    expected = server
                ),
                context,
            },
            Err(error) => JobClient::Unusable {
                reason: error.to_string(),
                context,
            },
        };
        out.push((job, own));
    }
    out
}

/// The port's clients by job: which one a change goes through, and who that is.
impl KubePort {
    /// The clients of the jobs that act through a context of their own.
    pub fn with_job_clients(mut self, clients: HashMap<(String, Job), JobClient>) -> Self {
        self.job_clients = Arc::new(clients);
        self
    }

    /// The kubeconfig user `job` acts as on `cluster` (journaled with what it does).
    pub fn identity(&self, cluster: &ClusterId, job: Job) -> Option<String> {
        self.job_client(cluster, job).ok().map(|c| c.user.clone())
    }

    pub(super) fn job_client(
        &self,
        cluster: &ClusterId,
        job: Job,
    ) -> Result<&ClusterClient, PortError> {
        match self.job_clients.get(&(cluster.to_string(), job)) {
            Some(JobClient::Ready(client)) => Ok(client),
            Some(JobClient::Unusable { context, reason }) => Err(PortError::JobContext {
                cluster: cluster.to_string(),
                job: job.name(),
                context: context.clone(),
                reason: reason.clone(),
            }),
            None => self
                .clients
                .get(cluster.as_str())
                .ok_or_else(|| PortError::NoClient(cluster.to_string())),
        }
    }

    /// The client `job` changes `cluster` through, checked against the identity the fleet
    /// view confirmed for it just now: a context re-pointed or a cluster rebuilt while a
    /// node is mid-maintenance must not receive the next cordon or eviction.
    pub(super) fn client_for_change(
        &self,
        cluster: &ClusterId,
        job: Job,
    ) -> Result<kube::Client, PortError> {
        let refused = |reason: String| PortError::Refused {
            cluster: cluster.to_string(),
            reason,
        };
        let refusal = self.snapshots.borrow().change_refusal(&cluster.0);
        match refusal {
            Some(reason) => Err(refused(reason)),
            None => self.job_client(cluster, job).map(|c| c.client.clone()),
        }
    }

    /// Refuses to change a cluster whose identity is not confirmed against the ledger, or
    /// that nothing recent is known about (the rule of [`KubePort::client_for_change`]).
    pub(super) fn confirmed_identity(&self, cluster: &ClusterId) -> Result<(), String> {
        self.client_for_change(cluster, Job::Release)
            .map(|_| ())
            .map_err(|refusal| format!("{refusal}; refusing to change it"))
    }
}
