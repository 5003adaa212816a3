//! Starting a rollout: journal the run with everything the executor needs (the decoded
//! file, the digest, the manifests' text, the planned batches, and which clusters already
//! run this digest according to earlier runs). Nothing is done to a cluster here.

use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::journal::{EventQuery, JournalError, JournalStore};
use crate::model::rollout::{
    ManifestText, ReleaseDigest, RolloutPlan, RolloutRunSpec, RolloutSpec,
};
use crate::model::run::{Actor, ItemId, Projection, RunId};

/// Why a rollout could not be started.
#[derive(Debug, thiserror::Error)]
pub enum RolloutStartError {
    /// The plan holds no cluster.
    #[error("the rollout's targets select no cluster")]
    Empty,
    /// The journal refused.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The spec could not be recorded.
    #[error("recording the rollout spec: {0}")]
    Spec(#[from] serde_json::Error),
    /// Rollouts that have not finished already target some of the clusters: each would
    /// go on applying its own release there.
    #[error("{}", describe_busy(.0))]
    Busy(Vec<BusyRun>),
}

/// A rollout that has not finished, and the clusters a new one would share with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusyRun {
    /// The run.
    pub run: RunId,
    /// Its status, in words.
    pub status: String,
    /// The clusters both target.
    pub clusters: Vec<String>,
}

fn describe_busy(busy: &[BusyRun]) -> String {
    let runs: Vec<String> = busy
        .iter()
        .map(|b| format!("{} ({}) on {}", b.run, b.status, b.clusters.join(", ")))
        .collect();
    let ids: Vec<&str> = busy.iter().map(|b| b.run.as_str()).collect();
    format!(
        "refusing to start: unfinished rollouts already target these clusters: {}. One rollout \
         at a time per cluster: wait for it to succeed, or abort it first (`fleetdeck rollout \
         abort {}`)",
        runs.join("; "),
        ids.join("`, `fleetdeck rollout abort ")
    )
}

/// Clusters whose latest release in the journal is `digest`: a new run verifies them and
/// never applies to them again. Only the latest counts: a cluster that once ran `digest`
/// and was moved on to another release since must get it again (a rollback).
fn already_applied(
    projection: &Projection,
    digest: &ReleaseDigest,
) -> BTreeMap<String, ReleaseDigest> {
    projection
        .applied_releases()
        .into_iter()
        .filter(|(_, applied)| applied == digest)
        .collect()
}

/// What a new rollout run is made of, as the file, the digest and the planner gave it.
pub struct NewRollout<'a> {
    /// The decoded rollout file.
    pub rollout: RolloutSpec,
    /// The release digest over the file's release and its manifests.
    pub digest: ReleaseDigest,
    /// The manifests' text, exactly the bytes the digest covers.
    pub manifests: Vec<ManifestText>,
    /// The planned batches.
    pub plan: &'a RolloutPlan,
}

/// How often a start is decided again when other writes came in while it was checked
/// (each time on the journal brought up to date, which takes milliseconds).
const START_TRIES: u32 = 20;

/// Journals a new rollout run, noting which clusters earlier runs already saw with this
/// digest (they are verified, never applied again); returns its id and the spec as
/// journaled. The executor picks it up. Refused while a rollout that has not succeeded or
/// been aborted targets any of the same clusters (a halted or paused one may be resumed).
/// The check and the write are one decision: a run journaled by someone else meanwhile
/// makes it read the journal and check again, so two starts at the same instant cannot
/// both pass.
pub fn record_rollout(
    store: &mut impl JournalStore,
    actor: &Actor,
    new: NewRollout<'_>,
    now: Timestamp,
) -> Result<(RunId, RolloutRunSpec), RolloutStartError> {
    let mut projection = store.projection()?;
    let mut tries = 0;
    loop {
        tries += 1;
        match record_once(store, actor, &new, now, &projection) {
            Err(RolloutStartError::Journal(JournalError::MovedOn { .. }))
                if tries < START_TRIES =>
            {
                // Only what was written since is read, so an executor writing all along
                // does not keep the start from ever catching up.
                let since = EventQuery {
                    after: projection.last_seq,
                    ..EventQuery::default()
                };
                store.scan(&since, &mut |event| projection.apply(&event))?;
            }
            other => return other,
        }
    }
}

