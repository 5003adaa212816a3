//! Each rule on hand-built facts, with answers worked out by hand.
//!
//! Over 600 lines: one hand-worked case per rule and threshold, on the facts built at the
//! top; they split by rule when a rule gains more cases.

use std::collections::BTreeMap;
use std::time::Duration;

use jiff::Timestamp;

use super::*;
use crate::model::ledger::{ClusterId, test_ledger};

fn at(text: &str) -> Timestamp {
    text.parse().expect("a timestamp")
}

const NOW: &str = "2026-12-01T12:00:00Z";

fn id() -> ClusterId {
    ClusterId("c1".into())
}

fn cert(source: CertSource, not_after: &str) -> CertificateFact {
    CertificateFact {
        source,
        subject: "kube-apiserver".into(),
        not_after: Read::Known(at(not_after)),
    }
}

fn facts() -> ClusterFacts {
    ClusterFacts {
        read_at: Some(at(NOW)),
        certificates: Vec::new(),
        webhooks: Read::Known(Vec::new()),
        api_services: Read::Known(Vec::new()),
        flows: Read::Known(Vec::new()),
        readyz: Read::Known(Vec::new()),
        livez: Read::Known(Vec::new()),
        requests: None,
        gitops: Read::Known(Vec::new()),
        privileges: Vec::new(),
    }
}

fn judge(cluster_fields: &str, facts: &ClusterFacts) -> Vec<Finding> {
    let ledger = test_ledger(&[cluster_fields]);
    let ctx = ClusterContext {
        cluster: &ledger.clusters[0],
        facts: Read::Known(facts),
        window_zone: None,
        overrides: &[],
        waiting: &[],
    };
    let mut out = judge_cluster(&ctx, at(NOW), &Thresholds::default());
    sort_findings(&mut out);
    super::says::assert_said_in_english(&out);
    out
}

/// A staging cluster of tier standard without backup: no backup finding (only
/// production and critical clusters must declare one).
const PLAIN: &str = "id: c1, context: c1, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building";

fn only(findings: &[Finding], rule: RuleId) -> Vec<&Finding> {
    super::says::assert_said_in_english(findings);
    findings.iter().filter(|f| f.rule == rule).collect()
}

#[test]
fn certificates_warn_within_30_days_and_are_critical_within_7() {
    let mut f = facts();
    f.certificates = vec![
        // 5.5 days left: critical (≤ 7).
        cert(CertSource::ServingCertificate, "2026-12-07T00:00:00Z"),
        // 20 days left: warning (≤ 30).
        cert(CertSource::KubeconfigCa, "2026-12-21T12:00:00Z"),
        // 45 days left: nothing.
        cert(CertSource::ClientCertificate, "2027-01-15T12:00:00Z"),
        // Expired 2 days ago: critical.
        cert(
            CertSource::WebhookCaBundle {
                configuration: "ValidatingWebhookConfiguration/kyverno".into(),
                webhook: "validate.kyverno.svc".into(),
            },
            "2026-11-29T12:00:00Z",
        ),
    ];
    let found = judge(PLAIN, &f);
    let certs = only(&found, RuleId::CertificateExpiry);
    assert_eq!(certs.len(), 3, "{found:#?}");
    let by_key: BTreeMap<&str, &Finding> = certs.iter().map(|f| (f.key.as_str(), *f)).collect();
    let serving = by_key["certificateExpiry/serving"];
    assert_eq!(serving.severity, Severity::Critical);
    assert_eq!(
        serving.summary,
        "API server serving certificate expires in 5 days (2026-12-07)"
    );
    assert_eq!(serving.measure.as_ref().map(|m| m.value), Some(5.5));
    // It entered the warning window 30 days before it expires, and became critical 7
    // days before.
    assert_eq!(serving.since, Some(at("2026-11-07T00:00:00Z")));
    assert_eq!(serving.severity_since, Some(at("2026-11-30T00:00:00Z")));
    let ca = by_key["certificateExpiry/kubeconfigCa"];
    assert_eq!(ca.severity, Severity::Warning);
    assert_eq!(ca.summary, "kubeconfig CA expires in 20 days (2026-12-21)");
    let webhook = by_key["certificateExpiry/caBundle/ValidatingWebhookConfiguration/kyverno/validate.kyverno.svc"];
    assert_eq!(webhook.severity, Severity::Critical);
    assert_eq!(
        webhook.summary,
        "caBundle of ValidatingWebhookConfiguration/kyverno (validate.kyverno.svc) expired 2 days ago (2026-11-29)"
    );
}

