//! The ledger's maintenance windows as the executor enforces them: each cluster's window
//! with its time zone loaded once (the time-zone database is read here, not in the
//! model), asked at the moment a change would start.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::model::findings::{WindowHold, WindowOverride, window_hold};
use crate::model::ledger::{Cluster, ClusterId, Ledger};

/// Every ledger cluster that declares a window, with its zone (`None`: the zone could not
/// be loaded, and the window then never counts as open).
#[derive(Debug, Clone, Default)]
pub struct MaintenanceWindows {
    clusters: HashMap<ClusterId, (Cluster, Option<TimeZone>)>,
}

impl MaintenanceWindows {
    /// The windows `ledger` declares.
    pub fn from_ledger(ledger: &Ledger) -> Self {
        let clusters = ledger
            .clusters
            .iter()
            .filter_map(|c| {
                let window = c.maintenance_window.as_ref()?;
                let zone = TimeZone::get(&window.timezone).ok();
                if zone.is_none() {
                    tracing::warn!(cluster = %c.id, zone = %window.timezone, "maintenance window time zone cannot be loaded; the window never counts as open");
                }
                Some((c.id.clone(), (c.clone(), zone)))
            })
            .collect();
        MaintenanceWindows { clusters }
    }

    /// What holds a change to `cluster` at `now` for its window: nothing when it
    /// declares none, the window is open, or one of `overrides` is in force.
    pub fn hold(
        &self,
        cluster: &ClusterId,
        overrides: &[WindowOverride],
        now: Timestamp,
    ) -> Option<WindowHold> {
        let (entry, zone) = self.clusters.get(cluster)?;
        window_hold(entry, zone.as_ref(), overrides, now)
    }

    /// The cluster's time zone, when its window declares one that could be loaded.
    pub fn zone(&self, cluster: &ClusterId) -> Option<&TimeZone> {
        self.clusters.get(cluster).and_then(|(_, z)| z.as_ref())
    }
}
