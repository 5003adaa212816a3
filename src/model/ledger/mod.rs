//! The cluster ledger: its types, how it is read from YAML, the rules it must follow, and
//! selectors over it. Pure: callers read files and pass text in.

mod decode;
mod rules;
mod selector;
mod types;

pub use rules::{EXCEPTION_WARNING_DAYS, check_ledger};
pub use selector::{Requirement, Selector, SelectorError, cluster_value};
pub use types::*;

use jiff::civil::Date;

use crate::yaml::{Diagnostic, read_document};

/// What reading a ledger needs besides its text.
pub struct LedgerContext<'a> {
    /// "Today", for exception expiry.
    pub today: Date,
    /// Whether a time-zone name exists (the caller owns the time-zone database).
    pub is_known_zone: &'a dyn Fn(&str) -> bool,
}

/// The result of reading a ledger: the ledger when it has no errors, and every finding.
#[derive(Debug)]
pub struct LedgerReport {
    /// The ledger, present only when there are no errors (warnings are fine).
    pub ledger: Option<Ledger>,
    /// Every error and warning, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and validates a ledger from its text. Never panics, whatever the input.
pub fn read_ledger(text: &str, context: &LedgerContext<'_>) -> LedgerReport {
    let (ledger, diagnostics) = read_document(text, |root, diags| {
        let ledger = decode::decode_ledger(root, context.is_known_zone, diags)?;
        check_ledger(&ledger, context.today, diags);
        Some(ledger)
    });
    LedgerReport {
        ledger,
        diagnostics,
    }
}

#[cfg(test)]
mod tests;
