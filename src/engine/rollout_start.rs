//! Starting a rollout: journal the run with everything the executor needs (the decoded
//! file, the digest, the manifests' text, the planned batches, and which clusters already
//! run this digest according to earlier runs). Nothing is done to a cluster here.

use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::journal::{JournalError, JournalStore};
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

/// Journals a new rollout run, noting which clusters earlier runs already saw with this
/// digest (they are verified, never applied again); returns its id and the spec as
/// journaled. The executor picks it up. Refused while a rollout that has not succeeded or
/// been aborted targets any of the same clusters (a halted or paused one may be resumed).
pub fn record_rollout(
    store: &mut impl JournalStore,
    actor: &Actor,
    new: NewRollout<'_>,
    now: Timestamp,
) -> Result<(RunId, RolloutRunSpec), RolloutStartError> {
    let projection = store.projection()?;
    let applied = already_applied(&projection, &new.digest);
    let spec = RolloutRunSpec::new(new.rollout, new.digest, new.manifests, new.plan, applied);
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
}
