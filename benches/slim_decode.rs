//! Decoding of list pages alone, without the network or the simulator on the same cores:
//! one page of 500 pods and one of 100 nodes from the `large` scenario, read as the sync
//! reads them (`decode_list`: every object read and projected into its view, strings
//! interned), against serde_json skipping the same page whole (`IgnoredAny`, the least a
//! serde-based reader does). Low-noise, so that changes to the readers can be judged.
//!
//! Run: `cargo bench --bench slim_decode`.

use std::time::{Duration, Instant};

use fleetdeck::k8s::json_reader::Reader;
use fleetdeck::k8s::slim::{Nodes, Pods, SlimKind, decode_list};
use fleetdeck::model::fleet::Interner;
use fleetdeck::sim::{Scenario, SimFleet};

/// The `large` scenario cut down to one cluster: the same objects, generated in a moment.
fn one_large_cluster() -> SimFleet {
    let text = include_str!("../scenarios/large.yaml").replace("count: 300", "count: 1");
    let scenario = Scenario::parse("large-1", &text).expect("scenario");
    SimFleet::from_scenario(&scenario, 1, 1.0).expect("fleet")
}

async fn page(fleet: &SimFleet, path: &str) -> String {
    let client = fleet.client("lg-01").expect("client");
    let request = http::Request::get(format!("{path}?limit=500"))
        .body(Vec::new())
        .expect("request");
    client.request_text(request).await.expect("page")
}

/// The fastest of `rounds` runs of `n` repetitions of `f`, in MiB/s of `bytes`.
fn throughput(bytes: usize, n: usize, rounds: usize, mut f: impl FnMut()) -> f64 {
    let best = (0..rounds)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..n {
                f();
            }
            started.elapsed()
        })
        .min()
        .unwrap_or(Duration::MAX);
    (bytes * n) as f64 / 1048576.0 / best.as_secs_f64()
}

fn measure<K: SlimKind>(name: &str, text: &str) {
    let n = (200 * 1024 * 1024 / text.len().max(1)).max(1);
    let skip = throughput(text.len(), n, 5, || {
        let skipped: serde::de::IgnoredAny = serde_json::from_str(text).expect("skip");
        std::hint::black_box(skipped);
    });
    let ours = throughput(text.len(), n, 5, || {
        let mut reader = Reader::new(text);
        reader.skip().expect("skip");
        std::hint::black_box(reader.end()).expect("end");
    });
    let mut items = 0;
    let read = throughput(text.len(), n, 5, || {
        let mut interner = Interner::new();
        let page = decode_list::<K>(text, &mut interner).expect("decode");
        items = page.items.len();
        std::hint::black_box(page);
    });
    println!(
        "{name}: page of {items} objects, {:.0} KiB: read and projected at {read:.0} MiB/s; skipped whole: {ours:.0} MiB/s (serde_json: {skip:.0} MiB/s)",
        text.len() as f64 / 1024.0
    );
}

fn main() {
    let fleet = one_large_cluster();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let (pods, nodes) = runtime.block_on(async {
        (
            page(&fleet, Pods::PATH).await,
            page(&fleet, Nodes::PATH).await,
        )
    });
    measure::<Pods>("pods", &pods);
    measure::<Nodes>("nodes", &nodes);
}
