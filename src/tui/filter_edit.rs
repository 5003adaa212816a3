//! Editing the `/` filter of the current screen: which screens filter, typing and pasting
//! into it, and selecting what it names exactly. Split from `app.rs` so the reducer stays
//! a router.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Overlay};
use super::filter::Filter;
use super::nav::Route;

impl App {
    /// The filter of the current screen; none on screens that do not filter (Rollouts,
    /// Maintenance), which must not edit another screen's filter out of sight.
    pub fn current_filter(&self) -> Option<&Filter> {
        match self.nav.current() {
            Route::Cluster(_) => Some(
                self.cluster_state
                    .as_ref()
                    .map_or(&self.ledger_state.filter, |s| &s.filter),
            ),
            Route::Capacity(_) => Some(&self.capacity_state.filter),
            Route::Timeline => Some(&self.timeline_state.filter),
            Route::Findings => Some(&self.findings_state.filter),
            Route::Ledger => Some(&self.ledger_state.filter),
            Route::Rollouts | Route::Maintenance | Route::Node(..) => None,
        }
    }

    pub(super) fn current_filter_mut(&mut self) -> Option<&mut Filter> {
        match self.nav.current() {
            Route::Cluster(_) => Some(match self.cluster_state.as_mut() {
                Some(state) => &mut state.filter,
                None => &mut self.ledger_state.filter,
            }),
            Route::Capacity(_) => Some(&mut self.capacity_state.filter),
            Route::Timeline => Some(&mut self.timeline_state.filter),
            Route::Findings => Some(&mut self.findings_state.filter),
            Route::Ledger => Some(&mut self.ledger_state.filter),
            Route::Rollouts | Route::Maintenance | Route::Node(..) => None,
        }
    }

    pub(super) fn set_current_filter(&mut self, filter: Filter) {
        // What the filter names exactly (a cluster id, a node name) is listed first and
        // selected, so `enter` opens what was typed.
        match self.nav.current() {
            Route::Ledger => {
                if let Some(row) = self.rows.iter().find(|r| filter.names(&r.id)) {
                    self.ledger_state.selected = Some(row.id.clone());
                }
            }
            Route::Cluster(id) => {
                let node = self
                    .snapshot
                    .cluster(id)
                    .into_iter()
                    .flat_map(|c| c.view.nodes.iter())
                    .find(|n| filter.names(&n.name.0))
                    .map(|n| Arc::clone(&n.name.0));
                if let (Some(node), Some(state)) = (node, self.cluster_state.as_mut()) {
                    state.selected = Some(node);
                }
            }
            _ => {}
        }
        if let Some(current) = self.current_filter_mut() {
            *current = filter;
        }
    }

    /// Pasted text: into the filter being typed or the dialog field being edited; it
    /// never confirms anything. Elsewhere it is dropped, and the operator told so.
    pub(super) fn on_paste(&mut self, text: &str) {
        if let Some(input) = self.filter_input.as_mut() {
            input.push_str(&text.replace(['\r', '\n'], " "));
            let filter = Filter::parse(input);
            self.set_current_filter(filter);
            return;
        }
        if let Some(Overlay::Dialog(dialog)) = self.overlay.as_mut()
            && dialog.on_paste(text)
        {
            return;
        }
        self.message = Some(crate::t!(self.config.lang, "msg-paste-ignored"));
    }

    pub(super) fn on_filter_key(&mut self, key: KeyEvent) {
        let Some(text) = self.filter_input.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc => {
                self.filter_input = None;
                self.set_current_filter(Filter::parse(""));
                return;
            }
            KeyCode::Enter => {
                self.filter_input = None;
                return;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => text.clear(),
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => text.push(c),
            _ => return,
        }
        let filter = Filter::parse(text);
        self.set_current_filter(filter);
    }
}
