//! `fleetdeck handover` and the maintenance hand-off commands on a journal written here:
//! a drain stuck on a PDB, handed off with the CLI, listed in the Markdown report; and
//! `fleetdeck handover` against simulated fleets over HTTP: the console's sources (flags,
//! environment, config.toml), the clusters' problems, what the journal says was left
//! behind judged against the live cluster, and what could not be checked.

use crate::support;
use crate::support::cli::{command, fleetdeck, text};

use std::path::Path;

use crate::support::backend::{Backend, TestJournal};
use fleetdeck::journal::JournalStore;
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, StepName, StepStatus,
};
use jiff::Timestamp;

/// The journal where the CLI keeps it by default (`data/journal.sqlite`), or a database.
pub(crate) fn test_journal(backend: Backend, dir: &Path) -> TestJournal {
    TestJournal::new(backend, &dir.join("data"))
}

/// `fleetdeck ARGS` as `actor` on `journal`.
pub(crate) fn as_on(
    journal: &TestJournal,
    actor: &str,
    args: &[&str],
    dir: &Path,
) -> std::process::Output {
    let mut all = journal.flags(actor);
    all.extend(args.iter().map(|a| a.to_string()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    fleetdeck(&all, dir)
}

/// A maintenance whose drain of n1 is stuck on a PDB, as the executor records it.
pub(crate) fn stuck_drain(journal: &TestJournal) {
    let run = RunId("mnt-reboot-1".into());
    let cluster = ClusterId("prod-use1-01".into());
    let now = Timestamp::now();
    journal
        .open_as("alice@ops")
        .append(
            NewEvent::new(
                now,
                Actor("alice@ops".into()),
                IdempotencyKey("mnt-reboot-1/planned".into()),
                EventBody::RunPlanned {
                    title: "maintenance reboot on prod-use1-01".into(),
                    items: vec!["n1".into()],
                    batches: vec![vec!["n1".into()]],
                    spec: serde_json::Value::Null,
                },
            )
            .with_run(run.clone())
            .with_cluster(cluster.clone()),
            None,
        )
        .expect("planned");
    journal.append_as_executor(
        "executor/e1",
        vec![
            NewEvent::new(
                now,
                Actor("executor/e1".into()),
                IdempotencyKey("mnt-reboot-1/n1/Drain/status#1".into()),
                EventBody::StepStatusChanged {
                    status: StepStatus::Blocked {
                        reason:
                            "PDB checkout-blocking needs 3 healthy pods and has 3 (shop/checkout-0)"
                                .into(),
                    },
                },
            )
            .with_run(run)
            .with_item(ItemId("n1".into()))
            .with_step(StepName("Drain".into()))
            .with_cluster(cluster),
        ],
    );
}

fn a_handed_off_stuck_drain_is_in_the_markdown_handover(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let journal = test_journal(backend, dir.path());
    stuck_drain(&journal);
    let out = as_on(
        &journal,
        "carol@ops",
        &["handover", "-o", "markdown"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let report = text(&out);
    assert!(report.contains("## Stuck steps"), "{report}");
    assert!(
        report.contains("why: PDB checkout-blocking needs 3 healthy pods and has 3"),
        "{report}"
    );
    assert!(
        report.contains(
            "## Not checked\n\n- ledger not read (no ledger configured: pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in "
        ),
        "says plainly what it could not check and why: {report}"
    );
    assert!(
        report.contains("clusters Unreachable, IdentityMismatch, UNKNOWN or not whole, findings new or worse this shift and expiring exceptions are unknown"),
        "{report}"
    );

    let refused = as_on(
        &journal,
        "bob@ops",
        &[
            "--readonly",
            "maintenance",
            "handoff",
            "mnt-reboot-1",
            "--node",
            "n1",
            "--to",
            "dana@ops",
            "--note",
            "x",
        ],
        dir.path(),
    );
    assert!(!refused.status.success() && text(&refused).contains("read-only"));

    let out = as_on(
        &journal,
        "bob@ops",
        &[
            "maintenance",
            "handoff",
            "mnt-reboot-1",
            "--node",
            "n1",
            "--to",
            "dana@ops",
            "--note",
            "checkout owners paged",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = as_on(
        &journal,
        "carol@ops",
        &["handover", "--since", "8h", "-o", "markdown"],
        dir.path(),
    );
    let report = text(&out);
    assert!(report.contains("## Handed-off steps"), "{report}");
    assert!(report.contains("owner: dana@ops"), "{report}");
    assert!(report.contains("note: checkout owners paged"), "{report}");
    assert!(report.contains("handed off by bob@ops"), "{report}");

    let out = as_on(
        &journal,
        "carol@ops",
        &["handover", "-o", "json"],
        dir.path(),
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let items = &report["items"];
    assert_eq!(items[0]["section"], "handedOff");
    assert_eq!(items[0]["subject"]["item"], "n1");
    assert_eq!(items[0]["check"]["result"], "current");
    assert_eq!(
        report["notChecked"].as_array().map(Vec::len),
        Some(1),
        "camelCase, and no ledger said once: {report:#}"
    );
}

/// Serves `fleet` on loopback for the test's length and writes its ledger and kubeconfig
/// into `dir`, as `fleetdeck demo --dir` does.
fn serve(
    fleet: &fleetdeck::sim::SimFleet,
    dir: &Path,
) -> (tokio::runtime::Runtime, fleetdeck::sim::SimServer) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let server = runtime.block_on(async {
        let (addr, server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0)
            .await
            .expect("serve");
        fleetdeck::sim::write_kubeconfig(fleet, &dir.join("kubeconfig"), addr).expect("kubeconfig");
        fleetdeck::sim::write_ledger(fleet, &dir.join("ledger.yaml"), addr).expect("ledger");
        server
    });
    (runtime, server)
}

/// `fleetdeck handover -o json` as run by `prepare`d command: the parsed report.
fn report(
    args: &[&str],
    dir: &Path,
    prepare: impl FnOnce(&mut std::process::Command),
) -> serde_json::Value {
    let mut all = vec!["handover", "-o", "json", "--wait-synced", "30s"];
    all.extend_from_slice(args);
    let mut cmd = command(&all, dir);
    prepare(&mut cmd);
    let out = cmd.output().expect("the binary runs");
    assert!(out.status.success(), "{}", text(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)))
}

fn titles(report: &serde_json::Value) -> Vec<String> {
    report["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The demo fleet's trouble, from whichever place the console would take its ledger and
/// kubeconfig: config.toml (as `fleetdeck demo --dir` writes it), flags, environment.
#[test]
fn the_cli_reads_the_consoles_sources_and_lists_the_demo_fleets_cluster_problems() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = fleetdeck::sim::SimFleet::load("demo", 1, 1.0).expect("demo scenario");
    let (_runtime, _server) = serve(&fleet, dir.path());
    let ledger = dir.path().join("ledger.yaml");
    let kubeconfig = dir.path().join("kubeconfig");

    // Nothing named: it says so, and why, instead of an empty fleet.
    let bare = report(&[], dir.path(), |_| {});
    assert!(
        bare["items"].as_array().is_some_and(Vec::is_empty),
        "{bare:#}"
    );
    let not_checked = bare["notChecked"].to_string();
    assert!(
        not_checked.contains("ledger not read (no ledger configured"),
        "{not_checked}"
    );

    std::fs::write(
        dir.path().join("config.toml"),
        format!(
            "ledger = {:?}\nkubeconfig = {:?}\n",
            ledger.display().to_string(),
            kubeconfig.display().to_string()
        ),
    )
    .unwrap();
    let from_config = report(&[], dir.path(), |_| {});
    // In the ledger's order within a section, as the console lists them.
    let expected = [
        "prod-use1-04 is IdentityMismatch",
        "prod-apse1-03 is Unreachable",
        "prod-euw1-02: 3 of 8 nodes not ready",
        // The demo's staging cluster with a zone down (where its pilot halts).
        "stg-euw1-02: 1 of 5 nodes not ready",
    ];
    assert_eq!(titles(&from_config), expected, "{from_config:#}");
    // Everything was checked; only findings whose start their facts do not tell (our
    // requests' priority level, facts not read) cannot be called new or old.
    let not_checked = from_config["notChecked"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        not_checked.iter().all(|line| line
            .as_str()
            .is_some_and(|l| l.contains("findings whose start is not known"))),
        "{from_config:#}"
    );
    assert_eq!(from_config["items"][0]["section"], "clusters");
    assert_eq!(
        from_config["items"][2]["extent"][0],
        serde_json::json!({"what": "nodes not ready", "amount": 3, "says": "3 of 8 nodes not ready"})
    );
    std::fs::remove_file(dir.path().join("config.toml")).unwrap();

    let ledger = ledger.to_str().unwrap();
    let kubeconfig = kubeconfig.to_str().unwrap();
    let from_flags = report(
        &["--ledger", ledger, "--kubeconfig", kubeconfig],
        dir.path(),
        |_| {},
    );
    assert_eq!(titles(&from_flags), expected);
    let from_env = report(&[], dir.path(), |cmd| {
        cmd.env("FLEETDECK_LEDGER", ledger)
            .env("KUBECONFIG", kubeconfig);
    });
    assert_eq!(titles(&from_env), expected);

    // A kubeconfig that cannot be read: every cluster is Unreachable, as in the console,
    // and the report says why.
    let lost = report(
        &[
            "--ledger",
            ledger,
            "--kubeconfig",
            "/nonexistent/kubeconfig",
        ],
        dir.path(),
        |_| {},
    );
    let unreachable = titles(&lost)
        .iter()
        .filter(|t| t.ends_with(" is Unreachable"))
        .count();
    assert_eq!(unreachable, 39, "every ledger cluster: {lost:#}");
    assert!(
        lost["notChecked"]
            .to_string()
            .contains("kubeconfig not read ("),
        "{lost:#}"
    );
}

/// A maintenance run that cordoned `node` of `cluster` and was aborted mid-drain, as the
/// executor and an operator journal it.
fn aborted_mid_drain(journal: &TestJournal, cluster: &str, node: &str) {
    let run = RunId("mnt-reboot-1".into());
    let now = Timestamp::now();
    let event = |key: &str, actor: &str, body: EventBody| {
        NewEvent::new(now, Actor(actor.into()), IdempotencyKey(key.into()), body)
            .with_run(run.clone())
            .with_cluster(ClusterId(cluster.into()))
    };
    journal
        .open_as("alice@ops")
        .append(
            event(
                "cmd/plan",
                "alice@ops",
                EventBody::RunPlanned {
                    title: format!("maintenance reboot on {cluster}"),
                    items: vec![node.into()],
                    batches: vec![vec![node.into()]],
                    spec: serde_json::Value::Null,
                },
            ),
            None,
        )
        .expect("planned");
    let statuses = [
        ("Precheck", StepStatus::Succeeded),
        ("Cordon", StepStatus::Succeeded),
        ("Drain", StepStatus::Running),
    ]
    .into_iter()
    .map(|(step, status)| {
        event(
            &format!("mnt-reboot-1/{node}/{step}/status#1"),
            "executor/e1",
            EventBody::StepStatusChanged { status },
        )
        .with_item(ItemId(node.into()))
        .with_step(StepName(step.into()))
    })
    .collect();
    journal.append_as_executor("executor/e1", statuses);
    journal
        .open_as("bob@ops")
        .append(
            event(
                "cmd/abort",
                "bob@ops",
                EventBody::Aborted {
                    note: "wrong firmware".into(),
                },
            ),
            None,
        )
        .expect("aborted");
}

fn left_mid_change(report: &serde_json::Value) -> Vec<&serde_json::Value> {
    report["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|i| i["section"] == "leftMidChange")
        .collect()
}

/// The journal says a node was left cordoned; the handover asks the cluster.
fn a_node_left_cordoned_is_judged_against_the_live_cluster(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let journal = test_journal(backend, dir.path());
    let fleet = fleetdeck::sim::SimFleet::load("small", 7, 1.0).expect("small scenario");
    let (runtime, _server) = serve(&fleet, dir.path());
    let kubeconfig = dir.path().join("kubeconfig");
    let client = runtime.block_on(support::sim::tcp_client(&kubeconfig, "small-01"));
    let nodes = kube::Api::<k8s_openapi::api::core::v1::Node>::all(client);
    let node = runtime
        .block_on(nodes.list(&kube::api::ListParams::default()))
        .expect("nodes")
        .items[0]
        .metadata
        .name
        .clone()
        .expect("a name");
    aborted_mid_drain(&journal, "small-01", &node);
    let mut flags = journal.flags("carol@ops");
    flags.extend(["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"].map(String::from));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();

    // The cluster reports the node schedulable: someone uncordoned it since.
    let r = report(&flags, dir.path(), |_| {});
    assert!(left_mid_change(&r).is_empty(), "{r:#}");
    assert_eq!(
        r["settled"][0]["how"],
        format!("small-01 reports {node} schedulable: it was uncordoned since"),
        "{r:#}"
    );

    // Cordoned for real: it stands, and says how that was seen.
    let cordon = serde_json::json!({"spec": {"unschedulable": true}});
    runtime
        .block_on(nodes.patch(
            &node,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&cordon),
        ))
        .expect("cordoned");
    let r = report(&flags, dir.path(), |_| {});
    let left = left_mid_change(&r);
    assert_eq!(left.len(), 1, "{r:#}");
    assert_eq!(
        left[0]["title"],
        format!("{node} in mnt-reboot-1 left cordoned")
    );
    assert_eq!(
        left[0]["check"],
        serde_json::json!({"result": "confirmed", "says": format!("small-01 reports {node} still cordoned")})
    );

    // The cluster out of reach: it stands, not checked, and why.
    fleet
        .update_faults("small-01", |f| {
            f.unreachable = Some(fleetdeck::sim::Unreachable::Refused)
        })
        .expect("faults");
    let r = report(&flags, dir.path(), |_| {});
    let left = left_mid_change(&r);
    assert_eq!(left.len(), 1, "{r:#}");
    assert_eq!(left[0]["check"]["result"], "notChecked");
    let why = left[0]["check"]["says"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("small-01 is Unreachable: ") && why.ends_with(": its nodes cannot be seen"),
        "{why}"
    );
    assert!(
        titles(&r).contains(&"small-01 is Unreachable".to_string()),
        "{r:#}"
    );
}

on_both_backends!(
    a_handed_off_stuck_drain_is_in_the_markdown_handover,
    a_node_left_cordoned_is_judged_against_the_live_cluster,
);
