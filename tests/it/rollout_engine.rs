//! Rollouts end to end: the demo's simulated fleet over loopback HTTP through the real kube
//! client, a real Prometheus scraping the simulator's service metrics, the executor in
//! process, and `fleetdeck rollout start|approve` through the binary. The canary waits for
//! approval (and refuses its author under `distinctApprover`); approved, it applies,
//! verifies and soaks, and the next stage starts on its own; a degradation injected on the
//! stage-2 cluster halts the rollout before stage 3 with the burn rate in the reason; a
//! Prometheus that stops scraping halts it with "metrics unknown"; an `exec` release waits
//! out a cluster freeze, gets its environment, and a failing `exec` check fails its cluster
//! and halts the rollout.
//!
//! Over 600 lines: one subject, rollouts end to end with a real Prometheus, sharing the
//! fleet, Prometheus and executor set-up at the top.

use std::collections::HashMap;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::support;
use crate::support::backend::Backend;
use crate::support::rollout::Workspace;
use fleetdeck::engine::executor::{Executor, ExecutorOptions, RolloutOptions};
use fleetdeck::hooks::prometheus::Prometheus;
use fleetdeck::journal::{AnyJournal, JournalStore};
use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::k8s::kube_port::KubePort;
use fleetdeck::k8s::rollout_kube::RolloutSettings;
use fleetdeck::model::rollout::{BatchPhase, HaltReason};
use fleetdeck::model::run::{Actor, Projection, RunId, RunView};
use fleetdeck::sim::{Degradation, ScrapingPrometheus};

const RELEASE: &str = "cni-test-1";

/// The rollout file: three stages of one cluster each (ledger order), an SLO condition
/// over a 20-second window, and `distinctApprover`.
fn rollout_yaml(canary_soak: &str) -> String {
    format!(
        r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: {RELEASE}
  bundle: {{cni: cilium-1.17.2}}
  action:
    apply: {{directory: manifests}}
  checks:
    - nodesReady: {{minRatio: 0.9}}
    - workloadsReady: {{namespace: fleet-system}}
    - prometheus:
        query: sum(rate(http_requests_total{{cluster="$cluster",code="500"}}[20s])) / sum(rate(http_requests_total{{cluster="$cluster"}}[20s]))
        threshold: 0.2
        comparison: lessThan
targets: "env=staging,region=ap-southeast-1"
stages:
  - {{name: canary, count: 1, batchSize: 1, soak: {canary_soak}, approval: required, pick: ordered}}
  - {{name: wave, count: 1, batchSize: 1, soak: 12s, approval: auto, pick: ordered}}
  - {{name: final, batchSize: 1, soak: 2s, approval: auto, pick: ordered}}
budgets: {{maxInFlight: 1}}
stopWhen:
  failedClusters: 1
  sloBurnRate:
    objective: 99
    window: 20s
    maxBurn: 5
    query: sum(rate(http_requests_total{{cluster="$cluster",code="500"}}[$window])) / sum(rate(http_requests_total{{cluster="$cluster"}}[$window]))
  unknownMetrics: stop
approvals:
  distinctApprover: true
"#
    )
}

const MANIFESTS: &str = r#"apiVersion: v1
kind: Namespace
metadata:
  name: fleet-system
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cni-settings
  namespace: fleet-system
data:
  version: cilium-1.17.2
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cni-operator
  namespace: fleet-system
spec:
  replicas: 2
  selector:
    matchLabels: {app: cni-operator}
  template:
    metadata:
      labels: {app: cni-operator}
    spec:
      containers:
        - name: operator
          image: example/cni-operator:1.17.2
          resources:
            requests: {cpu: 10m, memory: 16Mi}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: cni-store
  namespace: fleet-system
spec:
  replicas: 2
  serviceName: cni-store
  selector:
    matchLabels: {app: cni-store}
  template:
    metadata:
      labels: {app: cni-store}
    spec:
      containers:
        - name: store
          image: example/cni-store:1.17.2
          resources:
            requests: {cpu: 10m, memory: 16Mi}
"#;

struct Harness {
    ws: Workspace,
    sync: FleetSync,
    prometheus: ScrapingPrometheus,
    clusters: Vec<String>,
    stop: tokio::sync::watch::Sender<bool>,
    executor: Option<tokio::task::JoinHandle<()>>,
}

