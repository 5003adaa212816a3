//! One identity per job, end to end on the simulator: the ledger names a maintenance
//! context for a cluster, its user is given exactly the ClusterRole `fleetdeck rbac`
//! prints, and a maintenance run there evicts as that user (the simulator's audit of who
//! wrote what says so, and so does the journal). With one verb taken from the role, the
//! same run changes nothing and says which right it lacked.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use fleetdeck::engine::executor::{Executor, ExecutorOptions};
use fleetdeck::engine::start::{node_facts, plan, record_run};
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::k8s::connect::{ClusterClient, ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::k8s::job_clients::{JobClient, job_clients_of};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::model::ledger::Job;
use fleetdeck::model::maintenance::read_maintenance;
use fleetdeck::model::run::{Actor, EventBody, RunId, RunStatus};
use fleetdeck::sim::{SimFleet, start_on_loopback, write_kubeconfig_for};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::Api;
use kube::api::{ListParams, PostParams};
use kube::config::Kubeconfig;

use crate::support::backend::{Backend, TestJournal};
use crate::support::cli::fleetdeck;
use crate::support::credentials::control;

const CLUSTER: &str = "small-02";

/// Reads as `viewer` (get, list, watch) through each cluster's own context; maintains
/// `small-02` as `nobody` (no rights but what a binding gives) through `small-02-maint`.
fn kubeconfig(fleet: &SimFleet, addr: std::net::SocketAddr, dir: &std::path::Path) -> Kubeconfig {
    write_kubeconfig_for(fleet, &dir.join("kc-viewer"), addr, "viewer").unwrap();
    write_kubeconfig_for(fleet, &dir.join("kc-nobody"), addr, "nobody").unwrap();
    let mut config = Kubeconfig::read_from(dir.join("kc-viewer")).unwrap();
    let nobody = Kubeconfig::read_from(dir.join("kc-nobody")).unwrap();
    let mut maint = nobody
        .contexts
        .iter()
        .find(|c| c.name == CLUSTER)
        .unwrap()
        .clone();
    maint.name = format!("{CLUSTER}-maint");
    config.contexts.push(maint);
    config.auth_infos.extend(nobody.auth_infos);
    std::fs::write(
        dir.join("kubeconfig"),
        serde_json::to_string_pretty(&config).unwrap(),
    )
    .unwrap();
    Kubeconfig::read_from(dir.join("kubeconfig")).unwrap()
}

/// The ledger with `jobContexts.maintenance` for the cluster.
fn ledger(
    fleet: &SimFleet,
    addr: std::net::SocketAddr,
    dir: &std::path::Path,
) -> fleetdeck::model::ledger::Ledger {
    let mut value = fleetdeck::sim::ledger(fleet, addr);
    for cluster in value["clusters"].as_array_mut().unwrap() {
        if cluster["id"] == CLUSTER {
            cluster["jobContexts"] = serde_json::json!({"maintenance": format!("{CLUSTER}-maint")});
        }
    }
    let path = dir.join("ledger.yaml");
    std::fs::write(&path, fleetdeck::yaml::to_yaml_string(&value)).unwrap();
    fleetdeck::config::ledger_file::load(&path).unwrap()
}

fn spec(node: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch-{node}\ncluster: {CLUSTER}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\n    idempotent: false\nbudgets:\n  maxUnavailable: 1\n  perFailureDomain: 1\n  failureDomainLabel: topology.kubernetes.io/zone\ndeadlines:\n  precheck: 30s\n  drain: 60s\n  verifyNode: 60s\n  verifyWorkloads: 60s\ndrain:\n  gracePeriod: 1s\n  evictionRetry: 1s\n  terminatingGrace: 30s\n"
    )
}

