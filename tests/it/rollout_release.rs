//! A release's way onto the simulated fleet, over loopback HTTP through the real kube
//! client: its objects applied in a defined order (by path, kinds others depend on first)
//! that `rollout plan` prints; a failed apply's reason in `rollout show`; applies held
//! while the mass-failure guard pauses a failure domain of their cluster. Each test runs on
//! both journal backends.

use std::time::{Duration, Instant};

use crate::support;
use crate::support::backend::Backend;
use crate::support::rollout::{InProcess, Live, Workspace, one_stage_rollout};
use fleetdeck::journal::JournalStore;
use fleetdeck::model::run::{PauseScope, Projection, RunStatus};

/// Every cluster of the fleet in one batch, no checks to wait for beyond Ready nodes.
static ROLLOUT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| one_stage_rollout("webapp-1", "{webapp: \"1.0.0\"}", "0.5"));

const NAMESPACE: &str = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: webapp\n";
const CONFIGMAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: webapp\ndata:\n  mode: blue\n";
const DEPLOYMENT: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: webapp
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: example/web:1.0.0
          resources:
            requests: {cpu: 10m, memory: 16Mi}
"#;
/// One file written the wrong way round: the workload before the namespace it lives in.
const WORKER: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
  namespace: tools
spec:
  replicas: 1
  selector:
    matchLabels: {app: worker}
  template:
    metadata:
      labels: {app: worker}
    spec:
      containers:
        - name: worker
          image: example/worker:1.0.0
          resources:
            requests: {cpu: 10m, memory: 16Mi}
---
apiVersion: v1
kind: Namespace
metadata:
  name: tools
"#;

/// The small fleet with the split release directory: `00-namespace.yaml`,
/// `10-configmap.yaml`, `20-deployment.yaml` and `30-worker.yaml`.
async fn split_release(backend: Backend, seed: u64) -> Workspace {
    let ws = Workspace::on(backend, "small", seed, "", &ROLLOUT).await;
    let dir = ws.path().join("manifests");
    std::fs::remove_file(dir.join("cni.yaml")).expect("rm");
    // Written in an order that is neither the path order nor the apply order.
    for (name, text) in [
        ("30-worker.yaml", WORKER),
        ("20-deployment.yaml", DEPLOYMENT),
        ("00-namespace.yaml", NAMESPACE),
        ("10-configmap.yaml", CONFIGMAP),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    ws
}

fn cli(ws: &Workspace, args: &[&str]) -> std::process::Output {
    ws.fleetdeck("alice@ops", args)
}

fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", support::cli::text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn projection(ws: &Workspace) -> Projection {
    ws.journal.open().projection().expect("projection")
}

