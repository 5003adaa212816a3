//! Which list keys each screen uses, for help: the one table about screens that is read
//! across them all. Every screen handles its own keys (its [`Screen`] component, routed
//! by `router.rs`); help, drawn over any screen and listing the keymap's shared `list`
//! layer, asks here so that it never promises a key that does nothing where it is read.
//!
//! [`Screen`]: super::component::Screen

use super::action::Action;
use super::component::is_motion;
use super::keymap::Context;

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