/// Nodes of the cluster that host a pod not owned by a DaemonSet.
async fn nodes_with_pods(client: &kube::Client) -> Vec<String> {
    let pods = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    let mut out: Vec<String> = pods
        .items
        .iter()
        .filter(|p| {
            !p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.kind == "DaemonSet")
        })
        .filter_map(|p| p.spec.as_ref()?.node_name.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The writes the simulator saw on the cluster: (user, method, path, code). Reviews of
/// what an identity may do (the least-privilege finding asks) change nothing and are left
/// out.
async fn audit(addr: std::net::SocketAddr) -> Vec<(String, String, String, u64)> {
    let answer = control(
        addr,
        "GET",
        &format!("/sim/v1/clusters/{CLUSTER}/audit"),
        None,
    )
    .await;
    answer["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            !i["path"]
                .as_str()
                .unwrap_or_default()
                .ends_with("selfsubjectrulesreviews")
        })
        .map(|i| {
            (
                i["user"].as_str().unwrap_or_default().to_string(),
                i["method"].as_str().unwrap_or_default().to_string(),
                i["path"].as_str().unwrap_or_default().to_string(),
                i["code"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn maintenance_acts_as_its_own_identity_with_exactly_the_rights_rbac_prints() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).unwrap();
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.unwrap();
    let kubeconfig = kubeconfig(&fleet, addr, dir.path());
    let ledger = ledger(&fleet, addr, dir.path());

    // Before any binding the maintenance identity may do nothing: the findings say so,
    // critical, before a maintenance starts.
    let mut sync = FleetSync::start(&ledger, kubeconfig.clone(), FleetSyncOptions::default());
    sync.wait_settled(Duration::from_secs(30)).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    let privileges = loop {
        let facts = sync
            .snapshots
            .borrow()
            .cluster(CLUSTER)
            .and_then(|c| c.findings.clone());
        if let Some(facts) = facts {
            break facts.privileges.clone();
        }
        assert!(Instant::now() < deadline, "facts read");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let maintenance = privileges
        .iter()
        .find(|p| p.jobs == [Job::Maintenance])
        .expect("the maintenance identity is asked about");
    assert_eq!(maintenance.user, "fleetdeck-sim-nobody");
    let fleetdeck::model::findings::Read::Known(rules) = &maintenance.rules else {
        panic!("{:?}", maintenance.rules);
    };
    let lacking = fleetdeck::model::findings::missing(&maintenance.jobs, rules);
    assert_eq!(
        lacking
            .iter()
            .map(|r| format!("{} {}", r.verb, r.resource))
            .collect::<Vec<_>>(),
        ["create events", "patch nodes", "create pods/eviction"]
    );

    // The rights, as `fleetdeck rbac` prints them, applied as a cluster admin would.
    let path = dir.path().to_path_buf();
    let printed = tokio::task::spawn_blocking(move || {
        fleetdeck(
            &[
                "rbac",
                "--job",
                "maintenance",
                "--bind",
                "maintenance=user:nobody",
                "-o",
                "json",
            ],
            &path,
        )
    })
    .await
    .unwrap();
    let list: serde_json::Value = serde_json::from_slice(&printed.stdout).expect("a List");
    let admin = fleet.client(CLUSTER).unwrap();
    let role: ClusterRole = serde_json::from_value(list["items"][0].clone()).unwrap();
    let binding: ClusterRoleBinding = serde_json::from_value(list["items"][1].clone()).unwrap();
    let roles: Api<ClusterRole> = Api::all(admin.clone());
    roles.create(&PostParams::default(), &role).await.unwrap();
    Api::<ClusterRoleBinding>::all(admin.clone())
        .create(&PostParams::default(), &binding)
        .await
        .unwrap();

    let mut clients: HashMap<String, ClusterClient> = HashMap::new();
    let mut job_clients = HashMap::new();
    for cluster in &ledger.clusters {
        let read = connect(cluster, &kubeconfig, &ConnectOptions::default())
            .await
            .unwrap();
        for (job, own) in job_clients_of(cluster, &read.server, &kubeconfig).await {
            assert!(matches!(own, JobClient::Ready(_)), "{}", cluster.id);
            job_clients.insert((cluster.id.to_string(), job), own);
        }
        clients.insert(cluster.id.to_string(), read);
    }
    let journal = TestJournal::new(Backend::Sqlite, dir.path());
    let port = KubePort::new(clients.clone(), sync.snapshots.clone(), "executor".into())
        .with_job_clients(job_clients);
    assert_eq!(
        port.identity(&CLUSTER.into(), Job::Maintenance).as_deref(),
        Some("fleetdeck-sim-nobody")
    );
    let mut options = ExecutorOptions::new(Actor("executor".into()));
    options.tick = Duration::from_millis(100);
    let mut executor = Executor::new(journal.open_as("executor"), port, options)
        .with_fleet(sync.snapshots.clone());
    let read = clients[CLUSTER].client.clone();
    let nodes = nodes_with_pods(&read).await;
    assert!(nodes.len() >= 2, "{nodes:?}");

    let start = |node: String| {
        let journal = &journal;
        let read = read.clone();
        async move {
            let report = read_maintenance(&spec(&node));
            let spec = report.spec.unwrap();
            let inventory = node_facts(&read, CLUSTER).await.unwrap();
            let plan = plan(&spec, &inventory).unwrap();
            record_run(
                &mut journal.open_as("alice@ops"),
                &Actor("alice@ops".into()),
                &spec,
                &plan,
                jiff::Timestamp::now(),
            )
            .unwrap()
        }
    };
    let status = |run: &RunId| {
        journal.open().projection().unwrap().runs[run]
            .status
            .clone()
    };
    let events = |run: &RunId| {
        journal
            .open()
            .query(&EventQuery {
                run: Some(run.clone()),
                ..EventQuery::default()
            })
            .unwrap()
    };

    // With exactly the printed rights: the run succeeds, and every write was nobody's.
    let first = start(nodes[0].clone()).await;
    let deadline = Instant::now() + Duration::from_secs(90);
    while status(&first) != RunStatus::Succeeded {
        assert!(Instant::now() < deadline, "{:?}", status(&first));
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let writes = audit(addr).await;
    let evictions: Vec<_> = writes
        .iter()
        .filter(|(_, method, path, _)| method == "POST" && path.ends_with("/eviction"))
        .collect();
    assert!(!evictions.is_empty(), "{writes:?}");
    assert!(
        writes
            .iter()
            .all(|(user, ..)| user == "nobody" || user == "admin"),
        "only the maintenance identity wrote (and the admin who set up RBAC): {writes:?}"
    );
    assert!(
        evictions
            .iter()
            .all(|(user, _, _, code)| user == "nobody" && *code == 201),
        "{evictions:?}"
    );
    let identities: Vec<Option<String>> = events(&first)
        .iter()
        .filter_map(|e| match &e.event.body {
            EventBody::Intent { identity, .. } => Some(identity.clone()),
            _ => None,
        })
        .collect();
    assert!(!identities.is_empty());
    assert!(
        identities
            .iter()
            .all(|i| i.as_deref() == Some("fleetdeck-sim-nobody")),
        "the journal says who acted: {identities:?}"
    );

    // One verb less (no `patch` on nodes): the next run cordons nothing, evicts nothing,
    // and says which right it lacked.
    let mut weaker = roles.get("fleetdeck-maintenance").await.unwrap();
    if let Some(rules) = weaker.rules.as_mut() {
        rules.retain(|r| r.resources.as_deref() != Some(&["nodes".to_string()][..]));
    }
    roles
        .replace("fleetdeck-maintenance", &PostParams::default(), &weaker)
        .await
        .unwrap();
    let before = audit(addr).await.len();
    let second = start(nodes[1].clone()).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let named = |run: &RunId| {
        events(run).iter().any(|e| {
            serde_json::to_string(&e.event.body)
                .unwrap_or_default()
                .contains("cannot patch resource \\\"nodes\\\"")
        })
    };
    while !named(&second) {
        assert!(
            Instant::now() < deadline,
            "the refusal is named: {:#?}",
            events(&second)
                .iter()
                .map(|e| format!("{:?}", e.event.body))
                .collect::<Vec<_>>()
        );
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_ne!(status(&second), RunStatus::Succeeded);
    let node = Api::<Node>::all(read.clone()).get(&nodes[1]).await.unwrap();
    assert_ne!(
        node.spec.and_then(|s| s.unschedulable),
        Some(true),
        "not cordoned"
    );
    let after = audit(addr).await;
    let changes: Vec<_> = after[before..]
        .iter()
        // Node events say what happens; they change nothing.
        .filter(|(_, _, path, _)| !path.ends_with("/events"))
        .collect();
    assert!(
        changes.is_empty(),
        "the refused cordon changed nothing, and nothing came after it: {changes:?}"
    );
    sync.stop();
    server.shutdown().await;
}
