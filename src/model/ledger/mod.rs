//! The cluster ledger: its types, how it is read from YAML, the rules it must follow, and
//! selectors over it. Pure: callers read files and pass text in.

mod decode;
mod decode_support;
mod findings;
#[cfg(test)]
pub(crate) mod fixtures;
mod rules;
mod selector;
mod types;
mod window;

pub use findings::{ExpiredException, expired_exceptions, unacknowledged};
pub use rules::{EXCEPTION_WARNING_DAYS, check_exceptions, check_ledger};
pub use selector::{Requirement, Selector, SelectorError, cluster_value, unknown_keys};
pub use types::*;
pub use window::{WindowState, describe_window, in_how_long, local_and_utc, window_state};

use jiff::civil::Date;

use crate::yaml::{Diagnostic, read_document};

/// What reading a ledger needs besides its text.
pub struct LedgerContext<'a> {
    /// "Today", for exception expiry.
    pub today: Date,
    /// Whether a time-zone name exists (the caller owns the time-zone database).
    pub is_known_zone: &'a dyn Fn(&str) -> bool,
}

/// The result of reading a ledger: the ledger when it is usable, and every finding.
#[derive(Debug)]
pub struct LedgerReport {
    /// The ledger, present when it has no errors but expired exceptions (warnings are
    /// fine): an expired exception is a loud finding ([`expired_exceptions`]), never a
    /// reason to stop reading the fleet.
    pub ledger: Option<Ledger>,
    /// Every error and warning, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and validates a ledger from its text. Never panics, whatever the input.
pub fn read_ledger(text: &str, context: &LedgerContext<'_>) -> LedgerReport {
    // Expiry is judged apart: it is reported as an error, but does not make the ledger
    // unusable (a date passing must not lock everyone out of the tool).
    let mut expiry = crate::yaml::Diagnostics::default();
    let (ledger, mut diagnostics) = read_document(text, |root, diags| {
        let ledger = decode::decode_ledger(root, context.is_known_zone, diags)?;
        check_ledger(&ledger, diags);
        check_exceptions(&ledger, context.today, &mut expiry);
        Some(ledger)
    });
    diagnostics.extend(expiry.into_sorted());
    diagnostics
        .sort_by(|a, b| (a.pos, a.severity, &a.message).cmp(&(b.pos, b.severity, &b.message)));
    LedgerReport {
        ledger,
        diagnostics,
    }
}

#[cfg(test)]
mod support_tests;
#[cfg(test)]
mod tests;

/// A valid ledger of one cluster, `c1`, with `extra` added to its fields (e.g.
/// `versions: {kubernetes: v1.32.1}`), for other modules' tests.
#[cfg(test)]
pub(crate) fn one_cluster_ledger(extra: &str) -> Ledger {
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(", {extra}")
    };
    test_ledger(&[&format!(
        "id: c1, context: c1, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building{extra}"
    )])
}

/// A valid ledger of these clusters, each given as the fields of a flow mapping (`env`
/// may be `staging` or `qa`), for other modules' tests.
#[cfg(test)]
pub(crate) fn test_ledger(clusters: &[&str]) -> Ledger {
    let mut text = String::from(
        "apiVersion: fleetdeck.dev/v1\nkind: Ledger\nlabelDictionary:\n  env: [staging, qa]\n  tier: [standard]\nclusters:\n",
    );
    for fields in clusters {
        text.push_str(&format!("  - {{{fields}}}\n"));
    }
    let report = read_ledger(
        &text,
        &LedgerContext {
            today: jiff::civil::date(2026, 12, 1),
            is_known_zone: &|_| true,
        },
    );
    match report.ledger {
        Some(ledger) => ledger,
        None => panic!("test ledger is invalid: {:?}", report.diagnostics),
    }
}
