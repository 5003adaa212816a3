//! Our own retry policy. kube's default retry re-sends a PDB-blocked eviction (429) for
//! minutes; we turn it off and retry only what is safe to retry: reads, with exponential
//! backoff and full jitter. Mutations surface their first error to the engine, which
//! decides (a 429 from an eviction is a blocked drain, not a transient failure).

use std::future::Future;
use std::time::Duration;

use rand::Rng;

/// How reads are retried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in total, including the first.
    pub attempts: u32,
    /// Backoff before the second attempt; doubles each time.
    pub base: Duration,
    /// Backoff never exceeds this.
    pub max: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 4,
            base: Duration::from_millis(200),
            max: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// The delay before attempt `n` (n ≥ 1 is the first retry): full jitter over an
    /// exponentially growing ceiling, so hundreds of clients do not retry in step.
    pub fn backoff(&self, n: u32, rng: &mut impl Rng) -> Duration {
        let ceiling = self
            .base
            .saturating_mul(1u32 << n.saturating_sub(1).min(16))
            .min(self.max);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(rng.random_range(0..=millis))
    }
}

/// Whether an error from a read is worth trying again.
pub fn is_transient(error: &kube::Error) -> bool {
    match error {
        kube::Error::Api(status) => matches!(status.code, 429 | 500 | 502 | 503 | 504),
        kube::Error::HyperError(_) | kube::Error::Service(_) => true,
        _ => false,
    }
}

/// Runs a read, retrying transient failures under `policy`.
pub async fn retry_read<T, F, Fut>(policy: RetryPolicy, mut read: F) -> Result<T, kube::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, kube::Error>>,
{
    let mut attempt = 1;
    loop {
        match read().await {
            Ok(value) => return Ok(value),
            Err(error) if attempt < policy.attempts && is_transient(&error) => {
                let delay = policy.backoff(attempt, &mut rand::rng());
                tracing::debug!(%error, attempt, ?delay, "retrying read");
                tokio::time::sleep(delay).await;
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn backoff_grows_and_is_capped() {
        let policy = RetryPolicy::default();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for n in 1..20 {
            let delay = policy.backoff(n, &mut rng);
            let ceiling = (policy.base * 2u32.pow((n - 1).min(16))).min(policy.max);
            assert!(delay <= ceiling, "attempt {n}: {delay:?} > {ceiling:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn retries_transient_errors_only() {
        let mut calls = 0;
        let result: Result<u32, _> = retry_read(RetryPolicy::default(), || {
            calls += 1;
            let n = calls;
            async move {
                if n < 3 {
                    Err(kube::Error::Api(
                        kube::core::Status::failure("busy", "TooManyRequests")
                            .with_code(429)
                            .boxed(),
                    ))
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(result.ok(), Some(3));

        let mut calls = 0;
        let result: Result<u32, _> = retry_read(RetryPolicy::default(), || {
            calls += 1;
            async {
                Err(kube::Error::Api(
                    kube::core::Status::failure("no", "Forbidden")
                        .with_code(403)
                        .boxed(),
                ))
            }
        })
        .await;
        assert!(result.is_err());
        assert_eq!(calls, 1);
    }
}
