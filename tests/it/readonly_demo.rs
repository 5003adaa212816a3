//! `--readonly` on the demo: the console runs no executor and journals nothing, so a run
//! started and resumed by someone else from the CLI is left untouched by it (no lease, no
//! step intent from this process).

use std::thread::sleep;
use std::time::Duration;

use crate::support;
use crate::support::tmux::{Tmux, require_tmux};

/// `fleetdeck ARGS` against the demo's files in `dir`, as bob@ops; its standard output.
fn as_bob(dir: &str, args: &[&str]) -> String {
    let home = tempfile::tempdir().expect("tempdir");
    let journal = format!("{dir}/journal.sqlite");
    let ledger = format!("{dir}/ledger.yaml");
    let kubeconfig = format!("{dir}/kubeconfig");
    let mut all = vec![
        "--as",
        "bob@ops",
        "--journal",
        &journal,
        "--ledger",
        &ledger,
        "--kubeconfig",
        &kubeconfig,
    ];
    all.extend_from_slice(args);
    let out = support::cli::fleetdeck(&all, home.path());
    assert!(
        out.status.success(),
        "fleetdeck {all:?} failed: {}",
        support::cli::text(&out)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A maintenance of one node of the demo fleet whose hook does nothing.
const MAINTENANCE: &str = "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: prod-use1-01\nnodes:\n  names: [prod-use1-01-n000]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n";

#[test]
fn a_readonly_demo_runs_no_executor_and_writes_nothing() {
    require_tmux();
    let dir = tempfile::tempdir().expect("demo dir");
    let dir_s = dir.path().to_str().expect("utf-8 path").to_owned();
    let t = Tmux::readonly_demo("readonly-demo", &dir_s);
    let screen = t.wait_for("Synced", 60);
    assert!(
        screen.contains("read-only: no executor runs in this console"),
        "the console says no executor runs here:\n{screen}"
    );

    assert!(
        !dir.path().join("journal.sqlite").exists(),
        "a read-only console creates no journal"
    );

    // Someone else pauses, starts a maintenance and resumes from the CLI.
    let file = dir.path().join("patch.yaml");
    std::fs::write(&file, MAINTENANCE).expect("write the maintenance");
    let file = file.to_str().expect("utf-8 path");
    as_bob(&dir_s, &["pause", "--all", "--reason", "change window"]);
    // The console reads the journal once someone else has created it.
    t.wait_for("AUTOMATION PAUSED", 15);
    as_bob(&dir_s, &["maintenance", "start", file]);
    as_bob(&dir_s, &["resume", "--all", "--note", "window open"]);

    // The console has read the resume once its banner is gone; an executor in it would
    // then take the lease and cordon within a pass or two (500 ms apart by default), so
    // four passes' time is the window in which nothing may be journaled by it.
    t.wait_until_gone("AUTOMATION PAUSED", 30);
    sleep(Duration::from_secs(2));
    let text = as_bob(&dir_s, &["journal", "-o", "json"]);
    let events: Vec<serde_json::Value> = serde_json::from_str(&text).expect("journal json");
    assert!(!events.is_empty(), "bob's commands are journaled");
    let foreign: Vec<&serde_json::Value> =
        events.iter().filter(|e| e["actor"] != "bob@ops").collect();
    assert!(
        foreign.is_empty(),
        "a read-only console journals nothing (no lease, no intent, no seeded rollout): {foreign:#?}"
    );
    t.send(&["q"]);
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
}
