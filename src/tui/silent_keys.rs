//! What a key says where it cannot act, so that none is silent: a key bound only on other
//! screens names where it works and how to get there; a key bound nowhere says so; an
//! action a screen does not use says that; a motion at the end of a list says it is there.

use super::action::Action;
use super::app::App;
use super::keymap::{Context, KeyChord};
use crate::i18n::Lang;
use crate::t;

/// The screen of `context` in words, in `lang`.
fn screen(lang: Lang, context: Context) -> String {
    match context {
        Context::Ledger => t!(lang, "silent-screen-ledger"),
        Context::Cluster => t!(lang, "silent-screen-cluster"),
        Context::Node => t!(lang, "silent-screen-node"),
        Context::Capacity => t!(lang, "silent-screen-capacity"),
        Context::Rollouts => t!(lang, "silent-screen-rollouts"),
        Context::Maintenance => t!(lang, "silent-screen-maintenance"),
        Context::Timeline => t!(lang, "silent-screen-timeline"),
        Context::Findings => t!(lang, "silent-screen-findings"),
        Context::Global | Context::List => t!(lang, "silent-screen-console"),
    }
}

/// How to get to the screen of `context`, in the active keymap's keys.
fn way_to(app: &App, context: Context) -> Option<String> {
    let lang = app.config.lang;
    let key = |action| app.key_on(Context::Global, action);
    let goes = |k: String| t!(lang, "silent-key-goes-there", key = k);
    let open = || app.key_on(Context::Ledger, Action::Open);
    match context {
        Context::Ledger => key(Action::ScreenLedger).map(goes),
        Context::Capacity => key(Action::ScreenCapacity).map(goes),
        Context::Rollouts => key(Action::ScreenRollouts).map(goes),
        Context::Maintenance => key(Action::ScreenMaintenance).map(goes),
        Context::Timeline => key(Action::ScreenTimeline).map(goes),
        Context::Findings => key(Action::ScreenFindings).map(goes),
        Context::Cluster => open().map(|k| t!(lang, "silent-open-cluster", key = k)),
        Context::Node => open().map(|k| t!(lang, "silent-open-node", key = k)),
        Context::Global | Context::List => None,
    }
}

/// What `chord`, bound to nothing on the current screen, says: where it does something
/// (`a does nothing on the ledger: on the rollouts screen it is "Approve the waiting
/// batch" (3 goes there)`), or that it is bound nowhere.
pub fn unbound(app: &App, chord: KeyChord) -> String {
    let lang = app.config.lang;
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
        let desc = super::help::description(lang, ctx, binding.action.name(), &binding.desc);
        Some((ctx, desc))
    });
    let chord = chord.to_string();
    match elsewhere {
        Some((ctx, desc)) => {
            let how = way_to(app, ctx)
                .map(|how| t!(lang, "silent-how", how = how))
                .unwrap_or_default();
            t!(
                lang,
                "silent-elsewhere",
                chord = chord,
                here = screen(lang, here),
                there = screen(lang, ctx),
                desc = desc,
                how = how
            )
        }
        None => {
            let help = app
                .key_on(here, Action::Help)
                .map(|k| t!(lang, "silent-help-lists", key = k))
                .unwrap_or_default();
            t!(
                lang,
                "silent-nowhere",
                chord = chord,
                here = screen(lang, here),
                help = help
            )
        }
    }
}

/// What an action this screen does not use says.
pub fn unused(app: &App, action: Action) -> String {
    let lang = app.config.lang;
    let here = app.context();
    let key = app
        .key_on(here, action)
        .map(|k| format!("{k}: "))
        .unwrap_or_default();
    let here = screen(lang, here);
    match action {
        Action::FocusNext => t!(lang, "silent-one-panel", key = key, here = here),
        Action::Mark | Action::ClearMarks => {
            t!(lang, "silent-nothing-to-mark", key = key, here = here)
        }
        _ => t!(
            lang,
            "silent-unused",
            key = key,
            desc = action.description(lang),
            here = here
        ),
    }
}
