//! The `fleetdeck ledger …`, `config` and `completions` commands, run as a user runs them.

use crate::support::cli::fleetdeck;

use std::process::{Command, Output};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn example_ledger() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml"))
        .expect("example ledger")
}

#[test]
fn the_example_ledger_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let out = fleetdeck(&["ledger", "validate", example], dir.path());
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("valid, 14 clusters"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_duplicate_id_fails_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let text = example_ledger().replacen("- id: cn-sh-prod-02", "- id: cn-sh-prod-01", 1);
    std::fs::write(dir.path().join("ledger.yaml"), text).unwrap();
    let out = fleetdeck(&["ledger", "validate", "ledger.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "ledger.yaml:48:9: duplicate cluster id \"cn-sh-prod-01\" (first defined at 11:9)"
        ),
        "{text}"
    );
    // Only the id rule fires: the context of the renamed cluster is still its own.
    let positioned = |l: &&str| {
        l.strip_prefix("ledger.yaml:")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    };
    assert_eq!(text.lines().filter(positioned).count(), 1, "{text}");
}

#[test]
fn validate_reports_json_for_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let text = example_ledger().replacen("tier: critical", "tier: critcal", 1);
    std::fs::write(dir.path().join("ledger.yaml"), text).unwrap();
    let out = fleetdeck(
        &["ledger", "validate", "ledger.yaml", "-o", "json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["diagnostics"][0]["pos"]["line"], 20);
    assert_eq!(report["diagnostics"][0]["severity"], "error");
}

#[test]
fn expiry_is_judged_against_now() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let out = fleetdeck(
        &["ledger", "validate", example, "--now", "2027-12-20"],
        dir.path(),
    );
    assert!(out.status.success(), "warnings alone do not fail");
    assert_eq!(
        stdout(&out).matches("warning: exception").count(),
        2,
        "{}",
        stdout(&out)
    );
    let out = fleetdeck(
        &["ledger", "validate", example, "--now", "2028-01-02"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).matches("expired on 2027-12-31").count(), 2);
}

#[test]
fn show_json_holds_every_cluster_and_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let out = fleetdeck(
        &["--ledger", example, "ledger", "show", "-o", "json"],
        dir.path(),
    );
    assert!(out.status.success());
    let clusters: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(clusters.len(), 14);
    let fields = [
        "id",
        "displayName",
        "context",
        "identity",
        "env",
        "region",
        "failureDomain",
        "tier",
        "owner",
        "lifecycle",
        "labels",
        "versions",
        "network",
        "sharedDependencies",
        "backup",
        "maintenanceWindow",
        "exceptions",
    ];
    for cluster in &clusters {
        let object = cluster.as_object().unwrap();
        for field in fields {
            assert!(object.contains_key(field), "{field} missing in {cluster}");
        }
        assert_eq!(
            object.len(),
            fields.len(),
            "unexpected extra fields in {cluster}"
        );
    }
    let fra = clusters
        .iter()
        .find(|c| c["id"] == "eu-fra-prod-02")
        .unwrap();
    assert_eq!(fra["network"]["podCIDR"], "10.20.0.0/14");
    assert_eq!(
        fra["identity"]["kubeSystemUID"].as_str().map(str::len),
        Some(36)
    );
    assert_eq!(fra["exceptions"][0]["expires"], "2027-12-31");
    assert_eq!(fra["maintenanceWindow"]["duration"], "4h");
    assert_eq!(
        fra["maintenanceWindow"]["start"], "02:00",
        "as the ledger writes it"
    );
    assert_eq!(fra["backup"]["lastRestoreDrill"], "2026-11-15");
}

