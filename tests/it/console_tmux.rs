//! End-to-end: the real `fleetdeck` binary in a detached tmux session (200×60), driven
//! with `send-keys` and read with `capture-pane`. Checks what a person would see, and
//! that the terminal is given back (alternate screen off) after quitting.
//!
//! `demo_walkthrough` drives `fleetdeck demo --seed 1` through every screen.
//!
//! Over 600 lines: every end-to-end run of the real binary in tmux shares the session
//! helpers and the demo set-up here; each walkthrough is long because it is a person's
//! whole story.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::support;
use crate::support::tmux::{Tmux, require_tmux};

fn example_ledger() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ledger.yaml")
}

#[test]
fn without_a_ledger_it_says_how_to_start_the_demo() {
    require_tmux();
    let t = Tmux::start("noledger", &[], &[]);
    let screen = t.wait_for("exit=", 20);
    assert!(screen.contains("fleetdeck demo --seed 1"), "{screen}");
    assert!(screen.contains("exit=2"), "{screen}");
    assert!(!t.alternate_screen_on());
}

#[test]
fn console_on_a_ledger_navigates_and_restores_the_terminal() {
    require_tmux();
    let ledger = example_ledger();
    let t = Tmux::start(
        "ledger",
        &["--ledger", ledger.to_str().unwrap(), "--as", "tester@e2e"],
        &[],
    );
    let screen = t.wait_for("CLUSTER", 30);
    assert!(
        t.alternate_screen_on(),
        "the console draws on the alternate screen"
    );
    assert!(screen.contains("tester@e2e"), "{screen}");
    assert!(
        screen.contains("no kubeconfig found") && screen.contains("Unreachable"),
        "says why no cluster can be reached:\n{screen}"
    );
    assert!(
        screen.contains("AUTOMATION RUNNING"),
        "the journal feeds the header: {screen}"
    );
    assert!(!screen.contains("Synced"), "no invented status:\n{screen}");
    assert!(screen.contains("14 of 14 clusters"), "{screen}");

    // Filter with fuzzy text and a label.
    t.send(&["/"]);
    t.send_text("env=production");
    t.send(&["Enter"]);
    let screen = t.wait_for("filter: env=production", 5);
    assert!(!screen.contains("14 of 14 clusters"), "{screen}");

    // Open the selected cluster, then back.
    t.send(&["Enter"]);
    t.wait_for("ledger › cluster ", 5);
    t.send(&["Escape"]);
    t.wait_for("<enter> open", 5);

    // Capacity screen, palette back to the ledger, help, quit.
    t.send(&["2"]);
    t.wait_for("ledger › capacity", 5);
    t.send(&[":"]);
    t.send_text("ledger");
    t.send(&["Enter"]);
    t.wait_for("clusters · sort", 5);
    t.send(&["?"]);
    t.wait_for("Quit fleetdeck", 5);
    t.send(&["Escape", "q"]);
    let screen = t.wait_for("exit=", 10);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on(), "terminal restored");
    assert!(
        !screen.contains("╭ ledger"),
        "console gone from the screen:\n{screen}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    require_tmux();
    let ledger = example_ledger();
    let actor = format!("sigterm-{}@e2e", std::process::id());
    let t = Tmux::start(
        "sigterm",
        &["--ledger", ledger.to_str().unwrap(), "--as", &actor],
        &[],
    );
    t.wait_for("CLUSTER", 30);
    let out = Command::new("pgrep")
        .args(["-f", "--", &format!("--as {actor}")])
        .output();
    let Ok(out) = out else { return };
    for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
        let _ = Command::new("kill").args(["-TERM", pid]).status();
    }
    let screen = t.wait_for("exit=", 10);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}

