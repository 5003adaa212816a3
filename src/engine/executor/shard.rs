//! The executor's shard: the calls other shards' rollout coordinators handed to it (see
//! `rollout_remote`), read from the journal and carried out on its own clusters, each
//! answered in the journal. An apply is claimed first (one `rollout.claimed` per request:
//! the coordinator may have taken it back), then goes through the same path as an apply
//! of a run this executor coordinates: the release record is read first, the apply starts
//! only under a lease held without a break, and its outcome closes the coordinator's
//! intent. A claimed apply without outcome (its executor died) is carried out again by the
//! shard's next executor, which finds the release record if the first one got that far.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use super::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::MaintenancePort;
use crate::model::rollout::{RolloutPort, VerifyProgress};
use crate::model::run::{
    Event, EventBody, IdempotencyKey, ItemId, NewEvent, PauseScope, RunId, RunStatus, Sequence,
};
use crate::model::shard::{ShardAnswer, ShardCall};

/// One call handed to a shard, as journaled.
#[derive(Debug, Clone)]
pub(super) struct Request {
    run: RunId,
    cluster: ClusterId,
    call: ShardCall,
    key: IdempotencyKey,
    intent: Option<IdempotencyKey>,
}

/// What catch-up keeps about calls handed between shards.
#[derive(Default)]
pub(super) struct ShardLog {
    /// Requests not answered, closed or taken back yet, in journal order.
    open: BTreeMap<Sequence, Request>,
    /// Where each open request is in `open`.
    by_key: HashMap<IdempotencyKey, Sequence>,
    /// Open apply requests by their intent (an outcome closes them).
    by_intent: HashMap<IdempotencyKey, Vec<IdempotencyKey>>,
    /// Who took each request: `true` when the coordinator took it back.
    claims: HashMap<IdempotencyKey, bool>,
    /// Answers to reads and verifications.
    answers: HashMap<IdempotencyKey, ShardAnswer>,
    /// The highest attempt of each call per run and cluster, for the next request's key.
    attempts: HashMap<(RunId, ClusterId, ShardCall), u32>,
    /// Checks this executor runs for other shards' coordinators, since when.
    checking: HashMap<IdempotencyKey, Instant>,
}

