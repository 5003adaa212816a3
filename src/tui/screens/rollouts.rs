//! The rollouts screen's decisions: which rollout runs show, which is selected, how far
//! each batch got, what colour a cluster's cell is, and what the gates say. Everything
//! comes from the journal's projection: the screen shows whatever the journal holds.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::t;
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion};
use jiff::Timestamp;

use crate::model::ledger::Ledger;
use crate::model::rollout::{
    BatchPhase, HaltReason, RolloutPlan, RolloutSpec, VerifyOutcome, plan_rollout,
};
use crate::model::run::{ItemView, Projection, RunId, RunView};

/// The screen's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RolloutsState {
    /// The selected run.
    pub selected: Option<RunId>,
}

/// Rollout runs, unfinished first, newest first.
pub fn runs(projection: &Projection) -> Vec<&RunView> {
    let mut runs: Vec<&RunView> = projection
        .runs
        .values()
        .filter(|r| r.is_rollout())
        .collect();
    runs.sort_by_key(|r| (r.status.is_final(), std::cmp::Reverse(r.created_at)));
    runs
}

/// The selected run: the remembered one, else one awaiting approval, else the first.
pub fn selected<'p>(state: &RolloutsState, projection: &'p Projection) -> Option<&'p RunView> {
    selected_in(state, &runs(projection))
}

/// [`selected`] among `all`, the rollout runs as [`runs`] lists them.
pub fn selected_in<'p>(state: &RolloutsState, all: &[&'p RunView]) -> Option<&'p RunView> {
    if let Some(id) = &state.selected
        && let Some(r) = all.iter().find(|r| r.id == *id)
    {
        return Some(r);
    }
    all.iter()
        .find(|r| waiting_batch(r).is_some())
        .or(all.first())
        .copied()
}

/// The batch awaiting approval, if any.
pub fn waiting_batch(run: &RunView) -> Option<usize> {
    run.rollout
        .batches
        .iter()
        .find(|(_, p)| **p == BatchPhase::AwaitingApproval)
        .map(|(b, _)| *b)
}

/// The rollout spec the run executes, when it reads as one.
pub fn spec(run: &RunView) -> Option<RolloutSpec> {
    crate::model::rollout::rollout_of(&run.spec)
}

/// Where one cluster of a rollout stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellState {
    /// Not reached.
    Pending,
    /// A digest is staged; not applied yet.
    Staged,
    /// Applied; checks not finished.
    Applied,
    /// Checks passed.
    Verified,
    /// Checks failed.
    Failed,
    /// Checks could not be evaluated: unknown, never healthy.
    Unknown,
}

impl CellState {
    /// The message id of its word, as the legend shows it.
    pub fn message(self) -> &'static str {
        match self {
            CellState::Pending => "rollouts-cell-pending",
            CellState::Staged => "rollouts-cell-staged",
            CellState::Applied => "rollouts-cell-applied",
            CellState::Verified => "rollouts-cell-verified",
            CellState::Failed => "rollouts-cell-failed",
            CellState::Unknown => "rollouts-cell-unknown",
        }
    }

    /// A mark that tells the states apart without colour (staged and applied share one).
    pub fn glyph(self) -> char {
        match self {
            CellState::Pending => '·',
            CellState::Staged => '◇',
            CellState::Applied => '◆',
            CellState::Verified => '■',
            CellState::Failed => '✗',
            CellState::Unknown => '?',
        }
    }
}

/// A cluster's state from its item.
pub fn cell(item: Option<&ItemView>) -> CellState {
    let Some(item) = item else {
        return CellState::Pending;
    };
    if item.failure.is_some() {
        return CellState::Failed;
    }
    match (&item.verified, &item.applied, &item.staged) {
        (Some(VerifyOutcome::Pass), _, _) => CellState::Verified,
        (Some(VerifyOutcome::Fail { .. }), _, _) => CellState::Failed,
        (Some(VerifyOutcome::Unknown { .. }), _, _) => CellState::Unknown,
        (None, Some(_), _) => CellState::Applied,
        (None, None, Some(_)) => CellState::Staged,
        _ => CellState::Pending,
    }
}

