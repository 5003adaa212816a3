//! How `rollout plan`, `start` and `show` print for people: the plan's stages, batches
//! and coverage, where live versions differ from the ledger, the apply order, and each
//! cluster's result in a word.

use fleetdeck::model::duration::format_duration;
use fleetdeck::model::rollout::{
    OrderedObject, ReleaseDigest, RolloutPlan, RolloutSpec, file_spelling,
};

use fleetdeck::i18n::Lang;
use fleetdeck::t;

use super::output::Table;

/// Where the targets' live versions differ from the ledger's (canaries were picked by
/// what runs), and which targets could not be read (picked by the ledger's versions).
pub(super) fn render_live(lang: Lang, plan: &RolloutPlan) -> String {
    let mut s = String::new();
    if !plan.live_drift.is_empty() {
        s.push_str(&t!(
            lang,
            "rollout-live-drift",
            count = plan.live_drift.len().to_string()
        ));
        s.push('\n');
        for drift in &plan.live_drift {
            s.push_str(&format!("  {}: {}\n", drift.cluster, drift.differences()));
        }
    }
    if !plan.not_observed.is_empty() {
        let ids: Vec<&str> = plan.not_observed.iter().map(|c| c.as_str()).collect();
        s.push_str(&t!(
            lang,
            "rollout-not-observed",
            count = ids.len().to_string(),
            ids = ids.join(", ")
        ));
        s.push('\n');
    }
    s
}

/// The apply order, one object a line (nothing for an `exec` release).
pub(super) fn render_order(lang: Lang, order: &[OrderedObject]) -> String {
    if order.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "\n{}\n",
        t!(lang, "rollout-apply-order", count = order.len().to_string())
    );
    for (n, object) in order.iter().enumerate() {
        s.push_str(&format!(
            "  {:>3}. {}  ({})\n",
            n + 1,
            object.label(),
            object.at()
        ));
    }
    s
}

pub(super) fn render_plan(
    lang: Lang,
    spec: &RolloutSpec,
    digest: &ReleaseDigest,
    plan: &RolloutPlan,
) -> String {
    let mut s = t!(
        lang,
        "rollout-plan-head",
        release = plan.release.to_string(),
        digest = digest.to_string(),
        targets = plan.targets.to_string(),
        combinations = plan.combinations.to_string(),
        stages = plan.stages.len().to_string()
    );
    s.push('\n');
    let bundle: Vec<String> = spec
        .release
        .bundle
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    s.push_str(&t!(lang, "rollout-bundle", bundle = bundle.join(" ")));
    s.push('\n');
    for w in &plan.warnings {
        s.push_str(&t!(lang, "rollout-warning", warning = w.to_string()));
        s.push('\n');
    }
    s.push_str(&render_live(lang, plan));
    let mut table = Table::in_lang(
        lang,
        vec![
            "STAGE",
            "CLUSTERS",
            "BATCHES",
            "APPROVAL",
            "SOAK",
            "PICK",
            "COVERS",
            "NEW",
            "UNTESTED-BEFORE",
        ],
    );
    for stage in &plan.stages {
        table.row(vec![
            stage.name.clone(),
            stage.size().to_string(),
            stage.batches.len().to_string(),
            file_spelling(&stage.approval),
            format_duration(stage.soak),
            file_spelling(&stage.pick),
            stage.covers.len().to_string(),
            stage.newly_covered.len().to_string(),
            stage.untested_before.len().to_string(),
        ]);
    }
    s.push_str(&table.render());
    let mut batch_no = 0;
    for stage in &plan.stages {
        s.push_str(&format!(
            "\n{}\n",
            t!(lang, "rollout-stage", stage = stage.name.clone())
        ));
        for batch in &stage.batches {
            batch_no += 1;
            let ids: Vec<&str> = batch.iter().map(|c| c.as_str()).collect();
            s.push_str(&format!(
                "  {}\n",
                t!(
                    lang,
                    "rollout-batch",
                    n = batch_no.to_string(),
                    ids = ids.join(", ")
                )
            ));
        }
        for combo in &stage.newly_covered {
            s.push_str(&format!(
                "  {}\n",
                t!(lang, "rollout-first-tests", combo = combo.to_string())
            ));
        }
    }
    if let Some(last) = plan.stages.last() {
        let before_last = &last.untested_before;
        if !before_last.is_empty() {
            s.push_str(&t!(
                lang,
                "rollout-untested-last",
                count = before_last.len().to_string()
            ));
            s.push('\n');
            for c in before_last {
                s.push_str(&format!("  {c}\n"));
            }
        }
    }
    s
}

/// A cluster's checks in a word.
pub(super) fn verified_word(outcome: &fleetdeck::model::rollout::VerifyOutcome) -> &'static str {
    use fleetdeck::model::rollout::VerifyOutcome;
    match outcome {
        VerifyOutcome::Pass => "passed",
        VerifyOutcome::Fail { .. } => "failed",
        VerifyOutcome::Unknown { .. } => "UNKNOWN",
    }
}

/// Where a cluster of a rollout ended up, in a word (`failed` and `UNKNOWN` are explained
/// under the table).
pub(super) fn result_word(item: &fleetdeck::model::run::ItemView) -> &'static str {
    use fleetdeck::model::rollout::VerifyOutcome;
    if item.failure.is_some() {
        return "apply-failed";
    }
    if item.waiting.is_some() {
        return "waiting";
    }
    match &item.verified {
        Some(VerifyOutcome::Pass) => "succeeded",
        Some(VerifyOutcome::Fail { .. }) => "failed",
        Some(VerifyOutcome::Unknown { .. }) => "UNKNOWN",
        None if item.applied.is_some() => "verifying",
        None if item.staged.is_some() => "applying",
        None => "pending",
    }
}
