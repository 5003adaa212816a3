//! One JSON convention: every command's `-o json` uses Kubernetes' camelCase keys, never
//! snake_case. Each command runs through the binary against a simulated fleet and a journal
//! that holds a maintenance and a rollout the executor has worked on, so the nested views
//! (steps, intents, batches, pauses) are in the output, not only empty lists.

use std::time::{Duration, Instant};

use crate::support;
use crate::support::rollout::{Live, Workspace};
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};

const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: cni-keys-1
  bundle: {cni: cilium-1.17.2}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: ""
stages:
  - {name: canary, count: 1, batchSize: 1, soak: 1s, approval: auto, pick: ordered}
  - {name: rest, batchSize: 2, soak: 1s, approval: required, pick: ordered}
budgets: {maxInFlight: 2}
stopWhen:
  failedClusters: 1
"#;

const MANIFESTS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cni-settings\n  namespace: kube-system\ndata:\n  version: cilium-1.17.2\n";

/// A key written in snake_case: lowercase words joined by `_`. Data keys (cluster ids,
/// label keys, node names) carry `-`, `.` or `/`, never only letters and `_`.
fn is_snake_case(key: &str) -> bool {
    key.contains('_')
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Every snake_case key in `value`, with its path.
fn snake_keys(value: &serde_json::Value, path: &str, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                let here = format!("{path}.{key}");
                if is_snake_case(key) {
                    out.push(here.clone());
                }
                snake_keys(inner, &here, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (n, inner) in items.iter().enumerate() {
                snake_keys(inner, &format!("{path}[{n}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_rule_tells_snake_case_from_data_keys() {
    assert!(is_snake_case("created_by"));
    assert!(is_snake_case("open_intents"));
    for key in [
        "createdBy",
        "prod-use1-01",
        "topology.kubernetes.io/zone",
        "nvidia.com/gpu",
        "kubeSystemUID",
        "_private",
        "small-02-n001",
    ] {
        assert!(!is_snake_case(key), "{key}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_commands_json_output_uses_camel_case_keys() {
    let ws = Workspace::new("small", 41, MANIFESTS, ROLLOUT).await;
    let cluster = ws.ledger().clusters[1].id.0.clone();
    let node = format!("{cluster}-n001");
    let maintenance = format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: keys\ncluster: {cluster}\nnodes:\n  names: [{node}]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n"
    );
    std::fs::write(ws.path().join("maintenance.yaml"), maintenance).expect("write");
    let run = |args: &[&str]| {
        let out = ws.fleetdeck("alice@ops", args);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            support::cli::text(&out),
        )
    };
    let (code, _, text) = run(&["maintenance", "start", "maintenance.yaml"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, _, text) = run(&["rollout", "start", "rollout.yaml"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, _, text) = run(&["pause", "--cluster", &cluster, "--reason", "keys"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, _, text) = run(&["resume", "--cluster", &cluster, "--note", "keys"]);
    assert_eq!(code, Some(0), "{text}");

    // The executor works on both until the rollout's second batch awaits approval.
    let mut live = Live::new(&ws).await;
    let mut executor = live.executor(&ws, "executor-a", None);
    let journal = ws.path().join("journal.sqlite");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        executor.pass().await.expect("pass");
        let projection = SqliteJournal::open(&journal, Durability::Full)
            .expect("journal")
            .projection()
            .expect("projection");
        let waits = projection.runs.values().any(|r| {
            r.rollout
                .batches
                .values()
                .any(|b| matches!(b, fleetdeck::model::rollout::BatchPhase::AwaitingApproval))
        });
        let maintained = projection
            .runs
            .values()
            .any(|r| !r.is_rollout() && r.status == fleetdeck::model::run::RunStatus::Succeeded);
        if waits && maintained {
            break;
        }
        assert!(Instant::now() < deadline, "the runs never got there");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    live.stop();
    let projection = SqliteJournal::open(&journal, Durability::Full)
        .expect("journal")
        .projection()
        .expect("projection");
    let id_of = |rollout: bool| {
        projection
            .runs
            .values()
            .find(|r| r.is_rollout() == rollout)
            .map(|r| r.id.0.clone())
            .expect("run")
    };
    let (rollout_run, maintenance_run) = (id_of(true), id_of(false));
    let zone_loss = "zone=us-east-1a".to_string();
    let cluster_loss = format!("cluster={cluster}");

    let commands: Vec<Vec<&str>> = vec![
        vec!["ledger", "validate", "ledger.yaml"],
        vec!["ledger", "show"],
        vec!["ledger", "contexts"],
        vec!["ledger", "reconcile", "--suggest"],
        vec!["snapshot"],
        vec!["capacity"],
        vec![
            "capacity",
            "--cluster",
            &cluster,
            "--gang",
            "1xnvidia.com/gpu",
        ],
        vec!["capacity", "--what-if", &zone_loss],
        vec!["capacity", "--what-if", &cluster_loss],
        vec!["config", "paths"],
        vec!["journal"],
        vec!["handover"],
        vec!["maintenance", "plan", "maintenance.yaml"],
        vec!["maintenance", "list"],
        vec!["maintenance", "show", &maintenance_run],
        vec!["rollout", "plan", "rollout.yaml"],
        vec!["rollout", "list"],
        vec!["rollout", "show", &rollout_run],
    ];
    let mut found = Vec::new();
    for command in &commands {
        let mut args = command.clone();
        args.extend(["-o", "json"]);
        let (_, stdout, text) = run(&args);
        let value: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("`{}` printed no JSON ({e}): {text}", command.join(" ")));
        let mut keys = Vec::new();
        snake_keys(&value, "", &mut keys);
        found.extend(
            keys.into_iter()
                .map(|k| format!("{}: {k}", command.join(" "))),
        );
    }
    assert!(
        found.is_empty(),
        "snake_case keys in JSON output:\n{}",
        found.join("\n")
    );
}
