//! `fleetdeck snapshot` on a fleet whose users run exec plugins, as a user runs it: the
//! plugin's chatter stays off the terminal, a plugin that fails or hangs is named on the
//! clusters that use it and only on those, and the others sync.

use crate::support::cli::{command, text};
use crate::support::credentials::{ExecFleet, exec_fleet, runs};

/// `fleetdeck --ledger … --kubeconfig … snapshot ARGS` in `dir`, with no terminal on
/// stdin (as in CI and cron).
async fn snapshot(
    served: &ExecFleet,
    dir: &std::path::Path,
    args: &[&str],
) -> std::process::Output {
    let mut all: Vec<String> = [
        "--ledger",
        &served.ledger.display().to_string(),
        "--kubeconfig",
        &served.kubeconfig.display().to_string(),
        "--journal",
        &dir.join("journal.sqlite").display().to_string(),
        "snapshot",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    all.extend(args.iter().map(|s| s.to_string()));
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = all.iter().map(String::as_str).collect();
        command(&args, &dir)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs")
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chatty_plugin_s_stderr_never_reaches_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(
        dir.path(),
        "demo",
        r#"{"delaySeconds": 0.5, "stderr": ["plugin chatter: refreshing the SSO cache"]}"#,
        None,
        false,
    )
    .await;
    let out = snapshot(&served, dir.path(), &[]).await;
    let said = text(&out);
    assert!(!said.contains("plugin chatter"), "{said}");
    assert!(said.contains("37 Synced"), "{said}");
    assert_eq!(runs(&served.state).len(), 1);
    let json = snapshot(&served, dir.path(), &["-o", "json"]).await;
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let first = &value[0]["credential"];
    assert_eq!(first["kind"], "exec", "{first}");
    // The chatter is kept where it belongs: with the credential, for the cluster's page.
    assert_eq!(
        first["stderr"][0],
        "plugin chatter: refreshing the SSO cache"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_or_hanging_plugin_is_named_on_its_clusters_only() {
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(dir.path(), "small", "{}", None, false).await;
    served.split_off(
        "failing",
        &["small-01"],
        &dir.path().join("failing"),
        r#"{"stderr": ["reading profile ops"], "fail": "error: profile ops: the token endpoint answered 500"}"#,
    );
    served.split_off(
        "hanging",
        &["small-02"],
        &dir.path().join("hanging"),
        r#"{"hang": true}"#,
    );
    std::fs::write(
        dir.path().join("config.toml"),
        "[credentials]\nexec_timeout = \"2s\"\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let out = snapshot(&served, dir.path(), &["-o", "json"]).await;
    let value: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    let cluster = |id: &str| {
        value
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("{id} in {value}"))
    };
    let failing = cluster("small-01");
    assert_eq!(failing["status"], "Credentials");
    assert_eq!(failing["credential"]["problem"]["kind"], "failed");
    assert_eq!(
        failing["credential"]["problem"]["message"],
        "exec plugin fleetdeck failed with exit code 1: error: profile ops: the token endpoint answered 500"
    );
    let hanging = cluster("small-02");
    assert_eq!(hanging["status"], "Credentials");
    assert_eq!(hanging["credential"]["problem"]["kind"], "timedOut");
    assert_eq!(
        hanging["credential"]["problem"]["message"],
        "exec plugin fleetdeck did not answer within 2s and was stopped"
    );
    assert_eq!(cluster("small-stg-01")["status"], "Synced");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "the snapshot did not wait for the hung plugin: {:?}",
        started.elapsed()
    );
    // The hung plugin was stopped, not left behind.
    let hung = runs(&dir.path().join("hanging"));
    assert_eq!(hung.len(), 1);
    let pid_alive = std::process::Command::new("pgrep")
        .args(["-f", &dir.path().join("hanging").display().to_string()])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(!pid_alive, "the hung plugin was killed");
    // The table says the same, in words.
    let table = snapshot(&served, dir.path(), &[]).await;
    let said = text(&table);
    assert!(said.contains("credentials (plugin timed out)"), "{said}");
    assert!(!said.contains("reading profile ops"), "{said}");
}
