//! Keys while an overlay has them (an operator dialog, the handover walkthrough) and the
//! journal-derived state those overlays and the rollouts screen keep: split from `app.rs`
//! so the reducer stays readable.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Command, Overlay};
use super::dialog::DialogResult;
use super::feed::ConsoleCommand;

impl App {
    /// Keeps the selected rollout's file and plan in step with the selection and the
    /// journal.
    pub(super) fn refresh_rollout_plan(&mut self, force: bool) {
        let projection = Arc::clone(&self.activity.journal.projection);
        let Some(run) = super::screens::rollouts::selected(&self.rollouts_state, &projection)
        else {
            self.selected_rollout = None;
            return;
        };
        if !force
            && self
                .selected_rollout
                .as_ref()
                .is_some_and(|selected| selected.run == run.id)
        {
            return;
        }
        let spec = super::screens::rollouts::spec(run).map(Arc::new);
        let plan = spec
            .as_deref()
            .and_then(|spec| super::screens::rollouts::plan(run, spec, &self.ledger))
            .map(Arc::new);
        // Reached means verified on a cluster running it, not a batch begun; a cluster
        // the run's halt names (a burn rate that tripped after it verified) is not.
        let halted_on = super::screens::rollouts::halted_on(run);
        let passed = |id: &crate::model::ledger::ClusterId| {
            !halted_on.contains(&id.as_str())
                && run
                    .items
                    .get(&crate::model::run::ItemId::from(id.as_str()))
                    .is_some_and(|i| i.verified == Some(crate::model::rollout::VerifyOutcome::Pass))
        };
        let reached = plan.as_deref().map_or_else(Vec::new, |plan| {
            plan.reached(&self.ledger, passed)
                .into_iter()
                .map(|(stage, combo)| format!("{stage} ({combo})"))
                .collect()
        });
        self.selected_rollout = Some(super::app::SelectedRollout {
            run: run.id.clone(),
            spec,
            plan,
            reached,
        });
    }

    pub(super) fn on_dialog_key(&mut self, key: KeyEvent) -> Vec<Command> {
        // Nothing is confirmed that the operator could not read in full.
        let area = super::view::overlay_area(self);
        let Some(Overlay::Dialog(dialog)) = self.overlay.as_mut() else {
            return Vec::new();
        };
        if matches!(dialog.stage, super::dialog::Stage::Confirm(_))
            && matches!(key.code, KeyCode::Enter | KeyCode::Char('y'))
            && !super::dialog_view::confirmation_fits(dialog, area)
        {
            self.message = Some(crate::t!(self.config.lang, "msg-too-small-to-send"));
            return Vec::new();
        }
        let quitting = dialog.purpose == super::dialog::Purpose::Quit;
        let result = dialog.on_key(key);
        let close = |app: &mut App| {
            app.overlay = if std::mem::take(&mut app.handover_underneath) {
                Some(Overlay::Handover)
            } else {
                None
            };
        };
        match result {
            DialogResult::Open => Vec::new(),
            DialogResult::Cancelled => {
                close(self);
                self.message = Some(if quitting {
                    crate::t!(self.config.lang, "msg-not-quit")
                } else {
                    crate::t!(self.config.lang, "msg-cancelled")
                });
                Vec::new()
            }
            DialogResult::Send(ConsoleCommand::Quit) => {
                vec![Command::Send(ConsoleCommand::Quit), Command::Quit]
            }
            DialogResult::Send(command) => {
                close(self);
                let lang = self.config.lang;
                self.message = Some(crate::t!(
                    lang,
                    "msg-sent",
                    what = super::format::one_line(&super::dialog::what_happens(lang, &command))
                ));
                vec![Command::Send(command)]
            }
        }
    }

    /// Opens the shift handover walkthrough over the last `shift` (default one shift).
    pub fn open_handover(&mut self, shift: Option<std::time::Duration>) {
        self.handover.shift = shift;
        let built = super::handover::build(self);
        self.handover.set(built);
        self.handover.index = 0;
        self.overlay = Some(Overlay::Handover);
    }

    pub(super) fn refresh_handover(&mut self) {
        if matches!(self.overlay, Some(Overlay::Handover)) || self.handover_underneath {
            let key = self
                .handover
                .items
                .get(self.handover.index)
                .map(|i| i.key.clone());
            let built = super::handover::build(self);
            self.handover.set(built);
            self.handover.index = key
                .and_then(|k| self.handover.items.iter().position(|i| i.key == k))
                .unwrap_or(self.handover.index)
                .min(self.handover.items.len().saturating_sub(1));
        }
    }

    /// Keys over a PDB's pod list: motion moves the selection, `enter` opens the selected
    /// pod's node page, any other key closes the list.
    pub(super) fn on_pdb_pods_key(
        &mut self,
        action: Option<super::action::Action>,
    ) -> Vec<Command> {
        use super::action::Action;
        let Some(Overlay::PdbPods(state)) = self.overlay.as_ref() else {
            return Vec::new();
        };
        let pods = self
            .snapshot
            .cluster(&state.cluster)
            .and_then(|c| super::screens::pdb_pods::covered(&c.view, &state.namespace, &state.name))
            .map(|(_, pods)| pods)
            .unwrap_or_default();
        let pos = state.selected.min(pods.len().saturating_sub(1));
        let cluster = state.cluster.clone();
        match action {
            Some(
                a @ (Action::Up
                | Action::Down
                | Action::PageUp
                | Action::PageDown
                | Action::Top
                | Action::Bottom),
            ) => {
                let next = super::component::moved(pos, pods.len(), a, self.page());
                if next == pos {
                    self.message = Some(super::component::stopped(self.config.lang, a, pods.len()));
                }
                if let Some(Overlay::PdbPods(state)) = self.overlay.as_mut() {
                    state.selected = next;
                }
            }
            Some(Action::Open) => match pods.get(pos).and_then(|p| p.node.clone()) {
                Some(node) => {
                    self.overlay = None;
                    self.nav.push(super::nav::Route::Node(cluster, node));
                    self.enter_route();
                }
                None => self.message = Some(crate::t!(self.config.lang, "fleet-pod-on-no-node")),
            },
            _ => self.overlay = None,
        }
        Vec::new()
    }

    pub(super) fn on_handover_key(&mut self, key: KeyEvent) -> Vec<Command> {
        let last = self.handover.items.len().saturating_sub(1);
        let index = &mut self.handover.index;
        match key.code {
            KeyCode::Right
            | KeyCode::Down
            | KeyCode::Tab
            | KeyCode::Enter
            | KeyCode::Char('j' | 'l' | 'n' | ' ') => *index = (*index + 1).min(last),
            KeyCode::Left | KeyCode::Up | KeyCode::BackTab | KeyCode::Char('k' | 'h' | 'p') => {
                *index = index.saturating_sub(1)
            }
            KeyCode::Home | KeyCode::Char('g') => *index = 0,
            KeyCode::End | KeyCode::Char('G') => *index = last,
            KeyCode::Char('a') => {
                if self.refused_write(
                    "Acknowledge a handover item",
                    crate::model::team::TeamRole::Operator,
                ) {
                    return Vec::new();
                }
                if let Some(item) = self.handover.items.get(self.handover.index).cloned() {
                    self.handover_underneath = true;
                    super::operator::acknowledge(self, &item);
                }
            }
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                return vec![Command::Send(ConsoleCommand::Quit), Command::Quit];
            }
            _ => self.overlay = None,
        }
        Vec::new()
    }
}
