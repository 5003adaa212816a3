//! The maintenance screen's decisions: which runs show as swimlanes (unfinished first),
//! which node card is selected, which column a card sits in, and how a stuck step's
//! reasons are grouped.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::model::maintenance::Step;
use crate::model::run::{ItemId, ItemView, Projection, RunId, RunView, StepStatus};
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion};

/// The columns of a swimlane: every step that does work, then Done.
pub const COLUMNS: [Step; 8] = Step::ALL;

/// The screen's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaintenanceState {
    /// The selected node card.
    pub selected: Option<(RunId, ItemId)>,
}

/// Maintenance runs, unfinished first, newest first within each group.
pub fn lanes(projection: &Projection) -> Vec<&RunView> {
    let mut runs: Vec<&RunView> = projection
        .runs
        .values()
        .filter(|r| !r.is_rollout())
        .collect();
    runs.sort_by_key(|r| (r.status.is_final(), std::cmp::Reverse(r.created_at)));
    runs
}

/// Every card in display order.
pub fn cards(projection: &Projection) -> Vec<(RunId, ItemId)> {
    lanes(projection)
        .into_iter()
        .flat_map(|r| r.order.iter().map(|i| (r.id.clone(), i.clone())))
        .collect()
}

/// The selected card: the remembered one if it still exists, else the first stuck one,
/// else the first. Looks cards up in place (drawn every frame, over thousands of nodes).
pub fn selected(state: &MaintenanceState, projection: &Projection) -> Option<(RunId, ItemId)> {
    if let Some((r, i)) = &state.selected
        && projection
            .runs
            .get(r)
            .is_some_and(|run| !run.is_rollout() && run.order.contains(i))
    {
        return Some((r.clone(), i.clone()));
    }
    let runs = lanes(projection);
    let mut all = runs
        .iter()
        .flat_map(|r| r.order.iter().map(move |i| (*r, i)));
    let first = all.clone().next();
    all.find(|(r, i)| {
        r.items
            .get(*i)
            .and_then(current_status)
            .is_some_and(StepStatus::needs_person)
    })
    .or(first)
    .map(|(r, i)| (r.id.clone(), i.clone()))
}

/// An item's view.
pub fn item<'p>(projection: &'p Projection, run: &RunId, item: &ItemId) -> Option<&'p ItemView> {
    projection.runs.get(run)?.items.get(item)
}

/// The status of the step the item stands at.
pub fn current_status(item: &ItemView) -> Option<&StepStatus> {
    item.current_step().map(|(_, view)| &view.status)
}

/// The column the item's card sits in: its current step, or Done once Uncordon finished.
pub fn column(item: &ItemView) -> Option<usize> {
    let step = item.current.as_ref()?;
    let index = COLUMNS.iter().position(|s| s.name() == *step)?;
    let finished = current_status(item)
        .is_some_and(|s| matches!(s, StepStatus::Succeeded | StepStatus::Skipped));
    Some(if finished && COLUMNS[index] == Step::Uncordon {
        COLUMNS.len() - 1
    } else {
        index
    })
}

/// A stuck step's reasons, one per cause ("PDB web-pdb needs 3 healthy pods and has 3",
/// "pods not terminating: …"), as the drain groups them.
pub fn reasons(reason: &str) -> Vec<String> {
    reason
        .split("; ")
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The maintenance screen: moving through the node cards; its operator keys open their
/// dialogs.
impl Screen for MaintenanceState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let projection = &ctx.activity.journal.projection;
        let cards = cards(projection);
        let pos = selected(self, projection)
            .and_then(|c| cards.iter().position(|x| *x == c))
            .unwrap_or(0);
        match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, cards.len(), a, ctx);
                self.selected = cards.get(next).cloned();
                Some(said)
            }
            Action::HandOff
            | Action::TakeOver
            | Action::ReturnItem
            | Action::PauseRun
            | Action::PauseCluster
            | Action::AbortRun => Some(vec![Effect::Operator(action)]),
            _ => None,
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::maintenance_view::draw(self, ctx, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollout_just_started_is_not_a_maintenance_lane() {
        use crate::model::run::{Actor, Event, EventBody, IdempotencyKey, NewEvent, Sequence};
        let rollout =
            crate::model::rollout::read_rollout(include_str!("../../../examples/rollout.yaml"))
                .spec
                .unwrap_or_else(|| panic!("the example rollout is valid"));
        let planned = NewEvent::new(
            jiff::Timestamp::UNIX_EPOCH,
            Actor("alice@ops".into()),
            IdempotencyKey("ro-1/planned".into()),
            EventBody::RunPlanned {
                title: "rollout".into(),
                items: vec!["c1".into()],
                batches: vec![vec!["c1".into()]],
                spec: crate::model::rollout::journaled_for_tests(rollout),
            },
        )
        .with_run(RunId("ro-1".into()));
        let projection = Projection::replay(&[Event {
            seq: Sequence(1),
            token: None,
            event: planned,
        }]);
        assert!(
            lanes(&projection).is_empty(),
            "no batch event yet, still a rollout"
        );
    }

    #[test]
    fn reasons_are_split_per_cause() {
        assert_eq!(
            reasons("PDB a needs 3 healthy pods and has 3 (x); pods not terminating: y"),
            vec![
                "PDB a needs 3 healthy pods and has 3 (x)".to_string(),
                "pods not terminating: y".to_string()
            ]
        );
    }
}
