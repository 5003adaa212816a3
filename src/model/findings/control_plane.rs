//! Rule 4: control-plane health — each `/readyz` and `/livez` check (etcd among livez's),
//! and our own requests' error ratio and latency over the last minutes, measured by our
//! own client (no request is made to measure them).

use super::{Finding, HealthCheck, Measure, Read, RequestStats, RuleId, Severity, Thresholds};
use crate::model::duration::format_duration;
use crate::model::ledger::ClusterId;
use crate::model::text::count;

/// Findings for one health endpoint (`readyz` or `livez`).
pub(super) fn health_findings(
    cluster: &ClusterId,
    endpoint: &str,
    checks: &Read<Vec<HealthCheck>>,
) -> Vec<Finding> {
    let checks = match checks {
        Read::Known(c) => c,
        Read::Unknown(why) => {
            return vec![super::judge::unknown(
                cluster,
                endpoint,
                &format!("/{endpoint}?verbose"),
                why,
            )];
        }
    };
    let failing: Vec<&HealthCheck> = checks.iter().filter(|c| !c.ok).collect();
    failing
        .iter()
        .map(|check| {
            let consequence = match endpoint {
                "livez" => "a failing livez check gets the API server restarted",
                _ => "a failing readyz check takes the API server out of its load balancer",
            };
            Finding {
                summary_msg: Some(crate::i18n::Msg::new("fd-check-fails").arg("endpoint", endpoint).arg("check", check.name.to_string())),
                silence_msg: Some(crate::i18n::Msg::new("fd-fix-check").arg("endpoint", endpoint).arg("check", check.name.to_string())),
                cluster: cluster.clone(),
                rule: RuleId::HealthCheckFailing,
                severity: Severity::Critical,
                key: format!("healthCheckFailing/{endpoint}/{}", check.name),
                subject: format!("/{endpoint} check {}", check.name),
                summary: format!("{endpoint} check {} fails", check.name),
                evidence: vec![
                    format!("[-]{} {}", check.name, check.message),
                    format!(
                        "{} of {} {endpoint} checks fail",
                        failing.len(),
                        checks.len()
                    ),
                    consequence.to_string(),
                ],
                measure: None,
                since: check.failing_since,
                severity_since: check.failing_since,
                silence: format!(
                    "look at the API server's log for the {} check (kubectl get --raw '/{endpoint}/{}')",
                    check.name, check.name
                ),
            }
        })
        .collect()
}

/// Findings for our own requests: errors above the ratio, latency above the percentile.
pub(super) fn request_findings(
    cluster: &ClusterId,
    stats: Option<&RequestStats>,
    t: &Thresholds,
) -> Vec<Finding> {
    let Some(stats) = stats.filter(|s| s.requests >= t.request_min_samples.max(1)) else {
        return Vec::new();
    };
    let window = format_duration(stats.window);
    let mut out = Vec::new();
    let ratio = stats.errors as f64 / stats.requests as f64;
    if ratio > t.request_error_ratio {
        out.push(Finding {
            summary_msg: Some(crate::i18n::Msg::new("fd-request-errors").arg("percent", format!("{:.1}", ratio * 100.0)).arg("window", window.clone())),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-request-errors")),
            cluster: cluster.clone(),
            rule: RuleId::RequestErrors,
            severity: if ratio >= 0.5 {
                Severity::Critical
            } else {
                Severity::Warning
            },
            key: "requestErrors/ratio".into(),
            subject: "our requests".into(),
            summary: format!(
                "{:.1}% of our requests failed over the last {window}",
                ratio * 100.0
            ),
            evidence: vec![
                format!(
                    "{} of {} requests answered 5xx or not at all",
                    count(stats.errors as i64),
                    count(stats.requests as i64)
                ),
                format!("threshold {:.1}%", t.request_error_ratio * 100.0),
            ],
            measure: Some(Measure {
                value: (ratio * 10_000.0).round() / 10_000.0,
                threshold: Some(t.request_error_ratio),
                unit: "ratio",
            }),
            since: None,
            severity_since: None,
            silence: "look at the API server and what stands between it and fleetdeck (load balancer, network)".into(),
        });
    }
    if let Some(p99) = stats.p99_ms.filter(|p| *p > t.request_p99_ms) {
        out.push(Finding {
            summary_msg: Some(
                crate::i18n::Msg::new("fd-request-latency")
                    .arg("p99", format!("{p99:.0}"))
                    .arg("window", window.clone()),
            ),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-latency")),
            cluster: cluster.clone(),
            rule: RuleId::RequestErrors,
            severity: Severity::Warning,
            key: "requestErrors/latency".into(),
            subject: "our requests".into(),
            summary: format!("our requests' p99 latency is {p99:.0} ms over the last {window}"),
            evidence: vec![
                format!(
                    "p50 {} ms, p99 {p99:.0} ms over {} requests (time to the response's headers)",
                    stats.p50_ms.map_or("-".to_string(), |p| format!("{p:.0}")),
                    count(stats.requests as i64)
                ),
                format!("threshold p99 {:.0} ms", t.request_p99_ms),
            ],
            measure: Some(Measure {
                value: p99.round(),
                threshold: Some(t.request_p99_ms),
                unit: "milliseconds",
            }),
            since: None,
            severity_since: None,
            silence: "look at the API server's load (apiserver_request_duration_seconds) and etcd"
                .into(),
        });
    }
    out
}