/// (finished, total) clusters of batch `index`: verified or failed. A cluster the halt
/// names is not finished whatever its own checks said (a canary that verified and then
/// halted on its metrics is where the rollout stopped, not a batch done): a halted
/// batch's bar is never full.
pub fn progress(run: &RunView, index: usize) -> (usize, usize) {
    let Some(batch) = run.batches.get(index) else {
        return (0, 0);
    };
    let halted_here = matches!(
        run.rollout.batches.get(&index),
        Some(BatchPhase::Halted { .. })
    );
    let named = halted_on(run);
    let done = batch
        .iter()
        .filter(|c| !(halted_here && named.contains(&c.as_str())))
        .filter(|c| {
            matches!(
                cell(run.items.get(*c)),
                CellState::Verified | CellState::Failed
            )
        })
        .count();
    (done, batch.len())
}

/// The phase of batch `index` in words, with the soak's countdown. Phase words are
/// values (`pending`, `awaiting-approval`) and stay as they are in every language.
pub fn phase_text(run: &RunView, index: usize, now: Timestamp, lang: Lang) -> String {
    match run.rollout.batches.get(&index) {
        None => BatchPhase::Pending.word().into(),
        Some(BatchPhase::Soaking { until, .. }) => {
            let left = until.as_second() - now.as_second();
            if left > 0 {
                let left = std::time::Duration::from_secs(u64::try_from(left).unwrap_or(0));
                t!(
                    lang,
                    "batch-soaking",
                    left = crate::model::duration::format_duration(left)
                )
            } else {
                t!(lang, "batch-soaked")
            }
        }
        Some(p @ BatchPhase::Halted { why }) => {
            format!("{}: {}", p.word(), why.msg().text(lang))
        }
        Some(p) => p.word().into(),
    }
}

/// The gate lines: failed clusters against the limit, burn rate against its threshold,
/// metrics that are unknown, and the latest evaluation. Why an apply failed or a check
/// could not be judged is shown as journaled.
pub fn gates(run: &RunView, spec: Option<&RolloutSpec>, lang: Lang) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    if let Some(spec) = spec {
        let stop = &spec.stop_when;
        let failed = match stop.failed_clusters {
            crate::model::rollout::FailedLimit::Count(n) => {
                t!(lang, "gate-limit-count", n = n.to_string())
            }
            crate::model::rollout::FailedLimit::Percent(p) => {
                t!(lang, "gate-limit-percent", percent = p.to_string())
            }
        };
        out.push((false, t!(lang, "gate-stop-at", limit = failed)));
        match &stop.slo_burn_rate {
            Some(b) => out.push((
                false,
                t!(
                    lang,
                    "gate-burn",
                    max = b.max_burn.to_string(),
                    // 0.999 reads as 99.9%; rounding hides float noise.
                    objective = ((b.objective * 100_000.0).round() / 1_000.0).to_string(),
                    window = crate::model::duration::format_duration(b.window)
                ),
            )),
            None => out.push((false, t!(lang, "gate-no-burn"))),
        }
        let unknown = crate::model::rollout::file_spelling(&stop.unknown_metrics);
        out.push((false, t!(lang, "gate-unknown-means", action = unknown)));
    }
    // Results that need a person: failed applies, failed checks and checks that could not
    // be evaluated (unknown is not healthy).
    for id in &run.order {
        let cluster = id.to_string();
        if let Some(failure) = run.items.get(id).and_then(|i| i.failure.as_ref()) {
            out.push((
                true,
                t!(
                    lang,
                    "gate-apply-failed",
                    cluster = &cluster,
                    why = &failure.why
                ),
            ));
            continue;
        }
        // Held back by something outside the run (a guard's pause, an identity not
        // confirmed): said, so that nothing sits without a reason.
        if let Some(waiting) = run.items.get(id).and_then(|i| i.waiting.as_ref()) {
            out.push((true, format!("{id}: {}", waiting.why)));
        }
        match run.items.get(id).and_then(|i| i.verified.as_ref()) {
            Some(VerifyOutcome::Fail { reason }) => out.push((
                true,
                t!(
                    lang,
                    "gate-verify-failed",
                    cluster = &cluster,
                    reason = reason
                ),
            )),
            Some(VerifyOutcome::Unknown { why }) => out.push((
                true,
                t!(lang, "gate-verify-unknown", cluster = &cluster, why = why),
            )),
            _ => {}
        }
    }
    match &run.rollout.last_gate {
        Some((batch, None)) => out.push((
            false,
            t!(lang, "gate-passed", batch = (batch + 1).to_string()),
        )),
        Some((batch, Some(why))) => out.push((true, gate_halt(*batch, why, lang))),
        None => out.push((false, t!(lang, "gate-none-yet"))),
    }
    out
}

