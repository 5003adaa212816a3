//! Fleet findings: what takes down many clusters at once, seen before it fires.
//! Certificates and credentials about to expire, admission webhooks that fail closed on
//! everything, our own requests landing in the API server's catch-all priority level,
//! failing readiness checks and rising errors, backups nobody restored, GitOps objects
//! out of sync or suspended, changes waiting for a maintenance window, and burn rates
//! high on the short window only.
//!
//! Each rule is a pure function over one cluster's slim facts ([`ClusterFacts`], read by
//! the adapters at a slow cadence), its ledger entry and the journal's view, and yields
//! [`Finding`]s with their evidence and age. A fact that could not be read is never
//! taken for "fine": it is a finding of its own ([`RuleId::FactsUnknown`]) with the reason.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

use crate::model::ledger::ClusterId;

mod apf;
mod backup;
mod burn;
mod certificates;
mod control_plane;
mod facts;
mod fleet;
mod gitops;
mod journal;
mod judge;
mod privilege;
pub(crate) mod says;
mod selector;
mod thresholds;
mod versions;
mod webhooks;
mod windows;

pub use backup::{recovery_warnings, restore_drill_age_days};
pub use burn::{BurnObservation, burn_findings};
pub use certificates::{ExpiryWeek, expiry_weeks};
pub use facts::*;
pub use fleet::{
    FLEET, FindingCounts, FleetFindings, FleetInputs, counts_by_cluster, facts_of, fleet_findings,
    judge_fleet,
};
pub use journal::{WINDOW_WAIT, burn_observations, waiting_for_window, window_overrides};
pub use judge::{ClusterContext, judge_cluster};
pub use privilege::{excess, missing};
pub use selector::{NamespaceSelector, SelectorOp, SelectorRequirement};
pub use thresholds::{Thresholds, TierDays};
pub use versions::version_findings;
pub use windows::{WindowHold, WindowOverride, cluster_window, window_findings, window_hold};

/// How bad a finding is. Ordered: `Info < Warning < Critical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    /// Worth knowing; nothing breaks soon.
    Info,
    /// Will break, or may: plan a fix.
    Warning,
    /// Breaks soon or now, possibly on many clusters at once: fix it first.
    Critical,
}

impl Severity {
    /// The spellings `--fail-on` and filters accept.
    pub const NAMES: [&'static str; 3] = ["info", "warning", "critical"];

    /// Reads `info`, `warning` or `critical` (any case).
    pub fn parse(text: &str) -> Option<Severity> {
        match text.trim().to_ascii_lowercase().as_str() {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "critical" | "crit" => Some(Severity::Critical),
            _ => None,
        }
    }

    /// The word tables print.
    pub fn label(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Critical => "CRITICAL",
        }
    }
}

/// Which rule found it. Serialised in camelCase; stable (scripts filter on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RuleId {
    /// A certificate (serving, kubeconfig CA or client, webhook or APIService caBundle)
    /// expires within the warning window, or has expired.
    CertificateExpiry,
    /// An exec plugin's credential expires soon.
    CredentialExpiry,
    /// An admission webhook with `failurePolicy: Fail` whose scope includes
    /// `kube-system` or every namespace.
    WebhookFailClosed,
    /// An admission webhook whose timeout is above the threshold.
    WebhookSlow,
    /// An admission webhook (or aggregated API) whose service has no ready endpoint.
    WebhookNoEndpoints,
    /// Our requests land in the catch-all or global-default priority level.
    ApfCatchAll,
    /// The API server answered our requests with 429.
    ApfThrottled,
    /// A `/readyz` or `/livez` check fails.
    HealthCheckFailing,
    /// Our requests fail more than the threshold, or are slower than it.
    RequestErrors,
    /// The last successful backup is older than the recovery point objective.
    BackupStale,
    /// The last restore drill is older than the tier's threshold, or took longer than
    /// the recovery time objective, or was never done.
    RestoreDrillStale,
    /// A GitOps object (Argo CD Application, Flux Kustomization or HelmRelease) is out of
    /// sync for longer than the threshold.
    GitOpsOutOfSync,
    /// A GitOps object reports Degraded (or not Ready).
    GitOpsDegraded,
    /// A GitOps object's sync is suspended.
    GitOpsSuspended,
    /// A change waits for the cluster's maintenance window.
    OutsideWindow,
    /// Changes outside the maintenance window are allowed by an override.
    WindowOverride,
    /// An SLO burn rate is high on the short window while the long one is not (yet).
    BurnRateShortWindow,
    /// Many clusters' certificates expire in the same week.
    ExpiryWave,
    /// A cluster's Kubernetes minor leaves upstream support soon, or has left it.
    VersionEndOfSupport,
    /// A cluster is more than one minor behind the fleet's newest.
    VersionBehind,
    /// An identity fleetdeck acts as can change far more than its job needs.
    PrivilegeExcess,
    /// An identity fleetdeck acts as lacks a right its job cannot do without.
    PrivilegeMissing,
    /// A fact could not be read: it is unknown, not fine.
    FactsUnknown,
}