#[test]
fn an_unreadable_certificate_is_unknown_not_fine() {
    let mut f = facts();
    f.certificates = vec![CertificateFact {
        source: CertSource::ServingCertificate,
        subject: String::new(),
        not_after: Read::Unknown("TLS handshake: connection refused".into()),
    }];
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::FactsUnknown);
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(
        found[0].summary,
        "API server serving certificate: expiry unknown"
    );
}

#[test]
fn exec_credentials_are_noted_within_a_day_and_critical_once_expired() {
    let mut f = facts();
    f.certificates = vec![cert(CertSource::ExecCredential, "2026-12-01T12:45:00Z")];
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::CredentialExpiry);
    assert_eq!(found[0].severity, Severity::Info);
    f.certificates = vec![cert(CertSource::ExecCredential, "2026-12-01T11:00:00Z")];
    assert_eq!(judge(PLAIN, &f)[0].severity, Severity::Critical);
    f.certificates = vec![cert(CertSource::ExecCredential, "2026-12-03T12:00:00Z")];
    assert!(judge(PLAIN, &f).is_empty(), "two days away: nothing to say");
}

#[test]
fn seventeen_clusters_in_one_week_make_an_expiry_wave() {
    let t = Thresholds::default();
    let ids: Vec<ClusterId> = (0..17)
        .map(|i| ClusterId::from(format!("c{i:02}")))
        .collect();
    // Wednesday 2027-01-13 and Sunday 2027-01-17 are in the week of Monday 2027-01-11;
    // 2027-01-18 is the next week.
    let certs: Vec<Vec<CertificateFact>> = (0..17)
        .map(|i| {
            let day = if i % 2 == 0 { "13" } else { "17" };
            vec![cert(
                CertSource::ServingCertificate,
                &format!("2027-01-{day}T06:00:00Z"),
            )]
        })
        .collect();
    let mut fleet: Vec<(&ClusterId, &[CertificateFact])> =
        ids.iter().zip(certs.iter().map(Vec::as_slice)).collect();
    let lone = [cert(CertSource::KubeconfigCa, "2027-01-18T06:00:00Z")];
    fleet.push((&ids[0], &lone));
    let weeks = expiry_weeks(fleet.clone(), at(NOW), &t);
    assert_eq!(weeks.len(), 2);
    assert_eq!(weeks[0].week_of, jiff::civil::date(2027, 1, 11));
    assert_eq!(weeks[0].clusters.len(), 17);
    assert_eq!(weeks[1].clusters.len(), 1);
    let all = fleet_findings(Vec::new(), fleet, at(NOW), &t);
    let waves = only(&all.findings, RuleId::ExpiryWave);
    assert_eq!(waves.len(), 1);
    assert_eq!(
        waves[0].summary,
        "17 clusters have certificates expiring in the week of 2027-01-11 (17 certificates)"
    );
    // 41 days away: beyond the 30-day warning window, so a warning, not critical.
    assert_eq!(waves[0].severity, Severity::Warning);
}

fn webhook(policy: FailurePolicy, selector: NamespaceSelector, timeout: i32) -> WebhookFact {
    WebhookFact {
        kind: WebhookKind::ValidatingWebhookConfiguration,
        configuration: "kyverno".into(),
        name: "validate.kyverno.svc".into(),
        failure_policy: policy,
        namespace_selector: selector,
        rules: vec![WebhookRule {
            operations: vec!["CREATE".into(), "UPDATE".into()],
            api_groups: vec!["".into()],
            resources: vec!["pods".into()],
            scope: "*".into(),
        }],
        timeout_seconds: timeout,
        service: Some(ServiceRef {
            namespace: "kyverno".into(),
            name: "kyverno-svc".into(),
        }),
        ready_endpoints: Some(Read::Known(2)),
    }
}

