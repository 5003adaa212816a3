//! The shift handover: everything the next person must know, built from the journal's
//! projection, the clusters' live statuses and the ledger. Pure, so the console's `H`
//! walkthrough, `fleetdeck handover` and its Markdown report say exactly the same thing.
//! One function per section, each in the file of what it reads: pauses, runs (approvals,
//! stuck and handed-off steps, halts), what runs left mid-change, clusters, the ledger's
//! exceptions, and the notes and acknowledgements people wrote.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

use crate::model::duration::format_duration;
use crate::model::ledger::{ClusterId, Ledger};
use crate::model::live::ClusterStatus;
use crate::model::run::{Actor, Event, ItemId, Projection, RunId};

mod acks;
mod clusters;
mod exceptions;
mod extent;
mod left;
mod notes;
mod pauses;
mod runs;

pub use acks::LEGACY_ACK_PREFIX;
pub use clusters::cluster_health;
pub use extent::{Extent, Fact, ProblemKey, cause};

/// What an item is about; an acknowledgement is journaled against the same.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Subject {
    /// The run.
    pub run: Option<RunId>,
    /// The item of the run.
    pub item: Option<ItemId>,
    /// The cluster.
    pub cluster: Option<ClusterId>,
}

/// The sections of a handover, in the order they are walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Section {
    /// Pause switches in force.
    PausedAutomation,
    /// Rollout batches waiting for a person.
    AwaitingApproval,
    /// Steps stuck past their deadline.
    StuckSteps,
    /// Steps in a person's hands.
    HandedOff,
    /// Rollouts a stop condition halted.
    HaltedRollouts,
    /// What a failed or aborted run left half done: nodes left cordoned or stopped
    /// mid-step, a release on some clusters and not the others.
    LeftMidChange,
    /// Clusters that cannot be trusted.
    Clusters,
    /// Clusters whose data is fresh but that are not whole: Degraded data, nodes not
    /// ready, disruption budgets below their minimum.
    ClustersNotWhole,
    /// Ledger exceptions expiring soon (or expired).
    Exceptions,
    /// Notes written during the shift.
    Notes,
}

impl Section {
    /// The heading people read.
    pub fn heading(self) -> &'static str {
        match self {
            Section::PausedAutomation => "Paused automation",
            Section::AwaitingApproval => "Batches awaiting approval",
            Section::StuckSteps => "Stuck steps",
            Section::HandedOff => "Handed-off steps",
            Section::HaltedRollouts => "Halted rollouts",
            Section::LeftMidChange => "Left mid-change",
            Section::Clusters => "Clusters Unreachable / IdentityMismatch / UNKNOWN",
            Section::ClustersNotWhole => "Clusters with nodes down or budgets below minimum",
            Section::Exceptions => "Exceptions expiring soon",
            Section::Notes => "Open notes",
        }
    }

    /// The heading where space is short (the walkthrough's list); the full one is shown
    /// with the item.
    pub fn short_heading(self) -> &'static str {
        match self {
            Section::Clusters => "Untrusted clusters",
            Section::ClustersNotWhole => "Clusters not whole",
            other => other.heading(),
        }
    }
}

/// Whether an acknowledgement still covers its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Standing {
    /// The problem is the same one and no worse than when it was acknowledged.
    Holds,
    /// The problem got worse, or another one appeared, since: it needs a look again.
    Reopened,
}

/// Someone read an item and said something about it (an `operator.acknowledge` event).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ack {
    /// Who.
    pub by: Actor,
    /// When.
    pub at: Timestamp,
    /// What they said.
    pub note: String,
    /// How the problem stood when it was acknowledged; `None` for an acknowledgement an
    /// older fleetdeck wrote, which did not record it.
    pub then: Option<Extent>,
    /// Whether it still covers the item.
    pub standing: Standing,
    /// What changed since, in words: `unchanged since`, `then 3 of 8 nodes not ready;
    /// now 2 of 8 nodes not ready`, or how it got worse.
    pub change: String,
}

/// One thing the next person must know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandoverItem {
    /// What it is about, stable while the problem is the same one (no counts in it):
    /// acknowledgements name it.
    pub key: ProblemKey,
    /// Where it belongs.
    pub section: Section,
    /// One line.
    pub title: String,
    /// The facts: who, since when, why, owner, note.
    pub details: Vec<String>,
    /// Since when it stands, when known.
    pub since: Option<Timestamp>,
    /// What it is about.
    pub subject: Subject,
    /// How bad it stands, in the terms that tell whether it got worse.
    pub extent: Extent,
    /// Acknowledgements during the shift, oldest first.
    pub acks: Vec<Ack>,
}

impl HandoverItem {
    /// Whether an acknowledgement covers it now (one that still holds).
    pub fn acknowledged(&self) -> bool {
        self.acks.iter().any(|a| a.standing == Standing::Holds)
    }

    /// Whether it was acknowledged but got worse since, and nothing covers it now.
    pub fn reopened(&self) -> bool {
        !self.acks.is_empty() && !self.acknowledged()
    }
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

/// A cluster's status as the live view reports it.
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
}

/// Everything a handover is built from.
#[derive(Debug, Clone, Copy)]
pub struct HandoverInput<'a> {
    /// The journal's current state.
    pub projection: &'a Projection,
    /// Journal events of the shift (notes and acknowledgements are read from these).
    pub events: &'a [Event],
    /// Live statuses; `None` when the fleet was not checked.
    pub clusters: Option<&'a [ClusterHealth]>,
    /// The ledger, for exceptions.
    pub ledger: Option<&'a Ledger>,
    /// When the shift started.
    pub since: Timestamp,
    /// Now.
    pub now: Timestamp,
    /// Exceptions expiring within this many days are listed.
    pub expiring_within_days: i64,
}

/// `3h12m`, for ages in details.
pub fn age(now: Timestamp, then: Timestamp) -> String {
    let secs = (now.as_second() - then.as_second()).max(0);
    let secs = u64::try_from(secs).unwrap_or(0);
    // Seconds are noise past an hour.
    let secs = if secs >= 3_600 {
        secs - secs % 60
    } else {
        secs
    };
    format_duration(Duration::from_secs(secs))
}

/// `2026-11-28 14:02 UTC`, for instants in details.
pub fn when(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Builds the handover, sections in walking order.
pub fn handover(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let mut items = pauses::paused_automation(input);
    items.extend(runs::awaiting_approval(input));
    items.extend(runs::stuck_steps(input));
    items.extend(runs::handed_off(input));
    items.extend(runs::halted_rollouts(input));
    items.extend(left::left_mid_change(input));
    items.extend(clusters::untrusted(input));
    items.extend(clusters::not_whole(input));
    items.extend(exceptions::expiring(input));
    items.extend(notes::open_notes(input));
    acks::attach(&mut items, input);
    // Stable: within a section, items keep the journal's run order.
    items.sort_by_key(|i| i.section);
    items
}

#[cfg(test)]
mod ack_tests;
#[cfg(test)]
mod tests;
