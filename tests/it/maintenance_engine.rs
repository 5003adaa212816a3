//! The maintenance engine against the simulated fleet, over loopback HTTP through the real
//! kube client: a full cycle on a node, a drain blocked by a PDB that becomes a stuck step,
//! is handed off and returned with retry, and a pause that stops new steps.
//!
//! Over 600 lines: one subject, the engine against the simulator on both journal backends,
//! sharing the fixture (fleet, sync, executor) built at the top.

use std::collections::HashMap;

use std::time::{Duration, Instant};

use crate::support::backend::{Backend, TestJournal};
use fleetdeck::engine::clock::Clock;
use fleetdeck::engine::executor::{Executor, ExecutorOptions};
use fleetdeck::engine::start::{node_facts, plan, record_run};
use fleetdeck::journal::{AnyJournal, EventQuery, JournalStore};
use fleetdeck::k8s::connect::{ClusterClient, ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::model::maintenance::read_maintenance;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, PauseScope, ReturnOutcome, RunId,
    RunStatus, StepStatus,
};
use fleetdeck::sim::{SimFleet, SimServer, start_on_loopback, write_kubeconfig, write_ledger};
use k8s_openapi::api::core::v1::{Event as CoreEvent, Node, Pod};
use k8s_openapi::api::policy::v1::PodDisruptionBudget;
use kube::Api;
use kube::api::{ListParams, Patch, PatchParams};

struct Fixture {
    _dir: tempfile::TempDir,
    sim: SimFleet,
    server: SimServer,
    sync: FleetSync,
    clients: HashMap<String, ClusterClient>,
    journal: TestJournal,
}

async fn fixture(backend: Backend) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let fleet = SimFleet::load("small", 1, 1.0).unwrap();
    let (addr, server) = start_on_loopback(fleet.clone(), 0).await.unwrap();
    write_kubeconfig(&fleet, &dir.path().join("kubeconfig"), addr).unwrap();
    write_ledger(&fleet, &dir.path().join("ledger.yaml"), addr).unwrap();
    let ledger = fleetdeck::config::ledger_file::load(&dir.path().join("ledger.yaml")).unwrap();
    let kubeconfig = kube::config::Kubeconfig::read_from(dir.path().join("kubeconfig")).unwrap();
    let mut clients = HashMap::new();
    for cluster in &ledger.clusters {
        clients.insert(
            cluster.id.to_string(),
            connect(cluster, &kubeconfig, &ConnectOptions::default())
                .await
                .unwrap(),
        );
    }
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    sync.wait_settled(Duration::from_secs(20)).await;
    let journal = TestJournal::new(backend, dir.path());
    Fixture {
        _dir: dir,
        sim: fleet,
        server,
        sync,
        clients,
        journal,
    }
}

impl Fixture {
    fn executor(&self, actor: &str) -> Executor<AnyJournal, KubePort> {
        self.executor_with(actor, |_| {})
    }

    /// An executor whose options `adjust` changes from the test defaults.
    fn executor_with(
        &self,
        actor: &str,
        adjust: impl FnOnce(&mut ExecutorOptions),
    ) -> Executor<AnyJournal, KubePort> {
        let store = self.journal.open_as(actor);
        let port = KubePort::new(
            self.clients.clone(),
            self.sync.snapshots.clone(),
            actor.to_string(),
        );
        let mut options = ExecutorOptions::new(Actor(actor.to_string()));
        options.tick = Duration::from_millis(100);
        adjust(&mut options);
        Executor::new(store, port, options).with_fleet(self.sync.snapshots.clone())
    }

    fn client(&self, cluster: &str) -> kube::Client {
        self.clients[cluster].client.clone()
    }

    async fn start(&self, yaml: &str) -> RunId {
        let report = read_maintenance(yaml);
        let spec = report
            .spec
            .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
        let inventory = node_facts(&self.client(&spec.cluster.0), &spec.cluster.0)
            .await
            .unwrap();
        let plan = plan(&spec, &inventory).unwrap();
        let mut store = self.journal.open_as("alice@ops");
        record_run(
            &mut store,
            &Actor("alice@ops".into()),
            &spec,
            &plan,
            jiff::Timestamp::now(),
        )
        .unwrap()
    }

    fn operator(&self, run: &RunId, item: &str, body: EventBody) {
        let mut store = self.journal.open_as("bob@ops");
        let now = jiff::Timestamp::now();
        let actor = Actor("bob@ops".into());
        let event = NewEvent::new(
            now,
            actor.clone(),
            IdempotencyKey::for_command(&actor, now, std::process::id(), "op"),
            body,
        )
        .with_run(run.clone())
        .with_item(ItemId(item.into()));
        store.append(event, None).unwrap();
    }

    /// Sets or clears a pause switch as an operator would.
    fn switch(&self, body: EventBody) {
        let mut store = self.journal.open_as("bob@ops");
        let now = jiff::Timestamp::now();
        let actor = Actor("bob@ops".into());
        let key =
            IdempotencyKey::for_command(&actor, now, std::process::id(), &format!("{body:?}"));
        store
            .append(NewEvent::new(now, actor, key, body), None)
            .unwrap();
    }

    fn events(&self, run: &RunId) -> Vec<fleetdeck::model::run::Event> {
        let store = self.journal.open();
        store
            .query(&EventQuery {
                run: Some(run.clone()),
                ..EventQuery::default()
            })
            .unwrap()
    }

    fn status(&self, run: &RunId) -> RunStatus {
        let store = self.journal.open();
        let projection = store.projection().unwrap();
        projection.runs[run].status.clone()
    }
}

