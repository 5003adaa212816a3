//! The flat list of things a key can do. Keymaps name these; the help screen lists them.

use crate::i18n::Lang;

/// One thing the user can ask the console to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Leave the console.
    Quit,
    /// Close the overlay, clear the filter, or go back one crumb.
    Back,
    /// Previous place in history.
    HistoryBack,
    /// Next place in history.
    HistoryForward,
    /// Show the keys of the active keymap.
    Help,
    /// Open the `:` command palette.
    Palette,
    /// Start a `/` filter on the current list.
    Filter,
    /// Move the selection up.
    Up,
    /// Move the selection down.
    Down,
    /// Move the selection a page up.
    PageUp,
    /// Move the selection a page down.
    PageDown,
    /// Select the first row.
    Top,
    /// Select the last row.
    Bottom,
    /// Open the selected row.
    Open,
    /// Mark or unmark the selected row (for bulk actions), then move down.
    Mark,
    /// Clear all marks.
    ClearMarks,
    /// Sort by the next column.
    SortNext,
    /// Sort by the previous column.
    SortPrev,
    /// Reverse the sort order.
    SortReverse,
    /// Group rows by region (toggle).
    GroupRegion,
    /// Group rows by environment (toggle).
    GroupEnv,
    /// Go to the ledger screen.
    ScreenLedger,
    /// Go to the fleet capacity screen.
    ScreenCapacity,
    /// Capacity of the selected (or current) cluster.
    ClusterCapacity,
    /// What-if: lose the selected failure domain, or the marked nodes.
    WhatIfLose,
    /// What-if: drain the marked nodes as one maintenance batch.
    WhatIfBatch,
    /// What-if: lose the whole selected (or current) cluster: could its siblings take
    /// its pods?
    WhatIfCluster,
    /// Drop the what-if result.
    WhatIfClear,
    /// Move focus to the next panel.
    FocusNext,
    /// Go to the rollouts screen.
    ScreenRollouts,
    /// Go to the maintenance screen.
    ScreenMaintenance,
    /// Go to the journal timeline.
    ScreenTimeline,
    /// Go to the findings screen.
    ScreenFindings,
    /// Suspend or resume the GitOps sync of the selected finding's object.
    GitOpsSync,
    /// Pause all automation (asks for a reason), or resume it (asks to confirm).
    PauseAll,
    /// The shift handover walkthrough.
    Handover,
    /// Approve the selected rollout's waiting batch.
    Approve,
    /// Pause or resume the selected run.
    PauseRun,
    /// Pause or resume every run on the selected run's cluster.
    PauseCluster,
    /// Abort the selected run (typing its name to confirm).
    AbortRun,
    /// Hand the selected node's step to a person.
    HandOff,
    /// Take the selected node's step over.
    TakeOver,
    /// Return the selected node's step with an outcome.
    ReturnItem,
    /// Start a maintenance on the marked nodes.
    StartMaintenance,
    /// Follow new journal events (live tail) on or off.
    Follow,
    /// Log in with the selected (or current) cluster's credential plugin, on the terminal.
    Login,
}

/// Every action with its keymap name. What it does, in words, is the catalogues'
/// `action-NAME` (dots as dashes): [`Action::description`].
pub const ACTIONS: &[(Action, &str)] = &[
    (Action::Quit, "quit"),
    (Action::Back, "back"),
    (Action::HistoryBack, "history.back"),
    (Action::HistoryForward, "history.forward"),
    (Action::Help, "help"),
    (Action::Palette, "palette"),
    (Action::Filter, "filter"),
    (Action::Up, "up"),
    (Action::Down, "down"),
    (Action::PageUp, "page.up"),
    (Action::PageDown, "page.down"),
    (Action::Top, "top"),
    (Action::Bottom, "bottom"),
    (Action::Open, "open"),
    (Action::Mark, "mark"),
    (Action::ClearMarks, "mark.clear"),
    (Action::SortNext, "sort.next"),
    (Action::SortPrev, "sort.prev"),
    (Action::SortReverse, "sort.reverse"),
    (Action::GroupRegion, "group.region"),
    (Action::GroupEnv, "group.env"),
    (Action::ScreenLedger, "screen.ledger"),
    (Action::ScreenCapacity, "screen.capacity"),
    (Action::ClusterCapacity, "capacity.cluster"),
    (Action::WhatIfLose, "whatif.lose"),
    (Action::WhatIfCluster, "whatif.cluster"),
    (Action::WhatIfBatch, "whatif.batch"),
    (Action::WhatIfClear, "whatif.clear"),
    (Action::FocusNext, "focus.next"),
    (Action::ScreenRollouts, "screen.rollouts"),
    (Action::ScreenMaintenance, "screen.maintenance"),
    (Action::ScreenTimeline, "screen.timeline"),
    (Action::ScreenFindings, "screen.findings"),
    (Action::GitOpsSync, "gitops.sync"),
    (Action::PauseAll, "pause.all"),
    (Action::Handover, "handover"),
    (Action::Approve, "run.approve"),
    (Action::PauseRun, "run.pause"),
    (Action::PauseCluster, "cluster.pause"),
    (Action::AbortRun, "run.abort"),
    (Action::HandOff, "step.handoff"),
    (Action::TakeOver, "step.takeover"),
    (Action::ReturnItem, "step.return"),
    (Action::StartMaintenance, "maintenance.start"),
    (Action::Follow, "follow"),
    (Action::Login, "credential.login"),
];

impl Action {
    /// Whether the action writes to the journal; read-only consoles refuse these and say
    /// why.
    pub fn mutates(self) -> bool {
        matches!(
            self,
            Action::PauseAll
                | Action::Approve
                | Action::PauseRun
                | Action::PauseCluster
                | Action::AbortRun
                | Action::HandOff
                | Action::TakeOver
                | Action::ReturnItem
                | Action::StartMaintenance
                | Action::GitOpsSync
        )
    }
}

impl Action {
    /// The action a keymap name stands for.
    pub fn from_name(name: &str) -> Option<Action> {
        ACTIONS.iter().find(|(_, n)| *n == name).map(|(a, _)| *a)
    }

    /// The name keymaps use.
    pub fn name(self) -> &'static str {
        ACTIONS
            .iter()
            .find(|(a, _)| *a == self)
            .map_or("?", |(_, n)| n)
    }

    /// What the action does, in `lang` (the default description of a key bound to it).
    pub fn description(self, lang: Lang) -> String {
        crate::i18n::text(lang, &self.message_id(), &[])
    }

    /// Its message id: `action-` and its name with dashes for dots.
    pub fn message_id(self) -> String {
        format!("action-{}", self.name().replace('.', "-"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = ACTIONS.iter().map(|(_, n)| *n).collect();
        for (a, n) in ACTIONS {
            assert_eq!(Action::from_name(n), Some(*a));
            assert_eq!(a.name(), *n);
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ACTIONS.len());
    }

    #[test]
    fn every_action_says_what_it_does_in_both_languages() {
        for (action, name) in ACTIONS {
            for lang in Lang::ALL {
                assert!(
                    crate::i18n::has(lang, &action.message_id()),
                    "{name} has no description in {lang}"
                );
            }
        }
        assert_eq!(
            Action::Approve.description(Lang::En),
            "Approve the waiting batch"
        );
        assert_eq!(Action::Approve.description(Lang::ZhCn), "批准等待中的批次");
    }
}
