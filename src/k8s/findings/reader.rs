//! Reading one cluster's findings facts, with the least privilege needed (`list` on a few
//! kinds, `get` on `/readyz` and `/livez`) and few requests: one round is the discovery
//! of API groups, the two webhook configuration lists, APIServices, the EndpointSlices of
//! the services they call, the two health endpoints and the GitOps kinds served — about
//! ten requests, every few minutes, through the cluster's own budgeted client.
//! FlowSchemas and PriorityLevelConfigurations are listed only when a response named one
//! not resolved yet; the serving certificate (a TLS handshake) and the exec plugin's
//! credential are read hourly.
//!
//! Over 600 lines: one reader for every fact the findings rules take, so that one round's
//! request budget is planned and spent in one place; a fact's reader moves out only with
//! its own budget.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use http::Request;
use http_body_util::BodyExt;
use jiff::Timestamp;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, RuleWithOperations, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::flowcontrol::v1::{FlowSchema, PriorityLevelConfiguration};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService;
use kube::api::{ApiResource, DynamicObject, ListParams};
use kube::{Api, Client};

use super::credentials::{ContextCredentials, exec_credential};
use super::gitops::{KINDS, location, read_object};
use super::health::{FailingSince, parse_verbose};
use super::observe::RequestLog;
use super::tls_probe::serving_certificate;
use super::x509::earliest_expiry;
use crate::k8s::reflect::describe_error;
use crate::model::findings::{
    ApiServiceFact, CertSource, CertificateFact, ClusterFacts, FailurePolicy, FlowUse,
    GitOpsObject, NamespaceSelector, Read, SelectorOp, SelectorRequirement, ServiceRef,
    WebhookFact, WebhookKind, WebhookRule,
};

/// How often and how long.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FactsOptions {
    /// Between two rounds of reads (config `[findings] interval`).
    pub interval: Duration,
    /// Between two reads of the serving certificate and the exec credential.
    pub certificate_interval: Duration,
    /// One read may take this long before it is given up as unknown.
    pub timeout: Duration,
}

impl Default for FactsOptions {
    fn default() -> Self {
        FactsOptions {
            interval: Duration::from_secs(300),
            certificate_interval: Duration::from_secs(3600),
            timeout: Duration::from_secs(10),
        }
    }
}

/// One cluster's facts reader; it remembers what it saw between rounds (since when a
/// check fails, flow names by UID).
pub struct FactsReader {
    client: Client,
    /// The identities fleetdeck acts as on the cluster, for the least-privilege rule.
    identities: Vec<super::privilege::Identity>,
    log: RequestLog,
    credentials: ContextCredentials,
    options: FactsOptions,
    readyz: FailingSince,
    livez: FailingSince,
    first_seen: BTreeMap<String, Timestamp>,
    flow_names: BTreeMap<String, String>,
    slow: Option<(tokio::time::Instant, Vec<CertificateFact>)>,
}

fn unknown<T>(what: &str, error: &kube::Error) -> Read<T> {
    Read::Unknown(format!("{what}: {}", describe_error(error)))
}

/// The API groups the server serves, with their versions.
type Groups = BTreeMap<String, Vec<String>>;

impl FactsReader {
    /// A reader over `client` (the cluster's budgeted client), whose requests `log`
    /// records, for the context whose kubeconfig entries are `credentials`, asking what
    /// each of `identities` may do.
    pub fn new(
        client: Client,
        log: RequestLog,
        credentials: ContextCredentials,
        identities: Vec<super::privilege::Identity>,
        options: FactsOptions,
    ) -> Self {
        FactsReader {
            client,
            identities,
            log,
            credentials,
            options,
            readyz: FailingSince::default(),
            livez: FailingSince::default(),
            first_seen: BTreeMap::new(),
            flow_names: BTreeMap::new(),
            slow: None,
        }
    }

