//! Shards: how several executors split the fleet between them.
//!
//! An executor acts for the whole fleet (one lease, `fleet`) or for one shard, written
//! `key=value` over a ledger field or label (`region=us-east`): its lease is named after
//! the shard, and it acts only on clusters whose ledger entry has that value. Shards of one
//! key own disjoint sets of clusters, so their executors may hold their leases at the same
//! time; the fleet lease and a shard lease, or shards of two keys (a cluster can be in
//! `region=us-east` and `tier=gold` at once), may not. The journal refuses such a lease
//! (see [`may_coexist`]); this module says who owns what.

use std::collections::BTreeMap;

use crate::model::ledger::{Cluster, ClusterId, Ledger, cluster_value};
use crate::model::run::LeaseScope;

/// Why a shard cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not `key=value`.
    #[error(
        "shard {given:?}: {why} (write it as KEY=VALUE over a ledger field or label, e.g. region=us-east)"
    )]
    Syntax {
        /// As given.
        given: String,
        /// What is wrong.
        why: &'static str,
    },
    /// The key names neither a cluster field nor a label any ledger cluster carries.
    #[error(
        "shard {shard}: no ledger cluster has a field or label {key:?} (fields: env, region, failureDomain, tier, owner, lifecycle, context; or a label)"
    )]
    UnknownKey {
        /// The shard.
        shard: Shard,
        /// Its key.
        key: String,
    },
    /// No ledger cluster is in the shard: an executor for it would never act.
    #[error("shard {shard} owns no ledger cluster ({key} values in the ledger: {known})")]
    Empty {
        /// The shard.
        shard: Shard,
        /// Its key.
        key: String,
        /// The values the ledger has for the key.
        known: String,
    },
}

/// One shard: the clusters whose ledger `key` is `value`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    key: String,
    value: String,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

fn plain(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

impl Shard {
    /// Reads `key=value`: both plain words (letters, digits, `-_./`).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let fail = |why| ShardError::Syntax {
            given: text.to_string(),
            why,
        };
        let (key, value) = text.trim().split_once('=').ok_or_else(|| fail("no '='"))?;
        if !plain(key) {
            return Err(fail("the key must be a word of letters, digits, -_./"));
        }
        if !plain(value) {
            return Err(fail("the value must be a word of letters, digits, -_./"));
        }
        Ok(Shard {
            key: key.to_string(),
            value: value.to_string(),
        })
    }

    /// The ledger field or label it splits by.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value its clusters have.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Whether the ledger puts `cluster` in this shard.
    pub fn owns(&self, cluster: &Cluster) -> bool {
        cluster_value(cluster, &self.key).as_deref() == Some(self.value.as_str())
    }

    /// The lease its executor holds.
    pub fn lease_scope(&self) -> LeaseScope {
        LeaseScope(self.to_string())
    }

    /// The shard a lease is named after (`None` for the fleet lease).
    pub fn of_scope(scope: &LeaseScope) -> Option<Shard> {
        if scope.0 == LeaseScope::fleet().0 {
            return None;
        }
        Shard::parse(&scope.0).ok()
    }

    /// Checks the shard against `ledger`: its key must be a field or a label some cluster
    /// carries, and at least one cluster must be in it. Returns the clusters it owns.
    pub fn check(&self, ledger: &Ledger) -> Result<Vec<ClusterId>, ShardError> {
        let values: Vec<String> = ledger
            .clusters
            .iter()
            .filter_map(|c| cluster_value(c, &self.key))
            .collect();
        if values.is_empty() {
            return Err(ShardError::UnknownKey {
                shard: self.clone(),
                key: self.key.clone(),
            });
        }
        let owned: Vec<ClusterId> = ledger
            .clusters
            .iter()
            .filter(|c| self.owns(c))
            .map(|c| c.id.clone())
            .collect();
        if owned.is_empty() {
            let mut known = values;
            known.sort();
            known.dedup();
            return Err(ShardError::Empty {
                shard: self.clone(),
                key: self.key.clone(),
                known: known.join(", "),
            });
        }
        Ok(owned)
    }
}

/// Whether executors holding `a` and `b` may act at the same time: only two shards of one
/// key (which own disjoint clusters). The fleet lease excludes every other lease, and
/// shards of two keys may overlap.
pub fn may_coexist(a: &LeaseScope, b: &LeaseScope) -> bool {
    if a == b {
        return false;
    }
    match (Shard::of_scope(a), Shard::of_scope(b)) {
        (Some(a), Some(b)) => a.key == b.key,
        _ => false,
    }
}

/// What one executor acts for, and which shard owns each ledger cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ownership {
    /// `None`: the whole fleet (every run, whatever its cluster).
    shard: Option<Shard>,
    /// Each ledger cluster's value of the shard key (absent when it has none).
    values: BTreeMap<ClusterId, String>,
}

impl Ownership {
    /// The whole fleet.
    pub fn fleet() -> Self {
        Ownership::default()
    }

    /// One shard of `ledger`.
    pub fn shard(shard: Shard, ledger: &Ledger) -> Self {
        let values = ledger
            .clusters
            .iter()
            .filter_map(|c| Some((c.id.clone(), cluster_value(c, shard.key())?)))
            .collect();
        Ownership {
            shard: Some(shard),
            values,
        }
    }

    /// The lease to hold.
    pub fn lease_scope(&self) -> LeaseScope {
        self.shard
            .as_ref()
            .map_or_else(LeaseScope::fleet, Shard::lease_scope)
    }

