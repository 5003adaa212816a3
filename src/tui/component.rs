//! Screens as components: each screen owns its state and answers two questions, what an
//! action does there ([`Screen::handle`]) and how it looks ([`Screen::draw`]), reading the
//! console's global state through a [`Context`] and never through `App`. Every screen is
//! one: the ledger, the cluster drill-down, the node page, capacity (at each scope),
//! rollouts, maintenance, the timeline and findings; `router.rs` routes to them.
//!
//! Why this shape: `App` used to own every screen's state and every key handler took
//! `&mut App`, so a screen could change anything and every screen module imported the
//! reducer (the import circle `app.rs` ⇄ `screens/*`). Here a screen can change only its
//! own state; whatever it wants beyond that (a footer line, another place, a what-if, an
//! operator dialog, a command for the event loop) it returns as [`Effect`]s, which `App`
//! applies — the way gitui's components push to a queue and yazi's commands go through
//! its router. A trait rather than an enum of screens, so that `App` routes by the
//! current place without knowing what a screen does, and a screen is tested with a
//! `Context` and its own state alone.

use std::sync::Arc;

use jiff::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::action::Action;
use super::attention::{InFlight, Urgent};
use super::feed::Activity;
use super::filter::Filter;
use super::findings_data::FindingsView;
use super::fleet_data::FleetData;
use super::keymap;
use super::message::{Command, Overlay};
use super::nav::CapacityScope;
use super::screens::ledger::LedgerRow;
use super::settings::{AppConfig, SelectedRollout};
use crate::model::capacity::Scenario;
use crate::model::ledger::Ledger;
use crate::model::live::FleetSnapshot;

/// What every screen may read: the console's global state, borrowed for one update or
/// one frame.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// Fixed configuration (theme, keymap, who is at the keyboard).
    pub config: &'a AppConfig,
    /// The ledger.
    pub ledger: &'a Ledger,
    /// The latest fleet snapshot.
    pub snapshot: &'a FleetSnapshot,
    /// Facts derived from it.
    pub data: &'a FleetData,
    /// One ledger row per cluster.
    pub rows: &'a [LedgerRow],
    /// Journal-derived activity.
    pub activity: &'a Activity,
    /// What each cluster's runs do there.
    pub in_flight: &'a std::collections::BTreeMap<String, InFlight>,
    /// What waits for a person fleet-wide.
    pub urgent: &'a Urgent,
    /// The fleet's findings.
    pub findings: &'a FindingsView,
    /// The selected rollout's file and plan.
    pub selected_rollout: Option<&'a SelectedRollout>,
    /// The console's clock (the last tick).
    pub now: Timestamp,
    /// Terminal size.
    pub size: (u16, u16),
    /// The keymap layer of the current screen.
    pub layer: keymap::Context,
}

impl Context<'_> {
    /// `"KEY does"` for the key the active keymap binds to `action` on this screen, so
    /// that hints follow a remapped key; `None` when it is unbound.
    pub fn key_hint(&self, action: Action, does: &str) -> Option<String> {
        self.key_on(self.layer, action)
            .map(|key| format!("{key} {does}"))
    }

    /// The key the active keymap binds to `action` on the screen of `layer`, as shown.
    pub fn key_on(&self, layer: keymap::Context, action: Action) -> Option<String> {
        self.config
            .keymap
            .key_for(layer, action)
            .map(|key| key.to_string())
    }

    /// Rows a page move jumps.
    pub fn page(&self) -> usize {
        usize::from(self.size.1.saturating_sub(8)).max(1)
    }
}

/// What a screen asks of the console beyond its own state; `App` applies them in order.
#[derive(Debug, Clone)]
pub enum Effect {
    /// A line for the footer.
    Say(String),
    /// Open a cluster's drill-down, optionally on one node (the ledger's selection
    /// follows it).
    OpenCluster(String, Option<Arc<str>>),
    /// Open a node's page from its cluster's drill-down.
    OpenNode(String, Arc<str>),
    /// Open the capacity screen at a scope, on top of the crumbs.
    Capacity(CapacityScope),
    /// Run a what-if on a cluster and show it on its capacity screen.
    WhatIf(String, Scenario),
    /// Ask whether a cluster's siblings could take its pods were it lost whole.
    WhatIfCluster(String),
    /// Run a what-if on the nodes chosen on screen: lost, or taken as one maintenance
    /// batch.
    WhatIfNodes(NodeLoss),
    /// Put an overlay up (a PDB's pods, a dialog).
    Overlay(Overlay),
    /// Open the dialog of an operator command (`tui/operator/`) on the screen's selection.
    Operator(Action),
    /// Something for the event loop.
    Command(Command),
}

/// How the nodes of a what-if go away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeLoss {
    /// Lost (failed, gone).
    Lost,
    /// Taken down together as one maintenance batch.
    MaintenanceBatch,
}

/// A screen of the console.
pub trait Screen {
    /// Acts on `action`; what the console must do besides, or `None` when this screen
    /// does not use the action (the console then says so rather than stay silent).
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>>;

    /// Draws the screen into `area`.
    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context);

    /// The screen's `/` filter; `None` on screens that do not filter.
    fn filter(&self) -> Option<&Filter> {
        None
    }

    /// The screen's `/` filter, to edit.
    fn filter_mut(&mut self) -> Option<&mut Filter> {
        None
    }

    /// `esc`: closes what the screen has open (a detail); whether it did.
    fn close(&mut self) -> bool {
        false
    }
}

/// Moves a selection at `pos` among `len` rows by a motion `action`; the new position,
/// and what to say when it could not move (at an end, or nothing to move through).
pub fn motion(pos: usize, len: usize, action: Action, ctx: &Context) -> (usize, Vec<Effect>) {
    let next = moved(pos, len, action, ctx.page());
    let said = if next == pos.min(len.saturating_sub(1)) {
        vec![Effect::Say(stopped(ctx.config.lang, action, len))]
    } else {
        Vec::new()
    };
    (next, said)
}

/// Whether `action` moves a selection.
pub fn is_motion(action: Action) -> bool {
    matches!(
        action,
        Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom
    )
}

/// New position after a motion action in a list of `len` rows.
pub fn moved(pos: usize, len: usize, action: Action, page: usize) -> usize {
    let last = len.saturating_sub(1);
    match action {
        Action::Up => pos.saturating_sub(1),
        Action::Down => (pos + 1).min(last),
        Action::PageUp => pos.saturating_sub(page),
        Action::PageDown => (pos + page).min(last),
        Action::Top => 0,
        Action::Bottom => last,
        _ => pos.min(last),
    }
}

/// What a motion that could not move says: at which end the selection is, or that there
/// is nothing to move through.
pub fn stopped(lang: crate::i18n::Lang, action: Action, rows: usize) -> String {
    if rows == 0 {
        return crate::t!(lang, "fleet-nothing-to-move");
    }
    if rows == 1 {
        return crate::t!(lang, "fleet-only-row");
    }
    match action {
        Action::Up | Action::PageUp | Action::Top => crate::t!(lang, "fleet-first-row"),
        _ => crate::t!(lang, "fleet-last-row"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motion_stays_in_bounds() {
        assert_eq!(moved(0, 5, Action::Up, 3), 0);
        assert_eq!(moved(4, 5, Action::Down, 3), 4);
        assert_eq!(moved(1, 5, Action::PageDown, 3), 4);
        assert_eq!(moved(4, 5, Action::PageUp, 3), 1);
        assert_eq!(moved(2, 5, Action::Bottom, 3), 4);
        assert_eq!(moved(2, 0, Action::Down, 3), 0);
    }
}
