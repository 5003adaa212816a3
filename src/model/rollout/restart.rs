//! Restart, pure: an apply journaled without an outcome is settled by reading the digest
//! the cluster reports (the deployed id), never by assuming.

use serde::{Deserialize, Serialize};

use super::digest::ReleaseDigest;

/// What a cluster reports as its applied release after a restart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "seen", rename_all = "camelCase")]
pub enum AppliedSeen {
    /// The cluster records this digest as applied.
    Digest {
        /// The digest.
        digest: ReleaseDigest,
    },
    /// The cluster records no fleetdeck release.
    Nothing,
    /// The cluster could not be read: decide nothing yet.
    Unreachable {
        /// Why.
        why: String,
    },
}

/// How an apply without outcome is settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ApplyResolution {
    /// The cluster runs the intended digest: record it, do not apply again.
    Happened,
    /// It does not: the apply may be requested again (server-side apply and
    /// `helm upgrade` converge, so a second request cannot double the change).
    NotDone,
    /// Cannot tell yet: ask the cluster again later.
    Unknown {
        /// Why.
        why: String,
    },
}

/// Settles an apply of `intended` from what the cluster shows.
pub fn reconcile_apply(intended: &ReleaseDigest, seen: &AppliedSeen) -> ApplyResolution {
    match seen {
        AppliedSeen::Digest { digest } if digest == intended => ApplyResolution::Happened,
        AppliedSeen::Digest { .. } | AppliedSeen::Nothing => ApplyResolution::NotDone,
        AppliedSeen::Unreachable { why } => ApplyResolution::Unknown { why: why.clone() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deployed_digest_decides() {
        let d = ReleaseDigest("sha256:aa".into());
        let other = ReleaseDigest("sha256:bb".into());
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Digest { digest: d.clone() }),
            ApplyResolution::Happened
        );
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Digest { digest: other }),
            ApplyResolution::NotDone
        );
        assert_eq!(
            reconcile_apply(&d, &AppliedSeen::Nothing),
            ApplyResolution::NotDone
        );
        assert!(matches!(
            reconcile_apply(
                &d,
                &AppliedSeen::Unreachable {
                    why: "timeout".into()
                }
            ),
            ApplyResolution::Unknown { .. }
        ));
    }
}