    /// The shard, when not the whole fleet.
    pub fn shard_name(&self) -> Option<&Shard> {
        self.shard.as_ref()
    }

    /// Whether this executor acts on `cluster`.
    pub fn owns(&self, cluster: &ClusterId) -> bool {
        match &self.shard {
            None => true,
            Some(shard) => self.values.get(cluster) == Some(&shard.value),
        }
    }

    /// The shard that acts on `cluster` (`None`: the fleet's executor, or no shard has it).
    pub fn owner_of(&self, cluster: &ClusterId) -> Option<Shard> {
        let shard = self.shard.as_ref()?;
        Some(Shard {
            key: shard.key.clone(),
            value: self.values.get(cluster)?.clone(),
        })
    }

    /// Whether this executor drives a run over `clusters` (in plan order) as a whole: its
    /// gates, batches and approvals. That is the owner of the first cluster any shard owns
    /// (the run's home); the items of other shards are carried out by their owners.
    pub fn coordinates(&self, clusters: &[ClusterId]) -> bool {
        if self.shard.is_none() {
            return true;
        }
        clusters
            .iter()
            .find(|c| self.values.contains_key(*c))
            .is_some_and(|home| self.owns(home))
    }
}

/// A call on a cluster that a rollout's coordinator hands to the executor of the shard
/// that owns the cluster (journaled as `rollout.dispatched`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ShardCall {
    /// Apply the release under the apply intent the coordinator journaled; the owner
    /// journals the intent's outcome.
    Apply,
    /// Read the release record the cluster keeps (the deployed id).
    Read,
    /// Run the release's checks until they pass, fail, or time out.
    Verify,
}

impl ShardCall {
    /// The word in keys and messages.
    pub fn word(self) -> &'static str {
        match self {
            ShardCall::Apply => "apply",
            ShardCall::Read => "read",
            ShardCall::Verify => "verify",
        }
    }
}

/// What the owner's executor found, for a read or a verification (an apply answers with
/// its intent's outcome).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "call", rename_all = "camelCase")]
pub enum ShardAnswer {
    /// The cluster's release record.
    Read {
        /// What it shows.
        seen: crate::model::rollout::AppliedSeen,
    },
    /// The checks' verdict.
    Verify {
        /// How they came out.
        outcome: crate::model::rollout::VerifyOutcome,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> ClusterId {
        ClusterId(s.into())
    }

    fn scope(s: &str) -> LeaseScope {
        LeaseScope(s.into())
    }

    #[test]
    fn a_shard_is_key_equals_value_of_plain_words() {
        let shard = Shard::parse("region=us-east").unwrap();
        assert_eq!((shard.key(), shard.value()), ("region", "us-east"));
        assert_eq!(shard.lease_scope(), scope("region=us-east"));
        assert_eq!(Shard::of_scope(&shard.lease_scope()), Some(shard));
        assert_eq!(Shard::of_scope(&LeaseScope::fleet()), None);
        for bad in [
            "region",
            "=x",
            "region=",
            "re gion=x",
            "region=us east",
            "a=b=c",
        ] {
            let error = Shard::parse(bad).unwrap_err();
            assert!(error.to_string().contains("KEY=VALUE"), "{bad}: {error}");
        }
    }

    #[test]
    fn only_shards_of_one_key_coexist() {
        assert!(may_coexist(
            &scope("region=us-east"),
            &scope("region=eu-west")
        ));
        assert!(!may_coexist(
            &scope("region=us-east"),
            &scope("region=us-east")
        ));
        assert!(!may_coexist(&scope("region=us-east"), &scope("tier=gold")));
        assert!(!may_coexist(&LeaseScope::fleet(), &scope("region=us-east")));
        assert!(!may_coexist(&scope("region=us-east"), &LeaseScope::fleet()));
    }

    fn ownership(shard: &str, values: &[(&str, &str)]) -> Ownership {
        Ownership {
            shard: Some(Shard::parse(shard).unwrap()),
            values: values.iter().map(|(c, v)| (id(c), v.to_string())).collect(),
        }
    }

    #[test]
    fn a_shard_owns_its_clusters_and_knows_the_owner_of_the_others() {
        let east = ownership("region=us-east", &[("a", "us-east"), ("b", "eu-west")]);
        assert!(east.owns(&id("a")));
        assert!(!east.owns(&id("b")));
        assert!(!east.owns(&id("not-in-ledger")));
        assert_eq!(
            east.owner_of(&id("b")),
            Some(Shard::parse("region=eu-west").unwrap())
        );
        assert_eq!(east.owner_of(&id("not-in-ledger")), None);
        let fleet = Ownership::fleet();
        assert!(fleet.owns(&id("anything")));
        assert_eq!(fleet.owner_of(&id("a")), None);
        assert_eq!(fleet.lease_scope(), LeaseScope::fleet());
    }

    #[test]
    fn a_run_is_coordinated_by_the_owner_of_its_first_sharded_cluster() {
        let east = ownership("region=us-east", &[("a", "us-east"), ("b", "eu-west")]);
        let west = ownership("region=eu-west", &[("a", "us-east"), ("b", "eu-west")]);
        let order = [id("gone"), id("b"), id("a")];
        assert!(west.coordinates(&order));
        assert!(!east.coordinates(&order));
        assert!(Ownership::fleet().coordinates(&order));
        assert!(!east.coordinates(&[id("gone")]), "nobody's home: nobody");
    }
}
