//! `fleetdeck snapshot`: every cluster's status, identity, versions, nodes and capacity
//! summary, once, then exit.

use std::process::ExitCode;
use std::time::Duration;

use fleetdeck::model::capacity::{CapacityConfig, cluster_report, format_amount};
use fleetdeck::model::fleet::Dimension;
use fleetdeck::model::live::{ClusterSnapshot, ClusterStatus, FleetSnapshot, find_drift};
use serde::Serialize;

use fleetdeck::t;

use super::capacity_lines::{DimensionLine, LimitLine, limit_lines, scenario_line};
use super::live::{age, observe};
use super::output::{Table, emit};
use super::settings::Settings;

/// One cluster's line, for JSON/YAML (every field) and the table (the main ones).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterLine<'a> {
    #[serde(flatten)]
    snapshot: &'a ClusterSnapshot,
    /// Counts from fresh data only: without it they would be a dropped cluster's last
    /// ones, or read as "every node NotReady".
    nodes_ready: Option<usize>,
    nodes_total: Option<usize>,
    pods: Option<usize>,
    capacity: Option<CapacitySummary>,
    /// What disagrees with the ledger (`kubernetes`, `kubelet`, `gpuDriver`, `identity`,
    /// …); `ledger reconcile` has the details and the edits.
    drift: Vec<String>,
}

/// Headroom per dimension and what limits it, for usable clusters only: sentences for the
/// table, and the same as figures.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CapacitySummary {
    cpu: String,
    memory: String,
    gpu: String,
    gpu_free: i64,
    gpu_total: i64,
    largest_gpu_gang: i64,
    /// Every dimension the cluster has, with its amounts as numbers.
    headroom: Vec<DimensionLine>,
    limits: Vec<LimitLine>,
}

fn summary(snapshot: &ClusterSnapshot, config: &CapacityConfig) -> Option<CapacitySummary> {
    if !snapshot.status.data_usable() {
        return None;
    }
    let report = cluster_report(&snapshot.view, config, &[]);
    let b = &report.baseline;
    // The headroom `fleetdeck capacity` shows: after the configured safety reserve.
    let pair = |dim: Dimension| {
        format!(
            "{} headroom of {}", // i18n: not for people (JSON value)
            format_amount(&dim, b.headroom.get(&dim)),
            format_amount(&dim, b.allocatable.get(&dim))
        )
    };
    Some(CapacitySummary {
        cpu: pair(Dimension::Cpu),
        memory: pair(Dimension::Memory),
        gpu: if report.gpu.total_gpus == 0 {
            "-".into()
        } else {
            format!("{} free of {}", report.gpu.free_gpus, report.gpu.total_gpus) // i18n: not for people (JSON value)
        },
        gpu_free: report.gpu.free_gpus,
        gpu_total: report.gpu.total_gpus,
        largest_gpu_gang: report.gpu.largest_gang,
        headroom: scenario_line(b).headroom,
        limits: limit_lines(&report.limits),
    })
}