fn spec(cluster: &str, node: &str, drain_deadline: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\n    idempotent: false\nbudgets:\n  maxUnavailable: 1\n  perFailureDomain: 1\n  failureDomainLabel: topology.kubernetes.io/zone\ndeadlines:\n  precheck: 30s\n  drain: {drain_deadline}\n  verifyNode: 60s\n  verifyWorkloads: 60s\ndrain:\n  gracePeriod: 1s\n  evictionRetry: 1s\n  terminatingGrace: 30s\n"
    )
}

/// The names of the cluster's first `n` nodes.
async fn node_names(client: &kube::Client, n: usize) -> Vec<String> {
    let nodes: Api<Node> = Api::all(client.clone());
    nodes
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|node| node.metadata.name)
        .take(n)
        .collect()
}

/// A node that hosts at least one pod not owned by a DaemonSet.
async fn node_with_pods(client: &kube::Client, name_prefix: &str) -> String {
    let pods: Api<Pod> = Api::all(client.clone());
    let list = pods.list(&ListParams::default()).await.unwrap();
    list.items
        .iter()
        .filter(|p| {
            p.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with(name_prefix))
        })
        .filter_map(|p| p.spec.as_ref()?.node_name.clone())
        .next()
        .expect("a node with such a pod")
}

async fn drive_until(
    executor: &mut Executor<AnyJournal, KubePort>,
    fx: &Fixture,
    run: &RunId,
    done: impl Fn(&Fixture) -> bool,
    secs: u64,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done(fx) {
        assert!(
            Instant::now() < deadline,
            "timed out; events:\n{:#?}",
            fx.events(run)
                .iter()
                .map(|e| format!("{} {:?}", e.event.key, e.event.body))
                .collect::<Vec<_>>()
        );
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The fleet view the sync publishes now, with cluster `id` changed by `change`.
fn view_with(
    fx: &Fixture,
    id: &str,
    change: impl Fn(&mut fleetdeck::model::live::ClusterSnapshot),
) -> fleetdeck::model::live::FleetSnapshot {
    let mut snapshot = fx.sync.snapshots.borrow().clone();
    snapshot.clusters = snapshot
        .clusters
        .iter()
        .map(|c| {
            let mut c = fleetdeck::model::live::ClusterSnapshot::clone(c);
            if &*c.id == id {
                change(&mut c);
            }
            std::sync::Arc::new(c)
        })
        .collect();
    snapshot
}

fn count_intents(events: &[fleetdeck::model::run::Event], action: &str) -> usize {
    events
        .iter()
        .filter(|e| matches!(&e.event.body, EventBody::Intent { action: a, .. } if a == action))
        .count()
}

async fn two_executors_under_one_actor_name_never_both_hold_the_lease(backend: Backend) {
    // The same user starting a second executor on one host (or a restart while the old
    // process still runs): the second must stand by, not renew the first one's lease.
    let f = fixture(backend).await;
    let mut first = f.executor("exec@ops-host");
    let mut second = f.executor("exec@ops-host");
    assert!(first.hold_lease().unwrap());
    assert!(!second.hold_lease().unwrap(), "the second stands by");
    assert!(first.hold_lease().unwrap(), "the first still renews");
    first.release_lease().unwrap();
    assert!(
        second.hold_lease().unwrap(),
        "once released, the second takes it"
    );
    assert!(
        !first.hold_lease().unwrap(),
        "and the first stands by in turn"
    );
}

async fn a_failed_node_keeps_the_next_batch_from_starting(backend: Backend) {
    let fx = fixture(backend).await;
    let names = node_names(&fx.client("small-02"), 2).await;
    assert_eq!(names.len(), 2);
    // One node per batch (maxUnavailable 1); the hook fails on the first.
    let yaml =
        spec("small-02", &names.join(", "), "60s").replace("argv: [\"true\"]", "argv: [\"false\"]");
    let run = fx.start(&yaml).await;
    let mut executor = fx.executor("executor-a");
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| matches!(fx.status(&run), RunStatus::Halted { .. }),
        90,
    )
    .await;
    let events = fx.events(&run);
    assert_eq!(
        count_intents(&events, "hook"),
        1,
        "the hook ran on one node"
    );
    assert_eq!(
        count_intents(&events, "cordon"),
        1,
        "the second batch's node was never cordoned"
    );
}

async fn no_cordon_or_eviction_once_the_cluster_is_not_the_one_pinned(backend: Backend) {
    use fleetdeck::k8s::kube_port::PortError;
    use fleetdeck::model::live::{ClusterSnapshot, FleetSnapshot, IdentityVerdict};
    use fleetdeck::model::maintenance::{MaintenancePort, PodRef};
    let fx = fixture(backend).await;
    let node = node_with_pods(&fx.client("small-02"), "").await;
    // The fleet view now says the context reaches another cluster.
    let mut impostor = ClusterSnapshot::connecting("small-02");
    impostor.identity_verdict = Some(IdentityVerdict::Mismatch {
        reason: "kube-system UID differs".into(),
    });
    let mut view = FleetSnapshot::empty();
    view.clusters = std::sync::Arc::from(vec![std::sync::Arc::new(impostor)]);
    let (_keep, snapshots) = tokio::sync::watch::channel(view);
    let port = KubePort::new(fx.clients.clone(), snapshots, "executor-a".into());
    let cluster = fleetdeck::model::ledger::ClusterId("small-02".into());
    let node_name = fleetdeck::model::run::NodeName::from(node.clone());
    let refused = port.set_unschedulable(&cluster, &node_name, true).await;
    assert!(
        matches!(&refused, Err(PortError::Refused { reason, .. }) if reason.contains("UID")),
        "{refused:?}"
    );
    let pod = PodRef {
        namespace: "default".into(),
        name: "any".into(),
        uid: String::new(),
    };
    let refused = port.evict(&cluster, &pod, None).await;
    assert!(
        matches!(refused, Err(PortError::Refused { .. })),
        "{refused:?}"
    );
    // Nor is its release record trusted to say a rollout already reached it.
    let seen = fleetdeck::model::rollout::RolloutPort::applied_release(&port, &cluster).await;
    assert!(
        matches!(&seen, fleetdeck::model::rollout::AppliedSeen::Unreachable { why } if why.contains("UID")),
        "{seen:?}"
    );
    let nodes: Api<Node> = Api::all(fx.client("small-02"));
    let live = nodes.get(&node).await.unwrap();
    assert_ne!(
        live.spec.and_then(|s| s.unschedulable),
        Some(true),
        "the node was not cordoned"
    );
}

async fn a_pause_written_while_a_hook_runs_holds_the_rest_of_the_batch(backend: Backend) {
    let fx = fixture(backend).await;
    let names = node_names(&fx.client("small-02"), 2).await;
    // Both nodes in one batch; the first node's hook pauses the fleet, as a person
    // would from another terminal while it runs.
    let mut argv = vec![env!("CARGO_BIN_EXE_fleetdeck").to_string()];
    argv.extend(fx.journal.flags("bob@ops"));
    argv.extend(["pause", "--all", "--reason", "stop the line"].map(String::from));
    let hook = serde_json::to_string(&argv).unwrap();
    let yaml = spec("small-02", &names.join(", "), "60s")
        .replace("argv: [\"true\"]", &format!("argv: {hook}"))
        .replace(
            "maxUnavailable: 1\n  perFailureDomain: 1\n",
            "maxUnavailable: 2\n",
        );
    let run = fx.start(&yaml).await;
    let mut executor = fx.executor("executor-a");
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| count_intents(&fx.events(&run), "hook") >= 1,
        90,
    )
    .await;
    for _ in 0..5 {
        executor.pass().await.unwrap();
    }
    let store = fx.journal.open();
    let all = store.query(&EventQuery::default()).unwrap();
    let paused_at = all
        .iter()
        .find(|e| matches!(e.event.body, EventBody::Paused { .. }))
        .map(|e| e.seq)
        .expect("the hook paused the fleet");
    let second = fleetdeck::model::run::ItemId(names[1].clone());
    let after_pause: Vec<String> = all
        .iter()
        .filter(|e| e.seq > paused_at && e.event.item.as_ref() == Some(&second))
        .filter(|e| matches!(e.event.body, EventBody::Intent { .. }))
        .map(|e| e.event.key.to_string())
        .collect();
    assert!(
        after_pause.is_empty(),
        "nothing done to the batch's other node after the pause: {after_pause:?}"
    );
}