/// The walkthrough on the demo fleet: every screen, a filter, a cluster, a
/// what-if, quit.
#[test]
fn demo_walkthrough() {
    let t = Tmux::start("demo", &["demo", "--seed", "1"], &[]);
    t.wait_for("Synced", 60);
    t.send(&["/"]);
    t.send_text("gpu-prod-use1-01");
    t.send(&["Enter"]);
    t.wait_for("filter: gpu-prod-use1-01", 5);
    t.send(&["Enter"]);
    t.wait_for("ledger › cluster ", 5);
    t.send(&["c"]);
    t.wait_for("What limits headroom", 10);
    t.send(&["w"]);
    t.wait_for("What-if:", 10);
    t.send(&["2"]);
    t.wait_for("Fleet ·", 5);
    // The Findings screen: the fleet's findings, worst first, with the selected one's
    // evidence and how to clear it.
    t.send(&["6"]);
    t.wait_for("ledger › findings", 5);
    let screen = t.wait_for("to clear it:", 30);
    assert!(screen.contains("SEVERITY"), "{screen}");
    t.send(&["1", "?"]);
    t.wait_for("Quit fleetdeck", 5);
    t.send(&["Escape", "q"]);
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}

/// `fleetdeck demo --scenario findings`: the Findings screen lists the scenario's
/// findings from the live facts and the ledger (rules 1–6; windows and burn rates need a
/// rollout running, which `tests/findings_e2e.rs` drives).
#[test]
fn the_findings_demo_lists_a_finding_of_each_rule() {
    let t = Tmux::start(
        "demo-findings",
        &["demo", "--scenario", "findings", "--seed", "1"],
        &[],
    );
    t.wait_for("Synced", 60);
    t.send(&["6"]);
    t.wait_for("ledger › findings", 5);
    // Facts are read once the first lists are done.
    let screen = t.wait_for("gitOpsSuspended", 60);
    for rule in [
        "certificateExpiry",
        "webhookFailClosed",
        "apfCatchAll",
        "healthCheckFailing",
        "restoreDrillStale",
        "gitOpsOutOfSync",
    ] {
        assert!(screen.contains(rule), "{rule}: {screen}");
    }
    t.send(&["q"]);
    t.wait_for("exit=", 15);
}

/// Runs `fleetdeck ARGS` to completion and returns its stdout.
/// `fleetdeck ARGS` (paths in ARGS absolute), kept away from the user's own settings;
/// its standard output.
fn fleetdeck(args: &[&str]) -> String {
    let home = tempfile::tempdir().expect("tempdir");
    let out = support::cli::fleetdeck(args, home.path());
    assert!(
        out.status.success(),
        "fleetdeck {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The journal's events as JSON values.
pub(crate) fn journal_events(journal: &str) -> Vec<serde_json::Value> {
    let text = fleetdeck(&["--journal", journal, "journal", "-o", "json"]);
    serde_json::from_str(&text).expect("journal -o json parses")
}

/// Waits until Prometheus at `url` answers the default error-ratio query of the rollout
/// gates for `cluster` over `window`.
fn wait_for_error_ratio(url: &str, cluster: &str, window: &str) {
    let query = fleetdeck::k8s::rollout_kube::DEFAULT_ERROR_RATIO_QUERY
        .replace("$cluster", cluster)
        .replace("$window", window);
    let prometheus = fleetdeck::hooks::prometheus::Prometheus::new(url);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let answer = runtime.block_on(prometheus.query(&query));
        if answer.is_ok() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "Prometheus at {url} has no error ratio for {cluster}: {answer:?}"
        );
        sleep(Duration::from_millis(250));
    }
}

/// Whether `value` holds a node state checkpointed while paused (`pausedSince` set).
fn has_paused_since(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(map) => map
            .iter()
            .any(|(k, v)| (k == "pausedSince" && !v.is_null()) || has_paused_since(v)),
        serde_json::Value::Array(items) => items.iter().any(has_paused_since),
        _ => false,
    }
}

