//! Rule 5: backups and restore drills, from the ledger. The last successful backup is
//! judged against the cluster's recovery point objective (`backup.rpo`, else the tier's
//! default), the last restore drill against the tier's threshold, and the drill's
//! duration against the recovery time objective (`backup.rto`). A backup nobody restored
//! is a hope, not a backup.

use std::time::Duration;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::{Finding, Measure, RuleId, Severity, Thresholds, days_between};
use crate::model::duration::format_duration;
use crate::model::ledger::{Cluster, Ledger};
use crate::yaml::{Diagnostic, Pos};

const DAY: f64 = 86_400.0;

fn needs_backup(cluster: &Cluster) -> bool {
    cluster.env == "production" || cluster.tier == "critical"
}

fn days(d: Duration) -> f64 {
    d.as_secs() as f64 / DAY
}

/// Whole days since the last restore drill at `now` (`None` when there was none).
pub fn restore_drill_age_days(cluster: &Cluster, now: Timestamp) -> Option<i64> {
    let drill = cluster.backup.as_ref()?.last_restore_drill?;
    let at = drill.to_zoned(TimeZone::UTC).ok()?.timestamp();
    Some((-days_between(now, at)).floor() as i64)
}

struct Judged {
    field: &'static str,
    finding: Finding,
}

fn finding(
    cluster: &Cluster,
    rule: RuleId,
    severity: Severity,
    key: &str,
    summary: String,
    evidence: Vec<String>,
    silence: &str,
) -> Finding {
    Finding {
        summary_msg: None,
        silence_msg: None,
        cluster: cluster.id.clone(),
        rule,
        severity,
        key: format!("{}/{key}", rule.name()),
        subject: "backup".into(),
        summary,
        evidence,
        measure: None,
        since: None,
        severity_since: None,
        silence: silence.into(),
    }
}

