//! Identifiers that carry meaning, and the interner that lets many views share one string.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

pub use crate::model::identity::{ClusterId, NodeName};

/// The controller that owns a pod (its first controller owner reference), which is what
/// operators think in when pods cannot be placed: "Deployment ml/trainer: 4 pods".
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OwnerRef {
    /// Owner kind as the API reports it: `ReplicaSet`, `StatefulSet`, `DaemonSet`, `Node`…
    pub kind: Arc<str>,
    /// Owner name within the pod's namespace.
    pub name: Arc<str>,
}

impl OwnerRef {
    /// True for owners whose pods are bound to their node and are never re-placed
    /// elsewhere when the node goes away (DaemonSet pods and static/mirror pods).
    pub fn is_node_bound(&self) -> bool {
        matches!(&*self.kind, "DaemonSet" | "Node")
    }
}

impl fmt::Display for OwnerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.name)
    }
}

/// Hands out one shared `Arc<str>` per distinct string, so that label keys and values,
/// namespaces and owner kinds repeated across thousands of objects are stored once.
///
/// One interner per cluster resource lives in the adapter that builds the views, for as
/// long as the console runs. Some interned strings come and go with the objects (the
/// `pod-template-hash` of every new ReplicaSet, owner names), so the interner forgets the
/// strings no view holds any more whenever it has doubled since it last did: memory
/// follows what the cluster holds now, not everything it ever held, at an amortised cost
/// of one pass per doubling.
///
/// Hashed with foldhash rather than SipHash: a fleet sync interns a dozen strings per pod,
/// millions in all, and the keys are short. foldhash is still seeded per process.
#[derive(Debug, Default)]
pub struct Interner {
    strings: HashSet<Arc<str>, foldhash::fast::RandomState>,
    /// The size at which unused strings are next looked for.
    prune_at: usize,
}

/// Below this many strings the interner never looks for unused ones.
const MIN_PRUNE_AT: usize = 4096;

impl Interner {
    /// Creates an empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the shared copy of `s`, creating it on first sight.
    pub fn intern(&mut self, s: &str) -> Arc<str> {
        if let Some(existing) = self.strings.get(s) {
            return Arc::clone(existing);
        }
        let shared: Arc<str> = Arc::from(s);
        self.strings.insert(Arc::clone(&shared));
        if self.strings.len() >= self.prune_at.max(MIN_PRUNE_AT) {
            self.prune();
        }
        shared
    }

    /// Forgets the strings that only the interner still holds (no view refers to them).
    /// A string is never handed out again once forgotten, so sharing is unaffected: the
    /// next object that needs it interns a fresh copy.
    pub fn prune(&mut self) {
        self.strings.retain(|s| Arc::strong_count(s) > 1);
        self.prune_at = self.strings.len().saturating_mul(2);
    }

    /// Number of distinct strings held.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    /// True when nothing has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interned_strings_share_storage() {
        let mut interner = Interner::new();
        let a = interner.intern("topology.kubernetes.io/zone");
        let b = interner.intern("topology.kubernetes.io/zone");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(interner.len(), 1);
    }

    #[test]
    fn strings_no_view_holds_are_forgotten_as_the_interner_grows() {
        let mut interner = Interner::new();
        let kept = interner.intern("kept");
        // A long-running watch: every object's hash label is new and soon dropped.
        for i in 0..100_000 {
            drop(interner.intern(&format!("pod-template-hash-{i}")));
        }
        assert!(
            interner.len() <= 2 * MIN_PRUNE_AT,
            "{} strings held",
            interner.len()
        );
        assert!(Arc::ptr_eq(&kept, &interner.intern("kept")));
        interner.prune();
        assert_eq!(interner.len(), 1);
    }

    #[test]
    fn strings_still_held_survive_a_prune() {
        let mut interner = Interner::new();
        let held: Vec<Arc<str>> = (0..10_000)
            .map(|i| interner.intern(&i.to_string()))
            .collect();
        assert_eq!(interner.len(), 10_000);
        for (i, s) in held.iter().enumerate() {
            assert!(Arc::ptr_eq(s, &interner.intern(&i.to_string())));
        }
    }

    #[test]
    fn daemonset_and_static_pods_are_node_bound() {
        let owner = |kind: &str| OwnerRef {
            kind: Arc::from(kind),
            name: Arc::from("x"),
        };
        assert!(owner("DaemonSet").is_node_bound());
        assert!(owner("Node").is_node_bound());
        assert!(!owner("ReplicaSet").is_node_bound());
    }
}
