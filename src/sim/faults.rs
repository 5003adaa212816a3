//! Per-cluster faults, changeable at run time: latency, error rates, unreachable
//! clusters, dropped watches, zone outages, NotReady nodes and pods that never finish
//! terminating.

use std::time::Duration;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::error::ApiError;

/// How an unreachable cluster fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unreachable {
    /// The connection is closed without an answer (over TCP the client sees a
    /// connection error; with `axum::serve` a 503).
    Refused,
    /// Requests never get an answer; clients run into their own timeouts.
    Hanging,
}

/// A zone whose nodes stop reporting at a simulated time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ZoneOutage {
    /// Value of `topology.kubernetes.io/zone`.
    pub zone: String,
    /// Simulated seconds after the fleet started (0 = from the start).
    #[serde(default)]
    pub at_seconds: f64,
}

/// The faults of one cluster. The JSON form (camelCase) is what the simulator-only
/// endpoint `PUT /sim/v1/clusters/{id}/faults` accepts and returns, and what scenario
/// files use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Faults {
    /// Added to every API request, in real milliseconds.
    pub latency_ms: u64,
    /// Fraction (0..1) of API requests answered with 500 InternalError.
    pub error_rate_500: f64,
    /// Fraction (0..1) of API requests answered with 429 and `Retry-After`.
    pub error_rate_429: f64,
    /// `Retry-After` seconds for injected 429s (default 1).
    pub retry_after_seconds: u32,
    /// The cluster cannot be reached at all.
    pub unreachable: Option<Unreachable>,
    /// Watch connections are cut after this many real seconds.
    pub drop_watches_after_seconds: Option<f64>,
    /// Pods that are deleted gracefully never finish terminating.
    pub stuck_terminating: bool,
    /// A zone that goes dark at a simulated time.
    pub zone_outage: Option<ZoneOutage>,
    /// Nodes whose kubelet stops reporting (NotReady) while listed here.
    pub not_ready_nodes: Vec<String>,
    /// The cluster's services answer errors (seen in `/sim/v1/metrics`).
    pub degradation: Option<Degradation>,
    /// The cluster's service metrics are missing from `/sim/v1/metrics` (an exporter
    /// that stopped): a scrape finds no series for it.
    pub metrics_down: bool,
    /// Resources (plurals, e.g. `poddisruptionbudgets`) the caller may not read or
    /// change: every request to them answers 403 Forbidden, as with missing RBAC.
    pub forbidden_resources: Vec<String>,
    /// The next this many list requests (not watches) answer 500, then lists work again.
    pub fail_next_lists: u32,
    /// Requests to these resources (plurals, e.g. `namespaces`) take this many real
    /// milliseconds more than the others: one slow path on an otherwise healthy server.
    pub slow_resources: std::collections::BTreeMap<String, u64>,
    /// Health checks that fail (`etcd`, `informer-sync`, `poststarthook/…`): every
    /// endpoint of `/healthz`, `/livez` and `/readyz` that runs one answers 500.
    pub failing_health_checks: Vec<String>,
    /// Pods whose readiness probe fails: the kubelet keeps them `Ready=False` while they
    /// are listed, and makes them Ready again once the fault is lifted.
    pub not_ready_pods: Vec<PodSelector>,
}

/// Pods picked by namespace, name and labels (each optional; all given must match).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PodSelector {
    /// Namespace.
    pub namespace: Option<String>,
    /// Pod name.
    pub name: Option<String>,
    /// Label selector (`app=web,tier!=db`).
    pub label_selector: Option<String>,
}

impl PodSelector {
    /// Whether a pod in `ns` named `name` with `labels` is picked.
    pub fn matches(&self, ns: &str, name: &str, labels: &[(String, String)]) -> bool {
        self.namespace.as_deref().is_none_or(|n| n == ns)
            && self.name.as_deref().is_none_or(|n| n == name)
            && self.label_selector.as_deref().is_none_or(|s| {
                super::selector::LabelSelector::parse(s).is_ok_and(|sel| sel.matches(labels))
            })
    }
}

/// Service errors injected into a cluster's metrics, from the start or once a release is
/// applied to it (as recorded in `kube-system/fleetdeck-release`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Degradation {
    /// Fraction (0..1) of service requests that fail while degraded.
    pub error_ratio: f64,
    /// Degrade only once this release (its name or digest) is applied; always when unset.
    #[serde(default)]
    pub after_release: Option<String>,
}

/// What the fault gate decided for one request.
#[derive(Debug)]
pub enum Gate {
    /// Serve the request normally.
    Pass,
    /// Answer with this error.
    Fail(ApiError),
    /// Close the connection without answering.
    Refuse,
    /// Never answer.
    Hang,
}

impl Faults {
    /// Applies latency, then decides whether the request fails.
    pub async fn gate(&self) -> Gate {
        if self.latency_ms > 0 {
            tokio::time::sleep(Duration::from_millis(self.latency_ms)).await;
        }
        match self.unreachable {
            Some(Unreachable::Refused) => return Gate::Refuse,
            Some(Unreachable::Hanging) => return Gate::Hang,
            None => {}
        }
        if self.error_rate_500 > 0.0 || self.error_rate_429 > 0.0 {
            let roll: f64 = rand::rng().random();
            if roll < self.error_rate_500 {
                return Gate::Fail(ApiError::internal("simulated server error"));
            }
            if roll < self.error_rate_500 + self.error_rate_429 {
                return Gate::Fail(ApiError::too_many_requests(self.retry_after_seconds.max(1)));
            }
        }
        Gate::Pass
    }

    /// Whether a node's kubelet is silent at simulated time `now_secs`.
    pub fn node_silent(&self, node: &str, zone: Option<&str>, now_secs: f64) -> bool {
        self.not_ready_nodes.iter().any(|n| n == node)
            || self
                .zone_outage
                .as_ref()
                .is_some_and(|z| Some(z.zone.as_str()) == zone && now_secs >= z.at_seconds)
    }
}
