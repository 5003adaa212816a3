//! Rule 3: API priority and fairness as our own requests meet it. Every response names
//! the FlowSchema and PriorityLevelConfiguration it was classified into; requests of an
//! unclassified client land in `global-default` (shared with every other such client) or
//! `catch-all` (a few shares, and it rejects rather than queues). A fleet console that
//! lands there competes with everything else for the API server — and, with hundreds of
//! clusters, makes the load problem. 429 answers are counted too.

use super::{Finding, FlowUse, Measure, Read, RequestStats, RuleId, Severity};
use crate::model::ledger::ClusterId;
use crate::model::text::count;

/// The bootstrap levels (and schemas) that mean "not classified".
const CATCH_ALL: [&str; 2] = ["catch-all", "global-default"];

fn lands_in_catch_all(flow: &FlowUse) -> bool {
    CATCH_ALL.contains(&flow.priority_level.as_str())
        || CATCH_ALL.contains(&flow.flow_schema.as_str())
}

/// Findings for the flows our requests landed in and the 429s we were answered with.
pub(super) fn apf_findings(
    cluster: &ClusterId,
    flows: &Read<Vec<FlowUse>>,
    requests: Option<&RequestStats>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    match flows {
        Read::Unknown(why) => out.push(super::judge::unknown(
            cluster,
            "flowcontrol",
            "the priority levels of our requests",
            why,
        )),
        Read::Known(flows) if flows.is_empty() && requests.is_some_and(|r| r.requests > 0) => {
            out.push(super::judge::unknown(
                cluster,
                "flowcontrol",
                "the priority level of our requests",
                "no response carried X-Kubernetes-PF-FlowSchema-UID (API Priority and Fairness off, or a proxy strips the headers)",
            ));
        }
        Read::Known(flows) => {
            let total: u64 = flows.iter().map(|f| f.requests).sum();
            for flow in flows.iter().filter(|f| lands_in_catch_all(f)) {
                let mut evidence = vec![format!(
                    "{} of our last {} responses carried X-Kubernetes-PF-FlowSchema-UID of {} and X-Kubernetes-PF-PriorityLevel-UID of {}",
                    count(flow.requests as i64),
                    count(total as i64),
                    flow.flow_schema,
                    flow.priority_level
                )];
                if !flow.resolved {
                    evidence.push("the UIDs could not be resolved to names; judged by the names the API server bootstraps".into());
                }
                evidence.push(if flow.priority_level == "catch-all" {
                    "catch-all has 5 concurrency shares and rejects (429) rather than queues".into()
                } else {
                    "global-default is shared with every client no FlowSchema classifies".into()
                });
                out.push(Finding {
                    summary_msg: Some(crate::i18n::Msg::new("fd-apf-catch-all").arg("level", flow.priority_level.to_string()).arg("schema", flow.flow_schema.to_string())),
                    silence_msg: Some(crate::i18n::Msg::new("fd-fix-apf-own")),
                    cluster: cluster.clone(),
                    rule: RuleId::ApfCatchAll,
                    severity: Severity::Warning,
                    key: format!("apfCatchAll/{}", flow.priority_level),
                    subject: format!("FlowSchema {} → PriorityLevel {}", flow.flow_schema, flow.priority_level),
                    summary: format!(
                        "our requests land in the {} priority level (FlowSchema {})",
                        flow.priority_level, flow.flow_schema
                    ),
                    evidence,
                    measure: Some(Measure {
                        value: flow.requests as f64,
                        threshold: None,
                        unit: "requests",
                    }),
                    since: None,
                    severity_since: None,
                    silence: "give fleetdeck its own FlowSchema and bounded priority level (examples/flowschema-fleetdeck.yaml)".into(),
                });
            }
        }
    }
    if let Some(stats) = requests.filter(|s| s.throttled_total > 0) {
        let recent = stats.throttled > 0;
        out.push(Finding {
            summary_msg: Some(crate::i18n::Msg::new("fd-apf-throttled").arg("total", count(stats.throttled_total as i64)).arg("recent", count(stats.throttled as i64)).arg("window", crate::model::duration::format_duration(stats.window))),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-apf-qps")),
            cluster: cluster.clone(),
            rule: RuleId::ApfThrottled,
            severity: if recent {
                Severity::Warning
            } else {
                Severity::Info
            },
            key: "apfThrottled".into(),
            subject: "our requests".into(),
            summary: format!(
                "the API server answered {} of our requests with 429 Too Many Requests ({} in the last {})",
                count(stats.throttled_total as i64),
                count(stats.throttled as i64),
                crate::model::duration::format_duration(stats.window)
            ),
            evidence: vec![format!(
                "{} requests in the last {}, {} of them 429",
                count(stats.requests as i64),
                crate::model::duration::format_duration(stats.window),
                count(stats.throttled as i64)
            )],
            measure: Some(Measure {
                value: stats.throttled_total as f64,
                threshold: None,
                unit: "requests",
            }),
            since: None,
            severity_since: None,
            silence: "lower [sync] qps and burst in config.toml, or give fleetdeck its own priority level (examples/flowschema-fleetdeck.yaml)".into(),
        });
    }
    out
}
