//! What each identity fleetdeck acts as on a cluster may do: one SelfSubjectRulesReview
//! per identity (the read one, and each job's own), through that identity's own client,
//! for the least-privilege rule.

use k8s_openapi::api::authorization::v1::{SelfSubjectRulesReview, SelfSubjectRulesReviewSpec};
use kube::Api;
use kube::api::PostParams;

use crate::k8s::reflect::describe_error;
use crate::model::findings::{GrantedRule, PrivilegeFact, Read};
use crate::model::ledger::Job;

/// An identity to ask about: its jobs, its kubeconfig user and a client that acts as it.
#[derive(Clone)]
pub struct Identity {
    /// The jobs it does.
    pub jobs: Vec<Job>,
    /// The kubeconfig user.
    pub user: String,
    /// A client authenticated as it.
    pub client: kube::Client,
}

/// Reviews each identity's rules in the namespace node events go to (`default`): the
/// rules there include every cluster-wide one.
pub async fn read_privileges(
    identities: &[Identity],
    timeout: std::time::Duration,
) -> Vec<PrivilegeFact> {
    let mut out = Vec::new();
    for identity in identities {
        let api: Api<SelfSubjectRulesReview> = Api::all(identity.client.clone());
        let review = SelfSubjectRulesReview {
            spec: SelfSubjectRulesReviewSpec {
                namespace: Some("default".into()),
            },
            ..SelfSubjectRulesReview::default()
        };
        let answer =
            tokio::time::timeout(timeout, api.create(&PostParams::default(), &review)).await;
        let (rules, incomplete) = match answer {
            Err(_) => (
                Read::Unknown(format!("no answer within {}s", timeout.as_secs())),
                false,
            ),
            Ok(Err(error)) => (
                Read::Unknown(format!(
                    "SelfSubjectRulesReview: {}",
                    describe_error(&error)
                )),
                false,
            ),
            Ok(Ok(review)) => {
                let status = review.status.unwrap_or_default();
                let rules = status
                    .resource_rules
                    .into_iter()
                    .map(|r| GrantedRule {
                        groups: r.api_groups.unwrap_or_default(),
                        resources: r.resources.unwrap_or_default(),
                        verbs: r.verbs,
                    })
                    .collect();
                (Read::Known(rules), status.incomplete)
            }
        };
        out.push(PrivilegeFact {
            jobs: identity.jobs.clone(),
            user: identity.user.clone(),
            rules,
            incomplete,
        });
    }
    out
}
