//! Reading a release's verification checks: one kind per list entry, each validated.

use super::decode_exec;
use super::{CHECK_KINDS, NODES_READY_FIELDS, PROMETHEUS_FIELDS, WORKLOADS_FIELDS};
use crate::i18n::Msg;
use crate::model::ledger::Selector;
use crate::model::rollout::spec::*;
use crate::yaml::{Diagnostics, Fields, Node, Value, number, one_of, string};

/// The `checks` list of a release.
pub(super) fn decode_checks(node: &Node, diags: &mut Diagnostics) -> Option<Vec<Check>> {
    let Value::Seq(items) = &node.value else {
        diags.error_said(
            node.pos,
            format!("field `checks` must be a list, found {}", node.shape_name()),
            Msg::new("validate-must-be-list")
                .arg("field", "checks")
                .arg("found", node.shape_msg()),
        );
        return None;
    };
    let mut checks = Vec::new();
    for item in items {
        let Some(fields) = Fields::of(item, "check", diags) else {
            continue;
        };
        fields.reject_unknown(CHECK_KINDS, diags);
        let present: Vec<&str> = CHECK_KINDS
            .iter()
            .copied()
            .filter(|k| fields.get(k).is_some())
            .collect();
        if present.len() > 1 {
            diags.error_said(
                item.pos,
                format!(
                    "a check is one of {}; this one has {}",
                    CHECK_KINDS.join(", "),
                    present.join(" and ")
                ),
                Msg::new("validate-check-kinds")
                    .arg("names", CHECK_KINDS.join(", "))
                    .arg("present", and_list(&present)),
            );
            continue;
        }
        let Some(kind) = present.first() else {
            diags.error_said(
                item.pos,
                format!("a check needs one of {}", CHECK_KINDS.join(", ")),
                Msg::new("validate-check-needs").arg("names", CHECK_KINDS.join(", ")),
            );
            continue;
        };
        let Some(body) = fields.get(kind) else {
            continue;
        };
        let check = match *kind {
            "nodesReady" => Fields::of(body, "nodesReady", diags).and_then(|f| {
                f.reject_unknown(NODES_READY_FIELDS, diags);
                let n = f.required("minRatio", diags)?;
                let ratio = number(n, "minRatio", diags)?;
                if !(0.0..=1.0).contains(&ratio) {
                    diags.error_said(
                        n.pos,
                        format!("field `minRatio` must be between 0 and 1, found {ratio}"),
                        Msg::new("validate-min-ratio").arg("found", ratio.to_string()),
                    );
                    return None;
                }
                Some(Check::NodesReady { min_ratio: ratio })
            }),
            "workloadsReady" => Fields::of(body, "workloadsReady", diags).and_then(|f| {
                f.reject_unknown(WORKLOADS_FIELDS, diags);
                match (f.get("namespace"), f.get("selector")) {
                    (Some(_), Some(s)) => {
                        diags.error_said(
                            s.pos,
                            "workloadsReady takes either `namespace` or `selector`, not both",
                            Msg::new("validate-namespace-or-selector"),
                        );
                        None
                    }
                    (None, None) => {
                        diags.error_said(
                            body.pos,
                            "workloadsReady needs `namespace` or `selector`",
                            Msg::new("validate-workloads-needs"),
                        );
                        None
                    }
                    (Some(ns), None) => string(ns, "namespace", diags)
                        .map(|n| Check::WorkloadsReady(WorkloadScope::Namespace(n))),
                    (None, Some(sel)) => {
                        let text = string(sel, "selector", diags)?;
                        if let Err(e) = Selector::parse(&text) {
                            diags.error_said(sel.pos, e.to_string(), e.msg());
                            return None;
                        }
                        Some(Check::WorkloadsReady(WorkloadScope::Selector(text)))
                    }
                }
            }),
            "exec" => decode_exec(body, "exec check", diags).map(Check::Exec),
            _ => Fields::of(body, "prometheus", diags).and_then(|f| {
                f.reject_unknown(PROMETHEUS_FIELDS, diags);
                let query = f.non_empty("query", diags);
                let threshold = f
                    .required("threshold", diags)
                    .and_then(|n| number(n, "threshold", diags));
                let comparison = f
                    .required("comparison", diags)
                    .and_then(|n| one_of(n, "comparison", &Comparison::NAMES, diags))
                    .and_then(Comparison::parse);
                Some(Check::Prometheus(PrometheusCheck {
                    query: query?,
                    threshold: threshold?,
                    comparison: comparison?,
                }))
            }),
        };
        checks.extend(check);
    }
    Some(checks)
}

/// `a and b and c` as a message (each word joined by the reader's "and").
fn and_list(words: &[&str]) -> crate::i18n::Arg {
    let mut items = words.iter();
    let Some(first) = items.next() else {
        return crate::i18n::Arg::from("");
    };
    items.fold(crate::i18n::Arg::from(*first), |joined, next| {
        Msg::new("validate-and")
            .arg("a", joined)
            .arg("b", *next)
            .into()
    })
}