/// The operator walkthrough on `fleetdeck demo --seed 1`: a global pause stops
/// new steps (the journal shows none started while paused), a maintenance started from
/// the drill-down on a node that hosts a checkout pod waits at its precheck on the
/// `checkout-blocking` PDB (never cordoned), it is handed off with a note, the handover walkthrough and
/// `fleetdeck handover -o markdown` list it with the note; the demo rollout's canary batch
/// is approved and executes (applied after the approval, verified, soaked); then a read-only console
/// refuses an approve and a hand-off and says why. Sequential in one test so that only
/// one demo fleet runs at a time here.
#[test]
fn demo_operator_actions() {
    require_tmux();
    let dir = tempfile::tempdir().expect("demo dir");
    let dir_s = dir.path().to_str().expect("utf-8 path").to_owned();
    let journal = format!("{dir_s}/journal.sqlite");
    let t = Tmux::start(
        "operator",
        &["--as", "tester@e2e", "demo", "--seed", "1", "--dir", &dir_s],
        &[],
    );
    t.wait_for("Synced", 60);

    // Global pause with a reason: the banner shows everywhere.
    t.send(&["P"]);
    t.wait_for("pause all automation", 5);
    t.send_text("e2e: hold everything");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("ALL AUTOMATION PAUSED by tester@e2e", 10);

    // prod-use1-01-n000 hosts a pod of the checkout deployment, whose PDB
    // (checkout-blocking, maxUnavailable 0) refuses every eviction (scenarios/demo.yaml;
    // placement is fixed by the seed).
    t.send(&[":"]);
    t.send_text("cluster prod-use1-01");
    t.send(&["Enter"]);
    t.wait_for("ledger › cluster prod-use1-01", 10);
    t.send(&["/"]);
    t.send_text("prod-use1-01-n000");
    t.send(&["Enter", "Space", "m"]);
    t.wait_for("batch 1: prod-use1-01-n000", 10);
    // Name as offered; drain deadline 20s instead of 30m so the stuck step shows soon.
    t.send(&["Enter", "BSpace", "BSpace", "BSpace"]);
    t.send_text("20s");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("started run mnt-console-prod-use1-01-n000", 10);

    // While paused the executor takes the run but starts no step: it checkpoints the
    // node as paused (the pause stops the step's deadline clock), and that is all.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !journal_events(&journal).iter().any(has_paused_since) {
        assert!(
            Instant::now() < deadline,
            "the executor never took the run while paused: {:#?}",
            journal_events(&journal)
        );
        sleep(Duration::from_millis(250));
    }
    t.send(&["4"]);
    // The lane says it is paused, and the pause on a line of its own, whole.
    t.wait_for("paused (fleet) by tester@e2e: e2e: hold everything", 10);
    let events = journal_events(&journal);
    let kind = |e: &serde_json::Value| e["kind"].as_str().unwrap_or("").to_owned();
    let paused_at = events
        .iter()
        .position(|e| kind(e) == "operator.pause")
        .expect("the pause is journaled");
    assert_eq!(events[paused_at]["actor"], "tester@e2e");
    let started: Vec<&serde_json::Value> = events[paused_at..]
        .iter()
        .filter(|e| matches!(kind(e).as_str(), "step.status" | "step.intent"))
        .collect();
    assert!(
        started.is_empty(),
        "no step may start while paused: {started:#?}"
    );

    // Resume (confirmation): the PDB would refuse the node's checkout pod, so the node is
    // not cordoned; its precheck waits, naming the budget.
    t.send(&["P"]);
    t.wait_for("resume all automation", 5);
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("resume recorded by tester@e2e", 10);
    let screen = t.wait_for("PDB shop/checkout-blocking needs", 90);
    assert!(
        screen.contains("waits,"),
        "the waiting precheck says which PDB:\n{screen}"
    );
    let cordons = journal_events(&journal)
        .into_iter()
        .filter(|e| kind(e) == "step.intent" && e["payload"]["action"] == "cordon")
        .count();
    assert_eq!(cordons, 0, "not cordoned while the budget would refuse");

    // Hand it off with a note.
    t.send(&["h"]);
    t.wait_for("hand off prod-use1-01-n000", 5);
    t.send_text("dana@ops");
    t.send(&["Enter"]);
    t.send_text("checkout PDB blocks the drain; owners paged");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("handoff recorded by tester@e2e", 10);
    t.wait_for("→dana@ops", 10);

    // The walkthrough lists it with its note.
    t.send(&["H"]);
    let screen = t.wait_for("shift handover", 5);
    assert!(screen.contains("HANDED-OFF STEPS"), "{screen}");
    // Step through the items (the rollout's waiting batch comes first) to the hand-off.
    for _ in 0..5 {
        if t.capture()
            .contains("note: checkout PDB blocks the drain; owners paged")
        {
            break;
        }
        t.send(&["Right"]);
        sleep(Duration::from_millis(300));
    }
    let screen = t.wait_for("note: checkout PDB blocks the drain; owners paged", 5);
    assert!(screen.contains("owner: dana@ops"), "{screen}");
    t.send(&["Escape"]);

    // So does the Markdown report, written while the demo runs.
    let markdown = fleetdeck(&[
        "--journal",
        &journal,
        "handover",
        "--since",
        "8h",
        "--wait-synced",
        "0s",
        "-o",
        "markdown",
    ]);
    assert!(markdown.contains("## Handed-off steps"), "{markdown}");
    assert!(
        markdown.contains("note: checkout PDB blocks the drain; owners paged"),
        "{markdown}"
    );
    assert!(markdown.contains("owner: dana@ops"), "{markdown}");
    let handoff = journal_events(&journal)
        .into_iter()
        .find(|e| kind(e) == "operator.handoff")
        .expect("the hand-off is journaled");
    assert_eq!(handoff["actor"], "tester@e2e");

    // The demo's rollout: approve the canary batch and watch it execute, verify and soak.
    t.send(&["3"]);
    let screen = t.wait_for("awaiting-approval", 15);
    // The approval is judged on Prometheus evidence from when it is given, so first the
    // Prometheus the demo started (it starts with the console) must have the canary's
    // error ratio over the rollout's window.
    let url = screen
        .split("a Prometheus the demo started at ")
        .nth(1)
        .and_then(|rest| rest.split([',', ' ']).next())
        .unwrap_or_else(|| panic!("the gates name the demo's Prometheus:\n{screen}"));
    wait_for_error_ratio(url, "stg-use1-01", "1m");
    open_approval(&t, "approve batch");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("approve recorded by tester@e2e", 10);
    let screen = t.wait_for("1/1 done", 120);
    assert!(screen.contains("canary"), "{screen}");
    let events = journal_events(&journal);
    let approval = events
        .iter()
        .find(|e| kind(e) == "run.approved" && e["actor"] == "tester@e2e")
        .expect("the approval is journaled with its actor");
    let applied: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| kind(e) == "rollout.applied")
        .collect();
    assert_eq!(applied.len(), 1, "the canary cluster, once: {applied:#?}");
    assert!(
        applied[0]["seq"].as_i64() > approval["seq"].as_i64(),
        "applied only after the approval"
    );

    // The console's own executor drives the maintenance: `q` names it and asks first.
    t.send(&["q"]);
    let screen = t.wait_for("quit fleetdeck?", 5);
    assert!(
        screen.contains("mnt-console-prod-use1-01-n000"),
        "the runs that stop are named:\n{screen}"
    );
    assert!(screen.contains("undone"), "{screen}");
    t.send(&["q"]);
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");

    // Read-only: approve and hand-off are refused with the reason, nothing is written.
    let before = journal_events(&journal).len();
    let ro = Tmux::readonly_demo("readonly", &dir_s);
    ro.wait_for("READ-ONLY", 60);
    ro.send(&["3", "a"]);
    let screen = ro.wait_for("read-only mode (--readonly)", 5);
    assert!(screen.contains("Approve the waiting batch"), "{screen}");
    ro.send(&["4"]);
    ro.wait_for("→dana@ops", 15);
    ro.send(&["h"]);
    let screen = ro.wait_for("read-only mode (--readonly)", 5);
    assert!(screen.contains("Hand the step to a person"), "{screen}");
    // Its executor may have picked the runs up by now: then `q` asks, a second confirms.
    ro.send(&["q"]);
    sleep(Duration::from_millis(500));
    if ro.capture().contains("quit fleetdeck?") {
        ro.send(&["q"]);
    }
    ro.wait_for("exit=", 15);
    let after: Vec<serde_json::Value> = journal_events(&journal);
    assert!(
        after[before..].iter().all(|e| e["actor"] != "viewer@e2e"),
        "a read-only console writes nothing"
    );
}

