//! `fleetdeck journal`, `pause`, `resume` and `maintenance plan`, run as a user runs them.

use crate::support::backend::{Backend, TestJournal};
use crate::support::cli::{fleetdeck, text};

/// The journal where the CLI keeps it by default (`data/journal.sqlite`), or a database.
fn test_journal(backend: Backend, dir: &std::path::Path) -> TestJournal {
    TestJournal::new(backend, &dir.join("data"))
}

/// `fleetdeck ARGS` as `actor` on `journal`, in `dir`.
fn on(
    journal: &TestJournal,
    actor: &str,
    args: &[&str],
    dir: &std::path::Path,
) -> std::process::Output {
    let mut all = journal.flags(actor);
    all.extend(args.iter().map(|a| a.to_string()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    fleetdeck(&all, dir)
}

fn pause_and_resume_are_journaled_with_actor_and_reason(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let journal = test_journal(backend, dir.path());
    let out = on(
        &journal,
        "alice@h",
        &["pause", "--cluster", "c1", "--reason", "incident 42"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = on(
        &journal,
        "bob@h",
        &["resume", "--cluster", "c1", "--note", "fixed"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--since", "1h", "--cluster", "c1", "-o", "json"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let events: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["kind"], "operator.pause");
    assert_eq!(events[0]["actor"], "alice@h");
    assert_eq!(events[0]["payload"]["reason"], "incident 42");
    assert_eq!(events[1]["kind"], "operator.resume");
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--cluster", "other"],
        dir.path(),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        1,
        "header only: {}",
        text(&out)
    );
    let out = on(&journal, "carol@h", &["pause", "--reason", "x"], dir.path());
    assert!(!out.status.success(), "a scope is required");
    let out = on(
        &journal,
        "carol@h",
        &["--readonly", "pause", "--all", "--reason", "x"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "refused: {}", text(&out));
    assert!(text(&out).contains("read-only"));
}

#[test]
fn maintenance_plan_prints_batches_and_reports_errors_with_positions() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/maintenance.yaml");
    let out = fleetdeck(&["maintenance", "plan", example], dir.path());
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("batch 4: gpu-a100-04"),
        "{}",
        text(&out)
    );

    let nodes = serde_json::json!({
        "apiVersion": "v1", "kind": "List", "metadata": {},
        "items": [
            {"metadata": {"name": "gpu-a100-01", "labels": {"topology.kubernetes.io/zone": "a", "fleetdeck.dev/replica-group": "g1"}}},
            {"metadata": {"name": "gpu-a100-02", "labels": {"topology.kubernetes.io/zone": "b", "fleetdeck.dev/replica-group": "g2"}}},
            {"metadata": {"name": "gpu-a100-03", "labels": {"topology.kubernetes.io/zone": "a", "fleetdeck.dev/replica-group": "g2"}}},
            {"metadata": {"name": "gpu-a100-04", "labels": {"topology.kubernetes.io/zone": "b", "fleetdeck.dev/replica-group": "g1"}}}
        ]
    });
    std::fs::write(dir.path().join("nodes.json"), nodes.to_string()).unwrap();
    let out = fleetdeck(
        &["maintenance", "plan", example, "--nodes", "nodes.json"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("batch 1: gpu-a100-01, gpu-a100-02"),
        "{}",
        text(&out)
    );
    assert!(
        text(&out).contains("batch 2: gpu-a100-03, gpu-a100-04"),
        "{}",
        text(&out)
    );

    std::fs::write(dir.path().join("bad.yaml"), "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: x\ncluster: c\nnodes: {names: [a]}\naction: {exec: {argv: [x], timout: 1m}}\nbudgets: {maxUnavailable: 1}\n").unwrap();
    let out = fleetdeck(&["maintenance", "plan", "bad.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out)
            .contains("bad.yaml:6:28: unknown field `timout` in exec (did you mean `timeout`?)"),
        "{}",
        text(&out)
    );
}

fn journal_filters_say_when_they_cannot_match(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let journal = test_journal(backend, dir.path());
    let out = on(
        &journal,
        "carol@h",
        &[
            "pause",
            "--cluster",
            "prod-use1-01",
            "--reason",
            "incident 42",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));

    for kind in ["bogus", "operator"] {
        let out = on(
            &journal,
            "carol@h",
            &["journal", "--kind", kind],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("unknown event kind \"{kind}\""))
                && err.contains("run.approved")
                && err.contains("operator.refused"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{}", text(&out));
    }
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--kind", "operator"],
        dir.path(),
    );
    assert!(
        text(&out).contains("did you mean operator.*?"),
        "{}",
        text(&out)
    );
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--kind", "operator.*", "-o", "json"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let events: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(events[0]["kind"], "operator.pause", "{events}");

    // A plain date is its midnight UTC, as in the ledger.
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--since", "2026-11-30", "-o", "json"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = on(&journal, "carol@h", &["journal", "--since=-5m"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a duration is written without a sign: 5m means 5 minutes ago")
            && !err.contains("year"),
        "{err}"
    );

    // Exact names stay exact, and a name the journal has never seen is said so.
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--cluster", "PROD-USE1-01"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "no events: no cluster PROD-USE1-01 in the journal (did you mean prod-use1-01?)"
        ),
        "{}",
        text(&out)
    );
    let out = on(
        &journal,
        "carol@h",
        &[
            "journal",
            "--cluster",
            "prod-use1-01",
            "--kind",
            "operator.resume",
        ],
        dir.path(),
    );
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "a known cluster with no such event is no mistake: {}",
        text(&out)
    );
    let out = on(
        &journal,
        "carol@h",
        &["journal", "--run", "mnt-nope-1"],
        dir.path(),
    );
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no events: no run mnt-nope-1 in the journal"),
        "{}",
        text(&out)
    );
}

