//! `fleetdeck upgrade check` on the demo fleet, over the simulator's HTTPS, as a user runs
//! it: each blocker the simulator sets up for v1.32 is named on its cluster (a removed API
//! a client requests, a webhook on a removed version, a CRD storing a version it no
//! longer serves, a CNI outside the support matrix, kubelets too old, a control plane two
//! minors behind), the cluster with nothing in the way is ready, and the ledger's
//! combinations all validate.

use std::collections::BTreeMap;

use crate::support::cli::{command, text};
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig, write_ledger};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_fleet_names_each_blocker_for_the_next_minor() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("demo", 1, 1.0).unwrap();
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.unwrap();
    write_kubeconfig(&fleet, &dir.path().join("kubeconfig"), addr).unwrap();
    write_ledger(&fleet, &dir.path().join("ledger.yaml"), addr).unwrap();
    let path = dir.path().to_path_buf();
    let (json, table, validate) = tokio::task::spawn_blocking(move || {
        let run = |args: &[&str]| {
            let mut all = vec!["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"];
            all.extend(args);
            command(&all, &path)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("runs")
        };
        (
            run(&["upgrade", "check", "--to", "v1.32", "-o", "json"]),
            run(&["upgrade", "check", "--to", "v1.32"]),
            run(&["ledger", "validate"]),
        )
    })
    .await
    .unwrap();
    assert_eq!(json.status.code(), Some(1), "blocked clusters: exit 1");
    let results: serde_json::Value =
        serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&json)));
    let by_cluster: BTreeMap<String, serde_json::Value> = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["cluster"].as_str().unwrap().to_string(), r.clone()))
        .collect();
    let kinds = |id: &str| -> Vec<String> {
        by_cluster[id]["blockers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(kinds("prod-euw1-01"), ["removedApiInUse"]);
    assert_eq!(kinds("prod-euw1-05"), ["removedVersionNamed"]);
    assert_eq!(kinds("prod-euw1-07"), ["storedVersion"]);
    assert_eq!(kinds("prod-apse1-06"), ["addOn"]);
    assert_eq!(kinds("prod-use1-06"), ["kubeletSkew"]);
    assert_eq!(kinds("prod-apse1-01"), ["controlPlaneSkip", "addOn"]);
    assert_eq!(kinds("prod-apse1-02"), ["controlPlaneSkip"]);
    assert_eq!(by_cluster["prod-euw1-02"]["readiness"], "ready");
    assert_eq!(by_cluster["prod-use1-01"]["readiness"], "atTarget");
    // Unknown is never ready: the unreachable cluster and the impostor say why.
    assert_eq!(by_cluster["prod-apse1-03"]["readiness"], "unknown");
    assert_eq!(by_cluster["prod-use1-04"]["readiness"], "unknown");
    let blocker = &by_cluster["prod-euw1-01"]["blockers"][0];
    assert_eq!(
        blocker["what"],
        "clients request flowcontrol.apiserver.k8s.io/v1beta3 flowschemas, removed in v1.32 or before (apiserver_requested_deprecated_apis)"
    );
    let said = text(&table);
    assert!(
        said.contains("39 clusters: 1 ready, 9 blocked, 2 unknown, 27 already at the target"),
        "{said}"
    );
    assert!(said.contains("upgrade to v1.31 first"), "{said}");
    let validated = text(&validate);
    assert!(
        validated.contains("valid, 39 clusters, 0 warning(s)"),
        "{validated}"
    );
    server.shutdown().await;
}
