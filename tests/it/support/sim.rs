//! Helpers shared by the simulator's integration tests.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fleetdeck::sim::{SimFleet, SimServer, start_on_loopback, write_kubeconfig};
use kube::config::{KubeConfigOptions, Kubeconfig};

/// Waits until `f` says yes, polling every 100 ms; fails naming `what` after `secs`.
pub async fn eventually<F, Fut>(what: &str, secs: u64, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !f().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The zone label nodes carry and zonal volumes are pinned by.
pub const ZONE: &str = "topology.kubernetes.io/zone";

/// Node name → zone label.
pub async fn zones(client: &kube::Client) -> std::collections::BTreeMap<String, String> {
    use k8s_openapi::api::core::v1::Node;
    kube::Api::<Node>::all(client.clone())
        .list(&kube::api::ListParams::default())
        .await
        .expect("nodes")
        .items
        .into_iter()
        .filter_map(|n| {
            let zone = n.metadata.labels.as_ref()?.get(ZONE)?.clone();
            Some((n.metadata.name?, zone))
        })
        .collect()
}

/// The zone a volume's node affinity pins it to.
pub fn pinned_zone(pv: &k8s_openapi::api::core::v1::PersistentVolume) -> Option<String> {
    let terms = &pv
        .spec
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required
        .as_ref()?
        .node_selector_terms;
    terms
        .iter()
        .flat_map(|t| t.match_expressions.iter().flatten())
        .find(|e| e.key == ZONE && e.operator == "In")
        .and_then(|e| e.values.as_ref()?.first().cloned())
}

/// The small scenario with a fixed seed.
pub fn small(speed: f64) -> SimFleet {
    SimFleet::load("small", 7, speed).expect("small scenario loads")
}

/// The small scenario with a fixed seed, its StatefulSet `postgres` (in `small-01` and
/// `small-02`, namespace `shop`) grown to three replicas, one per zone, each pod holding
/// a 10Gi zonal volume.
pub fn small_with_postgres(speed: f64) -> SimFleet {
    let mut scenario = fleetdeck::sim::Scenario::load("small").expect("small scenario loads");
    scenario.groups[0].workloads.stateful_sets = Some(fleetdeck::sim::StatefulSets {
        count: 1,
        replicas: 3,
        cpu_millis: 200,
        memory_mi: 256,
        storage_gi: 10,
        regional: false,
    });
    SimFleet::from_scenario(&scenario, 7, speed).expect("small scenario with postgres")
}

/// A fleet served on a loopback port, with its kubeconfig written into a temp dir.
pub struct Served {
    pub fleet: SimFleet,
    pub addr: SocketAddr,
    pub server: SimServer,
    pub dir: tempfile::TempDir,
    pub kubeconfig: PathBuf,
}

pub async fn serve(fleet: SimFleet) -> Served {
    let (addr, server) = start_on_loopback(fleet.clone(), 0)
        .await
        .expect("bind loopback");
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = dir.path().join("kubeconfig");
    write_kubeconfig(&fleet, &kubeconfig, addr).expect("write kubeconfig");
    Served {
        fleet,
        addr,
        server,
        dir,
        kubeconfig,
    }
}

/// A kube client over TCP for one context of a kubeconfig, without kube's default
/// retry layer (so tests see the first 429).
pub async fn tcp_client(kubeconfig: &Path, context: &str) -> kube::Client {
    let kc = Kubeconfig::read_from(kubeconfig).expect("read kubeconfig");
    let opts = KubeConfigOptions {
        context: Some(context.to_string()),
        ..Default::default()
    };
    let mut config = kube::Config::from_custom_kubeconfig(kc, &opts)
        .await
        .expect("config from kubeconfig");
    config.default_retry = false;
    kube::Client::try_from(config).expect("client")
}

/// The status of an API error.
pub fn api_status(e: &kube::Error) -> Option<&kube::core::Status> {
    match e {
        kube::Error::Api(s) => Some(s),
        _ => None,
    }
}

/// A kube client over TCP for one context, authenticated as `user` (one of the fleet's
/// users) through a kubeconfig written for that user.
pub async fn tcp_client_as(s: &Served, context: &str, user: &str) -> kube::Client {
    let path = s.dir.path().join(format!("kubeconfig-{user}"));
    fleetdeck::sim::write_kubeconfig_for(&s.fleet, &path, s.addr, user).expect("write kubeconfig");
    tcp_client(&path, context).await
}

/// A raw request through a kube client: status, headers and the JSON body (Null when
/// the body is not JSON), whatever the status.
pub async fn raw(
    client: &kube::Client,
    method: &str,
    path: &str,
    content_type: &str,
    body: Option<serde_json::Value>,
) -> (u16, http::HeaderMap, serde_json::Value) {
    use http_body_util::BodyExt;
    let req = http::Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", content_type)
        .body(kube::client::Body::from(
            body.map(|b| b.to_string().into_bytes()).unwrap_or_default(),
        ))
        .expect("request");
    let resp = client.send(req).await.expect("response");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (
        status,
        headers,
        serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    )
}

/// The `(field, reason)` pairs of a Status's causes.
pub fn causes(status: &serde_json::Value) -> Vec<(String, String)> {
    status["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["field"].as_str().unwrap_or_default().to_string(),
                c["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}
