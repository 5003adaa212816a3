//! Exit codes as docs/cli.md documents them: 0 done; 1 the command ran and said no (the
//! input has errors, the rules refused it, or it found problems); 2 it could not run.

use crate::support::cli::{fleetdeck, text};

const LEDGER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");

#[test]
fn an_invalid_file_exits_1_for_every_command_that_reads_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("m.yaml"),
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: Bad Name\ncluster: cn-sh-prod-01\nnodes: {names: [a]}\naction: {exec: {argv: [x], timeout: 1m}}\nbudgets: {maxUnavailable: 1}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("r.yaml"),
        "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease: {name: r}\ntargets: ''\nstages: []\nbudgets: {}\n",
    )
    .unwrap();
    for args in [
        vec!["maintenance", "plan", "m.yaml"],
        vec!["maintenance", "start", "m.yaml"],
        vec!["maintenance", "start", "m.yaml", "--dry-run"],
        vec!["rollout", "plan", "r.yaml"],
        vec!["rollout", "start", "r.yaml"],
    ] {
        let mut all = vec!["--ledger", LEDGER];
        all.extend(&args);
        let out = fleetdeck(&all, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
    }
}

#[test]
fn a_refused_command_exits_1_and_one_that_could_not_run_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.yaml"), "kind: Maintenance\n").unwrap();
    for args in [
        vec!["--readonly", "pause", "--all", "--reason", "x"],
        vec!["--readonly", "maintenance", "start", "m.yaml"],
        vec!["--readonly", "rollout", "start", "m.yaml"],
        vec![
            "maintenance",
            "takeover",
            "mnt-nope-1",
            "--node",
            "n1",
            "--note",
            "mine",
        ],
        vec!["maintenance", "show", "mnt-nope-1"],
        vec!["rollout", "approve", "ro-nope-1"],
        vec!["pause", "--run", "mnt-nope-1", "--reason", "x"],
        // An abort takes its why as `--reason` too, as a pause does (not a bad flag).
        vec!["rollout", "abort", "ro-nope-1", "--reason", "x"],
        vec!["maintenance", "abort", "mnt-nope-1", "--reason", "x"],
        // A resume's note may be left out (not a missing argument).
        vec!["rollout", "resume", "ro-nope-1"],
    ] {
        let out = fleetdeck(&args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
    }
    for args in [
        vec!["ledger", "validate", "nope.yaml"],
        vec!["maintenance", "plan", "nope.yaml"],
        vec!["journal", "--kind", "bogus"],
        vec!["journal", "--since", "soon"],
        vec!["--ledger", "nope.yaml", "ledger", "show"],
        vec![
            "maintenance",
            "return",
            "r",
            "--node",
            "n",
            "--outcome",
            "maybe",
            "--note",
            "x",
        ],
    ] {
        let out = fleetdeck(&args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
    }
}
