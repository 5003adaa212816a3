//! The fleet's findings as the console holds them: judged by the same function as
//! `fleetdeck findings` (`model::findings::judge_fleet`) from the snapshot, the ledger
//! and the journal, and judged again only when something they depend on moved — a
//! cluster's status or facts, the journal, or a minute passing (ages) — not on every
//! snapshot of a busy fleet.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::model::findings::{
    FindingCounts, FleetFindings, FleetInputs, Thresholds, counts_by_cluster, judge_fleet,
};
use crate::model::ledger::{ClusterId, Ledger};
use crate::model::live::FleetSnapshot;
use crate::model::run::Projection;

/// What judging needs besides the data: thresholds and each window's time zone.
#[derive(Debug, Clone, Default)]
pub struct FindingsConfig {
    /// `[findings]` thresholds.
    pub thresholds: Thresholds,
    /// Each cluster's maintenance-window zone, loaded once.
    pub zones: Arc<HashMap<ClusterId, TimeZone>>,
}

impl FindingsConfig {
    /// The configuration for `ledger`'s windows (zones that cannot be loaded are left
    /// out: their windows never count as open).
    pub fn for_ledger(ledger: &Ledger, thresholds: Thresholds) -> Self {
        let zones = ledger
            .clusters
            .iter()
            .filter_map(|c| {
                let w = c.maintenance_window.as_ref()?;
                Some((c.id.clone(), TimeZone::get(&w.timezone).ok()?))
            })
            .collect();
        FindingsConfig {
            thresholds,
            zones: Arc::new(zones),
        }
    }
}

/// The findings the console shows, and what they were judged from.
#[derive(Debug, Clone, Default)]
pub struct FindingsView {
    /// Every finding, worst first, and the expiry weeks.
    pub judged: Arc<FleetFindings>,
    /// Per cluster, for the ledger's FINDINGS column.
    pub counts: Arc<BTreeMap<ClusterId, FindingCounts>>,
    /// What they were judged from (see [`fingerprint`]).
    fingerprint: Option<u64>,
}

/// What the findings depend on, cheaply: each cluster's status and facts (by pointer),
/// the journal's last event, and the minute (ages and windows move with time).
fn fingerprint(snapshot: &FleetSnapshot, journal: Option<&Projection>, now: Timestamp) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for c in snapshot.clusters.iter() {
        c.id.hash(&mut h);
        c.status.hash(&mut h);
        c.findings.as_ref().map(Arc::as_ptr).hash(&mut h);
    }
    journal.and_then(|p| p.last_seq).map(|s| s.0).hash(&mut h);
    (now.as_second() / 60).hash(&mut h);
    h.finish()
}

impl FindingsView {
    /// Judges again when anything the findings depend on changed since the last time;
    /// whether they were.
    pub fn refresh(
        &mut self,
        ledger: &Ledger,
        snapshot: &FleetSnapshot,
        journal: Option<&Projection>,
        config: &FindingsConfig,
        now: Timestamp,
    ) -> bool {
        let print = fingerprint(snapshot, journal, now);
        if self.fingerprint == Some(print) {
            return false;
        }
        let zone = |id: &ClusterId| config.zones.get(id);
        let judged = judge_fleet(
            &FleetInputs {
                ledger,
                snapshot,
                journal: journal.ok_or_else(|| "no journal connected".to_string()), // i18n: not for people (the finding's English reason; its message says it in Chinese)
                zone: &zone,
            },
            now,
            &config.thresholds,
        );
        self.counts = Arc::new(counts_by_cluster(&judged.findings));
        self.judged = Arc::new(judged);
        self.fingerprint = Some(print);
        true
    }
}
