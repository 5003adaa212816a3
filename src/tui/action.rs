//! The flat list of things a key can do. Keymaps name these; the help screen lists them.

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
}

/// Every action with its keymap name and the sentence the help screen shows.
pub const ACTIONS: &[(Action, &str, &str)] = &[
    (Action::Quit, "quit", "Quit fleetdeck"),
    (Action::Back, "back", "Close, clear the filter, or go back"),
    (
        Action::HistoryBack,
        "history.back",
        "Previous place in history",
    ),
    (
        Action::HistoryForward,
        "history.forward",
        "Next place in history",
    ),
    (Action::Help, "help", "Show this help"),
    (
        Action::Palette,
        "palette",
        "Command palette (:ledger, :capacity, :cluster ID, :node NAME)",
    ),
    (
        Action::Filter,
        "filter",
        "Filter rows (fuzzy text, key=value, !text)",
    ),
    (Action::Up, "up", "Move up"),
    (Action::Down, "down", "Move down"),
    (Action::PageUp, "page.up", "Page up"),
    (Action::PageDown, "page.down", "Page down"),
    (Action::Top, "top", "First row"),
    (Action::Bottom, "bottom", "Last row"),
    (Action::Open, "open", "Open the selected row"),
    (Action::Mark, "mark", "Mark or unmark the row and move down"),
    (Action::ClearMarks, "mark.clear", "Clear all marks"),
    (Action::SortNext, "sort.next", "Sort by the next column"),
    (Action::SortPrev, "sort.prev", "Sort by the previous column"),
    (
        Action::SortReverse,
        "sort.reverse",
        "Reverse the sort order",
    ),
    (
        Action::GroupRegion,
        "group.region",
        "Group by region (toggle)",
    ),
    (
        Action::GroupEnv,
        "group.env",
        "Group by environment (toggle)",
    ),
    (Action::ScreenLedger, "screen.ledger", "Ledger screen"),
    (
        Action::ScreenCapacity,
        "screen.capacity",
        "Fleet capacity screen",
    ),
    (
        Action::ClusterCapacity,
        "capacity.cluster",
        "Capacity of this cluster",
    ),
    (
        Action::WhatIfLose,
        "whatif.lose",
        "What-if: lose the zone or the marked nodes",
    ),
    (
        Action::WhatIfCluster,
        "whatif.cluster",
        "What-if: lose the whole cluster; could its siblings take its pods?",
    ),
    (
        Action::WhatIfBatch,
        "whatif.batch",
        "What-if: drain the marked nodes as a batch",
    ),
    (
        Action::WhatIfClear,
        "whatif.clear",
        "Drop the what-if result",
    ),
    (Action::FocusNext, "focus.next", "Next panel"),
    (Action::ScreenRollouts, "screen.rollouts", "Rollouts screen"),
    (
        Action::ScreenMaintenance,
        "screen.maintenance",
        "Maintenance screen",
    ),
    (
        Action::ScreenTimeline,
        "screen.timeline",
        "Journal timeline",
    ),
    (Action::ScreenFindings, "screen.findings", "Fleet findings"),
    (
        Action::GitOpsSync,
        "gitops.sync",
        "Suspend or resume the GitOps sync of the selected object",
    ),
    (
        Action::PauseAll,
        "pause.all",
        "Pause all automation (reason) or resume it (confirm)",
    ),
    (Action::Handover, "handover", "Shift handover walkthrough"),
    (Action::Approve, "run.approve", "Approve the waiting batch"),
    (Action::PauseRun, "run.pause", "Pause or resume the run"),
    (
        Action::PauseCluster,
        "cluster.pause",
        "Pause or resume the run's cluster",
    ),
    (Action::AbortRun, "run.abort", "Abort the run"),
    (Action::HandOff, "step.handoff", "Hand the step to a person"),
    (Action::TakeOver, "step.takeover", "Take the step over"),
    (
        Action::ReturnItem,
        "step.return",
        "Return the step: done, retry or abort",
    ),
    (
        Action::StartMaintenance,
        "maintenance.start",
        "Start a maintenance on the marked nodes (or the node page's node)",
    ),
    (Action::Follow, "follow", "Follow new events (live tail)"),
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
        ACTIONS
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(a, _, _)| *a)
    }

    /// The name keymaps use.
    pub fn name(self) -> &'static str {
        ACTIONS
            .iter()
            .find(|(a, _, _)| *a == self)
            .map_or("?", |(_, n, _)| n)
    }

    /// The default description.
    pub fn description(self) -> &'static str {
        ACTIONS
            .iter()
            .find(|(a, _, _)| *a == self)
            .map_or("", |(_, _, d)| d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = ACTIONS.iter().map(|(_, n, _)| *n).collect();
        for (a, n, _) in ACTIONS {
            assert_eq!(Action::from_name(n), Some(*a));
            assert_eq!(a.name(), *n);
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ACTIONS.len());
    }
}
