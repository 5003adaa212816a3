//! The ledger's support matrix and support dates, with their positions, and each
//! cluster's combination judged against the matrix.

use jiff::civil::date;

use super::tests::{BASE, check, known_zone};
use super::{LedgerContext, read_ledger};

#[test]
fn a_support_matrix_and_support_dates_are_read_and_checked() {
    let text = BASE.replacen(
        "clusters:\n",
        "supportMatrix:\n  - name: 2026-10\n    validated: 2026-10-15\n    evidence: staging soak, CI run 4711\n    versions: {kubernetes: v1.32, cni: cilium 1.16}\nkubernetesSupport:\n  v1.32: 2026-02-28\nclusters:\n",
        1,
    );
    assert_eq!(check(&text), Vec::<String>::new());
    let ledger = read_ledger(
        &text,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &known_zone,
        },
    )
    .ledger
    .expect("usable");
    assert_eq!(ledger.support_matrix.0.len(), 1);
    assert_eq!(ledger.support_matrix.0[0].versions["cni"], "cilium 1.16");
    assert_eq!(
        ledger
            .kubernetes_support
            .get(&crate::model::upgrade::Minor::parse("v1.32").unwrap()),
        Some(&date(2026, 2, 28))
    );
    let bad = BASE.replacen(
        "clusters:\n",
        "supportMatrix:\n  - name: x\n    validated: soon\n    evidence: e\n    versions: {kubernetes: v1.32}\nkubernetesSupport:\n  latest: 2026-02-28\nclusters:\n",
        1,
    );
    assert_eq!(
        check(&bad),
        vec![
            "ledger.yaml:9:16: supportMatrix.validated \"soon\" is not a date (expected YYYY-MM-DD, e.g. 2026-12-31)",
            "ledger.yaml:13:11: kubernetesSupport key \"latest\" is not a Kubernetes minor (v1.32)",
        ]
    );
}

#[test]
fn each_cluster_s_combination_is_judged_against_the_support_matrix() {
    let text = BASE.replacen(
        "clusters:\n",
        "supportMatrix:\n  - name: 2026-10\n    validated: 2026-10-15\n    evidence: staging soak\n    versions: {kubernetes: v1.32, cni: cilium 1.16}\n  - name: 2026-09\n    validated: 2026-09-01\n    evidence: staging soak\n    versions: {kubernetes: v1.31, cni: cilium 1.15}\nclusters:\n",
        1,
    )
    .replacen(
        "    tier: critical\n",
        "    tier: critical\n    versions: {kubernetes: v1.32.3, cni: cilium 1.13.4}\n",
        1,
    )
    .replacen(
        "    tier: standard\n",
        "    tier: standard\n    versions: {kubernetes: v1.32.3, cni: cilium 1.15.9}\n",
        1,
    );
    assert_eq!(
        check(&text),
        vec![
            "ledger.yaml:17:5: warning: cluster \"eu-prod-01\" runs an unsupported combination: cni cilium 1.13.4 in no validated combination",
            "ledger.yaml:48:5: warning: cluster \"eu-stg-01\" runs an untested combination: the closest validated one, 2026-10, differs in cni",
        ]
    );
}