    /// One round of reads.
    pub async fn read(&mut self) -> ClusterFacts {
        let now = Timestamp::now();
        let mut facts = ClusterFacts {
            read_at: Some(now),
            requests: Some(self.log.stats()),
            ..ClusterFacts::default()
        };
        facts.certificates = self.credentials.certificates();
        // What the credential in hand expires at, as the credential layer holds it: read
        // each round (a short-lived token is renewed every few minutes), never by running
        // the plugin again.
        if let Some(cell) = &self.credentials.credential {
            facts.certificates.extend(exec_credential(cell));
        }
        facts.certificates.extend(self.slow_certificates().await);
        facts.privileges =
            super::privilege::read_privileges(&self.identities, self.options.timeout).await;
        let groups = match self.timed(self.client.list_api_groups()).await {
            Ok(list) => list
                .groups
                .into_iter()
                .map(|g| (g.name, g.versions.into_iter().map(|v| v.version).collect()))
                .collect::<Groups>(),
            Err(e) => {
                let why = format!("API discovery: {}", describe_error(&e));
                facts.webhooks = Read::Unknown(why.clone());
                facts.api_services = Read::Unknown(why.clone());
                facts.gitops = Read::Unknown(why.clone());
                facts.flows = Read::Unknown(why.clone());
                facts.readyz = Read::Unknown(why.clone());
                facts.livez = Read::Unknown(why);
                return facts;
            }
        };
        let mut services: BTreeSet<ServiceRef> = BTreeSet::new();
        let (webhooks, bundles) = self.webhooks(&groups).await;
        let (api_services, api_bundles) = self.api_services(&groups).await;
        for w in webhooks.known().into_iter().flatten() {
            services.extend(w.service.clone());
        }
        for a in api_services.known().into_iter().flatten() {
            services.insert(a.service.clone());
        }
        facts.certificates.extend(bundles);
        facts.certificates.extend(api_bundles);
        let endpoints = self.ready_endpoints(&groups, &services).await;
        facts.webhooks = match webhooks {
            Read::Known(mut list) => {
                for w in &mut list {
                    w.ready_endpoints = w.service.as_ref().map(&endpoints);
                }
                Read::Known(list)
            }
            other => other,
        };
        facts.api_services = match api_services {
            Read::Known(mut list) => {
                for a in &mut list {
                    a.ready_endpoints = Some(endpoints(&a.service));
                }
                Read::Known(list)
            }
            other => other,
        };
        facts.flows = self.flows(&groups).await;
        facts.readyz = self.health("readyz", now).await;
        facts.livez = self.health("livez", now).await;
        facts.gitops = self.gitops(&groups, now).await;
        facts
    }

    async fn timed<T>(
        &self,
        read: impl std::future::Future<Output = Result<T, kube::Error>>,
    ) -> Result<T, kube::Error> {
        match tokio::time::timeout(self.options.timeout, read).await {
            Ok(result) => result,
            Err(_) => Err(kube::Error::Service(
                format!("no answer within {}s", self.options.timeout.as_secs()).into(),
            )),
        }
    }

    /// The serving certificate, read again once it is older than the certificate
    /// interval.
    async fn slow_certificates(&mut self) -> Vec<CertificateFact> {
        let fresh = self
            .slow
            .as_ref()
            .is_some_and(|(at, _)| at.elapsed() < self.options.certificate_interval);
        if !fresh {
            let mut out = Vec::new();
            if let Some(server) = &self.credentials.server {
                match serving_certificate(
                    server,
                    self.credentials.tls_server_name.as_deref(),
                    self.options.timeout,
                )
                .await
                {
                    Ok(Some(info)) => out.push(CertificateFact {
                        source: CertSource::ServingCertificate,
                        subject: info.subject,
                        not_after: Read::Known(info.not_after),
                    }),
                    Ok(None) => {}
                    Err(why) => out.push(CertificateFact {
                        source: CertSource::ServingCertificate,
                        subject: String::new(),
                        not_after: Read::Unknown(why),
                    }),
                }
            }
            self.slow = Some((tokio::time::Instant::now(), out));
        }
        self.slow
            .as_ref()
            .map(|(_, facts)| facts.clone())
            .unwrap_or_default()
    }

