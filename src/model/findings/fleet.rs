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
    for f in findings.iter().filter(|f| f.cluster.as_str() != FLEET) {
        out.entry(f.cluster.clone()).or_default().add(f.severity);
    }
    out
}

/// Everything the fleet's findings are judged on.
pub struct FleetInputs<'a> {
    /// The ledger.
    pub ledger: &'a crate::model::ledger::Ledger,
    /// The live fleet, with each cluster's facts.
    pub snapshot: &'a crate::model::live::FleetSnapshot,
    /// The journal's projection, or why it could not be read.
    pub journal: Result<&'a crate::model::run::Projection, String>,
    /// Each cluster's maintenance-window zone, as loaded by the caller.
    pub zone: &'a dyn Fn(&ClusterId) -> Option<&'a jiff::tz::TimeZone>,
}

/// A cluster's facts as the snapshot holds them, or why there are none.
pub fn facts_of(
    cluster: Option<&crate::model::live::ClusterSnapshot>,
) -> super::Read<&super::ClusterFacts> {
    let Some(cluster) = cluster else {
        return super::Read::Unknown("not in the fleet view".into());
    };
    if !cluster.status.data_usable() {
        let why = cluster
            .last_error
            .as_deref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default();
        return super::Read::Unknown(format!("cluster {}{why}", cluster.status.label()));
    }
    match &cluster.findings {
        Some(facts) => super::Read::Known(facts),
        None => super::Read::Unknown(
            "not read yet (facts are read once the first lists are done)".into(),
        ),
    }
}

/// Every finding of the fleet: each ledger cluster's, the journal's (burn rates), and the
/// fleet-wide ones, worst first.
pub fn judge_fleet(inputs: &FleetInputs<'_>, now: Timestamp, t: &Thresholds) -> FleetFindings {
    let empty = BTreeMap::new();
    let (overrides, waiting, burns): (
        &[super::WindowOverride],
        BTreeMap<ClusterId, Vec<String>>,
        Vec<Finding>,
    ) = match &inputs.journal {
        Ok(projection) => (
            super::window_overrides(projection),
            super::waiting_for_window(projection),
            super::burn_findings(&super::burn_observations(projection)),
        ),
        Err(_) => (&[], empty, Vec::new()),
    };
    let mut all = Vec::new();
    let mut certificates: Vec<(&ClusterId, &[CertificateFact])> = Vec::new();
    for cluster in &inputs.ledger.clusters {
        let facts = facts_of(inputs.snapshot.cluster(&cluster.id.0).map(|c| &**c));
        if let super::Read::Known(f) = &facts {
            certificates.push((&cluster.id, f.certificates.as_slice()));
        }
        let ctx = super::ClusterContext {
            cluster,
            facts,
            window_zone: (inputs.zone)(&cluster.id),
            overrides,
            waiting: waiting
                .get(&cluster.id)
                .map(Vec::as_slice)
                .unwrap_or_default(),
        };
        all.extend(super::judge_cluster(&ctx, now, t));
    }
    all.extend(burns);
    all.extend(super::version_findings(
        inputs.ledger,
        inputs.snapshot,
        now,
        t,
    ));
    if let Err(why) = &inputs.journal {
        all.push(super::judge::unknown(
            &ClusterId(FLEET.into()),
            "journal",
            "the journal (window overrides, changes waiting for windows, rollouts' burn rates)",
            why,
        ));
    }
    fleet_findings(all, certificates, now, t)
}
