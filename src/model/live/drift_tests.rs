use super::*;

#[test]
fn versions_match_with_prefix_and_suffix_rules() {
    assert!(version_matches("v1.31.4", "v1.31.4"));
    assert!(version_matches("1.31.4", "v1.31.4"));
    assert!(version_matches("6.1.0-28", "6.1.0-28-amd64"));
    assert!(!version_matches("6.1.0-28", "6.1.0-280"));
    assert!(!version_matches("v1.31.4", "v1.31.5"));
}

#[test]
fn kubelets_outside_the_skew_policy_are_reported_without_a_ledger_edit() {
    let kubelets = |versions: &[&str]| -> Vec<VersionCount> {
        versions
            .iter()
            .map(|v| VersionCount {
                version: (*v).into(),
                nodes: 2,
            })
            .collect()
    };
    // Up to three minors older is allowed; newer, or four older, is not.
    assert!(kubelet_skew("c1", "v1.32.1", &kubelets(&["v1.31.4", "v1.29.0-eks-1"])).is_none());
    let drift = kubelet_skew(
        "c1",
        "v1.32.1",
        &kubelets(&["v1.33.0", "v1.28.9", "v1.32.1"]),
    )
    .expect("outside the policy");
    assert_eq!(drift.suggestion, None);
    assert_eq!(
        drift.kind,
        DriftKind::KubeletSkew {
            api_server: "v1.32.1".into(),
            live: vec!["v1.33.0 (2 nodes)".into(), "v1.28.9 (2 nodes)".into()],
        }
    );
}

#[test]
fn kubelets_lagging_an_upgraded_control_plane_suggest_no_ledger_edit() {
    let ledger = crate::model::ledger::one_cluster_ledger("versions: {kubernetes: v1.32.1}");
    let mut live = super::super::ClusterSnapshot::connecting("c1");
    live.status = ClusterStatus::Synced;
    live.server_version = Some("v1.32.1".into());
    live.kubelet_versions = vec![VersionCount {
        version: "v1.31.4".into(),
        nodes: 5,
    }];
    let mut snapshot = FleetSnapshot::empty();
    snapshot.clusters = std::sync::Arc::from(vec![std::sync::Arc::new(live)]);
    let drift = find_drift(&ledger, &snapshot);
    assert_eq!(drift.len(), 1, "{drift:?}");
    assert!(
        matches!(&drift[0].kind, DriftKind::Version { component, .. } if component == "kubelet")
    );
    assert_eq!(
        drift[0].suggestion, None,
        "the ledger is right about the API server"
    );
}

#[test]
fn a_mismatched_identity_offers_the_re_pin_as_a_persons_decision() {
    let ledger = crate::model::ledger::one_cluster_ledger(
        "identity: {kubeSystemUID: 11111111-1111-1111-1111-111111111111, server: https://c1:6443}",
    );
    let mut live = synced("c1");
    live.identity = Some(super::super::ObservedIdentity {
        kube_system_uid: "22222222-2222-2222-2222-222222222222".into(),
        server: "https://c1:6443".into(),
    });
    live.identity_verdict = Some(super::super::IdentityVerdict::Mismatch {
        reason: "kube-system UID differs".into(),
    });
    let drift = find_drift(&ledger, &fleet(vec![live]));
    assert_eq!(drift.len(), 1, "{drift:?}");
    assert_eq!(
        drift[0].suggestion.as_deref(),
        Some(
            "clusters[id=c1].identity: {kubeSystemUID: 11111111-1111-1111-1111-111111111111, server: https://c1:6443} -> {kubeSystemUID: 22222222-2222-2222-2222-222222222222, server: https://c1:6443}"
        )
    );
    let decision = drift[0].decision.as_deref().expect("a decision");
    assert!(decision.contains("a decision for a person") && decision.contains("another cluster"));
}

fn synced(id: &str) -> super::super::ClusterSnapshot {
    let mut live = super::super::ClusterSnapshot::connecting(id);
    live.status = ClusterStatus::Synced;
    live.server_version = Some("v1.32.1".into());
    live.kernel_versions = vec![VersionCount {
        version: "6.1.0-31-cloud-amd64".into(),
        nodes: 3,
    }];
    live
}

fn fleet(clusters: Vec<super::super::ClusterSnapshot>) -> FleetSnapshot {
    let mut snapshot = FleetSnapshot::empty();
    snapshot.clusters = clusters.into_iter().map(std::sync::Arc::new).collect();
    snapshot
}