#[test]
fn maintenance_plan_with_a_ledger_names_a_cluster_it_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/maintenance.yaml");
    let out = fleetdeck(
        &["--ledger", ledger, "maintenance", "plan", example],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));

    let text_of_example = std::fs::read_to_string(example).unwrap();
    std::fs::write(
        dir.path().join("m.yaml"),
        text_of_example.replace("cluster: cn-sh-prod-01", "cluster: cn-sh-prod-1"),
    )
    .unwrap();
    let out = fleetdeck(
        &["--ledger", ledger, "maintenance", "plan", "m.yaml"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "m.yaml:6:10: field `cluster` \"cn-sh-prod-1\" is not a cluster of the ledger (did you mean \"cn-sh-prod-01\"?)"
        ),
        "{}",
        text(&out)
    );
    assert!(out.stdout.is_empty(), "nothing is planned: {}", text(&out));
    // Without a ledger the file alone is planned, as before.
    let out = fleetdeck(&["maintenance", "plan", "m.yaml"], dir.path());
    assert!(out.status.success(), "{}", text(&out));
}

fn a_return_hand_off_or_abort_without_a_note_writes_nothing(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let journal = test_journal(backend, dir.path());
    for args in [
        vec![
            "maintenance",
            "return",
            "mnt-x-1",
            "--node",
            "n1",
            "--outcome",
            "done",
            "--note",
            "",
        ],
        vec![
            "maintenance",
            "handoff",
            "mnt-x-1",
            "--node",
            "n1",
            "--to",
            "carol@ops",
            "--note",
            " ",
        ],
        vec!["maintenance", "abort", "mnt-x-1", "--note", ""],
        vec!["rollout", "abort", "ro-x-1", "--note", ""],
    ] {
        let out = on(&journal, "carol@h", &args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            text(&out).contains("must not be empty"),
            "{args:?}: {}",
            text(&out)
        );
    }
    let out = on(&journal, "carol@h", &["journal", "-o", "json"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "[]",
        "{}",
        text(&out)
    );
}

#[test]
fn a_rollout_file_given_to_maintenance_start_is_told_its_kind_alone() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let rollout = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rollout.yaml");
    let out = fleetdeck(
        &["--ledger", ledger, "maintenance", "start", rollout],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "a file with errors");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].ends_with(
            "rollout.yaml:5:7: kind must be \"Maintenance\", found \"Rollout\"; nothing else in the file was checked"
        ),
        "{err}"
    );
    assert!(lines[1].ends_with("rollout.yaml: 1 error(s)"), "{err}");
    assert!(!err.contains("missing required field"), "{err}");
}

on_both_backends!(
    pause_and_resume_are_journaled_with_actor_and_reason,
    journal_filters_say_when_they_cannot_match,
    a_return_hand_off_or_abort_without_a_note_writes_nothing,
);
