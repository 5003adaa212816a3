//! What flows into and out of the console besides fleet snapshots: journal-derived
//! activity (runs, pauses, recent events) in, console commands out.

use std::sync::Arc;

use jiff::Timestamp;

use crate::model::maintenance::{MaintenanceHolds, MaintenanceSpec, NodeFacts, maintenance_holds};
use crate::model::run::{ClusterRefusal, Event, OperatorCommand, Projection};

/// One journal line shown in a cluster's recent events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalLine {
    /// When.
    pub at: Timestamp,
    /// Who (`user@host` or executor id).
    pub actor: String,
    /// Which cluster, if any.
    pub cluster: Option<String>,
    /// What happened, in the reader's words (the values in it as the journal holds them).
    pub text: crate::i18n::Msg,
}

/// Journal-derived activity: runs, pauses and what happened recently.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Activity {
    /// Recent journal lines, newest last.
    pub recent: Vec<JournalLine>,
    /// Whether a journal is connected at all (otherwise the events panel says so).
    pub connected: bool,
    /// The journal's current state and its latest events (Rollouts, Maintenance,
    /// Timeline and the shift handover read these).
    pub journal: JournalView,
    /// Who this console is on a shared journal and who else is connected (team mode).
    pub team: Option<crate::model::team::TeamFacts>,
    /// Events this console read that the journal no longer holds, oldest first: it went
    /// back (a failover to a standby that had not received them, a restore). Kept for the
    /// session: what they said may have happened, and a person must look.
    pub lost: Vec<LostLine>,
}

/// An event the console read that the journal no longer holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostLine {
    /// Its sequence when it was read.
    pub seq: i64,
    /// What it said, in the reader's words.
    pub text: crate::i18n::Msg,
}

/// The journal as the console sees it: the projection and the newest events, shared
/// (snapshots are cheap to clone). Compared by position, not content.
#[derive(Debug, Clone, Default)]
pub struct JournalView {
    /// Every run, pause and hand-off as the journal says now.
    pub projection: Arc<Projection>,
    /// The newest events (oldest first), without the engine's raw observations.
    pub events: Arc<Vec<Event>>,
    /// The nodes maintenance runs hold, which capacity counts as unavailable.
    pub holds: Arc<MaintenanceHolds>,
}

impl JournalView {
    /// The view of a projection and its newest events.
    pub fn new(projection: Projection, events: Vec<Event>) -> Self {
        JournalView {
            holds: Arc::new(maintenance_holds(&projection)),
            projection: Arc::new(projection),
            events: Arc::new(events),
        }
    }
}

impl PartialEq for JournalView {
    fn eq(&self, other: &Self) -> bool {
        self.projection.last_seq == other.projection.last_seq
            && self.events.len() == other.events.len()
    }
}

impl Eq for JournalView {}

/// What the console asks of the rest of the program. Every operator action goes through
/// the journal: whoever receives these appends them with the console's actor and answers
/// with a [`Notice`] (a refusal to record needs no answer: the console already said it).
#[derive(Debug, Clone, PartialEq)]
pub enum ConsoleCommand {
    /// The user quit the console.
    Quit,
    /// An operator command (approve, pause, hand off, …) to journal.
    Operator(OperatorCommand),
    /// Start a maintenance: plan `spec` against `inventory` (the nodes as last seen) and
    /// journal the run, as `fleetdeck maintenance start` does.
    StartMaintenance {
        /// The maintenance.
        spec: Box<MaintenanceSpec>,
        /// The cluster's nodes as the console last saw them.
        inventory: Vec<NodeFacts>,
    },
    /// The console refused an action before sending it, because clusters it concerns
    /// cannot take actions: journal the refusals for the audit trail.
    Refused(Vec<ClusterRefusal>),
    /// The console refused this command by the run's rules (an approver the policy does
    /// not allow) before sending it: journal the refusal if the journal's rules agree;
    /// the command itself is never carried out.
    RefusedByRules(crate::model::run::OperatorCommand),
    /// Suspend or resume a GitOps object's sync, journaled, on a cluster whose identity
    /// is confirmed again before the change (as `fleetdeck gitops suspend|resume`).
    GitOpsSync(GitOpsSyncRequest),
}

/// Which GitOps object's sync to suspend or resume, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitOpsSyncRequest {
    /// The cluster (ledger id).
    pub cluster: crate::model::ledger::ClusterId,
    /// The object's kind.
    pub kind: crate::model::findings::GitOpsKind,
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Suspend (true) or resume (false).
    pub suspend: bool,
    /// Why.
    pub reason: String,
}

impl GitOpsSyncRequest {
    /// `suspend` / `resume`.
    pub fn verb(&self) -> &'static str {
        if self.suspend { "suspend" } else { "resume" }
    }

    /// `Kustomization flux-system/apps`.
    pub fn object(&self) -> String {
        format!("{} {}/{}", self.kind.kind(), self.namespace, self.name)
    }
}

impl ConsoleCommand {
    /// Whether the operator waits for an answer: not for quitting, nor for recording a
    /// refusal the console already showed.
    pub fn needs_answer(&self) -> bool {
        !matches!(
            self,
            ConsoleCommand::Quit | ConsoleCommand::Refused(_) | ConsoleCommand::RefusedByRules(_)
        )
    }
}

/// The answer to a console command: what was recorded, or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Whether the command was recorded.
    pub ok: bool,
    /// What happened, in a sentence (in the reader's language when the sender could say
    /// it so; a cluster's or the journal's own error text as it is).
    pub text: crate::i18n::Msg,
}
