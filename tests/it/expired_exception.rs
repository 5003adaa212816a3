//! A ledger exception that expired yesterday is a loud finding, never a lock-out: the
//! console, the executor, `snapshot`, `capacity` and `handover` all work on the simulated
//! fleet and say it; `ledger validate` exits 1; a new change on that cluster needs an
//! explicit, journaled acknowledgement.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::support;
use crate::support::rollout::Workspace;
use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::run::EventBody;

/// Adds to `cluster` in the workspace's ledger an exception that expired yesterday.
fn expire_an_exception(ws: &Workspace, cluster: &str) -> String {
    let path = ws.path().join("ledger.yaml");
    let mut ledger: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("ledger")).expect("json");
    let yesterday = jiff::Zoned::now()
        .date()
        .yesterday()
        .expect("a yesterday")
        .to_string();
    let clusters = ledger["clusters"].as_array_mut().expect("clusters");
    let entry = clusters
        .iter_mut()
        .find(|c| c["id"] == cluster)
        .expect("the cluster");
    entry["exceptions"] = serde_json::json!([{
        "what": "kernel 5.4 pinned",
        "reason": "the indexer regresses on 6.x",
        "owner": "team-search",
        "exitCriteria": "indexer 4.2 soaked",
        "expires": yesterday,
    }]);
    std::fs::write(&path, serde_json::to_string_pretty(&ledger).expect("json")).expect("write");
    yesterday
}

fn maintenance(cluster: &str) -> String {
    format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: {cluster}\nnodes:\n  names: [{cluster}-n001]\naction:\n  exec:\n    argv: [\"true\"]\n    timeout: 30s\nbudgets:\n  maxUnavailable: 1\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exception_that_expired_yesterday_is_said_everywhere_and_locks_nobody_out() {
    support::tmux::require_tmux();
    let ws = Workspace::new("small", 51, "", "").await;
    let cluster = "small-02";
    let expired_on = expire_an_exception(&ws, cluster);
    let finding = format!("exception \"kernel 5.4 pinned\" of {cluster} expired on {expired_on}");
    let run = |args: &[&str]| ws.fleetdeck("alice@ops", args);

    // validate: an error, exit 1, yet the ledger is still read.
    let validated = run(&["ledger", "validate", "ledger.yaml"]);
    let text = support::cli::text(&validated);
    assert_eq!(validated.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("expired on {expired_on} (1 days ago)"))
            && text.contains("still read by every command"),
        "{text}"
    );

    // Observing goes on, and says it.
    for args in [
        vec!["snapshot", "--wait-synced", "20s"],
        vec!["capacity", "--wait-synced", "20s"],
    ] {
        let out = run(&args);
        let text = support::cli::text(&out);
        assert_eq!(out.status.code(), Some(0), "{}: {text}", args[0]);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&finding),
            "{}: {text}",
            args[0]
        );
    }
    let handover = run(&["handover", "-o", "json", "--wait-synced", "20s"]);
    let text = support::cli::text(&handover);
    assert_eq!(handover.status.code(), Some(0), "{text}");
    let report: serde_json::Value = serde_json::from_slice(&handover.stdout).expect("json");
    let items = &report["items"];
    assert!(
        items.as_array().expect("items").iter().any(|i| {
            i["section"] == "exceptions"
                && i.to_string().contains("kernel 5.4 pinned")
                && i.to_string().contains("expired")
        }),
        "{items:#}"
    );

    // A new change on that cluster needs an acknowledgement, which is journaled.
    std::fs::write(ws.path().join("m.yaml"), maintenance(cluster)).expect("write");
    let refused = run(&["maintenance", "start", "m.yaml"]);
    let text = support::cli::text(&refused);
    assert_eq!(refused.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&finding) && text.contains("--acknowledge-expired-exceptions"),
        "{text}"
    );
    let started = run(&[
        "maintenance",
        "start",
        "m.yaml",
        "--acknowledge-expired-exceptions",
    ]);
    let text = support::cli::text(&started);
    assert_eq!(started.status.code(), Some(0), "{text}");
    let journal =
        SqliteJournal::open(&ws.path().join("journal.sqlite"), Durability::Full).expect("journal");
    let notes: Vec<String> = journal
        .query(&Default::default())
        .expect("events")
        .into_iter()
        .filter_map(|e| match e.event.body {
            EventBody::Note { text } if e.event.actor.0 == "alice@ops" => Some(text),
            _ => None,
        })
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("acknowledged") && n.contains(&finding)),
        "{notes:?}"
    );
    drop(journal);

    // The executor starts, says it, and carries the run.
    let mut args = support::cli::workspace_flags("alice@ops").to_vec();
    args.extend(["run", "--lease-ttl", "5s"]);
    let mut executor = support::cli::command(&args, ws.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fleetdeck run");
    let stderr = executor.stderr.take().expect("stderr");
    let lines = tokio::task::spawn_blocking(move || {
        let mut seen = Vec::new();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let started = line.contains("executor") && line.contains("started");
            seen.push(line);
            if started {
                break;
            }
        }
        seen
    })
    .await
    .expect("reader");
    let _ = executor.kill();
    let _ = executor.wait();
    assert!(
        lines.iter().any(|l| l.contains(&finding)),
        "the executor says it: {lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("started")),
        "and starts: {lines:#?}"
    );

    // The console opens on that ledger and its header says it.
    let dir = ws.path().display().to_string();
    let console = support::tmux::Tmux::start(
        "expired-exception",
        &[
            "--ledger",
            &format!("{dir}/ledger.yaml"),
            "--kubeconfig",
            &format!("{dir}/kubeconfig"),
            "--journal",
            &format!("{dir}/journal.sqlite"),
            "--as",
            "alice@ops",
            "--readonly",
        ],
        &[],
    );
    let screen = tokio::task::spawn_blocking(move || {
        let screen = console.wait_for("LEDGER: 1 exception EXPIRED", 30);
        console.send(&["q"]);
        let end = console.wait_for("exit=", 10);
        (screen, end)
    })
    .await
    .expect("console");
    assert!(screen.1.contains("exit=0"), "{}", screen.1);
}