impl ShardLog {
    /// Takes what matters from one journal event (each may be seen twice: noting is
    /// idempotent).
    pub fn note(&mut self, event: &Event) {
        let e = &event.event;
        match &e.body {
            EventBody::Dispatched { call, intent } => {
                let (Some(run), Some(cluster)) = (&e.run, &e.cluster) else {
                    return;
                };
                let attempt = e
                    .key
                    .0
                    .rsplit_once('#')
                    .and_then(|(_, n)| n.parse::<u32>().ok())
                    .unwrap_or(1);
                let seen = self
                    .attempts
                    .entry((run.clone(), cluster.clone(), *call))
                    .or_default();
                *seen = (*seen).max(attempt);
                if self.answers.contains_key(&e.key) || self.claims.get(&e.key) == Some(&true) {
                    return;
                }
                self.by_key.insert(e.key.clone(), event.seq);
                if let Some(intent) = intent {
                    let keys = self.by_intent.entry(intent.clone()).or_default();
                    if !keys.contains(&e.key) {
                        keys.push(e.key.clone());
                    }
                }
                self.open.insert(
                    event.seq,
                    Request {
                        run: run.clone(),
                        cluster: cluster.clone(),
                        call: *call,
                        key: e.key.clone(),
                        intent: intent.clone(),
                    },
                );
            }
            EventBody::Claimed { request, withdrawn } => {
                self.claims.entry(request.clone()).or_insert(*withdrawn);
                if *withdrawn {
                    self.close(request);
                }
            }
            EventBody::Answered { request, answer } => {
                self.answers.insert(request.clone(), answer.clone());
                self.close(request);
            }
            EventBody::Outcome { intent, .. } => {
                for request in self.by_intent.remove(intent).unwrap_or_default() {
                    self.close(&request);
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, request: &IdempotencyKey) {
        if let Some(seq) = self.by_key.remove(request) {
            self.open.remove(&seq);
        }
        self.checking.remove(request);
    }

    /// The attempt number of the next request of `call` on `cluster` in `run`.
    pub fn next_attempt(&self, run: &RunId, cluster: &ClusterId, call: ShardCall) -> u32 {
        self.attempts
            .get(&(run.clone(), cluster.clone(), call))
            .map_or(1, |n| n + 1)
    }

    /// Who took `request`: `Some(true)` the coordinator (taken back), `Some(false)` the
    /// owner's executor, `None` nobody yet.
    pub fn claim(&self, request: &IdempotencyKey) -> Option<bool> {
        self.claims.get(request).copied()
    }

    /// The answer to a read or a verification.
    pub fn answer(&self, request: &IdempotencyKey) -> Option<&ShardAnswer> {
        self.answers.get(request)
    }
}

impl<S: JournalStore, P: MaintenancePort + RolloutPort + Sync> Executor<S, P> {
    /// Carries out, in journal order, the open calls other shards' coordinators handed to
    /// this executor's shard. The fleet's executor owns every cluster: nothing is ever
    /// handed to it.
    pub(super) async fn serve_shard(&mut self) -> Result<(), EngineError> {
        if self.options.ownership.shard_name().is_none() {
            return Ok(());
        }
        let mine: Vec<Request> = self
            .shard_log
            .open
            .values()
            .filter(|r| self.options.ownership.owns(&r.cluster))
            .cloned()
            .collect();
        for request in mine {
            if self.lease.is_none() {
                return Ok(());
            }
            match request.call {
                ShardCall::Apply => self.serve_apply(&request).await?,
                ShardCall::Read => self.serve_read(&request).await?,
                ShardCall::Verify => self.serve_verify(&request).await?,
            }
            // A pause or an abort written meanwhile holds the next apply.
            self.catch_up()?;
        }
        Ok(())
    }

    fn envelope(&self, request: &Request, key: String, body: EventBody) -> NewEvent {
        NewEvent::new(
            self.now(),
            self.options.actor.clone(),
            IdempotencyKey(key),
            body,
        )
        .with_run(request.run.clone())
        .with_cluster(request.cluster.clone())
        .with_item(ItemId(request.cluster.to_string()))
    }

    fn answer(&mut self, request: &Request, answer: ShardAnswer) -> Result<(), EngineError> {
        let event = self.envelope(
            request,
            format!("{}/answer", request.key),
            EventBody::Answered {
                request: request.key.clone(),
                answer,
            },
        );
        for stored in self.commit(vec![event])? {
            self.shard_log.note(&stored.event);
        }
        Ok(())
    }

    /// Whether the run of `request` must not get a new apply now: the fleet or the run is
    /// paused, or the run is over. Its coordinator takes such an apply back.
    fn run_holds(&self, run: &RunId) -> bool {
        let pauses = &self.projection.pauses;
        pauses.contains_key(&PauseScope::Fleet)
            || pauses.contains_key(&PauseScope::Run { run: run.clone() })
            || self.projection.runs.get(run).is_none_or(|r| {
                matches!(
                    r.status,
                    RunStatus::Succeeded | RunStatus::Aborted | RunStatus::Halted { .. }
                )
            })
    }

    async fn serve_apply(&mut self, request: &Request) -> Result<(), EngineError> {
        let Some(intent) = request.intent.clone() else {
            return Ok(());
        };
        let Some((spec, _)) = self.rollout_log.specs.get(&request.run).cloned() else {
            return Ok(());
        };
        match self.shard_log.claim(&request.key) {
            Some(true) => return Ok(()),
            // Claimed by this shard's executor before it died or lost its lease: the
            // release record says whether it got that far (`apply_now` reads it first).
            Some(false) => {}
            None => {
                if self.run_holds(&request.run) {
                    return Ok(());
                }
                if let Some(hold) = self.hold_of(&request.cluster) {
                    // Noted once per reason (the key dedupes); the coordinator waits.
                    let suffix = hold.key_suffix();
                    return self.note_wait(
                        &request.run,
                        &request.cluster,
                        &intent,
                        suffix,
                        hold.to_string(),
                    );
                }
                let claim = self.envelope(
                    request,
                    format!("{}/claim", request.key),
                    EventBody::Claimed {
                        request: request.key.clone(),
                        withdrawn: false,
                    },
                );
                for stored in self.commit(vec![claim])? {
                    self.shard_log.note(&stored.event);
                }
                if self.shard_log.claim(&request.key) != Some(false) {
                    return Ok(()); // the coordinator took it back first
                }
            }
        }
        tracing::info!(run = %request.run, cluster = %request.cluster, %intent, "applying for another shard's rollout");
        self.apply_now(&request.run, &spec, request.cluster.clone(), intent)
            .await?;
        Ok(())
    }

    async fn serve_read(&mut self, request: &Request) -> Result<(), EngineError> {
        let ttl = self.options.lease_ttl;
        let seen = Self::keeping_lease(
            &mut self.store,
            &mut self.lease,
            ttl,
            &self.options.clock,
            self.port.applied_release(&request.cluster),
        )
        .await;
        if self.lease.is_none() {
            return Ok(());
        }
        self.answer(request, ShardAnswer::Read { seen })
    }

    async fn serve_verify(&mut self, request: &Request) -> Result<(), EngineError> {
        let Some((spec, _)) = self.rollout_log.specs.get(&request.run).cloned() else {
            return Ok(());
        };
        let since = *self
            .shard_log
            .checking
            .entry(request.key.clone())
            .or_insert_with(Instant::now);
        let ttl = self.options.lease_ttl;
        let progress = Self::keeping_lease(
            &mut self.store,
            &mut self.lease,
            ttl,
            &self.options.clock,
            self.port
                .verify_release(&request.cluster, &spec, since.elapsed()),
        )
        .await;
        if self.lease.is_none() {
            return Ok(());
        }
        let outcome = match progress {
            VerifyProgress::Done(outcome) => outcome,
            VerifyProgress::NotYet { why, at_deadline } => {
                if since.elapsed() < self.options.rollout.verify_timeout {
                    tracing::debug!(cluster = %request.cluster, %why, "checks not passing yet");
                    return Ok(());
                }
                at_deadline
            }
        };
        self.answer(request, ShardAnswer::Verify { outcome })
    }
}
