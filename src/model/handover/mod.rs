//! The shift handover: everything the next person must know, built from the journal's
//! projection, the clusters' live statuses and the ledger. Pure, so the console's `H`
//! walkthrough, `fleetdeck handover` and its Markdown report say exactly the same thing.
//! One function per section, each in the file of what it reads: pauses, runs (approvals,
//! stuck and handed-off steps, halts), what runs left mid-change, clusters, findings new
//! or worse this shift, the ledger's exceptions, and the notes and acknowledgements people wrote.
//!
//! What the journal says was left behind is judged against the journal's later events
//! and the clusters' live state where it is known: an item they show settled is not
//! listed (it is named among the settled), and one that could not be checked says why.
//! A source that could not be read at all (no journal, no ledger, the fleet not synced)
//! is named with why, never taken for "nothing to hand over".

use jiff::Timestamp;
use serde::Serialize;

use crate::i18n::{Lang, Msg};
use crate::model::duration::age;
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, ItemId, RunId};

mod acks;
mod clusters;
mod exceptions;
mod extent;
mod findings;
mod input;
mod left;
mod left_release;
mod notes;
mod pauses;
mod runs;

pub use acks::LEGACY_ACK_PREFIX;
pub use clusters::cluster_health;
pub use extent::{Extent, Fact, ProblemKey, cause};
pub use input::{BudgetShort, ClusterHealth, HandoverInput, JournalFacts, Known};

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
    /// Findings that appeared or got worse during the shift.
    Findings,
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
            Section::Findings => "Findings new or worse this shift",
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
            Section::Findings => "New or worse findings",
            other => other.heading(),
        }
    }

    /// The heading in `lang` (English: exactly [`Section::heading`]).
    pub fn heading_in(self, lang: Lang) -> String {
        match lang {
            Lang::En => self.heading().to_string(),
            _ => crate::i18n::text(lang, self.msg_id(false), &[]),
        }
    }

    /// The short heading in `lang` (English: exactly [`Section::short_heading`]).
    pub fn short_heading_in(self, lang: Lang) -> String {
        match lang {
            Lang::En => self.short_heading().to_string(),
            _ => crate::i18n::text(lang, self.msg_id(true), &[]),
        }
    }

    fn msg_id(self, short: bool) -> &'static str {
        match (self, short) {
            (Section::PausedAutomation, _) => "handover-section-paused",
            (Section::AwaitingApproval, _) => "handover-section-awaiting",
            (Section::StuckSteps, _) => "handover-section-stuck",
            (Section::HandedOff, _) => "handover-section-handed-off",
            (Section::HaltedRollouts, _) => "handover-section-halted",
            (Section::LeftMidChange, _) => "handover-section-left",
            (Section::Clusters, false) => "handover-section-clusters",
            (Section::Clusters, true) => "handover-section-clusters-short",
            (Section::ClustersNotWhole, false) => "handover-section-not-whole",
            (Section::ClustersNotWhole, true) => "handover-section-not-whole-short",
            (Section::Findings, false) => "handover-section-findings",
            (Section::Findings, true) => "handover-section-findings-short",
            (Section::Exceptions, _) => "handover-section-exceptions",
            (Section::Notes, _) => "handover-section-notes",
        }
    }
}

/// Which messages an item's English sentences are, for rendering them in another
/// language; never serialised (JSON and the journal carry the English only). A sentence
/// without a message is shown in English; `details` is either empty or one per detail.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Says {
    /// The title's message.
    pub title: Option<Msg>,
    /// Each detail's message, in the order of the details.
    pub details: Vec<Option<Msg>>,
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
    /// `change` as a message, for other languages (never serialised).
    #[serde(skip)]
    pub change_msg: Option<Msg>,
}

impl Ack {
    /// What changed since, in `lang` (English: exactly `change`).
    pub fn change_in(&self, lang: Lang) -> String {
        match (&self.change_msg, lang) {
            (Some(msg), Lang::ZhCn) => msg.text(lang),
            _ => self.change.clone(),
        }
    }
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
    /// Whether later events or the live state were asked whether it still stands.
    pub check: Check,
    /// Acknowledgements during the shift, oldest first.
    pub acks: Vec<Ack>,
    /// The title's and details' messages, for other languages (never serialised).
    #[serde(skip)]
    pub says: Says,
}

/// Whether an item of the journal's was checked against what happened since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", content = "says", rename_all = "camelCase")]
pub enum Check {
    /// Nothing later could change it: it comes from the journal's or the cluster's
    /// current state itself (a pause, a stuck step, a cluster's status).
    Current,
    /// Checked: it still stands, and how that was seen.
    Confirmed(String),
    /// It could not be checked, and why.
    NotChecked(String),
}

