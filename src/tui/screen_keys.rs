//! Per-screen handling of list and screen actions: each screen moves its own selection,
//! opens its own rows and owns its own keys.

use super::action::Action;
use super::app::{App, Command};
use super::component::{is_motion, moved};
use super::keymap::Context;
use super::nav::{CapacityScope, Route};
use super::screens::cluster::Focus;

/// Whether `screen` does anything with a list key's `action`: help lists only those, so it
/// never promises a key that does nothing where it is read.
pub fn uses_list_action(screen: Context, action: Action) -> bool {
    match action {
        a if is_motion(a) => true,
        Action::Open => matches!(
            screen,
            Context::Ledger
                | Context::Cluster
                | Context::Capacity
                | Context::Timeline
                | Context::Findings
        ),
        Action::Mark | Action::ClearMarks => matches!(screen, Context::Ledger | Context::Cluster),
        _ => true,
    }
}

/// What a screen did with an action: acted (and what to send), or does not use it.
type Done = Option<Vec<Command>>;

/// Acted, nothing to send.
fn acted() -> Done {
    Some(Vec::new())
}

/// Moves a selection at `pos` among `len` rows by a motion `action`, saying so when it
/// cannot move (at an end, or nothing to move through); the new position.
fn motion(app: &mut App, pos: usize, len: usize, action: Action) -> usize {
    let next = moved(pos, len, action, app.page());
    if next == pos.min(len.saturating_sub(1)) {
        app.message = Some(super::component::stopped(action, len));
    }
    next
}

/// Dispatches an action to the current screen; what it asks to send. An action the
/// screen does not use says so rather than doing nothing silently.
pub fn on_screen_action(app: &mut App, action: Action) -> Vec<Command> {
    if let Some(done) = app.route(action) {
        return done.unwrap_or_else(|| {
            app.message = Some(super::silent_keys::unused(app, action));
            Vec::new()
        });
    }
    let done = match app.nav.current().clone() {
        Route::Cluster(_) => cluster(app, action),
        // Components: routed above.
        Route::Ledger
        | Route::Node(..)
        | Route::Capacity(_)
        | Route::Timeline
        | Route::Rollouts
        | Route::Maintenance
        | Route::Findings => acted(),
    };
    done.unwrap_or_else(|| {
        app.message = Some(super::silent_keys::unused(app, action));
        Vec::new()
    })
}

fn cluster(app: &mut App, action: Action) -> Done {
    let Some(state) = app.cluster_state.as_mut() else {
        return acted();
    };
    let id = state.id.clone();
    match action {
        Action::ClusterCapacity => app.go_capacity(CapacityScope::Cluster(id), false),
        Action::WhatIfLose => app.what_if_nodes(false),
        Action::WhatIfBatch => app.what_if_nodes(true),
        Action::WhatIfCluster => app.what_if_cluster(&id),
        Action::StartMaintenance => return Some(super::operator::start_maintenance(app)),
        Action::FocusNext => {
            state.focus = if state.focus == Focus::Nodes {
                Focus::Pdbs
            } else {
                Focus::Nodes
            };
        }
        _ => return node_list(app, action),
    }
    acted()
}

/// Motion and marks in the drill-down's node list (or its PDB list, when focused, where
/// `enter` lists the budget's pods and their nodes).
fn node_list(app: &mut App, action: Action) -> Done {
    let Some(state) = app.cluster_state.as_ref() else {
        return acted();
    };
    let id = state.id.clone();
    let Some(facts) = app.data.cluster(&id).cloned() else {
        app.message = Some(format!("no data for {id} yet: no node to select"));
        return acted();
    };
    if state.focus == Focus::Pdbs {
        let count = facts.blocking_pdbs.len();
        let pos = state.pdb_selected.min(count.saturating_sub(1));
        match action {
            a if is_motion(a) => {
                let next = motion(app, pos, count, a);
                if let Some(state) = app.cluster_state.as_mut() {
                    state.pdb_selected = next;
                }
            }
            Action::Open => match facts.blocking_pdbs.get(pos) {
                Some(b) => {
                    let pdb = &facts.view.pdbs[b.pdb];
                    app.overlay = Some(super::app::Overlay::PdbPods(
                        super::screens::pdb_pods::PdbPodsState {
                            cluster: id,
                            namespace: std::sync::Arc::clone(&pdb.namespace),
                            name: std::sync::Arc::clone(&pdb.name),
                            selected: 0,
                        },
                    ));
                }
                None => app.message = Some("no PDB blocks a drain here: nothing to open".into()),
            },
            Action::Mark | Action::ClearMarks => {
                let tab = app
                    .key_on(super::keymap::Context::Cluster, Action::FocusNext)
                    .map(|k| format!(" ({k} goes back to them)"))
                    .unwrap_or_default();
                app.message = Some(format!("marks are for nodes{tab}"));
            }
            _ => return None,
        }
        return acted();
    }
    let visible = state.visible(&facts);
    let pos = state.selected_pos(&facts, &visible);
    let name_at = |p: usize| {
        visible
            .get(p)
            .map(|i| std::sync::Arc::clone(&facts.view.nodes[*i].name.0))
    };
    if is_motion(action) {
        let next = motion(app, pos, visible.len(), action);
        if let Some(state) = app.cluster_state.as_mut() {
            state.selected = name_at(next);
        }
        return acted();
    }
    if name_at(pos).is_none() && matches!(action, Action::Mark | Action::Open) {
        app.message = Some("no node is listed here".into());
        return acted();
    }
    let Some(state) = app.cluster_state.as_mut() else {
        return acted();
    };
    match action {
        Action::Mark => {
            if let Some(name) = name_at(pos) {
                if !state.marks.remove(&name) {
                    state.marks.insert(name);
                }
                state.selected = name_at(moved(pos, visible.len(), Action::Down, 1));
            }
        }
        Action::ClearMarks if state.marks.is_empty() => {
            app.message = Some("no node is marked".into());
        }
        Action::ClearMarks => state.marks.clear(),
        Action::Open => {
            if let Some(node) = name_at(pos) {
                app.nav.push(Route::Node(id, node));
                app.enter_route();
            }
        }
        _ => return None,
    }
    acted()
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
