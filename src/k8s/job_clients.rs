//! The clients of the jobs that act through a context of their own (`jobContexts` in the
//! ledger: maintenance, release), so that each job acts under an identity with only its
//! rights, and the cluster's audit log tells the jobs apart.

use crate::k8s::connect::ClusterClient;
use crate::model::ledger::Job;

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
