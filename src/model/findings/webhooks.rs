//! Rule 2: admission webhooks that can take a cluster down — `failurePolicy: Fail` with a
//! scope that includes `kube-system` (nothing there, the webhook's own pods included, can
//! be created while it is down) or every namespace, a timeout every request may wait for,
//! and a service with no ready endpoint behind it; aggregated APIs whose service has none
//! (discovery of their group fails, and with it namespace deletion).

use super::{
    ApiServiceFact, FailurePolicy, Finding, Measure, Read, RuleId, Severity, Thresholds,
    WebhookFact,
};
use crate::model::ledger::ClusterId;

fn webhook_subject(w: &WebhookFact) -> String {
    format!("{}/{} ({})", w.kind.name(), w.configuration, w.name)
}

fn webhook_key(rule: RuleId, w: &WebhookFact) -> String {
    format!(
        "{}/{}/{}/{}",
        rule.name(),
        w.kind.name(),
        w.configuration,
        w.name
    )
}

fn rules_line(w: &WebhookFact) -> String {
    let rules: Vec<String> = w
        .rules
        .iter()
        .map(|r| {
            let groups: Vec<&str> = r
                .api_groups
                .iter()
                .map(|g| if g.is_empty() { "core" } else { g.as_str() })
                .collect();
            format!(
                "{} {} ({})",
                r.operations.join(","),
                r.resources.join(","),
                groups.join(",")
            )
        })
        .collect();
    format!("rules: {}", rules.join("; "))
}

fn finding(
    cluster: &ClusterId,
    rule: RuleId,
    severity: Severity,
    w: &WebhookFact,
    summary: String,
    mut evidence: Vec<String>,
    silence: String,
) -> Finding {
    evidence.push(rules_line(w));
    Finding {
        summary_msg: None,
        silence_msg: None,
        cluster: cluster.clone(),
        rule,
        severity,
        key: webhook_key(rule, w),
        subject: webhook_subject(w),
        summary,
        evidence,
        measure: None,
        since: None,
        severity_since: None,
        silence,
    }
}