async fn full_cycle_on_a_node(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let node = node_with_pods(&client, "").await;
    let pods_before: Vec<String> = Api::<Pod>::all(client.clone())
        .list(&ListParams::default().fields(&format!("spec.nodeName={node}")))
        .await
        .unwrap()
        .items
        .iter()
        .filter(|p| {
            !p.metadata
                .owner_references
                .iter()
                .flatten()
                .any(|o| o.kind == "DaemonSet")
        })
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    assert!(!pods_before.is_empty());
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    let mut executor = fx.executor("executor-a");
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| fx.status(&run) == RunStatus::Succeeded,
        90,
    )
    .await;

    let events = fx.events(&run);
    assert_eq!(count_intents(&events, "cordon"), 1, "cordoned once");
    assert_eq!(count_intents(&events, "uncordon"), 1, "uncordoned once");
    assert_eq!(count_intents(&events, "hook"), 1, "hook run once");
    assert!(count_intents(&events, "evict") >= pods_before.len());
    // Every intent has its outcome.
    let projection = fx.executor("reader").store().projection().unwrap();
    assert!(
        projection.runs[&run]
            .items
            .values()
            .all(|i| i.open_intents.is_empty())
    );
    // The node is back in service and the evicted pods live elsewhere.
    let n = Api::<Node>::all(client.clone()).get(&node).await.unwrap();
    assert_ne!(n.spec.and_then(|s| s.unschedulable), Some(true));
    let on_node: Vec<String> = Api::<Pod>::all(client.clone())
        .list(&ListParams::default().fields(&format!("spec.nodeName={node}")))
        .await
        .unwrap()
        .items
        .iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    for pod in &pods_before {
        assert!(!on_node.contains(pod), "{pod} was evicted");
    }
    // The node's events tell the story, naming who did it.
    let node_events = Api::<CoreEvent>::namespaced(client.clone(), "default")
        .list(&ListParams::default())
        .await
        .unwrap();
    // `kubectl describe node` matches events by the node's UID as well as its name.
    let node_uid = Api::<Node>::all(client.clone())
        .get(&node)
        .await
        .unwrap()
        .metadata
        .uid;
    assert!(
        node_events
            .items
            .iter()
            .filter(|e| e.reason.as_deref() == Some("FleetdeckMaintenance"))
            .all(|e| e.involved_object.uid == node_uid),
        "events carry the node's UID"
    );
    let ours: Vec<String> = node_events
        .items
        .iter()
        .filter(|e| {
            e.reason.as_deref() == Some("FleetdeckMaintenance")
                && e.involved_object.name.as_deref() == Some(node.as_str())
        })
        .filter_map(|e| e.message.clone())
        .collect();
    assert!(ours.len() >= 6, "{ours:#?}");
    assert!(ours.iter().all(|m| m.contains("executor-a")), "{ours:#?}");
    // Each has what a real API server requires of an Event with an eventTime (it answers
    // 422 `action: Required value` otherwise): action, reporting component and instance.
    for e in node_events.items.iter().filter(|e| {
        e.reason.as_deref() == Some("FleetdeckMaintenance")
            && e.involved_object.name.as_deref() == Some(node.as_str())
    }) {
        assert!(e.event_time.is_some(), "{e:?}");
        assert!(
            e.action
                .as_deref()
                .is_some_and(|a| !a.is_empty() && a.len() <= 128),
            "{e:?}"
        );
        assert_eq!(e.reporting_component.as_deref(), Some("fleetdeck"), "{e:?}");
        assert!(
            e.reporting_instance
                .as_deref()
                .is_some_and(|i| !i.is_empty() && i.len() <= 128),
            "{e:?}"
        );
    }
    let actions: Vec<&str> = node_events
        .items
        .iter()
        .filter(|e| e.involved_object.name.as_deref() == Some(node.as_str()))
        .filter_map(|e| e.action.as_deref())
        .collect();
    for step in [
        "Precheck", "Cordon", "Drain", "Maintain", "Uncordon", "Done",
    ] {
        assert!(actions.contains(&step), "{step} in {actions:?}");
    }
    // And `kubectl describe node` tells the story.
    let dir = fx._dir.path();
    let described = std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(dir.join("kubeconfig"))
        .args(["--context", "small-02", "--cache-dir"])
        .arg(dir.join("kube-cache"))
        .args(["describe", "node", &node])
        .env("HOME", dir)
        .output()
        .expect("kubectl on PATH (Debian: apt-get install -y kubernetes-client)");
    let text = String::from_utf8_lossy(&described.stdout);
    let events_part = text.split("Events:").nth(1).unwrap_or_default();
    assert!(
        events_part.contains("FleetdeckMaintenance")
            && events_part.contains("Drain started")
            && events_part.contains("executor-a"),
        "{text}{}",
        String::from_utf8_lossy(&described.stderr)
    );
    fx.server.shutdown().await;
}

