//! Rule 10: versions. A cluster whose Kubernetes minor leaves upstream support soon (by
//! the support dates the ledger carries, `kubernetesSupport`: data, not fetched) or has
//! left it; and a cluster more than one minor behind the fleet's newest, which no single
//! upgrade brings level.

use jiff::Timestamp;

use super::{Finding, Measure, RuleId, Severity, Thresholds};
use crate::i18n::Msg;
use crate::model::ledger::Ledger;
use crate::model::live::FleetSnapshot;
use crate::model::upgrade::Minor;

/// The version a cluster runs: what it said it runs, else what the ledger records.
fn running(ledger_version: Option<&String>, live: Option<&String>) -> Option<Minor> {
    live.or(ledger_version).and_then(|v| Minor::parse(v))
}

/// The version findings of the fleet.
pub fn version_findings(
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
    now: Timestamp,
    t: &Thresholds,
) -> Vec<Finding> {
    let minors: Vec<(&crate::model::ledger::Cluster, Minor)> = ledger
        .clusters
        .iter()
        .filter_map(|c| {
            let live = snapshot
                .cluster(&c.id.0)
                .filter(|s| s.status.data_usable())
                .and_then(|s| s.server_version.as_ref());
            running(c.versions.get("kubernetes"), live).map(|m| (c, m))
        })
        .collect();
    let newest = minors.iter().map(|(_, m)| *m).max();
    let today = now.to_zoned(jiff::tz::TimeZone::UTC).date();
    let mut out = Vec::new();
    for (cluster, minor) in &minors {
        if let Some(ends) = ledger.kubernetes_support.get(minor) {
            // Days from today to the end (negative once past), counted in days.
            let days = i64::from(today.until(*ends).map_or(0, |span| span.get_days()));
            if days <= i64::from(t.version_support_days) {
                let past = days < 0;
                let summary = if past {
                    format!("{minor} left upstream support on {ends}")
                } else {
                    format!("{minor} leaves upstream support on {ends}, in {days} days")
                };
                out.push(Finding {
                    summary_msg: Some(
                        Msg::new(if past {
                            "fd-version-unsupported"
                        } else {
                            "fd-version-leaving-support"
                        })
                        .arg("minor", minor.to_string())
                        .arg("date", ends.to_string())
                        .arg("days", days),
                    ),
                    silence_msg: Some(Msg::new("fd-fix-version-support")),
                    cluster: cluster.id.clone(),
                    rule: RuleId::VersionEndOfSupport,
                    severity: if past {
                        Severity::Critical
                    } else {
                        Severity::Warning
                    },
                    key: format!("versionEndOfSupport/{minor}"),
                    subject: format!("Kubernetes {minor}"),
                    summary,
                    evidence: vec![format!("kubernetesSupport in the ledger: {minor}: {ends}")],
                    measure: Some(Measure {
                        value: days as f64,
                        threshold: Some(f64::from(t.version_support_days)),
                        unit: "days",
                    }),
                    since: None,
                    severity_since: None,
                    silence: "plan its upgrade (fleetdeck upgrade check --to the next minor)"
                        .into(),
                });
            }
        }
        if let Some(newest) = newest
            && minor.behind(newest) > 1
        {
            let behind = minor.behind(newest);
            out.push(Finding {
                summary_msg: Some(
                    Msg::new("fd-version-behind")
                        .arg("minor", minor.to_string())
                        .arg("newest", newest.to_string())
                        .arg("behind", i64::from(behind)),
                ),
                silence_msg: Some(Msg::new("fd-fix-version-behind")),
                cluster: cluster.id.clone(),
                rule: RuleId::VersionBehind,
                severity: Severity::Warning,
                key: "versionBehind".into(),
                subject: format!("Kubernetes {minor}"),
                summary: format!(
                    "{minor} is {behind} minors behind the fleet's newest ({newest}): no single upgrade brings it level"
                ),
                evidence: vec![format!("the fleet's newest minor: {newest}")],
                measure: Some(Measure {
                    value: f64::from(behind),
                    threshold: Some(1.0),
                    unit: "minors",
                }),
                since: None,
                severity_since: None,
                silence: "upgrade it one minor at a time (fleetdeck upgrade check --to the next minor)".into(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::live::ClusterSnapshot;

    fn ledger() -> Ledger {
        let text = "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nkubernetesSupport:\n  v1.30: 2026-12-20\n  v1.29: 2026-06-01\nclusters:\n  - {id: a, context: a, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.30.4}}\n  - {id: b, context: b, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.29.9}}\n  - {id: c, context: c, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.31.2}}\n";
        crate::model::ledger::read_ledger(
            text,
            &crate::model::ledger::LedgerContext {
                today: jiff::civil::date(2026, 12, 4),
                is_known_zone: &|_| true,
            },
        )
        .ledger
        .expect("ledger")
    }

    #[test]
    fn support_ending_soon_warns_past_it_is_critical_and_two_behind_the_newest_warns() {
        let now: Timestamp = "2026-12-04T12:00:00Z".parse().unwrap();
        let snapshot = FleetSnapshot::empty();
        let found = version_findings(&ledger(), &snapshot, now, &Thresholds::default());
        let said: Vec<(String, Severity, String)> = found
            .iter()
            .map(|f| (f.cluster.to_string(), f.severity, f.summary.clone()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "a".to_string(),
                    Severity::Warning,
                    "v1.30 leaves upstream support on 2026-12-20, in 16 days".to_string()
                ),
                (
                    "b".into(),
                    Severity::Critical,
                    "v1.29 left upstream support on 2026-06-01".into()
                ),
                (
                    "b".into(),
                    Severity::Warning,
                    "v1.29 is 2 minors behind the fleet's newest (v1.31): no single upgrade brings it level".into()
                ),
            ]
        );
        // The version a cluster says it runs wins over the ledger's.
        let mut live = ClusterSnapshot::connecting("b");
        live.status = crate::model::live::ClusterStatus::Synced;
        live.server_version = Some("v1.31.0".into());
        let snapshot = FleetSnapshot {
            version: 2,
            taken_at: now,
            clusters: std::sync::Arc::from(vec![std::sync::Arc::new(live)]),
        };
        let found = version_findings(&ledger(), &snapshot, now, &Thresholds::default());
        assert!(found.iter().all(|f| f.cluster.as_str() != "b"), "{found:?}");
    }
}
