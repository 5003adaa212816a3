//! The executor's mass-failure guard: readiness in the fleet view turned into domain pauses.

use super::{EngineError, Executor};
use crate::journal::JournalStore;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{MaintenancePort, MaintenanceSpec};
use crate::model::run::{EventBody, IdempotencyKey, NewEvent, RunView};

impl<S: JournalStore, P: MaintenancePort + crate::model::rollout::RolloutPort + Sync>
    Executor<S, P>
{
    /// Watches readiness in every cluster of the fleet view and pauses any failure domain
    /// where too many nodes went NotReady at once ("suspect shared dependency"); only a
    /// person resumes. Every cluster is watched, not only those with a run in flight, so
    /// the pause is in place before the next run would start there.
    pub(super) fn check_guards(&mut self) -> Result<(), EngineError> {
        let Some(fleet) = &self.fleet else {
            return Ok(());
        };
        let snapshot = fleet.borrow().clone();
        let now = self.now();
        let runs = self.active_maintenance();
        let mut appended = false;
        for live in snapshot.clusters.iter() {
            let cluster = ClusterId(live.id.clone());
            // Another shard's executor guards its own clusters.
            if !self.options.ownership.owns(&cluster) {
                continue;
            }
            let active: Vec<&(RunView, MaintenanceSpec)> =
                runs.iter().filter(|(_, s)| s.cluster == cluster).collect();
            let label = active
                .first()
                .map(|(_, s)| s.budgets.failure_domain_label.clone())
                .unwrap_or_else(|| self.options.guard_domain_label.clone());
            self.guard.observe(&snapshot, &cluster.0, &label, now);
            // Nodes our own maintenance has past Precheck go down on purpose.
            let expected_down = active
                .iter()
                .flat_map(|(r, _)| r.order.iter().map(move |item| (r.id.clone(), item.clone())))
                .filter_map(|key| self.checkpoints.get(&key))
                .filter(|c| {
                    c.node_state.step != crate::model::maintenance::Step::Precheck
                        && !c.node_state.is_finished()
                })
                .map(|c| c.node_state.node.clone())
                .collect();
            let paused = self
                .projection
                .pauses
                .keys()
                .filter_map(|scope| match scope {
                    crate::model::run::PauseScope::FailureDomain { cluster: c, domain }
                        if *c == cluster =>
                    {
                        Some(domain.clone())
                    }
                    _ => None,
                })
                .collect();
            let resumed_at = match self.projection.domain_resumed_at.get(&cluster) {
                Some(written) => self.guard.resumes_as_seen(&cluster.0, written, now),
                None => Default::default(),
            };
            let context = crate::model::maintenance::GuardContext {
                totals: Default::default(),
                expected_down,
                resumed_at,
                paused,
            };
            let trips = self
                .guard
                .trips(&snapshot, &cluster.0, &label, context, now);
            for trip in trips {
                tracing::error!(%cluster, domain = %trip.domain, reason = %trip.reason, "mass-failure guard tripped");
                let body = EventBody::GuardTripped {
                    scope: crate::model::run::PauseScope::FailureDomain {
                        cluster: cluster.clone(),
                        domain: trip.domain.clone(),
                    },
                    reason: trip.reason.clone(),
                    not_ready: trip.not_ready.clone(),
                    total: trip.total,
                };
                let key = IdempotencyKey::for_guard(&cluster, &trip.domain, now);
                let event = NewEvent::new(now, self.options.actor.clone(), key, body)
                    .with_cluster(cluster.clone());
                // A pause: the other executors and every console must see it now.
                self.commit(vec![event])?;
                appended = true;
            }
        }
        if appended {
            self.catch_up()?;
        }
        Ok(())
    }
}