impl Harness {
    async fn start(backend: Backend, rollout: String) -> Harness {
        // The demo fleet, as `fleetdeck demo --seed 1` serves it.
        let ws = Workspace::on(backend, "demo", 1, MANIFESTS, &rollout).await;
        let prometheus = support::prometheus::start(ws.path(), ws.addr).await;
        let ledger = ws.ledger();
        // The targets in ledger order (`pick: ordered`): one per stage.
        let clusters: Vec<String> = ["stg-apse1-01", "stg-apse1-02", "stg-apse1-03"]
            .map(String::from)
            .to_vec();
        let contexts: HashMap<String, String> = ledger
            .clusters
            .iter()
            .map(|c| (c.id.to_string(), c.context.clone()))
            .collect();
        let kubeconfig =
            kube::config::Kubeconfig::read_from(ws.path().join("kubeconfig")).expect("kubeconfig");
        let mut clients = HashMap::new();
        for cluster in &ledger.clusters {
            if let Ok(client) = connect(cluster, &kubeconfig, &ConnectOptions::default()).await {
                clients.insert(cluster.id.to_string(), client);
            }
        }
        let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
        sync.wait_settled(Duration::from_secs(20)).await;
        let (stop, stop_rx) = tokio::sync::watch::channel(false);
        let mut harness = Harness {
            ws,
            sync,
            prometheus,
            clusters,
            stop,
            executor: None,
        };
        let store = harness.ws.journal.open_as("executor/test");
        let port = KubePort::new(
            clients,
            harness.sync.snapshots.clone(),
            "executor/test".into(),
        )
        .with_rollout_settings(RolloutSettings {
            prometheus: Some(Prometheus::new(&harness.prometheus.url)),
            kubeconfig: Some(harness.ws.path().join("kubeconfig")),
            contexts,
            ..RolloutSettings::default()
        });
        let mut options = ExecutorOptions::new(Actor("executor/test".into()));
        options.tick = Duration::from_millis(200);
        options.rollout = RolloutOptions {
            verify_timeout: Duration::from_secs(30),
            evidence_interval: Duration::from_secs(1),
        };
        let mut executor =
            Executor::new(store, port, options).with_fleet(harness.sync.snapshots.clone());
        harness.executor = Some(tokio::spawn(async move {
            executor.run_until(stop_rx).await.expect("executor");
        }));
        harness
    }

    fn journal(&self) -> AnyJournal {
        self.ws.journal.open()
    }

    /// `fleetdeck ARGS` as `actor` on this fleet's ledger, kubeconfig and journal.
    fn fleetdeck(&self, actor: &str, args: &[&str]) -> Output {
        self.ws.fleetdeck(actor, args)
    }