impl Check {
    /// The check as a detail line (`checked: …`, `not checked: …`).
    pub fn line(&self) -> String {
        match self {
            Check::Current => "current: read from the journal's or the cluster's state now".into(),
            Check::Confirmed(how) => format!("checked: {how}"),
            Check::NotChecked(why) => format!("not checked: {why}"),
        }
    }

    /// The check line as a message.
    pub fn line_msg(&self) -> Msg {
        match self {
            Check::Current => Msg::new("handover-check-current"),
            Check::Confirmed(how) => Msg::new("handover-check-confirmed").arg("how", how),
            Check::NotChecked(why) => Msg::new("handover-check-not-checked").arg("why", why),
        }
    }
}

/// An item the journal still says was left behind, that later events or the live state
/// show settled: it is not listed, only named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settled {
    /// The item as the journal alone would have listed it.
    pub title: String,
    /// What settled it, and where that was seen.
    pub how: String,
}

/// The shift handover: the items to walk, what settled since, and what could not be
/// checked at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Handover {
    /// When the shift started.
    pub since: Timestamp,
    /// When the handover was built.
    pub now: Timestamp,
    /// The items, sections in walking order.
    pub items: Vec<HandoverItem>,
    /// Items the journal alone would list that later events or the live state settled.
    pub settled: Vec<Settled>,
    /// Sources that could not be read, and clusters not checked, each with why and what
    /// is therefore unknown.
    pub not_checked: Vec<String>,
    /// `not_checked` as messages, one each (`None`: shown in English); never serialised.
    #[serde(skip)]
    pub not_checked_says: Vec<Option<Msg>>,
}

impl Handover {
    /// What could not be checked, in `lang` (English: exactly `not_checked`).
    pub fn not_checked_in(&self, lang: Lang) -> Vec<String> {
        said(lang, &self.not_checked, &self.not_checked_says)
    }
}

/// English sentences in `lang`: each one's message when there is one for every
/// sentence, else the English as it is.
pub fn said(lang: Lang, english: &[String], msgs: &[Option<Msg>]) -> Vec<String> {
    if lang == Lang::En || msgs.len() != english.len() {
        return english.to_vec();
    }
    english
        .iter()
        .zip(msgs)
        .map(|(en, msg)| msg.as_ref().map_or_else(|| en.clone(), |m| m.text(lang)))
        .collect()
}

impl HandoverItem {
    /// Whether an acknowledgement covers it now (one that still holds).
    pub fn acknowledged(&self) -> bool {
        self.acks.iter().any(|a| a.standing == Standing::Holds)
    }

    /// The title in `lang` (English: exactly `title`).
    pub fn title_in(&self, lang: Lang) -> String {
        match (&self.says.title, lang) {
            (Some(msg), Lang::ZhCn) => msg.text(lang),
            _ => self.title.clone(),
        }
    }

    /// The details in `lang` (English: exactly `details`).
    pub fn details_in(&self, lang: Lang) -> Vec<String> {
        said(lang, &self.details, &self.says.details)
    }

    /// Whether it was acknowledged but got worse since, and nothing covers it now.
    pub fn reopened(&self) -> bool {
        !self.acks.is_empty() && !self.acknowledged()
    }
}

/// `2026-11-28 14:02 UTC`, for instants in details.
pub fn when(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Builds the handover, sections in walking order.
pub fn handover(input: &HandoverInput<'_>) -> Handover {
    let mut settled = Vec::new();
    let mut items = pauses::paused_automation(input);
    items.extend(runs::awaiting_approval(input));
    items.extend(runs::stuck_steps(input));
    items.extend(runs::handed_off(input));
    items.extend(runs::halted_rollouts(input));
    items.extend(left::left_mid_change(input, &mut settled));
    items.extend(clusters::untrusted(input));
    items.extend(clusters::not_whole(input));
    items.extend(findings::new_or_worse(input));
    items.extend(exceptions::expiring(input));
    items.extend(notes::open_notes(input));
    acks::attach(&mut items, input);
    let (not_checked, not_checked_says) = input::not_checked(input)
        .into_iter()
        .chain(findings::not_checked(input))
        .map(|(en, msg)| (en, Some(msg)))
        .unzip();
    // Stable: within a section, items keep the journal's run order.
    items.sort_by_key(|i| i.section);
    Handover {
        since: input.since,
        now: input.now,
        items,
        settled,
        not_checked,
        not_checked_says,
    }
}

#[cfg(test)]
mod ack_tests;
#[cfg(test)]
mod rollout_tests;
#[cfg(test)]
mod stale_tests;
#[cfg(test)]
mod tests;
