//! The rollout file's content as typed data (`kind: Rollout`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// One rollout: what is released, to which clusters, in which stages, under which budgets,
/// and what stops it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutSpec {
    /// The release unit: a validated version combination, its action and its checks.
    pub release: Release,
    /// Which ledger clusters receive it, as a ledger selector (empty selects every cluster).
    pub targets: String,
    /// Stages in order; every target lands in exactly one.
    pub stages: Vec<Stage>,
    /// How many clusters may change at once.
    pub budgets: Budgets,
    /// The evidence that halts the rollout.
    pub stop_when: StopWhen,
    /// Who may approve batches.
    pub approvals: ApprovalPolicy,
}

/// What is rolled out: a version bundle, how to apply it, and how to check it worked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Release {
    /// Human name, also the run's title.
    pub name: String,
    /// Component → version (kubernetes, etcd, runtime, kernel, cni, csi, gpuDriver, …).
    pub bundle: BTreeMap<String, String>,
    /// How the release reaches a cluster.
    pub action: ReleaseAction,
    /// What must hold on a cluster after the action for it to count as succeeded.
    pub checks: Vec<Check>,
}

/// How a release is applied to one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReleaseAction {
    /// Server-side apply (field manager `fleetdeck`) of every manifest in a directory,
    /// relative to the rollout file.
    Apply {
        /// The manifest directory.
        directory: String,
    },
    /// Run a program per cluster (argv, never a shell), such as `helm upgrade`.
    Exec(ExecCommand),
}

/// A program run without a shell, killed after its timeout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecCommand {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Killed after this long.
    pub timeout: Duration,
}

/// One verification check run on a cluster after the release was applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Check {
    /// At least this fraction of the cluster's nodes are Ready.
    NodesReady {
        /// Between 0 and 1.
        #[serde(alias = "min_ratio")]
        min_ratio: f64,
    },
    /// Every Deployment and DaemonSet in scope is available at its new generation
    /// (`observedGeneration` caught up), so a stale "Healthy" does not count.
    WorkloadsReady(WorkloadScope),
    /// A program whose exit status is the verdict.
    Exec(ExecCommand),
    /// A Prometheus query whose value is compared with a threshold.
    Prometheus(PrometheusCheck),
}

/// Which workloads a `workloadsReady` check looks at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WorkloadScope {
    /// Every Deployment and DaemonSet in one namespace.
    Namespace(String),
    /// Those matching a label selector, in every namespace.
    Selector(String),
}

/// A Prometheus query and the comparison its value must pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrometheusCheck {
    /// PromQL; `$cluster` is replaced by the cluster's ledger id.
    pub query: String,
    /// The value compared against.
    pub threshold: f64,
    /// How the query's value must compare with the threshold to pass.
    pub comparison: Comparison,
}

impl PrometheusCheck {
    /// The longest range the query looks back over (`[5m]`, or the range of a subquery
    /// `[30m:1m]`): until that long has passed since the change, part of what it measures
    /// is from before the change. `None` for an instant query.
    pub fn lookback(&self) -> Option<Duration> {
        self.query
            .split('[')
            .skip(1)
            .filter_map(|rest| {
                let range = rest.split(']').next()?;
                let range = range.split(':').next()?.trim();
                crate::model::duration::parse_duration(range).ok()
            })
            .max()
    }
}

/// How a measured value must compare with a threshold to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Comparison {
    /// value < threshold
    LessThan,
    /// value ≤ threshold
    AtMost,
    /// value > threshold
    GreaterThan,
    /// value ≥ threshold
    AtLeast,
}

impl Comparison {
    /// The spellings accepted in files.
    pub const NAMES: [&'static str; 4] = ["lessThan", "atMost", "greaterThan", "atLeast"];

    /// Reads a comparison name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "lessThan" => Some(Comparison::LessThan),
            "atMost" => Some(Comparison::AtMost),
            "greaterThan" => Some(Comparison::GreaterThan),
            "atLeast" => Some(Comparison::AtLeast),
            _ => None,
        }
    }

    /// Whether `value` passes against `threshold`. NaN never passes.
    pub fn passes(self, value: f64, threshold: f64) -> bool {
        match self {
            Comparison::LessThan => value < threshold,
            Comparison::AtMost => value <= threshold,
            Comparison::GreaterThan => value > threshold,
            Comparison::AtLeast => value >= threshold,
        }
    }
}

/// One stage: a share of the targets, cut into batches, soaked, and approved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// Human name (`canary`, `wave-1`, …).
    pub name: String,
    /// How many targets; the last stage always takes whatever remains.
    pub size: StageSize,
    /// Clusters per batch (budgets may make batches smaller).
    pub batch_size: u32,
    /// How long each batch is watched after it verified, before the next one starts.
    pub soak: Duration,
    /// Whether each batch waits for a person.
    pub approval: Approval,
    /// How the stage's clusters are chosen among those left.
    pub pick: Pick,
}

/// A stage's declared size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StageSize {
    /// This many clusters.
    Count(u32),
    /// This percentage of all targets, rounded to the nearest cluster (at least one).
    Percent(f64),
    /// Whatever remains (only the last stage may leave its size out).
    Rest,
}

/// Whether a batch waits for a person before it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Approval {
    /// A person approves every batch of the stage.
    Required,
    /// Batches start on their own once the previous one soaked without a stop condition.
    Auto,
}

/// How a stage chooses its clusters among the targets not yet staged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Pick {
    /// Cover as many untested version/hardware combinations as the stage's size allows.
    Representative,
    /// Ledger order.
    Ordered,
    /// Least critical tier first (the ledger dictionary lists tiers most critical first).
    LowestTierFirst,
}

