//! Fleet findings end to end on the `findings` scenario, over loopback HTTPS through the
//! real kube client: one cluster per rule (an expiring serving certificate, a webhook
//! failing closed on kube-system, our requests in the catch-all level, a failing readyz
//! check, a stale restore drill, an OutOfSync Application and a suspended Kustomization,
//! a cluster outside its window with a rollout waiting for it, a burn rate high on the
//! short window only, judged from a real Prometheus scraping the simulator), and
//! `fleetdeck findings -o json` and its `--fail-on` exit codes.

use std::time::{Duration, Instant};

use crate::support;
use crate::support::rollout::{Live, Workspace};
use fleetdeck::engine::windows::MaintenanceWindows;
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::findings::{WINDOW_WAIT, burn_observations};
use fleetdeck::model::run::Projection;
use serde_json::Value;

/// One batch over the cluster outside its window and the one that degrades once the
/// release is recorded on it; a two-window gate: 10 minutes and 30 seconds, 10x each at
/// an objective of 99% (1% budget). The soak keeps the batch watched.
const ROLLOUT: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: findings-demo
  bundle: {webapp: "1.0.0"}
  action:
    apply: {directory: manifests}
  checks:
    - nodesReady: {minRatio: 0.5}
targets: "id in (fnd-07, fnd-08)"
stages:
  - {name: all, batchSize: 2, soak: 30m, approval: auto, pick: ordered}
budgets: {maxInFlight: 2}
stopWhen:
  failedClusters: 1
  sloBurnRate: {objective: 99, window: 10m, maxBurn: 10, shortWindow: 30s}
"#;

const CONFIGMAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: findings-demo\n  namespace: default\ndata:\n  mode: blue\n";

fn projection(ws: &Workspace) -> Projection {
    SqliteJournal::open(&ws.path().join("journal.sqlite"), Durability::Full)
        .expect("journal")
        .projection()
        .expect("projection")
}

/// Whether fnd-07's apply waits for its window and fnd-08 burns on the short window only.
fn waiting_and_burning(ws: &Workspace) -> bool {
    let p = projection(ws);
    let waits = p.runs.values().any(|r| {
        r.items.iter().any(|(i, v)| {
            i.as_str() == "fnd-07"
                && v.waiting
                    .as_ref()
                    .is_some_and(|w| w.why.contains(WINDOW_WAIT))
        })
    });
    let short_only = burn_observations(&p).iter().any(|o| {
        o.cluster.as_str() == "fnd-08"
            && o.short_burn.is_some_and(|s| s > o.short_max)
            && o.long_burn.is_some_and(|l| l <= o.long_max)
    });
    waits && short_only
}

