//! The fleet's findings: every cluster's, the fleet-wide ones (expiry waves), and the
//! counts the ledger's FINDINGS column shows.

use std::collections::BTreeMap;

use jiff::Timestamp;
use serde::Serialize;

use super::certificates::{ExpiryWeek, expiry_weeks, wave_findings};
use super::{CertificateFact, Finding, Severity, Thresholds, sort_findings};
use crate::model::ledger::ClusterId;

/// The cluster a fleet-wide finding is filed under (not a valid cluster id, so it never
/// names a ledger cluster).
pub const FLEET: &str = "(fleet)";

/// Findings of one cluster by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingCounts {
    /// The worst severity, if any finding.
    pub worst: Option<Severity>,
    /// Critical findings.
    pub critical: usize,
    /// Warnings.
    pub warning: usize,
    /// Infos.
    pub info: usize,
}

impl FindingCounts {
    /// All findings.
    pub fn total(&self) -> usize {
        self.critical + self.warning + self.info
    }

    fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Critical => self.critical += 1,
            Severity::Warning => self.warning += 1,
            Severity::Info => self.info += 1,
        }
        self.worst = self.worst.max(Some(severity));
    }
}

/// Every finding of the fleet, worst first, and the expiry weeks.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetFindings {
    /// When they were judged.
    pub judged_at: Option<Timestamp>,
    /// Worst first, then by cluster, rule and key.
    pub findings: Vec<Finding>,
    /// Weeks in which certificates of the fleet expire, within the horizon.
    pub expiry_weeks: Vec<ExpiryWeek>,
}

/// Adds the fleet-wide findings (expiry waves) to every cluster's, and sorts them.
pub fn fleet_findings<'a>(
    mut per_cluster: Vec<Finding>,
    certificates: impl IntoIterator<Item = (&'a ClusterId, &'a [CertificateFact])>,
    now: Timestamp,
    t: &Thresholds,
) -> FleetFindings {
    let weeks = expiry_weeks(certificates, now, t);
    per_cluster.extend(wave_findings(&weeks, now, t));
    sort_findings(&mut per_cluster);
    FleetFindings {
        judged_at: Some(now),
        findings: per_cluster,
        expiry_weeks: weeks,
    }
}

/// Counts by cluster (fleet-wide findings left out).
pub fn counts_by_cluster(findings: &[Finding]) -> BTreeMap<ClusterId, FindingCounts> {
    let mut out: BTreeMap<ClusterId, FindingCounts> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.cluster.0 != FLEET) {
        out.entry(f.cluster.clone()).or_default().add(f.severity);
    }
    out
}
