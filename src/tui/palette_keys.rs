//! The `:` palette's keys: opening it over the fleet as it is now, typing, choosing, and
//! going where the chosen entry leads. The search itself is `palette.rs`.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;
use super::app::{App, Command, Overlay};
use super::nav::{CapacityScope, Route};
use super::palette::{self, Candidates, PaletteCommand, PaletteState, Target};

impl App {
    /// What the palette searches: the ledger's clusters and the current snapshot's nodes.
    pub(super) fn palette_candidates(&self) -> Candidates {
        let mut clusters: Vec<(String, String)> = self
            .rows
            .iter()
            .map(|r| (r.id.clone(), format!("{} {}", r.env, r.region)))
            .collect();
        clusters.sort();
        let nodes = self
            .snapshot
            .clusters
            .iter()
            .map(|c| (Arc::clone(&c.id), Arc::clone(&c.view)))
            .collect();
        Candidates {
            clusters,
            nodes,
            readonly: self.config.readonly,
            lang: self.config.lang,
        }
    }

    pub(super) fn open_palette(&mut self) {
        self.candidates = self.palette_candidates();
        let matches = palette::search("", &self.candidates);
        self.overlay = Some(Overlay::Palette(PaletteState {
            input: String::new(),
            selected: 0,
            matches,
        }));
    }

    pub(super) fn close_palette(&mut self) {
        self.overlay = None;
        self.candidates = Candidates::default();
    }

    pub(super) fn on_palette_key(&mut self, key: KeyEvent) -> Vec<Command> {
        let Some(Overlay::Palette(state)) = self.overlay.as_mut() else {
            return Vec::new();
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => self.close_palette(),
            KeyCode::Char('c') if ctrl => self.close_palette(),
            KeyCode::Up | KeyCode::BackTab => state.selected = state.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => {
                state.selected = (state.selected + 1).min(state.matches.len().saturating_sub(1));
            }
            KeyCode::Enter => {
                let target = palette::exact(&state.input, &self.candidates)
                    .or_else(|| state.matches.get(state.selected).map(|e| e.target.clone()));
                let hint = palette::unmatched_hint(&state.input, &self.candidates);
                self.close_palette();
                return match target {
                    Some(target) => self.open_target(target),
                    None => {
                        self.message = Some(hint.unwrap_or_else(|| {
                            crate::t!(self.config.lang, "palette-nothing-matches")
                        }));
                        Vec::new()
                    }
                };
            }
            KeyCode::Backspace => {
                state.input.pop();
                state.matches = palette::search(&state.input, &self.candidates);
                state.selected = 0;
            }
            KeyCode::Char(c) if !ctrl => {
                state.input.push(c);
                state.matches = palette::search(&state.input, &self.candidates);
                state.selected = 0;
            }
            _ => {}
        }
        Vec::new()
    }

    pub(super) fn open_target(&mut self, target: Target) -> Vec<Command> {
        match target {
            Target::Command(PaletteCommand::Quit) => return super::quit::quit(self),
            Target::Command(PaletteCommand::Help) => {
                self.overlay = Some(Overlay::Help { scroll: 0 })
            }
            Target::Command(PaletteCommand::Ledger) => self.nav.reset(Route::Ledger),
            Target::Command(PaletteCommand::Capacity) => {
                self.go_capacity(CapacityScope::Fleet, true)
            }
            Target::Command(PaletteCommand::Rollouts) => self.nav.reset(Route::Rollouts),
            Target::Command(PaletteCommand::Maintenance) => self.nav.reset(Route::Maintenance),
            Target::Command(PaletteCommand::Timeline) => self.nav.reset(Route::Timeline),
            Target::Command(PaletteCommand::Findings) => self.nav.reset(Route::Findings),
            Target::Command(PaletteCommand::Handover) => self.open_handover(None),
            Target::HandoverSince(shift) => self.open_handover(Some(shift)),
            Target::Command(PaletteCommand::PauseAll) => return self.on_action(Action::PauseAll),
            Target::Command(PaletteCommand::StartFile) => {
                self.message = Some(crate::t!(self.config.lang, "palette-type-start"))
            }
            Target::Command(PaletteCommand::Lang) => {
                self.message = Some(crate::t!(
                    self.config.lang,
                    "palette-type-lang",
                    lang = self.config.lang.tag()
                ))
            }
            Target::Command(PaletteCommand::Login) => {
                self.message = Some(crate::t!(self.config.lang, "palette-type-login"))
            }
            Target::Login(name) => {
                match super::login::login_for(&self.ledger, &self.snapshot, self.config.lang, &name)
                {
                    super::component::Effect::Command(command) => return vec![command],
                    super::component::Effect::Say(said) => self.message = Some(said),
                    _ => {}
                }
            }
            // Only what people read changes: the journal, files and logs stay as they are.
            Target::Lang(lang) => {
                self.config.lang = lang;
                self.message = Some(crate::t!(lang, "palette-lang-set"));
            }
            Target::StartFile(path) => {
                if !self.refused_write(
                    &Action::StartMaintenance.description(self.config.lang),
                    crate::model::team::TeamRole::Operator,
                ) {
                    return super::operator::start_from_file(&path);
                }
            }
            Target::Cluster(id) => {
                self.ledger_state.selected = Some(id.clone());
                self.open_cluster(&id, None);
            }
            // The node's page, over its cluster's (`esc` shows the node in its list).
            Target::Node(cluster, node) => {
                self.open_cluster(&cluster, Some(Arc::clone(&node)));
                self.nav.push(Route::Node(cluster, node));
                self.enter_route();
            }
        }
        Vec::new()
    }
}
