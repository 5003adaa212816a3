//! Scenario generation: determinism, the demo fleet's deliberate trouble, and the ledger
//! and kubeconfig the simulator writes.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::support;
use fleetdeck::sim::{SimFleet, kubeconfig, ledger};
use k8s_openapi::api::core::v1::{Namespace, Node, Pod};
use kube::api::{Api, ListParams};

fn names(fleet: &SimFleet, cluster: &str) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let pods: Api<Pod> = Api::all(fleet.client(cluster).expect("client"));
        pods.list(&ListParams::default())
            .await
            .expect("list")
            .items
            .into_iter()
            .filter_map(|p| p.metadata.name)
            .collect()
    })
}

#[test]
fn same_seed_same_fleet() {
    let a = SimFleet::load("small", 42, 1.0).expect("a");
    let b = SimFleet::load("small", 42, 1.0).expect("b");
    let c = SimFleet::load("small", 43, 1.0).expect("c");
    assert_eq!(
        a.kube_system_uid("small-01").ok(),
        b.kube_system_uid("small-01").ok()
    );
    assert_ne!(
        a.kube_system_uid("small-01").ok(),
        c.kube_system_uid("small-01").ok()
    );
    assert_eq!(names(&a, "small-02"), names(&b, "small-02"));
    assert_eq!(a.totals(), (3, 30, b.totals().2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_nvlink_clique_never_spans_zones() {
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo");
    let nodes: Api<Node> = Api::all(fleet.client("gpu-prod-use1-01").expect("client"));
    let mut zones_of: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for node in nodes
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
    {
        let labels = node.metadata.labels.unwrap_or_default();
        if let (Some(clique), Some(zone)) = (
            labels.get("nvidia.com/gpu.clique"),
            labels.get("topology.kubernetes.io/zone"),
        ) {
            zones_of
                .entry(clique.clone())
                .or_default()
                .insert(zone.clone());
        }
    }
    assert!(zones_of.len() >= 2, "{zones_of:?}");
    assert!(
        zones_of.values().all(|zones| zones.len() == 1),
        "{zones_of:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_fleet_ledger_and_kubeconfig_are_coherent() {
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo");
    let addr: std::net::SocketAddr = "127.0.0.1:18080".parse().expect("addr");
    let l = ledger(&fleet, addr);
    assert_eq!(l["apiVersion"], "fleetdeck.dev/v1");
    assert_eq!(l["kind"], "Ledger");
    let clusters = l["clusters"].as_array().expect("clusters");
    assert_eq!(
        clusters.len(),
        39,
        "stg-apse1-04 is deliberately unregistered"
    );
    assert_eq!(fleet.cluster_ids().len(), 40);
    let kc = kubeconfig(&fleet, addr);
    assert!(
        kc.contains("\"stg-apse1-04\""),
        "the unregistered cluster has a context"
    );
    let dict = &l["labelDictionary"];
    let mut nets: Vec<ipnet::IpNet> = Vec::new();
    for c in clusters {
        let id = c["id"].as_str().expect("id");
        let server = c["identity"]["server"].as_str().expect("server");
        assert_eq!(server, format!("https://127.0.0.1:18080/clusters/{id}"));
        assert!(
            kc.contains(&format!("server: \"{server}\"")),
            "kubeconfig has {server}"
        );
        assert_eq!(c["context"], c["id"]);
        for (k, v) in c["labels"].as_object().expect("labels") {
            let allowed = dict[k].as_array().expect("declared key");
            assert!(allowed.contains(v), "{k}={v} declared");
        }
        for key in ["podCIDR", "serviceCIDR"] {
            nets.push(
                c["network"][key]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .expect("cidr"),
            );
        }
        for key in [
            "kubernetes",
            "etcd",
            "runtime",
            "kernel",
            "cni",
            "csi",
            "gpuDriver",
            "devicePlugin",
        ] {
            assert!(c["versions"][key].is_string(), "{id} versions.{key}");
        }
    }
    for (i, a) in nets.iter().enumerate() {
        for b in &nets[i + 1..] {
            assert!(
                !a.contains(&b.network()) && !b.contains(&a.network()),
                "{a} overlaps {b}"
            );
        }
    }
    assert!(dict["env"].as_array().is_some_and(|v| !v.is_empty()) && dict["tier"].is_array());
    let by_id: BTreeMap<&str, &serde_json::Value> = clusters
        .iter()
        .map(|c| (c["id"].as_str().unwrap_or_default(), c))
        .collect();
    // Identity drift.
    assert_ne!(
        by_id["prod-use1-04"]["identity"]["kubeSystemUID"].as_str(),
        fleet.kube_system_uid("prod-use1-04").ok().as_deref()
    );
    assert_eq!(
        by_id["prod-use1-05"]["identity"]["kubeSystemUID"].as_str(),
        fleet.kube_system_uid("prod-use1-05").ok().as_deref()
    );
    // Version drift.
    let live = fleet
        .client("stg-euw1-02")
        .expect("client")
        .apiserver_version()
        .await
        .expect("version");
    assert_ne!(
        by_id["stg-euw1-02"]["versions"]["kubernetes"].as_str(),
        Some(live.git_version.as_str())
    );
    assert!(by_id["stg-use1-03"]["exceptions"].is_array());
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("ledger.yaml");
    fleetdeck::sim::write_ledger(&fleet, &path, addr).expect("write ledger");
    let text = std::fs::read_to_string(&path).expect("read ledger");
    let back: serde_json::Value = serde_json::from_str(&text).expect("ledger parses");
    assert_eq!(back, l);

    // The live kube-system UID is what the API serves.
    let ns: Api<Namespace> = Api::all(fleet.client("prod-use1-05").expect("client"));
    assert_eq!(
        ns.get("kube-system").await.expect("ns").metadata.uid,
        fleet.kube_system_uid("prod-use1-05").ok()
    );

    // Unreachable cluster: a connection error, not an HTTP answer.
    let err = fleet
        .client("prod-apse1-03")
        .expect("client")
        .apiserver_version()
        .await
        .expect_err("refused");
    assert!(!matches!(err, kube::Error::Api(_)), "{err}");

    // Zone outage: eu-west-1b nodes are not Ready.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let nodes: Api<Node> = Api::all(fleet.client("prod-euw1-02").expect("client"));
    let not_ready: Vec<String> = nodes
        .list(&ListParams::default())
        .await
        .expect("nodes")
        .items
        .into_iter()
        .filter(|n| {
            n.status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
                .map(|c| c.status.as_str())
                != Some("True")
        })
        .filter_map(|n| {
            n.metadata
                .labels
                .and_then(|l| l.get("topology.kubernetes.io/zone").cloned())
        })
        .collect();
    assert!(
        !not_ready.is_empty() && not_ready.iter().all(|z| z == "eu-west-1b"),
        "{not_ready:?}"
    );

    // GPU cluster: 8-GPU nodes in cliques, free GPUs fragmented.
    let client = fleet.client("gpu-prod-use1-01").expect("client");
    let gpu_nodes = Api::<Node>::all(client.clone())
        .list(&ListParams::default().labels("nvidia.com/gpu.present=true"))
        .await
        .expect("gpu nodes")
        .items;
    assert_eq!(gpu_nodes.len(), 8);
    assert!(
        gpu_nodes
            .iter()
            .all(|n| n
                .metadata
                .labels
                .as_ref()
                .is_some_and(|l| l.contains_key("nvidia.com/gpu.clique")
                    && l.contains_key("fleetdeck.dev/rack")))
    );
    let pods = Api::<Pod>::namespaced(client, "training")
        .list(&ListParams::default())
        .await
        .expect("jobs")
        .items;
    let mut used: BTreeMap<String, i64> = BTreeMap::new();
    for p in &pods {
        let node = p
            .spec
            .as_ref()
            .and_then(|s| s.node_name.clone())
            .unwrap_or_default();
        let gpus: i64 = p
            .spec
            .as_ref()
            .map(|s| {
                s.containers
                    .iter()
                    .filter_map(|c| {
                        c.resources
                            .as_ref()?
                            .limits
                            .as_ref()?
                            .get("nvidia.com/gpu")?
                            .0
                            .parse::<i64>()
                            .ok()
                    })
                    .sum()
            })
            .unwrap_or(0);
        *used.entry(node).or_default() += gpus;
    }
    let partial = used.values().filter(|u| **u > 0 && **u < 8).count();
    assert!(
        partial >= 3,
        "free GPUs fragmented over several nodes: {used:?}"
    );
}

/// The demo's production clusters in us-east-1 and eu-west-1 run a StatefulSet whose
/// pods each hold a volume pinned to the zone of their node; the others run none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_statefulsets_hold_volumes_in_their_pods_zones() {
    use k8s_openapi::api::apps::v1::StatefulSet;
    use k8s_openapi::api::core::v1::{PersistentVolume, PersistentVolumeClaim};
    let fleet = SimFleet::load("demo", 1, 1.0).expect("demo");
    for cluster in ["prod-use1-01", "prod-euw1-03"] {
        let client = fleet.client(cluster).expect("client");
        let sets = Api::<StatefulSet>::all(client.clone())
            .list(&ListParams::default())
            .await
            .expect("statefulsets")
            .items;
        assert_eq!(sets.len(), 1, "{cluster}");
        assert_eq!(sets[0].spec.as_ref().and_then(|s| s.replicas), Some(3));
        let zone_of = support::sim::zones(&client).await;
        let volumes: BTreeMap<String, PersistentVolume> =
            Api::<PersistentVolume>::all(client.clone())
                .list(&ListParams::default())
                .await
                .expect("volumes")
                .items
                .into_iter()
                .filter_map(|v| Some((v.metadata.name.clone()?, v)))
                .collect();
        let claims = Api::<PersistentVolumeClaim>::namespaced(client.clone(), "shop");
        let pods = Api::<Pod>::namespaced(client, "shop")
            .list(&ListParams::default().labels("statefulset.kubernetes.io/pod-name"))
            .await
            .expect("pods")
            .items;
        assert_eq!(pods.len(), 3, "{cluster}");
        let mut zones = Vec::new();
        for pod in pods {
            let spec = pod.spec.expect("spec");
            let zone = zone_of[&spec.node_name.expect("placed")].clone();
            let claim = spec
                .volumes
                .iter()
                .flatten()
                .find_map(|v| v.persistent_volume_claim.clone())
                .expect("a claim");
            let claim = claims.get(&claim.claim_name).await.expect("claim");
            let volume = &volumes[&claim.spec.and_then(|s| s.volume_name).expect("bound")];
            let pinned = support::sim::pinned_zone(volume);
            assert_eq!(pinned.as_ref(), Some(&zone), "{cluster}");
            zones.push(zone);
        }
        zones.sort();
        zones.dedup();
        assert_eq!(zones.len(), 3, "{cluster}: one replica per zone");
    }
    let staging = fleet.client("stg-use1-01").expect("client");
    let none = Api::<StatefulSet>::all(staging)
        .list(&ListParams::default())
        .await
        .expect("statefulsets");
    assert!(none.items.is_empty());
}