    /// Runs the CLI and insists it succeeded.
    fn fleetdeck_ok(&self, actor: &str, args: &[&str]) {
        let out = self.fleetdeck(actor, args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// carol freezes a cluster ("change freeze").
    fn freeze(&self, cluster: &str) {
        self.fleetdeck_ok(
            "carol@ops",
            &["pause", "--cluster", cluster, "--reason", "change freeze"],
        );
    }

    /// carol lifts the freeze ("freeze over").
    fn thaw(&self, cluster: &str) {
        self.fleetdeck_ok(
            "carol@ops",
            &["resume", "--cluster", cluster, "--note", "freeze over"],
        );
    }

    fn start_rollout(&self) -> RunId {
        let out = self.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let id = stdout
            .split_whitespace()
            .nth(1)
            .expect("run id in the output");
        let run = RunId(id.to_string());
        let planned: Vec<Vec<String>> = self.projection().runs[&run]
            .batches
            .iter()
            .map(|b| b.iter().map(|i| i.0.clone()).collect())
            .collect();
        let expected: Vec<Vec<String>> = self.clusters.iter().map(|c| vec![c.clone()]).collect();
        assert_eq!(planned, expected, "one target per stage, in ledger order");
        run
    }

    fn projection(&self) -> Projection {
        self.journal().projection().expect("projection")
    }

    async fn wait_for(
        &self,
        run: &RunId,
        what: &str,
        timeout: Duration,
        done: impl Fn(&RunView) -> bool,
    ) -> RunView {
        let deadline = Instant::now() + timeout;
        loop {
            let projection = self.projection();
            if let Some(view) = projection.runs.get(run)
                && done(view)
            {
                return view.clone();
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {:#?}",
                projection.runs.get(run).map(|r| (&r.status, &r.rollout))
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Waits until the journal holds an event `found` accepts.
    async fn wait_for_event(
        &self,
        what: &str,
        timeout: Duration,
        found: impl Fn(&fleetdeck::model::run::EventBody) -> bool,
    ) {
        let deadline = Instant::now() + timeout;
        loop {
            let events = self
                .journal()
                .query(&fleetdeck::journal::EventQuery::default())
                .expect("events");
            if events.iter().any(|e| found(&e.event.body)) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// PATCH requests to the cluster's release record (one per apply).
    fn record_writes(&self, cluster: &str) -> usize {
        self.ws.patches(cluster, "/configmaps/fleetdeck-release")
    }

    async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.executor.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
        self.sync.stop();
    }
}

fn phase(view: &RunView, batch: usize) -> Option<&BatchPhase> {
    view.rollout.batches.get(&batch)
}

async fn canary_waits_for_a_distinct_approver_then_stages_run_until_a_burn_rate_halts_them(
    backend: Backend,
) {
    let h = Harness::start(backend, rollout_yaml("3s")).await;
    let [canary, second, third] = [&h.clusters[0], &h.clusters[1], &h.clusters[2]];
    // The stage-2 cluster degrades once this release reaches it.
    h.ws.fleet
        .update_faults(second, |f| {
            f.degradation = Some(Degradation {
                error_ratio: 0.6,
                after_release: Some(RELEASE.into()),
            })
        })
        .expect("faults");
    let run = h.start_rollout();

    let view = h
        .wait_for(
            &run,
            "the canary batch to await approval",
            Duration::from_secs(20),
            |v| phase(v, 0) == Some(&BatchPhase::AwaitingApproval),
        )
        .await;
    assert!(view.items.values().all(|i| i.staged.is_none()));
    assert_eq!(
        h.record_writes(canary),
        0,
        "nothing applied before approval"
    );

    // The author may not approve under distinctApprover.
    let refused = h.fleetdeck("alice@ops", &["rollout", "approve", &run.0]);
    assert_eq!(refused.status.code(), Some(1), "refused, not failed to run");
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("alice@ops") && why.contains("approve"),
        "{why}"
    );
    // The attempt is in the audit trail under her name.
    let audit = h.fleetdeck(
        "carol@ops",
        &["journal", "--run", &run.0, "--kind", "operator.refused"],
    );
    let audit = String::from_utf8_lossy(&audit.stdout);
    assert!(
        audit.contains("alice@ops") && audit.contains(r#""command":"approve""#),
        "{audit}"
    );

    let approved = h.fleetdeck(
        "bob@ops",
        &["rollout", "approve", &run.0, "--note", "canary looks fine"],
    );
    assert!(
        approved.status.success(),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );

    // Applied, verified, soaked; then stage 2 starts without a person (approval: auto).
    let view = h
        .wait_for(
            &run,
            "the canary to finish and stage 2 to start",
            Duration::from_secs(60),
            |v| phase(v, 0) == Some(&BatchPhase::Done) && phase(v, 1).is_some(),
        )
        .await;
    let canary_item = &view.items[&fleetdeck::model::run::ItemId(canary.clone())];
    assert!(canary_item.applied.is_some(), "{canary_item:?}");
    assert_eq!(h.record_writes(canary), 1);
    // Its Prometheus check (a 20 s rate) was judged only once its window covered no time
    // from before the change.
    let store = h.journal();
    let canary_events = store
        .query(&fleetdeck::journal::EventQuery {
            run: Some(run.clone()),
            ..Default::default()
        })
        .expect("events")
        .into_iter()
        .filter(|e| e.event.item.as_ref().is_some_and(|i| i.0 == *canary))
        .collect::<Vec<_>>();
    let at = |pick: fn(&fleetdeck::model::run::EventBody) -> bool| {
        canary_events
            .iter()
            .find(|e| pick(&e.event.body))
            .map(|e| e.event.time)
            .expect("event")
    };
    let applied_at = at(|b| matches!(b, fleetdeck::model::run::EventBody::ItemApplied { .. }));
    let verified_at = at(|b| matches!(b, fleetdeck::model::run::EventBody::ItemVerified { .. }));
    assert!(
        verified_at.duration_since(applied_at) >= jiff::SignedDuration::from_secs(20),
        "verified {} after the apply",
        verified_at.duration_since(applied_at)
    );

    // Stage 2's cluster degrades once applied: the soak's evidence halts the rollout.
    let view = h
        .wait_for(&run, "the burn-rate halt", Duration::from_secs(60), |v| {
            v.rollout.halted.is_some()
        })
        .await;
    let why = view.rollout.halted.clone().expect("halted");
    match &why {
        HaltReason::BurnRate {
            cluster,
            burn,
            max_burn,
            ..
        } => {
            assert_eq!(cluster, second);
            assert!(burn > max_burn, "{why}");
        }
        other => panic!("expected a burn-rate halt, got {other}"),
    }
    let text = why.to_string();
    assert!(
        text.contains("SLO burn rate") && text.contains(second.as_str()),
        "{text}"
    );
    // Halted before stage 3: its cluster was never touched.
    assert!(phase(&view, 2).is_none(), "{:?}", view.rollout);
    assert_eq!(h.record_writes(third), 0);
    assert_eq!(h.record_writes(second), 1);

    // `rollout show` names the reason.
    let show = h.fleetdeck("carol@ops", &["rollout", "show", &run.0]);
    let shown = String::from_utf8_lossy(&show.stdout);
    assert!(shown.contains("halted: SLO burn rate"), "{shown}");
    h.stop().await;
}

async fn a_prometheus_that_stops_scraping_halts_the_rollout_with_metrics_unknown(backend: Backend) {
    let mut h = Harness::start(backend, rollout_yaml("5m")).await;
    let run = h.start_rollout();
    h.wait_for(&run, "approval", Duration::from_secs(20), |v| {
        phase(v, 0) == Some(&BatchPhase::AwaitingApproval)
    })
    .await;
    let approved = h.fleetdeck("bob@ops", &["rollout", "approve", &run.0]);
    assert!(
        approved.status.success(),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );
    h.wait_for(&run, "the canary soak", Duration::from_secs(60), |v| {
        matches!(phase(v, 0), Some(BatchPhase::Soaking { .. }))
    })
    .await;
    h.prometheus.stop();
    let view = h
        .wait_for(
            &run,
            "the metrics-unknown halt",
            Duration::from_secs(30),
            |v| v.rollout.halted.is_some(),
        )
        .await;
    let why = view.rollout.halted.expect("halted");
    assert!(matches!(why, HaltReason::MetricsUnknown { .. }), "{why}");
    assert!(why.to_string().contains("metrics unknown"), "{why}");
    assert!(why.to_string().contains("Prometheus unreachable"), "{why}");
    h.stop().await;
}

/// An `exec` release: a program (no shell involved on our side) that records its
/// environment, and an `exec` check that fails on one cluster.
fn exec_rollout(dir: &std::path::Path, failing: &str) -> String {
    let apply = dir.join("apply.sh");
    std::fs::write(
        &apply,
        "#!/bin/sh\necho \"$FLEETDECK_CLUSTER $FLEETDECK_CONTEXT $FLEETDECK_RELEASE $FLEETDECK_IDEMPOTENCY_KEY\" >> \"$(dirname \"$0\")/applied.txt\"\n",
    )
    .expect("apply script");
    let check = dir.join("check.sh");
    std::fs::write(
        &check,
        format!("#!/bin/sh\nif [ \"$FLEETDECK_CLUSTER\" = \"{failing}\" ]; then echo \"health check failed on $FLEETDECK_CLUSTER\"; exit 3; fi\n"),
    )
    .expect("check script");
    for script in [&apply, &check] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    format!(
        r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: helm-test-1
  bundle: {{chart: cni-1.17.2}}
  action:
    exec: {{argv: ["{apply}"], timeout: 30s}}
  checks:
    - exec: {{argv: ["{check}"], timeout: 30s}}
targets: "env=staging,region=ap-southeast-1"
stages:
  - {{name: canary, count: 1, batchSize: 1, soak: 1s, approval: auto, pick: ordered}}
  - {{name: second, count: 1, batchSize: 1, soak: 1s, approval: auto, pick: ordered}}
  - {{name: rest, batchSize: 1, soak: 1s, approval: auto, pick: ordered}}
budgets: {{maxInFlight: 2}}
stopWhen:
  failedClusters: 1
"#,
        apply = apply.display(),
        check = check.display()
    )
}

async fn an_exec_release_waits_out_a_freeze_gets_its_environment_and_a_failing_check_halts_it(
    backend: Backend,
) {
    let scratch = tempfile::tempdir().expect("tempdir");
    let h = Harness::start(backend, exec_rollout(scratch.path(), "stg-apse1-02")).await;
    // A frozen cluster is not changed: its apply waits, visibly, until the freeze lifts.
    h.freeze("stg-apse1-01");
    let run = h.start_rollout();
    h.wait_for_event(
        "a note about the frozen cluster",
        Duration::from_secs(30),
        |body| {
            matches!(body, fleetdeck::model::run::EventBody::Waiting { why }
            if why.contains("apply waits: stg-apse1-01 is frozen (change freeze by carol@ops)"))
        },
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        !scratch.path().join("applied.txt").exists(),
        "nothing is applied to a frozen cluster"
    );
    h.thaw("stg-apse1-01");
    let view = h
        .wait_for(
            &run,
            "the failed-clusters halt",
            Duration::from_secs(60),
            |v| v.rollout.halted.is_some(),
        )
        .await;
    let why = view.rollout.halted.clone().expect("halted");
    assert!(matches!(why, HaltReason::FailedClusters { .. }), "{why}");
    let text = why.to_string();
    assert!(text.contains("stg-apse1-02"), "{text}");
    let verified = &view.items[&fleetdeck::model::run::ItemId("stg-apse1-02".into())].verified;
    assert!(
        format!("{verified:?}").contains("health check failed on stg-apse1-02"),
        "{verified:?}"
    );
    let lines = std::fs::read_to_string(scratch.path().join("applied.txt")).expect("applied");
    let lines: Vec<&str> = lines.lines().collect();
    // Canary, then the second cluster, which fails its check: the third is never touched.
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (cluster, line) in h.clusters.iter().zip(&lines) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], cluster, "{line}");
        assert!(
            !fields[1].is_empty(),
            "the cluster's kubeconfig context: {line}"
        );
        assert_eq!(fields[2], "helm-test-1", "{line}");
        assert!(
            fields[3].starts_with(&run.0) && fields[3].contains("/apply/intent"),
            "{line}"
        );
    }
    for (cluster, writes) in h.clusters.iter().zip([1, 1, 0]) {
        assert_eq!(h.record_writes(cluster), writes, "{cluster}");
    }
    h.stop().await;
}

async fn an_apply_that_waited_out_a_freeze_does_not_go_to_a_paused_run(backend: Backend) {
    let scratch = tempfile::tempdir().expect("tempdir");
    let h = Harness::start(backend, exec_rollout(scratch.path(), "none")).await;
    h.freeze("stg-apse1-01");
    let run = h.start_rollout();
    h.wait_for(
        &run,
        "the apply to wait for the freeze",
        Duration::from_secs(30),
        |v| {
            v.items
                .get(&fleetdeck::model::run::ItemId("stg-apse1-01".into()))
                .and_then(|i| i.waiting.as_ref())
                .is_some_and(|w| w.why.contains("apply waits: stg-apse1-01 is frozen"))
        },
    )
    .await;
    h.fleetdeck_ok(
        "carol@ops",
        &["pause", "--run", &run.0, "--reason", "bad release"],
    );
    h.wait_for_event(
        "the executor to fold the pause",
        Duration::from_secs(30),
        |body| {
            matches!(
                body,
                fleetdeck::model::run::EventBody::RolloutObserved {
                    observation: fleetdeck::model::rollout::Observation::Pause { .. },
                    ..
                }
            )
        },
    )
    .await;
    h.thaw("stg-apse1-01");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        !scratch.path().join("applied.txt").exists(),
        "nothing is applied while the run is paused"
    );
    h.stop().await;
}

/// Serves `http_requests_total` at `/sim/v1/metrics` as a service's client library would
/// expose it: cluster `quiet` has served only 2xx (so it has no 5xx series at all),
/// `failing` answers one request in eleven with a 500, and `gone` has no series.
async fn exporter() -> std::net::SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listener");
    let addr = listener.local_addr().expect("address");
    let start = Instant::now();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buf = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match socket.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let t = start.elapsed().as_secs_f64();
            let body = format!(
                "# TYPE http_requests_total counter\n\
                 http_requests_total{{cluster=\"quiet\",code=\"200\"}} {ok}\n\
                 http_requests_total{{cluster=\"failing\",code=\"200\"}} {ok}\n\
                 http_requests_total{{cluster=\"failing\",code=\"500\"}} {errors}\n",
                ok = 50.0 * t,
                errors = 5.0 * t,
            );
            let response = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(response.as_bytes()).await;
        }
    });
    addr
}