fn gate_halt(batch: usize, why: &HaltReason, lang: Lang) -> String {
    let batch = (batch + 1).to_string();
    match why {
        HaltReason::BurnRate {
            cluster,
            burn,
            max_burn,
            ..
        } => t!(
            lang,
            "gate-halt-burn",
            batch = batch,
            burn = format!("{burn:.2}"),
            cluster = cluster,
            max = max_burn.to_string()
        ),
        HaltReason::MetricsUnknown { clusters } => {
            let list: Vec<String> = clusters.iter().map(|(c, w)| format!("{c} ({w})")).collect();
            t!(
                lang,
                "gate-halt-metrics",
                batch = batch,
                clusters = list.join(", ")
            )
        }
        other => t!(
            lang,
            "gate-halt-other",
            batch = batch,
            why = other.msg().text(lang)
        ),
    }
}

/// A run's status as people read it: its word, and why it halted in the reader's
/// language when the journal says why in a structure (as written otherwise).
pub fn status_in(run: &RunView, status: &crate::model::run::RunStatus, lang: Lang) -> String {
    match (status, &run.rollout.halted) {
        (crate::model::run::RunStatus::Halted { .. }, Some(why)) => {
            format!("{}: {}", status.word(), why.msg().text(lang))
        }
        _ => status.to_string(),
    }
}

/// The plan as the ledger gives it now, when its batches are the run's (so stage names
/// and coverage can be shown); `None` when the ledger changed since.
pub fn plan(run: &RunView, spec: &RolloutSpec, ledger: &Ledger) -> Option<RolloutPlan> {
    let plan = plan_rollout(spec, ledger).ok()?;
    let batches: Vec<Vec<&str>> = plan
        .stages
        .iter()
        .flat_map(|s| s.batches.iter())
        .map(|b| b.iter().map(|c| c.as_str()).collect())
        .collect();
    let run_batches: Vec<Vec<&str>> = run
        .batches
        .iter()
        .map(|b| b.iter().map(|c| c.as_str()).collect())
        .collect();
    (batches == run_batches).then_some(plan)
}

/// The stage name of each batch, from the plan.
pub fn stage_of(plan: Option<&RolloutPlan>, index: usize) -> Option<String> {
    let mut n = 0;
    for stage in &plan?.stages {
        n += stage.batches.len();
        if index < n {
            return Some(stage.name.clone());
        }
    }
    None
}

/// The clusters a run's halt names (none when it is not halted): drawn as the reason,
/// and covering nothing, whatever their own checks said.
pub fn halted_on(run: &crate::model::run::RunView) -> Vec<&str> {
    run.rollout
        .halted
        .as_ref()
        .map(|why| why.clusters())
        .unwrap_or_default()
}

