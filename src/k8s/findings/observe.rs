//! What fleetdeck's own requests to a cluster met, recorded as they pass (a tower layer
//! inside the kube client, beside the request budget): the time to each response's
//! headers, its status class, and the API Priority and Fairness classification every
//! response carries (`X-Kubernetes-PF-FlowSchema-UID`, `X-Kubernetes-PF-PriorityLevel-UID`).
//! No request is made to measure anything; the findings read the log.

use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use tokio::time::Instant;
use tower::{Layer, Service};

use crate::model::findings::RequestStats;

/// The response header naming the FlowSchema a request was classified into.
pub const FLOW_SCHEMA_HEADER: &str = "x-kubernetes-pf-flowschema-uid";
/// The response header naming its priority level.
pub const PRIORITY_LEVEL_HEADER: &str = "x-kubernetes-pf-prioritylevel-uid";

/// The window request statistics cover.
pub const STATS_WINDOW: Duration = Duration::from_secs(300);
/// The most samples kept (a fleet console makes few requests once synced; a first
/// list of a large cluster makes hundreds, of which the latest are enough).
const MAX_SAMPLES: usize = 4096;

/// How one request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Any answer below 500 except 429 (a 404 or 409 is the server working).
    Answered,
    /// 429 Too Many Requests.
    Throttled,
    /// 5xx, or no answer at all.
    Failed,
}

#[derive(Debug, Clone, Copy)]
struct Sample {
    at: Instant,
    latency: Duration,
    outcome: Outcome,
}

#[derive(Debug, Default)]
struct Log {
    samples: VecDeque<Sample>,
    /// (FlowSchema UID, PriorityLevel UID) → responses that carried them.
    flows: BTreeMap<(String, String), u64>,
    throttled_total: u64,
}

/// The shared log of one cluster's requests.
#[derive(Debug, Clone, Default)]
pub struct RequestLog(Arc<Mutex<Log>>);

impl RequestLog {
    fn record(&self, sample: Sample, flow: Option<(String, String)>) {
        let mut log = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if sample.outcome == Outcome::Throttled {
            log.throttled_total += 1;
        }
        if let Some(flow) = flow {
            *log.flows.entry(flow).or_default() += 1;
        }
        if log.samples.len() >= MAX_SAMPLES {
            log.samples.pop_front();
        }
        log.samples.push_back(sample);
    }

    /// The last [`STATS_WINDOW`]'s numbers.
    pub fn stats(&self) -> RequestStats {
        let log = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let since = Instant::now().checked_sub(STATS_WINDOW);
        let recent: Vec<&Sample> = log
            .samples
            .iter()
            .filter(|s| since.is_none_or(|since| s.at >= since))
            .collect();
        let mut latencies: Vec<f64> = recent
            .iter()
            .filter(|s| s.outcome != Outcome::Failed)
            .map(|s| s.latency.as_secs_f64() * 1000.0)
            .collect();
        latencies.sort_by(f64::total_cmp);
        let percentile = |p: f64| -> Option<f64> {
            if latencies.is_empty() {
                return None;
            }
            // Nearest rank: the smallest value with at least p of the samples at or below.
            let rank = ((p * latencies.len() as f64).ceil() as usize).clamp(1, latencies.len());
            Some(latencies[rank - 1])
        };
        RequestStats {
            window: STATS_WINDOW,
            requests: recent.len() as u64,
            errors: recent
                .iter()
                .filter(|s| s.outcome == Outcome::Failed)
                .count() as u64,
            throttled: recent
                .iter()
                .filter(|s| s.outcome == Outcome::Throttled)
                .count() as u64,
            p50_ms: percentile(0.50),
            p99_ms: percentile(0.99),
            throttled_total: log.throttled_total,
        }
    }

    /// Every (FlowSchema UID, PriorityLevel UID) seen, with how many responses carried it.
    pub fn flows(&self) -> Vec<((String, String), u64)> {
        let log = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        log.flows.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }
}

/// The tower layer that records into a [`RequestLog`].
#[derive(Debug, Clone)]
pub struct ObserveLayer {
    log: RequestLog,
}

impl ObserveLayer {
    /// A layer recording into `log`.
    pub fn new(log: RequestLog) -> Self {
        ObserveLayer { log }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = ObserveService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ObserveService {
            inner,
            log: self.log.clone(),
        }
    }
}

/// The service of [`ObserveLayer`].
#[derive(Debug, Clone)]
pub struct ObserveService<S> {
    inner: S,
    log: RequestLog,
}

fn header(headers: &http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

impl<S, B, R> Service<Request<B>> for ObserveService<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
    S::Error: 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let started = Instant::now();
        let log = self.log.clone();
        let call = self.inner.call(request);
        Box::pin(async move {
            let result = call.await;
            let latency = started.elapsed();
            let (outcome, flow) = match &result {
                Ok(response) => {
                    let status = response.status().as_u16();
                    let outcome = match status {
                        429 => Outcome::Throttled,
                        500.. => Outcome::Failed,
                        _ => Outcome::Answered,
                    };
                    let flow = header(response.headers(), FLOW_SCHEMA_HEADER)
                        .zip(header(response.headers(), PRIORITY_LEVEL_HEADER));
                    (outcome, flow)
                }
                Err(_) => (Outcome::Failed, None),
            };
            log.record(
                Sample {
                    at: started,
                    latency,
                    outcome,
                },
                flow,
            );
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ms: u64, outcome: Outcome) -> Sample {
        Sample {
            at: Instant::now(),
            latency: Duration::from_millis(ms),
            outcome,
        }
    }

    #[test]
    fn percentiles_by_nearest_rank_and_failures_counted_apart() {
        let log = RequestLog::default();
        // 1..=100 ms answered: p50 is 50 ms, p99 is 99 ms.
        for ms in 1..=100 {
            log.record(sample(ms, Outcome::Answered), None);
        }
        log.record(sample(5_000, Outcome::Failed), None);
        log.record(
            sample(3, Outcome::Throttled),
            Some(("fs-1".into(), "pl-1".into())),
        );
        let stats = log.stats();
        assert_eq!(stats.requests, 102);
        assert_eq!(stats.errors, 1);
        assert_eq!(stats.throttled, 1);
        assert_eq!(stats.throttled_total, 1);
        // 101 latencies (the failure has none): ranks ceil(0.5·101) = 51 → 50 ms (the
        // 3 ms 429 sorts first), ceil(0.99·101) = 100 → 99 ms.
        assert_eq!(stats.p50_ms, Some(50.0));
        assert_eq!(stats.p99_ms, Some(99.0));
        assert_eq!(log.flows(), vec![(("fs-1".into(), "pl-1".into()), 1)]);
    }
}
