//! Idempotency keys: one constructor per kind of write, so every key of a kind has one
//! shape, and the one key that is read back ([`IdempotencyKey::step_purpose`]) is read by
//! the type that wrote it.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::event::{FencingToken, LeaseScope};
use super::ids::{Actor, ItemId, RunId, StepName};
use crate::model::ledger::ClusterId;

/// A unique key per intended write. Appending an event whose key exists returns the
/// existing event instead of adding a second one, so retries after a crash are harmless.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct IdempotencyKey(pub String);

impl IdempotencyKey {
    /// The key of one engine write: the same run, item, step, purpose and attempt always
    /// give the same key, so a restarted executor cannot record the same thing twice.
    pub fn for_step(run: &RunId, item: &ItemId, step: &StepName, what: &str, attempt: u32) -> Self {
        IdempotencyKey(format!("{run}/{item}/{step}/{what}#{attempt}"))
    }

    /// What an engine write was for, read back from a [`IdempotencyKey::for_step`] key
    /// of step `step` (`run/item/step/evict:shop/web-0#2` → `evict:shop/web-0`); `None`
    /// for a key of another shape.
    pub fn step_purpose(&self, step: &StepName) -> Option<&str> {
        let (_, rest) = self.0.split_once(&format!("/{step}/"))?;
        Some(rest.rsplit_once('#').map_or(rest, |(purpose, _)| purpose))
    }

    /// The key of a write about a whole run: `run/what` (`planned`, `status/running`…).
    pub fn for_run(run: &RunId, what: &str) -> Self {
        IdempotencyKey(format!("{run}/{what}"))
    }

    /// The key of a write about one item of a run outside its steps: `run/item/what`.
    pub fn for_item(run: &RunId, item: &ItemId, what: &str) -> Self {
        IdempotencyKey(format!("{run}/{item}/{what}"))
    }

    /// The key of the outcome recorded after the intent with this key.
    pub fn outcome(&self) -> Self {
        self.follow_up("outcome")
    }

    /// The key of a write that follows the one with this key and belongs to it (the
    /// state after an intent, what its action waits for): `key/what`.
    pub fn follow_up(&self, what: &str) -> Self {
        IdempotencyKey(format!("{self}/{what}"))
    }

    /// The key of the mass-failure guard pausing `domain` of `cluster`, tripped at `at`.
    pub fn for_guard(cluster: &ClusterId, domain: &str, at: Timestamp) -> Self {
        IdempotencyKey(format!("guard/{cluster}/{domain}/{}", at.as_second()))
    }

    /// The key of an executor (`holder`) recording at `at` that it follows a changed ledger.
    pub fn for_ledger_change(holder: &Actor, at: Timestamp) -> Self {
        IdempotencyKey(format!("ledger/{holder}/{}", at.as_nanosecond()))
    }

    /// The key of the lease on `scope` changing hands to fencing `token`.
    pub fn for_lease(scope: &LeaseScope, token: FencingToken) -> Self {
        IdempotencyKey(format!("lease/{scope}/{token}"))
    }

    /// Whether this is the key of an operator command (see [`IdempotencyKey::for_command`]).
    pub fn is_command(&self) -> bool {
        self.0.starts_with("cmd/")
    }

    /// The key of an operator command: unique per actor, time and the `process` that gives
    /// it (its id, read by the caller: the model reads no process state), since a person
    /// pausing twice means it twice.
    pub fn for_command(actor: &Actor, time: Timestamp, process: u32, what: &str) -> Self {
        IdempotencyKey(format!(
            "cmd/{actor}/{what}/{}/{process}",
            time.as_nanosecond()
        ))
    }
}

impl std::fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_key_has_one_shape_and_a_step_key_reads_back_its_purpose() {
        let (run, item, step) = (
            RunId::from("r1"),
            ItemId::from("n1"),
            StepName::from("Drain"),
        );
        let evict = IdempotencyKey::for_step(&run, &item, &step, "evict:shop/web-0", 2);
        assert_eq!(evict.0, "r1/n1/Drain/evict:shop/web-0#2");
        assert_eq!(evict.step_purpose(&step), Some("evict:shop/web-0"));
        assert_eq!(evict.step_purpose(&StepName::from("Cordon")), None);
        assert_eq!(evict.outcome().0, "r1/n1/Drain/evict:shop/web-0#2/outcome");
        assert_eq!(IdempotencyKey::for_run(&run, "planned").0, "r1/planned");
        assert_eq!(
            IdempotencyKey::for_item(&run, &item, "checkpoint@4/9").0,
            "r1/n1/checkpoint@4/9"
        );
        let at = Timestamp::from_second(1_800_000_000).unwrap();
        let cluster = ClusterId::from("c1");
        assert_eq!(
            IdempotencyKey::for_guard(&cluster, "a", at).0,
            "guard/c1/a/1800000000"
        );
        assert_eq!(
            IdempotencyKey::for_lease(&LeaseScope::fleet(), FencingToken(3)).0,
            "lease/fleet/3"
        );
        let command = IdempotencyKey::for_command(&Actor::from("bob@h"), at, 42, "pause");
        assert_eq!(command.0, "cmd/bob@h/pause/1800000000000000000/42");
        assert!(command.is_command() && !evict.is_command());
    }
}
