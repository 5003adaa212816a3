//! What the findings read from the journal's projection: window overrides, the changes
//! a window holds back (the waits the executor journaled), and the latest two-window
//! burn-rate evidence of each rollout in flight.

use std::collections::BTreeMap;

use super::{BurnObservation, WindowOverride};
use crate::model::ledger::ClusterId;
use crate::model::rollout::{MetricReading, rollout_of};
use crate::model::run::{Projection, RunStatus};

/// The words every window wait starts its reason with (see [`super::WindowHold`]), so the
/// findings can tell a window's wait from a pause's.
pub const WINDOW_WAIT: &str = "is outside its maintenance window";

fn in_flight(status: &RunStatus) -> bool {
    !matches!(status, RunStatus::Succeeded | RunStatus::Aborted)
}

/// Window overrides people gave.
pub fn window_overrides(projection: &Projection) -> &[WindowOverride] {
    &projection.window_overrides
}

/// Per cluster, the runs in flight with an item waiting for the cluster's window
/// (`rollout cni-1.17`, `maintenance reboot-n1`).
pub fn waiting_for_window(projection: &Projection) -> BTreeMap<ClusterId, Vec<String>> {
    let mut out: BTreeMap<ClusterId, Vec<String>> = BTreeMap::new();
    for run in projection.runs.values().filter(|r| in_flight(&r.status)) {
        let rollout = run.is_rollout();
        for (item, view) in &run.items {
            let Some(waiting) = &view.waiting else {
                continue;
            };
            if !waiting.why.contains(WINDOW_WAIT) {
                continue;
            }
            let cluster = if rollout {
                ClusterId(item.as_str().to_string())
            } else {
                match &run.cluster {
                    Some(c) => c.clone(),
                    None => continue,
                }
            };
            let name = format!(
                "{} {}",
                if rollout { "rollout" } else { "maintenance" },
                run.title
            );
            let names = out.entry(cluster).or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    out
}

/// The latest evidence of every rollout in flight whose burn-rate condition has two
/// windows, one observation per cluster.
pub fn burn_observations(projection: &Projection) -> Vec<BurnObservation> {
    let mut out = Vec::new();
    for run in projection.runs.values().filter(|r| in_flight(&r.status)) {
        let Some((at, evidence)) = &run.rollout.last_evidence else {
            continue;
        };
        let Some(spec) = rollout_of(&run.spec) else {
            continue;
        };
        let Some(limit) = spec.stop_when.slo_burn_rate else {
            continue;
        };
        let Some(short) = limit.short else {
            continue;
        };
        let budget = 1.0 - limit.objective;
        let burn = |reading: Option<&MetricReading>| match reading {
            Some(MetricReading::Known { error_ratio })
                if error_ratio.is_finite() && *error_ratio >= 0.0 && budget > 0.0 =>
            {
                Some(error_ratio / budget)
            }
            _ => None,
        };
        for (cluster, reading) in &evidence.readings {
            out.push(BurnObservation {
                cluster: cluster.clone(),
                run: run.id.to_string(),
                at: evidence.at.unwrap_or(*at),
                objective: limit.objective,
                long_window: limit.window,
                long_burn: burn(Some(reading)),
                long_max: limit.max_burn,
                short_window: short.window,
                short_burn: burn(evidence.short_readings.get(cluster)),
                short_max: short.max_burn,
            });
        }
    }
    out
}
