//! A real Prometheus (Debian's `prometheus` package) started on loopback, scraping the
//! simulator's `/sim/v1/metrics` every second; killed on drop. A missing binary is a
//! failure with instructions, never a silent skip (`.ci/run` installs it).

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use fleetdeck::hooks::prometheus::Prometheus;
use fleetdeck::sim::ScrapingPrometheus;

/// Starts Prometheus in `dir` scraping the simulator at `sim`, and waits until it can
/// compute rates over the simulated traffic.
pub async fn start(dir: &Path, sim: SocketAddr) -> ScrapingPrometheus {
    let process = ScrapingPrometheus::start(dir, sim, Duration::from_secs(1)).unwrap_or_else(|e| {
        panic!("Prometheus is required for the rollout tests ({e}): apt-get install prometheus")
    });
    let client = Prometheus::new(&process.url);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if client
            .query("count(rate(http_requests_total[10s]) >= 0)")
            .await
            .is_ok_and(|n| n >= 2.0)
        {
            return process;
        }
        assert!(Instant::now() < deadline, "Prometheus did not get ready");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
