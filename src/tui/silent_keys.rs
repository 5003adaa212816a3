//! What a key says where it cannot act, so that none is silent: a key bound only on other
//! screens names where it works and how to get there; a key bound nowhere says so; an
//! action a screen does not use says that; a motion at the end of a list says it is there.

use super::action::Action;
use super::app::App;
use super::keymap::{Context, KeyChord};

/// The screen of `context` in words.
fn screen(context: Context) -> &'static str {
    match context {
        Context::Ledger => "ledger",
        Context::Cluster => "cluster page",
        Context::Node => "node page",
        Context::Capacity => "capacity screen",
        Context::Rollouts => "rollouts screen",
        Context::Maintenance => "maintenance screen",
        Context::Timeline => "timeline",
        Context::Findings => "findings screen",
        Context::Global | Context::List => "console",
    }
}

/// How to get to the screen of `context`, in the active keymap's keys.
fn way_to(app: &App, context: Context) -> Option<String> {
    let key = |action| app.key_on(Context::Global, action);
    let open = || app.key_on(Context::Ledger, Action::Open);
    match context {
        Context::Ledger => key(Action::ScreenLedger).map(|k| format!("{k} goes there")),
        Context::Capacity => key(Action::ScreenCapacity).map(|k| format!("{k} goes there")),
        Context::Rollouts => key(Action::ScreenRollouts).map(|k| format!("{k} goes there")),
        Context::Maintenance => key(Action::ScreenMaintenance).map(|k| format!("{k} goes there")),
        Context::Timeline => key(Action::ScreenTimeline).map(|k| format!("{k} goes there")),
        Context::Findings => key(Action::ScreenFindings).map(|k| format!("{k} goes there")),
        Context::Cluster => open().map(|k| format!("{k} on a cluster opens it")),
        Context::Node => open().map(|k| format!("{k} on a node of a cluster page opens it")),
        Context::Global | Context::List => None,
    }
}

/// What `chord`, bound to nothing on the current screen, says: where it does something
/// (`a does nothing on the ledger: on the rollouts screen it is "Approve the waiting
/// batch" (3 goes there)`), or that it is bound nowhere.
pub fn unbound(app: &App, chord: KeyChord) -> String {
    let here = app.context();
    let elsewhere = Context::ALL.into_iter().find_map(|ctx| {
        if matches!(ctx, Context::Global | Context::List) || ctx == here {
            return None;
        }
        let binding = app
            .config
            .keymap
            .bindings(ctx)
            .iter()
            .find(|b| b.key == chord)?;
        Some((ctx, binding.desc.clone()))
    });
    match elsewhere {
        Some((ctx, desc)) => {
            let how = way_to(app, ctx)
                .map(|how| format!(" ({how})"))
                .unwrap_or_default();
            format!(
                "{chord} does nothing on the {}: on the {} it is \"{desc}\"{how}",
                screen(here),
                screen(ctx)
            )
        }
        None => {
            let help = app
                .key_on(here, Action::Help)
                .map(|k| format!(" ({k} lists the keys here)"))
                .unwrap_or_default();
            format!("{chord} is not a key on the {}{help}", screen(here))
        }
    }
}

/// What an action this screen does not use says.
pub fn unused(app: &App, action: Action) -> String {
    let here = app.context();
    let key = app
        .key_on(here, action)
        .map(|k| format!("{k}: "))
        .unwrap_or_default();
    match action {
        Action::FocusNext => format!("{key}the {} has one panel", screen(here)),
        Action::Mark | Action::ClearMarks => format!(
            "{key}nothing to mark on the {}: marks are for the ledger's clusters and a cluster page's nodes",
            screen(here)
        ),
        _ => format!(
            "{key}\"{}\" does nothing on the {}",
            action.description(),
            screen(here)
        ),
    }
}

/// What a motion that could not move says: at which end the selection is, or that there
/// is nothing to move through.
pub fn stopped(action: Action, rows: usize) -> String {
    if rows == 0 {
        return "nothing to move through here".into();
    }
    if rows == 1 {
        return "the only row here is selected".into();
    }
    match action {
        Action::Up | Action::PageUp | Action::Top => "already on the first row".into(),
        _ => "already on the last row".into(),
    }
}
