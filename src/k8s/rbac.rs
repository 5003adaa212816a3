//! The rights each of fleetdeck's jobs needs on a cluster ([`crate::model::job_rights`]),
//! as ClusterRoles to apply: no fleet-wide admin kubeconfig, and management operations and
//! releases under different accounts. The end-to-end test applies them to the simulator
//! and runs a maintenance with exactly these rights, and with one verb less.

use std::collections::BTreeMap;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, PolicyRule, RoleRef, Subject};
use kube::api::ObjectMeta;

use crate::model::job_rights::{grants, non_resource_urls};
use crate::model::ledger::Job;

/// A kind a release touches: its API group and plural.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Touched {
    /// API group ("" for core).
    pub group: String,
    /// Plural resource name.
    pub resource: String,
}

fn rule(groups: &[&str], resources: &[&str], verbs: &[&str]) -> PolicyRule {
    let owned = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    PolicyRule {
        api_groups: Some(owned(groups)),
        resources: Some(owned(resources)),
        verbs: owned(verbs),
        ..PolicyRule::default()
    }
}

/// The rules `job` needs ([`grants`]). A release's own kinds (`touched`) are added to its
/// rules: what its manifests create and update, by server-side apply.
pub fn rules(job: Job, touched: &[Touched]) -> Vec<PolicyRule> {
    let mut out: Vec<PolicyRule> = grants(job)
        .iter()
        .map(|g| rule(g.groups, g.resources, g.verbs))
        .collect();
    let urls = non_resource_urls(job);
    if !urls.is_empty() {
        out.push(PolicyRule {
            non_resource_urls: Some(urls.iter().map(|u| u.to_string()).collect()),
            verbs: vec!["get".into()],
            ..PolicyRule::default()
        });
    }
    if job == Job::Release {
        let mut by_group: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for t in touched {
            by_group
                .entry(t.group.as_str())
                .or_default()
                .push(t.resource.as_str());
        }
        for (group, mut resources) in by_group {
            resources.sort_unstable();
            resources.dedup();
            out.push(rule(&[group], &resources, &["get", "create", "patch"]));
        }
    }
    out
}

/// The name of a job's ClusterRole (`fleetdeck-maintenance`).
pub fn role_name(job: Job) -> String {
    format!("fleetdeck-{}", job.name())
}

/// The ClusterRole of `job`.
pub fn cluster_role(job: Job, touched: &[Touched]) -> ClusterRole {
    ClusterRole {
        metadata: ObjectMeta {
            name: Some(role_name(job)),
            labels: Some(BTreeMap::from([(
                "app.kubernetes.io/managed-by".to_string(),
                "fleetdeck".to_string(),
            )])),
            ..ObjectMeta::default()
        },
        rules: Some(rules(job, touched)),
        ..ClusterRole::default()
    }
}

/// Who a job's role is bound to: a user, a group or a service account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// `User`.
    User(String),
    /// `Group`.
    Group(String),
    /// `ServiceAccount` in a namespace.
    ServiceAccount {
        /// Its namespace.
        namespace: String,
        /// Its name.
        name: String,
    },
}

impl Holder {
    /// Reads `user:NAME`, `group:NAME` or `serviceaccount:NAMESPACE/NAME`.
    pub fn parse(text: &str) -> Option<Holder> {
        let (kind, name) = text.split_once(':')?;
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        match kind.trim() {
            "user" => Some(Holder::User(name.into())),
            "group" => Some(Holder::Group(name.into())),
            "serviceaccount" | "sa" => {
                let (namespace, name) = name.split_once('/')?;
                Some(Holder::ServiceAccount {
                    namespace: namespace.into(),
                    name: name.into(),
                })
            }
            _ => None,
        }
    }
}

/// The ClusterRoleBinding giving `job`'s role to `holder`.
pub fn binding(job: Job, holder: &Holder) -> ClusterRoleBinding {
    let subject = match holder {
        Holder::User(name) => Subject {
            kind: "User".into(),
            name: name.clone(),
            api_group: Some("rbac.authorization.k8s.io".into()),
            namespace: None,
        },
        Holder::Group(name) => Subject {
            kind: "Group".into(),
            name: name.clone(),
            api_group: Some("rbac.authorization.k8s.io".into()),
            namespace: None,
        },
        Holder::ServiceAccount { namespace, name } => Subject {
            kind: "ServiceAccount".into(),
            name: name.clone(),
            api_group: None,
            namespace: Some(namespace.clone()),
        },
    };
    ClusterRoleBinding {
        metadata: ObjectMeta {
            name: Some(role_name(job)),
            ..ObjectMeta::default()
        },
        role_ref: RoleRef {
            api_group: "rbac.authorization.k8s.io".into(),
            kind: "ClusterRole".into(),
            name: role_name(job),
        },
        subjects: Some(vec![subject]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maintenance_changes_only_what_a_drain_changes() {
        let rules = rules(Job::Maintenance, &[]);
        let said: Vec<(String, String)> = rules
            .iter()
            .flat_map(|r| {
                let resources = r.resources.clone().unwrap_or_default();
                let verbs = r.verbs.clone();
                resources
                    .into_iter()
                    .flat_map(move |res| verbs.clone().into_iter().map(move |v| (res.clone(), v)))
            })
            .collect();
        assert_eq!(
            said,
            [
                ("nodes".to_string(), "patch".to_string()),
                ("pods/eviction".into(), "create".into()),
                ("events".into(), "create".into()),
            ]
        );
        assert!(
            !rules
                .iter()
                .any(|r| r.verbs.iter().any(|v| v == "delete" || v == "*")),
            "never delete: evictions go through the Eviction API"
        );
    }

    #[test]
    fn a_release_gets_its_manifests_kinds_and_holders_parse() {
        let rules = rules(
            Job::Release,
            &[
                Touched {
                    group: "apps".into(),
                    resource: "deployments".into(),
                },
                Touched {
                    group: "".into(),
                    resource: "services".into(),
                },
                Touched {
                    group: "apps".into(),
                    resource: "deployments".into(),
                },
            ],
        );
        let apps = rules
            .iter()
            .find(|r| r.api_groups.as_deref() == Some(&["apps".to_string()][..]))
            .expect("apps");
        assert_eq!(
            apps.resources.as_deref(),
            Some(&["deployments".to_string()][..])
        );
        assert_eq!(
            Holder::parse("serviceaccount:fleetdeck/executor"),
            Some(Holder::ServiceAccount {
                namespace: "fleetdeck".into(),
                name: "executor".into()
            })
        );
        assert_eq!(Holder::parse("user:"), None);
        assert_eq!(Holder::parse("robot:x"), None);
    }
}
