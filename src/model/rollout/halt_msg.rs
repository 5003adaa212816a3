//! Why a rollout halted, as a message for the reader's language beside the English the
//! journal keeps (`HaltReason`'s `Display`).

use super::gates::HaltReason;
use super::spec::FailedLimit;
use crate::i18n::{Arg, Msg};
use crate::model::duration::format_duration;

impl HaltReason {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language. Numbers are written as in English; cluster names and why evidence is
    /// missing (in the words of whoever looked) are shown as they are.
    pub fn msg(&self) -> Msg {
        match self {
            HaltReason::FailedClusters {
                failed,
                finished,
                limit,
            } => Msg::new("reason-halt-failed")
                .arg("failed", failed.len().to_string())
                .arg("finished", finished.to_string())
                .arg(
                    "limit",
                    match limit {
                        FailedLimit::Count(n) => Arg::from(n.to_string()),
                        FailedLimit::Percent(p) => Msg::new("reason-halt-limit-percent")
                            .arg("percent", p.to_string())
                            .into(),
                    },
                )
                .arg("clusters", failed.join(", ")),
            HaltReason::BurnRate {
                cluster,
                burn,
                max_burn,
                objective,
                window,
                short,
            } => {
                let msg = match short {
                    None => Msg::new("reason-halt-burn"),
                    Some(short) => Msg::new("reason-halt-burn-both")
                        .arg("shortBurn", format!("{:.1}", short.burn))
                        .arg("shortWindow", format_duration(short.window))
                        .arg("shortMax", short.max_burn.to_string()),
                };
                msg.arg("cluster", cluster)
                    .arg("burn", format!("{burn:.1}"))
                    .arg("max", max_burn.to_string())
                    .arg("objective", (objective * 100.0).to_string())
                    .arg("window", format_duration(*window))
            }
            HaltReason::MetricsUnknown { clusters } => {
                let list: Vec<String> = clusters
                    .iter()
                    .map(|(c, why)| format!("{c}: {why}"))
                    .collect();
                Msg::new("reason-halt-metrics-unknown")
                    .arg("n", clusters.len().to_string())
                    .arg("clusters", list.join("; "))
            }
            HaltReason::OutcomeUnknown { cluster, why } => Msg::new("reason-halt-outcome-unknown")
                .arg("cluster", cluster)
                .arg("why", why),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::i18n::Lang;
    use crate::model::rollout::gates::ShortBurn;

    fn all() -> Vec<HaltReason> {
        let burn = |short| HaltReason::BurnRate {
            cluster: "eu-fra-prod-02".into(),
            burn: 14.44,
            max_burn: 10.0,
            objective: 0.999,
            window: Duration::from_secs(3600),
            short,
        };
        vec![
            HaltReason::FailedClusters {
                failed: vec!["a".into(), "b".into()],
                finished: 5,
                limit: FailedLimit::Count(2),
            },
            HaltReason::FailedClusters {
                failed: vec!["a".into()],
                finished: 4,
                limit: FailedLimit::Percent(25.0),
            },
            burn(None),
            burn(Some(ShortBurn {
                burn: 20.0,
                max_burn: 14.4,
                window: Duration::from_secs(300),
            })),
            HaltReason::MetricsUnknown {
                clusters: vec![("eu-fra-prod-02".into(), "prometheus unreachable".into())],
            },
            HaltReason::OutcomeUnknown {
                cluster: "c1".into(),
                why: "apply timed out".into(),
            },
        ]
    }

    #[test]
    fn every_halt_says_its_english_as_a_message_and_in_chinese() {
        for why in all() {
            assert_eq!(why.msg().text(Lang::En), why.to_string());
        }
        let all = all();
        assert_eq!(
            all[0].msg().text(Lang::ZhCn),
            "已完成的 5 个集群中有 2 个失败，停止上限 2：a, b"
        );
        assert_eq!(
            all[1].msg().text(Lang::ZhCn),
            "已完成的 4 个集群中有 1 个失败，停止上限 已完成集群的 25%：a"
        );
        assert_eq!(
            all[2].msg().text(Lang::ZhCn),
            "eu-fra-prod-02 的 SLO 消耗速率 14.4x 超过上限 10x（目标 99.9%，窗口 1h）"
        );
        assert_eq!(
            all[4].msg().text(Lang::ZhCn),
            "1 个集群的指标未知（eu-fra-prod-02: prometheus unreachable）；unknownMetrics 为 stop"
        );
    }
}
