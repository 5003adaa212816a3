//! Driving node maintenance: which batch of a run goes next, and each node of it through
//! the state machine — what a dead executor left open settled first by observing the
//! cluster, operator commands fed, windows and pauses held, what it waits for journaled,
//! and its checkpoint written when it moved.

use std::collections::VecDeque;
use std::time::Duration;

use super::super::checkpoint::Checkpoint;
use super::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{
    Action, Env, Intent, MaintenancePort, MaintenanceSpec, NodeState, Observation, PodRef,
    reconcile, step, what_to_observe,
};
use crate::model::run::{EventBody, IdempotencyKey, ItemId, NodeName, RunId, RunStatus, RunView};

/// Whether driving a node may go on this pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Settled {
    /// Go on.
    Continue,
    /// Nothing more for this node this pass (the next pass picks it up).
    Stop,
}

/// Whether maintenance has touched the node: its cordon was asked for (or done), or it is
/// further along; and it has not finished.
pub(super) fn touched(node: &NodeState) -> bool {
    use crate::model::maintenance::Step;
    let cordon_asked = node.step == Step::Cordon
        && (node.call_in_flight || node.status != crate::model::run::StepStatus::Pending);
    (node.step > Step::Cordon || cordon_asked) && !node.is_finished()
}

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// Why a node of `run` must not begin now for its cluster's window, journaling the
    /// wait (once per opening) as the item's `step.waiting`; `None` once the node has
    /// begun (a window closing mid-drain does not leave a node half done) or nothing holds.
    pub(super) fn window_wait(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        node: &NodeState,
    ) -> Result<Option<String>, EngineError> {
        if touched(node) || node.is_finished() {
            return Ok(None);
        }
        let now = self.now();
        let Some(hold) = self
            .windows
            .hold(&spec.cluster, &self.projection.window_overrides, now)
        else {
            return Ok(None);
        };
        let why = hold.describe(now);
        let key = IdempotencyKey::for_item(&run.id, item, &hold.key_suffix());
        if !self.window_waits.contains(&key) {
            let e = self.event(
                &run.id,
                Some(item),
                &spec.cluster,
                key.clone(),
                EventBody::Waiting { why: why.clone() },
            );
            self.append(e)?;
            self.window_waits.insert(key);
        }
        Ok(Some(why))
    }

    pub(super) async fn drive_run(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
    ) -> Result<(), EngineError> {
        let cluster = spec.cluster.clone();
        if run.status == RunStatus::Planned {
            let body = EventBody::RunStatusChanged {
                status: RunStatus::Running,
            };
            let e = self.event(
                &run.id,
                None,
                &cluster,
                IdempotencyKey::for_run(&run.id, "status/running"),
                body,
            );
            self.append(e)?;
        }
        let finished = |this: &Self, item: &ItemId| {
            this.node_state(&run.id, item)
                .is_some_and(NodeState::is_finished)
        };
        let failed: Vec<String> = run
            .order
            .iter()
            .filter(|item| {
                self.node_state(&run.id, item).is_some_and(|n| {
                    matches!(n.status, crate::model::run::StepStatus::Failed { .. })
                })
            })
            .map(ToString::to_string)
            .collect();
        // Once a node failed, no further node is touched: its cordon and drain would take
        // capacity on top of a node that may not come back. Nodes already past their
        // precheck are still brought to an end (left half-drained they would help no one).
        let next: Option<Vec<ItemId>> = if failed.is_empty() {
            run.batches
                .iter()
                .find(|batch| batch.iter().any(|item| !finished(self, item)))
                .cloned()
        } else {
            let begun: Vec<ItemId> = run
                .order
                .iter()
                .filter(|item| self.node_state(&run.id, item).is_some_and(touched))
                .cloned()
                .collect();
            (!begun.is_empty()).then_some(begun)
        };
        let Some(batch) = next else {
            let status = if failed.is_empty() {
                RunStatus::Succeeded
            } else {
                RunStatus::Halted {
                    why: format!("failed nodes: {}", failed.join(", ")),
                }
            };
            let e = self.event(
                &run.id,
                None,
                &cluster,
                IdempotencyKey::for_run(&run.id, "status/final"),
                EventBody::RunStatusChanged { status },
            );
            self.append(e)?;
            return Ok(());
        };
        for item in batch {
            // A pause, take-over or abort written while the previous item's calls ran (a
            // hook may take many minutes) must hold this one: read the journal again.
            self.catch_up()?;
            if finished(self, &item) {
                continue;
            }
            // A node that failed earlier in this pass keeps the untouched ones untouched.
            let any_failed = run.order.iter().any(|other| {
                self.node_state(&run.id, other).is_some_and(|n| {
                    matches!(n.status, crate::model::run::StepStatus::Failed { .. })
                })
            });
            if any_failed && !self.node_state(&run.id, &item).is_some_and(touched) {
                continue;
            }
            self.drive_item(run, spec, &item).await?;
            self.flush()?;
        }
        Ok(())
    }

    /// What the node state machine decides with: now, the pause holding the node (if
    /// any), the run's spec.
    pub(super) fn env<'a>(
        &'a self,
        run: &'a RunView,
        spec: &'a MaintenanceSpec,
        paused: Option<&'a str>,
        change_refused: Option<&'a str>,
    ) -> Env<'a> {
        Env {
            now: self.now(),
            paused,
            change_refused,
            spec,
            run: &run.id,
            actor: &self.options.actor,
        }
    }

    /// The node state an item's latest checkpoint holds, if it has one.
    pub(super) fn node_state(&self, run: &RunId, item: &ItemId) -> Option<&NodeState> {
        self.checkpoints
            .get(&(run.clone(), item.clone()))
            .map(|c| &c.node_state)
    }

    /// The pause that applies to this item, if any.
    pub(super) fn pause_reason(
        &self,
        run: &RunView,
        spec: &MaintenanceSpec,
        node_domain: Option<&str>,
    ) -> Option<String> {
        self.projection
            .pause_for(run)
            .or_else(|| node_domain.and_then(|d| self.projection.domain_pause(&spec.cluster, d)))
            .map(|p| format!("{} (paused by {})", p.reason, p.by))
    }

    /// Drives one node of a run as far as it can go now: replays what a dead executor
    /// observed but never folded, settles the intents it left open, feeds operator
    /// commands, then steps the state machine until it waits, and journals where it got.
    pub(super) async fn drive_item(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
    ) -> Result<(), EngineError> {
        let key = (run.id.clone(), item.clone());
        let mut checkpoint = self.checkpoints.get(&key).cloned().unwrap_or_else(|| {
            Checkpoint::new(NodeState::new(NodeName::from(item.as_str().to_string())))
        });
        let before = checkpoint.clone();
        let node = checkpoint.node_state.node.clone();
        let mut queue = self.unfolded_observations(&key);
        let settled = self
            .settle_open_intents(run, spec, item, &node, &mut checkpoint, &before, &mut queue)
            .await?;
        if settled == Settled::Stop {
            return Ok(());
        }
        self.feed_commands(&key, &mut checkpoint, &mut queue);
        let driven = self
            .step_until_waiting(run, spec, item, &node, &mut checkpoint, queue)
            .await?;
        if driven == Settled::Stop {
            return Ok(());
        }
        self.note_waiting(run, spec, item, &mut checkpoint, &before)?;
        self.save_checkpoint(run, spec, item, checkpoint, &before)
    }

    /// Outcomes a dead executor recorded but never folded, to be fed again (the evictions
    /// of one batch as one observation, as they were first fed).
    fn unfolded_observations(&mut self, key: &(RunId, ItemId)) -> VecDeque<Observation> {
        let mut queue: VecDeque<Observation> = VecDeque::new();
        for observation in self.unfolded.remove(key).unwrap_or_default() {
            match (queue.back_mut(), observation) {
                (Some(Observation::Evictions(all)), Observation::Evictions(mut more)) => {
                    all.append(&mut more)
                }
                (_, observation) => queue.push_back(observation),
            }
        }
        queue
    }

    /// Intents a dead executor left open: observes the cluster, settles each and records
    /// its outcome, queueing what was seen. `Stop` when the item cannot go on this pass (a
    /// cluster that cannot be read yet, an outcome that cannot be told).
    #[allow(clippy::too_many_arguments)]
    async fn settle_open_intents(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        node: &NodeName,
        checkpoint: &mut Checkpoint,
        before: &Checkpoint,
        queue: &mut VecDeque<Observation>,
    ) -> Result<Settled, EngineError> {
        let open: Vec<(IdempotencyKey, Intent)> = self
            .projection
            .runs
            .get(&run.id)
            .and_then(|r| r.items.get(item))
            .map(|i| {
                i.open_intents
                    .iter()
                    .filter_map(|(k, o)| Some((k.clone(), Intent::from_journal(&o.detail)?)))
                    .collect()
            })
            .unwrap_or_default();
        for (intent_key, intent) in open {
            let seen = match self
                .port
                .observe_for_restart(&spec.cluster, node, &what_to_observe(&intent))
                .await
            {
                Ok(seen) => seen,
                Err(error) => {
                    tracing::warn!(%error, "cannot settle an open intent yet");
                    if !queue.is_empty() {
                        // Outcomes not folded yet must not end up behind a newer
                        // checkpoint (where a restart would not replay them): keep them
                        // for the next pass and change nothing now.
                        self.unfolded
                            .entry((run.id.clone(), item.clone()))
                            .or_default()
                            .extend(queue.drain(..));
                        return Ok(Settled::Stop);
                    }
                    // Nothing is done to the node meanwhile; past the step's deadline
                    // it is shown stuck, with why.
                    let domain =
                        self.node_domain(&spec.cluster, node, &spec.budgets.failure_domain_label);
                    let paused = self.pause_reason(run, spec, domain.as_deref());
                    let (next, actions) = crate::model::maintenance::unsettled(
                        &checkpoint.node_state,
                        &self.env(run, spec, paused.as_deref(), None),
                        &error.to_string(),
                    );
                    checkpoint.node_state = next;
                    for action in actions {
                        self.perform(run, spec, item, checkpoint, action).await?;
                    }
                    self.save_checkpoint(run, spec, item, checkpoint.clone(), before)?;
                    return Ok(Settled::Stop);
                }
            };
            let hook_idempotent = matches!(&spec.action, crate::model::maintenance::MaintainAction::Exec(h) if h.idempotent);
            let resolution = reconcile(&intent, &seen, hook_idempotent);
            if matches!(resolution, crate::model::maintenance::Resolution::Unknown) {
                return Ok(Settled::Stop);
            }
            let ok = matches!(resolution, crate::model::maintenance::Resolution::Happened);
            tracing::info!(?seen, ?resolution, run = %run.id, %item, "settled an intent left open by a previous executor");
            let observation = Observation::Reconciled { intent, resolution };
            // The outcome carries the observation, so a crash before the next checkpoint
            // replays it rather than losing it.
            let body = EventBody::Outcome {
                intent: intent_key.clone(),
                ok,
                detail: serde_json::to_value(&observation).unwrap_or_default(),
            };
            let e = self.event(
                &run.id,
                Some(item),
                &spec.cluster,
                intent_key.outcome(),
                body,
            );
            self.append(e)?;
            queue.push_back(observation);
        }

        Ok(Settled::Continue)
    }

    /// Operator commands not yet fed, then a tick, onto `queue`.
    fn feed_commands(
        &mut self,
        key: &(RunId, ItemId),
        checkpoint: &mut Checkpoint,
        queue: &mut VecDeque<Observation>,
    ) {
        for command in self.commands.remove(key).unwrap_or_default() {
            if checkpoint.consumed.is_some_and(|c| command.seq <= c) {
                continue;
            }
            checkpoint.consumed = Some(command.seq);
            queue.push_back(command.observation);
        }
        queue.push_back(Observation::Tick);
    }

    /// Runs the state machine over `queue` until it has nothing more to do right now,
    /// performing its actions (a batch's evictions together). `Stop` when the lease was
    /// lost mid-way: nothing more may be written or done.
    async fn step_until_waiting(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        node: &NodeName,
        checkpoint: &mut Checkpoint,
        mut queue: VecDeque<Observation>,
    ) -> Result<Settled, EngineError> {
        let domain_label = spec.budgets.failure_domain_label.clone();
        let domain = self.node_domain(&spec.cluster, node, &domain_label);
        // Asked once per item and pass: a cluster that may not be changed gets no intent
        // (and no call) at all, rather than one refused intent per pass.
        let change_refused = self.port.change_refused(&spec.cluster);
        let window = self.window_wait(run, spec, item, &checkpoint.node_state)?;
        let mut steps = 0;
        while let Some(observation) = queue.pop_front() {
            steps += 1;
            if steps > 200 {
                break; // a safety net against a livelock; the next pass continues
            }
            let paused = self
                .pause_reason(run, spec, domain.as_deref())
                .or_else(|| window.clone());
            let (next, actions) = step(
                checkpoint.node_state.clone(),
                &self.env(run, spec, paused.as_deref(), change_refused.as_deref()),
                observation,
            );
            checkpoint.node_state = next;
            let mut evictions: Vec<(PodRef, Option<Duration>)> = Vec::new();
            for action in actions {
                if let Action::Evict { pod, grace_period } = action {
                    evictions.push((pod, grace_period));
                    continue;
                }
                match self.perform(run, spec, item, checkpoint, action).await? {
                    Some(observation) => queue.push_back(observation),
                    None if self.lease.is_none() => return Ok(Settled::Stop),
                    None => {}
                }
            }
            if !evictions.is_empty() {
                match self
                    .evict_all(run, spec, item, checkpoint, evictions)
                    .await?
                {
                    Some(observation) => queue.push_back(observation),
                    None if self.lease.is_none() => return Ok(Settled::Stop),
                    None => {}
                }
            }
        }
        Ok(Settled::Continue)
    }

    /// Journals what the node's step now waits for (a PDB that would refuse its pods,
    /// displaced pods that would not fit, a cluster that may not be changed) when that
    /// changed since `before`: `maintenance show` and the console say it while the step
    /// waits, not only once it is overdue.
    pub(super) fn note_waiting(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: &mut Checkpoint,
        before: &Checkpoint,
    ) -> Result<(), EngineError> {
        let waiting = checkpoint.node_state.waiting_on.clone();
        if waiting.is_empty() || waiting == before.node_state.waiting_on {
            return Ok(());
        }
        let step = checkpoint.node_state.step.name();
        let key = IdempotencyKey::for_step(
            &run.id,
            item,
            &step,
            "waiting",
            checkpoint.next_attempt(&format!("waiting/{step}")),
        );
        let body = EventBody::Waiting {
            why: waiting.join("; "),
        };
        let e = self
            .event(&run.id, Some(item), &spec.cluster, key, body)
            .with_step(step);
        self.append(e)
    }

    /// Journals the item's checkpoint when it changed since `before`, and keeps it.
    pub(super) fn save_checkpoint(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: Checkpoint,
        before: &Checkpoint,
    ) -> Result<(), EngineError> {
        if checkpoint == *before {
            return Ok(());
        }
        let body = checkpoint.to_body();
        let seq = self.projection.last_seq.map_or(0, |s| s.0);
        let e = self.event(
            &run.id,
            Some(item),
            &spec.cluster,
            IdempotencyKey::for_item(
                &run.id,
                item,
                &format!("checkpoint@{seq}/{}", self.now().as_nanosecond()),
            ),
            body,
        );
        self.append(e)?;
        self.checkpoints
            .insert((run.id.clone(), item.clone()), checkpoint);
        Ok(())
    }

    /// The node's failure domain (its `label` value) from the live fleet view, if the
    /// node is known there. A node without the label is in the domain `""`, as the
    /// mass-failure guard counts it, so that a guard pause of unlabelled nodes holds them.
    pub(super) fn node_domain(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        label: &str,
    ) -> Option<String> {
        let snapshot = self.fleet.as_ref()?.borrow().clone();
        let live = snapshot.cluster(&cluster.0)?;
        let view_node = live
            .view
            .nodes
            .iter()
            .find(|n| n.name.as_str() == node.as_str())?;
        Some(
            view_node
                .labels
                .get(label)
                .map(|v| v.to_string())
                .unwrap_or_default(),
        )
    }
}
