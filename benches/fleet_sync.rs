//! Fleet sync of the `large` scenario (300 clusters, 30,000 nodes, 300,000 pods):
//!
//! 1. the time to download every node, pod and PDB list page raw (same page size and
//!    concurrency), reading each page's continue token with serde_json (which scans the
//!    whole page), and — as a stricter floor — reading only each page's metadata, and
//!    that plus one skipping pass of fleetdeck's JSON reader over every page (the least
//!    any JSON client does);
//! 2. the time for fleetdeck's full sync (lists, decode, slim projection, snapshot);
//! 3. bytes retained per node and per pod by the slim store (counting allocator);
//! 4. resident memory of the process after the sync;
//! 5. API requests per cluster per minute once synced.
//!
//! 1 and 2 alternate for three rounds, so that both meet the same background load on a
//! shared machine; the median ratio is the figure.
//!
//! The simulator runs as a separate process (`fleetdeck sim --scenario large`) so that its
//! memory and CPU are not counted as ours. Run: `cargo bench --bench fleet_sync`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

mod support;

use fleetdeck::k8s::cluster_store::ClusterStore;
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::k8s::json_reader::Reader;
use fleetdeck::k8s::reflect::Delta;
use fleetdeck::k8s::slim::{Nodes, Pods, decode_list};
use fleetdeck::model::fleet::Interner;
use fleetdeck::model::live::ClusterStatus;
use futures::StreamExt;
use serde::Deserialize;
use support::{cpu_seconds, median, rss_bytes, trimmed_rss_bytes};

/// Counts live heap bytes so that the slim store's footprint can be measured exactly.
/// Counting is switched on only for that measurement: a counter every allocation on both
/// cores updates would slow the timed runs down, and the product has no such counter.
struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

