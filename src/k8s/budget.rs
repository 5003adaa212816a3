//! A per-cluster request budget (token bucket, like client-go's QPS and burst) and a
//! request counter, as one tower layer in front of the kube client. The budget keeps the
//! console from becoming the load problem on hundreds of API servers; the counter lets
//! benchmarks and the status bar show how many requests we actually make.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};
use tower::{Layer, Service};

/// Requests per second allowed on average, and how many may go at once after a pause.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Sustained requests per second.
    pub qps: f64,
    /// Bucket size.
    pub burst: u32,
}

impl Default for Budget {
    /// Twice client-go's defaults: enough for a few watches and an initial list with
    /// pagination, far below what one API server can take.
    fn default() -> Self {
        Budget {
            qps: 10.0,
            burst: 20,
        }
    }
}

/// How many requests a client has sent; shared with whoever wants to read it.
#[derive(Debug, Clone, Default)]
pub struct RequestCounter(Arc<AtomicU64>);

impl RequestCounter {
    /// Requests sent so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn increment(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// The tower layer.
#[derive(Debug, Clone)]
pub struct BudgetLayer {
    budget: Budget,
    bucket: Arc<Mutex<Bucket>>,
    counter: RequestCounter,
}

impl BudgetLayer {
    /// A layer enforcing `budget` and counting into `counter`.
    pub fn new(budget: Budget, counter: RequestCounter) -> Self {
        BudgetLayer {
            budget,
            bucket: Arc::new(Mutex::new(Bucket {
                tokens: f64::from(budget.burst.max(1)),
                last: Instant::now(),
            })),
            counter,
        }
    }

    /// Takes a token, or says how long until one is available.
    fn try_take(&self) -> Result<(), Duration> {
        let Ok(mut bucket) = self.bucket.lock() else {
            // A poisoned lock only means another task panicked mid-update; the bucket's
            // numbers are still usable, so do not block requests forever.
            return Ok(());
        };
        let now = Instant::now();
        let elapsed = now.duration_since(bucket.last).as_secs_f64();
        let capacity = f64::from(self.budget.burst.max(1));
        bucket.tokens = (bucket.tokens + elapsed * self.budget.qps).min(capacity);
        bucket.last = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let missing = 1.0 - bucket.tokens;
            Err(Duration::from_secs_f64(
                missing / self.budget.qps.max(0.001),
            ))
        }
    }
}

impl<S> Layer<S> for BudgetLayer {
    type Service = BudgetService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        BudgetService {
            inner,
            layer: self.clone(),
            granted: false,
            sleep: None,
        }
    }
}

/// The service produced by [`BudgetLayer`]: waits in `poll_ready` until a token is free.
pub struct BudgetService<S> {
    inner: S,
    layer: BudgetLayer,
    granted: bool,
    sleep: Option<Pin<Box<Sleep>>>,
}

impl<S, R> Service<R> for BudgetService<S>
where
    S: Service<R>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        while !self.granted {
            if let Some(sleep) = self.sleep.as_mut() {
                if sleep.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.sleep = None;
            }
            match self.layer.try_take() {
                Ok(()) => self.granted = true,
                Err(wait) => self.sleep = Some(Box::pin(tokio::time::sleep(wait))),
            }
        }
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: R) -> Self::Future {
        self.granted = false;
        self.layer.counter.increment();
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn burst_then_qps() {
        let layer = BudgetLayer::new(Budget { qps: 2.0, burst: 3 }, RequestCounter::default());
        for _ in 0..3 {
            assert!(layer.try_take().is_ok());
        }
        let wait = layer.try_take().unwrap_err();
        assert!((wait.as_secs_f64() - 0.5).abs() < 0.01, "{wait:?}");
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(layer.try_take().is_ok());
        assert!(layer.try_take().is_err());
    }
}