impl RuleId {
    /// The rule number of the issue it belongs to (1–10; 0 for unknown facts).
    pub fn group(self) -> u8 {
        match self {
            RuleId::CertificateExpiry | RuleId::CredentialExpiry | RuleId::ExpiryWave => 1,
            RuleId::WebhookFailClosed | RuleId::WebhookSlow | RuleId::WebhookNoEndpoints => 2,
            RuleId::ApfCatchAll | RuleId::ApfThrottled => 3,
            RuleId::HealthCheckFailing | RuleId::RequestErrors => 4,
            RuleId::BackupStale | RuleId::RestoreDrillStale => 5,
            RuleId::GitOpsOutOfSync | RuleId::GitOpsDegraded | RuleId::GitOpsSuspended => 6,
            RuleId::OutsideWindow | RuleId::WindowOverride => 7,
            RuleId::BurnRateShortWindow => 8,
            RuleId::PrivilegeExcess | RuleId::PrivilegeMissing => 9,
            RuleId::VersionEndOfSupport | RuleId::VersionBehind => 10,
            RuleId::FactsUnknown => 0,
        }
    }

    /// The id as JSON spells it (`webhookFailClosed`).
    pub fn name(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => s,
            _ => String::new(),
        }
    }
}

/// A measured number behind a finding, for scripts: the value, the threshold it was
/// judged against, and the unit of both.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measure {
    /// What was measured.
    pub value: f64,
    /// The threshold it crossed (or `None` when any value is a finding).
    pub threshold: Option<f64>,
    /// `days`, `seconds`, `ratio`, `requests`, `milliseconds`, `x` (a burn rate).
    pub unit: &'static str,
}

/// One finding: a cluster, the rule, how bad, what and why, since when, and how to make
/// it go away.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The cluster (`-` for a fleet-wide finding such as an expiry wave).
    pub cluster: ClusterId,
    /// The rule.
    pub rule: RuleId,
    /// How bad.
    pub severity: Severity,
    /// What it is about, stable while the problem is the same one (no numbers in it):
    /// `webhookFailClosed/ValidatingWebhookConfiguration/kyverno/validate.kyverno.svc`.
    pub key: String,
    /// The object or source it is about, as people name it.
    pub subject: String,
    /// One line.
    pub summary: String,
    /// The facts it was judged on, one per line.
    pub evidence: Vec<String>,
    /// The number behind it, when there is one.
    pub measure: Option<Measure>,
    /// Since when it holds, when known (a certificate: when it entered the warning
    /// window; a failing check: when it was first seen failing).
    pub since: Option<Timestamp>,
    /// Since when it has had this severity, when known: a finding that got worse during
    /// a shift has this after the shift's start.
    pub severity_since: Option<Timestamp>,
    /// How to make it go away (fix it, or accept it).
    pub silence: String,
    /// `summary` as a message, for a reader of another language (never serialised;
    /// `None` shows the summary as written).
    #[serde(skip)]
    pub summary_msg: Option<crate::i18n::Msg>,
    /// `silence` as a message (never serialised).
    #[serde(skip)]
    pub silence_msg: Option<crate::i18n::Msg>,
}

impl Finding {
    /// The key acknowledgements and handovers name: the cluster and the finding's key.
    pub fn problem_key(&self) -> String {
        format!("finding/{}/{}", self.cluster, self.key)
    }
}

/// Days, with a fraction, from `now` to `then` (negative when `then` is past).
pub(crate) fn days_between(now: Timestamp, then: Timestamp) -> f64 {
    (then.as_second() - now.as_second()) as f64 / 86_400.0
}

/// `then` minus `d`, clamped to the earliest instant.
pub(crate) fn before(then: Timestamp, d: Duration) -> Timestamp {
    jiff::SignedDuration::try_from(d)
        .ok()
        .and_then(|d| then.checked_sub(d).ok())
        .unwrap_or(Timestamp::MIN)
}

/// Orders findings worst first, then by cluster, rule and key: the order every list uses.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.cluster.cmp(&b.cluster))
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.key.cmp(&b.key))
    });
}

#[cfg(test)]
mod tests;