    async fn webhooks(&self, groups: &Groups) -> (Read<Vec<WebhookFact>>, Vec<CertificateFact>) {
        if !serves(groups, "admissionregistration.k8s.io", "v1") {
            return (
                Read::Unknown("the server does not serve admissionregistration.k8s.io/v1".into()),
                Vec::new(),
            );
        }
        let validating: Api<ValidatingWebhookConfiguration> = Api::all(self.client.clone());
        let mutating: Api<MutatingWebhookConfiguration> = Api::all(self.client.clone());
        let mut out = Vec::new();
        let mut bundles = Vec::new();
        // Both kinds of configuration carry the same webhook fields: read each into one
        // shape, then judge them in one loop.
        let mut hooks: Vec<Hook> = Vec::new();
        match self.timed(validating.list(&ListParams::default())).await {
            Ok(list) => {
                for config in list.items {
                    let configuration = config.metadata.name.clone().unwrap_or_default();
                    hooks.extend(config.webhooks.into_iter().flatten().map(|w| Hook {
                        kind: WebhookKind::ValidatingWebhookConfiguration,
                        configuration: configuration.clone(),
                        name: w.name,
                        failure_policy: w.failure_policy,
                        namespace_selector: w.namespace_selector,
                        rules: w.rules.unwrap_or_default(),
                        timeout_seconds: w.timeout_seconds,
                        client_config: w.client_config,
                    }));
                }
            }
            Err(e) => {
                return (
                    unknown("list validatingwebhookconfigurations", &e),
                    Vec::new(),
                );
            }
        }
        match self.timed(mutating.list(&ListParams::default())).await {
            Ok(list) => {
                for config in list.items {
                    let configuration = config.metadata.name.clone().unwrap_or_default();
                    hooks.extend(config.webhooks.into_iter().flatten().map(|w| Hook {
                        kind: WebhookKind::MutatingWebhookConfiguration,
                        configuration: configuration.clone(),
                        name: w.name,
                        failure_policy: w.failure_policy,
                        namespace_selector: w.namespace_selector,
                        rules: w.rules.unwrap_or_default(),
                        timeout_seconds: w.timeout_seconds,
                        client_config: w.client_config,
                    }));
                }
            }
            Err(e) => {
                return (
                    unknown("list mutatingwebhookconfigurations", &e),
                    Vec::new(),
                );
            }
        }
        for hook in hooks {
            let fact = webhook(
                hook.kind,
                &hook.configuration,
                &hook.name,
                hook.failure_policy.as_deref(),
                hook.namespace_selector.as_ref(),
                &hook.rules,
                hook.timeout_seconds,
                hook.client_config
                    .service
                    .as_ref()
                    .map(|s| (s.namespace.clone(), s.name.clone())),
            );
            bundles.extend(bundle(
                &fact,
                hook.client_config
                    .ca_bundle
                    .as_ref()
                    .map(|b| b.0.as_slice()),
            ));
            out.push(fact);
        }
        (Read::Known(out), bundles)
    }

    async fn api_services(
        &self,
        groups: &Groups,
    ) -> (Read<Vec<ApiServiceFact>>, Vec<CertificateFact>) {
        if !serves(groups, "apiregistration.k8s.io", "v1") {
            return (
                Read::Unknown("the server does not serve apiregistration.k8s.io/v1".into()),
                Vec::new(),
            );
        }
        let api: Api<APIService> = Api::all(self.client.clone());
        let list = match self.timed(api.list(&ListParams::default())).await {
            Ok(list) => list,
            Err(e) => return (unknown("list apiservices", &e), Vec::new()),
        };
        let mut out = Vec::new();
        let mut bundles = Vec::new();
        for s in list.items {
            let name = s.metadata.name.clone().unwrap_or_default();
            let Some(spec) = s.spec else { continue };
            // Local APIs (served by the API server itself) have no service.
            let Some(service) = spec.service else {
                continue;
            };
            let condition = s
                .status
                .and_then(|st| st.conditions)
                .and_then(|c| c.into_iter().find(|c| c.type_ == "Available"));
            if let Some(bytes) = spec.ca_bundle.as_ref().filter(|b| !b.0.is_empty()) {
                bundles.push(pem_fact(
                    CertSource::ApiServiceCaBundle { name: name.clone() },
                    &bytes.0,
                ));
            }
            out.push(ApiServiceFact {
                name,
                service: ServiceRef {
                    namespace: service.namespace.unwrap_or_default(),
                    name: service.name.unwrap_or_default(),
                },
                available: condition.as_ref().map(|c| c.status == "True"),
                message: condition.filter(|c| c.status != "True").map(|c| {
                    format!(
                        "{}: {}",
                        c.reason.unwrap_or_default(),
                        c.message.unwrap_or_default()
                    )
                }),
                ready_endpoints: None,
            });
        }
        (Read::Known(out), bundles)
    }

    /// Ready endpoints per service, from its EndpointSlices (one list per service).
    async fn ready_endpoints(
        &self,
        groups: &Groups,
        services: &BTreeSet<ServiceRef>,
    ) -> impl Fn(&ServiceRef) -> Read<u32> + use<> {
        let mut counts: BTreeMap<ServiceRef, Read<u32>> = BTreeMap::new();
        let served = serves(groups, "discovery.k8s.io", "v1");
        for service in services {
            let count = if !served {
                Read::Unknown("the server does not serve discovery.k8s.io/v1".into())
            } else {
                let api: Api<EndpointSlice> =
                    Api::namespaced(self.client.clone(), &service.namespace);
                let params = ListParams::default()
                    .labels(&format!("kubernetes.io/service-name={}", service.name));
                match self.timed(api.list(&params)).await {
                    Ok(list) => Read::Known(
                        list.items
                            .iter()
                            .flat_map(|s| s.endpoints.iter())
                            .filter(|e| e.conditions.as_ref().and_then(|c| c.ready).unwrap_or(true))
                            .map(|e| e.addresses.len() as u32)
                            .sum(),
                    ),
                    Err(e) => unknown(&format!("list endpointslices of service {service}"), &e),
                }
            };
            counts.insert(service.clone(), count);
        }
        move |service| {
            counts
                .get(service)
                .cloned()
                .unwrap_or_else(|| Read::Unknown("not read".into()))
        }
    }

