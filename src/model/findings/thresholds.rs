//! The thresholds every rule judges against, with the defaults `config.toml`'s
//! `[findings]` section overrides (documented in docs/findings.md).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

const DAY: u64 = 86_400;

/// A duration per ledger tier, with one for tiers not named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TierDays {
    /// By tier name (`critical`, `standard`, …, as the ledger's dictionary names them).
    pub by_tier: BTreeMap<String, Duration>,
    /// For any other tier.
    pub default: Duration,
}

impl TierDays {
    /// The duration for `tier`.
    pub fn of(&self, tier: &str) -> Duration {
        self.by_tier.get(tier).copied().unwrap_or(self.default)
    }
}

/// Every rule's thresholds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Thresholds {
    /// A certificate expiring within this many days is a warning.
    pub certificate_warning_days: u32,
    /// … within this many days, or expired, critical.
    pub certificate_critical_days: u32,
    /// An exec plugin credential expiring within this long is noted (info); an expired
    /// one is critical. Short-lived tokens are refreshed by running the plugin again.
    pub credential_notice: Duration,
    /// This many clusters or more with a certificate expiring in the same week make a
    /// fleet finding (an expiry wave).
    pub expiry_wave_clusters: usize,
    /// Expiry weeks are looked for this many days ahead.
    pub expiry_horizon_days: u32,
    /// A webhook waiting longer than this many seconds is a warning (its default is 10,
    /// its maximum 30; the API request waits that long for every call).
    pub webhook_timeout_seconds: i32,
    /// Our requests failing more than this ratio (5xx and no answer) is a warning.
    pub request_error_ratio: f64,
    /// Our requests' 99th percentile above this many milliseconds is a warning.
    pub request_p99_ms: f64,
    /// Error ratios and percentiles over fewer requests than this are not judged.
    pub request_min_samples: u64,
    /// A GitOps object out of sync for longer than this is a warning (shorter: info, a
    /// sync in progress).
    pub gitops_out_of_sync_after: Duration,
    /// Per tier, the oldest a last successful backup may be when the ledger declares no
    /// `rpo` for the cluster.
    pub backup_max_age: TierDays,
    /// Per tier, the oldest the last restore drill may be.
    pub restore_drill_max_age: TierDays,
    /// A Kubernetes minor leaving upstream support within this many days is a warning
    /// (past it, critical), by the ledger's `kubernetesSupport` dates.
    pub version_support_days: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            certificate_warning_days: 30,
            certificate_critical_days: 7,
            credential_notice: Duration::from_secs(DAY),
            expiry_wave_clusters: 5,
            expiry_horizon_days: 90,
            webhook_timeout_seconds: 5,
            request_error_ratio: 0.05,
            request_p99_ms: 2_000.0,
            request_min_samples: 20,
            gitops_out_of_sync_after: Duration::from_secs(30 * 60),
            backup_max_age: TierDays {
                by_tier: BTreeMap::from([("critical".to_string(), Duration::from_secs(DAY))]),
                default: Duration::from_secs(7 * DAY),
            },
            restore_drill_max_age: TierDays {
                by_tier: BTreeMap::from([("critical".to_string(), Duration::from_secs(90 * DAY))]),
                default: Duration::from_secs(180 * DAY),
            },
            version_support_days: 90,
        }
    }
}
