//! How `rollout plan`, `start` and `show` print for people: the plan's stages, batches
//! and coverage, where live versions differ from the ledger, the apply order, and each
//! cluster's result in a word.

use fleetdeck::model::duration::format_duration;
use fleetdeck::model::rollout::{
    OrderedObject, ReleaseDigest, RolloutPlan, RolloutSpec, file_spelling,
};

use super::output::Table;

/// Where the targets' live versions differ from the ledger's (canaries were picked by
/// what runs), and which targets could not be read (picked by the ledger's versions).
pub(super) fn render_live(plan: &RolloutPlan) -> String {
    let mut s = String::new();
    if !plan.live_drift.is_empty() {
        s.push_str(&format!(
            "live versions differ from the ledger on {} target(s); canaries picked by what runs:\n",
            plan.live_drift.len()
        ));
        for drift in &plan.live_drift {
            s.push_str(&format!("  {}: {}\n", drift.cluster, drift.differences()));
        }
    }
    if !plan.not_observed.is_empty() {
        let ids: Vec<&str> = plan.not_observed.iter().map(|c| c.0.as_str()).collect();
        s.push_str(&format!(
            "live versions not read for {} target(s), planned by the ledger's: {}\n",
            ids.len(),
            ids.join(", ")
        ));
    }
    s
}

/// The apply order, one object a line (nothing for an `exec` release).
pub(super) fn render_order(order: &[OrderedObject]) -> String {
    if order.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "\napply order ({} object(s); by path, kinds others depend on first):\n",
        order.len()
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
    spec: &RolloutSpec,
    digest: &ReleaseDigest,
    plan: &RolloutPlan,
) -> String {
    let mut s = format!(
        "rollout {} ({}): {} cluster(s), {} combination(s), {} stage(s)\n",
        plan.release,
        digest,
        plan.targets,
        plan.combinations,
        plan.stages.len()
    );
    let bundle: Vec<String> = spec
        .release
        .bundle
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    s.push_str(&format!("bundle: {}\n", bundle.join(" ")));
    for w in &plan.warnings {
        s.push_str(&format!("warning: {w}\n"));
    }
    s.push_str(&render_live(plan));
    let mut table = Table::new(vec![
        "STAGE",
        "CLUSTERS",
        "BATCHES",
        "APPROVAL",
        "SOAK",
        "PICK",
        "COVERS",
        "NEW",
        "UNTESTED-BEFORE",
    ]);
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
        s.push_str(&format!("\nstage {}:\n", stage.name));
        for batch in &stage.batches {
            batch_no += 1;
            let ids: Vec<&str> = batch.iter().map(|c| c.0.as_str()).collect();
            s.push_str(&format!("  batch {batch_no}: {}\n", ids.join(", ")));
        }
        for combo in &stage.newly_covered {
            s.push_str(&format!("  first tests {combo}\n"));
        }
    }
    if let Some(last) = plan.stages.last() {
        let before_last = &last.untested_before;
        if !before_last.is_empty() {
            s.push_str(&format!(
                "untested when the last stage starts ({}):\n",
                before_last.len()
            ));
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
