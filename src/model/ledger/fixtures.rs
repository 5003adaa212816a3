//! The fixture ledger shared by the tests of every layer: seven clusters covering every
//! environment and tier, with pinned identities and backups. Deterministic.

use super::{Ledger, LedgerContext, read_ledger};

/// (id, env, region, failure domain, tier, owner, k8s version in the ledger)
pub(crate) const CLUSTERS: [(&str, &str, &str, &str, &str, &str, &str); 7] = [
    (
        "eu-fra-prod-01",
        "production",
        "eu-central",
        "eu-fra-a",
        "critical",
        "team-payments",
        "v1.31.4",
    ),
    (
        "eu-fra-prod-02",
        "production",
        "eu-central",
        "eu-fra-b",
        "critical",
        "team-search",
        "v1.31.4",
    ),
    (
        "us-east-stg-01",
        "staging",
        "us-east",
        "use-1a",
        "standard",
        "team-platform",
        "v1.32.1",
    ),
    (
        "us-east-prod-03",
        "production",
        "us-east",
        "use-1b",
        "critical",
        "team-ml",
        "v1.31.4",
    ),
    (
        "ap-sg-prod-01",
        "production",
        "ap-southeast",
        "apse-1a",
        "critical",
        "team-payments",
        "v1.31.4",
    ),
    (
        "us-west-dev-01",
        "development",
        "us-west",
        "usw-2a",
        "standard",
        "team-platform",
        "v1.32.1",
    ),
    (
        "ap-sg-stg-02",
        "staging",
        "ap-southeast",
        "apse-1b",
        "standard",
        "team-search",
        "v1.32.1",
    ),
];

/// The fixture ledger.
pub fn ledger() -> Ledger {
    let mut yaml = String::from(
        "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nlabelDictionary:\n  env: [production, staging, development]\n  tier: [critical, standard]\nclusters:\n",
    );
    for (i, (id, env, region, fd, tier, owner, version)) in CLUSTERS.iter().enumerate() {
        yaml.push_str(&format!(
            "  - id: {id}\n    context: {id}\n    identity:\n      kubeSystemUID: 0000000{i}-1111-1111-1111-111111111111\n      server: https://{id}:6443\n    env: {env}\n    region: {region}\n    failureDomain: {fd}\n    tier: {tier}\n    owner: {owner}\n    lifecycle: running\n    versions:\n      kubernetes: {version}\n    backup:\n      lastSuccess: 2026-11-{:02}T02:00:00Z\n      lastRestoreDrill: 2026-{:02}-10\n",
            28 - i * 2,
            11 - i,
        ));
    }
    let context = LedgerContext {
        today: jiff::civil::date(2026, 11, 28),
        is_known_zone: &|_| true,
    };
    let report = read_ledger(&yaml, &context);
    report
        .ledger
        .unwrap_or_else(|| panic!("fixture ledger invalid: {:?}", report.diagnostics))
}
