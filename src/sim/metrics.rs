//! The service traffic each simulated cluster reports, in Prometheus's text format at
//! `GET /sim/v1/metrics`: `http_requests_total{cluster, code}` counters that grow with
//! real time at a steady request rate, with a small base error ratio, raised while a
//! [`Degradation`] fault is active. A degradation can wait for a release: it starts once
//! the cluster's release record (`kube-system/fleetdeck-release`, written by fleetdeck
//! after an apply) names that release, which is how "clusters on kernel 5.4 degrade after
//! a CNI upgrade" is staged.

use std::fmt::Write;
use std::time::Instant;

use serde_json::Value;

use super::faults::Degradation;
use super::fleet::{Cluster, SimFleet};
use super::resource::Kind;

// fleetdeck records the release a cluster runs in this ConfigMap.
use crate::engine::rollout_kube::{RELEASE_RECORD, RELEASE_RECORD_NAMESPACE};

/// Service requests per real second, per cluster.
const REQUESTS_PER_SECOND: f64 = 50.0;
/// Errors when nothing is wrong (a 99.95% service).
const BASE_ERROR_RATIO: f64 = 0.0005;

/// A cluster's request counters, advanced lazily at each scrape.
#[derive(Debug, Default)]
pub struct Traffic {
    ok: f64,
    errors: f64,
    last: Option<Instant>,
}

impl Traffic {
    /// Adds the requests served since the last call at `error_ratio`.
    fn advance(&mut self, now: Instant, error_ratio: f64) {
        let elapsed = self.last.map_or(0.0, |last| {
            now.saturating_duration_since(last).as_secs_f64()
        });
        self.last = Some(now);
        let requests = elapsed * REQUESTS_PER_SECOND;
        let ratio = error_ratio.clamp(0.0, 1.0);
        self.errors += requests * ratio;
        self.ok += requests * (1.0 - ratio);
    }
}

/// The release name and digest the cluster's release record holds.
fn recorded_release(cluster: &Cluster) -> (Option<String>, Option<String>) {
    let st = cluster.lock();
    let record = st
        .store
        .get_value(Kind::CONFIG_MAP, RELEASE_RECORD_NAMESPACE, RELEASE_RECORD);
    let field = |name: &str| {
        record
            .as_ref()
            .and_then(|r| r.pointer(&format!("/data/{name}")))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    (field("release"), field("digest"))
}

/// The error ratio the cluster's services answer with now.
fn error_ratio(cluster: &Cluster, degradation: Option<&Degradation>) -> f64 {
    let Some(d) = degradation else {
        return BASE_ERROR_RATIO;
    };
    let active = match &d.after_release {
        None => true,
        Some(wanted) => {
            let (release, digest) = recorded_release(cluster);
            release.as_deref() == Some(wanted.as_str()) || digest.as_deref() == Some(wanted)
        }
    };
    if active {
        d.error_ratio.max(BASE_ERROR_RATIO)
    } else {
        BASE_ERROR_RATIO
    }
}

/// The exposition text for every cluster whose metrics are up.
pub fn exposition(fleet: &SimFleet) -> String {
    let now = Instant::now();
    let mut out = String::from(
        "# HELP http_requests_total Requests served by the cluster's services (simulated).\n\
         # TYPE http_requests_total counter\n",
    );
    for cluster in fleet.clusters() {
        let faults = cluster.faults();
        let ratio = error_ratio(cluster, faults.degradation.as_ref());
        let mut traffic = cluster.traffic.lock().unwrap_or_else(|p| p.into_inner());
        // Counters keep counting while the exporter is down; only the scrape misses them.
        traffic.advance(now, ratio);
        if faults.metrics_down {
            continue;
        }
        let id = &cluster.profile.id;
        let _ = writeln!(
            out,
            "http_requests_total{{cluster=\"{id}\",code=\"200\"}} {:.3}",
            traffic.ok
        );
        let _ = writeln!(
            out,
            "http_requests_total{{cluster=\"{id}\",code=\"500\"}} {:.3}",
            traffic.errors
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn counters_grow_with_time_at_the_error_ratio() {
        let mut t = Traffic::default();
        let start = Instant::now();
        t.advance(start, 0.1);
        assert_eq!(t.ok + t.errors, 0.0, "the first scrape starts the clock");
        t.advance(start + Duration::from_secs(2), 0.1);
        assert!((t.ok + t.errors - 100.0).abs() < 1e-9);
        assert!((t.errors - 10.0).abs() < 1e-9);
    }
}
