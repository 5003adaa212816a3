//! `fleetdeck rollout …` through the binary: the dry run of the examples, diagnostics with
//! positions, operator commands refused in read-only mode, and a rollout refused while
//! another unfinished one targets its clusters (on both journal backends).

use crate::support::backend::{Backend, TestJournal};

use crate::support::cli::fleetdeck;

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_300_cluster_example_plans_the_documented_stages() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = fleetdeck(
        &[
            "rollout",
            "plan",
            &example("rollout-300.yaml"),
            "--ledger",
            &example("ledger-300.yaml"),
            "-o",
            "json",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let sizes: Vec<usize> = json["plan"]["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .map(|s| {
            s["batches"].as_array().map_or(0, |b| {
                b.iter().map(|x| x.as_array().map_or(0, Vec::len)).sum()
            })
        })
        .collect();
    assert_eq!(sizes, vec![1, 3, 10, 30, 56, 100, 100]);
    assert!(
        json["digest"]
            .as_str()
            .is_some_and(|d| d.starts_with("sha256:"))
    );

    // Same files, same digest: the release is identified by content.
    let again = fleetdeck(
        &[
            "rollout",
            "plan",
            &example("rollout.yaml"),
            "--ledger",
            &example("ledger.yaml"),
        ],
        dir.path(),
    );
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let table = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(table.contains("canary"), "{table}");
    assert!(
        table.contains("untested when the last stage starts"),
        "{table}"
    );
}

#[test]
fn errors_are_reported_with_positions_and_exit_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("bad.yaml");
    std::fs::write(
        &file,
        "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease: {name: r}\ntargets: ''\nstages: []\nbudgetz: {}\n",
    )
    .expect("write");
    let out = fleetdeck(
        &[
            "rollout",
            "plan",
            "bad.yaml",
            "--ledger",
            &example("ledger.yaml"),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.yaml:6:1: unknown field `budgetz` in rollout (did you mean `budgets`?)"),
        "{err}"
    );
    assert!(
        err.contains("bad.yaml:5:9: field `stages` lists no stage"),
        "{err}"
    );
    assert!(
        err.contains("bad.yaml:3:10: release is missing required field `bundle`"),
        "{err}"
    );
}

#[test]
fn operator_commands_are_refused_read_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = dir.path().join("j.sqlite");
    let journal = journal.to_string_lossy();
    for args in [
        vec!["rollout", "approve", "ro-1"],
        vec!["rollout", "pause", "ro-1", "--reason", "x"],
        vec!["rollout", "resume", "ro-1", "--note", "x"],
        vec!["rollout", "abort", "ro-1", "--note", "x"],
    ] {
        let mut all = args.clone();
        all.extend(["--readonly", "--journal", &journal]);
        let out = fleetdeck(&all, dir.path());
        assert_eq!(out.status.code(), Some(1), "refused: {args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("read-only"),
            "{args:?}"
        );
    }
}

/// A rollout file over `targets`, applying `manifests/cni.yaml`.
fn rollout_over(name: &str, targets: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease:\n  name: {name}\n  bundle: {{cni: cilium-1.17.2}}\n  action:\n    apply: {{directory: manifests}}\n  checks:\n    - nodesReady: {{minRatio: 0.9}}\ntargets: \"{targets}\"\nstages:\n  - {{name: all, batchSize: 2, soak: 1s, approval: auto, pick: ordered}}\nbudgets: {{maxInFlight: 2}}\n"
    )
}

fn a_rollout_is_refused_while_another_unfinished_one_targets_the_same_clusters(backend: Backend) {
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = TestJournal::new(backend, dir.path());
    let journal_flags = journal.flags("alice@ops");
    std::fs::create_dir_all(dir.path().join("manifests")).expect("mkdir");
    std::fs::write(
        dir.path().join("manifests/cni.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cni, namespace: kube-system}\ndata: {version: '1.17.2'}\n",
    )
    .expect("manifests");
    for (file, name, targets) in [
        ("staging.yaml", "cni-staging", "env=staging"),
        ("eu.yaml", "cni-eu", "region=eu-central"),
        (
            "cn-prod.yaml",
            "cni-cn-prod",
            "env=production,region=cn-east",
        ),
    ] {
        std::fs::write(dir.path().join(file), rollout_over(name, targets)).expect("rollout");
    }
    let ledger = example("ledger.yaml");
    let cli = |args: &[&str]| {
        let mut all = vec!["--ledger", ledger.as_str()];
        all.extend(journal_flags.iter().map(String::as_str));
        all.extend_from_slice(args);
        fleetdeck(&all, dir.path())
    };
    let started = |file: &str| {
        let out = cli(&["rollout", "start", file]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .nth(1)
            .expect("run id")
            .to_string()
    };

    let staging = started("staging.yaml");
    // eu-fra-stg-01 is both a staging and an eu-central cluster.
    let refused = cli(&["rollout", "start", "eu.yaml"]);
    assert_eq!(refused.status.code(), Some(1), "refused");
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains(&format!("{staging} (planned) on eu-fra-stg-01"))
            && why.contains(&format!("fleetdeck rollout abort {staging}")),
        "{why}"
    );
    assert!(
        !why.contains("eu-fra-prod-01"),
        "only the shared clusters are named: {why}"
    );
    // Nothing was journaled for the refused rollout.
    let list = cli(&["rollout", "list"]);
    assert!(
        !String::from_utf8_lossy(&list.stdout).contains("cni-eu"),
        "{}",
        String::from_utf8_lossy(&list.stdout)
    );

    // Clusters of no unfinished rollout are free.
    started("cn-prod.yaml");
    // Rollouts are listed by `rollout list`, not among maintenances.
    let maintenances = cli(&["maintenance", "list"]);
    assert!(maintenances.status.success());
    let text = String::from_utf8_lossy(&maintenances.stdout);
    assert!(!text.contains(&staging), "{text}");

    // Once the staging rollout is aborted, its clusters take another rollout.
    let abort = cli(&["rollout", "abort", &staging, "--note", "wrong release"]);
    assert!(
        abort.status.success(),
        "{}",
        String::from_utf8_lossy(&abort.stderr)
    );
    started("eu.yaml");
}

on_both_backends!(a_rollout_is_refused_while_another_unfinished_one_targets_the_same_clusters);
