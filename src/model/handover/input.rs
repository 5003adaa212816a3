//! What a handover is built from: the journal, the clusters' live state and the ledger,
//! each either read or not read with why.

use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::i18n::Msg;
use crate::model::fleet::Schedulability;
use crate::model::ledger::{ClusterId, Ledger};
use crate::model::live::ClusterStatus;
use crate::model::run::{Event, Projection};

/// A source of the handover: read, or not read and why (`no ledger configured …`,
/// `--wait-synced 0s`, the error met). Not read is never taken for "nothing there".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known<T> {
    /// Read.
    Read(T),
    /// Not read, and why, in words.
    NotRead(String),
}

impl<T> Known<T> {
    /// A borrowed view, for handing owned sources to [`HandoverInput`].
    pub fn as_ref(&self) -> Known<&T> {
        match self {
            Known::Read(t) => Known::Read(t),
            Known::NotRead(why) => Known::NotRead(why.clone()),
        }
    }

    /// What was read, changed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Known<U> {
        match self {
            Known::Read(t) => Known::Read(f(t)),
            Known::NotRead(why) => Known::NotRead(why),
        }
    }
}

impl<T: Copy> Known<T> {
    /// What was read, if it was.
    pub fn read(&self) -> Option<T> {
        match self {
            Known::Read(t) => Some(*t),
            Known::NotRead(_) => None,
        }
    }
}

/// The journal as the handover reads it.
#[derive(Debug, Clone, Copy)]
pub struct JournalFacts<'a> {
    /// Its current state.
    pub projection: &'a Projection,
    /// Its events of the shift (notes and acknowledgements are read from these).
    pub events: &'a [Event],
}

/// A disruption budget with fewer healthy pods than it needs: drains there wait, and
/// the workload is already short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetShort {
    /// `namespace/name`.
    pub budget: String,
    /// Healthy pods it has.
    pub healthy: i32,
    /// Healthy pods it needs.
    pub needs: i32,
}

/// A cluster as the live view reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterHealth {
    /// Ledger id.
    pub id: ClusterId,
    /// Its status.
    pub status: ClusterStatus,
    /// The last error, in words.
    pub error: Option<String>,
    /// (Ready, all) nodes; (0, n) without fresh data.
    pub nodes_ready: (usize, usize),
    /// Disruption budgets with fewer healthy pods than they need.
    pub budgets_below_minimum: Vec<BudgetShort>,
    /// Its nodes, cordoned or not, by name (as last seen: only worth reading while the
    /// status says its data is fresh).
    pub nodes: BTreeMap<String, Schedulability>,
}

/// Everything a handover is built from.
#[derive(Debug, Clone)]
pub struct HandoverInput<'a> {
    /// The journal.
    pub journal: Known<JournalFacts<'a>>,
    /// Every ledger cluster's live state.
    pub fleet: Known<&'a [ClusterHealth]>,
    /// The ledger, for exceptions.
    pub ledger: Known<&'a Ledger>,
    /// The fleet's findings as judged now (`model::findings::judge_fleet`).
    pub findings: Known<&'a [crate::model::findings::Finding]>,
    /// When the shift started.
    pub since: Timestamp,
    /// Now.
    pub now: Timestamp,
    /// Exceptions expiring within this many days are listed.
    pub expiring_within_days: i64,
}

/// What could not be checked at all, each with why and what is therefore unknown.
pub(super) fn not_checked(input: &HandoverInput<'_>) -> Vec<(String, Msg)> {
    let mut out = Vec::new();
    if let Known::NotRead(why) = &input.journal {
        out.push((
            format!(
                "journal not read ({why}): pauses, batches awaiting approval, stuck and \
                 handed-off steps, halted rollouts, what runs left mid-change, notes and \
                 acknowledgements are unknown"
            ),
            Msg::new("handover-nc-journal").arg("why", why),
        ));
    }
    match (&input.fleet, &input.ledger) {
        // Without a ledger there is no fleet to sync either: said once.
        (Known::NotRead(fleet), Known::NotRead(ledger)) if fleet == ledger => {
            out.push((
                format!(
                    "ledger not read ({ledger}): clusters Unreachable, IdentityMismatch, UNKNOWN \
                     or not whole, findings new or worse this shift and expiring exceptions are \
                     unknown, and what the journal says was left behind was not checked against \
                     the clusters"
                ),
                Msg::new("handover-nc-ledger-all").arg("why", ledger),
            ));
            return out;
        }
        (Known::NotRead(why), _) => out.push((
            format!(
                "cluster statuses not checked ({why}): clusters Unreachable, IdentityMismatch, \
                 UNKNOWN or not whole are unknown, and what the journal says was left behind was \
                 not checked against the clusters"
            ),
            Msg::new("handover-nc-fleet").arg("why", why),
        )),
        (Known::Read(clusters), _) => {
            let connecting: Vec<&str> = clusters
                .iter()
                .filter(|c| c.status == ClusterStatus::Connecting)
                .map(|c| c.id.as_str())
                .collect();
            if !connecting.is_empty() {
                out.push((
                    format!(
                        "still connecting, status unknown: {}",
                        connecting.join(", ")
                    ),
                    Msg::new("handover-nc-connecting").arg("clusters", connecting.join(", ")),
                ));
            }
        }
    }
    if let Known::NotRead(why) = &input.ledger {
        out.push((
            format!("ledger not read ({why}): expiring exceptions are unknown"),
            Msg::new("handover-nc-ledger").arg("why", why),
        ));
    }
    out
}