impl Pick {
    /// The spellings accepted in files.
    pub const NAMES: [&'static str; 3] = ["representative", "ordered", "lowestTierFirst"];
}

/// How many clusters may change at once. Batches run one after another, so a batch is
/// what is in flight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Budgets {
    /// Clusters in flight at once across the fleet.
    pub max_in_flight: u32,
    /// Clusters in flight at once per region.
    pub per_region: Option<u32>,
    /// Clusters in flight at once per failure domain.
    pub per_failure_domain: Option<u32>,
}

/// What halts the rollout. Evaluated whenever a batch is executing, verifying or soaking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    from = "StopWhenAsJournaled",
    into = "StopWhenAsJournaled"
)]
pub struct StopWhen {
    /// Halt when this many clusters failed (default: the first failure).
    pub failed_clusters: FailedLimit,
    /// Halt when a changed cluster burns its error budget too fast.
    pub slo_burn_rate: Option<BurnRateLimit>,
    /// What a missing metric means.
    pub unknown_metrics: UnknownMetrics,
}

/// [`StopWhen`] as journals hold it. Runs journaled before the error-ratio query moved
/// into [`BurnRateLimit`] (where the file puts it) carry it beside `sloBurnRate`, and
/// still decode. It is also still written there, so that a standby executor running an
/// older release during a rolling upgrade reads the run's own query rather than
/// falling back to the default one.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StopWhenAsJournaled {
    failed_clusters: FailedLimit,
    slo_burn_rate: Option<BurnRateLimit>,
    unknown_metrics: UnknownMetrics,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error_ratio_query: Option<String>,
}

impl From<StopWhen> for StopWhenAsJournaled {
    fn from(stop: StopWhen) -> StopWhenAsJournaled {
        StopWhenAsJournaled {
            error_ratio_query: stop
                .slo_burn_rate
                .as_ref()
                .and_then(|limit| limit.error_ratio_query.clone()),
            failed_clusters: stop.failed_clusters,
            slo_burn_rate: stop.slo_burn_rate,
            unknown_metrics: stop.unknown_metrics,
        }
    }
}

impl From<StopWhenAsJournaled> for StopWhen {
    fn from(journaled: StopWhenAsJournaled) -> StopWhen {
        let mut slo_burn_rate = journaled.slo_burn_rate;
        if let Some(limit) = &mut slo_burn_rate
            && limit.error_ratio_query.is_none()
        {
            limit.error_ratio_query = journaled.error_ratio_query;
        }
        StopWhen {
            failed_clusters: journaled.failed_clusters,
            slo_burn_rate,
            unknown_metrics: journaled.unknown_metrics,
        }
    }
}

impl Default for StopWhen {
    fn default() -> Self {
        StopWhen {
            failed_clusters: FailedLimit::Count(1),
            slo_burn_rate: None,
            unknown_metrics: UnknownMetrics::Stop,
        }
    }
}

/// When failed clusters halt the rollout.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FailedLimit {
    /// Halt once this many clusters failed.
    Count(u32),
    /// Halt once this percentage of the clusters finished so far failed.
    Percent(f64),
}

/// An SLO burn-rate stop condition: burn rate = error ratio ÷ (1 − objective).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BurnRateLimit {
    /// The availability objective as a fraction (99.9% is 0.999).
    pub objective: f64,
    /// The window the error ratio is measured over.
    pub window: Duration,
    /// Halt when a cluster burns faster than this multiple of its budget.
    pub max_burn: f64,
    /// PromQL for one cluster's error ratio over the window (`$cluster` and `$window`
    /// are replaced); unset, the executor's default over `http_requests_total` is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_ratio_query: Option<String>,
    /// The short window of the multiwindow, multi-burn-rate form (the SRE workbook's):
    /// with it, a cluster halts the rollout only when both windows burn faster than
    /// their maxima — the long one says the burn is real, the short one that it is still
    /// going on. The same query is asked with the short window as `$window`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short: Option<ShortWindow>,
}

/// The short window of a two-window burn-rate condition.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShortWindow {
    /// The window (5m beside a 1h long window, in the workbook's example).
    pub window: Duration,
    /// Its maximum burn rate (the long window's unless the file says otherwise).
    pub max_burn: f64,
}

/// What a metric that cannot be read means for the rollout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UnknownMetrics {
    /// Unknown is not healthy: halt (the default).
    Stop,
    /// Carry on without the evidence (a deliberate, visible choice).
    Ignore,
}

/// Who may approve a rollout's batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalPolicy {
    /// Any person, including the one who started the rollout.
    #[default]
    AnyPerson,
    /// Any person except the one who started the rollout (`distinctApprover: true`).
    DistinctFromAuthor,
}

/// An enum value as a rollout file spells it (`lowestTierFirst`, `atMost`), for messages
/// and tables; `-` for a value that is not spelled as one word.
pub fn file_spelling<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "-".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str) -> PrometheusCheck {
        PrometheusCheck {
            query: query.into(),
            threshold: 0.1,
            comparison: Comparison::LessThan,
        }
    }

    #[test]
    fn a_checks_lookback_is_its_longest_range() {
        let ratio = check(
            r#"sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[20s]))"#,
        );
        assert_eq!(ratio.lookback(), Some(Duration::from_secs(300)));
        assert_eq!(
            check("max_over_time(rate(errors_total[1m])[30m:1m])").lookback(),
            Some(Duration::from_secs(1800))
        );
        assert_eq!(check("up{cluster=\"c1\"}").lookback(), None);
    }
}