#[test]
fn a_gpu_driver_the_nodes_report_is_compared_and_none_is_a_claim_too() {
    let ledger = crate::model::ledger::one_cluster_ledger(
        "versions: {kubernetes: v1.32.1, gpuDriver: 550.127.05}",
    );
    let mut live = synced("c1");
    live.gpu_driver_versions = vec![
        VersionCount {
            version: "550.127.08".into(),
            nodes: 6,
        },
        VersionCount {
            version: "550.127.05".into(),
            nodes: 2,
        },
    ];
    let drift = find_drift(&ledger, &fleet(vec![live.clone()]));
    assert_eq!(
        drift,
        vec![Drift {
            cluster: "c1".into(),
            kind: DriftKind::Version {
                component: "gpuDriver".into(),
                ledger: "550.127.05".into(),
                live: vec!["550.127.08 (6 nodes)".into(), "550.127.05 (2 nodes)".into()],
                nodes: live.gpu_driver_versions.clone(),
            },
            suggestion: None,
            edit: None,
            decision: None,
        }],
        "a driver rollout half done is drift, with no single edit to suggest"
    );

    let none = crate::model::ledger::one_cluster_ledger(
        "versions: {kubernetes: v1.32.1, gpuDriver: none}",
    );
    live.gpu_driver_versions.truncate(1);
    let drift = find_drift(&none, &fleet(vec![live.clone()]));
    assert_eq!(
        drift[0].suggestion.as_deref(),
        Some("clusters[id=c1].versions.gpuDriver: none -> 550.127.08")
    );
    assert_eq!(
        drift[0].edit,
        Some(LedgerEdit {
            field: "versions.gpuDriver".into(),
            from: Some("none".into()),
            to: "550.127.08".into(),
        })
    );
    live.gpu_driver_versions.clear();
    assert!(find_drift(&none, &fleet(vec![live])).is_empty());
}

#[test]
fn versions_nothing_reports_are_listed_as_not_compared() {
    let ledger = crate::model::ledger::one_cluster_ledger(
        "versions: {kubernetes: v1.32.1, kernel: 6.1.0-31-cloud-amd64, etcd: 3.5.17, cni: none, gpuDriver: 550.127.05}",
    );
    let live = synced("c1");
    assert!(find_drift(&ledger, &fleet(vec![live.clone()])).is_empty());
    assert_eq!(
        not_compared(&ledger, &fleet(vec![live.clone()])),
        vec![
            NotCompared {
                component: "etcd".into(),
                why: NotComparedWhy::NotWatched,
                clusters: vec!["c1".into()],
            },
            NotCompared {
                component: "gpuDriver".into(),
                why: NotComparedWhy::NotReported,
                clusters: vec!["c1".into()],
            },
        ],
        "kubernetes and kernel were compared; cni claims nothing"
    );
    // A cluster that cannot be observed, or is another cluster, is drift instead.
    let mut down = live.clone();
    down.status = ClusterStatus::Unreachable;
    assert!(not_compared(&ledger, &fleet(vec![down])).is_empty());
    let mut impostor = live;
    impostor.identity_verdict = Some(super::super::IdentityVerdict::Mismatch {
        reason: "kube-system UID differs".into(),
    });
    assert!(not_compared(&ledger, &fleet(vec![impostor])).is_empty());
}

#[test]
fn single_live_version_gets_a_suggestion() {
    let live = [VersionCount {
        version: "v1.32.1".into(),
        nodes: 3,
    }];
    let drift = version_drift(
        "c1",
        "kubelet",
        "kubernetes",
        Some(&"v1.31.4".to_string()),
        &live,
    )
    .unwrap();
    assert_eq!(
        drift.suggestion.as_deref(),
        Some("clusters[id=c1].versions.kubernetes: v1.31.4 -> v1.32.1")
    );
    let mixed = [
        VersionCount {
            version: "v1.32.1".into(),
            nodes: 3,
        },
        VersionCount {
            version: "v1.31.4".into(),
            nodes: 1,
        },
    ];
    let drift = version_drift(
        "c1",
        "kubelet",
        "kubernetes",
        Some(&"v1.31.4".to_string()),
        &mixed,
    )
    .unwrap();
    assert_eq!(
        drift.suggestion, None,
        "a cluster mid-upgrade has no single truth to write"
    );
}