fn count(delta: isize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE.fetch_add(delta, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

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
            "large",
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

#[derive(Deserialize)]
struct ListMeta {
    #[serde(rename = "continue")]
    continue_: Option<String>,
}

/// How a raw download finds each page's continue token.
#[derive(Clone, Copy)]
enum Token {
    /// serde_json reads the whole page (scanning every item) for `metadata.continue`.
    Parsed,
    /// Only the list's metadata, which the API server writes before the items, is looked
    /// at: the bytes are downloaded and nothing more.
    MetadataOnly,
    /// As `MetadataOnly`, and every page is passed over once by fleetdeck's reader
    /// skipping it whole (strings and brackets found and matched, nothing read): the
    /// least any client that takes JSON apart must do on top of the download.
    Scanned,
}

/// Raw download: page through one resource of one cluster, keeping only the byte count.
async fn download(client: &kube::Client, path: &str, how: Token) -> usize {
    let mut bytes = 0;
    let mut token: Option<String> = None;
    loop {
        let mut url = format!("{path}?limit=500");
        if let Some(t) = &token {
            url.push_str(&format!("&continue={t}"));
        }
        let request = http::Request::get(url).body(Vec::new()).expect("request");
        let text = client.request_text(request).await.expect("list page");
        bytes += text.len();
        token = match how {
            Token::Parsed => {
                #[derive(Deserialize)]
                struct OnlyMeta {
                    metadata: ListMeta,
                }
                let meta: OnlyMeta = serde_json::from_str(&text).expect("list metadata");
                meta.metadata.continue_
            }
            Token::MetadataOnly | Token::Scanned => {
                if matches!(how, Token::Scanned) {
                    let mut reader = Reader::new(&text);
                    reader
                        .skip()
                        .and_then(|()| reader.end())
                        .expect("list page");
                }
                let head = text.get(..4096).unwrap_or(&text);
                head.split_once("\"continue\":\"")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map(|(t, _)| t.to_owned())
            }
        }
        .filter(|t| !t.is_empty());
        if token.is_none() {
            return bytes;
        }
    }
}

/// Rounds of raw download and full sync.
const ROUNDS: usize = 3;

/// Raw download of every list page, 32 clusters at a time: wall time, client CPU, bytes.
async fn raw_download(clients: &[kube::Client], how: Token) -> (Duration, f64, usize) {
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let bytes: usize = futures::stream::iter(clients.iter())
        .map(|c| async move {
            download(c, "/api/v1/nodes", how).await
                + download(c, "/api/v1/pods", how).await
                + download(c, "/apis/policy/v1/poddisruptionbudgets", how).await
                + download(c, "/api/v1/persistentvolumeclaims", how).await
                + download(c, "/api/v1/persistentvolumes", how).await
        })
        .buffer_unordered(32)
        .fold(0, |a, b| async move { a + b })
        .await;
    (started.elapsed(), cpu_seconds() - cpu_before, bytes)
}

/// The simulator serving 300 clusters on two cores answers slowly; a generous connect
/// timeout keeps the comparison about throughput rather than about accept queues.
fn bench_connect() -> fleetdeck::k8s::connect::ConnectOptions {
    fleetdeck::k8s::connect::ConnectOptions {
        connect_timeout: Duration::from_secs(120),
        ..Default::default()
    }
}

async fn clients(
    sim: &Sim,
) -> (
    fleetdeck::model::ledger::Ledger,
    kube::config::Kubeconfig,
    Vec<kube::Client>,
) {
    let ledger = fleetdeck::ledger_file::load(&sim.dir.path().join("ledger.yaml")).expect("ledger");
    let kubeconfig =
        kube::config::Kubeconfig::read_from(sim.dir.path().join("kubeconfig")).expect("kubeconfig");
    let mut clients = Vec::new();
    for cluster in &ledger.clusters {
        let c = fleetdeck::k8s::connect::connect(
            cluster,
            &kubeconfig,
            &fleetdeck::k8s::connect::ConnectOptions {
                budget: fleetdeck::k8s::budget::Budget {
                    qps: 1e6,
                    burst: 1_000_000,
                },
                ..Default::default()
            },
        )
        .await
        .expect("client");
        clients.push(c.client);
    }
    (ledger, kubeconfig, clients)
}

/// Bytes the slim store keeps per node and per pod: decode one cluster's lists, apply them
/// to a fresh store, and count the heap that remains once the page texts are gone (the
/// views, their indexes, and the interners that hold the strings they share).
async fn retained_bytes(client: &kube::Client, clusters: usize) -> (f64, f64, usize, usize) {
    let mut stores = Vec::new();
    let mut interners = Vec::new();
    let mut nodes = 0;
    let mut pods = 0;
    // Everything this measurement keeps is allocated while counting is on, and freed
    // before it is switched off again.
    COUNTING.store(true, Ordering::Relaxed);
    let before = LIVE.load(Ordering::Relaxed);
    for i in 0..clusters {
        let mut store = ClusterStore::new(&format!("c{i}"));
        let mut interner = Interner::new();
        let text = client
            .request_text(
                http::Request::get("/api/v1/nodes")
                    .body(Vec::new())
                    .expect("req"),
            )
            .await
            .expect("nodes");
        let page = decode_list::<Nodes>(&text, &mut interner).expect("nodes");
        drop(text);
        nodes += page.items.len();
        store.apply_node(Delta::ListStarted);
        store.apply_node(Delta::Page(page.items));
        store.apply_node(Delta::ListDone);
        stores.push(store);
        interners.push(interner);
    }
    let after_nodes = LIVE.load(Ordering::Relaxed);
    let mut pod_interners = Vec::new();
    for store in &mut stores {
        let mut interner = Interner::new();
        let text = client
            .request_text(
                http::Request::get("/api/v1/pods")
                    .body(Vec::new())
                    .expect("req"),
            )
            .await
            .expect("pods");
        let page = decode_list::<Pods>(&text, &mut interner).expect("pods");
        drop(text);
        pods += page.items.len();
        store.apply_pod(Delta::ListStarted);
        store.apply_pod(Delta::Page(page.items));
        store.apply_pod(Delta::ListDone);
        let _ = store.view();
        pod_interners.push(interner);
    }
    let after_pods = LIVE.load(Ordering::Relaxed);
    let per_node = (after_nodes - before) as f64 / nodes.max(1) as f64;
    let per_pod = (after_pods - after_nodes) as f64 / pods.max(1) as f64;
    drop(stores);
    drop(interners);
    drop(pod_interners);
    COUNTING.store(false, Ordering::Relaxed);
    (per_node, per_pod, nodes, pods)
}

fn main() {
    let sim = start_sim();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (ledger, kubeconfig, clients) = clients(&sim).await;

        // 3. Bytes retained per node and per pod, measured first, on a quiet process.
        let (per_node, per_pod, n, p) = retained_bytes(&clients[0], 20).await;
        println!(
            "retained by the slim store: {per_node:.0} B per node, {per_pod:.0} B per pod (measured over {n} nodes, {p} pods)"
        );

        // Warm-up: the first pass over the simulator's lists is slower (its caches are
        // cold), which would flatter whichever client goes second.
        let warm = Instant::now();
        futures::stream::iter(clients.iter())
            .map(|c| async move { download(c, "/api/v1/pods", Token::Parsed).await })
            .buffer_unordered(32)
            .for_each(|_| async {})
            .await;
        println!("warm-up pass over the pod lists: {:.2} s", warm.elapsed().as_secs_f64());
        let rss_start = trimmed_rss_bytes();

        // 1 and 2, in rounds: a raw download, then a full sync, three times over, so that
        // both meet the same background load; the median ratio is the figure.
        let mut ratios = Vec::new();
        let mut bare_ratios = Vec::new();
        let mut scan_floors = Vec::new();
        let mut last = None;
        for round in 1..=ROUNDS {
            if let Some((sync, snapshot)) = last.take() {
                // The previous round's sync is stopped and its memory given back before
                // anything is timed: its aborted tasks are torn down by the runtime's
                // workers, which would otherwise charge that work to the next download.
                drop::<FleetSync>(sync);
                drop::<fleetdeck::model::live::FleetSnapshot>(snapshot);
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
            let (bare, bare_cpu, _) = raw_download(&clients, Token::MetadataOnly).await;
            let (scanned, scanned_cpu, _) = raw_download(&clients, Token::Scanned).await;
            let (raw, raw_cpu, bytes) = raw_download(&clients, Token::Parsed).await;
            let cpu_before = cpu_seconds();
            let started = Instant::now();
            let mut options = FleetSyncOptions::default();
            options.cluster.connect = bench_connect();
            let mut sync = FleetSync::start(&ledger, kubeconfig.clone(), options);
            let snapshot = loop {
                let snapshot = sync.wait_settled(Duration::from_secs(600)).await;
                let synced = snapshot.clusters.iter().filter(|c| c.status == ClusterStatus::Synced).count();
                if synced == snapshot.clusters.len() || started.elapsed() > Duration::from_secs(600) {
                    break snapshot;
                }
                let _ = sync.snapshots.changed().await;
            };
            let full = started.elapsed();
            let sync_cpu = cpu_seconds() - cpu_before;
            let nodes: usize = snapshot.clusters.iter().map(|c| c.view.nodes.len()).sum();
            let pods: usize = snapshot.clusters.iter().map(|c| c.view.pods.len()).sum();
            let ratio = full.as_secs_f64() / raw.as_secs_f64();
            let bare_ratio = full.as_secs_f64() / bare.as_secs_f64();
            ratios.push(ratio);
            bare_ratios.push(bare_ratio);
            let scan_floor = scanned.as_secs_f64() / bare.as_secs_f64();
            scan_floors.push(scan_floor);
            println!(
                "round {round}: raw download {:.2} s for {:.1} MiB of list JSON ({:.0} MiB/s, client CPU {raw_cpu:.2} s; {:.2} s and {bare_cpu:.2} s CPU when only each page's metadata is read; {:.2} s and {scanned_cpu:.2} s CPU, {scan_floor:.2}x that, when each page is also skipped whole once); full sync {:.2} s for {} clusters, {nodes} nodes, {pods} pods (client CPU {sync_cpu:.2} s) = {ratio:.2}x the raw download ({bare_ratio:.2}x the metadata-only one)",
                raw.as_secs_f64(),
                bytes as f64 / 1048576.0,
                bytes as f64 / 1048576.0 / raw.as_secs_f64(),
                bare.as_secs_f64(),
                scanned.as_secs_f64(),
                full.as_secs_f64(),
                snapshot.clusters.len(),
            );
            if round == 1 {
                let rss_synced = rss_bytes();
                println!(
                    "resident memory: {:.0} MiB at start, {:.0} MiB after the first sync (+{:.0} MiB; {:.0} B per pod if all of it were charged to pods)",
                    rss_start as f64 / 1048576.0,
                    rss_synced as f64 / 1048576.0,
                    (rss_synced.saturating_sub(rss_start)) as f64 / 1048576.0,
                    rss_synced.saturating_sub(rss_start) as f64 / pods.max(1) as f64
                );
                let rss_trimmed = trimmed_rss_bytes();
                println!(
                    "resident memory once the allocator has returned its free pages: {:.0} MiB (+{:.0} MiB over the start; {:.0} B per pod if all of it were charged to pods)",
                    rss_trimmed as f64 / 1048576.0,
                    (rss_trimmed.saturating_sub(rss_start)) as f64 / 1048576.0,
                    rss_trimmed.saturating_sub(rss_start) as f64 / pods.max(1) as f64
                );
            }
            last = Some((sync, snapshot));
        }
        let (low, high) = (
            ratios.iter().copied().fold(f64::MAX, f64::min),
            ratios.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "full sync / raw download: median {:.2}x over {ROUNDS} rounds (min {low:.2}x, max {high:.2}x); against the metadata-only download: median {:.2}x (a single skipping pass over every page, and nothing kept, is already {:.2}x of it). The client's CPU is printed per round (the rest of the wall time is the simulator, on the same cores)",
            median(&mut ratios),
            median(&mut bare_ratios),
            median(&mut scan_floors),
        );
        let Some((mut sync, snapshot)) = last else {
            return;
        };

        // 5. Steady state: requests per cluster per minute after the sync.
        let requests_at = |s: &fleetdeck::model::live::FleetSnapshot| -> u64 { s.clusters.iter().map(|c| c.requests_sent).sum() };
        let before = requests_at(&sync.snapshots.borrow().clone());
        let window = Duration::from_secs(60);
        let idle_cpu_before = cpu_seconds();
        tokio::time::sleep(window).await;
        let idle_cpu = cpu_seconds() - idle_cpu_before;
        let after = requests_at(&sync.snapshots.borrow().clone());
        println!(
            "steady state: {} requests from {} clusters in {} s after sync = {:.2} per cluster per minute (each of the 7 watches per cluster resumes every 290 s: 7 / 290 s = 1.45 per minute on average)",
            after.saturating_sub(before),
            snapshot.clusters.len(),
            window.as_secs(),
            after.saturating_sub(before) as f64 / snapshot.clusters.len() as f64 / (window.as_secs_f64() / 60.0)
        );
        println!(
            "steady state: client CPU {:.1} ms per second ({:.2} % of one core) for {} synced clusters, watch events included",
            idle_cpu * 1e3 / window.as_secs_f64(),
            idle_cpu * 100.0 / window.as_secs_f64(),
            snapshot.clusters.len()
        );
        sync.stop();
        drop(snapshot);

    });
    runtime.shutdown_background();
}
