//! Identifiers that carry meaning, and the interner that lets many views share one string.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// A cluster's stable ledger id (not its kubeconfig context, which can change).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClusterId(pub Arc<str>);

/// A node's name, unique within one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeName(pub Arc<str>);

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

macro_rules! display_as_str {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl From<&str> for $t {
            fn from(s: &str) -> Self {
                Self(Arc::from(s))
            }
        }
        impl $t {
            /// The identifier as a string slice.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
    )*};
}
display_as_str!(ClusterId, NodeName);

impl fmt::Display for OwnerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.name)
    }
}

/// Hands out one shared `Arc<str>` per distinct string, so that label keys and values,
/// namespaces and owner kinds repeated across thousands of objects are stored once.
///
/// One interner per cluster (or per fleet) lives in the adapter that builds the views; it
/// only grows, which is fine because the set of distinct label strings is small.
///
/// Hashed with foldhash rather than SipHash: a fleet sync interns a dozen strings per pod,
/// millions in all, and the keys are short. foldhash is still seeded per process.
#[derive(Debug, Default)]
pub struct Interner {
    strings: HashSet<Arc<str>, foldhash::fast::RandomState>,
}

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
        shared
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
