//! The findings' section: findings that appeared or got worse during the shift.
//!
//! A finding knows since when it holds (`since`) and since when it has had its severity
//! (`severity_since`), both from the facts themselves (a certificate entered its warning
//! window when its expiry minus the window passed; a check was first seen failing), so
//! "new this shift" needs no earlier copy of the findings: it started after the shift
//! did. A finding whose start is not known (a webhook's configuration says nothing of
//! when it was made) cannot be placed in or before the shift: it is not listed as new,
//! and the handover says how many such findings there are, and where to see them.

use super::{
    Check, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Says, Section, Subject, when,
};
use crate::i18n::{Arg, Msg};
use crate::model::findings::{FLEET, Finding, Severity};

/// Findings below this are not handed over (they are on the Findings screen).
const LEAST: Severity = Severity::Warning;

/// Whether `f` started (`New`) or got worse (`Worse`) during the shift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    New,
    Worse,
}

fn change(f: &Finding, input: &HandoverInput<'_>) -> Option<Change> {
    let in_shift = |t: jiff::Timestamp| t >= input.since && t <= input.now;
    match (f.since, f.severity_since) {
        (Some(since), _) if in_shift(since) => Some(Change::New),
        (Some(_), Some(worse)) if in_shift(worse) => Some(Change::Worse),
        // Without a start, a severity reached during the shift is still news.
        (None, Some(worse)) if in_shift(worse) => Some(Change::Worse),
        _ => None,
    }
}

/// The findings at or above warning that are new or worse since the shift started.
pub(super) fn new_or_worse(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let Some(findings) = input.findings.read() else {
        return Vec::new();
    };
    findings
        .iter()
        .filter(|f| f.severity >= LEAST)
        .filter_map(|f| Some((f, change(f, input)?)))
        .map(|(f, change)| {
            let severity = f.severity.label();
            let (how, how_msg) = match (change, f.severity_since) {
                (Change::New, _) => (
                    format!("new this shift, {severity}"),
                    Msg::new("handover-finding-new").arg("severity", severity),
                ),
                (Change::Worse, Some(worse)) => (
                    format!("worse this shift: {severity} since {}", when(worse)),
                    Msg::new("handover-finding-worse-since")
                        .arg("severity", severity)
                        .arg("since", when(worse)),
                ),
                (Change::Worse, None) => (
                    format!("worse this shift: {severity}"),
                    Msg::new("handover-finding-worse").arg("severity", severity),
                ),
            };
            let mut details = vec![how];
            let mut said = vec![Some(how_msg)];
            if let Some(since) = f.since {
                details.push(format!("since {}", when(since)));
                said.push(Some(Msg::new("handover-since").arg("since", when(since))));
            }
            details.extend(f.evidence.iter().cloned());
            said.extend(f.evidence.iter().map(|_| None));
            details.push(format!("to clear it: {}", f.silence));
            let silence = f
                .silence_msg
                .clone()
                .map_or(Arg::Str(f.silence.clone()), Arg::from);
            said.push(Some(Msg::new("handover-finding-clear").arg("how", silence)));
            let summary = f
                .summary_msg
                .clone()
                .map_or(Arg::Str(f.summary.clone()), Arg::from);
            HandoverItem {
                key: ProblemKey(f.problem_key()),
                section: Section::Findings,
                title: format!("{}: {}", f.cluster, f.summary),
                details,
                says: Says {
                    title: Some(
                        Msg::new("handover-finding-title")
                            .arg("cluster", f.cluster.to_string())
                            .arg("summary", summary),
                    ),
                    details: said,
                },
                since: f.since,
                subject: Subject {
                    cluster: (f.cluster.as_str() != FLEET).then(|| f.cluster.clone()),
                    ..Subject::default()
                },
                // A severity that rises re-opens an acknowledgement.
                extent: Extent(vec![Fact::counted(
                    "severity",
                    f.severity as i64,
                    f.severity.label(),
                )]),
                check: Check::Current,
                acks: Vec::new(),
            }
        })
        .collect()
}

