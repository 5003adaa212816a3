//! Routing to the screens, every one a component ([`Screen`]): handing the current one
//! its actions with a [`Context`] of the console's global state, and applying the effects
//! it returns. `App` keeps each screen's state and knows which one the current place
//! shows; what a key does on a screen is the screen's own business.

use super::action::Action;
use super::app::{App, Command, screen_context};
use super::component::{Context, Effect, NodeLoss, Screen};
use super::nav::Route;

impl App {
    /// The console's global state as a screen reads it.
    pub fn screen_context(&self) -> Context<'_> {
        screen_context!(self)
    }

    /// The current screen as a component; `None` only while the drill-down's or the node
    /// page's state is not there yet (the route sets it up on entering).
    pub fn screen(&self) -> Option<&dyn Screen> {
        match self.nav.current() {
            Route::Ledger => Some(&self.ledger_state),
            Route::Cluster(_) => self.cluster_state.as_ref().map(|s| s as &dyn Screen),
            Route::Node(..) => self.node_state.as_ref().map(|s| s as &dyn Screen),
            Route::Capacity(_) => Some(&self.capacity_state),
            Route::Rollouts => Some(&self.rollouts_state),
            Route::Maintenance => Some(&self.maintenance_state),
            Route::Timeline => Some(&self.timeline_state),
            Route::Findings => Some(&self.findings_state),
        }
    }

    /// Hands `action` to the current screen's component and applies what it returns; what
    /// to send. An action the screen does not use says so rather than doing nothing
    /// silently.
    pub(super) fn on_screen_action(&mut self, action: Action) -> Vec<Command> {
        let ctx = screen_context!(self);
        let effects = match self.nav.current() {
            Route::Ledger => self.ledger_state.handle(action, &ctx),
            Route::Cluster(_) => match self.cluster_state.as_mut() {
                Some(state) => state.handle(action, &ctx),
                None => Some(Vec::new()),
            },
            Route::Node(..) => match self.node_state.as_mut() {
                Some(state) => state.handle(action, &ctx),
                None => Some(Vec::new()),
            },
            Route::Capacity(_) => self.capacity_state.handle(action, &ctx),
            Route::Rollouts => self.rollouts_state.handle(action, &ctx),
            Route::Maintenance => self.maintenance_state.handle(action, &ctx),
            Route::Timeline => self.timeline_state.handle(action, &ctx),
            Route::Findings => self.findings_state.handle(action, &ctx),
        };
        match effects {
            Some(effects) => self.apply_effects(effects),
            None => {
                self.message = Some(super::silent_keys::unused(self, action));
                Vec::new()
            }
        }
    }

    /// Applies a screen's effects in order; the commands for the event loop.
    pub(super) fn apply_effects(&mut self, effects: Vec<Effect>) -> Vec<Command> {
        let mut commands = Vec::new();
        for effect in effects {
            match effect {
                Effect::Say(text) => self.message = Some(text),
                Effect::OpenCluster(id, node) => {
                    self.ledger_state.selected = Some(id.clone());
                    self.open_cluster(&id, node);
                }
                Effect::OpenNode(cluster, node) => {
                    self.nav.push(Route::Node(cluster, node));
                    self.enter_route();
                }
                Effect::Capacity(scope) => self.go_capacity(scope, false),
                Effect::WhatIf(cluster, scenario) => self.what_if(&cluster, scenario),
                Effect::WhatIfCluster(cluster) => self.what_if_cluster(&cluster),
                Effect::WhatIfNodes(loss) => self.what_if_nodes(loss == NodeLoss::MaintenanceBatch),
                Effect::Overlay(overlay) => self.overlay = Some(overlay),
                Effect::Operator(action) => commands.extend(self.operator(action)),
                Effect::Command(command) => commands.push(command),
            }
        }
        commands
    }

    /// Opens the dialog of the operator command `action` (`tui/operator/`).
    fn operator(&mut self, action: Action) -> Vec<Command> {
        use super::operator;
        match action {
            Action::Approve => return operator::approve(self),
            Action::StartMaintenance => return operator::start_maintenance(self),
            Action::PauseRun => operator::pause_run(self),
            Action::PauseCluster => operator::pause_cluster(self),
            Action::AbortRun => operator::abort(self),
            Action::HandOff => operator::hand_off(self),
            Action::TakeOver => operator::take_over(self),
            Action::ReturnItem => operator::return_item(self),
            Action::PauseAll => operator::pause_all(self),
            _ => {}
        }
        Vec::new()
    }
}
