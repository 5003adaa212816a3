//! Reading a rollout file: every problem at once, each with its position.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::spec::*;
use crate::i18n::Msg;
use crate::model::duration::{Zero, read_duration};
use crate::model::ledger::{API_VERSION, Selector};
use crate::model::run::check_run_name_said;
use crate::yaml::{
    Diagnostic, Diagnostics, Fields, Node, Value, boolean, number, one_of, percent, positive,
    string, string_list,
};

const TOP_FIELDS: &[&str] = &[
    "apiVersion",
    "kind",
    "release",
    "targets",
    "stages",
    "budgets",
    "stopWhen",
    "approvals",
];
const RELEASE_FIELDS: &[&str] = &["name", "bundle", "action", "checks"];
const ACTION_FIELDS: &[&str] = &["apply", "exec"];
const APPLY_FIELDS: &[&str] = &["directory"];
const EXEC_FIELDS: &[&str] = &["argv", "timeout"];
const CHECK_KINDS: &[&str] = &["nodesReady", "workloadsReady", "exec", "prometheus"];
const NODES_READY_FIELDS: &[&str] = &["minRatio"];
const WORKLOADS_FIELDS: &[&str] = &["namespace", "selector"];
const PROMETHEUS_FIELDS: &[&str] = &["query", "threshold", "comparison"];
const STAGE_FIELDS: &[&str] = &[
    "name",
    "count",
    "percent",
    "batchSize",
    "soak",
    "approval",
    "pick",
];
const BUDGET_FIELDS: &[&str] = &["maxInFlight", "perRegion", "perFailureDomain"];
const STOP_FIELDS: &[&str] = &["failedClusters", "sloBurnRate", "unknownMetrics"];
const BURN_FIELDS: &[&str] = &[
    "objective",
    "window",
    "maxBurn",
    "query",
    "shortWindow",
    "shortMaxBurn",
];
const APPROVAL_FIELDS: &[&str] = &["distinctApprover"];

