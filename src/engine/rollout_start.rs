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
/// journaled. The executor picks it up.
pub fn record_rollout(
    store: &mut impl JournalStore,
    actor: &Actor,
    new: NewRollout<'_>,
    now: Timestamp,
) -> Result<(RunId, RolloutRunSpec), RolloutStartError> {
    let applied = already_applied(&store.projection()?, &new.digest);
    let spec = RolloutRunSpec::new(new.rollout, new.digest, new.manifests, new.plan, applied);
    if spec.batches.iter().all(|b| b.clusters.is_empty()) {
        return Err(RolloutStartError::Empty);
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
