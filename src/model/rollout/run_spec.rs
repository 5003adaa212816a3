//! What `rollout start` journals for a run: the rollout file as decoded, the release digest,
//! the manifests' text (so the executor applies exactly the bytes the digest covers, even
//! if the file changes later), the planned batches and what each cluster was known to run.
//! From this alone the executor rebuilds the run's starting state.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::digest::ReleaseDigest;
use super::planner::RolloutPlan;
use super::spec::{Approval, RolloutSpec};
use super::state::{Batch, RunState};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, RunId};

/// One manifest file of an `apply` release, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestText {
    /// Path relative to the manifest directory.
    pub path: String,
    /// The file's content.
    pub text: String,
}

/// One planned batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedBatch {
    /// The stage it belongs to.
    pub stage: String,
    /// Its clusters (ledger ids).
    pub clusters: Vec<String>,
    /// Whether it waits for a person.
    pub approval: Approval,
    /// Soak after it verified, in seconds.
    pub soak_seconds: u64,
}

/// The run's journaled specification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutRunSpec {
    /// The rollout file, decoded.
    pub rollout: RolloutSpec,
    /// The release digest every cluster should end up with.
    pub digest: ReleaseDigest,
    /// The manifests of an `apply` release (empty for `exec`).
    pub manifests: Vec<ManifestText>,
    /// Batches in order.
    pub batches: Vec<PlannedBatch>,
    /// What clusters were known to run when the rollout started (never applied again).
    pub applied: BTreeMap<String, ReleaseDigest>,
    /// Whether those clusters' release records are read before they are only verified
    /// (absent, hence false, in runs journaled before that rule: they replay as decided).
    #[serde(default)]
    pub confirm_applied: bool,
}

impl RolloutRunSpec {
    /// The spec of a run over `plan`.
    pub fn new(
        rollout: RolloutSpec,
        digest: ReleaseDigest,
        manifests: Vec<ManifestText>,
        plan: &RolloutPlan,
        applied: BTreeMap<String, ReleaseDigest>,
    ) -> Self {
        let batches = plan
            .stages
            .iter()
            .flat_map(|stage| {
                stage.batches.iter().map(|clusters| PlannedBatch {
                    stage: stage.name.clone(),
                    clusters: clusters.iter().map(|c| c.to_string()).collect(),
                    approval: stage.approval,
                    soak_seconds: stage.soak.as_secs(),
                })
            })
            .collect();
        RolloutRunSpec {
            rollout,
            digest,
            manifests,
            batches,
            applied,
            confirm_applied: true,
        }
    }

    /// Whether the run's release digest is the digest of what it would apply (its
    /// release's bundle and action, and the manifests' text as journaled): checked before
    /// every apply, so that a plan whose manifests were changed after it was digested
    /// (or written by hand with another digest) applies nothing. `Err` says both digests.
    pub fn check_digest(&self) -> Result<(), String> {
        let manifests: Vec<super::digest::Manifest> = self
            .manifests
            .iter()
            .map(|m| super::digest::Manifest {
                path: m.path.clone(),
                bytes: m.text.as_bytes().to_vec(),
            })
            .collect();
        let actual = super::digest::release_digest(&self.rollout.release, &manifests);
        if actual == self.digest {
            Ok(())
        } else {
            Err(format!(
                "not applied: the run's release digest is {} but what it would apply digests to {actual}",
                self.digest
            ))
        }
    }

    /// The run's state before anything was observed.
    pub fn initial_state(&self, run: RunId, author: Actor) -> RunState {
        let batches = self
            .batches
            .iter()
            .map(|planned| {
                Batch::pending(
                    planned.stage.clone(),
                    planned
                        .clusters
                        .iter()
                        .map(|c| ClusterId::from(c.clone()))
                        .collect(),
                    planned.approval,
                    Duration::from_secs(planned.soak_seconds),
                )
            })
            .collect();
        let applied = self
            .applied
            .iter()
            .map(|(c, d)| (ClusterId::from(c.clone()), d.clone()))
            .collect();
        let mut state = RunState::new(
            run,
            author,
            self.digest.clone(),
            batches,
            self.rollout.stop_when.clone(),
            self.rollout.approvals,
            &applied,
        );
        state.confirm_applied = self.confirm_applied;
        state
    }
}