/// Runs `fleetdeck snapshot`. Exits 1 when any cluster is not Synced, so scripts notice.
pub fn run(settings: &Settings, wait: Duration) -> anyhow::Result<ExitCode> {
    let (ledger, snapshot) = observe(settings, wait)?;
    let mut drift: std::collections::HashMap<String, Vec<String>> = Default::default();
    for d in find_drift(&ledger, &snapshot) {
        if let Some(what) = d.kind.topic() {
            drift.entry(d.cluster).or_default().push(what);
        }
    }
    let config = &settings.capacity;
    let lines: Vec<ClusterLine> = snapshot
        .clusters
        .iter()
        .map(|c| {
            let (ready, total) = c.nodes_ready();
            let fresh = c.status.data_usable();
            ClusterLine {
                snapshot: c,
                nodes_ready: fresh.then_some(ready),
                nodes_total: fresh.then_some(total),
                pods: fresh.then_some(c.view.pods.len()),
                capacity: summary(c, config),
                drift: drift.remove(&*c.id).unwrap_or_default(),
            }
        })
        .collect();
    emit(settings.output, &lines, || {
        table(&snapshot, &lines, settings.lang)
    })?;
    let all_synced = snapshot
        .clusters
        .iter()
        .all(|c| c.status == ClusterStatus::Synced);
    Ok(if all_synced {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `; +2 more limits (capacity --cluster c1)` for what a one-line note leaves out: `id`
/// is `snapshot-more-capacity-limits` or `snapshot-more-limits`.
fn more_limits(lang: fleetdeck::i18n::Lang, n: usize, id: &str, cluster: &str) -> String {
    if n == 0 {
        return String::new();
    }
    fleetdeck::i18n::text(
        lang,
        id,
        &[("count", n.into()), ("cluster", cluster.into())],
    )
}

fn table(snapshot: &FleetSnapshot, lines: &[ClusterLine], lang: fleetdeck::i18n::Lang) -> String {
    let mut table = Table::in_lang(
        lang,
        vec![
            "CLUSTER",
            "STATUS",
            "AGE",
            "IDENTITY",
            "KUBERNETES",
            "NODES",
            "PODS",
            "CPU",
            "MEMORY",
            "GPU",
            "NOTE",
        ],
    );
    for line in lines {
        let c = line.snapshot;
        let identity = match &c.identity_verdict {
            Some(v) if v.is_mismatch() => "MISMATCH",
            Some(fleetdeck::model::live::IdentityVerdict::Match) => "pinned",
            Some(fleetdeck::model::live::IdentityVerdict::NotPinned) => "not pinned", // i18n: not for people (a value, like the statuses)
            _ => "-",
        };
        let note = match (&c.last_error, &line.capacity) {
            (Some(error), _) if c.status != ClusterStatus::Synced => error.clone(),
            // Still connecting when the wait ended: say which part is not done.
            (None, _) if c.status == ClusterStatus::Connecting => {
                if c.identity.is_none() {
                    t!(lang, "snapshot-connecting-identity")
                } else {
                    t!(lang, "snapshot-connecting-lists")
                }
            }
            // Its data is fresh, but nothing vouches that it is still the pinned cluster
            // (the last identity read failed and is being retried).
            _ if c.status == ClusterStatus::Synced && c.identity_verdict.is_none() => {
                t!(lang, "snapshot-identity-unconfirmed")
            }
            // Drift from the ledger comes before capacity: the ledger is what plans read.
            // One note fits a row; what it leaves out is counted, so a capacity risk is
            // never hidden behind the drift (or the first limit).
            _ if !line.drift.is_empty()
                && !c.identity_verdict.as_ref().is_some_and(|v| v.is_mismatch()) =>
            {
                let limits = line.capacity.as_ref().map_or(0, |cap| cap.limits.len());
                t!(
                    lang,
                    "snapshot-drift",
                    drift = line.drift.join(", "),
                    more = more_limits(lang, limits, "snapshot-more-capacity-limits", &c.id)
                )
            }
            (_, Some(cap)) => cap
                .limits
                .first()
                .map(|l| {
                    let more = cap.limits.len() - 1;
                    format!(
                        "{}{}",
                        l.text,
                        more_limits(lang, more, "snapshot-more-limits", &c.id)
                    )
                })
                .unwrap_or_default(),
            _ => String::new(),
        };
        let mismatch = c.identity_verdict.as_ref().is_some_and(|v| v.is_mismatch());
        let (cpu, memory, gpu) = match &line.capacity {
            Some(cap) => (cap.cpu.clone(), cap.memory.clone(), cap.gpu.clone()),
            None => ("-".into(), "-".into(), "-".into()),
        };
        table.row(vec![
            c.id.to_string(),
            c.status.label().to_string(),
            // An impostor answering is no data about this cluster, however recent.
            if mismatch {
                "-".into()
            } else {
                age(c.facts.last_ok, snapshot.taken_at)
            },
            identity.to_string(),
            // A mismatched cluster's version is another cluster's.
            c.server_version
                .clone()
                .filter(|_| !mismatch)
                .unwrap_or_else(|| "-".into()),
            match (line.nodes_ready, line.nodes_total) {
                (Some(ready), Some(total)) => format!("{ready}/{total}"),
                _ => "-".into(),
            },
            line.pods.map_or_else(|| "-".into(), |p| p.to_string()),
            cpu,
            memory,
            gpu,
            note,
        ]);
    }
    let counts = snapshot.status_counts();
    let mut out = table.render();
    let summary: Vec<String> = counts
        .0
        .iter()
        .map(|(status, n)| format!("{n} {}", status.label()))
        .collect();
    let line = t!(
        lang,
        "snapshot-count-line",
        clusters = lines.len(),
        statuses = summary.join(", ")
    );
    out.push_str(&format!("\n{line}\n"));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn a_cluster_still_connecting_says_which_part_is_not_done() {
        let connecting = ClusterSnapshot::connecting("c1");
        let snapshot = FleetSnapshot {
            version: 1,
            taken_at: jiff::Timestamp::now(),
            clusters: Arc::from(vec![Arc::new(connecting.clone())]),
        };
        let line = ClusterLine {
            snapshot: &connecting,
            nodes_ready: None,
            nodes_total: None,
            pods: None,
            capacity: None,
            drift: Vec::new(),
        };
        let text = table(&snapshot, &[line], fleetdeck::i18n::Lang::En);
        assert!(
            text.contains("connecting: identity (kube-system UID, /version) not read yet"),
            "{text}"
        );
    }
}