/// The rollouts screen: moving through the runs; its operator keys open their dialogs.
impl Screen for RolloutsState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let projection = &ctx.activity.journal.projection;
        let runs = runs(projection);
        let pos = selected(self, projection)
            .and_then(|c| runs.iter().position(|r| r.id == c.id))
            .unwrap_or(0);
        match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, runs.len(), a, ctx);
                self.selected = runs.get(next).map(|r| r.id.clone());
                Some(said)
            }
            Action::Approve | Action::PauseRun | Action::AbortRun => {
                Some(vec![Effect::Operator(action)])
            }
            _ => None,
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::rollouts_view::draw(self, ctx, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rollout::ReleaseDigest;
    use crate::model::run::{Actor, ItemId, RolloutView};

    fn run_with(items: Vec<(&str, ItemView)>) -> RunView {
        RunView {
            id: RunId("r".into()),
            title: "t".into(),
            cluster: None,
            status: crate::model::run::RunStatus::Running,
            created_by: Actor("a@h".into()),
            created_at: Timestamp::from_second(0).unwrap(),
            order: items.iter().map(|(i, _)| ItemId::from(*i)).collect(),
            batches: vec![items.iter().map(|(i, _)| ItemId::from(*i)).collect()],
            items: items
                .into_iter()
                .map(|(i, v)| (ItemId::from(i), v))
                .collect(),
            spec: serde_json::Value::Null,
            approvals: Vec::new(),
            notes: Vec::new(),
            aborted: None,
            rollout: RolloutView::default(),
        }
    }

    #[test]
    fn cells_progress_and_verification_gates() {
        let digest = ReleaseDigest("sha256:ab".into());
        let applied = ItemView {
            staged: Some(digest.clone()),
            applied: Some(digest.clone()),
            ..ItemView::default()
        };
        let unknown = ItemView {
            verified: Some(VerifyOutcome::Unknown {
                why: "prometheus unreachable".into(),
            }),
            ..applied.clone()
        };
        let passed = ItemView {
            verified: Some(VerifyOutcome::Pass),
            ..applied.clone()
        };
        let refused = ItemView {
            staged: Some(digest.clone()),
            failure: Some(crate::model::run::FailedCall {
                step: None,
                why: "manifests/cni.yaml document 1: ConfigMap kube-system/cni: forbidden".into(),
                at: Timestamp::UNIX_EPOCH,
            }),
            ..ItemView::default()
        };
        let held = ItemView {
            staged: Some(digest.clone()),
            waiting: Some(crate::model::run::WaitingFor {
                why: "apply waits: c5 may not be changed: identity mismatch".into(),
                since: Timestamp::UNIX_EPOCH,
            }),
            ..ItemView::default()
        };
        let run = run_with(vec![
            ("c1", passed),
            ("c2", unknown),
            ("c3", applied),
            ("c4", refused),
            ("c5", held),
        ]);
        assert_eq!(cell(run.items.get(&ItemId::from("c2"))), CellState::Unknown);
        assert_eq!(
            cell(run.items.get(&ItemId::from("c4"))),
            CellState::Failed,
            "a failed apply is not shown as staged"
        );
        assert_eq!(cell(run.items.get(&ItemId::from("c3"))), CellState::Applied);
        assert_eq!(cell(None), CellState::Pending);
        assert_eq!(progress(&run, 0), (2, 5), "unknown is not done");
        let gates = gates(&run, None, Lang::En);
        assert!(gates.contains(&(
            true,
            "c5: apply waits: c5 may not be changed: identity mismatch".to_string()
        )));
        assert!(gates.contains(&(
            true,
            "c4: apply failed: manifests/cni.yaml document 1: ConfigMap kube-system/cni: forbidden"
                .to_string()
        )));
        assert!(gates.contains(&(
            true,
            "c2: verification UNKNOWN: prometheus unreachable".to_string()
        )));
    }

    #[test]
    fn a_halted_canary_is_not_a_finished_batch() {
        let digest = ReleaseDigest("sha256:ab".into());
        let passed = ItemView {
            staged: Some(digest.clone()),
            applied: Some(digest),
            verified: Some(VerifyOutcome::Pass),
            ..ItemView::default()
        };
        let mut run = run_with(vec![("canary", passed)]);
        assert_eq!(progress(&run, 0), (1, 1), "verified, not halted: done");
        // The gate after it found no metrics: the rollout halts naming the canary.
        let why = HaltReason::MetricsUnknown {
            clusters: vec![("canary".into(), "no Prometheus configured".into())],
        };
        run.rollout
            .batches
            .insert(0, BatchPhase::Halted { why: why.clone() });
        run.rollout.halted = Some(why);
        assert_eq!(
            progress(&run, 0),
            (0, 1),
            "the bar of a halted canary is not full"
        );
    }
}
