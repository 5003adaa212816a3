//! Upgrade readiness across the fleet: a support matrix of validated combinations, the
//! APIs each release removed, and whether each cluster can take a Kubernetes minor
//! release before the first batch — pure decisions over facts read elsewhere.

pub mod gate;
pub mod matrix;
pub mod readiness;
pub mod removed;
pub mod version;

pub use matrix::{Support, SupportMatrix, Validated};
pub use readiness::{
    Blocker, BlockerKind, ClusterReadiness, DeprecatedRequest, Readiness, StoredVersions,
    UpgradeFacts, VersionUse, check,
};
pub use version::Minor;