/// The demo's simulator as the kubeconfig in `dir` names it: `host:port`, and the token
/// its user presents.
fn demo_simulator(dir: &str) -> (String, String) {
    let kubeconfig = std::fs::read_to_string(format!("{dir}/kubeconfig")).expect("kubeconfig");
    let value = |key: &str| {
        kubeconfig
            .lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .map(|v| v.trim().trim_matches('"').to_owned())
            .unwrap_or_else(|| panic!("no {key} in:\n{kubeconfig}"))
    };
    let server = value("server:");
    // The simulator answers plain HTTP on the same port as its HTTPS.
    let addr = server
        .strip_prefix("https://")
        .or_else(|| server.strip_prefix("http://"))
        .and_then(|s| s.split_once('/'))
        .map(|(addr, _)| addr.to_owned())
        .expect("a loopback server URL");
    (addr, value("token:"))
}

/// One HTTP request to the demo's simulator over loopback: its answer's JSON.
fn sim_call(sim: &(String, String), method: &str, path: &str, body: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let (addr, token) = sim;
    let mut stream = std::net::TcpStream::connect(addr).expect("the simulator answers");
    // HTTP/1.0: one answer, then the server closes, so reading to the end is the body.
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/merge-patch+json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("request sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("answer read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    assert!(head.contains(" 200 "), "{method} {path}: {head}\n{body}");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The names of the nodes of `cluster` in `zone`.
fn nodes_in_zone(sim: &(String, String), cluster: &str, zone: &str) -> Vec<String> {
    let nodes = sim_call(sim, "GET", &format!("/clusters/{cluster}/api/v1/nodes"), "");
    nodes["items"]
        .as_array()
        .expect("a node list")
        .iter()
        .filter(|n| n["metadata"]["labels"]["topology.kubernetes.io/zone"] == zone)
        .filter_map(|n| n["metadata"]["name"].as_str().map(str::to_owned))
        .collect()
}

/// The shift handover on `fleetdeck demo --seed 1`: `fleetdeck handover`, pointed at the
/// demo with the config.toml it writes, lists what the console's walkthrough lists; an
/// acknowledged cluster problem stays acknowledged when one of its counts gets better in
/// the simulator (fault injection over HTTP), and re-opens when it gets worse.
#[test]
fn demo_handover_lists_what_the_cli_lists_and_an_acknowledgement_holds_until_worse() {
    require_tmux();
    let dir = tempfile::tempdir().expect("demo dir");
    let dir_s = dir.path().to_str().expect("utf-8 path").to_owned();
    let t = Tmux::start(
        "handover",
        &["--as", "tester@e2e", "demo", "--seed", "1", "--dir", &dir_s],
        &[],
    );
    t.wait_for("Synced", 60);
    // The demo's trouble, as the CLI sees it with the console's sources.
    let cli: serde_json::Value = serde_json::from_str(&fleetdeck(&[
        "--config",
        &format!("{dir_s}/config.toml"),
        "handover",
        "-o",
        "json",
    ]))
    .expect("handover -o json parses");
    let titles: Vec<&str> = cli["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["title"].as_str())
        .collect();
    assert!(
        titles.len() >= 4
            && titles.iter().any(|t| t.contains("awaits approval"))
            && titles.contains(&"prod-euw1-02: 3 of 8 nodes not ready"),
        "the rollout awaiting approval and the clusters' problems: {cli:#}"
    );

    t.send(&["H"]);
    t.wait_for("shift handover", 5);
    // The walkthrough follows the console's sync: once every cluster has reported, it
    // lists as many items as the CLI.
    let screen = t.wait_for(&format!("item 1 of {}", titles.len()), 30);
    for title in &titles {
        let start: String = title.chars().take(30).collect();
        assert!(screen.contains(&start), "{title:?} listed:\n{screen}");
    }

    // To the cluster that is not whole, and acknowledge it.
    for _ in 0..titles.len() {
        if t.capture()
            .contains("Clusters with nodes down or budgets below minimum")
        {
            break;
        }
        t.send(&["Right"]);
        sleep(Duration::from_millis(300));
    }
    t.wait_for("Clusters with nodes down or budgets below minimum", 5);
    t.send(&["a"]);
    t.wait_for("Journaled with your name for everyone", 10);
    t.send_text("zone b is out, case 42");
    t.send(&["Enter"]);
    let confirm = t.wait_for("This will:", 5);
    assert!(
        !confirm.contains("cluster/prod-euw1-02"),
        "the confirmation shows no internal key:\n{confirm}"
    );
    t.send(&["Enter"]);
    t.wait_for("acknowledge recorded by tester@e2e", 10);
    t.wait_for("✓ prod-euw1-02: 3 of 8 nodes not ready", 15);
    t.wait_for("acknowledged by tester@e2e", 5);

    // Better: two of the zone's three nodes still down. The same problem: it holds.
    let sim = demo_simulator(&dir_s);
    let zone_b = nodes_in_zone(&sim, "prod-euw1-02", "eu-west-1b");
    assert_eq!(zone_b.len(), 3, "{zone_b:?}");
    let faults = |down: &[String]| serde_json::json!({"zoneOutage": null, "notReadyNodes": down});
    sim_call(
        &sim,
        "PATCH",
        "/sim/v1/clusters/prod-euw1-02/faults",
        &faults(&zone_b[..2]).to_string(),
    );
    let screen = t.wait_for("✓ prod-euw1-02: 2 of 8 nodes not ready", 60);
    assert!(
        screen.contains("acknowledged by tester@e2e"),
        "the acknowledgement holds:\n{screen}"
    );
    assert!(screen.contains("then 3 of 8 nodes not ready"), "{screen}");

    // Worse: four nodes down. It re-opens.
    let mut four = zone_b.clone();
    four.extend(
        nodes_in_zone(&sim, "prod-euw1-02", "eu-west-1a")
            .into_iter()
            .take(1),
    );
    sim_call(
        &sim,
        "PATCH",
        "/sim/v1/clusters/prod-euw1-02/faults",
        &faults(&four).to_string(),
    );
    let screen = t.wait_for("! prod-euw1-02: 4 of 8 nodes not ready", 60);
    assert!(
        screen.contains("re-opened: worse since it was acknowledged"),
        "{screen}"
    );

    // Every operator reads the same journal: the CLI sees the acknowledgement and how it
    // stands now.
    let cli: serde_json::Value = serde_json::from_str(&fleetdeck(&[
        "--config",
        &format!("{dir_s}/config.toml"),
        "handover",
        "-o",
        "json",
    ]))
    .expect("handover -o json parses");
    let item = cli["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["key"] == "cluster/prod-euw1-02/not-whole")
        .expect("the cluster's item")
        .clone();
    assert_eq!(item["acks"][0]["by"], "tester@e2e", "{item:#}");
    assert_eq!(item["acks"][0]["note"], "zone b is out, case 42");
    assert_eq!(item["acks"][0]["standing"], "reopened", "{item:#}");

    t.send(&["Escape", "q"]);
    if t.capture().contains("quit fleetdeck?") || {
        sleep(Duration::from_millis(500));
        t.capture().contains("quit fleetdeck?")
    } {
        t.send(&["q"]);
    }
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
}

/// `fleetdeck demo --seed 1` on a machine without Prometheus (PATH holds no `prometheus`):
/// the console says its rollout is gated by live checks and why; approving the canary
/// applies, verifies and soaks it and the pilot stage starts (awaits approval); approving
/// the pilot halts the rollout on stg-euw1-02, whose zone eu-west-1c is down, after its
/// failed verification (never before it), and its batch's bar is not drawn full.
/// Opens the approval form of `batch` with `a` on the Rollouts screen. The batch's
/// clusters may still be connecting when it first awaits approval: then the console
/// refuses (rightly: nothing recent is known of them), and the key is pressed again
/// until the form opens.
fn open_approval(t: &Tmux, batch: &str) {
    for _ in 0..30 {
        t.send(&["a"]);
        let screen = t.wait_for_any(&["enter continue", "any key closes"], 10);
        if !screen.contains("any key closes") {
            assert!(screen.contains(batch), "{batch}:\n{screen}");
            return;
        }
        t.send(&["Escape"]);
        sleep(Duration::from_secs(2));
    }
    panic!(
        "the approval of {batch} was refused for a minute:\n{}",
        t.capture()
    );
}

#[test]
fn demo_approval_story_without_prometheus() {
    require_tmux();
    let dir = tempfile::tempdir().expect("demo dir");
    let dir_s = dir.path().to_str().expect("utf-8 path").to_owned();
    let journal = format!("{dir_s}/journal.sqlite");
    let kind = |e: &serde_json::Value| e["kind"].as_str().unwrap_or("").to_owned();
    // An empty directory as the whole PATH: no `prometheus` can be found.
    let bare = tempfile::tempdir().expect("empty PATH");
    let path = bare.path().to_str().expect("utf-8 path").to_owned();
    let t = Tmux::start(
        "noprom",
        &["--as", "tester@e2e", "demo", "--seed", "1", "--dir", &dir_s],
        &[("PATH", &path)],
    );
    let screen = t.wait_for("rollout gates: live checks only", 60);
    // The notice wraps at the screen's width, so its reason is matched up to a break.
    assert!(
        screen.contains("no prometheus binary in"),
        "says why: {screen}"
    );
    t.wait_for("Synced", 60);

    // Approve the canary: applied, verified, soaked; then the pilot awaits approval.
    t.send(&["3"]);
    t.wait_for("0/1 awaiting-approval", 15);
    open_approval(&t, "approve batch 1");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("approve recorded by tester@e2e", 10);
    let screen = t.wait_for("0/3 awaiting-approval", 120);
    assert!(screen.contains("1/1 done"), "{screen}");
    assert!(screen.contains("gate after batch 1 passed"), "{screen}");
    assert!(screen.contains("no SLO burn-rate gate"), "{screen}");
    let events = journal_events(&journal);
    let seq_of = |kind_: &str, cluster: &str| {
        events
            .iter()
            .find(|e| kind(e) == kind_ && e["cluster"] == cluster)
            .and_then(|e| e["seq"].as_i64())
            .unwrap_or_else(|| panic!("{kind_} on {cluster} in {events:#?}"))
    };
    assert!(seq_of("rollout.applied", "stg-use1-01") < seq_of("rollout.verified", "stg-use1-01"));

    // Approve the pilot: stg-euw1-02 stays short of Ready nodes and halts the rollout.
    open_approval(&t, "approve batch 2");
    t.send(&["Enter"]);
    t.wait_for("This will:", 5);
    t.send(&["Enter"]);
    t.wait_for("· 1 halted", 150);
    // The halt and the failed check's numbers reach the screen from two journal events;
    // on a loaded machine a frame may show the first before the second.
    let screen = t.wait_for("need 90%", 30);
    assert!(screen.contains("· 1 halted"), "{screen}");
    assert!(screen.contains("! stg-euw1-02"), "{screen}");
    assert!(screen.contains("2/3 halted"), "not drawn full: {screen}");
    assert!(
        screen.contains("need 90%"),
        "the failed check says why: {screen}"
    );
    let events = journal_events(&journal);
    let failed = events
        .iter()
        .find(|e| kind(e) == "rollout.verified" && e["cluster"] == "stg-euw1-02")
        .and_then(|e| e["seq"].as_i64())
        .expect("stg-euw1-02's verification is journaled");
    let halted = events
        .iter()
        .find(|e| kind(e) == "rollout.halted")
        .and_then(|e| e["seq"].as_i64())
        .expect("the halt is journaled");
    assert!(
        failed < halted,
        "the halt comes after the verification that led to it"
    );
    // The ledger's first screen says the halt too.
    t.send(&["1"]);
    let screen = t.wait_for("HALTED here", 10);
    assert!(screen.contains("stg-euw1-02"), "{screen}");

    t.send(&["q"]);
    sleep(Duration::from_millis(500));
    if t.capture().contains("quit fleetdeck?") {
        t.send(&["q"]);
    }
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
}
