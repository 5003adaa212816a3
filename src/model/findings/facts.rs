//! The slim facts the rules judge, one set per cluster, as the adapters read them (at a
//! slow cadence, with the least privilege needed). Each fact is read or unknown with the
//! reason; nothing absent is taken for fine.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

use super::selector::NamespaceSelector;

/// A fact as it was read: known, or unknown and why (`403 Forbidden listing
/// validatingwebhookconfigurations`, `cluster Unreachable`, `not read yet`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "read", content = "value", rename_all = "camelCase")]
pub enum Read<T> {
    /// Read.
    Known(T),
    /// Not read, and why.
    Unknown(String),
}

impl<T> Read<T> {
    /// Not read yet (the default of every fact before the first read).
    pub fn not_yet() -> Self {
        Read::Unknown("not read yet".into())
    }

    /// What was read, if it was.
    pub fn known(&self) -> Option<&T> {
        match self {
            Read::Known(t) => Some(t),
            Read::Unknown(_) => None,
        }
    }
}

impl<T> Default for Read<T> {
    fn default() -> Self {
        Read::not_yet()
    }
}

/// Everything the rules know about one cluster's API server and its objects.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterFacts {
    /// When the facts were last read (each part may be older: see its own time).
    pub read_at: Option<Timestamp>,
    /// Certificates and credentials with their expiry.
    pub certificates: Vec<CertificateFact>,
    /// Admission webhooks (validating and mutating).
    pub webhooks: Read<Vec<WebhookFact>>,
    /// Aggregated APIs (`APIService`s with a service).
    pub api_services: Read<Vec<ApiServiceFact>>,
    /// The priority levels fleetdeck's own requests were classified into.
    pub flows: Read<Vec<FlowUse>>,
    /// `/readyz?verbose`, one entry per check.
    pub readyz: Read<Vec<HealthCheck>>,
    /// `/livez?verbose`, one entry per check (etcd among them).
    pub livez: Read<Vec<HealthCheck>>,
    /// fleetdeck's own requests to the cluster over the last minutes.
    pub requests: Option<RequestStats>,
    /// GitOps objects (Argo CD Applications, Flux Kustomizations and HelmReleases);
    /// known and empty where no GitOps API is served.
    pub gitops: Read<Vec<GitOpsObject>>,
    /// What each identity fleetdeck acts as may do there (one per job with a context
    /// of its own, and the read identity).
    pub privileges: Vec<PrivilegeFact>,
}

/// What one of fleetdeck's identities may do on a cluster, as a SelfSubjectRulesReview
/// answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrivilegeFact {
    /// The jobs the identity does: the read identity also does every job the ledger
    /// names no context of its own for.
    pub jobs: Vec<crate::model::ledger::Job>,
    /// The kubeconfig user.
    pub user: String,
    /// Its rules on resources, or why they could not be read.
    pub rules: Read<Vec<GrantedRule>>,
    /// The server said its list may be incomplete (an authorizer other than RBAC).
    pub incomplete: bool,
}

/// One rule an identity holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantedRule {
    /// API groups (`*` for all).
    pub groups: Vec<String>,
    /// Resources (`*` for all).
    pub resources: Vec<String>,
    /// Verbs (`*` for all).
    pub verbs: Vec<String>,
}

/// Where a certificate or credential comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CertSource {
    /// The API server's serving certificate, from the TLS handshake.
    ServingCertificate,
    /// The CA the kubeconfig trusts for this cluster.
    KubeconfigCa,
    /// The client certificate the kubeconfig authenticates with.
    ClientCertificate,
    /// The credential an exec plugin hands out (its `expirationTimestamp`).
    ExecCredential,
    /// The `caBundle` an admission webhook trusts its service with.
    WebhookCaBundle {
        /// `ValidatingWebhookConfiguration/NAME` or `MutatingWebhookConfiguration/NAME`.
        configuration: String,
        /// The webhook's name.
        webhook: String,
    },
    /// The `caBundle` an aggregated API's APIService trusts its service with.
    ApiServiceCaBundle {
        /// The APIService's name (`v1beta1.metrics.k8s.io`).
        name: String,
    },
}

