//! The maintenance windows of a rollout's targets, as `rollout plan` shows them: which
//! are open now, and when each closed one opens (an apply outside its window waits).

use fleetdeck::model::rollout::RolloutPlan;
use jiff::Timestamp;

use fleetdeck::t;

use super::settings::Settings;
use super::window_cmd::{WindowLine, journal_overrides, window_lines};

/// The window of every cluster the plan targets, in plan order.
pub fn target_windows(settings: &Settings, plan: &RolloutPlan) -> anyhow::Result<Vec<WindowLine>> {
    let ledger = fleetdeck::config::ledger_file::load(&settings.ledger_path()?)?;
    let targets: Vec<&str> = plan
        .stages
        .iter()
        .flat_map(|s| s.batches.iter().flatten())
        .map(|c| c.as_str())
        .collect();
    let mut lines = window_lines(&ledger, &journal_overrides(settings), Timestamp::now());
    lines.retain(|l| targets.contains(&l.cluster.as_str()));
    lines.sort_by_key(|l| targets.iter().position(|t| *t == l.cluster));
    Ok(lines)
}

/// `maintenance windows: 37 open now; closed: c1 opens …; no window: c2`.
pub fn render(lang: fleetdeck::i18n::Lang, lines: &[WindowLine]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let free = |l: &&WindowLine| matches!(l.state, "open" | "none") || l.overridden.is_some();
    let open = lines.iter().filter(free).count();
    let head = t!(
        lang,
        "rollout-windows",
        open = open.to_string(),
        count = lines.len().to_string()
    );
    let mut out = format!("\n{head}\n");
    for l in lines.iter().filter(|l| !free(l)) {
        let line = t!(
            lang,
            "rollout-window-waits",
            cluster = l.cluster.clone(),
            says = l.says.clone()
        );
        out.push_str(&format!("  {line}\n"));
    }
    out
}
