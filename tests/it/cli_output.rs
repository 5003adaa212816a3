//! What every command prints, whoever reads it: a reader that goes away early
//! (`fleetdeck journal -o json | head -1`) ends the output quietly.

use std::process::Stdio;

use crate::support::cli::{command, fleetdeck, text};

/// Runs `fleetdeck ARGS` with standard output a pipe nobody reads any more.
fn into_a_closed_pipe(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    command(args, dir)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_closed_standard_output_is_a_quiet_normal_end() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    for i in 0..3 {
        let cluster = format!("c{i}");
        let out = fleetdeck(
            &["pause", "--cluster", &cluster, "--reason", "incident 42"],
            dir.path(),
        );
        assert!(out.status.success(), "{}", text(&out));
    }
    for args in [
        vec!["journal", "-o", "json"],
        vec!["journal", "-o", "yaml"],
        vec!["journal"],
        vec!["--ledger", ledger, "ledger", "show", "-o", "json"],
        vec!["--ledger", ledger, "ledger", "show"],
        vec!["handover", "--wait-synced", "0s", "-o", "json"],
        vec!["maintenance", "list"],
        vec!["pause", "--all", "--reason", "printing nowhere"],
        vec!["completions", "bash"],
    ] {
        let out = into_a_closed_pipe(&args, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?} says nothing: {stderr}");
    }
    // The pause was recorded although nobody read that it was.
    let out = fleetdeck(
        &["journal", "--kind", "operator.pause", "-o", "json"],
        dir.path(),
    );
    let events: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(events.as_array().map(Vec::len), Some(4), "{}", text(&out));
}