impl CertSource {
    /// As people name it: `serving certificate`, `webhook caBundle of
    /// ValidatingWebhookConfiguration/kyverno (validate.kyverno.svc)`.
    pub fn describe(&self) -> String {
        match self {
            CertSource::ServingCertificate => "API server serving certificate".into(),
            CertSource::KubeconfigCa => "kubeconfig CA".into(),
            CertSource::ClientCertificate => "kubeconfig client certificate".into(),
            CertSource::ExecCredential => "exec plugin credential".into(),
            CertSource::WebhookCaBundle {
                configuration,
                webhook,
            } => format!("caBundle of {configuration} ({webhook})"),
            CertSource::ApiServiceCaBundle { name } => format!("caBundle of APIService/{name}"),
        }
    }

    /// A short stable key (no spaces): `serving`, `webhook/ValidatingWebhookConfiguration/x/y`.
    pub fn key(&self) -> String {
        match self {
            CertSource::ServingCertificate => "serving".into(),
            CertSource::KubeconfigCa => "kubeconfigCa".into(),
            CertSource::ClientCertificate => "clientCertificate".into(),
            CertSource::ExecCredential => "execCredential".into(),
            CertSource::WebhookCaBundle {
                configuration,
                webhook,
            } => format!("caBundle/{configuration}/{webhook}"),
            CertSource::ApiServiceCaBundle { name } => format!("caBundle/APIService/{name}"),
        }
    }
}

/// One certificate (or credential) and when it stops being valid.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CertificateFact {
    /// Where it comes from.
    pub source: CertSource,
    /// Its subject's common name (or what names it), for people.
    pub subject: String,
    /// When it expires (the earliest `notAfter` of the certificates in a bundle).
    pub not_after: Read<Timestamp>,
}

/// Which kind of admission webhook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum WebhookKind {
    /// `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration.
    ValidatingWebhookConfiguration,
    /// `admissionregistration.k8s.io/v1` MutatingWebhookConfiguration.
    MutatingWebhookConfiguration,
}

impl WebhookKind {
    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            WebhookKind::ValidatingWebhookConfiguration => "ValidatingWebhookConfiguration",
            WebhookKind::MutatingWebhookConfiguration => "MutatingWebhookConfiguration",
        }
    }
}

/// What the API server does when the webhook cannot be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FailurePolicy {
    /// The request is refused (fails closed): the default.
    Fail,
    /// The request goes on without the webhook.
    Ignore,
}

/// A `namespace/name` of a Service.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceRef {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

impl std::fmt::Display for ServiceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// One rule of a webhook: which operations on which resources it is called for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookRule {
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    pub operations: Vec<String>,
    /// API groups (`""` is core, `*` all).
    pub api_groups: Vec<String>,
    /// Resources (`pods`, `*`, `*/*`).
    pub resources: Vec<String>,
    /// `Namespaced`, `Cluster` or `*`.
    pub scope: String,
}

/// One admission webhook, as far as the rules need it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookFact {
    /// Validating or mutating.
    pub kind: WebhookKind,
    /// The configuration's name.
    pub configuration: String,
    /// The webhook's name within it.
    pub name: String,
    /// `Fail` (the default) or `Ignore`.
    pub failure_policy: FailurePolicy,
    /// Which namespaces' objects it is called for (empty: all).
    pub namespace_selector: NamespaceSelector,
    /// Its rules.
    pub rules: Vec<WebhookRule>,
    /// Seconds the API server waits for it (default 10, at most 30).
    pub timeout_seconds: i32,
    /// The service it calls, when it calls one (not a URL).
    pub service: Option<ServiceRef>,
    /// Ready endpoints behind that service, when read.
    pub ready_endpoints: Option<Read<u32>>,
}

/// One aggregated API.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiServiceFact {
    /// `v1beta1.metrics.k8s.io`.
    pub name: String,
    /// The service behind it.
    pub service: ServiceRef,
    /// Its `Available` condition: `Some(true)`, `Some(false)` with the message, or unset.
    pub available: Option<bool>,
    /// The condition's reason and message when not available.
    pub message: Option<String>,
    /// Ready endpoints behind its service, when read.
    pub ready_endpoints: Option<Read<u32>>,
}

