//! The executor's side effects: each action performed through the port, wrapped in an
//! intent journaled before and an outcome after.

use std::time::Duration;

use super::super::checkpoint::Checkpoint;
use super::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{
    Action, CheckOutcome, Intent, MaintenancePort, MaintenanceSpec, Observation, PodRef,
};
use crate::model::run::{EventBody, IdempotencyKey, ItemId, NewEvent, RunView};

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// Performs one action. Side effects are wrapped in intent/outcome events; the
    /// observation to feed back is returned. `None` with the lease gone means stop.
    pub(super) async fn perform(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: &mut Checkpoint,
        action: Action,
    ) -> Result<Option<Observation>, EngineError> {
        let cluster = &spec.cluster;
        let node = checkpoint.node_state.node.clone();
        let step_name = checkpoint.node_state.step.name();
        match &action {
            Action::RecordStatus { step, status } => {
                let body = EventBody::StepStatusChanged {
                    status: status.clone(),
                };
                let e = self
                    .event(
                        &run.id,
                        Some(item),
                        cluster,
                        // Deterministic per transition: an executor that replays from an
                        // older checkpoint re-records the same key, which the store
                        // deduplicates, so each transition appears once in the journal.
                        IdempotencyKey::for_step(
                            &run.id,
                            item,
                            &step.name(),
                            &format!("status/{}", status.word()),
                            checkpoint.next_attempt(&format!("status/{step}/{}", status.word())),
                        ),
                        body,
                    )
                    .with_step(step.name());
                self.append(e)?;
                return Ok(None);
            }
            Action::RecordNote { text } | Action::WaitForPerson { instructions: text } => {
                let body = EventBody::ExecutorNote { text: text.clone() };
                let e = self
                    .event(
                        &run.id,
                        Some(item),
                        cluster,
                        IdempotencyKey::for_step(
                            &run.id,
                            item,
                            &step_name,
                            "note",
                            checkpoint.next_attempt(&format!("note/{step_name}")),
                        ),
                        body,
                    )
                    .with_step(step_name);
                self.append(e)?;
                return Ok(None);
            }
            Action::EmitNodeEvent {
                reason,
                action,
                message,
            } => {
                let recorded = self
                    .port
                    .node_event(cluster, &node, reason, action, message)
                    .await;
                if let Err(error) = recorded {
                    // `kubectl describe node` will not tell this part of the story: the
                    // journal and the executor's output say so, not only the log.
                    tracing::warn!(%error, "node event not recorded on the cluster");
                    let error = error.to_string();
                    self.notify(format!(
                        "{cluster}/{node}: node event {reason} ({action}) NOT recorded on the cluster: {error}"
                    ));
                    let body = EventBody::NodeEventFailed {
                        reason: reason.clone(),
                        message: message.clone(),
                        error,
                    };
                    let e = self
                        .event(
                            &run.id,
                            Some(item),
                            cluster,
                            IdempotencyKey::for_step(
                                &run.id,
                                item,
                                &step_name,
                                "event-failed",
                                checkpoint.next_attempt(&format!("event-failed/{step_name}")),
                            ),
                            body,
                        )
                        .with_step(step_name);
                    self.append(e)?;
                }
                return Ok(None);
            }
            _ => {}
        }
        // Side effects: intent first (with the state that asked for it), then the call.
        let intent = action.intent();
        let intent_key = match &intent {
            Some(intent) => {
                let (key, intent_event) = self.intent_event(run, item, cluster, checkpoint, intent);
                let state_event = self.event(
                    &run.id,
                    Some(item),
                    cluster,
                    key.follow_up("state"),
                    checkpoint.to_body(),
                );
                // Renew first: a side effect is only started by an executor that held
                // the lease without a break since its pass caught up with the journal.
                if !self.still_hold_lease()? {
                    return Ok(None);
                }
                self.commit(vec![intent_event, state_event])?;
                Some(key)
            }
            None => None,
        };
        let observation = match &action {
            Action::Precheck => {
                // Other runs' nodes in maintenance, and the batches they were let go on,
                // are not room for this node's pods.
                let held = crate::model::maintenance::maintenance_holds(&self.projection)
                    .of(&crate::model::fleet::ClusterId(std::sync::Arc::from(
                        cluster.as_str(),
                    )))
                    .clone();
                self.port
                    .precheck(cluster, &node, &held)
                    .await
                    .map(|mut report| {
                        // Budgets were enforced by the batch plan; the guard acts through pauses.
                        report.budgets = CheckOutcome::Pass;
                        report.guard = CheckOutcome::Pass;
                        Observation::Prechecked(report)
                    })
            }
            Action::Cordon => self
                .port
                .set_unschedulable(cluster, &node, true)
                .await
                .map(Observation::Cordoned),
            Action::Uncordon => self
                .port
                .set_unschedulable(cluster, &node, false)
                .await
                .map(Observation::Uncordoned),
            Action::ListPods => self
                .port
                .pods_on_node(cluster, &node)
                .await
                .map(Observation::Pods),
            Action::Evict { pod, grace_period } => self
                .port
                .evict(cluster, pod, *grace_period)
                .await
                .map(|r| Observation::Evictions(vec![(pod.clone(), r)])),
            Action::RunHook { .. } => {
                let ttl = self.options.lease_ttl;
                Self::keeping_lease(
                    &mut self.store,
                    &mut self.lease,
                    ttl,
                    &self.options.clock,
                    self.port.run_hook(&action),
                )
                .await
                .map(Observation::HookFinished)
            }
            Action::ObserveNode => self
                .port
                .observe_node(cluster, &node)
                .await
                .map(Observation::Node),
            Action::ObserveWorkloads { pods } => self
                .port
                .observe_workloads(cluster, pods)
                .await
                .map(Observation::Workloads),
            _ => return Ok(None),
        };
        match observation {
            Ok(observation) => {
                if let Some(key) = intent_key {
                    let body = EventBody::Outcome {
                        intent: key.clone(),
                        ok: outcome_ok(&observation),
                        detail: serde_json::to_value(&observation).unwrap_or_default(),
                    };
                    let e = self
                        .event(&run.id, Some(item), cluster, key.outcome(), body)
                        .with_step(step_name);
                    self.append(e)?;
                }
                Ok(Some(observation))
            }
            Err(error) => {
                // Could not ask: the intent stays open and is settled by observing the
                // cluster on a later pass. Never treated as success.
                tracing::warn!(%error, run = %run.id, %item, "call failed; will observe and retry");
                Ok(None)
            }
        }
    }

    /// The journal event announcing `intent`, with a key that is unique per attempt and the
    /// same for an executor that replays from the same checkpoint.
    fn intent_event(
        &self,
        run: &RunView,
        item: &ItemId,
        cluster: &ClusterId,
        checkpoint: &mut Checkpoint,
        intent: &Intent,
    ) -> (IdempotencyKey, NewEvent) {
        let step_name = checkpoint.node_state.step.name();
        let (what, detail) = intent.to_journal();
        let label = match intent {
            Intent::Evict { pod } => format!("evict:{pod}"),
            Intent::Hook { key } => format!("hook:{key}"),
            _ => what.clone(),
        };
        let attempt = checkpoint.next_attempt(&format!("{step_name}/{label}"));
        let key = IdempotencyKey::for_step(&run.id, item, &step_name, &label, attempt);
        let event = NewEvent::new(
            self.now(),
            self.options.actor.clone(),
            key.clone(),
            EventBody::Intent {
                action: what,
                detail,
                identity: self.port.acting_as(cluster),
            },
        )
        .with_run(run.id.clone())
        .with_item(item.clone())
        .with_step(step_name)
        .with_cluster(cluster.clone());
        (key, event)
    }

    /// Evicts a batch of pods: every intent journaled in one transaction (with the state
    /// that asked), then the calls, then every outcome in one transaction. A crash in the
    /// middle leaves intents that the next executor settles by looking at the pods.
    pub(super) async fn evict_all(
        &mut self,
        run: &RunView,
        spec: &MaintenanceSpec,
        item: &ItemId,
        checkpoint: &mut Checkpoint,
        pods: Vec<(PodRef, Option<Duration>)>,
    ) -> Result<Option<Observation>, EngineError> {
        let cluster = spec.cluster.clone();
        let step_name = checkpoint.node_state.step.name();
        let mut keys = Vec::new();
        let mut events = Vec::new();
        for (pod, _) in &pods {
            let intent = Intent::Evict { pod: pod.clone() };
            let (key, event) = self.intent_event(run, item, &cluster, checkpoint, &intent);
            events.push(event);
            keys.push(key);
        }
        let first = keys
            .first()
            .cloned()
            .unwrap_or_else(|| IdempotencyKey(String::new()));
        events.push(self.event(
            &run.id,
            Some(item),
            &cluster,
            first.follow_up("state"),
            checkpoint.to_body(),
        ));
        if !self.still_hold_lease()? {
            return Ok(None);
        }
        self.commit(events)?;
        let mut results = Vec::new();
        let mut outcomes = Vec::new();
        let renew_every = self.options.lease_ttl / 3;
        let mut renewed = std::time::Instant::now();
        for ((pod, grace), key) in pods.into_iter().zip(keys) {
            // A node with many pods takes a while at the request budget: keep the lease,
            // and stop evicting the moment it is lost (the rest stay open intents).
            if renewed.elapsed() >= renew_every {
                if !self.still_hold_lease()? {
                    break;
                }
                renewed = std::time::Instant::now();
            }
            match self.port.evict(&cluster, &pod, grace).await {
                Ok(result) => {
                    let observation = Observation::Evictions(vec![(pod.clone(), result.clone())]);
                    outcomes.push(
                        self.event(
                            &run.id,
                            Some(item),
                            &cluster,
                            key.outcome(),
                            EventBody::Outcome {
                                intent: key,
                                ok: outcome_ok(&observation),
                                detail: serde_json::to_value(&observation).unwrap_or_default(),
                            },
                        )
                        .with_step(step_name.clone()),
                    );
                    results.push((pod, result));
                }
                Err(error) => {
                    // The rest stay open and are settled by observation on a later pass.
                    tracing::warn!(%error, "eviction call failed; will observe and retry");
                    break;
                }
            }
        }
        for outcome in outcomes {
            self.append(outcome)?;
        }
        Ok((!results.is_empty()).then_some(Observation::Evictions(results)))
    }
}

pub(super) fn outcome_ok(observation: &Observation) -> bool {
    match observation {
        Observation::Cordoned(r) | Observation::Uncordoned(r) => r.is_ok(),
        Observation::Evictions(results) => results.iter().all(|(_, r)| {
            matches!(
                r,
                crate::model::maintenance::EvictionResult::Evicted
                    | crate::model::maintenance::EvictionResult::PodGone
            )
        }),
        Observation::HookFinished(h) => h.succeeded(),
        _ => true,
    }
}
