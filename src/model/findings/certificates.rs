//! Rule 1: certificates and credentials with the days they have left — the API server's
//! serving certificate, the kubeconfig's CA and client certificate, webhook and
//! APIService `caBundle`s, an exec plugin's credential — and the fleet's expiry weeks, so
//! that "17 clusters expire in the same week" is seen months ahead.

use std::collections::{BTreeMap, BTreeSet};

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use serde::Serialize;

use super::{
    CertSource, CertificateFact, Finding, Measure, Read, RuleId, Severity, Thresholds, before,
    days_between,
};
use crate::model::ledger::ClusterId;

const DAY: u64 = 86_400;

/// `in 5 days (2026-12-06)`, `in 7h (2026-12-01)`, `3 days ago (2026-11-28)`.
pub(super) fn left(now: Timestamp, then: Timestamp) -> String {
    let date = then.to_zoned(TimeZone::UTC).date();
    let days = days_between(now, then);
    if days < 0.0 {
        let ago = (-days).floor() as i64;
        return match ago {
            0 => format!(
                "today ({date}, {} hours ago)",
                ((-days) * 24.0).floor() as i64
            ),
            1 => format!("1 day ago ({date})"),
            n => format!("{n} days ago ({date})"),
        };
    }
    match days.floor() as i64 {
        0 => format!("in {}h ({date})", (days * 24.0).floor() as i64),
        1 => format!("in 1 day ({date})"),
        n => format!("in {n} days ({date})"),
    }
}

/// What to do about an expiring certificate of `source`.
fn renew_hint(source: &CertSource) -> String {
    match source {
        CertSource::ServingCertificate => {
            "renew the API server's serving certificate (kubeadm certs renew apiserver, or your provider's rotation)".into()
        }
        CertSource::KubeconfigCa => {
            "rotate the cluster CA and hand out a kubeconfig trusting the new one".into()
        }
        CertSource::ClientCertificate => {
            "issue a new client certificate for this kubeconfig user (or move to an exec plugin)".into()
        }
        CertSource::ExecCredential => "log in again through the exec plugin".into(),
        CertSource::WebhookCaBundle { configuration, .. } => {
            format!("renew the webhook's serving certificate and update the caBundle of {configuration} (cert-manager's CA injector does both)")
        }
        CertSource::ApiServiceCaBundle { name } => {
            format!("renew the aggregated API's serving certificate and update APIService/{name}'s caBundle")
        }
    }
}

/// Findings for one cluster's certificates and credentials.
pub(super) fn certificate_findings(
    cluster: &ClusterId,
    certificates: &[CertificateFact],
    now: Timestamp,
    t: &Thresholds,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for cert in certificates {
        let what = cert.source.describe();
        let not_after = match &cert.not_after {
            Read::Known(at) => *at,
            Read::Unknown(why) => {
                out.push(Finding {
                    summary_msg: Some(crate::i18n::Msg::new("fd-cert-expiry-unknown").arg("what", cert.source.msg())),
                    silence_msg: Some(crate::i18n::Msg::new("fd-fix-cert-unreadable")),
                    cluster: cluster.clone(),
                    rule: RuleId::FactsUnknown,
                    severity: Severity::Warning,
                    key: format!("factsUnknown/certificate/{}", cert.source.key()),
                    subject: what.clone(),
                    summary: format!("{what}: expiry unknown"),
                    evidence: vec![format!("could not be read: {why}")],
                    measure: None,
                    since: None,
                    severity_since: None,
                    silence: "make it readable (see the reason); until then its expiry is unknown, not fine".into(),
                });
                continue;
            }
        };
        let days = days_between(now, not_after);
        if cert.source == CertSource::ExecCredential {
            if let Some(f) = credential_finding(cluster, cert, not_after, now, t) {
                out.push(f);
            }
            continue;
        }
        let warning = u64::from(t.certificate_warning_days) * DAY;
        let critical = u64::from(t.certificate_critical_days) * DAY;
        let severity = if days <= f64::from(t.certificate_critical_days) {
            Severity::Critical
        } else if days <= f64::from(t.certificate_warning_days) {
            Severity::Warning
        } else {
            continue;
        };
        let since = before(not_after, std::time::Duration::from_secs(warning));
        let severity_since = match severity {
            Severity::Critical => before(not_after, std::time::Duration::from_secs(critical)),
            _ => since,
        };
        let when = left(now, not_after);
        let summary = if days < 0.0 {
            format!("{what} expired {when}")
        } else {
            format!("{what} expires {when}")
        };
        out.push(Finding {
            summary_msg: Some(
                crate::i18n::Msg::new(if days < 0.0 {
                    "fd-cert-expired"
                } else {
                    "fd-cert-expires"
                })
                .arg("what", cert.source.msg())
                .arg("when", super::says::left_msg(now, not_after)),
            ),
            silence_msg: Some(cert.source.renew_msg()),
            cluster: cluster.clone(),
            rule: RuleId::CertificateExpiry,
            severity,
            key: format!("certificateExpiry/{}", cert.source.key()),
            subject: what,
            summary,
            evidence: vec![
                format!("subject: {}", cert.subject),
                format!("notAfter: {}", not_after),
                format!(
                    "thresholds: warning within {} days, critical within {}",
                    t.certificate_warning_days, t.certificate_critical_days
                ),
            ],
            measure: Some(Measure {
                value: (days * 10.0).floor() / 10.0,
                threshold: Some(f64::from(t.certificate_warning_days)),
                unit: "days",
            }),
            since: Some(since),
            severity_since: Some(severity_since),
            silence: renew_hint(&cert.source),
        });
    }
    out
}