fn excluding_kube_system() -> NamespaceSelector {
    NamespaceSelector {
        match_labels: BTreeMap::new(),
        match_expressions: vec![SelectorRequirement {
            key: "kubernetes.io/metadata.name".into(),
            operator: SelectorOp::NotIn,
            values: vec!["kube-system".into()],
        }],
    }
}

#[test]
fn a_webhook_failing_closed_on_kube_system_is_critical() {
    let mut f = facts();
    f.webhooks = Read::Known(vec![webhook(
        FailurePolicy::Fail,
        NamespaceSelector::default(),
        10,
    )]);
    let found = judge(PLAIN, &f);
    let closed = only(&found, RuleId::WebhookFailClosed);
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0].severity, Severity::Critical);
    assert_eq!(
        closed[0].summary,
        "ValidatingWebhookConfiguration/kyverno (validate.kyverno.svc) fails closed on kube-system"
    );
    // 10s is above the 5s threshold, and with Fail every matching request may wait it.
    let slow = only(&found, RuleId::WebhookSlow);
    assert_eq!(slow.len(), 1);
    assert_eq!(slow[0].severity, Severity::Warning);

    // Excluding kube-system, it still fails closed on every other namespace: a warning.
    let partial = webhook(FailurePolicy::Fail, excluding_kube_system(), 5);
    f.webhooks = Read::Known(vec![partial]);
    let found = judge(PLAIN, &f);
    assert!(found.is_empty(), "a selector is not everything: {found:#?}");

    // Ignore: no fail-closed finding whatever the scope.
    f.webhooks = Read::Known(vec![webhook(
        FailurePolicy::Ignore,
        NamespaceSelector::default(),
        5,
    )]);
    assert!(judge(PLAIN, &f).is_empty());
}

#[test]
fn a_webhook_without_ready_endpoints_refuses_now_when_it_fails_closed() {
    let mut f = facts();
    let mut w = webhook(FailurePolicy::Fail, excluding_kube_system(), 5);
    w.ready_endpoints = Some(Read::Known(0));
    f.webhooks = Read::Known(vec![w.clone()]);
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::WebhookNoEndpoints);
    assert_eq!(found[0].severity, Severity::Critical);
    w.failure_policy = FailurePolicy::Ignore;
    f.webhooks = Read::Known(vec![w.clone()]);
    assert_eq!(judge(PLAIN, &f)[0].severity, Severity::Warning);
    w.ready_endpoints = Some(Read::Unknown("403".into()));
    f.webhooks = Read::Known(vec![w]);
    assert_eq!(judge(PLAIN, &f)[0].rule, RuleId::FactsUnknown);
    f.webhooks = Read::Unknown("forbidden".into());
    let found = judge(PLAIN, &f);
    assert_eq!(found[0].summary, "admission webhooks: unknown (forbidden)");
}

#[test]
fn an_unavailable_aggregated_api_is_critical() {
    let mut f = facts();
    f.api_services = Read::Known(vec![ApiServiceFact {
        name: "v1beta1.metrics.k8s.io".into(),
        service: ServiceRef {
            namespace: "kube-system".into(),
            name: "metrics-server".into(),
        },
        available: Some(false),
        message: Some("MissingEndpoints: endpoints for service/metrics-server in \"kube-system\" have no addresses".into()),
        ready_endpoints: Some(Read::Known(0)),
    }]);
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Critical);
    assert_eq!(
        found[0].summary,
        "aggregated API v1beta1.metrics.k8s.io is unavailable"
    );
}

fn flow(schema: &str, level: &str, requests: u64) -> FlowUse {
    FlowUse {
        flow_schema: schema.into(),
        priority_level: level.into(),
        resolved: true,
        requests,
    }
}