/// The runs as the journal has them, for a failure's message.
fn describe_runs(p: &Projection) -> String {
    p.runs
        .values()
        .map(|r| {
            let items: Vec<String> = r
                .items
                .iter()
                .map(|(i, v)| {
                    format!(
                        "{i}: applied {:?}, waiting {:?}, failure {:?}",
                        v.applied,
                        v.waiting.as_ref().map(|w| &w.why),
                        v.failure.as_ref().map(|f| &f.why)
                    )
                })
                .collect();
            format!(
                "{} {:?} batches {:?} gate {:?} evidence {:?}: {}",
                r.id,
                r.status,
                r.rollout.batches,
                r.rollout.last_gate,
                r.rollout.last_evidence,
                items.join("; ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn findings(ws: &Workspace, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["findings", "-o", "json", "--wait-synced", "30s"];
    args.extend_from_slice(extra);
    let out = ws.fleetdeck("alice@ops", &args);
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", support::cli::text(&out)));
    (out.status.code(), json)
}

/// The findings of `cluster` by rule, with their severity.
fn of(report: &Value, cluster: &str) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["cluster"] == cluster)
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or("").to_string(),
                f["severity"].as_str().unwrap_or("").to_string(),
                f["summary"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn has(report: &Value, cluster: &str, rule: &str, severity: &str) -> bool {
    of(report, cluster)
        .iter()
        .any(|(r, s, _)| r == rule && s == severity)
}

/// Every key of the JSON, at any depth, is camelCase (no `_`, no capital first).
fn camel_keys(v: &Value, path: &str) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                assert!(
                    !k.contains('_') && !k.starts_with(|c: char| c.is_ascii_uppercase()),
                    "{path}.{k} is not camelCase"
                );
                camel_keys(v, &format!("{path}.{k}"));
            }
        }
        Value::Array(items) => items.iter().for_each(|i| camel_keys(i, path)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_cluster_per_rule_and_the_exit_codes() {
    let ws = Workspace::new("findings", 27, CONFIGMAP, ROLLOUT).await;
    let prometheus = support::prometheus::start(ws.path(), ws.addr).await;
    let healthy_since = Instant::now();

    // What needs no rollout, while Prometheus gathers healthy traffic for the long
    // window to be judged over.
    let (code, report) = findings(&ws, &["--fail-on", "never"]);
    assert_eq!(code, Some(0), "--fail-on never: {report:#}");
    camel_keys(&report, "");
    assert_eq!(report["kind"], "FindingList");
    assert!(
        has(&report, "fnd-01", "certificateExpiry", "critical"),
        "{:#?}",
        of(&report, "fnd-01")
    );
    assert!(
        of(&report, "fnd-01")[0]
            .2
            .starts_with("API server serving certificate expires in 4 days"),
        "{:#?}",
        of(&report, "fnd-01")
    );
    assert!(
        has(&report, "fnd-02", "webhookFailClosed", "critical"),
        "{:#?}",
        of(&report, "fnd-02")
    );
    assert!(has(&report, "fnd-02", "webhookNoEndpoints", "critical"));
    assert!(has(&report, "fnd-02", "webhookSlow", "warning"));
    assert!(
        has(&report, "fnd-03", "apfCatchAll", "warning"),
        "{:#?}",
        of(&report, "fnd-03")
    );
    assert!(
        has(&report, "fnd-04", "healthCheckFailing", "critical"),
        "{:#?}",
        of(&report, "fnd-04")
    );
    assert!(
        of(&report, "fnd-04")
            .iter()
            .any(|f| f.2 == "readyz check etcd fails")
    );
    assert!(
        has(&report, "fnd-05", "restoreDrillStale", "critical"),
        "{:#?}",
        of(&report, "fnd-05")
    );
    assert!(
        of(&report, "fnd-05")[0]
            .2
            .starts_with("last restore drill was 400 days ago")
    );
    assert!(
        has(&report, "fnd-06", "gitOpsOutOfSync", "warning"),
        "{:#?}",
        of(&report, "fnd-06")
    );
    assert!(has(&report, "fnd-06", "gitOpsSuspended", "warning"));
    assert_eq!(
        of(&report, "fnd-09"),
        Vec::<(String, String, String)>::new()
    );
    // Which flow each cluster's requests land in, resolved to names.
    let flows = |c: &str| -> Value {
        report["clusters"]
            .as_array()
            .and_then(|cs| cs.iter().find(|x| x["cluster"] == c))
            .map(|x| x["flows"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(flows("fnd-03")[0]["priorityLevel"], "catch-all");
    assert_eq!(flows("fnd-09")[0]["priorityLevel"], "fleetdeck");

    // --fail-on: critical findings exist (exit 1); the clean cluster alone passes even at
    // info; a warning fails at warning; a bad severity cannot run (exit 2).
    assert_eq!(findings(&ws, &["--fail-on", "critical"]).0, Some(1));
    let (code, clean) = findings(&ws, &["--fail-on", "info", "-l", "id=fnd-09"]);
    assert_eq!(code, Some(0), "{clean:#}");
    assert_eq!(clean["counts"]["critical"], 0);
    let (code, warned) = findings(&ws, &["--fail-on", "warning", "-l", "id=fnd-03"]);
    assert_eq!(code, Some(1), "{warned:#}");
    let bad = ws.fleetdeck("alice@ops", &["findings", "--fail-on", "severe"]);
    assert_eq!(bad.status.code(), Some(2), "{}", support::cli::text(&bad));

    // The rollout: fnd-07 waits for its window, fnd-08 burns on the short window only.
    let history = Duration::from_secs(45);
    if let Some(rest) = history.checked_sub(healthy_since.elapsed()) {
        tokio::time::sleep(rest).await;
    }
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let mut live = Live::new(&ws).await;
    let mut executor = live
        .executor(&ws, "executor@test", Some(&prometheus.url))
        .with_windows(MaintenanceWindows::from_ledger(&ws.ledger()));
    let deadline = Instant::now() + Duration::from_secs(150);
    while !waiting_and_burning(&ws) {
        assert!(
            Instant::now() < deadline,
            "fnd-07 never waited for its window, or fnd-08 never burned on the short window only: {:#?}\n{}",
            burn_observations(&projection(&ws)),
            describe_runs(&projection(&ws))
        );
        executor.pass().await.expect("pass");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, report) = findings(&ws, &["--fail-on", "never", "-l", "id in (fnd-07, fnd-08)"]);
    assert!(
        has(&report, "fnd-07", "outsideWindow", "info"),
        "{:#?}",
        of(&report, "fnd-07")
    );
    assert!(
        has(&report, "fnd-08", "burnRateShortWindow", "warning"),
        "{:#?}",
        of(&report, "fnd-08")
    );
    assert!(
        of(&report, "fnd-08")[0].2.contains("the gate holds"),
        "{:#?}",
        of(&report, "fnd-08")
    );

    // A person overrides fnd-07's window: the apply goes out, and the findings say why.
    let overridden = ws.fleetdeck(
        "alice@ops",
        &[
            "window",
            "override",
            "fnd-07",
            "--for",
            "1h",
            "--reason",
            "CVE-2026-1234 fix",
        ],
    );
    assert!(
        overridden.status.success(),
        "{}",
        support::cli::text(&overridden)
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        executor.pass().await.expect("pass");
        let p = projection(&ws);
        if p.runs.values().any(|r| {
            r.items
                .iter()
                .any(|(i, v)| i.as_str() == "fnd-07" && v.applied.is_some())
        }) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the override did not let fnd-07's apply go"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, report) = findings(&ws, &["--fail-on", "never", "-l", "id=fnd-07"]);
    assert!(
        has(&report, "fnd-07", "windowOverride", "warning"),
        "{report:#}"
    );
    assert!(
        !has(&report, "fnd-07", "outsideWindow", "info"),
        "{report:#}"
    );
    live.stop();
}
