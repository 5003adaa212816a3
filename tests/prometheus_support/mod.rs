//! A real Prometheus (Debian's `prometheus` package) started on loopback, scraping the
//! simulator's `/sim/v1/metrics` every second; killed on drop. A missing binary is a
//! failure with instructions, never a silent skip (`.ci/run` installs it).
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fleetdeck::engine::prometheus::Prometheus;

/// A running Prometheus.
pub struct PrometheusProcess {
    child: Child,
    /// Its base URL.
    pub url: String,
}

impl Drop for PrometheusProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl PrometheusProcess {
    /// Starts Prometheus in `dir` scraping the simulator at `sim`, and waits until it has
    /// samples of every simulated cluster.
    pub async fn start(dir: &Path, sim: SocketAddr) -> PrometheusProcess {
        let ok = Command::new("prometheus")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            ok,
            "Prometheus is required for the rollout tests: apt-get install prometheus"
        );
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: fleet\n    metrics_path: /sim/v1/metrics\n    static_configs:\n      - targets: ['{sim}']\n"
            ),
        )
        .expect("write prometheus.yml");
        let port = free_port();
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("prometheus-data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--log.level=warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn prometheus");
        let process = PrometheusProcess {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        // Ready once a rate over the simulated traffic can be computed.
        let client = Prometheus::new(&process.url);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if client
                .query("count(rate(http_requests_total[10s]) >= 0)")
                .await
                .is_ok_and(|n| n >= 2.0)
            {
                break;
            }
            assert!(Instant::now() < deadline, "Prometheus did not get ready");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        process
    }

    /// Stops scraping for good (the process is killed).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