/// Passes `executor` until `done` holds (at most a minute).
async fn pass_until(executor: &mut InProcess, what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The objects (`kind/name` from the path) a cluster was sent, in the order it got them.
fn patched(ws: &Workspace, cluster: &str) -> Vec<String> {
    ws.fleet
        .request_log(cluster)
        .expect("cluster")
        .iter()
        .filter(|r| r.method == "PATCH" && !r.path.ends_with("/fleetdeck-release"))
        .filter_map(|r| {
            let mut parts = r.path.rsplit('/');
            let name = parts.next()?;
            let plural = parts.next()?;
            Some(format!("{plural}/{name}"))
        })
        .collect()
}

async fn a_split_directory_release_applies_in_a_defined_order_that_plan_prints(backend: Backend) {
    let ws = split_release(backend, 31).await;
    let expected = [
        "namespaces/webapp",
        "namespaces/tools",
        "configmaps/settings",
        "deployments/web",
        "deployments/worker",
    ];

    let plan = ok(cli(&ws, &["rollout", "plan", "rollout.yaml"]));
    let listed: Vec<&str> = plan
        .lines()
        .skip_while(|l| !l.starts_with("apply order"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(
        listed,
        vec![
            "    1. Namespace webapp  (00-namespace.yaml document 1)",
            "    2. Namespace tools  (30-worker.yaml document 2)",
            "    3. ConfigMap webapp/settings  (10-configmap.yaml document 1)",
            "    4. Deployment webapp/web  (20-deployment.yaml document 1)",
            "    5. Deployment tools/worker  (30-worker.yaml document 1)",
        ],
        "{plan}"
    );
    let json: serde_json::Value = serde_json::from_str(&ok(cli(
        &ws,
        &["rollout", "plan", "rollout.yaml", "-o", "json"],
    )))
    .expect("json");
    let kinds: Vec<&str> = json["applyOrder"]
        .as_array()
        .expect("applyOrder")
        .iter()
        .filter_map(|o| o["kind"].as_str())
        .collect();
    assert_eq!(
        kinds,
        [
            "Namespace",
            "Namespace",
            "ConfigMap",
            "Deployment",
            "Deployment"
        ]
    );

    let mut live = Live::new(&ws).await;
    ok(cli(&ws, &["rollout", "start", "rollout.yaml"]));
    let mut executor = live.executor(&ws, "executor-a", None);
    pass_until(&mut executor, "the rollout to succeed", || {
        projection(&ws)
            .runs
            .values()
            .any(|r| r.status == RunStatus::Succeeded)
    })
    .await;
    for cluster in ws.ledger().clusters.iter().map(|c| c.id.0.clone()) {
        assert_eq!(patched(&ws, &cluster), expected, "{cluster}");
    }
    live.stop();
}

async fn a_failed_apply_says_why_in_rollout_show(backend: Backend) {
    let ws = split_release(backend, 32).await;
    let failing = ws.ledger().clusters[0].id.to_string();
    ws.fleet
        .update_faults(&failing, |f| {
            f.forbidden_resources = vec!["configmaps".into()]
        })
        .expect("faults");
    let mut live = Live::new(&ws).await;
    ok(cli(&ws, &["rollout", "start", "rollout.yaml"]));
    let mut executor = live.executor(&ws, "executor-a", None);
    pass_until(&mut executor, "the failed apply to halt the run", || {
        projection(&ws)
            .runs
            .values()
            .any(|r| r.rollout.halted.is_some())
    })
    .await;
    let run = projection(&ws).runs.keys().next().expect("run").0.clone();

    let table = ok(cli(&ws, &["rollout", "show", &run]));
    let row = table
        .lines()
        .find(|l| l.starts_with(&failing))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.contains("apply-failed"), "{table}");
    let why = table
        .lines()
        .skip_while(|l| !l.starts_with("failed or unknown:"))
        .nth(1)
        .unwrap_or_else(|| panic!("{table}"));
    assert!(
        why.starts_with(&format!(
            "  {failing}: 10-configmap.yaml document 1: ConfigMap webapp/settings: "
        )) && why.contains("forbidden"),
        "{table}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&ok(cli(&ws, &["rollout", "show", &run, "-o", "json"])))
            .expect("json");
    let failure = json["items"][&failing]["failure"]["why"]
        .as_str()
        .unwrap_or_else(|| panic!("{json:#}"));
    assert!(
        failure.starts_with("10-configmap.yaml document 1: ConfigMap webapp/settings: "),
        "{failure}"
    );
    live.stop();
}

/// The zone of `cluster`'s first node.
async fn first_zone(ws: &Workspace, cluster: &str) -> String {
    let client = ws.fleet.client(cluster).expect("cluster");
    let nodes = kube::Api::<k8s_openapi::api::core::v1::Node>::all(client)
        .list(&Default::default())
        .await
        .expect("nodes");
    nodes.items[0]
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get("topology.kubernetes.io/zone"))
        .cloned()
        .expect("a zone")
}

async fn a_rollout_waits_while_the_guard_pauses_a_failure_domain_of_its_cluster(backend: Backend) {
    let ws = split_release(backend, 33).await;
    let clusters: Vec<String> = ws
        .ledger()
        .clusters
        .iter()
        .map(|c| c.id.to_string())
        .collect();
    let dark = clusters[1].clone();
    let zone = first_zone(&ws, &dark).await;
    let mut live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "executor-a", None);
    executor.pass().await.expect("pass");
    // A zone of one cluster goes dark at once: the guard pauses that domain.
    ws.fleet
        .update_faults(&dark, |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: zone.clone(),
                at_seconds: 0.0,
            })
        })
        .expect("faults");
    pass_until(&mut executor, "the guard to pause the zone", || {
        projection(&ws).pauses.iter().any(|(scope, p)| {
            p.by_guard
                && matches!(scope, PauseScope::FailureDomain { domain, .. } if *domain == zone)
        })
    })
    .await;

    ok(cli(&ws, &["rollout", "start", "rollout.yaml"]));
    let run = projection(&ws).runs.keys().next().expect("run").0.clone();
    let waits = |p: &Projection| {
        p.runs.values().next().and_then(|r| {
            r.items
                .get(&fleetdeck::model::run::ItemId(dark.clone()))?
                .waiting
                .as_ref()
                .map(|w| w.why.clone())
        })
    };
    pass_until(
        &mut executor,
        "the others applied and the dark one waiting",
        || {
            let p = projection(&ws);
            let others_applied = p.runs.values().next().is_some_and(|r| {
                clusters.iter().filter(|c| **c != dark).all(|c| {
                    r.items[&fleetdeck::model::run::ItemId(c.clone())]
                        .applied
                        .is_some()
                })
            });
            others_applied && waits(&p).is_some()
        },
    )
    .await;
    for _ in 0..5 {
        executor.pass().await.expect("pass");
    }
    assert!(patched(&ws, &dark).is_empty(), "nothing applied to {dark}");
    let why = waits(&projection(&ws)).expect("waiting");
    assert!(
        why.contains(&format!(
            "failure domain {zone} of {dark} is paused by the mass-failure guard"
        )) && why.contains(&format!("fleetdeck resume --domain {dark}/{zone}")),
        "{why}"
    );
    let table = ok(cli(&ws, &["rollout", "show", &run]));
    assert!(
        table.contains(&format!(
            "  {dark}: apply waits: failure domain {zone} of {dark}"
        )),
        "{table}"
    );

    // The zone comes back; nothing moves until a person resumes the domain.
    ws.fleet
        .update_faults(&dark, |f| f.zone_outage = None)
        .expect("faults");
    for _ in 0..10 {
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        patched(&ws, &dark).is_empty(),
        "still held: only a person resumes"
    );
    ok(cli(
        &ws,
        &[
            "resume",
            "--domain",
            &format!("{dark}/{zone}"),
            "--note",
            "zone back",
        ],
    ));
    pass_until(&mut executor, "the rollout to succeed", || {
        projection(&ws)
            .runs
            .values()
            .any(|r| r.status == RunStatus::Succeeded)
    })
    .await;
    assert_eq!(patched(&ws, &dark).len(), 5, "{dark} applied once");
    live.stop();
}