#[test]
fn our_requests_in_global_default_or_catch_all_are_a_finding() {
    let mut f = facts();
    f.flows = Read::Known(vec![flow("global-default", "global-default", 120)]);
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::ApfCatchAll);
    assert_eq!(
        found[0].summary,
        "our requests land in the global-default priority level (FlowSchema global-default)"
    );
    assert_eq!(
        found[0].evidence[0],
        "120 of our last 120 responses carried X-Kubernetes-PF-FlowSchema-UID of global-default and X-Kubernetes-PF-PriorityLevel-UID of global-default"
    );
    // Our own bounded level: nothing.
    f.flows = Read::Known(vec![flow("fleetdeck", "fleetdeck", 120)]);
    assert!(judge(PLAIN, &f).is_empty());
    // The probes schema (exempt) for health checks and ours for the rest: nothing.
    f.flows = Read::Known(vec![
        flow("probes", "exempt", 2),
        flow("fleetdeck", "fleetdeck", 50),
    ]);
    assert!(judge(PLAIN, &f).is_empty());
}

fn stats(requests: u64, errors: u64, throttled: u64, p99: f64) -> RequestStats {
    RequestStats {
        window: Duration::from_secs(300),
        requests,
        errors,
        throttled,
        p50_ms: Some(12.0),
        p99_ms: Some(p99),
        throttled_total: throttled,
    }
}

#[test]
fn throttling_errors_and_latency_of_our_own_requests() {
    let mut f = facts();
    f.flows = Read::Known(vec![flow("fleetdeck", "fleetdeck", 40)]);
    // 3 of 40 failed: 7.5% > 5%; 2 answered 429; p99 2.5 s > 2 s.
    f.requests = Some(stats(40, 3, 2, 2_500.0));
    let found = judge(PLAIN, &f);
    let errors = only(&found, RuleId::RequestErrors);
    assert_eq!(errors.len(), 2);
    assert!(
        errors
            .iter()
            .any(|e| e.summary == "7.5% of our requests failed over the last 5m"),
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.summary == "our requests' p99 latency is 2500 ms over the last 5m")
    );
    let throttled = only(&found, RuleId::ApfThrottled);
    assert_eq!(throttled.len(), 1);
    assert_eq!(throttled[0].severity, Severity::Warning);
    // 19 requests: below the sample minimum, errors are not judged; 429s still are.
    f.requests = Some(stats(19, 19, 1, 9_000.0));
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::ApfThrottled);
}

fn check(name: &str, ok: bool) -> HealthCheck {
    HealthCheck {
        name: name.into(),
        ok,
        message: if ok {
            "ok".into()
        } else {
            "failed: reason withheld".into()
        },
        failing_since: (!ok).then(|| at("2026-12-01T11:50:00Z")),
    }
}

#[test]
fn a_failing_readyz_check_is_critical_and_names_the_check() {
    let mut f = facts();
    f.readyz = Read::Known(vec![
        check("ping", true),
        check("etcd", true),
        check("informer-sync", false),
    ]);
    f.livez = Read::Unknown("500 Internal Server Error without a body".into());
    let found = judge(PLAIN, &f);
    let failing = only(&found, RuleId::HealthCheckFailing);
    assert_eq!(failing.len(), 1);
    assert_eq!(failing[0].summary, "readyz check informer-sync fails");
    assert_eq!(failing[0].evidence[1], "1 of 3 readyz checks fail");
    assert_eq!(failing[0].since, Some(at("2026-12-01T11:50:00Z")));
    let unknown = only(&found, RuleId::FactsUnknown);
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].key, "factsUnknown/livez");
}

const CRITICAL: &str = "id: c1, context: c1, env: qa, region: r, failureDomain: f, tier: standard, lifecycle: building, owner: t";

