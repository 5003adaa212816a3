//! A Prometheus (the `prometheus` binary, e.g. Debian's package) started on loopback to
//! scrape the simulator's `/sim/v1/metrics`, for the demo and the tests. Killed on drop.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running Prometheus scraping a simulator.
pub struct ScrapingPrometheus {
    child: Child,
    /// Its base URL (`http://127.0.0.1:PORT`).
    pub url: String,
}

impl Drop for ScrapingPrometheus {
    fn drop(&mut self) {
        self.stop();
    }
}

impl ScrapingPrometheus {
    /// Starts `prometheus` with its configuration and data under `dir`, scraping the
    /// simulator at `sim` every `interval`. Fails when the binary is missing.
    pub fn start(dir: &Path, sim: SocketAddr, interval: Duration) -> std::io::Result<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: {s}s\n  evaluation_interval: {s}s\nscrape_configs:\n  - job_name: fleet\n    metrics_path: /sim/v1/metrics\n    static_configs:\n      - targets: ['{sim}']\n",
                s = interval.as_secs().max(1)
            ),
        )?;
        let child = Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("prometheus-data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--log.level=error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        Ok(ScrapingPrometheus {
            child,
            url: format!("http://127.0.0.1:{port}"),
        })
    }

    /// Stops it for good (scrapes stop; queries fail).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