/// By the ledger the three clusters run one combination; live, the staging one runs
/// another (its ledger entry is out of date). A canary stage of two must cover both, and
/// `rollout plan` and `start` say which clusters differ.
async fn canaries_are_picked_by_what_runs_where_the_ledger_is_out_of_date(backend: Backend) {
    let ws = split_release(backend, 34).await;
    let path = ws.path().join("ledger.yaml");
    let mut ledger: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("ledger")).expect("json");
    let clusters = ledger["clusters"].as_array_mut().expect("clusters");
    let production = clusters[0]["versions"].clone();
    let staging = clusters
        .iter_mut()
        .find(|c| c["id"] == "small-stg-01")
        .expect("staging");
    staging["versions"] = production;
    std::fs::write(&path, serde_json::to_string_pretty(&ledger).expect("json")).expect("write");
    let rollout = ROLLOUT.replace(
        "  - {name: all, batchSize: 3, soak: 1s, approval: auto, pick: ordered}",
        "  - {name: canary, count: 2, batchSize: 2, soak: 1s, approval: required, pick: representative}\n  - {name: rest, batchSize: 1, soak: 1s, approval: auto, pick: ordered}",
    );
    std::fs::write(ws.path().join("rollout.yaml"), rollout).expect("write");

    let json: serde_json::Value = serde_json::from_str(&ok(cli(
        &ws,
        &["rollout", "plan", "rollout.yaml", "-o", "json"],
    )))
    .expect("json");
    let plan = &json["plan"];
    let drift = plan["liveDrift"].as_array().expect("liveDrift");
    assert_eq!(drift.len(), 1, "{plan:#}");
    assert_eq!(drift[0]["cluster"], "small-stg-01");
    assert_eq!(drift[0]["live"]["kubernetes"], "v1.33.1");
    assert_eq!(drift[0]["ledger"]["kubernetes"], "v1.32.3");
    let canaries: Vec<&str> = plan["stages"][0]["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .flat_map(|b| b.as_array().into_iter().flatten())
        .filter_map(|c| c.as_str())
        .collect();
    assert!(canaries.contains(&"small-stg-01"), "{canaries:?}");
    assert_eq!(
        plan["stages"][0]["covers"].as_array().map(Vec::len),
        Some(2),
        "both combinations that run are covered: {plan:#}"
    );

    let table = ok(cli(&ws, &["rollout", "plan", "rollout.yaml"]));
    assert!(
        table.contains(
            "live versions differ from the ledger on 1 target(s); canaries picked by what runs:"
        ) && table.contains("  small-stg-01: kubernetes v1.33.1 (ledger v1.32.3)"),
        "{table}"
    );
    let started = ok(cli(&ws, &["rollout", "start", "rollout.yaml"]));
    assert!(
        started.contains("small-stg-01: kubernetes v1.33.1 (ledger v1.32.3)"),
        "{started}"
    );
}

on_both_backends_async!(
    a_split_directory_release_applies_in_a_defined_order_that_plan_prints,
    a_failed_apply_says_why_in_rollout_show,
    a_rollout_waits_while_the_guard_pauses_a_failure_domain_of_its_cluster,
    canaries_are_picked_by_what_runs_where_the_ledger_is_out_of_date,
);