    /// The flows our requests were classified into, by name (listing the flow-control
    /// objects only when a UID is new).
    async fn flows(&mut self, groups: &Groups) -> Read<Vec<FlowUse>> {
        let seen = self.log.flows();
        let unresolved = seen.iter().any(|((fs, pl), _)| {
            !self.flow_names.contains_key(fs) || !self.flow_names.contains_key(pl)
        });
        if unresolved && serves(groups, "flowcontrol.apiserver.k8s.io", "v1") {
            let schemas: Api<FlowSchema> = Api::all(self.client.clone());
            let levels: Api<PriorityLevelConfiguration> = Api::all(self.client.clone());
            match self.timed(schemas.list(&ListParams::default())).await {
                Ok(list) => self.remember(list.items.iter().map(|o| &o.metadata)),
                Err(e) => return unknown("list flowschemas", &e),
            }
            match self.timed(levels.list(&ListParams::default())).await {
                Ok(list) => self.remember(list.items.iter().map(|o| &o.metadata)),
                Err(e) => return unknown("list prioritylevelconfigurations", &e),
            }
        }
        Read::Known(
            seen.into_iter()
                .map(|((fs, pl), requests)| {
                    let name = |uid: &str| self.flow_names.get(uid).cloned();
                    FlowUse {
                        resolved: name(&fs).is_some() && name(&pl).is_some(),
                        flow_schema: name(&fs).unwrap_or(fs),
                        priority_level: name(&pl).unwrap_or(pl),
                        requests,
                    }
                })
                .collect(),
        )
    }

    fn remember<'a>(
        &mut self,
        metas: impl Iterator<Item = &'a k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>,
    ) {
        for meta in metas {
            if let (Some(uid), Some(name)) = (&meta.uid, &meta.name) {
                self.flow_names.insert(uid.clone(), name.clone());
            }
        }
    }

    /// `/readyz?verbose` or `/livez?verbose`: 200 and 500 both list the checks.
    async fn health(
        &mut self,
        endpoint: &str,
        now: Timestamp,
    ) -> Read<Vec<crate::model::findings::HealthCheck>> {
        let request = match Request::get(format!("/{endpoint}?verbose")).body(Vec::new()) {
            Ok(r) => r,
            Err(e) => return Read::Unknown(e.to_string()),
        };
        let answer = async {
            let response = self
                .client
                .send(request.map(kube::client::Body::from))
                .await?;
            let status = response.status();
            let body = response
                .into_body()
                .collect()
                .await
                .map_err(|e| kube::Error::Service(Box::new(e)))?
                .to_bytes();
            Ok::<_, kube::Error>((status, String::from_utf8_lossy(&body).into_owned()))
        };
        let (status, text) = match self.timed(answer).await {
            Ok(a) => a,
            Err(e) => return unknown(&format!("GET /{endpoint}"), &e),
        };
        match parse_verbose(&text) {
            Some(parsed) if status.is_success() || status.as_u16() == 500 => {
                let since = if endpoint == "livez" {
                    &mut self.livez
                } else {
                    &mut self.readyz
                };
                Read::Known(since.judge(parsed, now))
            }
            _ => {
                // An API Status says why in its message; anything else, its first line.
                let said = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
                    .unwrap_or_else(|| text.lines().next().unwrap_or("").to_string());
                Read::Unknown(format!(
                    "GET /{endpoint}?verbose answered {status}: {}",
                    said.chars().take(160).collect::<String>()
                ))
            }
        }
    }

    async fn gitops(&mut self, groups: &Groups, now: Timestamp) -> Read<Vec<GitOpsObject>> {
        let mut out = Vec::new();
        let mut still_troubled = BTreeSet::new();
        for kind in KINDS {
            let (group, versions, plural) = location(kind);
            let Some(version) = groups
                .get(group)
                .and_then(|served| versions.iter().find(|v| served.iter().any(|s| s == *v)))
            else {
                continue;
            };
            let resource = ApiResource {
                group: group.into(),
                version: (*version).into(),
                api_version: format!("{group}/{version}"),
                kind: kind.kind().into(),
                plural: plural.into(),
            };
            let api: Api<DynamicObject> = Api::all_with(self.client.clone(), &resource);
            let list = match self
                .timed(api.list(&ListParams::default().limit(500)))
                .await
            {
                Ok(list) => list,
                Err(e) => return unknown(&format!("list {plural}.{group}"), &e),
            };
            for object in list.items {
                let Ok(value) = serde_json::to_value(&object) else {
                    continue;
                };
                let first_seen = &mut self.first_seen;
                let read = read_object(kind, &value, &mut |key: &str| {
                    still_troubled.insert(key.to_string());
                    *first_seen.entry(key.to_string()).or_insert(now)
                });
                out.push(read);
            }
        }
        // What is no longer out of sync starts afresh the next time it is.
        self.first_seen.retain(|k, _| still_troubled.contains(k));
        Read::Known(out)
    }
}

