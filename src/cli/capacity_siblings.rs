//! `capacity --what-if cluster=C`: whether C's siblings could take its pods. The model
//! answers ([`absorb_cluster_loss`]); this picks the siblings from the ledger, leaves out
//! those without fresh data, and shapes the answer for JSON and the table.

use anyhow::bail;
use fleetdeck::model::capacity::{AbsorbReport, CapacityConfig, default_siblings, format_amount};
use fleetdeck::model::ledger::{Ledger, Selector};
use fleetdeck::model::live::{FleetSnapshot, cluster_loss};
use fleetdeck::model::maintenance::MaintenanceHolds;
use serde::Serialize;

use super::capacity_lines::{DimensionLine, UnplacedLine, scenario_line};

/// One dimension of a sibling's headroom, before and after it took its share.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadroomChange {
    pub dimension: String,
    pub before: String,
    pub after: String,
    pub unit: &'static str,
    pub before_raw: i64,
    pub after_raw: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiblingLine {
    pub cluster: String,
    pub placed_pods: u32,
    /// Whether it runs any of the lost cluster's workloads (one that does not takes none).
    pub runs_any: bool,
    /// The dimensions it took something of.
    pub headroom: Vec<HeadroomChange>,
}

/// A sibling's headroom before it takes anything.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiblingRoom {
    pub cluster: String,
    /// `Synced`, or `Degraded` (counted, but part of its data is missing).
    pub status: String,
    pub headroom: Vec<DimensionLine>,
}

/// The answer: which siblings were asked, what they took, what none could.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiblingsLine {
    /// How the siblings were chosen (`env=…,region=…` by default, else `--siblings`).
    pub chosen_by: String,
    /// False when the lost cluster has no fresh data: which pods it would shed is not
    /// known, so the four fields below are null (not zero: nothing was found to fit, and
    /// "0 displaced, 0 unplaced" would read as all clear) and only the siblings' room is
    /// told (`roomNow`).
    pub lost_pods_known: bool,
    pub displaced_pods: Option<u32>,
    pub placed_pods: Option<u32>,
    pub unplaced: Option<Vec<UnplacedLine>>,
    pub siblings: Option<Vec<SiblingLine>>,
    /// Siblings without fresh data: counted as taking nothing.
    pub not_counted: Vec<String>,
    /// Each sibling with fresh data: its headroom before it takes anything.
    pub room_now: Vec<SiblingRoom>,
    /// The answer in words, for the table.
    #[serde(skip)]
    pub said: String,
}

/// The siblings `lost` would fail over to: those `selector` picks (a ledger selector), or
/// by default the serving clusters of its environment and region.
fn sibling_ids<'l>(
    lost: &str,
    ledger: &'l Ledger,
    selector: Option<&str>,
) -> anyhow::Result<(Vec<&'l str>, String)> {
    let Some(selector) = selector else {
        let chosen_by = ledger
            .cluster(lost)
            .map(|c| format!("env={},region={},lifecycle=running", c.env, c.region))
            .unwrap_or_default();
        return Ok((default_siblings(lost, ledger), chosen_by));
    };
    let parsed = Selector::parse(selector)?;
    let unknown = parsed.unknown_keys(&ledger.clusters);
    if !unknown.is_empty() {
        bail!("--siblings {selector}: {}", unknown.join("; "));
    }
    let ids = ledger
        .clusters
        .iter()
        .filter(|c| c.id.as_str() != lost && parsed.matches(c))
        .map(|c| c.id.as_str())
        .collect::<Vec<_>>();
    if ids.is_empty() {
        bail!("--siblings {selector}: selects no cluster other than {lost}"); // i18n: not for people (raised where no language is passed; English)
    }
    Ok((ids, selector.to_owned()))
}

/// Asks whether `lost`'s siblings could take its pods. When `lost` has no fresh data its
/// pods are unknown: the siblings' room is all there is to tell (and then the question is
/// the most pressing, since an unreachable cluster may already be lost).
pub fn siblings_line(
    lost: &str,
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
    holds: &MaintenanceHolds,
    config: &CapacityConfig,
    selector: Option<&str>,
) -> anyhow::Result<SiblingsLine> {
    let (ids, chosen_by) = sibling_ids(lost, ledger, selector)?;
    let loss = cluster_loss(lost, &ids, snapshot, holds, config);
    let room_now = loss
        .room_now
        .iter()
        .map(|room| SiblingRoom {
            cluster: room.cluster.to_string(),
            status: room.status.label().to_string(),
            headroom: scenario_line(&room.baseline).headroom,
        })
        .collect();
    let not_counted = loss.not_counted.iter().map(|c| c.to_string()).collect();
    let mut said = format!("  siblings ({chosen_by}): {}\n", loss.headline());
    if loss.room_now.is_empty() && loss.not_counted.is_empty() {
        said.push_str(NO_SIBLING);
    }
    for line in loss.lines() {
        said.push_str(&format!("    {}\n", line.text));
    }
    Ok(match &loss.absorbed {
        Some(report) => shape(report, chosen_by, not_counted, room_now, said),
        None => SiblingsLine {
            chosen_by,
            lost_pods_known: false,
            displaced_pods: None,
            placed_pods: None,
            unplaced: None,
            siblings: None,
            not_counted,
            room_now,
            said,
        },
    })
}

fn shape(
    report: &AbsorbReport,
    chosen_by: String,
    not_counted: Vec<String>,
    room_now: Vec<SiblingRoom>,
    said: String,
) -> SiblingsLine {
    SiblingsLine {
        chosen_by,
        lost_pods_known: true,
        displaced_pods: Some(report.displaced_pods),
        placed_pods: Some(report.placed_pods),
        unplaced: Some(report.unplaced.iter().map(UnplacedLine::of).collect()),
        siblings: Some(
            report
                .siblings
                .iter()
                .map(|s| SiblingLine {
                    cluster: s.cluster.to_string(),
                    placed_pods: s.placed_pods,
                    runs_any: s.runs_any,
                    headroom: s
                        .absorbed
                        .iter()
                        .filter(|(_, amount)| *amount != 0)
                        .map(|(dim, _)| HeadroomChange {
                            dimension: dim.to_string(),
                            before: format_amount(&dim, s.headroom_before.get(&dim)),
                            after: format_amount(&dim, s.headroom_after.get(&dim)),
                            unit: dim.unit(),
                            before_raw: s.headroom_before.get(&dim),
                            after_raw: s.headroom_after.get(&dim),
                        })
                        .collect(),
                })
                .collect(),
        ),
        not_counted,
        room_now,
        said,
    }
}

const NO_SIBLING: &str =
    "    no sibling: give --siblings SELECTOR to name the clusters that would take its traffic\n"; // i18n: not for people (the JSON's said)

/// The table's lines for the answer, indented under the lost cluster's block.
pub fn render(line: &SiblingsLine) -> String {
    line.said.clone()
}
