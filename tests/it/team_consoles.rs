//! Team mode end to end, the real binary in tmux: two operators, `op_a` and `op_b`, each
//! at a console of their own (as on two laptops) on one PostgreSQL journal, a viewer
//! `view_c` watching, and an executor. Each console says who it is as the database sees
//! it and who else is connected; `op_a` starts a rollout that needs a distinct approver,
//! `op_b` approves it from the second console and `op_a`'s console shows the approval
//! within a second; the viewer's approve key is explained, not sent. Then `op_b` hands off a
//! maintenance stuck on a PDB with a note (stuck before the drain: the PDB would refuse its
//! evictions, so the node is not cordoned), and `op_a`'s handover walkthrough and
//! `fleetdeck handover -o markdown` list it with `op_b` as the one who handed it off.

use std::path::Path;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::support;
use crate::support::backend::{Backend, TestJournal};
use crate::support::tmux::{Tmux, require_tmux};
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::run::EventBody;

const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-team-1
  bundle: {cni: cilium-1.17.2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: "id=small-stg-01"
stages:
  - {name: canary, batchSize: 1, soak: 1s, approval: required, pick: ordered}
budgets: {maxInFlight: 1}
stopWhen:
  failedClusters: 1
approvals:
  distinctApprover: true
"#;

const MANIFESTS: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: cni-settings
  namespace: kube-system
data:
  version: cilium-1.17.2
"#;

/// `fleetdeck ARGS` as `who` on the workspace's ledger, kubeconfig and journal.
fn cli(dir: &Path, journal: &TestJournal, who: &str, args: &[&str]) -> String {
    let mut all: Vec<String> = ["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"]
        .map(String::from)
        .to_vec();
    all.extend(journal.flags(who));
    all.extend(args.iter().map(|a| a.to_string()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = support::cli::fleetdeck(&all, dir);
    let text = support::cli::text(&out);
    assert!(out.status.success(), "{args:?}: {text}");
    text
}

/// A console as `who` on the workspace's fleet and journal.
fn console(test: &str, dir: &Path, journal: &TestJournal, who: &str) -> Tmux {
    let ledger = dir.join("ledger.yaml");
    let kubeconfig = dir.join("kubeconfig");
    let url = journal.target_for(who);
    Tmux::start(
        test,
        &[
            "--ledger",
            ledger.to_str().expect("utf-8"),
            "--kubeconfig",
            kubeconfig.to_str().expect("utf-8"),
            "--journal",
            &url,
        ],
        &[],
    )
}

/// A node of small-01 hosting a `checkout` pod, whose PDB refuses every eviction.
fn blocked_node(runtime: &tokio::runtime::Runtime, fleet: &fleetdeck::sim::SimFleet) -> String {
    use k8s_openapi::api::core::v1::Pod;
    let _inside = runtime.enter();
    let client = fleet.client("small-01").expect("client");
    let pods = runtime
        .block_on(kube::Api::<Pod>::all(client).list(&Default::default()))
        .expect("pods");
    let mut nodes: Vec<String> = pods
        .items
        .iter()
        .filter(|p| {
            p.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with("checkout"))
        })
        .filter_map(|p| p.spec.as_ref()?.node_name.clone())
        .collect();
    nodes.sort();
    nodes
        .into_iter()
        .next()
        .expect("a node with a checkout pod")
}

#[test]
fn two_operators_at_two_consoles_share_one_journal() {
    require_tmux();
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let fleet = fleetdeck::sim::SimFleet::load("small", 3, 1.0).expect("scenario");
    let (addr, _server) = runtime
        .block_on(fleetdeck::sim::start_on_loopback(fleet.clone(), 0))
        .expect("simulator");
    fleetdeck::sim::write_kubeconfig(&fleet, &path.join("kubeconfig"), addr).expect("kubeconfig");
    fleetdeck::sim::write_ledger(&fleet, &path.join("ledger.yaml"), addr).expect("ledger");
    std::fs::create_dir_all(path.join("manifests")).expect("mkdir");
    std::fs::write(path.join("manifests/cni.yaml"), MANIFESTS).expect("manifests");
    std::fs::write(path.join("rollout.yaml"), ROLLOUT).expect("rollout");
    let node = blocked_node(&runtime, &fleet);
    std::fs::write(
        path.join("drain.yaml"),
        format!(
            "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: kernel\ncluster: small-01\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n  failureDomainLabel: topology.kubernetes.io/zone\ndeadlines:\n  precheck: 5s\n  drain: 5s\n  verifyNode: 60s\n  verifyWorkloads: 60s\ndrain:\n  gracePeriod: 1s\n  evictionRetry: 1s\n"
        ),
    )
    .expect("maintenance");
    let journal = TestJournal::new(Backend::Postgres, path);

    // op_a starts the rollout (a distinct approver needed) and the maintenance; an
    // executor carries them out.
    cli(
        path,
        &journal,
        "op_a",
        &["rollout", "start", "rollout.yaml"],
    );
    cli(
        path,
        &journal,
        "op_a",
        &["maintenance", "start", "drain.yaml"],
    );
    let _executor = support::executor::Executor::spawn(path, &journal, "exec-team", &[]);

    let a = console("team-a", path, &journal, "op_a");
    let b = console("team-b", path, &journal, "op_b");
    // Each says who it is to the database, and sees the other.
    a.wait_for("op_a (operator+approver)", 60);
    b.wait_for("op_b (operator+approver)", 60);
    let header = a.wait_for("op_b (operator+approver)", 20);
    assert!(header.contains("exec-team (executor)"), "{header}");

    // op_b approves from the second console; op_a's timeline shows it within a second.
    a.send(&["5"]);
    b.send(&["3"]);
    b.wait_for("awaiting-approval", 60);
    b.send(&["a"]);
    b.wait_for("approve batch", 10);
    b.send(&["Enter"]);
    b.wait_for("This will:", 5);
    b.send(&["Enter"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let seen = loop {
        let screen = a.capture();
        if screen.contains("approved batch 1") {
            break jiff::Timestamp::now();
        }
        assert!(
            Instant::now() < deadline,
            "op_a's console never showed the approval:\n{screen}"
        );
        sleep(Duration::from_millis(20));
    };
    let events = journal
        .open()
        .query(&EventQuery {
            kinds: vec!["run.approved".into()],
            ..EventQuery::default()
        })
        .expect("events");
    let approval = events.first().expect("the approval is journaled");
    assert_eq!(approval.event.actor.0, "op_b");
    let latency = seen.duration_since(approval.event.time);
    assert!(
        latency < jiff::SignedDuration::from_secs(1),
        "op_b's approval reached op_a's screen {latency} after op_b sent it"
    );
    b.wait_for("approve recorded by op_b", 5);

    // The viewer watches; its approve key is explained, and nothing is written.
    let c = console("team-c", path, &journal, "view_c");
    c.wait_for("view_c (viewer)", 60);
    c.send(&["3"]);
    c.wait_for("cni-team-1", 20);
    c.send(&["a"]);
    let screen = c.wait_for("needs fleetdeck_approver", 5);
    assert!(screen.contains("you are view_c (viewer)"), "{screen}");

    // op_b hands the stuck step off with a note.
    b.send(&["4"]);
    b.wait_for("STUCK", 90);
    b.send(&["h"]);
    b.wait_for(&format!("hand off {node}"), 5);
    b.send_text("dana@ops");
    b.send(&["Enter"]);
    b.send_text("checkout PDB blocks the drain; owners paged");
    b.send(&["Enter"]);
    b.wait_for("This will:", 5);
    b.send(&["Enter"]);
    b.wait_for("handoff recorded by op_b", 10);

    // op_a's walkthrough and Markdown report name op_b as the one who handed it off.
    a.send(&["4"]);
    a.wait_for("→dana@ops", 10);
    a.send(&["H"]);
    a.wait_for("shift handover", 10);
    for _ in 0..6 {
        if a.capture().contains("handed off by op_b") {
            break;
        }
        a.send(&["Right"]);
        sleep(Duration::from_millis(300));
    }
    let screen = a.wait_for("handed off by op_b", 5);
    assert!(
        screen.contains("note: checkout PDB blocks the drain; owners paged"),
        "{screen}"
    );
    let markdown = cli(
        path,
        &journal,
        "op_a",
        &["handover", "--wait-synced", "0s", "-o", "markdown"],
    );
    assert!(markdown.contains("## Handed-off steps"), "{markdown}");
    assert!(markdown.contains("handed off by op_b"), "{markdown}");
    assert!(
        markdown.contains("note: checkout PDB blocks the drain; owners paged"),
        "{markdown}"
    );
    let handoff = journal
        .open()
        .query(&EventQuery {
            kinds: vec!["operator.handoff".into()],
            ..EventQuery::default()
        })
        .expect("events");
    assert!(
        matches!(handoff.as_slice(), [e] if e.event.actor.0 == "op_b" && matches!(&e.event.body, EventBody::HandedOff { .. })),
        "{handoff:?}"
    );
}
