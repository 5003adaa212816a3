//! Expired exceptions: a loud finding about the ledger, never a reason to stop using it.
//! A date passing must not lock the operators out of their own tool (the very outage the
//! ledger's expiry dates are there to prevent): observing, and runs already in flight, go
//! on; only starting a new change on such a cluster needs a person to say they know.

use jiff::civil::Date;
use serde::Serialize;

use super::types::{ClusterId, Ledger};

/// One exception past its date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpiredException {
    /// The cluster it was granted for.
    pub cluster: ClusterId,
    /// What deviates.
    pub what: String,
    /// Who answers for it.
    pub owner: String,
    /// The date it stopped being accepted.
    pub expires: Date,
    /// How many days ago (at least 1).
    pub days_ago: i64,
}

impl std::fmt::Display for ExpiredException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exception \"{}\" of {} expired on {} ({} day{} ago; owner {})",
            self.what,
            self.cluster,
            self.expires,
            self.days_ago,
            if self.days_ago == 1 { "" } else { "s" },
            self.owner
        )
    }
}

/// Every exception of the ledger that expired before `today`, in ledger order.
pub fn expired_exceptions(ledger: &Ledger, today: Date) -> Vec<ExpiredException> {
    ledger
        .clusters
        .iter()
        .flat_map(|cluster| {
            cluster.exceptions.iter().filter_map(move |e| {
                let days_left = i64::from(today.until(e.expires).ok()?.get_days());
                (days_left < 0).then(|| ExpiredException {
                    cluster: cluster.id.clone(),
                    what: e.what.clone(),
                    owner: e.owner.clone(),
                    expires: e.expires,
                    days_ago: -days_left,
                })
            })
        })
        .collect()
}

/// Why starting a new change on `clusters` needs an acknowledgement: the expired
/// exceptions among them (empty: nothing to acknowledge).
pub fn unacknowledged(
    ledger: &Ledger,
    clusters: &[ClusterId],
    today: Date,
) -> Vec<ExpiredException> {
    expired_exceptions(ledger, today)
        .into_iter()
        .filter(|e| clusters.contains(&e.cluster))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ledger::{LedgerContext, read_ledger};

    const LEDGER: &str = "apiVersion: fleetdeck.dev/v1
kind: Ledger
labelDictionary:
  env: [production]
  tier: [critical]
clusters:
  - id: a
    context: a
    env: production
    region: r
    failureDomain: d
    tier: critical
    owner: team-a
    lifecycle: building
    exceptions:
      - what: old kernel
        reason: indexer
        owner: team-search
        exitCriteria: indexer 4.2
        expires: 2026-11-30
  - id: b
    context: b
    env: production
    region: r
    failureDomain: d
    tier: critical
    owner: team-a
    lifecycle: building
";

    fn read(today: Date) -> crate::model::ledger::LedgerReport {
        read_ledger(
            LEDGER,
            &LedgerContext {
                today,
                is_known_zone: &|_| true,
            },
        )
    }

    #[test]
    fn an_expired_exception_is_an_error_yet_the_ledger_stays_usable() {
        let today = jiff::civil::date(2026, 12, 1);
        let report = read(today);
        let ledger = report.ledger.expect("usable the day after the expiry");
        let errors: Vec<&str> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::yaml::Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("expired on 2026-11-30 (1 days ago)"),
            "{errors:?}"
        );
        let expired = expired_exceptions(&ledger, today);
        assert_eq!(
            expired.iter().map(ToString::to_string).collect::<Vec<_>>(),
            vec![
                "exception \"old kernel\" of a expired on 2026-11-30 (1 day ago; owner team-search)"
            ]
        );
        assert_eq!(
            unacknowledged(&ledger, &[ClusterId("b".into())], today),
            Vec::new(),
            "another cluster's exception holds nothing on b"
        );
        assert_eq!(
            unacknowledged(&ledger, &[ClusterId("a".into())], today).len(),
            1
        );
        assert!(expired_exceptions(&ledger, jiff::civil::date(2026, 11, 30)).is_empty());
    }

    #[test]
    fn other_errors_still_make_the_ledger_unusable() {
        let broken = LEDGER.replace("region: r\n    failureDomain: d\n    tier: critical\n    owner: team-a\n    lifecycle: building\n    exceptions", "failureDomain: d\n    tier: critical\n    owner: team-a\n    lifecycle: building\n    exceptions");
        let report = read_ledger(
            &broken,
            &LedgerContext {
                today: jiff::civil::date(2026, 12, 1),
                is_known_zone: &|_| true,
            },
        );
        assert!(report.ledger.is_none());
        assert!(
            report
                .diagnostics
                .iter()
                .any(|d| d.message.contains("expired on")),
            "the expiry is still reported beside the other errors"
        );
    }
}
