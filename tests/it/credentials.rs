//! The credential layer against the simulator over real HTTPS, through the real kube
//! client: an exec plugin (the simulator's, a separate process per run, as a real plugin
//! is) fetching short-lived tokens that expire and can be revoked.

use std::time::Duration;

use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::model::live::{ClusterStatus, CredentialKind, ProblemKind};
use k8s_openapi::api::core::v1::Namespace;
use kube::Api;

use crate::support::credentials::{exec_fleet, most_at_once, runs};

/// Statuses per cluster id.
fn statuses(
    snapshot: &fleetdeck::model::live::FleetSnapshot,
) -> std::collections::BTreeMap<String, ClusterStatus> {
    snapshot
        .clusters
        .iter()
        .map(|c| (c.id.to_string(), c.status))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exec_plugin_syncs_what_a_static_token_does_with_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(
        dir.path(),
        "demo",
        r#"{"delaySeconds": 0.5, "stderr": ["plugin: using profile fleet-ops"]}"#,
        None,
        false,
    )
    .await;
    let (ledger, kubeconfig) = served.read();
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let with_plugin = sync.wait_settled(Duration::from_secs(60)).await;
    sync.stop();

    // The same fleet through its static token.
    let token_config = dir.path().join("kubeconfig-token");
    fleetdeck::sim::write_kubeconfig(&served.fleet, &token_config, served.addr).unwrap();
    let token_config = kube::config::Kubeconfig::read_from(&token_config).unwrap();
    let mut sync = FleetSync::start(&ledger, token_config, FleetSyncOptions::default());
    let with_token = sync.wait_settled(Duration::from_secs(60)).await;
    sync.stop();

    assert_eq!(statuses(&with_plugin), statuses(&with_token));
    let synced = with_plugin
        .clusters
        .iter()
        .filter(|c| c.status == ClusterStatus::Synced)
        .count();
    assert!(synced >= 35, "{synced} synced");
    assert_eq!(runs(&served.state).len(), 1, "one run for every cluster");
    let report = with_plugin.clusters[0]
        .credential
        .clone()
        .expect("reported");
    assert!(matches!(report.kind, CredentialKind::Exec { .. }));
    assert_eq!(report.stderr, ["plugin: using profile fleet-ops"]);
    assert!(report.expires_at.is_some() && report.problem.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_lived_tokens_are_renewed_before_they_expire() {
    let dir = tempfile::tempdir().unwrap();
    let ttl = 5.0;
    let served = exec_fleet(
        dir.path(),
        "small",
        r#"{"delaySeconds": 0.3}"#,
        Some(ttl),
        false,
    )
    .await;
    let (ledger, kubeconfig) = served.read();
    // Watches that end every two seconds keep the credential in use, as a busy console's
    // requests do.
    let mut options = FleetSyncOptions::default();
    options.cluster.reflect.watch_timeout_secs = 2;
    let mut sync = FleetSync::start(&ledger, kubeconfig, options);
    let first = sync.wait_settled(Duration::from_secs(30)).await;
    assert!(
        first
            .clusters
            .iter()
            .all(|c| c.status == ClusterStatus::Synced),
        "{:?}",
        statuses(&first)
    );
    let started = std::time::Instant::now();
    let watched = Duration::from_secs(25);
    let mut seen = 0;
    while started.elapsed() < watched {
        if tokio::time::timeout(Duration::from_secs(1), sync.snapshots.changed())
            .await
            .is_ok()
        {
            let now = sync.snapshots.borrow_and_update().clone();
            for c in now.clusters.iter() {
                assert_eq!(
                    c.status,
                    ClusterStatus::Synced,
                    "{} after {:?}: {:?}",
                    c.id,
                    started.elapsed(),
                    c.last_error
                );
            }
            seen += 1;
        }
    }
    sync.stop();
    assert!(seen > 0, "snapshots were published");
    let tokens = served.control("GET", "/sim/v1/tokens", None).await;
    assert_eq!(
        tokens["expiredRefusals"], 0,
        "no request was sent with an expired token: {tokens}"
    );
    let ran = runs(&served.state).len() as f64;
    let lifetimes = (started.elapsed().as_secs_f64() + 5.0) / ttl;
    assert!(
        ran >= lifetimes * 0.8 && ran <= lifetimes * 1.6 + 1.0,
        "{ran} runs in {lifetimes:.1} token lifetimes: about one per lifetime"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_token_is_replaced_with_one_run_and_a_stale_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(dir.path(), "small", "{}", None, false).await;
    let (ledger, kubeconfig) = served.read();
    let cluster = &ledger.clusters[0];
    let client = connect(cluster, &kubeconfig, &ConnectOptions::default())
        .await
        .unwrap();
    let namespaces: Api<Namespace> = Api::all(client.client.clone());
    namespaces.get("kube-system").await.expect("first read");
    assert_eq!(runs(&served.state).len(), 1);

    let revoked = served
        .control(
            "POST",
            "/sim/v1/tokens/revoke",
            Some(r#"{"user": "admin"}"#),
        )
        .await;
    assert_eq!(revoked["revoked"], 1);
    namespaces
        .get("kube-system")
        .await
        .expect("read again with a new token");
    assert_eq!(runs(&served.state).len(), 2, "one re-run");

    // A plugin whose cache hands out the revoked token again.
    std::fs::write(served.state.join("behaviour.json"), r#"{"stale": true}"#).unwrap();
    served
        .control(
            "POST",
            "/sim/v1/tokens/revoke",
            Some(r#"{"user": "admin"}"#),
        )
        .await;
    let refused = namespaces.get("kube-system").await.unwrap_err();
    assert!(
        matches!(&refused, kube::Error::Api(s) if s.code == 401),
        "{refused:?}"
    );
    assert_eq!(
        runs(&served.state).len(),
        3,
        "one forced re-run, then the error"
    );
    let problem = client.credential.problem().expect("named");
    assert_eq!(problem.kind, ProblemKind::Refused);
    assert!(
        problem.message.contains("same one again"),
        "{}",
        problem.message
    );

    // The cluster reads so wherever it is shown, without another run.
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let snapshot = sync.wait_settled(Duration::from_secs(20)).await;
    sync.stop();
    let seen = snapshot.cluster(&cluster.id.0).unwrap();
    assert_eq!(seen.status, ClusterStatus::Credentials);
    assert!(
        seen.last_error
            .as_deref()
            .is_some_and(|e| e.contains("refused by the server") && e.contains("same one again")),
        "{:?}",
        seen.last_error
    );
    assert_eq!(runs(&served.state).len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_user_per_cluster_never_runs_more_plugins_at_once_than_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(dir.path(), "demo", r#"{"delaySeconds": 0.4}"#, None, true).await;
    let (ledger, kubeconfig) = served.read();
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let snapshot = sync.wait_settled(Duration::from_secs(90)).await;
    sync.stop();
    let done = runs(&served.state);
    let reported: Vec<u64> = snapshot
        .clusters
        .iter()
        .filter_map(|c| c.credential.as_ref().map(|r| r.runs))
        .collect();
    assert!(
        reported.iter().all(|r| *r == 1),
        "each cluster's own credential ran once: {reported:?}"
    );
    assert_eq!(done.len(), reported.len());
    assert!(done.len() >= 35, "{} runs", done.len());
    let bound = fleetdeck::k8s::credentials::store().settings().max_parallel;
    let most = most_at_once(&done);
    assert!(most <= bound, "{most} at once, bound {bound}");
    assert!(most >= 2, "they did run side by side: {most}");
    let synced = snapshot
        .clusters
        .iter()
        .filter(|c| c.status == ClusterStatus::Synced)
        .count();
    assert!(synced >= 35, "{synced} synced");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_certificate_a_plugin_hands_out_is_kept_for_the_tls_layer() {
    // A real certificate and key (the simulator's serving pair), handed out as a
    // Pinniped or Teleport plugin hands out a client certificate.
    let chain = include_str!("../../src/sim/tls/server.pem");
    let key = include_str!("../../src/sim/tls/server-key.pem");
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(
        &answer,
        serde_json::json!({
            "apiVersion": "client.authentication.k8s.io/v1",
            "kind": "ExecCredential",
            "status": {"clientCertificateData": chain, "clientKeyData": key},
        })
        .to_string(),
    )
    .unwrap();
    let store = fleetdeck::k8s::credentials::CredentialStore::new(Default::default());
    let cell = store.cell(fleetdeck::k8s::credentials::CredentialSource::Exec(
        Box::new(fleetdeck::k8s::credentials::source::ExecSpec {
            api_version: "client.authentication.k8s.io/v1".into(),
            command: "cat".into(),
            args: vec![answer.display().to_string()],
            env: Vec::new(),
            interactive: fleetdeck::k8s::credentials::source::Interactive::Never,
            cluster: None,
            install_hint: None,
        }),
    ));
    let issued = cell.get().await.expect("a certificate");
    assert!(
        issued.authorization.is_none(),
        "no token: the certificate is the credential"
    );
    assert!(
        cell.current_certificate().is_some(),
        "presented at each handshake"
    );
    let (subject, not_after) = cell.certificate_expiry().expect("its expiry");
    assert!(!subject.is_empty());
    assert!(not_after > jiff::Timestamp::now());
    let facts = fleetdeck::k8s::findings::credentials::exec_credential(&cell);
    assert!(
        facts
            .iter()
            .any(|f| f.source == fleetdeck::model::findings::CertSource::ClientCertificate),
        "the findings read the certificate's expiry: {facts:?}"
    );
}