/// What the section could not say: findings not judged, or findings whose start is not
/// known and that are therefore neither new nor old.
pub(super) fn not_checked(input: &HandoverInput<'_>) -> Option<(String, Msg)> {
    let findings = match &input.findings {
        // No ledger: its line says so, findings included.
        super::Known::NotRead(why) if matches!(&input.ledger, super::Known::NotRead(ledger) if ledger == why) =>
        {
            return None;
        }
        super::Known::NotRead(why) => {
            return Some((
                format!(
                    "findings not judged ({why}): findings new or worse this shift are unknown"
                ),
                Msg::new("handover-nc-findings").arg("why", why),
            ));
        }
        super::Known::Read(findings) => findings,
    };
    let undated: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity >= LEAST && f.since.is_none() && change(f, input).is_none())
        .collect();
    if undated.is_empty() {
        return None;
    }
    let mut rules: Vec<String> = undated.iter().map(|f| f.rule.name()).collect();
    rules.sort();
    rules.dedup();
    Some((
        format!(
            "{} findings whose start is not known ({}) may be new or old: `fleetdeck findings` and the Findings screen list them",
            undated.len(),
            rules.join(", ")
        ),
        Msg::new("handover-nc-undated")
            .arg("count", undated.len())
            .arg("rules", rules.join(", ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::findings::RuleId;
    use crate::model::handover::{Known, handover};
    use crate::model::ledger::ClusterId;
    use jiff::Timestamp;

    fn at(secs: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + secs).unwrap_or(Timestamp::UNIX_EPOCH)
    }

    fn finding(
        key: &str,
        severity: Severity,
        since: Option<i64>,
        severity_since: Option<i64>,
    ) -> Finding {
        Finding {
            summary_msg: None,
            silence_msg: None,
            cluster: ClusterId("prod-euw1-02".into()),
            rule: RuleId::CertificateExpiry,
            severity,
            key: key.into(),
            subject: key.into(),
            summary: format!("{key} expires"),
            evidence: vec![format!("{key}: notAfter")],
            measure: None,
            since: since.map(at),
            severity_since: severity_since.map(at),
            silence: "renew it".into(),
        }
    }

    fn input(findings: &[Finding]) -> HandoverInput<'_> {
        // The shift: from at(-3600) to at(3600).
        HandoverInput {
            journal: Known::NotRead("not given".into()),
            fleet: Known::NotRead("not given".into()),
            ledger: Known::NotRead("not given".into()),
            findings: Known::Read(findings),
            since: at(-3600),
            now: at(3600),
            expiring_within_days: 14,
        }
    }

    #[test]
    fn new_and_worse_this_shift_are_listed_older_and_info_are_not() {
        let all = vec![
            // Entered its warning window an hour into the shift: new.
            finding("new", Severity::Warning, Some(0), Some(0)),
            // A warning since yesterday, critical for ten minutes: worse.
            finding("worse", Severity::Critical, Some(-86_400), Some(3000)),
            // Unchanged since before the shift: not news.
            finding("old", Severity::Critical, Some(-86_400), Some(-86_400)),
            // New but only info.
            finding("info", Severity::Info, Some(0), Some(0)),
            // Start unknown: neither.
            finding("undated", Severity::Warning, None, None),
        ];
        let report = handover(&input(&all));
        let titles: Vec<&str> = report
            .items
            .iter()
            .filter(|i| i.section == Section::Findings)
            .map(|i| i.title.as_str())
            .collect();
        assert_eq!(
            titles,
            vec!["prod-euw1-02: new expires", "prod-euw1-02: worse expires"]
        );
        assert_eq!(report.items[0].details[0], "new this shift, warning");
        // In Chinese the title keeps the finding's own words when it carries no message,
        // and says its message when it does.
        let zh = crate::i18n::Lang::ZhCn;
        assert_eq!(report.items[0].title_in(zh), "prod-euw1-02：new expires");
        let mut said = finding("said", Severity::Warning, Some(0), Some(0));
        said.summary_msg = Some(Msg::new("handover-since").arg("since", "2027-01-15"));
        let report_said = handover(&input(std::slice::from_ref(&said)));
        assert_eq!(
            report_said.items[0].title_in(zh),
            "prod-euw1-02：自 2027-01-15 起"
        );
        let worse = &report.items[1];
        assert_eq!(worse.key.0, "finding/prod-euw1-02/worse");
        assert_eq!(
            worse.details[0],
            "worse this shift: CRITICAL since 2027-01-15 08:50 UTC"
        );
        assert!(
            report.not_checked.iter().any(|l| l.starts_with(
                "1 findings whose start is not known (certificateExpiry) may be new or old"
            )),
            "{:?}",
            report.not_checked
        );
    }

    #[test]
    fn findings_not_judged_are_said_not_taken_for_none() {
        let mut input = input(&[]);
        input.findings = Known::NotRead("--wait-synced 0s skips the fleet sync".into());
        let report = handover(&input);
        assert!(report.items.is_empty());
        assert!(report.not_checked.contains(
            &"findings not judged (--wait-synced 0s skips the fleet sync): findings new or worse this shift are unknown".to_string()
        ));
    }

    #[test]
    fn a_severity_that_rises_reopens_an_acknowledgement() {
        let then = Extent(vec![Fact::counted(
            "severity",
            Severity::Warning as i64,
            "warning",
        )]);
        let now = Extent(vec![Fact::counted(
            "severity",
            Severity::Critical as i64,
            "CRITICAL",
        )]);
        assert_eq!(now.worse_than(&then), Some("CRITICAL (was warning)".into()));
        assert_eq!(then.worse_than(&now), None);
    }
}
