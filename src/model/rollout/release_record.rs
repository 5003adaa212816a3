//! Where a cluster records the release it runs: a ConfigMap the product writes after an
//! apply and reads back to compare, and the simulator serves like any other. The names are
//! shared by both, so they live here and neither imports the other.

/// The namespace of the release record.
pub const RELEASE_RECORD_NAMESPACE: &str = "kube-system";
/// The release record's name.
pub const RELEASE_RECORD: &str = "fleetdeck-release";