/// A flow our requests were classified into (`X-Kubernetes-PF-FlowSchema-UID` and
/// `X-Kubernetes-PF-PriorityLevel-UID` response headers), resolved to names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowUse {
    /// The FlowSchema's name, or its UID when it could not be resolved.
    pub flow_schema: String,
    /// The PriorityLevelConfiguration's name, or its UID when it could not be resolved.
    pub priority_level: String,
    /// Whether the names were resolved (the objects were listed and found).
    pub resolved: bool,
    /// Responses that carried this pair.
    pub requests: u64,
}

/// One `/readyz` or `/livez` check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthCheck {
    /// `etcd`, `informer-sync`, `poststarthook/…`.
    pub name: String,
    /// Whether it passed.
    pub ok: bool,
    /// What the server said about it (`reason withheld`).
    pub message: String,
    /// Since when it has been failing, as first seen by fleetdeck.
    pub failing_since: Option<Timestamp>,
}

/// fleetdeck's own requests to one cluster over a recent window (from its own client:
/// no extra request is made to measure them).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestStats {
    /// The window the numbers cover.
    #[serde(serialize_with = "seconds")]
    pub window: Duration,
    /// Responses (and failures) in the window; watches count once, when they start.
    pub requests: u64,
    /// Of those, server errors (5xx) and failures to get an answer at all.
    pub errors: u64,
    /// Of those, answers 429 (Too Many Requests).
    pub throttled: u64,
    /// Median time to the response's headers, in milliseconds.
    pub p50_ms: Option<f64>,
    /// 99th percentile of the same.
    pub p99_ms: Option<f64>,
    /// 429 answers since fleetdeck started watching the cluster.
    pub throttled_total: u64,
}

/// Which GitOps tool's object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum GitOpsKind {
    /// `argoproj.io/v1alpha1` Application.
    ArgoApplication,
    /// `kustomize.toolkit.fluxcd.io/v1` Kustomization.
    FluxKustomization,
    /// `helm.toolkit.fluxcd.io/v2` HelmRelease.
    FluxHelmRelease,
}

impl GitOpsKind {
    /// The kind as kubectl names it.
    pub fn kind(self) -> &'static str {
        match self {
            GitOpsKind::ArgoApplication => "Application",
            GitOpsKind::FluxKustomization => "Kustomization",
            GitOpsKind::FluxHelmRelease => "HelmRelease",
        }
    }
}

/// Whether a GitOps object's live state matches its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SyncState {
    /// Matches.
    Synced,
    /// Differs (Argo CD `OutOfSync`; Flux `Ready=False`).
    OutOfSync,
    /// Not reported.
    Unknown,
}

/// A GitOps object's health as its tool reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum GitOpsHealth {
    /// Healthy.
    Healthy,
    /// Working towards healthy.
    Progressing,
    /// Failing.
    Degraded,
    /// Its resources are missing.
    Missing,
    /// Not reported.
    Unknown,
}

/// One Argo CD Application or Flux Kustomization/HelmRelease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GitOpsObject {
    /// Which tool's object.
    pub kind: GitOpsKind,
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// In sync or not.
    pub sync: SyncState,
    /// Health.
    pub health: GitOpsHealth,
    /// Whether its automatic sync is suspended (Flux `spec.suspend: true`; an Argo CD
    /// Application whose automated sync fleetdeck turned off).
    pub suspended: bool,
    /// Who suspended it and why, from the annotation fleetdeck writes (if it did).
    pub suspended_note: Option<String>,
    /// Since when it has been out of sync or not healthy (a condition's transition time,
    /// else when fleetdeck first saw it so).
    pub since: Option<Timestamp>,
    /// The tool's message, if any.
    pub message: Option<String>,
}

impl GitOpsObject {
    /// `Application argocd/shop`.
    pub fn describe(&self) -> String {
        format!("{} {}/{}", self.kind.kind(), self.namespace, self.name)
    }
}

/// Durations in JSON as whole seconds.
fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_secs())
}
