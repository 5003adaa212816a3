//! A running executor follows ledger edits: `fleetdeck run` is left running while a
//! cluster is rebuilt (a new kube-system UID behind the same context). Its rollout apply
//! waits, saying why, in `rollout show`; `ledger reconcile --suggest` offers the re-pin as
//! a person's decision; a bad ledger edit is refused, the last good ledger kept, and both
//! the journal and the executor's output say so; the re-pinned ledger is taken without a
//! restart and the approved batch goes through.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support;
use crate::support::rollout::{CNI_MANIFEST, Workspace, one_stage_rollout};
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::run::{EventBody, RunStatus};

static ROLLOUT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| one_stage_rollout("cni-repin-1", "{cni: cilium-1.17.2}", "0.5"));

const MANIFESTS: &str = CNI_MANIFEST;

/// `fleetdeck run` in the workspace, its standard error written to `run.err`.
fn start_executor(ws: &Workspace) -> Child {
    let mut args = support::cli::workspace_flags("alice@ops").to_vec();
    args.extend(["run", "--lease-ttl", "5s"]);
    let err = std::fs::File::create(ws.path().join("run.err")).expect("run.err");
    support::cli::command(&args, ws.path())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .expect("fleetdeck run")
}

fn output_of_run(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("run.err")).unwrap_or_default()
}

/// Waits (blocking, off the runtime's threads) until `done` holds.
async fn wait(what: &str, secs: u64, done: impl Fn() -> bool + Send + 'static) {
    let what = what.to_string();
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while !done() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(200));
        }
    })
    .await
    .expect("wait");
}

fn notes(dir: &Path) -> Vec<String> {
    SqliteJournal::open(&dir.join("journal.sqlite"), Durability::Full)
        .and_then(|j| j.query(&Default::default()))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| match e.event.body {
            EventBody::ExecutorNote { text } => Some(text),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_executor_takes_a_re_pin_and_carries_the_batch_through() {
    let ws = Workspace::new("small", 81, MANIFESTS, &ROLLOUT).await;
    let dir = ws.path().to_path_buf();
    let mut executor = start_executor(&ws);
    {
        let dir = dir.clone();
        wait("the executor to start", 60, move || {
            output_of_run(&dir).contains("started")
        })
        .await;
    }

    // small-02 is rebuilt: a new kube-system UID behind the same context.
    let old_uid = ws.fleet.kube_system_uid("small-02").expect("uid");
    let new_uid = ws.fleet.rebuild_identity("small-02").expect("rebuilt");

    let reconciled = ws.fleetdeck("alice@ops", &["ledger", "reconcile", "--suggest"]);
    let text = support::cli::text(&reconciled);
    assert_eq!(reconciled.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "DECIDE: clusters[id=small-02].identity: {{kubeSystemUID: {old_uid}"
        )) && text.contains(&format!("-> {{kubeSystemUID: {new_uid}"))
            && text.contains("a decision for a person"),
        "{text}"
    );

    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(started.status.success(), "{}", support::cli::text(&started));
    let run = SqliteJournal::open(&dir.join("journal.sqlite"), Durability::Full)
        .expect("journal")
        .projection()
        .expect("projection")
        .runs
        .keys()
        .next()
        .expect("run")
        .0
        .clone();
    // The apply to the rebuilt cluster waits, and says for what.
    let show = {
        let dir = dir.clone();
        let run = run.clone();
        move || {
            let out = support::cli::fleetdeck(
                &[
                    "--journal",
                    "journal.sqlite",
                    "rollout",
                    "show",
                    &run,
                    "-o",
                    "json",
                ],
                &dir,
            );
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap_or_default()
        }
    };
    {
        let show = show.clone();
        wait("small-02's apply to say it waits", 60, move || {
            show()["items"]["small-02"]["waiting"]["why"]
                .as_str()
                .is_some_and(|w| w.contains("may not be changed") && w.contains("identity"))
        })
        .await;
    }
    let table = ws.fleetdeck("alice@ops", &["rollout", "show", &run]);
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    assert!(
        table.contains("  small-02: apply waits: small-02 may not be changed:"),
        "{table}"
    );

    // A bad edit is refused: the last good ledger stays, and it is said.
    let ledger_path = dir.join("ledger.yaml");
    let good = std::fs::read_to_string(&ledger_path).expect("ledger");
    std::fs::write(&ledger_path, format!("{good}\n{{ not a ledger")).expect("write");
    {
        let dir = dir.clone();
        wait("the bad edit to be refused", 30, move || {
            notes(&dir)
                .iter()
                .any(|n| n.contains("ledger edit not used, the last good ledger stays in force"))
                && output_of_run(&dir).contains("ledger edit not used")
        })
        .await;
    }

    // The person decided: small-02 is re-pinned. No restart: the batch goes through.
    std::fs::write(&ledger_path, good.replace(&old_uid, &new_uid)).expect("re-pin");
    {
        let dir = dir.clone();
        wait("the rollout to succeed", 90, move || {
            SqliteJournal::open(&dir.join("journal.sqlite"), Durability::Full)
                .and_then(|j| j.projection())
                .is_ok_and(|p| p.runs.values().any(|r| r.status == RunStatus::Succeeded))
        })
        .await;
    }
    assert_eq!(ws.patches("small-02", "/configmaps/fleetdeck-release"), 1);
    assert!(
        notes(&dir).iter().any(|n| n.contains("reloaded")),
        "{:?}",
        notes(&dir)
    );
    assert!(
        output_of_run(&dir).contains("reloaded"),
        "{}",
        output_of_run(&dir)
    );
    let _ = executor.kill();
    let _ = executor.wait();
}