/// The result of reading a rollout file.
#[derive(Debug)]
pub struct RolloutReport {
    /// The rollout, present only when there are no errors.
    pub spec: Option<RolloutSpec>,
    /// Every error and warning, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and validates a rollout file from its text. Never panics, whatever the input.
pub fn read_rollout(text: &str) -> RolloutReport {
    let (spec, diagnostics) = crate::yaml::read_document(text, decode);
    RolloutReport { spec, diagnostics }
}

fn decode(root: &Node, diags: &mut Diagnostics) -> Option<RolloutSpec> {
    let top = Fields::of(root, "rollout", diags)?;
    if top.of_other_kind("Rollout", diags) {
        return None;
    }
    top.reject_unknown(TOP_FIELDS, diags);
    top.expect_text("apiVersion", API_VERSION, diags);
    top.expect_text("kind", "Rollout", diags);
    let release = top
        .required("release", diags)
        .and_then(|n| decode_release(n, diags));
    let targets = top.required("targets", diags).and_then(|n| {
        let text = string(n, "targets", diags)?;
        match Selector::parse(&text) {
            Ok(_) => Some(text),
            Err(e) => {
                diags.error_said(n.pos, e.to_string(), e.msg());
                None
            }
        }
    });
    let stages = top
        .required("stages", diags)
        .and_then(|n| decode_stages(n, diags));
    let budgets = top
        .required("budgets", diags)
        .and_then(|n| decode_budgets(n, diags));
    let stop_when = match top.get("stopWhen") {
        Some(n) => decode_stop(n, diags),
        None => Some(StopWhen::default()),
    };
    let approvals = match top.get("approvals") {
        Some(n) => decode_approvals(n, diags),
        None => Some(ApprovalPolicy::default()),
    };
    if let (Some(stages), Some(budgets), Some(node)) = (&stages, &budgets, top.get("budgets")) {
        for stage in stages {
            if stage.batch_size > budgets.max_in_flight {
                diags.warning_said(
                    node.pos,
                    format!(
                        "stage \"{}\" has batchSize {} but maxInFlight is {}: its batches hold at most {}",
                        stage.name, stage.batch_size, budgets.max_in_flight, budgets.max_in_flight
                    ),
                    Msg::new("validate-batch-over-in-flight")
                        .arg("stage", &stage.name)
                        .arg("size", stage.batch_size.to_string())
                        .arg("max", budgets.max_in_flight.to_string()),
                );
            }
        }
    }
    Some(RolloutSpec {
        release: release?,
        targets: targets?,
        stages: stages?,
        budgets: budgets?,
        stop_when: stop_when?,
        approvals: approvals?,
    })
}

fn decode_release(node: &Node, diags: &mut Diagnostics) -> Option<Release> {
    let fields = Fields::of(node, "release", diags)?;
    fields.reject_unknown(RELEASE_FIELDS, diags);
    let name = fields.non_empty_checked("name", diags, check_run_name_said);
    let bundle = fields.required("bundle", diags).map(|n| {
        let map = crate::yaml::string_map(n, "bundle", diags);
        if map.is_empty() && matches!(n.value, Value::Map(_)) {
            diags.error_said(
                n.pos,
                "field `bundle` names no component version",
                Msg::new("validate-bundle-empty"),
            );
        }
        for (component, (version, pos)) in &map {
            if version.trim().is_empty() {
                diags.error_said(
                    *pos,
                    format!("bundle.{component} has no version"),
                    Msg::new("validate-bundle-no-version").arg("component", component),
                );
            }
        }
        map.into_iter()
            .map(|(k, (v, _))| (k, v))
            .collect::<BTreeMap<_, _>>()
    });
    let action = fields
        .required("action", diags)
        .and_then(|n| decode_action(n, diags));
    let checks = match fields.get("checks") {
        Some(n) => decode_checks(n, diags),
        None => {
            diags.warning_said(
                node.pos,
                "release has no `checks`: a cluster counts as succeeded as soon as the action returns",
                Msg::new("validate-no-checks"),
            );
            Some(Vec::new())
        }
    };
    Some(Release {
        name: name?,
        bundle: bundle?,
        action: action?,
        checks: checks?,
    })
}

fn decode_action(node: &Node, diags: &mut Diagnostics) -> Option<ReleaseAction> {
    let fields = Fields::of(node, "action", diags)?;
    fields.reject_unknown(ACTION_FIELDS, diags);
    match (fields.get("apply"), fields.get("exec")) {
        (Some(_), Some(exec)) => {
            diags.error_said(
                exec.pos,
                "action takes either `apply` or `exec`, not both",
                Msg::new("validate-apply-or-exec"),
            );
            None
        }
        (None, None) => {
            diags.error_said(
                node.pos,
                "action needs `apply` (a manifest directory) or `exec` (a program per cluster)",
                Msg::new("validate-release-action-needs"),
            );
            None
        }
        (Some(apply), None) => {
            let f = Fields::of(apply, "apply", diags)?;
            f.reject_unknown(APPLY_FIELDS, diags);
            let directory = f.non_empty("directory", diags)?;
            Some(ReleaseAction::Apply { directory })
        }
        (None, Some(exec)) => decode_exec(exec, "exec", diags).map(ReleaseAction::Exec),
    }
}

fn decode_exec(node: &Node, what: &str, diags: &mut Diagnostics) -> Option<ExecCommand> {
    let fields = Fields::of(node, what, diags)?;
    fields.reject_unknown(EXEC_FIELDS, diags);
    let argv_node = fields.required("argv", diags);
    let argv: Vec<String> = argv_node
        .map(|n| {
            string_list(n, "argv", diags)
                .into_iter()
                .map(|(s, _)| s)
                .collect()
        })
        .unwrap_or_default();
    if let Some(n) = argv_node
        && argv.first().is_none_or(|p| p.trim().is_empty())
        && matches!(n.value, Value::Seq(_))
    {
        diags.error_said(
            n.pos,
            "field `argv` needs at least the program to run",
            Msg::new("validate-argv-empty"),
        );
    }
    let timeout = fields
        .required("timeout", diags)
        .and_then(|n| read_duration(n, "timeout", Zero::Refused, diags));
    argv_node?;
    Some(ExecCommand {
        argv,
        timeout: timeout?,
    })
}

fn decode_stages(node: &Node, diags: &mut Diagnostics) -> Option<Vec<Stage>> {
    let Value::Seq(items) = &node.value else {
        diags.error_said(
            node.pos,
            format!("field `stages` must be a list, found {}", node.shape_name()),
            Msg::new("validate-must-be-list")
                .arg("field", "stages")
                .arg("found", node.shape_msg()),
        );
        return None;
    };
    if items.is_empty() {
        diags.error_said(
            node.pos,
            "field `stages` lists no stage",
            Msg::new("validate-stages-empty"),
        );
        return None;
    }
    let mut stages = Vec::new();
    let mut names = BTreeSet::new();
    let mut complete = true;
    for (index, item) in items.iter().enumerate() {
        let last = index + 1 == items.len();
        let Some(stage) = decode_stage(item, last, diags) else {
            complete = false;
            continue;
        };
        if !names.insert(stage.name.clone()) {
            diags.error_said(
                item.pos,
                format!("stage \"{}\" is declared twice", stage.name),
                Msg::new("validate-stage-twice").arg("stage", &stage.name),
            );
        }
        stages.push(stage);
    }
    complete.then_some(stages)
}

fn decode_stage(node: &Node, last: bool, diags: &mut Diagnostics) -> Option<Stage> {
    let fields = Fields::of(node, "stage", diags)?;
    fields.reject_unknown(STAGE_FIELDS, diags);
    let name = fields.non_empty("name", diags);
    let size = match (fields.get("count"), fields.get("percent")) {
        (Some(_), Some(p)) => {
            diags.error_said(
                p.pos,
                "a stage takes either `count` or `percent`, not both",
                Msg::new("validate-count-or-percent"),
            );
            None
        }
        (Some(c), None) => positive(c, "count", diags).map(StageSize::Count),
        (None, Some(p)) => percent(p, "percent", diags).map(StageSize::Percent),
        (None, None) if last => Some(StageSize::Rest),
        (None, None) => {
            diags.error_said(
                node.pos,
                "stage needs `count` or `percent` (only the last stage may leave it out and take the rest)",
                Msg::new("validate-stage-needs-size"),
            );
            None
        }
    };
    let batch_size = fields
        .required("batchSize", diags)
        .and_then(|n| positive(n, "batchSize", diags));
    let soak = match fields.get("soak") {
        Some(n) => read_duration(n, "soak", Zero::Allowed, diags),
        None => Some(Duration::ZERO),
    };
    let approval = match fields.get("approval") {
        Some(n) => one_of(n, "approval", &["required", "auto"], diags).map(|a| match a {
            "auto" => Approval::Auto,
            _ => Approval::Required,
        }),
        // Unspecified means a person decides: the safe reading of silence.
        None => Some(Approval::Required),
    };
    let pick = match fields.get("pick") {
        Some(n) => one_of(n, "pick", &Pick::NAMES, diags).map(|p| match p {
            "representative" => Pick::Representative,
            "lowestTierFirst" => Pick::LowestTierFirst,
            _ => Pick::Ordered,
        }),
        None => Some(Pick::Ordered),
    };
    Some(Stage {
        name: name?,
        size: size?,
        batch_size: batch_size?,
        soak: soak?,
        approval: approval?,
        pick: pick?,
    })
}

fn decode_budgets(node: &Node, diags: &mut Diagnostics) -> Option<Budgets> {
    let fields = Fields::of(node, "budgets", diags)?;
    fields.reject_unknown(BUDGET_FIELDS, diags);
    let max = fields
        .required("maxInFlight", diags)
        .and_then(|n| positive(n, "maxInFlight", diags));
    let mut ok = true;
    let mut optional = |key: &str, diags: &mut Diagnostics| match fields.get(key) {
        Some(n) => {
            let v = positive(n, key, diags);
            ok &= v.is_some();
            v
        }
        None => None,
    };
    let per_region = optional("perRegion", diags);
    let per_failure_domain = optional("perFailureDomain", diags);
    if !ok {
        return None;
    }
    Some(Budgets {
        max_in_flight: max?,
        per_region,
        per_failure_domain,
    })
}

fn decode_stop(node: &Node, diags: &mut Diagnostics) -> Option<StopWhen> {
    let fields = Fields::of(node, "stopWhen", diags)?;
    fields.reject_unknown(STOP_FIELDS, diags);
    let mut stop = StopWhen::default();
    let mut ok = true;
    if let Some(n) = fields.get("failedClusters") {
        let text = string(n, "failedClusters", diags).unwrap_or_default();
        let limit = if text.trim().ends_with('%') {
            percent(n, "failedClusters", diags).map(FailedLimit::Percent)
        } else {
            positive(n, "failedClusters", diags).map(FailedLimit::Count)
        };
        match limit {
            Some(l) => stop.failed_clusters = l,
            None => ok = false,
        }
    }
    if let Some(n) = fields.get("sloBurnRate") {
        match decode_burn(n, diags) {
            Some(b) => stop.slo_burn_rate = Some(b),
            None => ok = false,
        }
    }
    if let Some(n) = fields.get("unknownMetrics") {
        match one_of(n, "unknownMetrics", &["stop", "ignore"], diags) {
            Some("ignore") => {
                diags.warning_said(
                    n.pos,
                    "unknownMetrics: ignore lets the rollout continue without evidence",
                    Msg::new("validate-unknown-metrics-ignore"),
                );
                stop.unknown_metrics = UnknownMetrics::Ignore;
            }
            Some(_) => stop.unknown_metrics = UnknownMetrics::Stop,
            None => ok = false,
        }
    }
    ok.then_some(stop)
}

/// The burn-rate limit, with its error-ratio query if the file gives one.
fn decode_burn(node: &Node, diags: &mut Diagnostics) -> Option<BurnRateLimit> {
    let fields = Fields::of(node, "sloBurnRate", diags)?;
    fields.reject_unknown(BURN_FIELDS, diags);
    let objective = fields.required("objective", diags).and_then(|n| {
        let p = percent(n, "objective", diags)?;
        if p >= 100.0 {
            diags.error_said(
                n.pos,
                "field `objective` must be below 100%: a 100% objective has no error budget",
                Msg::new("validate-objective-below-100"),
            );
            return None;
        }
        Some(p / 100.0)
    });
    let window = fields
        .required("window", diags)
        .and_then(|n| read_duration(n, "window", Zero::Refused, diags));
    let max_burn = fields.required("maxBurn", diags).and_then(|n| {
        let v = number(n, "maxBurn", diags)?;
        if v <= 0.0 {
            diags.error_said(
                n.pos,
                "field `maxBurn` must be above 0",
                Msg::new("validate-above-zero").arg("field", "maxBurn"),
            );
            return None;
        }
        Some(v)
    });
    let query = fields.optional_string("query", diags);
    if let (Some(q), Some(n)) = (&query, fields.get("query"))
        && !q.contains("$cluster")
    {
        diags.warning_said(
            n.pos,
            "the query has no `$cluster`: every cluster would get the same error ratio",
            Msg::new("validate-query-no-cluster"),
        );
    }
    let short_window = fields
        .get("shortWindow")
        .and_then(|n| read_duration(n, "shortWindow", Zero::Refused, diags));
    let short_max = fields.get("shortMaxBurn").and_then(|n| {
        let v = number(n, "shortMaxBurn", diags)?;
        if v <= 0.0 {
            diags.error_said(
                n.pos,
                "field `shortMaxBurn` must be above 0",
                Msg::new("validate-above-zero").arg("field", "shortMaxBurn"),
            );
            return None;
        }
        Some(v)
    });
    if let (Some(n), None) = (fields.get("shortMaxBurn"), fields.get("shortWindow")) {
        diags.error_said(
            n.pos,
            "field `shortMaxBurn` needs `shortWindow`: the short window it is the maximum of",
            Msg::new("validate-short-max-needs-window"),
        );
    }
    // The short window says the burn is still going on: one as long as the long window
    // (or longer) says nothing the long one does not.
    if let (Some(n), Some(short), Some(long)) = (fields.get("shortWindow"), short_window, window)
        && short >= long
    {
        let short = crate::model::duration::format_duration(short);
        let long = crate::model::duration::format_duration(long);
        diags.error_said(
            n.pos,
            format!("field `shortWindow` ({short}) must be shorter than `window` ({long})"),
            Msg::new("validate-short-window-longer")
                .arg("short", short)
                .arg("long", long),
        );
        return None;
    }
    let short = match short_window {
        Some(window) => Some(ShortWindow {
            window,
            max_burn: short_max.or(max_burn)?,
        }),
        None => None,
    };
    Some(BurnRateLimit {
        objective: objective?,
        window: window?,
        max_burn: max_burn?,
        error_ratio_query: query,
        short,
    })
}

fn decode_approvals(node: &Node, diags: &mut Diagnostics) -> Option<ApprovalPolicy> {
    let fields = Fields::of(node, "approvals", diags)?;
    fields.reject_unknown(APPROVAL_FIELDS, diags);
    match fields.get("distinctApprover") {
        Some(n) => boolean(n, "distinctApprover", diags).map(|b| {
            if b {
                ApprovalPolicy::DistinctFromAuthor
            } else {
                ApprovalPolicy::AnyPerson
            }
        }),
        None => Some(ApprovalPolicy::AnyPerson),
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;

#[path = "decode_checks.rs"]
mod checks;
use checks::decode_checks;
