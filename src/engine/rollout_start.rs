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

/// Clusters that earlier runs in the journal saw applied with `digest`: a new run
/// verifies them and never applies to them again.
fn already_applied(
    projection: &Projection,
    digest: &ReleaseDigest,
) -> BTreeMap<String, ReleaseDigest> {
    let mut out = BTreeMap::new();
    for run in projection.runs.values() {
        for (item, view) in &run.items {
            if view.applied.as_ref() == Some(digest) {
                out.insert(item.0.clone(), digest.clone());
            }
        }
    }
    out
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