/// Whether a journaled run's spec is a rollout's: a key check, cheap enough for every
/// frame (the spec carries the manifests' text, so it is not decoded for this).
pub fn is_rollout_spec(spec: &serde_json::Value) -> bool {
    spec.get("rollout")
        .is_some_and(serde_json::Value::is_object)
        && spec.get("digest").is_some_and(serde_json::Value::is_string)
}

/// The rollout file of a journaled run's spec; `None` for runs that are not rollouts.
pub fn rollout_of(spec: &serde_json::Value) -> Option<RolloutSpec> {
    // Only the `rollout` part is read, in place: the rest carries the manifests' text.
    if !is_rollout_spec(spec) {
        return None;
    }
    RolloutSpec::deserialize(spec.get("rollout")?).ok()
}

/// A run spec for `rollout` as tests journal it (no manifests, batches or applied).
#[cfg(test)]
pub fn journaled_for_tests(rollout: RolloutSpec) -> serde_json::Value {
    serde_json::to_value(RolloutRunSpec {
        rollout,
        digest: ReleaseDigest("sha256:test".into()),
        manifests: Vec::new(),
        batches: Vec::new(),
        applied: BTreeMap::new(),
        confirm_applied: true,
    })
    .unwrap_or_default()
}

/// Rebuilds a run's state from its starting state and the observations journaled for it,
/// in order, each at the time it was fed. The actions are not performed again: what they
/// did is in the journal already.
pub fn replay(
    mut state: RunState,
    observed: impl IntoIterator<Item = (jiff::Timestamp, super::state::Observation)>,
) -> RunState {
    for (at, observation) in observed {
        state = super::machine::step(state, at, observation).0;
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rollout::{ItemPhase, Observation, VerifyOutcome, read_rollout, step};

    const FILE: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: r1
  bundle: {cni: c1}
  action:
    exec: {argv: [helm, upgrade], timeout: 1m}
  checks:
    - nodesReady: {minRatio: 0.9}
targets: ""
stages:
  - {name: canary, count: 1, batchSize: 1, soak: 10s, approval: required, pick: ordered}
  - {name: rest, batchSize: 2, soak: 10s, approval: auto, pick: ordered}
budgets: {maxInFlight: 2}
stopWhen: {failedClusters: 1}
approvals: {distinctApprover: true}
"#;

    fn spec() -> RolloutRunSpec {
        let rollout = read_rollout(FILE)
            .spec
            .unwrap_or_else(|| panic!("valid file"));
        let batch = |stage: &str, clusters: &[&str], approval| PlannedBatch {
            stage: stage.into(),
            clusters: clusters.iter().map(|c| c.to_string()).collect(),
            approval,
            soak_seconds: 10,
        };
        RolloutRunSpec {
            rollout,
            digest: ReleaseDigest("sha256:aa".into()),
            manifests: Vec::new(),
            batches: vec![
                batch("canary", &["c1"], Approval::Required),
                batch("rest", &["c2", "c3"], Approval::Auto),
            ],
            applied: BTreeMap::from([("c3".to_string(), ReleaseDigest("sha256:aa".into()))]),
            confirm_applied: true,
        }
    }

    #[test]
    fn a_digest_that_is_not_the_manifests_and_release_refuses_the_apply() {
        let mut spec = spec();
        spec.manifests = vec![ManifestText {
            path: "cni.yaml".into(),
            text: "kind: ConfigMap\n".into(),
        }];
        let refused = spec.check_digest().unwrap_err();
        assert!(refused.contains("sha256:aa"), "{refused}");
        // Digested as `rollout start` digests: the apply may go.
        let bytes = vec![crate::model::rollout::Manifest {
            path: "cni.yaml".into(),
            bytes: b"kind: ConfigMap\n".to_vec(),
        }];
        spec.digest = crate::model::rollout::release_digest(&spec.rollout.release, &bytes);
        assert_eq!(spec.check_digest(), Ok(()));
        // Changed manifest text, or another release action, under the same digest: no.
        spec.manifests[0].text.push_str("data: {mode: evil}\n");
        assert!(spec.check_digest().is_err());
        let mut other = spec.clone();
        other.manifests[0].text = "kind: ConfigMap\n".into();
        other
            .rollout
            .release
            .bundle
            .insert("cni".into(), "c2".into());
        assert!(other.check_digest().is_err());
    }

    #[test]
    fn a_rollout_spec_is_told_from_a_maintenance_spec_without_decoding_it() {
        let json = serde_json::to_value(spec()).unwrap_or_default();
        assert!(is_rollout_spec(&json));
        assert!(!is_rollout_spec(
            &serde_json::json!({"name": "kernel", "cluster": "c1"})
        ));
    }

    #[test]
    fn the_journaled_spec_reads_back_unchanged() {
        let spec = spec();
        let json = serde_json::to_value(&spec).unwrap_or_default();
        let back: Option<RolloutRunSpec> = serde_json::from_value(json.clone()).ok();
        assert_eq!(back, Some(spec.clone()));
        assert!(
            spec.initial_state(RunId("r".into()), Actor("a".into()))
                .confirm_applied
        );
        // Journaled before release records were read first: replayed under the old rule.
        let mut older = json;
        if let Some(fields) = older.as_object_mut() {
            fields.remove("confirmApplied");
        }
        let older: Option<RolloutRunSpec> = serde_json::from_value(older).ok();
        assert!(older.is_some_and(|o| {
            !o.initial_state(RunId("r".into()), Actor("a".into()))
                .confirm_applied
        }));
    }

    #[test]
    fn the_starting_state_knows_batches_and_what_clusters_already_run() {
        let state = spec().initial_state(RunId("r".into()), Actor("alice".into()));
        assert_eq!(state.batches.len(), 2);
        assert_eq!(state.batches[1].soak, Duration::from_secs(10));
        assert_eq!(
            state.items[&ClusterId("c3".into())].applied,
            Some(ReleaseDigest("sha256:aa".into()))
        );
        assert_eq!(state.items[&ClusterId("c1".into())].applied, None);
    }

    #[test]
    fn replaying_the_fed_observations_rebuilds_the_state() {
        let start = spec().initial_state(RunId("r".into()), Actor("alice".into()));
        let at = |s: i64| jiff::Timestamp::from_second(1_800_000_000 + s).unwrap_or_default();
        let c1 = ClusterId("c1".into());
        let fed = vec![
            (at(0), Observation::Tick),
            (
                at(5),
                Observation::Approve {
                    batch: 0,
                    by: Actor("bob".into()),
                    note: String::new(),
                },
            ),
            (
                at(6),
                Observation::Applied {
                    cluster: c1.clone(),
                    result: Ok(ReleaseDigest("sha256:aa".into())),
                },
            ),
            (
                at(7),
                Observation::Verified {
                    cluster: c1.clone(),
                    outcome: VerifyOutcome::Pass,
                },
            ),
            (at(30), Observation::Tick),
        ];
        let mut live = start.clone();
        for (t, o) in fed.clone() {
            live = step(live, t, o).0;
        }
        let rebuilt = replay(start, fed);
        assert_eq!(rebuilt, live);
        // The canary finished; the next batch started on its own (approval: auto).
        assert_eq!(rebuilt.current, 1);
        assert_eq!(rebuilt.items[&c1].phase, ItemPhase::Succeeded);
    }
}
