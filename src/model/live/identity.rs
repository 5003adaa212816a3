//! Pinned identity: a ledger cluster is the cluster whose kube-system namespace has the
//! pinned UID, reached at the pinned API server. Anything else blocks every action.

use serde::Serialize;

use crate::model::ledger::Identity;

/// What the cluster behind a context says it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedIdentity {
    /// UID of its kube-system namespace.
    #[serde(rename = "kubeSystemUID")]
    pub kube_system_uid: String,
    /// The server URL we reached it at.
    pub server: String,
}

/// The outcome of comparing the pinned identity with the observed one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum IdentityVerdict {
    /// UID and server both match.
    Match,
    /// The ledger pins nothing: reading is fine, acting is refused.
    NotPinned,
    /// Something differs.
    Mismatch {
        /// What differs, in words.
        reason: String,
    },
}

impl IdentityVerdict {
    /// Whether this verdict blocks the cluster (not-pinned blocks actions, not reads).
    pub fn is_mismatch(&self) -> bool {
        matches!(self, IdentityVerdict::Mismatch { .. })
    }
}

/// Why fleetdeck will not change a cluster.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeRefusal {
    /// The ledger pins no identity: reading is fine, changing is not.
    #[error("the ledger pins no identity")]
    NotPinned,
    /// The cluster behind the context is not the one the ledger pins.
    #[error("identity mismatch: {0}")]
    Mismatch(String),
    /// The identity has not been compared yet (the cluster has not answered).
    #[error("identity not confirmed yet")]
    NotConfirmed,
}

impl ChangeRefusal {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language (what did not match is shown as found).
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::i18n::Msg;
        match self {
            ChangeRefusal::NotPinned => Msg::new("reason-identity-not-pinned"),
            ChangeRefusal::Mismatch(why) => Msg::new("reason-identity-mismatch").arg("why", why),
            ChangeRefusal::NotConfirmed => Msg::new("reason-identity-not-confirmed"),
        }
    }

    /// Whether asking again later may give another answer (only an identity not yet
    /// compared may still turn out to match).
    pub fn may_change_later(&self) -> bool {
        matches!(self, ChangeRefusal::NotConfirmed)
    }
}

/// The one rule for acting on a cluster, wherever fleetdeck acts (starting maintenance,
/// its precheck, a rollout's changes): only when the identity the ledger pins was compared
/// with the cluster's and matched. `None` is a verdict not reached yet.
pub fn may_change(verdict: Option<&IdentityVerdict>) -> Result<(), ChangeRefusal> {
    match verdict {
        Some(IdentityVerdict::Match) => Ok(()),
        Some(IdentityVerdict::NotPinned) => Err(ChangeRefusal::NotPinned),
        Some(IdentityVerdict::Mismatch { reason }) => Err(ChangeRefusal::Mismatch(reason.clone())),
        None => Err(ChangeRefusal::NotConfirmed),
    }
}

fn normalise(server: &str) -> &str {
    server.trim_end_matches('/')
}

/// Compares `pinned` (from the ledger) with `observed` (from the cluster).
pub fn verify_identity(pinned: Option<&Identity>, observed: &ObservedIdentity) -> IdentityVerdict {
    let Some(pinned) = pinned else {
        return IdentityVerdict::NotPinned;
    };
    let mut reasons = Vec::new();
    if observed.kube_system_uid.trim().is_empty() {
        // Nothing to compare: an absent UID never vouches for a cluster.
        reasons.push("the cluster reports no kube-system UID".to_string());
    } else if pinned.kube_system_uid != observed.kube_system_uid {
        reasons.push(format!(
            "kube-system UID is {} but the ledger pins {}",
            observed.kube_system_uid, pinned.kube_system_uid
        ));
    }
    if normalise(&pinned.server) != normalise(&observed.server) {
        reasons.push(format!(
            "server is {} but the ledger pins {}",
            observed.server, pinned.server
        ));
    }
    if reasons.is_empty() {
        IdentityVerdict::Match
    } else {
        IdentityVerdict::Mismatch {
            reason: reasons.join("; "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_refusal_says_its_english_as_a_message_and_in_chinese() {
        use crate::i18n::Lang;
        let all = [
            ChangeRefusal::NotPinned,
            ChangeRefusal::Mismatch("kube-system UID is a but the ledger pins b".into()),
            ChangeRefusal::NotConfirmed,
        ];
        for refusal in &all {
            assert_eq!(refusal.msg().text(Lang::En), refusal.to_string());
        }
        assert_eq!(
            all[1].msg().text(Lang::ZhCn),
            "身份不匹配：kube-system UID is a but the ledger pins b"
        );
        assert_eq!(all[0].msg().text(Lang::ZhCn), "台账未固定身份");
    }

    fn pinned() -> Identity {
        Identity {
            kube_system_uid: "uid-1".into(),
            server: "https://a:6443".into(),
        }
    }

    #[test]
    fn matching_identity() {
        let observed = ObservedIdentity {
            kube_system_uid: "uid-1".into(),
            server: "https://a:6443/".into(),
        };
        assert_eq!(
            verify_identity(Some(&pinned()), &observed),
            IdentityVerdict::Match
        );
        assert_eq!(verify_identity(None, &observed), IdentityVerdict::NotPinned);
    }

    #[test]
    fn only_a_matching_pinned_identity_may_be_changed() {
        assert_eq!(may_change(Some(&IdentityVerdict::Match)), Ok(()));
        assert_eq!(
            may_change(Some(&IdentityVerdict::NotPinned)),
            Err(ChangeRefusal::NotPinned)
        );
        let mismatch = IdentityVerdict::Mismatch {
            reason: "server is https://b but the ledger pins https://a".into(),
        };
        let refusal = may_change(Some(&mismatch)).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "identity mismatch: server is https://b but the ledger pins https://a"
        );
        assert!(!refusal.may_change_later());
        assert_eq!(may_change(None), Err(ChangeRefusal::NotConfirmed));
        assert!(ChangeRefusal::NotConfirmed.may_change_later());
    }

    #[test]
    fn an_absent_uid_never_matches() {
        let blank = Identity {
            kube_system_uid: String::new(),
            server: "https://a:6443".into(),
        };
        let observed = ObservedIdentity {
            kube_system_uid: String::new(),
            server: "https://a:6443".into(),
        };
        assert!(verify_identity(Some(&blank), &observed).is_mismatch());
        assert!(verify_identity(Some(&pinned()), &observed).is_mismatch());
    }

    #[test]
    fn a_different_uid_is_a_mismatch_naming_both() {
        let observed = ObservedIdentity {
            kube_system_uid: "uid-2".into(),
            server: "https://a:6443".into(),
        };
        assert_eq!(
            verify_identity(Some(&pinned()), &observed),
            IdentityVerdict::Mismatch {
                reason: "kube-system UID is uid-2 but the ledger pins uid-1".into()
            }
        );
    }
}
