//! The readiness rules with hand-computed answers.

use std::collections::BTreeMap;

use super::*;
use crate::model::upgrade::matrix::Validated;

fn target() -> Minor {
    Minor::parse("v1.32").unwrap()
}

/// A cluster at v1.31.6 with nothing in the way.
fn clean() -> UpgradeFacts {
    UpgradeFacts {
        server: Read::Known("v1.31.6".into()),
        kubelets: Read::Known(vec![("v1.31.6".into(), 8)]),
        deprecated_requests: Read::Known(Vec::new()),
        stored_versions: Read::Known(Vec::new()),
        version_uses: Read::Known(Vec::new()),
    }
}

fn matrix() -> SupportMatrix {
    SupportMatrix(vec![Validated {
        name: "2026-10".into(),
        validated: jiff::civil::date(2026, 10, 15),
        evidence: "staging soak".into(),
        versions: [("kubernetes", "v1.32"), ("cni", "cilium 1.16")]
            .iter()
            .map(|(c, v)| (c.to_string(), v.to_string()))
            .collect(),
    }])
}

fn cni(version: &str) -> BTreeMap<String, String> {
    BTreeMap::from([("cni".to_string(), version.to_string())])
}

fn kinds(r: &ClusterReadiness) -> Vec<BlockerKind> {
    r.blockers.iter().map(|b| b.kind).collect()
}

#[test]
fn a_clean_cluster_one_minor_behind_is_ready_and_one_at_the_target_is_there() {
    let r = check("c", target(), &clean(), &cni("cilium 1.16.6"), &matrix());
    assert_eq!(r.readiness, Readiness::Ready, "{r:?}");
    let mut there = clean();
    there.server = Read::Known("v1.33.1".into());
    assert_eq!(
        check("c", target(), &there, &cni("cilium 1.16.6"), &matrix()).readiness,
        Readiness::AtTarget
    );
}

#[test]
fn a_control_plane_two_minors_behind_must_step_through_the_one_between() {
    let mut facts = clean();
    facts.server = Read::Known("v1.30.10".into());
    facts.kubelets = Read::Known(vec![("v1.30.10".into(), 5)]);
    let r = check("c", target(), &facts, &cni("cilium 1.16.6"), &matrix());
    assert_eq!(kinds(&r), [BlockerKind::ControlPlaneSkip]);
    assert_eq!(r.blockers[0].fix, "upgrade to v1.31 first");
}

#[test]
fn kubelets_more_than_three_minors_behind_the_target_block_it() {
    let mut facts = clean();
    facts.kubelets = Read::Known(vec![("v1.31.6".into(), 4), ("v1.28.15".into(), 2)]);
    let r = check("c", target(), &facts, &cni("cilium 1.16.6"), &matrix());
    assert_eq!(kinds(&r), [BlockerKind::KubeletSkew]);
    assert_eq!(
        r.blockers[0].what,
        "kubelet v1.28.15 on 2 node(s) is 4 minors behind v1.32; kubelets may be at most 3 behind the API server"
    );
    facts.kubelets = Read::Known(vec![("v1.29.1".into(), 2)]);
    assert_eq!(
        check("c", target(), &facts, &cni("cilium 1.16.6"), &matrix()).readiness,
        Readiness::Ready,
        "three behind is allowed"
    );
}

#[test]
fn a_removed_api_still_requested_named_or_stored_blocks_with_what_to_do() {
    let mut facts = clean();
    facts.deprecated_requests = Read::Known(vec![
        DeprecatedRequest {
            group: "flowcontrol.apiserver.k8s.io".into(),
            version: "v1beta3".into(),
            resource: "flowschemas".into(),
            removed_release: Some("1.32".into()),
        },
        // Deprecated, but removed only later: not this upgrade's business.
        DeprecatedRequest {
            group: "example.io".into(),
            version: "v1beta1".into(),
            resource: "widgets".into(),
            removed_release: Some("1.35".into()),
        },
    ]);
    facts.version_uses = Read::Known(vec![VersionUse {
        by: "ValidatingWebhookConfiguration/policy webhook flows.policy.io".into(),
        groups: vec!["flowcontrol.apiserver.k8s.io".into()],
        versions: vec!["v1beta3".into()],
    }]);
    facts.stored_versions = Read::Known(vec![StoredVersions {
        crd: "widgets.example.io".into(),
        stored: vec!["v1alpha1".into(), "v1".into()],
        served: vec!["v1".into()],
    }]);
    let r = check("c", target(), &facts, &cni("cilium 1.16.6"), &matrix());
    assert_eq!(
        kinds(&r),
        [
            BlockerKind::RemovedApiInUse,
            BlockerKind::StoredVersion,
            BlockerKind::RemovedVersionNamed
        ]
    );
    assert_eq!(
        r.blockers[0].fix,
        "move those clients to flowcontrol.apiserver.k8s.io/v1 (the API server's audit log names them)"
    );
    assert_eq!(
        r.blockers[2].what,
        "ValidatingWebhookConfiguration/policy webhook flows.policy.io names flowcontrol.apiserver.k8s.io/v1beta3, removed in v1.32"
    );
}

#[test]
fn an_add_on_outside_the_matrix_for_the_target_blocks_and_unread_facts_are_unknown() {
    let r = check("c", target(), &clean(), &cni("cilium 1.13.4"), &matrix());
    assert_eq!(kinds(&r), [BlockerKind::AddOn]);
    assert_eq!(
        r.blockers[0].what,
        "cni cilium 1.13.4 is not validated with v1.32 (validated: cilium 1.16)"
    );
    let mut facts = clean();
    facts.deprecated_requests = Read::Unknown("/metrics: 403 Forbidden".into());
    let r = check("c", target(), &facts, &cni("cilium 1.16.6"), &matrix());
    assert_eq!(r.readiness, Readiness::Unknown, "unknown is not ready");
    assert_eq!(
        r.unknown,
        ["deprecated API requests: /metrics: 403 Forbidden"]
    );
}
