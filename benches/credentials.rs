//! Exec credential plugins at fleet scale, against the simulator's token issuer, with the
//! simulator's plugin (this package's binary, a process per run, as a real plugin is):
//!
//! 1. `demo` (40 clusters), one user whose plugin takes 0.5 s and writes on stderr: the
//!    fleet sync's time to settle against the same fleet with a static token, five
//!    alternating rounds (a fresh plugin state each round, so every round runs it cold),
//!    and the plugin runs per round;
//! 2. `large` (300 clusters) with one kubeconfig user per cluster (300 credentials): runs,
//!    the most at once (from the plugin's own log, and the credential layer's count) and
//!    clusters synced; then with one shared user;
//! 3. a soak: `demo` with 15-second tokens watched for two minutes with the default sync
//!    settings: statuses other than Synced seen, requests refused for an expired token
//!    (the issuer counts them), plugin runs against token lifetimes.
//!
//! Run: `cargo bench --bench credentials` (the soak alone takes two minutes; set
//! `CREDENTIALS_SOAK_SECONDS` to change it, `CREDENTIALS_PARTS=demo,large,soak` to run
//! only some parts).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod support;

use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::live::{ClusterStatus, FleetSnapshot};
use fleetdeck::sim::{ExecAuth, KubeconfigAuth, SimFleet};
use support::median;

fn program() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_fleetdeck"))
}

/// Writes an exec kubeconfig whose plugin keeps its state in `state`.
fn exec_kubeconfig(
    fleet: &SimFleet,
    addr: std::net::SocketAddr,
    path: &Path,
    state: &Path,
    behaviour: &str,
    ttl: Option<f64>,
    per_cluster: bool,
) -> kube::config::Kubeconfig {
    std::fs::create_dir_all(state).expect("state");
    std::fs::write(state.join("behaviour.json"), behaviour).expect("behaviour");
    fleetdeck::sim::write_kubeconfig_with(
        fleet,
        path,
        addr,
        &KubeconfigAuth::Exec(ExecAuth {
            program: program(),
            user: "admin".into(),
            ttl_seconds: ttl,
            state: Some(state.to_path_buf()),
            per_cluster,
        }),
    )
    .expect("kubeconfig");
    kube::config::Kubeconfig::read_from(path).expect("read kubeconfig")
}

/// Each plugin run, from its log.
fn runs(state: &Path) -> Vec<fleetdeck::sim::PluginRun> {
    fleetdeck::sim::runs_in(state)
}