/// One decision on `projection`, the journal as last read: checked, then the run
/// appended unless the journal moved on meanwhile.
fn record_once(
    store: &mut impl JournalStore,
    actor: &Actor,
    new: &NewRollout<'_>,
    now: Timestamp,
    projection: &Projection,
) -> Result<(RunId, RolloutRunSpec), RolloutStartError> {
    let applied = already_applied(projection, &new.digest);
    let spec = RolloutRunSpec::new(
        new.rollout.clone(),
        new.digest.clone(),
        new.manifests.clone(),
        new.plan,
        applied,
    );
    if spec.batches.iter().all(|b| b.clusters.is_empty()) {
        return Err(RolloutStartError::Empty);
    }
    let targets: Vec<String> = spec
        .batches
        .iter()
        .flat_map(|b| b.clusters.iter().cloned())
        .collect();
    let busy: Vec<BusyRun> = projection
        .unfinished_rollouts_on(&targets)
        .into_iter()
        .map(|(run, clusters)| BusyRun {
            run: run.id.clone(),
            status: projection.effective_status(run).to_string(),
            clusters,
        })
        .collect();
    if !busy.is_empty() {
        return Err(RolloutStartError::Busy(busy));
    }
    let batches: Vec<Vec<ItemId>> = spec
        .batches
        .iter()
        .map(|b| b.clusters.iter().map(|c| ItemId(c.clone())).collect())
        .collect();
    let planned = super::start::Planned {
        base: format!("ro-{}-{}", spec.rollout.release.name, now.as_second()),
        title: format!("rollout {}", spec.rollout.release.name),
        batches,
        spec: serde_json::to_value(&spec)?,
        cluster: None,
        decided_on: super::start::DecidedOn::LastEvent(projection.last_seq),
    };
    let run = super::start::append_planned(store, actor, planned, now)?;
    Ok((run, spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ledger::ClusterId;
    use crate::model::run::{EventBody, EventLog, IdempotencyKey, NewEvent};

    fn digest(d: &str) -> ReleaseDigest {
        ReleaseDigest(format!("sha256:{d}"))
    }

    /// A journal of rollout runs, each over clusters `x` and `y`.
    struct Journal(EventLog);

    impl Journal {
        fn push(&mut self, run: &str, item: Option<&str>, body: EventBody) {
            let seq = self.0.next_seq();
            let mut e = NewEvent::new(
                Timestamp::from_second(1_750_000_000 + seq).unwrap_or_default(),
                Actor("executor/a".into()),
                IdempotencyKey(format!("k{seq}")),
                body,
            )
            .with_run(RunId(run.into()));
            if let Some(item) = item {
                e = e
                    .with_item(ItemId(item.into()))
                    .with_cluster(ClusterId(item.into()));
            }
            self.0.push(e);
        }

        fn plan(&mut self, run: &str) {
            let items: Vec<ItemId> = ["x", "y"].map(|c| ItemId(c.into())).to_vec();
            self.push(
                run,
                None,
                EventBody::RunPlanned {
                    title: format!("rollout {run}"),
                    batches: vec![items.clone()],
                    items,
                    spec: serde_json::Value::Null,
                },
            );
        }

        fn staged(&mut self, run: &str, cluster: &str, d: &str) {
            let digest = digest(d);
            self.push(run, Some(cluster), EventBody::ItemStaged { digest });
        }

        fn applied(&mut self, run: &str, cluster: &str, d: &str) {
            self.staged(run, cluster, d);
            let digest = digest(d);
            self.push(run, Some(cluster), EventBody::ItemApplied { digest });
        }

        fn projection(&self) -> Projection {
            Projection::replay(&self.0.0)
        }
    }

    #[test]
    fn only_the_latest_release_of_a_cluster_counts_as_applied() {
        let mut j = Journal(EventLog::default());
        j.plan("r1");
        j.applied("r1", "x", "d2");
        j.applied("r1", "y", "d2");
        // Run 2 moves x on to D3; y keeps D2.
        j.plan("r2");
        j.applied("r2", "x", "d3");
        let p = j.projection();
        let d2 = already_applied(&p, &digest("d2"));
        assert_eq!(
            d2.keys().collect::<Vec<_>>(),
            ["y"],
            "a rollback to D2 applies to x again"
        );
        let d3 = already_applied(&p, &digest("d3"));
        assert_eq!(d3.keys().collect::<Vec<_>>(), ["x"]);

        // Run 3 rolls x back to D2: then D2 is its release again, D3 no longer.
        j.plan("r3");
        j.applied("r3", "x", "d2");
        let p = j.projection();
        assert_eq!(already_applied(&p, &digest("d2")).len(), 2);
        assert!(already_applied(&p, &digest("d3")).is_empty());
    }

    #[test]
    fn a_rollout_blocks_its_clusters_until_it_succeeds_or_is_aborted() {
        use crate::model::rollout::{BatchPhase, HaltReason};
        use crate::model::run::RunStatus;
        let targets = ["x".to_string(), "z".to_string()];
        let busy = |j: &Journal| -> Vec<(String, Vec<String>)> {
            j.projection()
                .unfinished_rollouts_on(&targets)
                .into_iter()
                .map(|(run, clusters)| (run.id.0.clone(), clusters))
                .collect()
        };
        let mut j = Journal(EventLog::default());
        j.plan("r1");
        // A rollout batch under way: the run is a rollout and blocks x (y is not asked).
        j.push(
            "r1",
            None,
            EventBody::RolloutBatch {
                batch: 0,
                phase: BatchPhase::Executing,
            },
        );
        assert_eq!(busy(&j), [("r1".to_string(), vec!["x".to_string()])]);
        // Halted, it may be resumed: still blocks.
        j.push(
            "r1",
            None,
            EventBody::RolloutHalted {
                batch: 0,
                why: HaltReason::MetricsUnknown {
                    clusters: vec![("x".into(), "no samples".into())],
                },
            },
        );
        assert_eq!(busy(&j).len(), 1);
        j.push(
            "r1",
            None,
            EventBody::Aborted {
                note: "wrong release".into(),
            },
        );
        assert!(busy(&j).is_empty(), "an aborted rollout blocks nothing");

        j.plan("r2");
        j.push(
            "r2",
            None,
            EventBody::RolloutBatch {
                batch: 0,
                phase: BatchPhase::Done,
            },
        );
        j.push(
            "r2",
            None,
            EventBody::RunStatusChanged {
                status: RunStatus::Succeeded,
            },
        );
        assert!(busy(&j).is_empty(), "a succeeded rollout blocks nothing");

        // A maintenance run on a node that happens to share a name is no rollout.
        j.plan("m1");
        assert!(busy(&j).is_empty());
    }

    #[test]
    fn a_later_release_staged_without_an_apply_leaves_the_cluster_unknown() {
        let mut j = Journal(EventLog::default());
        j.plan("r1");
        j.applied("r1", "x", "d2");
        j.plan("r2");
        // The D3 apply never recorded an outcome (failed, or cut short): x may run part
        // of it, so it is not taken to run D2 any more.
        j.staged("r2", "x", "d3");
        let p = j.projection();
        assert!(already_applied(&p, &digest("d2")).is_empty());
        assert!(already_applied(&p, &digest("d3")).is_empty());
    }

    /// A journal in which another start lands between a start's check and its write.
    struct RacedJournal {
        inner: crate::journal::SqliteJournal,
        rival: Option<NewEvent>,
    }

    impl JournalStore for RacedJournal {
        fn append(
            &mut self,
            event: NewEvent,
            fence: Option<&crate::journal::Fence>,
        ) -> Result<crate::journal::Appended, JournalError> {
            self.inner.append(event, fence)
        }
        fn append_all(
            &mut self,
            events: Vec<NewEvent>,
            fence: Option<&crate::journal::Fence>,
        ) -> Result<Vec<crate::journal::Appended>, JournalError> {
            self.inner.append_all(events, fence)
        }
        fn append_if_last(
            &mut self,
            event: NewEvent,
            last_seen: Option<crate::model::run::Sequence>,
        ) -> Result<crate::journal::Appended, JournalError> {
            if let Some(rival) = self.rival.take() {
                self.inner.append(rival, None)?;
            }
            self.inner.append_if_last(event, last_seen)
        }
        fn scan(
            &self,
            query: &crate::journal::EventQuery,
            visit: &mut dyn FnMut(crate::model::run::Event),
        ) -> Result<(), JournalError> {
            self.inner.scan(query, visit)
        }
        fn acquire_lease(
            &mut self,
            scope: &crate::model::run::LeaseScope,
            holder: &Actor,
            ttl: std::time::Duration,
            now: Timestamp,
        ) -> Result<crate::journal::LeaseGrant, JournalError> {
            self.inner.acquire_lease(scope, holder, ttl, now)
        }
        fn renew_lease(
            &mut self,
            lease: &crate::journal::Lease,
            ttl: std::time::Duration,
            now: Timestamp,
        ) -> Result<crate::journal::Lease, JournalError> {
            self.inner.renew_lease(lease, ttl, now)
        }
        fn release_lease(
            &mut self,
            lease: &crate::journal::Lease,
            now: Timestamp,
        ) -> Result<(), JournalError> {
            self.inner.release_lease(lease, now)
        }
        fn lease(
            &self,
            scope: &crate::model::run::LeaseScope,
        ) -> Result<Option<crate::journal::Lease>, JournalError> {
            self.inner.lease(scope)
        }
    }

    #[test]
    fn two_starts_checked_at_the_same_instant_cannot_both_go_in() {
        use crate::model::rollout::{Approval, Pick, PlannedStage, read_rollout};
        let rollout = read_rollout(
            "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease:\n  name: r1\n  bundle: {cni: c1}\n  action:\n    exec: {argv: [helm, upgrade], timeout: 1m}\n  checks:\n    - nodesReady: {minRatio: 0.9}\ntargets: \"\"\nstages:\n  - {name: all, batchSize: 1, soak: 10s, approval: auto, pick: ordered}\nbudgets: {maxInFlight: 1}\nstopWhen: {failedClusters: 1}\n",
        )
        .spec
        .unwrap_or_else(|| panic!("a valid rollout file"));
        let plan = RolloutPlan {
            release: "r1".into(),
            targets: 1,
            combinations: 1,
            stages: vec![PlannedStage {
                name: "all".into(),
                pick: Pick::Ordered,
                approval: Approval::Auto,
                soak: std::time::Duration::from_secs(10),
                batches: vec![vec![ClusterId("x".into())]],
                covers: Vec::new(),
                newly_covered: Vec::new(),
                untested_before: Vec::new(),
            }],
            warnings: Vec::new(),
            live_drift: Vec::new(),
            not_observed: Vec::new(),
        };
        let new = |release: &str| NewRollout {
            rollout: rollout.clone(),
            digest: digest(release),
            manifests: Vec::new(),
            plan: &plan,
        };
        let in_memory = || {
            crate::journal::SqliteJournal::in_memory()
                .unwrap_or_else(|e| panic!("an in-memory journal: {e}"))
        };
        // Bob's start of another release on x, as his own journal write would have it.
        let mut elsewhere = in_memory();
        let bob = Actor("bob".into());
        let later = Timestamp::from_second(1_750_000_100).unwrap_or_default();
        let rival = record_rollout(&mut elsewhere, &bob, new("d2"), later);
        assert!(rival.is_ok(), "{rival:?}");
        let rival = elsewhere
            .query(&crate::journal::EventQuery::default())
            .unwrap_or_default()
            .into_iter()
            .find(|e| matches!(e.event.body, EventBody::RunPlanned { .. }))
            .map(|e| e.event);

        // Alice checks an empty journal; Bob's start goes in before her write.
        let mut raced = RacedJournal {
            inner: in_memory(),
            rival,
        };
        let alice = Actor("alice".into());
        let now = Timestamp::from_second(1_750_000_000).unwrap_or_default();
        let started = record_rollout(&mut raced, &alice, new("d1"), now);
        assert!(
            matches!(&started, Err(RolloutStartError::Busy(busy)) if busy.len() == 1),
            "{started:?}"
        );
        let planned = raced
            .query(&crate::journal::EventQuery::default())
            .unwrap_or_default()
            .into_iter()
            .filter(|e| matches!(e.event.body, EventBody::RunPlanned { .. }))
            .count();
        assert_eq!(planned, 1, "only Bob's run is journaled");
    }
}
