//! Rule 8, as a finding: a rollout's two-window burn-rate gate fires only when both the
//! long and the short window burn faster than their maxima (the SRE workbook's
//! multiwindow, multi-burn-rate form). A cluster whose short window burns high while the
//! long one does not has not tripped the gate — a spike, or the start of a burn the long
//! window has yet to see — and the findings say so, with both numbers.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

use super::{Finding, Measure, RuleId, Severity};
use crate::model::duration::format_duration;
use crate::model::ledger::ClusterId;

/// The latest burn-rate evidence a rollout's executor gathered for one cluster, with the
/// gate's two windows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BurnObservation {
    /// The cluster.
    pub cluster: ClusterId,
    /// The rollout whose gate it is.
    pub run: String,
    /// When the evidence was gathered.
    pub at: Timestamp,
    /// The objective (0.999).
    pub objective: f64,
    /// The long window and its maximum burn rate.
    pub long_window: Duration,
    /// The long window's burn rate, when known.
    pub long_burn: Option<f64>,
    /// The long window's maximum.
    pub long_max: f64,
    /// The short window.
    pub short_window: Duration,
    /// The short window's burn rate, when known.
    pub short_burn: Option<f64>,
    /// The short window's maximum.
    pub short_max: f64,
}

/// Findings for clusters whose short window burns above its maximum while the long
/// window does not (the gate holds): one per cluster and rollout.
pub fn burn_findings(observations: &[BurnObservation]) -> Vec<Finding> {
    observations
        .iter()
        .filter_map(|o| {
            let short = o.short_burn?;
            if short <= o.short_max {
                return None;
            }
            let long_words = match o.long_burn {
                Some(long) if long > o.long_max => return None,
                Some(long) => format!(
                    "{long:.1}x over {} (maximum {}x)",
                    format_duration(o.long_window),
                    o.long_max
                ),
                None => format!("unknown over {}", format_duration(o.long_window)),
            };
            let long_msg = match o.long_burn {
                Some(long) => crate::i18n::Msg::new("fd-burn-long")
                    .arg("long", format!("{long:.1}"))
                    .arg("window", format_duration(o.long_window))
                    .arg("max", o.long_max.to_string()),
                None => crate::i18n::Msg::new("fd-burn-long-unknown")
                    .arg("window", format_duration(o.long_window)),
            };
            Some(Finding {
                summary_msg: Some(crate::i18n::Msg::new("fd-burn").arg("short", format!("{short:.1}")).arg("window", format_duration(o.short_window)).arg("max", o.short_max.to_string()).arg("long", long_msg.clone())),
                silence_msg: Some(crate::i18n::Msg::new("fd-fix-burn")),
                cluster: o.cluster.clone(),
                rule: RuleId::BurnRateShortWindow,
                severity: Severity::Warning,
                key: format!("burnRateShortWindow/{}", o.run),
                subject: format!("rollout {}", o.run),
                summary: format!(
                    "burn rate {short:.1}x over {} is above its maximum {}x, but {long_words}: the gate holds",
                    format_duration(o.short_window),
                    o.short_max
                ),
                evidence: vec![
                    format!(
                        "short window {}: {short:.1}x (maximum {}x)",
                        format_duration(o.short_window),
                        o.short_max
                    ),
                    format!("long window {}: {long_words}", format_duration(o.long_window)),
                    format!(
                        "objective {}%, evidence of {}",
                        o.objective * 100.0,
                        o.at.strftime("%Y-%m-%d %H:%M:%S UTC")
                    ),
                    "the gate fires only when both windows exceed their maxima".into(),
                ],
                measure: Some(Measure {
                    value: (short * 10.0).round() / 10.0,
                    threshold: Some(o.short_max),
                    unit: "x",
                }),
                since: Some(o.at),
                severity_since: Some(o.at),
                silence: "watch the long window: it halts the rollout if the burn goes on; pause the rollout if the spike is real".into(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observation(long: Option<f64>, short: Option<f64>) -> BurnObservation {
        BurnObservation {
            cluster: ClusterId("c1".into()),
            run: "cni-1".into(),
            at: "2026-12-01T10:00:00Z".parse().expect("time"),
            objective: 0.99,
            long_window: Duration::from_secs(3600),
            long_burn: long,
            long_max: 10.0,
            short_window: Duration::from_secs(300),
            short_burn: short,
            short_max: 10.0,
        }
    }

    #[test]
    fn only_a_short_window_above_its_maximum_with_the_long_one_below_is_a_finding() {
        // Errors 20% on the short window, 5% on the long one, objective 99%: burns of
        // 0.20 / 0.01 = 20x and 0.05 / 0.01 = 5x.
        let f = burn_findings(&[observation(Some(5.0), Some(20.0))]);
        assert_eq!(f.len(), 1);
        crate::model::findings::says::assert_said_in_english(&f);
        assert_eq!(
            f[0].summary_in(crate::i18n::Lang::ZhCn),
            "燃烧率在 5m 内为 20.0x，高于上限 10x，但在 1h 内为 5.0x（上限 10x）：门禁不触发"
        );
        assert_eq!(
            f[0].summary,
            "burn rate 20.0x over 5m is above its maximum 10x, but 5.0x over 1h (maximum 10x): the gate holds"
        );
        // Both above: the gate fired, which the rollout says; no finding here.
        assert!(burn_findings(&[observation(Some(12.0), Some(20.0))]).is_empty());
        // The short window calm: nothing.
        assert!(burn_findings(&[observation(Some(5.0), Some(10.0))]).is_empty());
        // Long unknown, short high: said, with the unknown.
        let f = burn_findings(&[observation(None, Some(20.0))]);
        crate::model::findings::says::assert_said_in_english(&f);
        assert!(
            f[0].summary.contains("but unknown over 1h"),
            "{}",
            f[0].summary
        );
        assert!(burn_findings(&[observation(Some(5.0), None)]).is_empty());
    }
}