fn judge(cluster: &Cluster, now: Timestamp, t: &Thresholds) -> Vec<Judged> {
    let mut out = Vec::new();
    let Some(backup) = &cluster.backup else {
        if needs_backup(cluster) {
            out.push(Judged {
                field: "",
                finding: finding(
                    cluster,
                    RuleId::BackupStale,
                    // A critical cluster without a declared backup is a gap to close; a
                    // production one's backup may live elsewhere: noted.
                    if cluster.tier == "critical" {
                        Severity::Warning
                    } else {
                        Severity::Info
                    },
                    "undeclared",
                    format!("{} is {} but the ledger declares no backup", cluster.id, if cluster.env == "production" { "production" } else { "critical" }),
                    vec!["no `backup` in the ledger: no location, no last success, no restore drill".into()],
                    "declare the cluster's backup in the ledger (location, lastSuccess, rpo, lastRestoreDrill, rto)",
                ).said(crate::i18n::Msg::new("fd-backup-undeclared").arg("cluster", cluster.id.to_string()).arg("kind", if cluster.env == "production" { "production" } else { "critical" }), crate::i18n::Msg::new("fd-fix-backup-declare")),
            });
        }
        return out;
    };
    let tier = &cluster.tier;
    let (rpo, rpo_from) = match backup.rpo {
        Some(rpo) => (rpo, "the ledger's rpo".to_string()),
        None => (
            t.backup_max_age.of(tier),
            format!("no rpo in the ledger: the default for tier {tier}"),
        ),
    };
    match backup.last_success {
        None => out.push(Judged {
            field: "backup",
            finding: finding(
                cluster,
                RuleId::BackupStale,
                Severity::Warning,
                "never",
                "no successful backup is recorded".into(),
                vec!["backup.lastSuccess is not set".into()],
                "record the last successful backup in the ledger (backup.lastSuccess), from your backup tool's report",
            ).said(crate::i18n::Msg::new("fd-backup-never"), crate::i18n::Msg::new("fd-fix-backup-record")),
        }),
        Some(last) => {
            let age = -days_between(now, last);
            if age > days(rpo) {
                let mut f = finding(
                    cluster,
                    RuleId::BackupStale,
                    if age > 2.0 * days(rpo) {
                        Severity::Critical
                    } else {
                        Severity::Warning
                    },
                    "rpo",
                    format!(
                        "last successful backup is {} old, beyond the RPO of {}",
                        age_words(age),
                        format_duration(rpo)
                    ),
                    vec![
                        format!("backup.lastSuccess: {last}"),
                        format!("RPO {} ({rpo_from})", format_duration(rpo)),
                    ],
                    "find out why backups stopped (the backup tool's last runs), then record the new lastSuccess",
                ).said(crate::i18n::Msg::new("fd-backup-rpo").arg("age", age_msg(age)).arg("rpo", format_duration(rpo)), crate::i18n::Msg::new("fd-fix-backup-why"));
                f.measure = Some(Measure {
                    value: (age * 10.0).floor() / 10.0,
                    threshold: Some(days(rpo)),
                    unit: "days",
                });
                f.since = last
                    .checked_add(jiff::SignedDuration::try_from(rpo).unwrap_or_default())
                    .ok();
                f.severity_since = f.since;
                out.push(Judged {
                    field: "backup.lastSuccess",
                    finding: f,
                });
            }
        }
    }
    let max_drill = t.restore_drill_max_age.of(tier);
    match (backup.last_restore_drill, restore_drill_age_days(cluster, now)) {
        (Some(date), Some(age)) if age as f64 > days(max_drill) => {
            let mut f = finding(
                cluster,
                RuleId::RestoreDrillStale,
                if age as f64 > 2.0 * days(max_drill) {
                    Severity::Critical
                } else {
                    Severity::Warning
                },
                "age",
                format!("last restore drill was {age} days ago ({date})"),
                vec![
                    format!("backup.lastRestoreDrill: {date}"),
                    format!(
                        "threshold for tier {tier}: {} days",
                        days(max_drill).round()
                    ),
                ],
                "rehearse a restore, then record it (backup.lastRestoreDrill and lastRestoreDrillDuration)",
            ).said(crate::i18n::Msg::new("fd-drill-age").arg("days", age.to_string()).arg("date", date.to_string()), crate::i18n::Msg::new("fd-fix-drill"));
            f.measure = Some(Measure {
                value: age as f64,
                threshold: Some(days(max_drill).round()),
                unit: "days",
            });
            f.since = date
                .to_zoned(TimeZone::UTC)
                .ok()
                .and_then(|z| {
                    z.timestamp()
                        .checked_add(jiff::SignedDuration::try_from(max_drill).ok()?)
                        .ok()
                });
            f.severity_since = f.since;
            out.push(Judged {
                field: "backup.lastRestoreDrill",
                finding: f,
            });
        }
        (None, _) => out.push(Judged {
            field: "backup",
            finding: finding(
                cluster,
                RuleId::RestoreDrillStale,
                if needs_backup(cluster) {
                    Severity::Warning
                } else {
                    Severity::Info
                },
                "never",
                "no restore drill is recorded: nobody knows whether its backups restore".into(),
                vec!["backup.lastRestoreDrill is not set".into()],
                "rehearse a restore, then record it (backup.lastRestoreDrill and lastRestoreDrillDuration)",
            ).said(crate::i18n::Msg::new("fd-drill-never"), crate::i18n::Msg::new("fd-fix-drill")),
        }),
        _ => {}
    }
    if let (Some(took), Some(rto)) = (backup.last_restore_drill_duration, backup.rto)
        && took > rto
    {
        let mut f = finding(
            cluster,
            RuleId::RestoreDrillStale,
            Severity::Warning,
            "rto",
            format!(
                "the last restore drill took {}, beyond the RTO of {}",
                format_duration(took),
                format_duration(rto)
            ),
            vec![
                format!("backup.lastRestoreDrillDuration: {}", format_duration(took)),
                format!("backup.rto: {}", format_duration(rto)),
            ],
            "make restores faster, or agree a longer RTO and write it in the ledger",
        )
        .said(
            crate::i18n::Msg::new("fd-drill-rto")
                .arg("took", format_duration(took))
                .arg("rto", format_duration(rto)),
            crate::i18n::Msg::new("fd-fix-rto"),
        );
        f.measure = Some(Measure {
            value: took.as_secs() as f64,
            threshold: Some(rto.as_secs() as f64),
            unit: "seconds",
        });
        out.push(Judged {
            field: "backup.lastRestoreDrillDuration",
            finding: f,
        });
    }
    out
}

/// [`age_words`] as a message.
fn age_msg(days: f64) -> crate::i18n::Msg {
    if days >= 2.0 {
        crate::i18n::Msg::new("fd-age-days").arg("n", days.floor().to_string())
    } else {
        crate::i18n::Msg::new("fd-age-hours").arg("n", (days * 24.0).floor().to_string())
    }
}

fn age_words(days: f64) -> String {
    if days >= 2.0 {
        format!("{} days", days.floor())
    } else {
        format!("{}h", (days * 24.0).floor())
    }
}

/// Findings for one cluster's backup, as its ledger entry declares it.
pub(super) fn backup_findings(cluster: &Cluster, now: Timestamp, t: &Thresholds) -> Vec<Finding> {
    judge(cluster, now, t)
        .into_iter()
        .map(|j| j.finding)
        .collect()
}

/// The same judgement as warnings for `ledger validate`, at the position of the field
/// each is about (midnight UTC of `today` is "now").
pub fn recovery_warnings(
    ledger: &Ledger,
    today: jiff::civil::Date,
    t: &Thresholds,
) -> Vec<Diagnostic> {
    let Ok(now) = today.to_zoned(TimeZone::UTC).map(|z| z.timestamp()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        for judged in judge(cluster, now, t) {
            if judged.finding.severity == Severity::Info {
                continue;
            }
            let path = if judged.field.is_empty() {
                format!("clusters.{index}")
            } else {
                format!("clusters.{index}.{}", judged.field)
            };
            let pos: Pos = ledger.positions.at(&path);
            out.push(Diagnostic::warning(
                pos,
                format!("cluster \"{}\": {}", cluster.id, judged.finding.summary),
            ));
        }
    }
    out
}