/// The clusters not Synced, with why, for the figures' notes.
fn not_synced(snapshot: &FleetSnapshot) -> Vec<String> {
    snapshot
        .clusters
        .iter()
        .filter(|c| c.status != ClusterStatus::Synced)
        .map(|c| {
            format!(
                "{} {} ({})",
                c.id,
                c.status.label(),
                c.last_error.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

fn synced(snapshot: &FleetSnapshot) -> usize {
    snapshot
        .clusters
        .iter()
        .filter(|c| c.status == ClusterStatus::Synced)
        .count()
}

/// Settles a fleet sync of `ledger` over `kubeconfig`; (seconds, snapshot).
async fn settle(
    ledger: &fleetdeck::model::ledger::Ledger,
    kubeconfig: kube::config::Kubeconfig,
    wait: Duration,
) -> (f64, FleetSnapshot) {
    let started = Instant::now();
    let mut sync = FleetSync::start(ledger, kubeconfig, FleetSyncOptions::default());
    let snapshot = sync.wait_settled(wait).await;
    let secs = started.elapsed().as_secs_f64();
    sync.stop();
    (secs, snapshot)
}

async fn demo_against_a_static_token(dir: &Path) {
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo");
    let (addr, server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0)
        .await
        .expect("serve");
    fleetdeck::sim::write_ledger(&fleet, &dir.join("ledger.yaml"), addr).expect("ledger");
    let ledger = fleetdeck::config::ledger_file::load(&dir.join("ledger.yaml")).expect("ledger");
    fleetdeck::sim::write_kubeconfig(&fleet, &dir.join("kc-token"), addr).expect("kc");
    let mut token_times = Vec::new();
    let mut exec_times = Vec::new();
    let mut exec_runs = Vec::new();
    let mut same = true;
    for round in 0..5 {
        let token = kube::config::Kubeconfig::read_from(dir.join("kc-token")).expect("kc");
        let (t, with_token) = settle(&ledger, token, Duration::from_secs(60)).await;
        let state = dir.join(format!("plugin-demo-{round}"));
        let exec = exec_kubeconfig(
            &fleet,
            addr,
            &dir.join(format!("kc-exec-{round}")),
            &state,
            r#"{"delaySeconds": 0.5, "stderr": ["plugin: refreshing the SSO cache"]}"#,
            None,
            false,
        );
        let (e, with_plugin) = settle(&ledger, exec, Duration::from_secs(60)).await;
        same &= synced(&with_token) == synced(&with_plugin);
        token_times.push(t);
        exec_times.push(e);
        exec_runs.push(runs(&state).len());
    }
    let (t, e) = (median(&mut token_times), median(&mut exec_times));
    println!("demo, static token: settled in median {t:.2} s (rounds {token_times:.2?})");
    println!(
        "demo, exec plugin (0.5 s, chatty): median {e:.2} s (rounds {exec_times:.2?}); {:.2}x the static time; target <= 1.5 x static + one run = {:.2} s; plugin runs per round {exec_runs:?}; same clusters synced: {same}",
        e / t,
        1.5 * t + 0.5
    );
    server.shutdown().await;
}

async fn large_with_many_users(dir: &Path) {
    let fleet = SimFleet::load("large", 1, 1.0).expect("large");
    let (addr, server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0)
        .await
        .expect("serve");
    fleetdeck::sim::write_ledger(&fleet, &dir.join("ledger-large.yaml"), addr).expect("ledger");
    let ledger =
        fleetdeck::config::ledger_file::load(&dir.join("ledger-large.yaml")).expect("ledger");
    let bound = fleetdeck::k8s::credentials::store().settings().max_parallel;
    let before = fleetdeck::k8s::credentials::store().stats();
    let state = dir.join("plugin-large-many");
    let exec = exec_kubeconfig(
        &fleet,
        addr,
        &dir.join("kc-large-many"),
        &state,
        r#"{"delaySeconds": 0.2}"#,
        None,
        true,
    );
    let (secs, snapshot) = settle(&ledger, exec, Duration::from_secs(300)).await;
    let done = runs(&state);
    let after = fleetdeck::k8s::credentials::store().stats();
    println!(
        "large, 300 users: settled in {secs:.1} s; {} of {} clusters Synced; {} plugin runs; at most {} at once by the plugin's log, {} by the credential layer's count (bound {bound}); not synced: {:?}",
        synced(&snapshot),
        snapshot.clusters.len(),
        done.len(),
        fleetdeck::sim::most_at_once(&done),
        after.peak.max(before.peak),
        not_synced(&snapshot),
    );
    let state = dir.join("plugin-large-one");
    let exec = exec_kubeconfig(
        &fleet,
        addr,
        &dir.join("kc-large-one"),
        &state,
        r#"{"delaySeconds": 0.2}"#,
        None,
        false,
    );
    let (secs, snapshot) = settle(&ledger, exec, Duration::from_secs(300)).await;
    println!(
        "large, one shared user: settled in {secs:.1} s; {} of {} Synced; {} plugin run(s)",
        synced(&snapshot),
        snapshot.clusters.len(),
        runs(&state).len()
    );
    server.shutdown().await;
}

async fn soak(dir: &Path) {
    let seconds: u64 = std::env::var("CREDENTIALS_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let ttl = 15.0;
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo");
    let (addr, server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0)
        .await
        .expect("serve");
    fleetdeck::sim::write_ledger(&fleet, &dir.join("ledger-soak.yaml"), addr).expect("ledger");
    let ledger =
        fleetdeck::config::ledger_file::load(&dir.join("ledger-soak.yaml")).expect("ledger");
    let state = dir.join("plugin-soak");
    let exec = exec_kubeconfig(
        &fleet,
        addr,
        &dir.join("kc-soak"),
        &state,
        r#"{"delaySeconds": 0.5, "stderr": ["plugin: refreshing"]}"#,
        Some(ttl),
        false,
    );
    let mut sync = FleetSync::start(&ledger, exec, FleetSyncOptions::default());
    let first = sync.wait_settled(Duration::from_secs(60)).await;
    let baseline: BTreeMap<String, ClusterStatus> = first
        .clusters
        .iter()
        .map(|c| (c.id.to_string(), c.status))
        .collect();
    let started = Instant::now();
    let mut worse: BTreeMap<String, usize> = BTreeMap::new();
    while started.elapsed() < Duration::from_secs(seconds) {
        let _ = tokio::time::timeout(Duration::from_secs(1), sync.snapshots.changed()).await;
        let now = sync.snapshots.borrow_and_update().clone();
        for c in now.clusters.iter() {
            if baseline.get(&*c.id) == Some(&ClusterStatus::Synced)
                && c.status != ClusterStatus::Synced
            {
                *worse.entry(format!("{:?}", c.status)).or_default() += 1;
            }
        }
    }
    sync.stop();
    let issuer = fleet.issuer().counts();
    let ran = runs(&state).len();
    println!(
        "soak, demo with {ttl} s tokens for {seconds} s: {} of {} clusters Synced at the start; snapshots with a Synced cluster not Synced: {worse:?}; requests refused for an expired token: {}; plugin runs {ran} over {:.1} token lifetimes",
        synced(&first),
        first.clusters.len(),
        issuer.expired_refusals,
        (started.elapsed().as_secs_f64() + 5.0) / ttl,
    );
    server.shutdown().await;
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("dir");
    // `CREDENTIALS_PARTS=large,soak` runs only those parts.
    let parts = std::env::var("CREDENTIALS_PARTS").unwrap_or_else(|_| "demo,large,soak".into());
    runtime.block_on(async {
        if parts.contains("demo") {
            demo_against_a_static_token(dir.path()).await;
        }
        if parts.contains("large") {
            large_with_many_users(dir.path()).await;
        }
        if parts.contains("soak") {
            soak(dir.path()).await;
        }
    });
}
