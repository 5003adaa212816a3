//! The live state of each cluster as fleetdeck observes it: connection status with the age
//! of the data, pinned identity verdicts, the immutable fleet snapshot published to the
//! console and the engine, and drift between the ledger and what the clusters report.

mod cluster_loss;
mod credential;
pub(crate) mod drift;
mod identity;
mod snapshot;
mod status;

pub use cluster_loss::{ClusterLoss, SiblingRoom, cluster_loss};
pub use credential::{
    CredentialKind, CredentialProblem, CredentialReport, ProblemKind, asks_for_login, program_name,
    renew_at, retry_after,
};
pub use drift::{
    Drift, DriftKind, LedgerEdit, NotCompared, NotComparedWhy, find_drift, not_compared,
};
pub use identity::{ChangeRefusal, IdentityVerdict, ObservedIdentity, may_change, verify_identity};
pub use snapshot::{ClusterSnapshot, FleetSnapshot, StatusCounts, VersionCount};
pub use status::{ClusterStatus, ConnectionFacts, STALE_AFTER, SyncPhase, classify, status_reason};
