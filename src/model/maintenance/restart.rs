//! Restart semantics: an intent journaled without an outcome is settled by looking at
//! the cluster, never by assuming. Pure: the caller observes, these functions decide.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::observe::PodRef;
use crate::model::run::IdempotencyKey;

/// A side effect the engine journals before performing it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum Intent {
    /// Set `spec.unschedulable` on the node.
    Cordon,
    /// Ask the Eviction API to evict one pod.
    Evict {
        /// The pod.
        pod: PodRef,
    },
    /// Run the maintenance hook.
    Hook {
        /// The key the hook was given (`FLEETDECK_IDEMPOTENCY_KEY`).
        key: IdempotencyKey,
    },
    /// Clear `spec.unschedulable`.
    Uncordon,
}

impl Intent {
    /// The journal's `action` column value and detail.
    pub fn to_journal(&self) -> (String, Value) {
        let action = match self {
            Intent::Cordon => "cordon",
            Intent::Evict { .. } => "evict",
            Intent::Hook { .. } => "hook",
            Intent::Uncordon => "uncordon",
        };
        (
            action.to_string(),
            serde_json::to_value(self).unwrap_or(Value::Null),
        )
    }

    /// Reads back what [`Intent::to_journal`] wrote; `None` for other actions.
    pub fn from_journal(detail: &Value) -> Option<Intent> {
        Intent::deserialize(detail).ok()
    }
}

/// What observing the cluster after a restart showed about an intent's target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// The node's `spec.unschedulable`.
    Node {
        /// Whether it is unschedulable.
        unschedulable: bool,
    },
    /// The pod, looked up by namespace and name.
    Pod {
        /// A pod with that name exists with the same UID.
        exists: bool,
        /// Its deletion has started.
        terminating: bool,
    },
    /// Nothing to look at (hooks leave no trace we can read).
    Nothing,
    /// The cluster could not be read: unknown is not healthy, decide nothing yet.
    Unreachable,
}

/// How an intent without outcome is settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resolution {
    /// The side effect happened: record the outcome, do not repeat it.
    Happened,
    /// It did not happen: perform it (again).
    NotDone,
    /// Cannot tell, or must not guess: the step is stuck until a person looks.
    Blocked {
        /// Why, for the operator.
        reason: String,
    },
    /// Cannot tell yet (the cluster is unreachable): ask again later, do nothing now.
    Unknown,
}

/// The reason shown when a non-idempotent hook's outcome was lost.
pub const HOOK_OUTCOME_UNKNOWN: &str = "hook outcome unknown after executor restart";

/// Settles one intent given what is seen now. `hook_idempotent` comes from the
/// maintenance file: only an idempotent hook is run again blindly.
pub fn reconcile(intent: &Intent, seen: &Seen, hook_idempotent: bool) -> Resolution {
    if matches!(seen, Seen::Unreachable) {
        return Resolution::Unknown;
    }
    match (intent, seen) {
        (Intent::Cordon, Seen::Node { unschedulable }) => {
            if *unschedulable {
                Resolution::Happened
            } else {
                Resolution::NotDone
            }
        }
        (Intent::Uncordon, Seen::Node { unschedulable }) => {
            if *unschedulable {
                Resolution::NotDone
            } else {
                Resolution::Happened
            }
        }
        (
            Intent::Evict { .. },
            Seen::Pod {
                exists,
                terminating,
            },
        ) => {
            // Gone or going: the eviction was accepted (or the pod left on its own);
            // either way there is nothing to evict again.
            if !exists || *terminating {
                Resolution::Happened
            } else {
                Resolution::NotDone
            }
        }
        (Intent::Hook { .. }, _) => {
            if hook_idempotent {
                Resolution::NotDone
            } else {
                Resolution::Blocked {
                    reason: HOOK_OUTCOME_UNKNOWN.to_string(),
                }
            }
        }
        (intent, seen) => Resolution::Blocked {
            reason: format!(
                "cannot settle {} intent from {seen:?}: observed the wrong thing",
                intent.to_journal().0
            ),
        },
    }
}

/// What must be observed to settle `intent`: the executor looks this up, then calls
/// [`reconcile`].
pub fn what_to_observe(intent: &Intent) -> Observe {
    match intent {
        Intent::Cordon | Intent::Uncordon => Observe::Node,
        Intent::Evict { pod } => Observe::Pod(pod.clone()),
        Intent::Hook { .. } => Observe::Nothing,
    }
}

/// What the executor must look at to settle an intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observe {
    /// The node's `spec.unschedulable`.
    Node,
    /// This pod (same namespace, name and UID).
    Pod(PodRef),
    /// Nothing can be observed.
    Nothing,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod() -> PodRef {
        PodRef {
            namespace: "web".into(),
            name: "web-1".into(),
            uid: "u1".into(),
        }
    }

    #[test]
    fn cordon_and_uncordon_are_settled_by_spec_unschedulable() {
        assert_eq!(
            reconcile(
                &Intent::Cordon,
                &Seen::Node {
                    unschedulable: true
                },
                false
            ),
            Resolution::Happened
        );
        assert_eq!(
            reconcile(
                &Intent::Cordon,
                &Seen::Node {
                    unschedulable: false
                },
                false
            ),
            Resolution::NotDone
        );
        assert_eq!(
            reconcile(
                &Intent::Uncordon,
                &Seen::Node {
                    unschedulable: false
                },
                false
            ),
            Resolution::Happened
        );
        assert_eq!(
            reconcile(
                &Intent::Uncordon,
                &Seen::Node {
                    unschedulable: true
                },
                false
            ),
            Resolution::NotDone
        );
    }

    #[test]
    fn an_eviction_is_settled_by_whether_the_pod_still_exists() {
        let evict = Intent::Evict { pod: pod() };
        assert_eq!(what_to_observe(&evict), Observe::Pod(pod()));
        let seen = |exists, terminating| Seen::Pod {
            exists,
            terminating,
        };
        assert_eq!(
            reconcile(&evict, &seen(false, false), false),
            Resolution::Happened
        );
        assert_eq!(
            reconcile(&evict, &seen(true, true), false),
            Resolution::Happened
        );
        assert_eq!(
            reconcile(&evict, &seen(true, false), false),
            Resolution::NotDone
        );
    }

    #[test]
    fn a_lost_hook_outcome_blocks_unless_the_hook_is_idempotent() {
        let hook = Intent::Hook {
            key: IdempotencyKey("r/n/Maintain/hook#1".into()),
        };
        assert_eq!(
            reconcile(&hook, &Seen::Nothing, false),
            Resolution::Blocked {
                reason: HOOK_OUTCOME_UNKNOWN.into()
            }
        );
        assert_eq!(reconcile(&hook, &Seen::Nothing, true), Resolution::NotDone);
    }

    #[test]
    fn an_unreachable_cluster_decides_nothing() {
        assert_eq!(
            reconcile(&Intent::Cordon, &Seen::Unreachable, true),
            Resolution::Unknown
        );
    }

    #[test]
    fn intents_round_trip_through_the_journal() {
        for intent in [
            Intent::Cordon,
            Intent::Evict { pod: pod() },
            Intent::Hook {
                key: IdempotencyKey("k".into()),
            },
            Intent::Uncordon,
        ] {
            let (_, detail) = intent.to_journal();
            assert_eq!(Intent::from_journal(&detail), Some(intent));
        }
    }
}
