//! The identities every layer speaks of: a cluster by its ledger id, a node by its name.
//! One type each, shared by the ledger, the fleet views, the journal and the planners, so a
//! cluster id read from a file, a watch or the journal is the same value everywhere. The
//! text is shared (`Arc<str>`): views of thousands of nodes clone names freely.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

macro_rules! identity {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Arc<str>);

        impl $name {
            /// The identity as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                Self(Arc::from(text))
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> Self {
                Self(Arc::from(text))
            }
        }

        impl From<&String> for $name {
            fn from(text: &String) -> Self {
                Self(Arc::from(text.as_str()))
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                &*self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                &*self.0 == *other
            }
        }
    };
}

identity!(
    /// A cluster's stable identifier in the ledger: never the display name, never a
    /// kubeconfig context (which can change).
    ClusterId
);

identity!(
    /// A Kubernetes node's name, unique within one cluster.
    NodeName
);

#[cfg(test)]
mod tests {
    use super::{ClusterId, NodeName};

    #[test]
    fn identities_read_and_write_as_plain_strings() {
        let id: ClusterId = serde_json::from_str("\"prod-01\"").unwrap();
        assert_eq!(id, ClusterId::from("prod-01"));
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"prod-01\"");
        assert_eq!(NodeName::from(String::from("n1")).to_string(), "n1");
        assert!(id == "prod-01");
    }
}
