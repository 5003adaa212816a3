//! `[findings]` in `config.toml`: the thresholds the findings judge against and how often
//! each cluster's facts are read. Every key is optional; what is left out keeps its
//! default ([`Thresholds::default`], [`FactsOptions::default`]; docs/findings.md lists
//! them). Durations are written as in fleetdeck's files (`30m`, `1d`, `90d`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize};

use crate::k8s::findings::FactsOptions;
use crate::model::duration::parse_duration;
use crate::model::findings::Thresholds;

/// A duration written `30m`, `1d`; zero is refused where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct WrittenDuration(#[serde(serialize_with = "as_text")] pub Duration);

fn as_text<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::duration::format_duration(*d))
}

impl<'de> Deserialize<'de> for WrittenDuration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        match parse_duration(&text) {
            Ok(d) if d.is_zero() => Err(serde::de::Error::custom(format!(
                "{text:?} must be longer than zero"
            ))),
            Ok(d) => Ok(WrittenDuration(d)),
            Err(e) => Err(serde::de::Error::custom(e.to_string())),
        }
    }
}

/// `[findings]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindingsSection {
    /// Whether each cluster's facts are read at all (default true).
    pub read: Option<bool>,
    /// How often each cluster's facts are read (default 5m).
    pub interval: Option<WrittenDuration>,
    /// How often the serving certificate and exec credentials are read (default 1h).
    pub certificate_interval: Option<WrittenDuration>,
    /// A certificate expiring within this many days is a warning (default 30).
    pub certificate_warning_days: Option<u32>,
    /// … within this many days, critical (default 7).
    pub certificate_critical_days: Option<u32>,
    /// An exec credential expiring within this long is noted (default 1d).
    pub credential_notice: Option<WrittenDuration>,
    /// Clusters with certificates expiring in one week that make a fleet finding
    /// (default 5).
    pub expiry_wave_clusters: Option<usize>,
    /// How far ahead expiry weeks are looked for, in days (default 90).
    pub expiry_horizon_days: Option<u32>,
    /// A Kubernetes minor leaving upstream support within this many days is a warning
    /// (default 90).
    pub version_support_days: Option<u32>,
    /// A webhook timeout above this many seconds is a finding (default 5).
    pub webhook_timeout_seconds: Option<i32>,
    /// Our requests' error ratio above this is a finding (default 0.05).
    pub request_error_ratio: Option<f64>,
    /// Our requests' p99 above this many milliseconds is a finding (default 2000).
    pub request_p99_ms: Option<f64>,
    /// Fewer requests than this in the window are not judged (default 20).
    pub request_min_samples: Option<u64>,
    /// Out of sync longer than this is a warning (default 30m).
    pub gitops_out_of_sync_after: Option<WrittenDuration>,
    /// `[findings.backup_max_age]`: per tier (and `default`), the oldest a last backup
    /// may be when the ledger declares no `rpo` (default critical 1d, others 7d).
    pub backup_max_age: Option<BTreeMap<String, WrittenDuration>>,
    /// `[findings.restore_drill_max_age]`: per tier (and `default`), the oldest the last
    /// restore drill may be (default critical 90d, others 180d).
    pub restore_drill_max_age: Option<BTreeMap<String, WrittenDuration>>,
}

fn tiers(base: &mut crate::model::findings::TierDays, map: &BTreeMap<String, WrittenDuration>) {
    for (tier, d) in map {
        if tier == "default" {
            base.default = d.0;
        } else {
            base.by_tier.insert(tier.clone(), d.0);
        }
    }
}

impl FindingsSection {
    /// The thresholds: these keys over the defaults.
    pub fn thresholds(&self) -> Thresholds {
        let mut t = Thresholds::default();
        if let Some(v) = self.certificate_warning_days {
            t.certificate_warning_days = v;
        }
        if let Some(v) = self.certificate_critical_days {
            t.certificate_critical_days = v;
        }
        if let Some(v) = self.credential_notice {
            t.credential_notice = v.0;
        }
        if let Some(v) = self.expiry_wave_clusters {
            t.expiry_wave_clusters = v;
        }
        if let Some(v) = self.expiry_horizon_days {
            t.expiry_horizon_days = v;
        }
        if let Some(v) = self.version_support_days {
            t.version_support_days = v;
        }
        if let Some(v) = self.webhook_timeout_seconds {
            t.webhook_timeout_seconds = v;
        }
        if let Some(v) = self.request_error_ratio {
            t.request_error_ratio = v;
        }
        if let Some(v) = self.request_p99_ms {
            t.request_p99_ms = v;
        }
        if let Some(v) = self.request_min_samples {
            t.request_min_samples = v;
        }
        if let Some(v) = self.gitops_out_of_sync_after {
            t.gitops_out_of_sync_after = v.0;
        }
        if let Some(map) = &self.backup_max_age {
            tiers(&mut t.backup_max_age, map);
        }
        if let Some(map) = &self.restore_drill_max_age {
            tiers(&mut t.restore_drill_max_age, map);
        }
        t
    }

    /// How facts are read: `None` when `read = false`.
    pub fn facts(&self) -> Option<FactsOptions> {
        if self.read == Some(false) {
            return None;
        }
        let mut options = FactsOptions::default();
        if let Some(v) = self.interval {
            options.interval = v.0;
        }
        if let Some(v) = self.certificate_interval {
            options.certificate_interval = v.0;
        }
        Some(options)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;

    #[test]
    fn findings_keys_override_the_defaults() {
        let config = Config::parse(
            "[findings]\ninterval = \"10m\"\ncertificate_warning_days = 45\n[findings.restore_drill_max_age]\ncritical = \"30d\"\ndefault = \"1d\"\n",
            Path::new("config.toml"),
        )
        .unwrap();
        let t = config.findings_thresholds();
        assert_eq!(t.certificate_warning_days, 45);
        assert_eq!(t.certificate_critical_days, 7, "kept");
        assert_eq!(
            t.restore_drill_max_age.of("critical").as_secs(),
            30 * 86_400
        );
        assert_eq!(t.restore_drill_max_age.of("standard").as_secs(), 86_400);
        let options = config.sync_options();
        assert_eq!(
            options.cluster.findings.map(|f| f.interval.as_secs()),
            Some(600)
        );
        let off = Config::parse("[findings]\nread = false\n", Path::new("c.toml")).unwrap();
        assert_eq!(off.sync_options().cluster.findings, None);
        let err = Config::parse("[findings]\ninterval = \"0s\"\n", Path::new("config.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("config.toml:2:"), "{err}");
        let err = Config::parse("[findings]\ncert_days = 3\n", Path::new("config.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `cert_days`"), "{err}");
    }
}
