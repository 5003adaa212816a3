//! What reading the findings' facts costs each cluster's API server, in requests, on the
//! simulator's `findings` scenario (9 clusters: webhooks, APIServices, flow-control
//! objects, health checks, Argo CD and Flux objects):
//!
//! 1. once synced, without the facts reader (`[findings] read = false`): requests per
//!    cluster per minute (watches only: the figure before findings existed);
//! 2. with it at its default interval (5 min): the requests of the first round per
//!    cluster (discovery, webhook configurations, APIServices, EndpointSlices of their
//!    services, /readyz and /livez, GitOps objects, FlowSchemas and priority levels),
//!    then requests per cluster per minute in the minute after it (no round due);
//! 3. with rounds every 20 s, so that later rounds (flow-control objects are not asked
//!    again once their UIDs are resolved) fall in the window: requests per later round
//!    per cluster, and from it the steady cost at the default interval.
//!
//! The simulator runs as a separate process. Run: `cargo bench --bench findings_budget`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fleetdeck::k8s::findings::FactsOptions;
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::live::FleetSnapshot;
use kube::config::Kubeconfig;

/// How long each steady state is watched.
const WINDOW: Duration = Duration::from_secs(60);

struct Sim {
    child: Child,
    dir: tempfile::TempDir,
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_sim() -> Sim {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args([
            "sim",
            "--scenario",
            "findings",
            "--seed",
            "1",
            "--write-kubeconfig",
        ])
        .arg(dir.path().join("kubeconfig"))
        .arg("--write-ledger")
        .arg(dir.path().join("ledger.yaml"))
        .env("FLEETDECK_DATA_DIR", dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the simulator");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("sim address line");
    eprintln!("{}", line.trim());
    Sim { child, dir }
}

/// Requests sent so far, over the clusters that answer.
fn sent(s: &FleetSnapshot) -> u64 {
    s.clusters.iter().map(|c| c.requests_sent).sum()
}

fn reachable(s: &FleetSnapshot) -> usize {
    s.clusters.iter().filter(|c| c.status.data_usable()).count()
}

fn all_facts_read(s: &FleetSnapshot) -> bool {
    s.clusters
        .iter()
        .all(|c| !c.status.data_usable() || c.findings.is_some())
}

/// The latest snapshot, a moment after the clusters' loops published their counts.
async fn settle_counts(sync: &mut FleetSync) -> FleetSnapshot {
    tokio::time::sleep(Duration::from_secs(2)).await;
    sync.snapshots.borrow_and_update().clone()
}

/// Syncs with `facts`, waits for the lists (and the first facts round when reading),
/// then counts requests over [`WINDOW`]: (requests per reachable cluster in the first
/// round, requests per reachable cluster per minute after it, reachable clusters).
async fn measure(
    ledger: &Ledger,
    kubeconfig: &Kubeconfig,
    facts: Option<FactsOptions>,
) -> (f64, f64, usize) {
    let mut options = FleetSyncOptions::default();
    options.cluster.findings = facts;
    let mut sync = FleetSync::start(ledger, kubeconfig.clone(), options);
    let mut snapshot = sync.wait_settled(Duration::from_secs(120)).await;
    let listed = sent(&snapshot);
    if facts.is_some() {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        while !all_facts_read(&snapshot) {
            match tokio::time::timeout_at(deadline, sync.snapshots.changed()).await {
                Ok(Ok(())) => snapshot = sync.snapshots.borrow_and_update().clone(),
                _ => break,
            }
        }
    }
    snapshot = settle_counts(&mut sync).await;
    let clusters = reachable(&snapshot).max(1);
    let round = (sent(&snapshot) - listed) as f64 / clusters as f64;
    let before = sent(&snapshot);
    tokio::time::sleep(WINDOW).await;
    let after = sent(&sync.snapshots.borrow().clone());
    sync.stop();
    let per_minute = (after - before) as f64 / clusters as f64 / (WINDOW.as_secs_f64() / 60.0);
    (round, per_minute, clusters)
}

fn main() {
    let sim = start_sim();
    let ledger = fleetdeck::ledger_file::load(&sim.dir.path().join("ledger.yaml")).expect("ledger");
    let kubeconfig = Kubeconfig::read_from(sim.dir.path().join("kubeconfig")).expect("kubeconfig");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (_, without, clusters) = measure(&ledger, &kubeconfig, None).await;
        println!(
            "1. without the facts reader: {without:.2} requests per cluster per minute once synced ({clusters} reachable clusters, {} s window)",
            WINDOW.as_secs()
        );
        let default = FactsOptions::default();
        let (first, after_first, _) = measure(&ledger, &kubeconfig, Some(default)).await;
        println!(
            "2. with it (a round every {} s): first round {first:.1} requests per cluster; then {after_first:.2} requests per cluster per minute in the next {} s (no round due)",
            default.interval.as_secs(),
            WINDOW.as_secs()
        );
        let every = Duration::from_secs(20);
        let fast = FactsOptions {
            interval: every,
            ..default
        };
        let (_, fast_rate, _) = measure(&ledger, &kubeconfig, Some(fast)).await;
        let rounds_per_minute = 60.0 / every.as_secs_f64();
        let per_round = (fast_rate - without).max(0.0) / rounds_per_minute;
        let steady = without + per_round * 60.0 / default.interval.as_secs_f64();
        println!(
            "3. rounds every {} s: {fast_rate:.2} requests per cluster per minute, so {per_round:.1} requests per later round per cluster; at the default interval the steady cost is {steady:.2} requests per cluster per minute ({without:.2} without findings, +{:.2})",
            every.as_secs(),
            steady - without
        );
    });
    runtime.shutdown_background();
}
