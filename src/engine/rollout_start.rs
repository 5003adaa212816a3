//! Starting a rollout: journal the run with everything the executor needs (the decoded
//! file, the digest, the manifests' text, the planned batches, and which clusters already
//! run this digest according to earlier runs). Nothing is done to a cluster here.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::start::planned_event;
use crate::journal::{JournalError, JournalStore};
use crate::model::rollout::{ReleaseDigest, RolloutRunSpec};
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
pub fn already_applied(
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

/// Journals a new rollout run; returns its id. The executor picks it up.
pub fn record_rollout(
    store: &mut impl JournalStore,
    actor: &Actor,
    spec: &RolloutRunSpec,
    now: Timestamp,
) -> Result<RunId, RolloutStartError> {
    if spec.batches.iter().all(|b| b.clusters.is_empty()) {
        return Err(RolloutStartError::Empty);
    }
    let run = RunId(format!(
        "ro-{}-{}",
        spec.rollout.release.name,
        now.as_second()
    ));
    let batches: Vec<Vec<ItemId>> = spec
        .batches
        .iter()
        .map(|b| b.clusters.iter().map(|c| ItemId(c.clone())).collect())
        .collect();
    let title = format!("rollout {}", spec.rollout.release.name);
    let event = planned_event(
        actor,
        &run,
        title,
        batches,
        serde_json::to_value(spec)?,
        now,
    );
    store.append(event, None)?;
    Ok(run)
}
