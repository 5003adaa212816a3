//! Newtypes for the names the journal keys on, so that a node name is never passed where
//! a run id is expected.

use serde::{Deserialize, Serialize};

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            /// The name as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                $name(text.to_string())
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                $name(text)
            }
        }
    };
}

name_type!(
    /// One run: a maintenance (or rollout) started from a file, e.g. `m-20250612-0930-ab12`.
    RunId
);
name_type!(
    /// A Kubernetes node's name.
    NodeName
);
name_type!(
    /// One item of a run: a node in a maintenance, a cluster in a rollout.
    ItemId
);
name_type!(
    /// One step of an item's state machine (`Cordon`, `Drain`, …), as recorded.
    StepName
);
name_type!(
    /// Who did something: `user@host` for a person, `executor/<id>` for an executor,
    /// `fleetdeck/guard` for the mass-failure guard.
    Actor
);

impl Actor {
    /// Whether this actor is fleetdeck's own automation rather than a person. Decisions
    /// that only a person may take (resuming a guard pause) check this.
    pub fn is_automation(&self) -> bool {
        self.0.starts_with("executor/") || self.0.starts_with("fleetdeck/")
    }
}

/// `ClusterId` is defined with the ledger, which only writes it; journal payloads are also
/// read back, so they go through this adapter.
pub(crate) mod cluster_id {
    use crate::model::ledger::ClusterId;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(id: &ClusterId, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&id.0)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ClusterId, D::Error> {
        String::deserialize(d).map(ClusterId)
    }
}