async fn a_node_event_the_cluster_refuses_is_journaled_and_told(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let node = node_with_pods(&client, "").await;
    // The executor may not write Events there (missing RBAC, as a real cluster may say).
    fx.sim
        .update_faults("small-02", |f| {
            f.forbidden_resources = vec!["events".into()]
        })
        .unwrap();
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    let (notices, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let mut executor = fx.executor("executor-a").with_notices(notices);
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| fx.status(&run) == RunStatus::Succeeded,
        90,
    )
    .await;
    // The maintenance itself went on: an Event is a record, not a step.
    let failed: Vec<(String, String)> = fx
        .events(&run)
        .iter()
        .filter_map(|e| match &e.event.body {
            EventBody::NodeEventFailed { reason, error, .. } => {
                Some((reason.clone(), error.clone()))
            }
            _ => None,
        })
        .collect();
    assert!(failed.len() >= 6, "{failed:#?}");
    assert!(
        failed
            .iter()
            .all(|(reason, error)| reason == "FleetdeckMaintenance" && error.contains("forbidden")),
        "{failed:#?}"
    );
    let mut told = Vec::new();
    while let Ok(line) = heard.try_recv() {
        told.push(line);
    }
    assert!(
        told.iter().any(|l| l.contains(&format!("small-02/{node}"))
            && l.contains("NOT recorded on the cluster")
            && l.contains("forbidden")),
        "{told:#?}"
    );
    // `fleetdeck journal` names them too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args(fx.journal.flags("bob@ops"))
        .args(["journal", "--kind", "step.nodeEventFailed"])
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        listing
            .lines()
            .filter(|l| l.contains("step.nodeEventFailed") && l.contains(&node))
            .count(),
        failed.len(),
        "{listing}"
    );
    fx.server.shutdown().await;
}

/// The PDB over `checkout` (maxUnavailable 0) would refuse every eviction of its pods:
/// the node is not cordoned at all. Its precheck waits, naming the budget, in the journal
/// and `maintenance show`; past the deadline the step is Blocked at Precheck for a person;
/// once the budget allows it, the maintenance goes on.
async fn a_budget_that_would_refuse_keeps_the_node_uncordoned_at_precheck(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-01");
    let node = node_with_pods(&client, "checkout").await;
    let yaml = spec("small-01", &node, "60s").replace("precheck: 30s", "precheck: 4s");
    let run = fx.start(&yaml).await;
    let mut executor = fx.executor("executor-a");
    let item = ItemId(node.clone());
    let waiting = |fx: &Fixture| {
        let store = fx.journal.open();
        let p = store.projection().unwrap();
        p.runs[&run].items[&item]
            .waiting
            .as_ref()
            .map(|w| w.why.clone())
    };
    drive_until(&mut executor, &fx, &run, |fx| waiting(fx).is_some(), 30).await;
    let why = waiting(&fx).unwrap();
    assert!(
        why.contains("PDB headroom: PDB shop/checkout")
            && why.contains("healthy pods and has")
            && why.contains(&format!("of {node} now")),
        "{why}"
    );
    let shown = std::process::Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args(fx.journal.flags("alice@ops"))
        .args(["maintenance", "show", &run.0])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains(&format!("{node} waits: PDB headroom: PDB shop/checkout")),
        "{shown}"
    );
    let blocked_at = |fx: &Fixture| {
        let store = fx.journal.open();
        let p = store.projection().unwrap();
        let view = &p.runs[&run].items[&item];
        match view.current_step() {
            Some((step, s)) => match &s.status {
                StepStatus::Blocked { reason } => Some((step.to_string(), reason.clone())),
                _ => None,
            },
            None => None,
        }
    };
    drive_until(&mut executor, &fx, &run, |fx| blocked_at(fx).is_some(), 30).await;
    let (step, reason) = blocked_at(&fx).unwrap();
    assert_eq!(step, "Precheck");
    assert!(reason.contains("PDB shop/checkout"), "{reason}");
    assert_eq!(
        count_intents(&fx.events(&run), "cordon"),
        0,
        "never cordoned"
    );
    let live = Api::<Node>::all(client.clone()).get(&node).await.unwrap();
    assert_ne!(live.spec.and_then(|s| s.unschedulable), Some(true));

    // The budget relaxed and the step returned: the maintenance goes through.
    relax_pdbs(&client).await;
    fx.operator(
        &run,
        &node,
        EventBody::Returned {
            outcome: ReturnOutcome::Retry,
            note: "PDB relaxed to maxUnavailable 1".into(),
        },
    );
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| fx.status(&run) == RunStatus::Succeeded,
        90,
    )
    .await;
    assert_eq!(count_intents(&fx.events(&run), "cordon"), 1);
    fx.server.shutdown().await;
}