#[test]
fn backups_against_the_rpo_and_restore_drills_against_the_tier() {
    // RPO 24h; last success 2026-11-29T12:00Z is 48h old: beyond the RPO (warning),
    // not beyond twice it (48h is not more than 48h).
    let cluster = format!(
        "{PLAIN}, backup: {{lastSuccess: 2026-11-29T12:00:00Z, rpo: 24h, lastRestoreDrill: 2026-05-01, lastRestoreDrillDuration: 6h, rto: 4h}}"
    );
    let found = judge(&cluster, &facts());
    let backup = only(&found, RuleId::BackupStale);
    assert_eq!(backup.len(), 1);
    assert_eq!(backup[0].severity, Severity::Warning);
    assert_eq!(
        backup[0].summary,
        "last successful backup is 2 days old, beyond the RPO of 1d"
    );
    // Drill 2026-05-01 → 2026-12-01 12:00 is 214 days: beyond the standard tier's 180
    // days (warning; twice it would be 360).
    let drills = only(&found, RuleId::RestoreDrillStale);
    assert_eq!(drills.len(), 2);
    assert!(
        drills
            .iter()
            .any(|d| d.summary == "last restore drill was 214 days ago (2026-05-01)")
    );
    assert!(
        drills
            .iter()
            .any(|d| d.summary == "the last restore drill took 6h, beyond the RTO of 4h")
    );
    assert_eq!(
        restore_drill_age_days(&test_ledger(&[&cluster]).clusters[0], at(NOW)),
        Some(214)
    );
}

#[test]
fn a_critical_tier_drill_is_stale_after_90_days_and_no_rpo_uses_the_tier_default() {
    let ledger_fields = |backup: &str| {
        format!(
            "id: c1, context: c1, env: staging, region: r, failureDomain: f, tier: critical, owner: t, lifecycle: building{backup}"
        )
    };
    // The test ledger's dictionary knows tier "standard" only: the tier is checked by the
    // ledger, so build the context by hand with the tier changed.
    let mut ledger = test_ledger(&[&ledger_fields(
        ", backup: {lastSuccess: 2026-11-30T00:00:00Z, lastRestoreDrill: 2026-08-01}",
    )
    .replace("tier: critical", "tier: standard")]);
    ledger.clusters[0].tier = "critical".into();
    let ctx = ClusterContext {
        cluster: &ledger.clusters[0],
        facts: Read::Known(&facts()),
        window_zone: None,
        overrides: &[],
        waiting: &[],
    };
    let found = judge_cluster(&ctx, at(NOW), &Thresholds::default());
    // Last success 36h ago, critical tier's default RPO 1d: stale. Drill 122 days ago,
    // critical's threshold 90 days: stale.
    assert!(
        found.iter().any(|f| f.rule == RuleId::BackupStale
            && f.summary == "last successful backup is 36h old, beyond the RPO of 1d"
            && f.evidence[1] == "RPO 1d (no rpo in the ledger: the default for tier critical)"),
        "{found:#?}"
    );
    assert!(found.iter().any(|f| f.rule == RuleId::RestoreDrillStale
        && f.summary == "last restore drill was 122 days ago (2026-08-01)"));
    // A critical cluster without any backup declared: said.
    let mut bare = test_ledger(&[CRITICAL]);
    bare.clusters[0].tier = "critical".into();
    let ctx = ClusterContext {
        cluster: &bare.clusters[0],
        facts: Read::Known(&facts()),
        window_zone: None,
        overrides: &[],
        waiting: &[],
    };
    let found = judge_cluster(&ctx, at(NOW), &Thresholds::default());
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].summary,
        "c1 is critical but the ledger declares no backup"
    );
}

#[test]
fn validate_warns_at_the_field_it_is_about() {
    let ledger = test_ledger(&[&format!(
        "{PLAIN}, backup: {{lastSuccess: 2026-11-20, rpo: 24h, lastRestoreDrill: 2026-11-01}}"
    )]);
    let warnings = recovery_warnings(
        &ledger,
        jiff::civil::date(2026, 12, 1),
        &Thresholds::default(),
    );
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        warnings[0].message,
        "cluster \"c1\": last successful backup is 11 days old, beyond the RPO of 1d"
    );
    assert_eq!(
        warnings[0].pos.line, 7,
        "the backup's lastSuccess line: {:?}",
        warnings[0].pos
    );
}

fn gitops(
    kind: GitOpsKind,
    sync: SyncState,
    health: GitOpsHealth,
    suspended: bool,
    since: Option<&str>,
) -> GitOpsObject {
    GitOpsObject {
        kind,
        namespace: "argocd".into(),
        name: "shop".into(),
        sync,
        health,
        suspended,
        suspended_note: suspended
            .then(|| "by alice@ops at 2026-12-01 10:00 UTC: incident 42".into()),
        since: since.map(at),
        message: None,
    }
}

