//! The cell's promises, with a real plugin (a shell script) and a store of each test's own.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::super::source::{CredentialSource, ExecSpec, Interactive};
use super::super::{CredentialSettings, CredentialStore};
use crate::model::live::ProblemKind;

/// A plugin that counts its runs in `dir/runs`, waits `delay`, and hands out a new token
/// each run that lives `ttl` seconds (none without). `extra` runs first (to fail, say).
fn plugin(dir: &Path, delay: &str, ttl: Option<u32>, extra: &str) -> CredentialSource {
    let expiry = match ttl {
        Some(ttl) => format!(
            r#","expirationTimestamp":"'"$(date -u -d "+{ttl} seconds" +%Y-%m-%dT%H:%M:%S.%NZ)"'""#
        ),
        None => String::new(),
    };
    let script = format!(
        r#"echo run >> '{runs}'; {extra} sleep {delay}; echo "chatter on stderr" >&2; echo '{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{{"token":"t-'"$(wc -l < '{runs}' | tr -d ' ')"'"{expiry}}}}}'"#,
        runs = dir.join("runs").display(),
    );
    CredentialSource::Exec(Box::new(ExecSpec {
        api_version: "client.authentication.k8s.io/v1".into(),
        command: "sh".into(),
        args: vec!["-c".into(), script],
        env: Vec::new(),
        interactive: Interactive::Never,
        cluster: None,
        install_hint: None,
    }))
}

fn runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn token(issued: &super::Issued) -> String {
    issued
        .authorization
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everyone_waiting_shares_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(plugin(dir.path(), "0.3", None, ""));
    let again = store.cell(plugin(dir.path(), "0.3", None, ""));
    assert!(Arc::ptr_eq(&cell, &again), "one cell per source");
    let waiting: Vec<_> = (0..20)
        .map(|_| {
            let cell = Arc::clone(&cell);
            tokio::spawn(async move { cell.get().await.map(|i| token(&i)) })
        })
        .collect();
    for task in waiting {
        assert_eq!(task.await.unwrap().unwrap(), "Bearer t-1");
    }
    assert_eq!(runs(dir.path()), 1);
    let report = cell.report("ops");
    assert_eq!(report.runs, 1);
    assert_eq!(report.stderr, ["chatter on stderr"]);
    assert_eq!(store.stats().runs, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_is_renewed_in_the_background_before_it_expires() {
    let dir = tempfile::tempdir().unwrap();
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(plugin(dir.path(), "0", Some(8), ""));
    let first = cell.get().await.unwrap();
    assert_eq!(token(&first), "Bearer t-1");
    // A quarter of its life is left after 6 s: the next use starts the renewal and is
    // answered with the credential in hand, without waiting for it.
    tokio::time::sleep(Duration::from_millis(6400)).await;
    let during = cell.get().await.unwrap();
    assert_eq!(during.serial, first.serial, "the old one is still good");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while runs(dir.path()) < 2 || cell.report("").obtained_at == Some(first.obtained_at) {
        assert!(std::time::Instant::now() < deadline, "renewed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let renewed = cell.get().await.unwrap();
    assert_eq!(token(&renewed), "Bearer t-2");
    assert_eq!(runs(dir.path()), 2, "once per lifetime");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_plugin_is_not_run_again_before_its_retry_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(plugin(
        dir.path(),
        "0",
        None,
        "echo 'error: profile ops has no credentials' >&2; exit 1;",
    ));
    let first = cell.get().await.unwrap_err();
    assert_eq!(first.kind, ProblemKind::Failed);
    assert!(
        first
            .message
            .ends_with("error: profile ops has no credentials"),
        "{}",
        first.message
    );
    let second = cell.get().await.unwrap_err();
    assert_eq!(second, first, "the same problem, at once");
    assert_eq!(runs(dir.path()), 1);
    assert_eq!(cell.problem(), Some(first));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_credential_is_asked_for_once_more_and_the_same_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(plugin(dir.path(), "0", None, ""));
    let first = cell.get().await.unwrap();
    let fresh = cell.refused(&first).await.expect("a new token");
    assert_eq!(token(&fresh), "Bearer t-2");
    // A second refusal of the old one (another request in flight) gets the new one
    // without another run.
    let same = cell.refused(&first).await.expect("the new one");
    assert_eq!(same.serial, fresh.serial);
    assert_eq!(runs(dir.path()), 2);

    // A plugin that hands out the refused token again leaves the problem named.
    let stale_dir = tempfile::tempdir().unwrap();
    let stale = store.cell(CredentialSource::Exec(Box::new(ExecSpec {
        api_version: "client.authentication.k8s.io/v1".into(),
        command: "sh".into(),
        args: vec![
            "-c".into(),
            format!(
                r#"echo run >> '{}'; echo '{{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{{"token":"revoked"}}}}'"#,
                stale_dir.path().join("runs").display()
            ),
        ],
        env: Vec::new(),
        interactive: Interactive::Never,
        cluster: None,
        install_hint: None,
    })));
    let used = stale.get().await.unwrap();
    assert!(stale.refused(&used).await.is_none());
    let problem = stale.problem().expect("refused");
    assert_eq!(problem.kind, ProblemKind::Refused);
    assert!(
        problem.message.contains("same one again"),
        "{}",
        problem.message
    );
    assert_eq!(
        runs(stale_dir.path()),
        2,
        "one forced re-run, then the error"
    );
    assert_eq!(stale.get().await.unwrap_err().kind, ProblemKind::Refused);
    assert_eq!(runs(stale_dir.path()), 2, "not again before the retry time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_more_plugins_run_at_once_than_the_bound() {
    let store = CredentialStore::new(CredentialSettings {
        max_parallel: 3,
        ..CredentialSettings::default()
    });
    let dirs: Vec<_> = (0..12).map(|_| tempfile::tempdir().unwrap()).collect();
    let tasks: Vec<_> = dirs
        .iter()
        .map(|dir| {
            let cell = store.cell(plugin(dir.path(), "0.2", None, ""));
            tokio::spawn(async move { cell.get().await.is_ok() })
        })
        .collect();
    for task in tasks {
        assert!(task.await.unwrap());
    }
    let stats = store.stats();
    assert_eq!(stats.runs, 12);
    assert!(stats.peak <= 3, "{stats:?}");
    assert_eq!(stats.running, 0);
}

#[tokio::test]
async fn a_token_file_is_read_again_when_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("token");
    std::fs::write(&path, "first\n").unwrap();
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(CredentialSource::TokenFile(path.clone()));
    assert_eq!(token(&cell.get().await.unwrap()), "Bearer first");
    std::fs::write(&path, "second-and-longer\n").unwrap();
    // A refusal reads it at once; otherwise it is looked at every few seconds.
    let used = cell.get().await.unwrap();
    let fresh = cell.refused(&used).await.expect("re-read");
    assert_eq!(token(&fresh), "Bearer second-and-longer");
    std::fs::remove_file(&path).unwrap();
    let again = cell.refused(&fresh).await;
    assert!(again.is_none());
    assert_eq!(
        cell.problem().map(|p| p.kind),
        Some(ProblemKind::Unreadable)
    );
}

#[tokio::test]
async fn an_auth_provider_is_refused_with_its_replacement() {
    let store = CredentialStore::new(CredentialSettings::default());
    let cell = store.cell(CredentialSource::AuthProvider("oidc".into()));
    let problem = cell.get().await.unwrap_err();
    assert_eq!(problem.kind, ProblemKind::Unsupported);
    assert!(problem.message.contains("kubelogin"), "{}", problem.message);
}
