//! The fixture fleet's findings facts, for screens and snapshots: a serving certificate
//! about to expire and a webhook failing closed on eu-fra-prod-01, a failing etcd check,
//! our requests in global-default and an Application out of sync on eu-fra-prod-02, a
//! suspended Kustomization on us-east-stg-01.

use std::sync::Arc;

use jiff::{SignedDuration, Timestamp};

use super::fixtures::now;
use crate::model::findings::{
    CertSource, CertificateFact, ClusterFacts, FailurePolicy, FlowUse, GitOpsHealth, GitOpsKind,
    GitOpsObject, HealthCheck, NamespaceSelector, Read, RequestStats, ServiceRef, SyncState,
    WebhookFact, WebhookKind, WebhookRule,
};

fn at(offset: SignedDuration) -> Timestamp {
    now() + offset
}

fn flows(schema: &str, level: &str) -> Read<Vec<FlowUse>> {
    Read::Known(vec![FlowUse {
        flow_schema: schema.into(),
        priority_level: level.into(),
        resolved: true,
        requests: 42,
    }])
}

fn base(schema: &str, level: &str) -> ClusterFacts {
    ClusterFacts {
        read_at: Some(at(SignedDuration::from_mins(-2))),
        certificates: vec![CertificateFact {
            source: CertSource::KubeconfigCa,
            subject: "kubernetes".into(),
            not_after: Read::Known(at(SignedDuration::from_hours(24 * 900))),
        }],
        webhooks: Read::Known(Vec::new()),
        api_services: Read::Known(Vec::new()),
        flows: flows(schema, level),
        readyz: Read::Known(vec![HealthCheck {
            name: "etcd".into(),
            ok: true,
            message: "ok".into(),
            failing_since: None,
        }]),
        livez: Read::Known(Vec::new()),
        requests: Some(RequestStats {
            window: std::time::Duration::from_secs(300),
            requests: 42,
            errors: 0,
            throttled: 0,
            p50_ms: Some(8.0),
            p99_ms: Some(40.0),
            throttled_total: 0,
        }),
        gitops: Read::Known(Vec::new()),
    }
}

/// The facts of fixture cluster `i` (see [`super::fixtures::snapshot`]), if it has any.
pub fn facts(i: usize) -> Option<Arc<ClusterFacts>> {
    let mut f = match i {
        0 => {
            let mut f = base("fleetdeck", "fleetdeck");
            f.certificates.push(CertificateFact {
                source: CertSource::ServingCertificate,
                subject: "kube-apiserver".into(),
                not_after: Read::Known(at(SignedDuration::from_hours(24 * 5 + 6))),
            });
            f.webhooks = Read::Known(vec![WebhookFact {
                kind: WebhookKind::ValidatingWebhookConfiguration,
                configuration: "policy".into(),
                name: "validate.policy.example.com".into(),
                failure_policy: FailurePolicy::Fail,
                namespace_selector: NamespaceSelector::default(),
                rules: vec![WebhookRule {
                    operations: vec!["CREATE".into(), "UPDATE".into()],
                    api_groups: vec![String::new()],
                    resources: vec!["pods".into()],
                    scope: "*".into(),
                }],
                timeout_seconds: 5,
                service: Some(ServiceRef {
                    namespace: "policy".into(),
                    name: "policy-webhook".into(),
                }),
                ready_endpoints: Some(Read::Known(0)),
            }]);
            f
        }
        1 => {
            let mut f = base("global-default", "global-default");
            f.readyz = Read::Known(vec![HealthCheck {
                name: "etcd".into(),
                ok: false,
                message: "failed: reason withheld".into(),
                failing_since: Some(at(SignedDuration::from_mins(-12))),
            }]);
            f.gitops = Read::Known(vec![GitOpsObject {
                kind: GitOpsKind::ArgoApplication,
                namespace: "argocd".into(),
                name: "shop".into(),
                sync: SyncState::OutOfSync,
                health: GitOpsHealth::Progressing,
                suspended: false,
                suspended_note: None,
                since: Some(at(SignedDuration::from_hours(-2))),
                message: None,
            }]);
            f
        }
        2 => {
            let mut f = base("fleetdeck", "fleetdeck");
            f.gitops = Read::Known(vec![GitOpsObject {
                kind: GitOpsKind::FluxKustomization,
                namespace: "flux-system".into(),
                name: "apps".into(),
                sync: SyncState::Synced,
                health: GitOpsHealth::Healthy,
                suspended: true,
                suspended_note: Some("by bob@ops at 2026-11-30 09:12 UTC: incident 4411".into()),
                since: None,
                message: None,
            }]);
            f
        }
        _ => return None,
    };
    f.read_at = Some(at(SignedDuration::from_mins(-2)));
    Some(Arc::new(f))
}