/// A healthy cluster that never answered a 5xx has no 5xx series (client libraries create
/// a labelled series on its first increment). The default error-ratio query reads it as no
/// errors rather than "metrics unknown", which would halt every rollout on a healthy fleet;
/// a cluster without any request series still reads unknown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_slo_query_reads_a_cluster_without_5xx_series_as_no_errors() {
    use fleetdeck::model::ledger::ClusterId;
    use fleetdeck::model::rollout::{BurnRateLimit, MetricReading, RolloutPort};
    let dir = tempfile::tempdir().expect("tempdir");
    let prometheus = support::prometheus::start(dir.path(), exporter().await).await;
    let (_snapshots, snapshots) =
        tokio::sync::watch::channel(fleetdeck::model::live::FleetSnapshot::empty());
    let port = KubePort::new(HashMap::new(), snapshots, "executor/test".into())
        .with_rollout_settings(RolloutSettings {
            prometheus: Some(Prometheus::new(&prometheus.url)),
            ..RolloutSettings::default()
        });
    let slo = BurnRateLimit {
        objective: 0.99,
        window: Duration::from_secs(10),
        max_burn: 5.0,
        error_ratio_query: None,
        short: None,
    };
    let clusters = ["quiet", "failing", "gone"].map(|c| ClusterId(c.into()));
    let evidence = port.burn_evidence(&clusters, &slo).await;
    let reading = |c: &str| evidence.readings.get(&ClusterId(c.into())).cloned();
    assert_eq!(
        reading("quiet"),
        Some(MetricReading::Known { error_ratio: 0.0 }),
        "{evidence:?}"
    );
    match reading("failing") {
        Some(MetricReading::Known { error_ratio }) => {
            assert!((error_ratio - 5.0 / 55.0).abs() < 0.01, "{error_ratio}")
        }
        other => panic!("failing: {other:?}"),
    }
    assert!(
        matches!(reading("gone"), Some(MetricReading::Unknown { .. })),
        "{evidence:?}"
    );
}

