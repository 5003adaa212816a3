//! Reading a maintenance file: every problem at once, each with its position.

use std::collections::{BTreeMap, BTreeSet};

use super::spec::*;
use super::step::Step;
use crate::i18n::Msg;
use crate::model::duration::{Zero, read_duration};
use crate::model::ledger::{API_VERSION, ClusterId, Ledger, Selector};
use crate::model::run::{NodeName, check_run_name_said};
use crate::yaml::{
    Diagnostic, Diagnostics, Fields, Node, Value, boolean, string, string_list, suggest,
    whole_number,
};

const TOP_FIELDS: &[&str] = &[
    "apiVersion",
    "kind",
    "name",
    "cluster",
    "nodes",
    "action",
    "budgets",
    "deadlines",
    "drain",
    "verify",
];
const NODES_FIELDS: &[&str] = &["names", "selector"];
const ACTION_FIELDS: &[&str] = &["exec", "manual"];
const EXEC_FIELDS: &[&str] = &["argv", "timeout", "idempotent"];
const MANUAL_FIELDS: &[&str] = &["instructions"];
const BUDGET_FIELDS: &[&str] = &[
    "maxUnavailable",
    "perFailureDomain",
    "failureDomainLabel",
    "perLabel",
];
const LABEL_BUDGET_FIELDS: &[&str] = &["label", "maxUnavailable"];
const DRAIN_FIELDS: &[&str] = &[
    "gracePeriod",
    "deleteEmptyDirData",
    "evictionRetry",
    "terminatingGrace",
];
const VERIFY_FIELDS: &[&str] = &["expectedVersions"];