/// Findings for one cluster's admission webhooks.
pub(super) fn webhook_findings(
    cluster: &ClusterId,
    webhooks: &Read<Vec<WebhookFact>>,
    t: &Thresholds,
) -> Vec<Finding> {
    let webhooks = match webhooks {
        Read::Known(w) => w,
        Read::Unknown(why) => {
            return vec![super::judge::unknown(
                cluster,
                "webhooks",
                "admission webhooks",
                why,
            )];
        }
    };
    let mut out = Vec::new();
    for w in webhooks {
        let fails_closed = w.failure_policy == FailurePolicy::Fail;
        let scope = w.namespace_selector.describe();
        if fails_closed && w.namespace_selector.matches_kube_system() {
            out.push(finding(
                cluster,
                RuleId::WebhookFailClosed,
                Severity::Critical,
                w,
                format!("{} fails closed on kube-system", webhook_subject(w)),
                vec![
                    "failurePolicy: Fail".into(),
                    format!("namespaceSelector: {scope} (includes kube-system)"),
                    "while it cannot be called, nothing it matches in kube-system can be created or changed — the control plane's own add-ons (and this webhook's pods, if they live there) included".into(),
                ],
                "exclude kube-system in its namespaceSelector (kubernetes.io/metadata.name NotIn [kube-system]), or set failurePolicy: Ignore".into(),
            ).said(crate::i18n::Msg::new("fd-webhook-fail-closed-kube-system").arg("subject", webhook_subject(w)), crate::i18n::Msg::new("fd-fix-webhook-kube-system")));
        } else if fails_closed && w.namespace_selector.is_everything() {
            out.push(finding(
                cluster,
                RuleId::WebhookFailClosed,
                Severity::Warning,
                w,
                format!("{} fails closed on every namespace", webhook_subject(w)),
                vec!["failurePolicy: Fail".into(), format!("namespaceSelector: {scope}")],
                "limit its namespaceSelector to the namespaces it must guard, or set failurePolicy: Ignore".into(),
            ).said(crate::i18n::Msg::new("fd-webhook-fail-closed-everywhere").arg("subject", webhook_subject(w)), crate::i18n::Msg::new("fd-fix-webhook-everywhere")));
        }
        if w.timeout_seconds > t.webhook_timeout_seconds {
            let mut slow = finding(
                cluster,
                RuleId::WebhookSlow,
                if fails_closed {
                    Severity::Warning
                } else {
                    Severity::Info
                },
                w,
                format!(
                    "{} may hold every matching request for {}s",
                    webhook_subject(w),
                    w.timeout_seconds
                ),
                vec![
                    format!("timeoutSeconds: {}", w.timeout_seconds),
                    format!(
                        "failurePolicy: {}",
                        if fails_closed { "Fail" } else { "Ignore" }
                    ),
                ],
                format!(
                    "lower timeoutSeconds to {} or less",
                    t.webhook_timeout_seconds
                ),
            )
            .said(
                crate::i18n::Msg::new("fd-webhook-slow")
                    .arg("subject", webhook_subject(w))
                    .arg("seconds", w.timeout_seconds.to_string()),
                crate::i18n::Msg::new("fd-fix-webhook-slow")
                    .arg("seconds", t.webhook_timeout_seconds.to_string()),
            );
            slow.measure = Some(Measure {
                value: f64::from(w.timeout_seconds),
                threshold: Some(f64::from(t.webhook_timeout_seconds)),
                unit: "seconds",
            });
            out.push(slow);
        }
        if let (Some(service), Some(endpoints)) = (&w.service, &w.ready_endpoints) {
            match endpoints {
                Read::Known(0) => out.push(finding(
                    cluster,
                    RuleId::WebhookNoEndpoints,
                    if fails_closed {
                        Severity::Critical
                    } else {
                        Severity::Warning
                    },
                    w,
                    if fails_closed {
                        format!(
                            "{} has no ready endpoint: every request it matches is refused now",
                            webhook_subject(w)
                        )
                    } else {
                        format!(
                            "{} has no ready endpoint: requests it matches go through unchecked",
                            webhook_subject(w)
                        )
                    },
                    vec![
                        format!("service {service}: 0 ready endpoints"),
                        format!(
                            "failurePolicy: {}",
                            if fails_closed { "Fail" } else { "Ignore" }
                        ),
                    ],
                    format!("bring the pods behind service {service} back, or delete the webhook configuration if it is gone for good"),
                ).said(crate::i18n::Msg::new(if fails_closed { "fd-webhook-no-endpoint-refused" } else { "fd-webhook-no-endpoint-unchecked" }).arg("subject", webhook_subject(w)), crate::i18n::Msg::new("fd-fix-webhook-endpoints").arg("service", service.to_string()))),
                Read::Known(_) => {}
                Read::Unknown(why) => out.push(super::judge::unknown(
                    cluster,
                    &format!("endpoints/{service}"),
                    &format!("endpoints of webhook service {service}"),
                    why,
                )),
            }
        }
    }
    out
}

/// Findings for one cluster's aggregated APIs.
pub(super) fn api_service_findings(
    cluster: &ClusterId,
    services: &Read<Vec<ApiServiceFact>>,
) -> Vec<Finding> {
    let services = match services {
        Read::Known(s) => s,
        Read::Unknown(why) => {
            return vec![super::judge::unknown(
                cluster,
                "apiservices",
                "aggregated APIs",
                why,
            )];
        }
    };
    let mut out = Vec::new();
    for s in services {
        let no_endpoints = matches!(s.ready_endpoints, Some(Read::Known(0)));
        if s.available != Some(false) && !no_endpoints {
            continue;
        }
        let mut evidence = vec![format!("service {}", s.service)];
        if let Some(Read::Known(n)) = &s.ready_endpoints {
            evidence.push(format!("{n} ready endpoints"));
        }
        if let Some(message) = &s.message {
            evidence.push(format!("Available=False: {message}"));
        }
        evidence.push("while an aggregated API is unavailable, discovery of its group fails: namespace deletion and garbage collection stall, and kubectl warns on every call".into());
        out.push(Finding {
            summary_msg: Some(crate::i18n::Msg::new("fd-apiservice-unavailable").arg("name", s.name.to_string())),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-apiservice").arg("service", s.service.to_string()).arg("name", s.name.to_string())),
            cluster: cluster.clone(),
            rule: RuleId::WebhookNoEndpoints,
            severity: Severity::Critical,
            key: format!("webhookNoEndpoints/APIService/{}", s.name),
            subject: format!("APIService/{}", s.name),
            summary: format!("aggregated API {} is unavailable", s.name),
            evidence,
            measure: None,
            since: None,
            severity_since: None,
            silence: format!(
                "bring the pods behind service {} back, or delete APIService/{} if the API is gone for good",
                s.service, s.name
            ),
        });
    }
    out
}