/// A soak shorter than the executor's evidence interval sees no evidence during it: the
/// executor gathers evidence as the soak ends and the batch is judged on it, rather than
/// every such rollout halting with "no metric evidence during the soak".
async fn a_soak_shorter_than_the_evidence_interval_ends_on_evidence_gathered_as_it_ends(
    backend: Backend,
) {
    use fleetdeck::model::run::{EventBody, RunStatus};
    let rollout = format!(
        r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: {RELEASE}
  bundle: {{cni: cilium-1.17.2}}
  action:
    apply: {{directory: manifests}}
  checks:
    - nodesReady: {{minRatio: 0.9}}
targets: "env=staging"
stages:
  - {{name: all, batchSize: 1, soak: 2s, approval: auto, pick: ordered}}
budgets: {{maxInFlight: 1}}
stopWhen:
  failedClusters: 1
  sloBurnRate: {{objective: 99, window: 20s, maxBurn: 5}}
  unknownMetrics: stop
"#
    );
    let ws = Workspace::on(backend, "small", 11, MANIFESTS, &rollout).await;
    let prometheus = support::prometheus::start(ws.path(), ws.addr).await;
    let mut live = support::rollout::Live::new(&ws).await;
    let started = ws.fleetdeck("alice@ops", &["rollout", "start", "rollout.yaml"]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    // Evidence at most every 2 minutes: none falls inside the 2 s soak, and waiting for
    // the next interval would outlast the deadline below.
    let mut executor = live.executor_with(&ws, "executor/test", Some(&prometheus.url), |o| {
        o.rollout.evidence_interval = Duration::from_secs(120);
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let view = loop {
        executor.pass().await.expect("pass");
        let projection = ws.journal.open().projection().expect("projection");
        let view = projection.runs.values().next().cloned().expect("the run");
        if view.status.is_final() || view.rollout.halted.is_some() {
            break view;
        }
        assert!(Instant::now() < deadline, "{:?}", view.rollout);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        view.status,
        RunStatus::Succeeded,
        "{:?}",
        view.rollout.halted
    );
    // The batch was judged on evidence: some was journaled while it soaked or as it ended.
    let events = ws
        .journal
        .open()
        .query(&fleetdeck::journal::EventQuery::default())
        .expect("events");
    let soaking = events
        .iter()
        .position(|e| {
            matches!(
                e.event.body,
                EventBody::RolloutBatch {
                    phase: BatchPhase::Soaking { .. },
                    ..
                }
            )
        })
        .expect("the batch soaked");
    assert!(
        events[soaking..].iter().any(|e| matches!(
            &e.event.body,
            EventBody::RolloutObserved {
                observation: fleetdeck::model::rollout::Observation::Evidence(_),
                ..
            }
        )),
        "no evidence after the soak began"
    );
    live.stop();
}

/// No evidence is gathered while a batch waits for its approval; the approval is judged
/// with evidence from then: a canary that started failing during the wait halts the run,
/// and the approved batch never starts.
async fn an_approval_is_judged_on_evidence_from_when_it_is_given(backend: Backend) {
    // The canary goes without a person; the second stage waits for one.
    let yaml = rollout_yaml("2s")
        .replace("approval: required", "approval: AUTO")
        .replace("soak: 12s, approval: auto", "soak: 12s, approval: required")
        .replace("approval: AUTO", "approval: auto");
    let h = Harness::start(backend, yaml).await;
    let [canary, second] = [&h.clusters[0], &h.clusters[1]];
    let run = h.start_rollout();
    h.wait_for(
        &run,
        "the second stage to await approval",
        Duration::from_secs(60),
        |v| {
            phase(v, 0) == Some(&BatchPhase::Done)
                && phase(v, 1) == Some(&BatchPhase::AwaitingApproval)
        },
    )
    .await;
    // While it waits, the canary starts failing; Prometheus scrapes it for a while.
    h.ws.fleet
        .update_faults(canary, |f| {
            f.degradation = Some(Degradation {
                error_ratio: 0.6,
                after_release: None,
            })
        })
        .expect("faults");
    // Until Prometheus has seen enough of it that the burn-rate stop condition holds (an
    // error ratio over 5 × the 1 % budget over the 20 s window).
    let prometheus = Prometheus::new(&h.prometheus.url);
    let ratio = format!(
        r#"sum(rate(http_requests_total{{cluster="{canary}",code="500"}}[20s])) / sum(rate(http_requests_total{{cluster="{canary}"}}[20s]))"#
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while !prometheus.query(&ratio).await.is_ok_and(|r| r > 0.05) {
        assert!(
            Instant::now() < deadline,
            "Prometheus never saw the canary's errors: {:?}",
            prometheus.query(&ratio).await
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    h.fleetdeck_ok(
        "bob@ops",
        &["rollout", "approve", &run.0, "--note", "looks fine"],
    );
    let view = h
        .wait_for(&run, "the burn-rate halt", Duration::from_secs(30), |v| {
            v.rollout.halted.is_some()
        })
        .await;
    match view.rollout.halted.as_ref() {
        Some(HaltReason::BurnRate { cluster, .. }) => assert_eq!(cluster, canary),
        other => panic!("expected a burn-rate halt on the canary, got {other:?}"),
    }
    assert_eq!(
        h.record_writes(second),
        0,
        "the approved batch never started"
    );
    h.stop().await;
}

on_both_backends_async!(
    canary_waits_for_a_distinct_approver_then_stages_run_until_a_burn_rate_halts_them,
    a_prometheus_that_stops_scraping_halts_the_rollout_with_metrics_unknown,
    an_exec_release_waits_out_a_freeze_gets_its_environment_and_a_failing_check_halts_it,
    an_apply_that_waited_out_a_freeze_does_not_go_to_a_paused_run,
    a_soak_shorter_than_the_evidence_interval_ends_on_evidence_gathered_as_it_ends,
    an_approval_is_judged_on_evidence_from_when_it_is_given,
);
