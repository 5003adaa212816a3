//! A rollout's items on clusters of other shards: the run's coordinator (the executor of
//! its home shard, see [`crate::model::shard::Ownership::coordinates`]) hands each apply,
//! read and verification on such a cluster to the executor of the shard that owns it,
//! through the journal, and folds the answer as if it had made the call itself.
//!
//! An apply or a read parks the run: nothing else of it is fed or done until the answer is
//! in the journal, as nothing would while an apply of its own ran (a failed apply is thus
//! folded, and may halt the run, before the batch's next apply goes out). A parked apply
//! that the owner has not taken yet is taken back when the run must hold (a pause, an
//! abort, a person's command to fold): the first of the two `rollout.claimed` events
//! under the request's key wins, so an apply is never both started and taken back.

use std::time::Instant;

use super::{Feed, Frame, RolloutRuntime};
use crate::engine::executor::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::MaintenancePort;
use crate::model::rollout::{Observation, RolloutPort, RolloutRunSpec, VerifyOutcome};
use crate::model::run::{EventBody, IdempotencyKey, ItemId, NewEvent, RunId};
use crate::model::shard::{ShardAnswer, ShardCall};

/// A call handed to another shard whose answer the run waits for.
#[derive(Debug, Clone)]
pub(super) struct Parked {
    cluster: ClusterId,
    call: ShardCall,
    request: IdempotencyKey,
    /// The apply intent (for an apply).
    intent: Option<IdempotencyKey>,
}

/// A run's clusters in plan order: the first one a shard owns is the run's home.
pub(super) fn clusters(spec: &RolloutRunSpec) -> Vec<ClusterId> {
    spec.batches
        .iter()
        .flat_map(|b| b.clusters.iter().map(|c| ClusterId::from(c.clone())))
        .collect()
}

impl<S: JournalStore, P: MaintenancePort + RolloutPort + Sync> Executor<S, P> {
    /// Hands `call` on `cluster` to the executor of the shard that owns it; an apply and a
    /// read park the run. Returns the request's key.
    pub(super) fn dispatch(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
        cluster: ClusterId,
        call: ShardCall,
        intent: Option<IdempotencyKey>,
    ) -> Result<IdempotencyKey, EngineError> {
        let attempt = self.shard_log.next_attempt(run, &cluster, call);
        let request = IdempotencyKey(format!("{run}/{cluster}/{}#{attempt}", call.word()));
        let owner = match self.options.ownership.owner_of(&cluster) {
            Some(shard) => format!("the executor of shard {shard}"),
            None => "an executor whose shard owns it (no shard of the ledger does)".to_string(),
        };
        let at = self.now();
        let envelope = |key: IdempotencyKey, body: EventBody| {
            NewEvent::new(at, self.options.actor.clone(), key, body)
                .with_run(run.clone())
                .with_cluster(cluster.clone())
                .with_item(ItemId(cluster.to_string()))
        };
        let mut events = vec![envelope(
            request.clone(),
            EventBody::Dispatched {
                call,
                intent: intent.clone(),
            },
        )];
        if call == ShardCall::Apply {
            events.push(envelope(
                IdempotencyKey(format!("{request}/waiting")),
                EventBody::Waiting {
                    why: format!("the apply is handed to {owner}"),
                },
            ));
        }
        for appended in self.commit(events)? {
            self.shard_log.note(&appended.event);
        }
        tracing::info!(%run, %cluster, call = call.word(), %request, "handed to {owner}");
        if call != ShardCall::Verify {
            runtime.parked = Some(Parked {
                cluster,
                call,
                request: request.clone(),
                intent,
            });
        }
        Ok(request)
    }

    /// Whether the parked run may go on: its answer is in (fed first), or its apply was
    /// taken back (it waits among the held applies). False while the run still waits.
    pub(super) fn unpark(
        &mut self,
        run: &RunId,
        runtime: &mut RolloutRuntime,
    ) -> Result<bool, EngineError> {
        let Some(parked) = runtime.parked.clone() else {
            return Ok(true);
        };
        let cluster = parked.cluster.clone();
        let observation = match (parked.call, &parked.intent) {
            (ShardCall::Apply, Some(intent)) => {
                if let Some(result) = self.rollout_log.apply_outcomes.get(intent).cloned() {
                    Some(Observation::Applied { cluster, result })
                } else if self.shard_log.claim(&parked.request) == Some(false) {
                    // The owner has started it: its outcome will come.
                    return Ok(false);
                } else if self.apply_held(run, runtime) && self.withdraw(run, &parked)? {
                    runtime.parked = None;
                    runtime.deferred.insert(parked.cluster, intent.clone());
                    return Ok(true);
                } else {
                    None
                }
            }
            (ShardCall::Read, _) => match self.shard_log.answer(&parked.request) {
                Some(ShardAnswer::Read { seen }) => Some(Observation::Reconciled {
                    cluster,
                    seen: seen.clone(),
                }),
                _ => None,
            },
            // Verifications and applies without an intent never park.
            _ => {
                runtime.parked = None;
                return Ok(true);
            }
        };
        let Some(observation) = observation else {
            return Ok(false);
        };
        runtime.parked = None;
        runtime.leftover.push(Frame::feeds(vec![Feed {
            observation,
            command: None,
        }]));
        Ok(true)
    }

    /// Takes a parked apply back unless its owner took it first; true when taken back.
    fn withdraw(&mut self, run: &RunId, parked: &Parked) -> Result<bool, EngineError> {
        let claim = NewEvent::new(
            self.now(),
            self.options.actor.clone(),
            IdempotencyKey(format!("{}/claim", parked.request)),
            EventBody::Claimed {
                request: parked.request.clone(),
                withdrawn: true,
            },
        )
        .with_run(run.clone())
        .with_cluster(parked.cluster.clone())
        .with_item(ItemId(parked.cluster.to_string()));
        let stored = self.commit(vec![claim])?;
        let Some(stored) = stored.into_iter().next() else {
            return Ok(false);
        };
        self.shard_log.note(&stored.event);
        let withdrawn = matches!(
            stored.event.event.body,
            EventBody::Claimed {
                withdrawn: true,
                ..
            }
        );
        if withdrawn {
            tracing::info!(%run, cluster = %parked.cluster, "apply taken back from another shard: the run holds");
        }
        Ok(withdrawn)
    }

    /// The verdict another shard's executor gave for `cluster`'s checks, if it has; after
    /// twice the checks' own time limit without one, the verdict is unknown (nobody ran
    /// them, as far as this executor can tell).
    pub(super) fn remote_verdict(
        &self,
        runtime: &RolloutRuntime,
        cluster: &ClusterId,
        since: Instant,
    ) -> Option<VerifyOutcome> {
        let answered = runtime
            .remote_checks
            .get(cluster)
            .and_then(|request| self.shard_log.answer(request));
        if let Some(ShardAnswer::Verify { outcome }) = answered {
            return Some(outcome.clone());
        }
        let limit = self.options.rollout.verify_timeout * 2;
        (since.elapsed() >= limit).then(|| VerifyOutcome::Unknown {
            why: format!(
                "no verdict from the executor of {} within {}s",
                self.options
                    .ownership
                    .owner_of(cluster)
                    .map_or_else(|| "its shard".to_string(), |s| format!("shard {s}")),
                limit.as_secs()
            ),
        })
    }
}
