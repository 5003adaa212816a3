//! The executor's hold on the fleet (or its shard): taking and renewing the lease, keeping
//! it through long calls, giving it back, and the fence every write goes under. Losing it
//! drops what was decided under it; a new holding starts from the journal.

use std::time::Duration;

use super::{EngineError, Executor, rollout_log, shard};
use crate::engine::clock::Clock;
use crate::journal::{Fence, JournalError, JournalStore, Lease, LeaseGrant};
use crate::model::maintenance::MaintenancePort;
use crate::model::run::{Actor, Projection};

/// The lease holder name of one executor: its actor, this process and a count. The
/// journal treats a lease taken again by the same holder as a renewal, so two executors
/// that share an actor name (the same user on one host, a restart while the old process
/// still runs) must not share a holder name, or both would act.
pub(super) fn instance_holder(actor: &Actor) -> Actor {
    static STARTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Actor::instance(actor, std::process::id(), n)
}

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// Takes or renews the lease of what this executor acts for (the fleet, or its shard);
    /// false while another executor holds it or a lease in the way of it.
    pub fn hold_lease(&mut self) -> Result<bool, EngineError> {
        let ttl = self.options.lease_ttl;
        if let Some(lease) = &self.lease {
            match self.store.renew_lease(lease, ttl, self.now()) {
                Ok(renewed) => {
                    self.lease = Some(renewed);
                    return Ok(true);
                }
                Err(JournalError::LeaseLost { .. }) => {
                    tracing::warn!(holder = %self.lease_holder, "lease lost; standing by");
                    self.lease = None;
                    self.pending.clear();
                }
                Err(e) => return Err(e.into()),
            }
        }
        match self.store.acquire_lease(
            &self.options.ownership.lease_scope(),
            &self.lease_holder,
            ttl,
            self.now(),
        )? {
            LeaseGrant::Acquired { lease } => {
                tracing::info!(holder = %self.lease_holder, token = %lease.token, "lease acquired");
                // What was decided under an earlier holding is not written under this one;
                // under the same holding (taken again after the journal was away, nobody
                // else having held it), it still is.
                let same = self
                    .last_fence
                    .as_ref()
                    .is_some_and(|f| f.scope == lease.scope && f.token == lease.token);
                if !same {
                    self.pending.clear();
                }
                self.last_fence = Some(lease.fence());
                self.lease = Some(lease);
                // Another executor may have acted meanwhile: rebuild rollouts from the journal.
                self.rollouts.clear();
                Ok(true)
            }
            LeaseGrant::HeldByOther { .. } => Ok(false),
        }
    }

    /// Renews the lease this executor has held since its pass began; false when it was
    /// lost. Never takes the lease afresh: another executor may have acted meanwhile, so
    /// only a new pass, which first catches up with the journal, may take it again.
    pub(super) fn still_hold_lease(&mut self) -> Result<bool, EngineError> {
        let Some(lease) = &self.lease else {
            return Ok(false);
        };
        match self
            .store
            .renew_lease(lease, self.options.lease_ttl, self.now())
        {
            Ok(renewed) => {
                self.lease = Some(renewed);
                Ok(true)
            }
            Err(JournalError::LeaseLost { .. }) => {
                tracing::warn!(holder = %self.lease_holder, "lease lost mid-pass; standing by");
                self.lease = None;
                self.pending.clear();
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Forgets everything read from the journal and the lease with it, as if this executor
    /// had just started: what it knew may be behind what the journal holds (a write whose
    /// commit it never heard of), and the journal decides. What was left unwritten
    /// (`pending`) stays: it is written first under the same lease, or dropped if another
    /// holder took it meanwhile. What it read and wrote is still remembered (`history`):
    /// the journal read again must still hold it.
    pub(super) fn forget(&mut self) {
        self.lease = None;
        self.forget_reading();
    }

    /// Forgets everything read from the journal (not the lease): the next catch-up reads
    /// it all again.
    pub(super) fn forget_reading(&mut self) {
        self.projection = Projection::default();
        self.checkpoints.clear();
        self.commands.clear();
        self.unfolded.clear();
        self.rollout_log = rollout_log::RolloutLog::default();
        self.rollouts.clear();
        self.shard_log = shard::ShardLog::default();
    }

    /// Gives the lease back (on SIGTERM, after the call in flight was recorded).
    pub fn release_lease(&mut self) -> Result<(), EngineError> {
        if self.lease.is_some() {
            self.flush()?;
        }
        if let Some(lease) = self.lease.take() {
            self.store.release_lease(&lease, self.now())?;
        }
        Ok(())
    }

    /// Awaits a call that may outlast the lease (a hook, a release's exec action, a slow
    /// read before a change) while renewing the lease every third of its time to live, so
    /// a standby does not take over and start the same change again while this one is
    /// still running. If the lease is lost anyway, the call still finishes; its outcome is
    /// then refused by the fence and the new holder settles it by observing the cluster.
    /// A lost lease is forgotten here (`lease` becomes `None`), so that the caller, which
    /// must not start another side effect after it, sees it at once; a renewal that failed
    /// for another reason is found out by [`Executor::still_hold_lease`] before the next one.
    pub(super) async fn keeping_lease<T>(
        store: &mut S,
        lease: &mut Option<Lease>,
        ttl: Duration,
        clock: &Clock,
        call: impl std::future::Future<Output = T>,
    ) -> T {
        tokio::pin!(call);
        let mut renew = tokio::time::interval(ttl / 3);
        renew.tick().await;
        loop {
            tokio::select! {
                out = &mut call => return out,
                _ = renew.tick() => {
                    if let Some(held) = lease.as_ref() {
                        match store.renew_lease(held, ttl, clock.now()) {
                            Ok(renewed) => *lease = Some(renewed),
                            Err(error @ JournalError::LeaseLost { .. }) => {
                                tracing::warn!(%error, "lease lost during a long call; standing by after it");
                                *lease = None;
                            }
                            Err(error) => tracing::warn!(%error, "lease not renewed during a long call"),
                        }
                    }
                }
            }
        }
    }

    pub(super) fn fence(&self) -> Option<Fence> {
        self.lease
            .as_ref()
            .map(Lease::fence)
            .or_else(|| self.last_fence.clone())
    }
}