#[test]
fn show_selects_and_prints_tables_and_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let out = fleetdeck(
        &[
            "--ledger",
            example,
            "ledger",
            "show",
            "--selector",
            "env=production,tier=critical,accelerator",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let ids: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        ids,
        vec!["cn-sh-gpu-01", "eu-fra-gpu-01", "us-va-gpu-01"],
        "{text}"
    );
    let out = fleetdeck(
        &[
            "--ledger",
            example,
            "ledger",
            "show",
            "-l",
            "region in (us-east),lifecycle!=building",
            "-o",
            "yaml",
        ],
        dir.path(),
    );
    let text = stdout(&out);
    assert_eq!(
        text.matches("\n- id: ").count() + usize::from(text.starts_with("- id: ")),
        4,
        "{text}"
    );
    let out = fleetdeck(
        &["--ledger", example, "ledger", "show", "-l", "env in (a"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid selector"));
}

#[test]
fn show_refuses_a_ledger_with_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.yaml"),
        example_ledger().replacen("env: staging", "env: stage", 1),
    )
    .unwrap();
    let out = fleetdeck(&["--ledger", "bad.yaml", "ledger", "show"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.yaml:") && err.contains("env \"stage\" is not in the labelDictionary"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing is printed from a broken ledger"
    );
}

#[test]
fn contexts_maps_both_ways_with_merged_kubeconfigs() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    std::fs::write(
        dir.path().join("a"),
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster: {server: 'https://cn-sh-prod-01.k8s.example.internal:6443'}\ncontexts:\n- name: cn-sh-prod-01\n  context: {cluster: c1, user: u}\n- name: scratch\n  context: {cluster: c1, user: u}\nusers:\n- name: u\n  user: {}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b"),
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c2\n  cluster: {server: 'https://10.9.9.9:6443'}\ncontexts:\n- name: us-va-prod-01\n  context: {cluster: c2, user: u}\nusers:\n- name: u\n  user: {}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args(["--ledger", example, "ledger", "contexts", "-o", "json"])
        .env("FLEETDECK_CONFIG", dir.path().join("config.toml"))
        .env("FLEETDECK_DATA_DIR", dir.path().join("data"))
        .env(
            "KUBECONFIG",
            format!(
                "{}:{}",
                dir.path().join("a").display(),
                dir.path().join("b").display()
            ),
        )
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a missing context and a server mismatch are problems: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["clusters"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["cluster"] == id).unwrap().clone();
    assert_eq!(row("cn-sh-prod-01")["found"], true);
    assert_eq!(row("cn-sh-prod-01")["serverDiffers"], false);
    assert_eq!(row("us-va-prod-01")["serverDiffers"], true);
    assert_eq!(row("eu-fra-prod-01")["found"], false);
    assert_eq!(
        report["unregisteredContexts"],
        serde_json::json!(["scratch"])
    );
}

#[test]
fn config_file_sets_the_ledger_and_bad_config_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    std::fs::write(
        dir.path().join("config.toml"),
        format!("ledger = \"{example}\"\nactor = \"alice@ops\"\n"),
    )
    .unwrap();
    let out = fleetdeck(&["config", "paths", "-o", "json"], dir.path());
    assert!(out.status.success());
    let paths: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(paths["ledger"], example);
    assert_eq!(paths["actor"], "alice@ops");
    assert!(
        paths["journal"]
            .as_str()
            .unwrap()
            .ends_with("data/journal.sqlite")
    );
    assert!(fleetdeck(&["ledger", "show"], dir.path()).status.success());

    std::fs::write(
        dir.path().join("config.toml"),
        "ledger = \"x\"\nreadonly = \"yes\"\n",
    )
    .unwrap();
    let out = fleetdeck(&["config", "paths"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("config.toml:2:12:"), "{err}");
}

#[test]
fn completions_version_and_help() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let out = fleetdeck(&["completions", shell], dir.path());
        assert!(out.status.success());
        assert!(stdout(&out).contains("validate"), "{shell}");
    }
    let out = fleetdeck(&["--version"], dir.path());
    assert_eq!(
        stdout(&out).trim(),
        format!("fleetdeck {}", env!("CARGO_PKG_VERSION"))
    );
    for args in [
        &["--help"][..],
        &["ledger", "--help"],
        &["ledger", "validate", "--help"],
        &["config", "paths", "--help"],
    ] {
        let out = fleetdeck(args, dir.path());
        assert!(out.status.success(), "{args:?}");
        assert!(stdout(&out).contains("Usage:"), "{args:?}");
    }
}

#[test]
fn a_file_that_cannot_be_read_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = fleetdeck(&["ledger", "validate", "nope.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("fleetdeck: cannot read ledger nope.yaml: "),
        "{err}"
    );
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
}
