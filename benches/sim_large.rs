//! Benchmark of the `large` scenario (300 clusters, 30,000 nodes, 300,000 pods):
//! generation time, resident memory, and the time to page through the full pod list of
//! one cluster with the kube client over loopback TCP.
//!
//! Run: `cargo bench --bench sim_large` (add `-- --iterations N` to change the count).

mod support;

use std::time::Instant;

use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig};
use futures::StreamExt;
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, ListParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use support::{cpu_seconds, median};

fn rss_mib() -> f64 {
    support::rss_bytes() as f64 / 1048576.0
}

async fn page_all<K>(api: &Api<K>, limit: u32) -> Result<usize, kube::Error>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let mut lp = ListParams::default().limit(limit);
    let mut count = 0;
    loop {
        let page = api.list(&lp).await?;
        count += page.items.len();
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => return Ok(count),
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let iterations: usize = std::env::args()
        .skip_while(|a| a != "--iterations")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(7);
    let rss_before = rss_mib();
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let fleet = SimFleet::load("large", 1, 1.0)?;
    let generated = started.elapsed();
    let (clusters, nodes, pods) = fleet.totals();
    let rss_after = rss_mib();
    println!(
        "sim_large: generated {clusters} clusters, {nodes} nodes, {pods} pods in {:.2} s ({:.2} CPU s, up to 2 threads)",
        generated.as_secs_f64(),
        cpu_seconds() - cpu_before
    );
    println!("sim_large: RSS {rss_after:.0} MiB (before generation {rss_before:.0} MiB)");

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let (addr, server) = start_on_loopback(fleet.clone(), 0).await?;
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("kubeconfig");
        write_kubeconfig(&fleet, &path, addr)?;
        let opts = KubeConfigOptions { context: Some("lg-150".into()), ..Default::default() };
        let mut config = kube::Config::from_custom_kubeconfig(Kubeconfig::read_from(&path)?, &opts).await?;
        config.default_retry = false;
        let client = kube::Client::try_from(config)?;
        let api: Api<Pod> = Api::all(client);
        for limit in [500u32, 5000] {
            let mut times = Vec::new();
            let mut count = 0;
            let mut pages = 0;
            for _ in 0..iterations {
                let t = Instant::now();
                let mut lp = ListParams::default().limit(limit);
                count = 0;
                pages = 0;
                loop {
                    let page = api.list(&lp).await?;
                    count += page.items.len();
                    pages += 1;
                    match page.metadata.continue_ {
                        Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
                        _ => break,
                    }
                }
                times.push(t.elapsed());
            }
            let min = times.iter().min().copied().unwrap_or_default();
            let med = median(&mut times);
            println!(
                "sim_large: full pod list of one cluster ({count} pods, {pages} pages of {limit}) over loopback TCP: min {:.1} ms, median {:.1} ms ({iterations} iterations)",
                min.as_secs_f64() * 1e3,
                med.as_secs_f64() * 1e3
            );
        }
        // The same list over plain HTTP on the same port (the kubeconfig says HTTPS, as
        // kubectl needs it to send credentials): what TLS costs on loopback.
        let mut plain = kube::Config::from_custom_kubeconfig(Kubeconfig::read_from(&path)?, &opts).await?;
        plain.cluster_url = format!("http://{addr}/clusters/lg-150").parse()?;
        plain.default_retry = false;
        let plain: Api<Pod> = Api::all(kube::Client::try_from(plain)?);
        let mut times = Vec::new();
        for _ in 0..iterations {
            let t = Instant::now();
            page_all::<Pod>(&plain, 500).await?;
            times.push(t.elapsed());
        }
        println!(
            "sim_large: the same list (pages of 500) over plain HTTP: median {:.1} ms ({iterations} iterations)",
            median(&mut times).as_secs_f64() * 1e3
        );
        // The whole fleet: every cluster's pods and nodes, 8 clusters at a time.
        let kc = Kubeconfig::read_from(&path)?;
        let started = Instant::now();
        let ids = fleet.cluster_ids();
        let totals: Vec<Result<(usize, usize), Box<dyn std::error::Error>>> = futures::stream::iter(ids)
            .map(|id| {
                let kc = kc.clone();
                async move {
                    let opts = KubeConfigOptions { context: Some(id), ..Default::default() };
                    let mut config = kube::Config::from_custom_kubeconfig(kc, &opts).await?;
                    config.default_retry = false;
                    let client = kube::Client::try_from(config)?;
                    let pods = page_all::<Pod>(&Api::all(client.clone()), 500).await?;
                    let nodes = page_all::<Node>(&Api::all(client), 500).await?;
                    Ok((pods, nodes))
                }
            })
            .buffer_unordered(8)
            .collect()
            .await;
        let (mut pods, mut nodes) = (0, 0);
        for t in totals {
            let (p, n) = t?;
            pods += p;
            nodes += n;
        }
        println!(
            "sim_large: whole fleet ({pods} pods, {nodes} nodes, pages of 500, 8 clusters at a time) over loopback TCP: {:.2} s",
            started.elapsed().as_secs_f64()
        );
        println!("sim_large: RSS after serving {:.0} MiB", rss_mib());
        server.shutdown().await;
        Ok::<(), Box<dyn std::error::Error>>(())
    })?;
    Ok(())
}