#[test]
fn gitops_out_of_sync_past_30_minutes_degraded_and_suspended() {
    let mut f = facts();
    f.gitops = Read::Known(vec![
        // OutOfSync since 11:00: 1h > 30m, warning.
        gitops(
            GitOpsKind::ArgoApplication,
            SyncState::OutOfSync,
            GitOpsHealth::Degraded,
            false,
            Some("2026-12-01T11:00:00Z"),
        ),
        // OutOfSync for 10 minutes: a sync in progress, info.
        gitops(
            GitOpsKind::FluxHelmRelease,
            SyncState::OutOfSync,
            GitOpsHealth::Progressing,
            false,
            Some("2026-12-01T11:50:00Z"),
        ),
        // Suspended, in sync: warning.
        gitops(
            GitOpsKind::FluxKustomization,
            SyncState::Synced,
            GitOpsHealth::Healthy,
            true,
            None,
        ),
    ]);
    let found = judge(PLAIN, &f);
    let out_of_sync = only(&found, RuleId::GitOpsOutOfSync);
    assert_eq!(out_of_sync.len(), 2);
    assert_eq!(out_of_sync[0].severity, Severity::Warning);
    assert_eq!(
        out_of_sync[0].summary,
        "Application argocd/shop is OutOfSync for 1h"
    );
    // It turned a warning when it had been out of sync for 30 minutes.
    assert_eq!(
        out_of_sync[0].severity_since,
        Some(at("2026-12-01T11:30:00Z"))
    );
    assert_eq!(out_of_sync[1].severity, Severity::Info);
    assert_eq!(
        out_of_sync[1].summary,
        "HelmRelease argocd/shop is OutOfSync for 10m"
    );
    let degraded = only(&found, RuleId::GitOpsDegraded);
    assert_eq!(
        degraded[0].summary,
        "Application argocd/shop is Degraded for 1h"
    );
    let suspended = only(&found, RuleId::GitOpsSuspended);
    assert_eq!(
        suspended[0].summary,
        "Kustomization argocd/shop is suspended: nothing reconciles it with its source"
    );
    assert!(
        suspended[0]
            .evidence
            .iter()
            .any(|e| e.ends_with("incident 42"))
    );
}

#[test]
fn a_cluster_without_facts_says_so_once() {
    let ledger = test_ledger(&[PLAIN]);
    let ctx = ClusterContext {
        cluster: &ledger.clusters[0],
        facts: Read::Unknown("cluster Unreachable: connection refused".into()),
        window_zone: None,
        overrides: &[],
        waiting: &[],
    };
    let found = judge_cluster(&ctx, at(NOW), &Thresholds::default());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::FactsUnknown);
    assert_eq!(
        found[0].summary,
        "live facts: unknown (cluster Unreachable: connection refused)"
    );
}

#[test]
fn counts_and_order_put_the_worst_first() {
    let mut f = facts();
    f.certificates = vec![cert(CertSource::ServingCertificate, "2026-12-03T00:00:00Z")];
    f.flows = Read::Known(vec![flow("catch-all", "catch-all", 3)]);
    let found = judge(PLAIN, &f);
    assert_eq!(found[0].severity, Severity::Critical);
    let counts = counts_by_cluster(&found);
    let c1 = counts[&id()];
    assert_eq!(
        (c1.worst, c1.critical, c1.warning, c1.total()),
        (Some(Severity::Critical), 1, 1, 2)
    );
    assert_eq!(Severity::parse("WARNING"), Some(Severity::Warning));
    assert_eq!(RuleId::ApfCatchAll.name(), "apfCatchAll");
    assert_eq!(RuleId::GitOpsOutOfSync.name(), "gitOpsOutOfSync");
}

#[test]
fn responses_without_priority_headers_leave_our_level_unknown() {
    let mut f = facts();
    f.requests = Some(stats(40, 0, 0, 10.0));
    let found = judge(PLAIN, &f);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, RuleId::FactsUnknown);
    assert_eq!(found[0].key, "factsUnknown/flowcontrol");
}