fn serves(groups: &Groups, group: &str, version: &str) -> bool {
    groups
        .get(group)
        .is_some_and(|versions| versions.iter().any(|v| v == version))
}

fn pem_fact(source: CertSource, pem: &[u8]) -> CertificateFact {
    match std::str::from_utf8(pem)
        .map_err(|_| "not PEM text".to_string())
        .and_then(|text| earliest_expiry(text).map_err(|e| e.to_string()))
    {
        Ok(info) => CertificateFact {
            source,
            subject: info.subject,
            not_after: Read::Known(info.not_after),
        },
        Err(why) => CertificateFact {
            source,
            subject: String::new(),
            not_after: Read::Unknown(why),
        },
    }
}

fn bundle(webhook: &WebhookFact, ca_bundle: Option<&[u8]>) -> Option<CertificateFact> {
    let bytes = ca_bundle.filter(|b| !b.is_empty())?;
    Some(pem_fact(
        CertSource::WebhookCaBundle {
            configuration: format!("{}/{}", webhook.kind.name(), webhook.configuration),
            webhook: webhook.name.clone(),
        },
        bytes,
    ))
}

fn selector(selector: Option<&LabelSelector>) -> NamespaceSelector {
    let Some(selector) = selector else {
        return NamespaceSelector::default();
    };
    NamespaceSelector {
        match_labels: selector.match_labels.clone().unwrap_or_default(),
        match_expressions: selector
            .match_expressions
            .iter()
            .flatten()
            .filter_map(|e| {
                let operator = match e.operator.as_str() {
                    "In" => SelectorOp::In,
                    "NotIn" => SelectorOp::NotIn,
                    "Exists" => SelectorOp::Exists,
                    "DoesNotExist" => SelectorOp::DoesNotExist,
                    _ => return None,
                };
                Some(SelectorRequirement {
                    key: e.key.clone(),
                    operator,
                    values: e.values.clone().unwrap_or_default(),
                })
            })
            .collect(),
    }
}

/// One admission webhook as either kind of configuration lists it.
struct Hook {
    kind: WebhookKind,
    configuration: String,
    name: String,
    failure_policy: Option<String>,
    namespace_selector: Option<LabelSelector>,
    rules: Vec<RuleWithOperations>,
    timeout_seconds: Option<i32>,
    client_config: k8s_openapi::api::admissionregistration::v1::WebhookClientConfig,
}

#[allow(clippy::too_many_arguments)]
fn webhook(
    kind: WebhookKind,
    configuration: &str,
    name: &str,
    failure_policy: Option<&str>,
    namespace_selector: Option<&LabelSelector>,
    rules: &[RuleWithOperations],
    timeout_seconds: Option<i32>,
    service: Option<(String, String)>,
) -> WebhookFact {
    WebhookFact {
        kind,
        configuration: configuration.to_string(),
        name: name.to_string(),
        // The API's default is Fail.
        failure_policy: if failure_policy == Some("Ignore") {
            FailurePolicy::Ignore
        } else {
            FailurePolicy::Fail
        },
        namespace_selector: selector(namespace_selector),
        rules: rules
            .iter()
            .map(|r| WebhookRule {
                operations: r.operations.clone().unwrap_or_default(),
                api_groups: r.api_groups.clone().unwrap_or_default(),
                resources: r.resources.clone().unwrap_or_default(),
                scope: r.scope.clone().unwrap_or_else(|| "*".into()),
            })
            .collect(),
        timeout_seconds: timeout_seconds.unwrap_or(10),
        service: service.map(|(namespace, name)| ServiceRef { namespace, name }),
        ready_endpoints: None,
    }
}