/// An exec plugin's credential: short-lived tokens are refreshed by running the plugin
/// again, so one about to expire is only noted; one already expired was handed out
/// expired, and every request with it fails.
fn credential_finding(
    cluster: &ClusterId,
    cert: &CertificateFact,
    not_after: Timestamp,
    now: Timestamp,
    t: &Thresholds,
) -> Option<Finding> {
    let expired = not_after <= now;
    let notice = jiff::SignedDuration::try_from(t.credential_notice).ok()?;
    if !expired && now.checked_add(notice).ok()? < not_after {
        return None;
    }
    let when = left(now, not_after);
    Some(Finding {
        summary_msg: Some(
            crate::i18n::Msg::new(if expired {
                "fd-cred-expired"
            } else {
                "fd-cred-expires"
            })
            .arg("when", super::says::left_msg(now, not_after)),
        ),
        silence_msg: Some(CertSource::ExecCredential.renew_msg()),
        cluster: cluster.clone(),
        rule: RuleId::CredentialExpiry,
        severity: if expired {
            Severity::Critical
        } else {
            Severity::Info
        },
        key: "credentialExpiry/exec".into(),
        subject: cert.source.describe(),
        summary: if expired {
            format!("exec plugin handed out a credential that expired {when}")
        } else {
            format!("exec plugin credential expires {when} (refreshed by running the plugin again)")
        },
        evidence: vec![
            format!("plugin: {}", cert.subject),
            format!("expirationTimestamp: {not_after}"),
        ],
        measure: Some(Measure {
            value: (days_between(now, not_after) * 24.0 * 10.0).floor() / 10.0,
            threshold: None,
            unit: "hours",
        }),
        since: Some(before(not_after, t.credential_notice)),
        severity_since: Some(if expired {
            not_after
        } else {
            before(not_after, t.credential_notice)
        }),
        silence: renew_hint(&CertSource::ExecCredential),
    })
}

/// One week in which certificates of several clusters expire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpiryWeek {
    /// The Monday (UTC) the week starts on.
    pub week_of: Date,
    /// The clusters with at least one certificate expiring that week.
    pub clusters: Vec<ClusterId>,
    /// How many certificates expire that week, across them.
    pub certificates: usize,
}

/// Every week within the horizon in which some certificate of the fleet expires, in
/// order (exec credentials, short-lived by design, are left out).
pub fn expiry_weeks<'a>(
    fleet: impl IntoIterator<Item = (&'a ClusterId, &'a [CertificateFact])>,
    now: Timestamp,
    t: &Thresholds,
) -> Vec<ExpiryWeek> {
    let horizon = now
        .checked_add(jiff::SignedDuration::from_secs(
            i64::from(t.expiry_horizon_days) * DAY as i64,
        ))
        .unwrap_or(Timestamp::MAX);
    let mut weeks: BTreeMap<Date, (BTreeSet<ClusterId>, usize)> = BTreeMap::new();
    for (cluster, certificates) in fleet {
        for cert in certificates {
            if cert.source == CertSource::ExecCredential {
                continue;
            }
            let Read::Known(at) = cert.not_after else {
                continue;
            };
            if at > horizon {
                continue;
            }
            let date = at.to_zoned(TimeZone::UTC).date();
            let monday = date
                .checked_sub(i64::from(date.weekday().to_monday_zero_offset()).days())
                .unwrap_or(date);
            let week = weeks.entry(monday).or_default();
            week.0.insert(cluster.clone());
            week.1 += 1;
        }
    }
    weeks
        .into_iter()
        .map(|(week_of, (clusters, certificates))| ExpiryWeek {
            week_of,
            clusters: clusters.into_iter().collect(),
            certificates,
        })
        .collect()
}

/// The fleet finding for a week in which at least the threshold of clusters expire.
pub(super) fn wave_findings(weeks: &[ExpiryWeek], now: Timestamp, t: &Thresholds) -> Vec<Finding> {
    weeks
        .iter()
        .filter(|w| w.clusters.len() >= t.expiry_wave_clusters.max(1))
        .map(|w| {
            let monday = w
                .week_of
                .to_zoned(TimeZone::UTC)
                .map(|z| z.timestamp())
                .unwrap_or(now);
            let days = days_between(now, monday);
            let severity = if days <= f64::from(t.certificate_warning_days) {
                Severity::Critical
            } else {
                Severity::Warning
            };
            let names: Vec<&str> = w.clusters.iter().map(|c| c.as_str()).collect();
            Finding {
                summary_msg: Some(crate::i18n::Msg::new("fd-expiry-wave").arg("clusters", w.clusters.len().to_string()).arg("week", w.week_of.to_string()).arg("certificates", w.certificates.to_string())),
                silence_msg: Some(crate::i18n::Msg::new("fd-fix-stagger")),
                cluster: ClusterId(super::fleet::FLEET.into()),
                rule: RuleId::ExpiryWave,
                severity,
                key: format!("expiryWave/{}", w.week_of),
                subject: format!("week of {}", w.week_of),
                summary: format!(
                    "{} clusters have certificates expiring in the week of {} ({} certificates)",
                    w.clusters.len(),
                    w.week_of,
                    w.certificates
                ),
                evidence: vec![format!("clusters: {}", names.join(", "))],
                measure: Some(Measure {
                    value: w.clusters.len() as f64,
                    threshold: Some(t.expiry_wave_clusters as f64),
                    unit: "clusters",
                }),
                since: None,
                severity_since: None,
                silence: "stagger the renewals: renew some clusters' certificates early so they do not all expire together".into(),
            }
        })
        .collect()
}
