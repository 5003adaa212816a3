//! End-to-end: the real `fleetdeck` binary in a detached tmux session (200×60), driven
//! with `send-keys` and read with `capture-pane`. Checks what a person would see, and
//! that the terminal is given back (alternate screen off) after quitting.
//!
//! `demo_walkthrough` drives `fleetdeck demo --seed 1` through every screen.

mod cli_support;
mod tmux_support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

use tmux_support::{Tmux, require_tmux};

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
    t.send(&["1", "?"]);
    t.wait_for("Quit fleetdeck", 5);
    t.send(&["Escape", "q"]);
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}

/// Runs `fleetdeck ARGS` to completion and returns its stdout.
/// `fleetdeck ARGS` (paths in ARGS absolute), kept away from the user's own settings;
/// its standard output.
fn fleetdeck(args: &[&str]) -> String {
    let home = tempfile::tempdir().expect("tempdir");
    let out = cli_support::fleetdeck(args, home.path());
    assert!(
        out.status.success(),
        "fleetdeck {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The journal's events as JSON values.
fn journal_events(journal: &str) -> Vec<serde_json::Value> {
    let text = fleetdeck(&["--journal", journal, "journal", "-o", "json"]);
    serde_json::from_str(&text).expect("journal -o json parses")
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

    // While paused the executor takes the run but starts no step.
    sleep(Duration::from_secs(6));
    t.send(&["4"]);
    t.wait_for("PAUSED (fleet: e2e: hold everything)", 10);
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
    t.wait_for("awaiting-approval", 15);
    t.send(&["a"]);
    t.wait_for("approve", 5);
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