/// The result of reading a maintenance file.
#[derive(Debug)]
pub struct MaintenanceReport {
    /// The maintenance, present only when there are no errors.
    pub spec: Option<MaintenanceSpec>,
    /// Every error and warning, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and validates a maintenance file from its text. Never panics, whatever the input.
pub fn read_maintenance(text: &str) -> MaintenanceReport {
    let (spec, diagnostics) =
        crate::yaml::read_document(text, |root, diags| decode(root, None, diags));
    MaintenanceReport { spec, diagnostics }
}

/// [`read_maintenance`], and the file's `cluster` must be one of `ledger`'s.
pub fn read_maintenance_for(text: &str, ledger: &Ledger) -> MaintenanceReport {
    let (spec, diagnostics) =
        crate::yaml::read_document(text, |root, diags| decode(root, Some(ledger), diags));
    MaintenanceReport { spec, diagnostics }
}

fn decode(
    root: &Node,
    ledger: Option<&Ledger>,
    diags: &mut Diagnostics,
) -> Option<MaintenanceSpec> {
    let top = Fields::of(root, "maintenance", diags)?;
    if top.of_other_kind("Maintenance", diags) {
        return None;
    }
    top.reject_unknown(TOP_FIELDS, diags);
    top.expect_text("apiVersion", API_VERSION, diags);
    top.expect_text("kind", "Maintenance", diags);
    let name = top.non_empty_checked("name", diags, check_run_name_said);
    let cluster = top.non_empty_checked("cluster", diags, |id| match ledger {
        Some(ledger) if ledger.cluster(id).is_none() => {
            let near = suggest(id, ledger.clusters.iter().map(|c| c.id.as_str()));
            let hint = near
                .map(|s| format!(" (did you mean \"{s}\"?)"))
                .unwrap_or_default();
            let says = match near {
                Some(near) => Msg::new("validate-not-a-cluster-near").arg("near", near),
                None => Msg::new("validate-not-a-cluster"),
            };
            Err((format!("is not a cluster of the ledger{hint}"), says))
        }
        _ => Ok(()),
    });
    let nodes = top
        .required("nodes", diags)
        .and_then(|n| decode_nodes(n, diags));
    let action = top
        .required("action", diags)
        .and_then(|n| decode_action(n, diags));
    let budgets = top
        .required("budgets", diags)
        .and_then(|n| decode_budgets(n, diags));
    let deadlines = top
        .get("deadlines")
        .map(|n| decode_deadlines(n, diags))
        .unwrap_or_default();
    let drain = top
        .get("drain")
        .map(|n| decode_drain(n, diags))
        .unwrap_or_default();
    let verify = top
        .get("verify")
        .map(|n| decode_verify(n, diags))
        .unwrap_or_default();
    if let (Some(MaintainAction::Exec(hook)), Some(node)) = (&action, top.get("action")) {
        let maintain = deadlines.of(Step::Maintain);
        if hook.timeout > maintain {
            let timeout = crate::model::duration::format_duration(hook.timeout);
            let deadline = crate::model::duration::format_duration(maintain);
            diags.warning_said(
                node.pos,
                format!(
                    "the hook's timeout ({timeout}) is longer than the Maintain deadline ({deadline}): the step will be stuck before the hook is stopped"
                ),
                Msg::new("validate-hook-outlasts-deadline")
                    .arg("timeout", timeout)
                    .arg("deadline", deadline),
            );
        }
    }
    Some(MaintenanceSpec {
        name: name?,
        cluster: ClusterId::from(cluster?),
        nodes: nodes?,
        action: action?,
        budgets: budgets?,
        deadlines,
        drain,
        verify,
    })
}

/// A count of nodes that must allow at least one.
fn positive(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<u32> {
    let n = whole_number(node, field, diags)?;
    if n == 0 {
        diags.error_said(
            node.pos,
            format!("field `{field}` must be at least 1, or nothing can ever be maintained"),
            Msg::new("validate-at-least-one-node").arg("field", field),
        );
        return None;
    }
    Some(n)
}

fn decode_nodes(node: &Node, diags: &mut Diagnostics) -> Option<NodeSelection> {
    let fields = Fields::of(node, "nodes", diags)?;
    fields.reject_unknown(NODES_FIELDS, diags);
    match (fields.get("names"), fields.get("selector")) {
        (Some(_), Some(selector)) => {
            diags.error_said(
                selector.pos,
                "nodes takes either `names` or `selector`, not both",
                Msg::new("validate-names-or-selector"),
            );
            None
        }
        (None, None) => {
            diags.error_said(
                node.pos,
                "nodes needs `names` (a list) or `selector` (a label selector)",
                Msg::new("validate-nodes-needs"),
            );
            None
        }
        (Some(names), None) => {
            let list = string_list(names, "names", diags);
            if list.is_empty() && matches!(names.value, Value::Seq(_)) {
                diags.error_said(
                    names.pos,
                    "field `names` lists no node",
                    Msg::new("validate-names-empty"),
                );
            }
            let mut seen = BTreeSet::new();
            for (name, pos) in &list {
                if !seen.insert(name.clone()) {
                    diags.error_said(
                        *pos,
                        format!("node \"{name}\" is listed twice"),
                        Msg::new("validate-node-twice").arg("name", name),
                    );
                }
            }
            Some(NodeSelection::Names(
                list.into_iter().map(|(n, _)| NodeName::from(n)).collect(),
            ))
        }
        (None, Some(selector)) => {
            let text = string(selector, "selector", diags)?;
            if text.trim().is_empty() {
                diags.error_said(
                    selector.pos,
                    "field `selector` must not be empty: it would select every node",
                    Msg::new("validate-selector-empty"),
                );
                return None;
            }
            match Selector::parse(&text) {
                Ok(_) => Some(NodeSelection::Selector(text)),
                Err(e) => {
                    diags.error_said(selector.pos, e.to_string(), e.msg());
                    None
                }
            }
        }
    }
}

fn decode_action(node: &Node, diags: &mut Diagnostics) -> Option<MaintainAction> {
    let fields = Fields::of(node, "action", diags)?;
    fields.reject_unknown(ACTION_FIELDS, diags);
    match (fields.get("exec"), fields.get("manual")) {
        (Some(_), Some(manual)) => {
            diags.error_said(
                manual.pos,
                "action takes either `exec` or `manual`, not both",
                Msg::new("validate-exec-or-manual"),
            );
            None
        }
        (None, None) => {
            diags.error_said(
                node.pos,
                "action needs `exec` (a program to run) or `manual` (a person does it)",
                Msg::new("validate-action-needs"),
            );
            None
        }
        (Some(exec), None) => decode_exec(exec, diags).map(MaintainAction::Exec),
        (None, Some(manual)) => {
            let fields = Fields::of(manual, "manual", diags)?;
            fields.reject_unknown(MANUAL_FIELDS, diags);
            let instructions = fields.non_empty("instructions", diags)?;
            Some(MaintainAction::Manual { instructions })
        }
    }
}

fn decode_exec(node: &Node, diags: &mut Diagnostics) -> Option<ExecHook> {
    let fields = Fields::of(node, "exec", diags)?;
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
    if let Some(n) = argv_node {
        if argv.first().is_none_or(|p| p.trim().is_empty()) && matches!(n.value, Value::Seq(_)) {
            diags.error_said(
                n.pos,
                "field `argv` needs at least the program to run",
                Msg::new("validate-argv-empty"),
            );
        }
        let shells = ["sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "zsh"];
        if argv.first().is_some_and(|p| shells.contains(&p.as_str()))
            && argv.get(1).is_some_and(|a| a == "-c")
        {
            diags.warning_said(
                n.pos,
                "argv runs a shell script: fleetdeck passes argv without a shell on purpose; prefer calling the program directly",
                Msg::new("validate-argv-shell"),
            );
        }
    }
    let timeout = fields
        .required("timeout", diags)
        .and_then(|n| read_duration(n, "timeout", Zero::Refused, diags));
    let idempotent = fields
        .get("idempotent")
        .map(|n| boolean(n, "idempotent", diags))
        .unwrap_or(Some(false));
    argv_node?;
    Some(ExecHook {
        argv,
        timeout: timeout?,
        idempotent: idempotent?,
    })
}

fn decode_budgets(node: &Node, diags: &mut Diagnostics) -> Option<Budgets> {
    let fields = Fields::of(node, "budgets", diags)?;
    fields.reject_unknown(BUDGET_FIELDS, diags);
    let max = fields
        .required("maxUnavailable", diags)
        .and_then(|n| positive(n, "maxUnavailable", diags));
    let per_domain_node = fields.get("perFailureDomain");
    let per_domain = per_domain_node.and_then(|n| positive(n, "perFailureDomain", diags));
    if let (Some(max), Some(per), Some(n)) = (max, per_domain, per_domain_node)
        && per > max
    {
        diags.warning_said(
            n.pos,
            format!(
                "perFailureDomain ({per}) is larger than maxUnavailable ({max}) and has no effect"
            ),
            Msg::new("validate-per-domain-no-effect")
                .arg("per", per.to_string())
                .arg("max", max.to_string()),
        );
    }
    let label = match fields.get("failureDomainLabel") {
        None => Some(DEFAULT_FAILURE_DOMAIN_LABEL.to_string()),
        Some(n) => string(n, "failureDomainLabel", diags).and_then(|text| {
            if text.trim().is_empty() {
                diags.error_said(
                    n.pos,
                    format!(
                        "field `failureDomainLabel` must not be empty: name a node label, or leave the field out for {DEFAULT_FAILURE_DOMAIN_LABEL}"
                    ),
                    Msg::new("validate-domain-label-empty")
                        .arg("default", DEFAULT_FAILURE_DOMAIN_LABEL),
                );
                return None;
            }
            Some(text)
        }),
    };
    let mut per_label = Vec::new();
    if let Some(list) = fields.get("perLabel") {
        match &list.value {
            Value::Seq(items) => {
                let mut seen = BTreeSet::new();
                for item in items {
                    let Some(f) = Fields::of(item, "perLabel entry", diags) else {
                        continue;
                    };
                    f.reject_unknown(LABEL_BUDGET_FIELDS, diags);
                    let label = f.non_empty("label", diags);
                    let n = f
                        .required("maxUnavailable", diags)
                        .and_then(|n| positive(n, "maxUnavailable", diags));
                    if let (Some(label), Some(n)) = (label, n) {
                        if !seen.insert(label.clone()) {
                            diags.error_said(
                                item.pos,
                                format!("label \"{label}\" has two budgets"),
                                Msg::new("validate-label-two-budgets").arg("label", &label),
                            );
                        }
                        per_label.push(LabelBudget {
                            label,
                            max_unavailable: n,
                        });
                    }
                }
            }
            _ => diags.error_said(
                list.pos,
                format!(
                    "field `perLabel` must be a list, found {}",
                    list.shape_name()
                ),
                Msg::new("validate-must-be-list")
                    .arg("field", "perLabel")
                    .arg("found", list.shape_msg()),
            ),
        }
    }
    Some(Budgets {
        max_unavailable: max?,
        failure_domain_label: label?,
        per_failure_domain: per_domain,
        per_label,
    })
}

fn decode_deadlines(node: &Node, diags: &mut Diagnostics) -> Deadlines {
    let mut deadlines = Deadlines::default();
    let Value::Map(entries) = &node.value else {
        diags.error_said(
            node.pos,
            format!(
                "field `deadlines` must be a mapping of step to duration, found {}",
                node.shape_name()
            ),
            Msg::new("validate-deadlines-shape").arg("found", node.shape_msg()),
        );
        return deadlines;
    };
    let keys: Vec<&str> = Step::WORK.iter().map(|s| s.file_key()).collect();
    for (key, value) in entries {
        let Some(step) = Step::from_file_key(&key.text) else {
            let near = suggest(&key.text, keys.iter().copied());
            let hint = near
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            let says = match near {
                Some(near) => Msg::new("validate-unknown-step-near").arg("near", near),
                None => Msg::new("validate-unknown-step"),
            };
            diags.error_said(
                key.pos,
                format!(
                    "unknown step `{}` in deadlines{hint}; steps are {}",
                    key.text,
                    keys.join(", ")
                ),
                says.arg("key", &key.text).arg("names", keys.join(", ")),
            );
            continue;
        };
        if let Some(d) = read_duration(
            value,
            &format!("deadlines.{}", key.text),
            Zero::Refused,
            diags,
        ) {
            deadlines.by_step.insert(step, d);
        }
    }
    deadlines
}

fn decode_drain(node: &Node, diags: &mut Diagnostics) -> DrainOptions {
    let mut drain = DrainOptions::default();
    let Some(fields) = Fields::of(node, "drain", diags) else {
        return drain;
    };
    fields.reject_unknown(DRAIN_FIELDS, diags);
    if let Some(n) = fields.get("gracePeriod") {
        drain.grace_period = read_duration(n, "gracePeriod", Zero::Refused, diags);
    }
    if let Some(b) = fields
        .get("deleteEmptyDirData")
        .and_then(|n| boolean(n, "deleteEmptyDirData", diags))
    {
        drain.delete_empty_dir_data = b;
    }
    if let Some(d) = fields
        .get("evictionRetry")
        .and_then(|n| read_duration(n, "evictionRetry", Zero::Refused, diags))
    {
        drain.eviction_retry = d;
    }
    if let Some(d) = fields
        .get("terminatingGrace")
        .and_then(|n| read_duration(n, "terminatingGrace", Zero::Refused, diags))
    {
        drain.terminating_grace = d;
    }
    drain
}

fn decode_verify(node: &Node, diags: &mut Diagnostics) -> VerifyOptions {
    let mut verify = VerifyOptions::default();
    let Some(fields) = Fields::of(node, "verify", diags) else {
        return verify;
    };
    fields.reject_unknown(VERIFY_FIELDS, diags);
    if let Some(n) = fields.get("expectedVersions") {
        let Value::Map(entries) = &n.value else {
            diags.error_said(
                n.pos,
                format!(
                    "field `expectedVersions` must be a mapping, found {}",
                    n.shape_name()
                ),
                Msg::new("validate-field-must-be-mapping")
                    .arg("field", "expectedVersions")
                    .arg("found", n.shape_msg()),
            );
            return verify;
        };
        let mut out = BTreeMap::new();
        for (key, value) in entries {
            if !VERSION_KEYS.contains(&key.text.as_str()) {
                let near = suggest(&key.text, VERSION_KEYS.iter().copied());
                let hint = near
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                let says = match near {
                    Some(near) => Msg::new("validate-unknown-version-near").arg("near", near),
                    None => Msg::new("validate-unknown-version"),
                };
                diags.error_said(
                    key.pos,
                    format!(
                        "unknown version `{}` in expectedVersions{hint}; known: {}",
                        key.text,
                        VERSION_KEYS.join(", ")
                    ),
                    says.arg("key", &key.text)
                        .arg("names", VERSION_KEYS.join(", ")),
                );
                continue;
            }
            if let Some(v) = string(value, &format!("expectedVersions.{}", key.text), diags) {
                out.insert(key.text.clone(), v);
            }
        }
        verify.expected_versions = out;
    }
    verify
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
