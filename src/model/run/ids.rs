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
        // `executor@<person>` is the executor a console runs for its operator (the demo).
        ["executor/", "executor@", "fleetdeck/"]
            .iter()
            .any(|prefix| self.0.starts_with(prefix))
    }

    /// The name one executor instance takes leases under: `actor` with the process and a
    /// counter, so two executors of one actor never mistake each other's lease for theirs.
    pub fn instance(actor: &Actor, pid: u32, n: u64) -> Actor {
        Actor(format!("{actor} [pid {pid} #{n}]"))
    }

    /// Whether this lease holder is an instance of `actor` in process `pid` (see
    /// [`Actor::instance`]).
    pub fn is_instance_of(&self, actor: &str, pid: u32) -> bool {
        self.0
            .strip_prefix(actor)
            .is_some_and(|rest| rest.starts_with(&format!(" [pid {pid} #")))
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

#[cfg(test)]
mod tests {
    use super::Actor;

    #[test]
    fn executors_are_automation_and_people_are_not() {
        for robot in [
            "executor/prod-1",
            "executor@alice@laptop",
            "fleetdeck/guard",
        ] {
            assert!(Actor(robot.into()).is_automation(), "{robot}");
        }
        for person in ["alice@laptop", "executive@ops", "bob"] {
            assert!(!Actor(person.into()).is_automation(), "{person}");
        }
    }

    #[test]
    fn a_lease_holder_is_an_instance_of_its_actor_in_its_process_only() {
        let holder = Actor::instance(&Actor("executor@alice".into()), 42, 0);
        assert!(holder.is_instance_of("executor@alice", 42));
        assert!(
            !holder.is_instance_of("executor@alice", 43),
            "another process"
        );
        assert!(!holder.is_instance_of("executor@al", 42), "another actor");
        assert!(!Actor("executor@alice".into()).is_instance_of("executor@alice", 42));
    }
}
