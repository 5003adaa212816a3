//! What flows into and out of the console besides fleet snapshots: automation state and
//! journal-derived activity in, console commands out.

use std::collections::BTreeMap;

use jiff::Timestamp;

/// Whether automation may start new actions; the engine publishes this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutomationState {
    /// Automation is starting new actions.
    Running,
    /// Nothing new starts until someone resumes.
    Paused {
        /// Why, in words.
        reason: String,
        /// Who (or what guard) paused it.
        by: String,
        /// Since when.
        since: Timestamp,
    },
}

/// One journal line shown in a cluster's recent events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalLine {
    /// When.
    pub at: Timestamp,
    /// Who (`user@host` or executor id).
    pub actor: String,
    /// Which cluster, if any.
    pub cluster: Option<String>,
    /// What happened, in words.
    pub text: String,
}

/// Journal-derived activity: what is in flight and what happened recently.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Activity {
    /// Per cluster id, the change in flight (`rollout r-12 batch 2/5`).
    pub in_flight: BTreeMap<String, String>,
    /// Recent journal lines, newest last.
    pub recent: Vec<JournalLine>,
    /// Whether a journal is connected at all (otherwise the events panel says so).
    pub connected: bool,
}

/// What the console asks of the rest of the program. Operator actions (approve, pause,
/// hand off…) arrive with issue 07.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsoleCommand {
    /// The user quit the console.
    Quit,
}
