//! The ledger's section: exceptions expiring soon, or expired.

use super::{Check, Extent, Fact, HandoverInput, HandoverItem, ProblemKey, Says, Section, Subject};
use crate::i18n::Msg;

/// Ledger exceptions expiring within the window (or expired).
pub(super) fn expiring(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let Some(ledger) = input.ledger.read() else {
        return Vec::new();
    };
    let today = input.now.to_zoned(jiff::tz::TimeZone::UTC).date();
    let mut items = Vec::new();
    for cluster in &ledger.clusters {
        for e in &cluster.exceptions {
            let days = i64::from((e.expires - today).get_days());
            if days > input.expiring_within_days {
                continue;
            }
            // Expiring is one problem; expired is another, and worse.
            let (when, fact, when_msg) = if days < 0 {
                (
                    format!("expired {} days ago", -days),
                    "expired",
                    Msg::new("handover-exception-expired-title").arg("days", -days),
                )
            } else {
                (
                    format!("expires in {days} days"),
                    "expiring",
                    Msg::new("handover-exception-expires-title").arg("days", days),
                )
            };
            items.push(HandoverItem {
                key: ProblemKey(format!("exception/{}/{}", cluster.id, e.what)),
                section: Section::Exceptions,
                title: format!(
                    "{}: exception \"{}\" {when} ({})",
                    cluster.id, e.what, e.expires
                ),
                details: vec![
                    format!("owner: {}", e.owner),
                    format!("reason: {}", e.reason),
                    format!("exit criteria: {}", e.exit_criteria),
                ],
                says: Says {
                    title: Some(
                        when_msg
                            .arg("cluster", cluster.id.to_string())
                            .arg("what", e.what.to_string())
                            .arg("expires", e.expires.to_string()),
                    ),
                    details: vec![
                        Some(Msg::new("handover-owner").arg("owner", e.owner.to_string())),
                        Some(Msg::new("handover-reason").arg("reason", e.reason.to_string())),
                        Some(
                            Msg::new("handover-exit-criteria")
                                .arg("criteria", e.exit_criteria.to_string()),
                        ),
                    ],
                },
                since: None,
                subject: Subject {
                    cluster: Some(cluster.id.clone()),
                    ..Subject::default()
                },
                extent: Extent(vec![Fact::kind(fact, when)]),
                check: Check::Current,
                acks: Vec::new(),
            });
        }
    }
    items
}