/// Every PDB in `shop` allows one disruption.
async fn relax_pdbs(client: &kube::Client) {
    let pdbs: Api<PodDisruptionBudget> = Api::namespaced(client.clone(), "shop");
    for pdb in pdbs.list(&ListParams::default()).await.unwrap().items {
        let name = pdb.metadata.name.clone().unwrap();
        pdbs.patch(
            &name,
            &PatchParams::default(),
            &Patch::Merge(serde_json::json!({"spec": {"maxUnavailable": 1}})),
        )
        .await
        .unwrap();
    }
}

/// A budget that allowed the evictions when the precheck looked (here: a fleet view in
/// which it still had room) but refuses them when the drain asks: the drain waits, and
/// past its deadline is a stuck step a person takes, never forced.
async fn pdb_blocked_drain_is_stuck_handed_off_and_retried(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-01");
    let node = node_with_pods(&client, "checkout").await;
    let run = fx.start(&spec("small-01", &node, "3s")).await;
    let roomy = view_with(&fx, "small-01", |c| {
        let mut view = fleetdeck::model::fleet::ClusterView::clone(&c.view);
        for pdb in &mut view.pdbs {
            pdb.disruptions_allowed = 1;
        }
        c.view = std::sync::Arc::new(view);
    });
    let (_keep, snapshots) = tokio::sync::watch::channel(roomy);
    let port = KubePort::new(fx.clients.clone(), snapshots.clone(), "executor-a".into());
    let mut options = ExecutorOptions::new(Actor("executor-a".into()));
    options.tick = Duration::from_millis(100);
    let store = fx.journal.open_as("executor-a");
    let mut executor = Executor::new(store, port, options).with_fleet(snapshots);
    let item = ItemId(node.clone());
    let blocked = |fx: &Fixture| {
        let store = fx.journal.open();
        let p = store.projection().unwrap();
        p.runs
            .get(&run)
            .and_then(|r| r.items.get(&item))
            .and_then(|i| i.current.as_ref().and_then(|c| i.steps.get(c)))
            .is_some_and(|s| matches!(s.status, StepStatus::Blocked { .. }))
    };
    drive_until(&mut executor, &fx, &run, blocked, 60).await;
    let store = fx.journal.open();
    let projection = store.projection().unwrap();
    let view = &projection.runs[&run].items[&item];
    let current = view.current.clone().unwrap();
    assert_eq!(current.as_str(), "Drain");
    let StepStatus::Blocked { reason } = &view.steps[&current].status else {
        unreachable!()
    };
    assert!(
        reason.contains("PDB")
            && reason.contains("needs")
            && reason.contains("healthy pods and has"),
        "{reason}"
    );
    drop(store);

    // A person takes it, relaxes the PDB, and returns it with retry.
    fx.operator(
        &run,
        &node,
        EventBody::HandedOff {
            to: Actor("carol@ops".into()),
            note: "checkout PDB blocks; talking to the team".into(),
        },
    );
    executor.pass().await.unwrap();
    relax_pdbs(&client).await;
    fx.operator(
        &run,
        &node,
        EventBody::Returned {
            outcome: ReturnOutcome::Retry,
            note: "PDB relaxed to maxUnavailable 1".into(),
        },
    );
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| fx.status(&run) == RunStatus::Succeeded,
        90,
    )
    .await;
    let events = fx.events(&run);
    assert_eq!(count_intents(&events, "cordon"), 1);
    assert_eq!(count_intents(&events, "uncordon"), 1);
    fx.server.shutdown().await;
}

async fn pause_stops_new_steps(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let node = node_with_pods(&client, "").await;
    fx.switch(EventBody::Paused {
        scope: PauseScope::Fleet,
        reason: "change freeze".into(),
    });
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    let mut executor = fx.executor("executor-a");
    for _ in 0..15 {
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let events = fx.events(&run);
    let intents = events
        .iter()
        .filter(|e| matches!(e.event.body, EventBody::Intent { .. }))
        .count();
    assert_eq!(intents, 0, "no side effect while paused");
    fx.switch(EventBody::Resumed {
        scope: PauseScope::Fleet,
        note: "freeze over".into(),
    });
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| fx.status(&run) == RunStatus::Succeeded,
        90,
    )
    .await;
    fx.server.shutdown().await;
}

async fn mass_failure_guard_pauses_the_failed_zone_only(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let zone_of = |node: &Node| {
        node.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("topology.kubernetes.io/zone").cloned())
            .unwrap_or_default()
    };
    let nodes = Api::<Node>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap()
        .items;
    let healthy_node = node_with_pods(&client, "").await;
    let healthy_zone = zone_of(
        nodes
            .iter()
            .find(|n| n.metadata.name.as_deref() == Some(healthy_node.as_str()))
            .unwrap(),
    );
    let failed_zone_node = nodes
        .iter()
        .find(|n| zone_of(n) != healthy_zone)
        .expect("a node in another zone");
    let failed_zone = zone_of(failed_zone_node);
    let failed_node = failed_zone_node.metadata.name.clone().unwrap();

    let run = fx.start(&spec("small-02", &healthy_node, "60s")).await;
    // A run in the zone that will fail, planned while the zone is healthy and held by
    // its own pause until the guard has had its say.
    // (Its own name: run ids are made of the name and the second they start in.)
    let second_spec = spec("small-02", &failed_node, "60s").replace("name: patch", "name: zone-b");
    let second = fx.start(&second_spec).await;
    assert_ne!(second, run);
    fx.switch(EventBody::Paused {
        scope: PauseScope::Run {
            run: second.clone(),
        },
        reason: "later".into(),
    });
    let mut executor = fx.executor("executor-a");
    executor.pass().await.unwrap();
    // The other zone goes dark at once: a shared dependency, not many broken nodes.
    let fleet = fx.sim.clone();
    fleet
        .update_faults("small-02", |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: failed_zone.clone(),
                at_seconds: 0.0,
            })
        })
        .unwrap();
    let tripped = |fx: &Fixture| {
        let store = fx.journal.open();
        store.projection().unwrap().pauses.keys().any(
            |s| matches!(s, PauseScope::FailureDomain { domain, .. } if *domain == failed_zone),
        )
    };
    drive_until(&mut executor, &fx, &run, tripped, 60).await;
    // A new run in the dark zone is refused when it is planned, with each node's reason,
    // rather than journaled as a run with no batch.
    let dark = read_maintenance(&spec("small-02", &failed_node, "60s"))
        .spec
        .unwrap();
    let inventory = node_facts(&client, "small-02").await.unwrap();
    let refusal = plan(&dark, &inventory).unwrap_err().to_string();
    assert!(
        refusal.contains("no node can be planned") && refusal.contains(failed_node.as_str()),
        "{refusal}"
    );
    let store = fx.journal.open();
    let projection = store.projection().unwrap();
    let domains: Vec<String> = projection
        .pauses
        .iter()
        .filter_map(|(scope, switch)| match scope {
            PauseScope::FailureDomain { domain, .. } => {
                assert!(
                    switch.reason.contains("suspect shared dependency"),
                    "{}",
                    switch.reason
                );
                assert!(switch.by_guard);
                Some(domain.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        domains,
        vec![failed_zone.clone()],
        "only the failed zone is paused"
    );
    assert!(
        projection
            .pauses
            .keys()
            .all(|s| !matches!(s, PauseScope::Fleet | PauseScope::Cluster { .. }))
    );
    drop(store);
    // The healthy zone's maintenance is not paused: it drains and runs its hook. (Its
    // VerifyWorkloads then rightly waits: the dark zone's pods of the same workloads are
    // not Ready.)
    let maintained = |fx: &Fixture| {
        fx.events(&run).iter().any(|e| {
            e.event
                .step
                .as_ref()
                .is_some_and(|s| s.as_str() == "Maintain")
                && matches!(
                    e.event.body,
                    EventBody::StepStatusChanged {
                        status: StepStatus::Succeeded
                    }
                )
        })
    };
    drive_until(&mut executor, &fx, &run, maintained, 90).await;
    // The failed zone's run, released by its own pause, starts nothing: the guard's
    // pause of its zone holds it.
    fx.switch(EventBody::Resumed {
        scope: PauseScope::Run {
            run: second.clone(),
        },
        note: "go".into(),
    });
    let started = |fx: &Fixture| {
        fx.events(&second).iter().any(|e| {
            matches!(
                e.event.body,
                EventBody::StepStatusChanged { .. } | EventBody::Intent { .. }
            )
        })
    };
    for _ in 0..10 {
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!started(&fx), "nothing is done in a zone the guard paused");
    // The zone comes back and a person lifts the guard's pause (only a person does);
    // then the run proceeds.
    fleet
        .update_faults("small-02", |f| f.zone_outage = None)
        .unwrap();
    fx.switch(EventBody::Resumed {
        scope: PauseScope::FailureDomain {
            cluster: fleetdeck::model::ledger::ClusterId("small-02".into()),
            domain: failed_zone.clone(),
        },
        note: "zone back".into(),
    });
    drive_until(&mut executor, &fx, &second, started, 60).await;
    fx.server.shutdown().await;
}

/// With no maintenance running in a cluster, the guard groups its nodes by the configured
/// failure-domain label (`[capacity] failure_domain_key`), not always by zone: with the
/// region as the domain, a zone going dark pauses the region.
async fn guard_without_a_run_groups_nodes_by_the_configured_label(backend: Backend) {
    let fx = fixture(backend).await;
    let nodes = Api::<Node>::all(fx.client("small-02"))
        .list(&ListParams::default())
        .await
        .unwrap()
        .items;
    let label = |node: &Node, key: &str| {
        node.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(key).cloned())
            .unwrap_or_default()
    };
    let zone = label(&nodes[0], "topology.kubernetes.io/zone");
    let region = label(&nodes[0], "topology.kubernetes.io/region");
    assert!(!region.is_empty() && region != zone);
    let mut executor = fx.executor_with("executor-a", |options| {
        options.guard_domain_label = "topology.kubernetes.io/region".into();
    });
    executor.pass().await.unwrap();
    fx.sim
        .update_faults("small-02", |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: zone.clone(),
                at_seconds: 0.0,
            })
        })
        .unwrap();
    let paused_domains = || {
        let store = fx.journal.open();
        store
            .projection()
            .unwrap()
            .pauses
            .keys()
            .filter_map(|scope| match scope {
                PauseScope::FailureDomain { domain, .. } => Some(domain.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while paused_domains().is_empty() {
        assert!(Instant::now() < deadline, "the guard never tripped");
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(paused_domains(), vec![region]);
    fx.server.shutdown().await;
}

/// A node's precheck counts what other runs hold: with every other node of the cluster in
/// the batch another (paused) run was let go on, the node's pods have nowhere to go, so
/// its precheck waits on capacity and it is never cordoned.
async fn precheck_leaves_out_nodes_another_run_holds(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let pods = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap()
        .items;
    // A node hosting a pod that must be re-placed (a DaemonSet's pod would not be).
    let node = pods
        .iter()
        .filter(|p| {
            p.metadata
                .owner_references
                .iter()
                .flatten()
                .all(|o| o.kind != "DaemonSet")
        })
        .find_map(|p| p.spec.as_ref()?.node_name.clone())
        .expect("a node with a pod to re-place");
    let others: Vec<String> = node_names(&client, usize::MAX)
        .await
        .into_iter()
        .filter(|n| *n != node)
        .collect();
    let everything_else = spec("small-02", &others.join(", "), "60s")
        .replace("name: patch", "name: the-rest")
        .replace("maxUnavailable: 1", "maxUnavailable: 1000")
        .replace("perFailureDomain: 1", "perFailureDomain: 1000");
    let holder = fx.start(&everything_else).await;
    fx.switch(EventBody::Paused {
        scope: PauseScope::Run {
            run: holder.clone(),
        },
        reason: "approved, not begun".into(),
    });
    let mut executor = fx.executor("executor-a");
    // The holding run becomes Running (paused): its first batch is now reserved.
    drive_until(
        &mut executor,
        &fx,
        &holder,
        |fx| {
            let store = fx.journal.open();
            store.projection().unwrap().runs[&holder].status == RunStatus::Running
        },
        30,
    )
    .await;
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    let refused = |fx: &Fixture| {
        fx.events(&run).iter().any(|e| {
            matches!(&e.event.body, EventBody::Observed { observation }
                if observation.to_string().contains("capacity: displaced pods would not fit"))
        })
    };
    drive_until(&mut executor, &fx, &run, refused, 30).await;
    let events = fx.events(&run);
    assert_eq!(count_intents(&events, "cordon"), 0, "the node was cordoned");
    assert!(
        count_intents(&fx.events(&holder), "cordon") == 0,
        "the paused run did nothing"
    );
    fx.server.shutdown().await;
}

/// Once the fleet view stops vouching for a cluster's identity mid-run, the executor
/// journals nothing more that would change it: no intent per pass, refused each time.
async fn a_cluster_that_may_not_be_changed_gets_no_intent_at_all(backend: Backend) {
    use fleetdeck::model::live::IdentityVerdict;
    let fx = fixture(backend).await;
    let node = node_with_pods(&fx.client("small-02"), "").await;
    let (view_tx, view) = tokio::sync::watch::channel(fx.sync.snapshots.borrow().clone());
    let store = fx.journal.open_as("executor-a");
    let port = KubePort::new(fx.clients.clone(), view.clone(), "executor-a".into());
    let mut options = ExecutorOptions::new(Actor("executor-a".into()));
    options.tick = Duration::from_millis(100);
    let mut executor = Executor::new(store, port, options).with_fleet(view);
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| count_intents(&fx.events(&run), "cordon") == 1,
        30,
    )
    .await;
    // The context now reaches a cluster whose kube-system UID is not the pinned one.
    let impostor = view_with(&fx, "small-02", |c| {
        c.identity_verdict = Some(IdentityVerdict::Mismatch {
            reason: "kube-system UID differs".into(),
        })
    });
    view_tx.send(impostor).unwrap();
    let intents = |fx: &Fixture| {
        fx.events(&run)
            .iter()
            .filter(|e| matches!(e.event.body, EventBody::Intent { .. }))
            .count()
    };
    let before = intents(&fx);
    for _ in 0..15 {
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        intents(&fx),
        before,
        "no intent once the cluster may not be changed"
    );
    assert_ne!(
        fx.status(&run),
        RunStatus::Succeeded,
        "the run cannot finish"
    );
    fx.server.shutdown().await;
}

/// An executor that finds its lease gone in the middle of a drain (another took it over
/// while a slow eviction call ran) writes nothing more: the outcomes it still has go to
/// the journal under its old fencing token and are refused, never written unfenced.
async fn writes_after_losing_the_lease_mid_drain_are_refused(backend: Backend) {
    let fx = fixture(backend).await;
    let client = fx.client("small-02");
    let node = node_names(&client, 1).await.remove(0);
    // Two more pods on the node, so that the eviction loop looks at its lease again.
    let pods: Api<Pod> = Api::namespaced(client.clone(), "default");
    for name in ["slow-1", "slow-2"] {
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "busybox"}]}
        }))
        .unwrap();
        pods.create(&Default::default(), &pod).await.unwrap();
    }
    let run = fx.start(&spec("small-02", &node, "60s")).await;
    // Every call to the cluster now takes longer than the lease lives.
    fx.sim
        .update_faults("small-02", |f| f.latency_ms = 1500)
        .unwrap();
    let mut first = fx.executor_with("executor-a", |options| {
        options.lease_ttl = Duration::from_secs(1);
    });
    let mut second = fx.executor("executor-b");
    let take_over = async {
        // Wait for the drain to begin, then take the lease as soon as it expires.
        let deadline = Instant::now() + Duration::from_secs(60);
        while count_intents(&fx.events(&run), "evict") == 0 {
            assert!(Instant::now() < deadline, "the drain never began");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        while !second.hold_lease().unwrap() {
            assert!(Instant::now() < deadline, "the lease never expired");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let (outcome, ()) = tokio::join!(first.pass(), take_over);
    let error = outcome.expect_err("the old executor's last writes were refused");
    assert!(
        error.to_string().to_lowercase().contains("stale"),
        "{error}"
    );
    // Nothing the old executor wrote landed after the new one took the lease.
    let events = fx.events(&run);
    let store = fx.journal.open();
    let taken = store
        .query(&EventQuery::default())
        .unwrap()
        .into_iter()
        .filter(|e| matches!(e.event.body, EventBody::LeaseAcquired { .. }))
        .map(|e| e.seq)
        .max()
        .unwrap();
    assert!(
        events
            .iter()
            .filter(|e| e.seq > taken)
            .all(|e| e.event.actor.0 != "executor-a"),
        "{:#?}",
        events
            .iter()
            .map(|e| (e.seq, e.event.actor.0.clone(), e.event.key.0.clone()))
            .collect::<Vec<_>>()
    );
    fx.server.shutdown().await;
}

/// Nodes without the failure-domain label are in the domain `""`, as the guard counts
/// them: a pause of that domain holds their maintenance.
async fn a_pause_of_the_unlabelled_domain_holds_unlabelled_nodes(backend: Backend) {
    let fx = fixture(backend).await;
    let node = node_names(&fx.client("small-02"), 1).await.remove(0);
    let cluster = fleetdeck::model::ledger::ClusterId("small-02".into());
    let unlabelled = PauseScope::FailureDomain {
        cluster,
        domain: String::new(),
    };
    fx.switch(EventBody::Paused {
        scope: unlabelled.clone(),
        reason: "suspect shared dependency: 3 of 9 unlabelled nodes".into(),
    });
    let yaml = spec("small-02", &node, "60s").replace(
        "failureDomainLabel: topology.kubernetes.io/zone",
        "failureDomainLabel: example.com/no-such-label",
    );
    let run = fx.start(&yaml).await;
    let started = |fx: &Fixture| {
        fx.events(&run)
            .iter()
            .any(|e| matches!(e.event.body, EventBody::StepStatusChanged { .. }))
    };
    let mut executor = fx.executor("executor-a");
    for _ in 0..10 {
        executor.pass().await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !started(&fx),
        "an unlabelled node went ahead under the pause"
    );
    fx.switch(EventBody::Resumed {
        scope: unlabelled,
        note: "checked".into(),
    });
    drive_until(&mut executor, &fx, &run, started, 30).await;
    fx.server.shutdown().await;
}

/// A cluster that nothing recent is known about gets no change, even with its identity
/// confirmed: its fleet-view data is stale, so whatever was decided on it may be wrong.
async fn no_change_to_a_cluster_nothing_recent_is_known_about(backend: Backend) {
    use fleetdeck::k8s::kube_port::PortError;
    use fleetdeck::model::live::ClusterStatus;
    use fleetdeck::model::maintenance::MaintenancePort;
    let fx = fixture(backend).await;
    let node = node_names(&fx.client("small-02"), 1).await.remove(0);
    let stale = view_with(&fx, "small-02", |c| c.status = ClusterStatus::Unknown);
    let (_keep, view) = tokio::sync::watch::channel(stale);
    let port = KubePort::new(fx.clients.clone(), view, "executor-a".into());
    let cluster = fleetdeck::model::ledger::ClusterId("small-02".into());
    let refused = port
        .set_unschedulable(
            &cluster,
            &fleetdeck::model::run::NodeName::from(node.clone()),
            true,
        )
        .await;
    assert!(
        matches!(&refused, Err(PortError::Refused { reason, .. }) if reason.contains("UNKNOWN")),
        "{refused:?}"
    );
    assert!(port.change_refused(&cluster).is_some());
    let live = Api::<Node>::all(fx.client("small-02"))
        .get(&node)
        .await
        .unwrap();
    assert_ne!(live.spec.and_then(|s| s.unschedulable), Some(true));
    fx.server.shutdown().await;
}

/// Every time the executor journals comes from the clock in its settings: an executor
/// running three days behind writes its intents three days back, whatever the system
/// clock says.
async fn the_executor_journals_the_time_of_its_own_clock(backend: Backend) {
    let fx = fixture(backend).await;
    let names = node_names(&fx.client("small-02"), 1).await;
    let run = fx.start(&spec("small-02", &names[0], "60s")).await;
    let behind = jiff::SignedDuration::from_hours(72);
    let mut executor = fx.executor_with("executor-a", |options| {
        options.clock = Clock::from_fn(move || jiff::Timestamp::now() - behind);
    });
    drive_until(
        &mut executor,
        &fx,
        &run,
        |fx| count_intents(&fx.events(&run), "cordon") > 0,
        60,
    )
    .await;
    let long_ago = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(48);
    let intents: Vec<_> = fx
        .events(&run)
        .into_iter()
        .filter(|e| matches!(e.event.body, EventBody::Intent { .. }))
        .collect();
    assert!(!intents.is_empty());
    for intent in &intents {
        assert!(
            intent.event.time < long_ago,
            "{} written at {}, not by the executor's clock",
            intent.event.key,
            intent.event.time
        );
    }
    fx.server.shutdown().await;
}

on_both_backends_async!(
    two_executors_under_one_actor_name_never_both_hold_the_lease,
    a_failed_node_keeps_the_next_batch_from_starting,
    no_cordon_or_eviction_once_the_cluster_is_not_the_one_pinned,
    a_pause_written_while_a_hook_runs_holds_the_rest_of_the_batch,
    full_cycle_on_a_node,
    a_node_event_the_cluster_refuses_is_journaled_and_told,
    a_budget_that_would_refuse_keeps_the_node_uncordoned_at_precheck,
    pdb_blocked_drain_is_stuck_handed_off_and_retried,
    pause_stops_new_steps,
    mass_failure_guard_pauses_the_failed_zone_only,
    guard_without_a_run_groups_nodes_by_the_configured_label,
    precheck_leaves_out_nodes_another_run_holds,
    a_cluster_that_may_not_be_changed_gets_no_intent_at_all,
    writes_after_losing_the_lease_mid_drain_are_refused,
    a_pause_of_the_unlabelled_domain_holds_unlabelled_nodes,
    no_change_to_a_cluster_nothing_recent_is_known_about,
    the_executor_journals_the_time_of_its_own_clock,
);
