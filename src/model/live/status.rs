//! A cluster's status, derived from facts about its connection. Unknown is not healthy:
//! a cluster is `Synced` only with complete, fresh data.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

/// What the console shows for a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum ClusterStatus {
    /// Complete, fresh data from every watch.
    Synced,
    /// Reachable, but part of the data is missing, stale or unreadable.
    Degraded,
    /// First contact not finished yet.
    Connecting,
    /// The API server cannot be reached.
    Unreachable,
    /// The cluster cannot be reached for want of a usable credential: its plugin failed,
    /// timed out or needs a person to log in, or the server refused what it handed out.
    /// Not `Unreachable`: the server may be fine; the fix is the credential.
    Credentials,
    /// The cluster behind the context is not the one the ledger pins: every action refused.
    IdentityMismatch,
    /// We had data but have heard nothing for too long: it cannot be trusted.
    Unknown,
}

impl ClusterStatus {
    /// The label the console and tables print.
    pub fn label(self) -> &'static str {
        match self {
            ClusterStatus::Synced => "Synced",
            ClusterStatus::Degraded => "Degraded",
            ClusterStatus::Connecting => "Connecting",
            ClusterStatus::Unreachable => "Unreachable",
            ClusterStatus::Credentials => "Credentials",
            ClusterStatus::IdentityMismatch => "IdentityMismatch",
            ClusterStatus::Unknown => "UNKNOWN",
        }
    }

    /// Whether its data may be counted (capacity, health totals). Only `Synced` and
    /// `Degraded` clusters have data that is both ours and recent enough.
    pub fn data_usable(self) -> bool {
        matches!(self, ClusterStatus::Synced | ClusterStatus::Degraded)
    }

    /// Whether a change may be made to the cluster at all: only while something recent is
    /// known about it (`Synced`, or `Degraded`: reachable and fresh, partly failing). One
    /// nothing recent is known about, still connecting, or not the one pinned, gets none.
    /// The identity rule ([`super::may_change`]) applies on top.
    pub fn allows_actions(self) -> bool {
        matches!(self, ClusterStatus::Synced | ClusterStatus::Degraded)
    }
}

/// Where the cluster's sync loop is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "camelCase")]
pub enum SyncPhase {
    /// Building the client, checking identity, first lists running.
    Connecting,
    /// Every watch has listed at least once; `complete` is false while some resource is
    /// relisting or failing.
    Watching {
        /// All watches are listed and streaming.
        complete: bool,
    },
    /// The last attempt to talk to the API server failed.
    Failing {
        /// Whether the failure was reaching the server at all (refused, timed out).
        unreachable: bool,
    },
}

/// Facts the sync loop knows; [`classify`] turns them into a status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionFacts {
    /// Where the loop is.
    #[serde(flatten)]
    pub phase: SyncPhase,
    /// Last sign of life: a list page, a watch event or a bookmark.
    pub last_ok: Option<Timestamp>,
    /// Identity check failed.
    pub identity_mismatch: bool,
    /// Objects that could not be read (malformed quantities…).
    pub unreadable_objects: u32,
    /// Every watched resource has listed at least once on this connection, so the view
    /// is whole (if perhaps stale). Until then there is no data to judge by.
    pub listed: bool,
    /// An optional resource the server refuses to serve, and what the view lacks for it:
    /// the data is usable, the cluster reads `Degraded`.
    pub partial: Option<String>,
    /// Why the credential cannot be used, while it cannot: the cluster reads
    /// `Credentials` whenever it is not watching.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credentials: Option<super::CredentialProblem>,
}

impl ConnectionFacts {
    /// A cluster not connected yet: nothing seen, nothing judged.
    pub fn connecting() -> ConnectionFacts {
        ConnectionFacts {
            phase: SyncPhase::Connecting,
            last_ok: None,
            identity_mismatch: false,
            unreadable_objects: 0,
            listed: false,
            partial: None,
            credentials: None,
        }
    }
}

/// How old data may be before it is not trusted, unless configured otherwise: a watch
/// that saw neither an event nor a bookmark for this long may be hung.
pub const STALE_AFTER: Duration = Duration::from_secs(150);

/// The status for `facts` at `now`. Data older than `stale_after` is not trusted, whatever
/// the loop believes (a hung connection looks like a quiet one).
pub fn classify(facts: &ConnectionFacts, now: Timestamp, stale_after: Duration) -> ClusterStatus {
    if facts.identity_mismatch {
        return ClusterStatus::IdentityMismatch;
    }
    let fresh = facts
        .last_ok
        .is_some_and(|t| now.duration_since(t).unsigned_abs().le(&stale_after));
    // A cluster that cannot present a credential is neither connecting nor unreachable:
    // whatever the loop is doing, it is waiting for the credential.
    if facts.credentials.is_some() && !matches!(facts.phase, SyncPhase::Watching { .. }) {
        return ClusterStatus::Credentials;
    }
    match &facts.phase {
        SyncPhase::Connecting => ClusterStatus::Connecting,
        SyncPhase::Failing { unreachable: true } => ClusterStatus::Unreachable,
        // The server answered, with an error (403 on the kube-system namespace): it is
        // reachable, but nothing is known.
        SyncPhase::Failing { unreachable: false } if facts.last_ok.is_none() => {
            ClusterStatus::Unknown
        }
        // Failing before the first lists were complete: reachable, but nothing is known.
        SyncPhase::Failing { .. } if !facts.listed => ClusterStatus::Unknown,
        SyncPhase::Failing { .. } if fresh => ClusterStatus::Degraded,
        SyncPhase::Failing { .. } => ClusterStatus::Unknown,
        SyncPhase::Watching { .. } if !fresh => ClusterStatus::Unknown,
        SyncPhase::Watching { complete: true }
            if facts.unreadable_objects == 0 && facts.partial.is_none() =>
        {
            ClusterStatus::Synced
        }
        SyncPhase::Watching { .. } => ClusterStatus::Degraded,
    }
}

/// Why the data is not trusted when its age alone says so: nothing (no event, no
/// bookmark, no list page) was heard from the cluster for longer than `stale_after`. A
/// hung watch says nothing else, so this is the only reason an operator would get.
fn staleness(facts: &ConnectionFacts, now: Timestamp, stale_after: Duration) -> Option<String> {
    let age = now.duration_since(facts.last_ok?).unsigned_abs();
    (age > stale_after).then(|| {
        format!(
            "nothing heard for {} (no event or bookmark; data older than {} is not trusted)",
            crate::model::duration::format_duration(age),
            crate::model::duration::format_duration(stale_after)
        )
    })
}

/// What an operator reads as the reason a cluster is in its status at `now`: the silence
/// first when its data aged out (a hung watch says nothing else), with the last error
/// after it; else the last error; else which of its data is missing. The publisher and a
/// reader ageing a snapshot both ask this, so one cluster never reads two ways.
pub fn status_reason(
    facts: &ConnectionFacts,
    last_error: Option<&str>,
    now: Timestamp,
    stale_after: Duration,
) -> Option<String> {
    match (staleness(facts, now, stale_after), last_error) {
        (Some(silence), Some(error)) => Some(format!("{silence}; last error: {error}")),
        (Some(silence), None) => Some(silence),
        (None, Some(error)) => Some(error.to_owned()),
        (None, None) => facts.partial.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(phase: SyncPhase, age_secs: Option<i64>) -> (ConnectionFacts, Timestamp) {
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let last_ok =
            age_secs.map(|a| now.checked_sub(jiff::SignedDuration::from_secs(a)).unwrap());
        (
            ConnectionFacts {
                listed: !matches!(phase, SyncPhase::Connecting),
                phase,
                last_ok,
                identity_mismatch: false,
                unreadable_objects: 0,
                partial: None,
                credentials: None,
            },
            now,
        )
    }

    const STALE: Duration = Duration::from_secs(150);

    #[test]
    fn stale_data_says_how_long_nothing_was_heard() {
        let (f, now) = facts(SyncPhase::Watching { complete: true }, Some(200));
        assert_eq!(
            staleness(&f, now, STALE).as_deref(),
            Some(
                "nothing heard for 3m20s (no event or bookmark; data older than 2m30s is not trusted)"
            )
        );
        let (f, now) = facts(SyncPhase::Watching { complete: true }, Some(100));
        assert_eq!(staleness(&f, now, STALE), None);
        let (f, now) = facts(SyncPhase::Connecting, None);
        assert_eq!(
            staleness(&f, now, STALE),
            None,
            "nothing heard yet is not stale"
        );
    }

    #[test]
    fn the_reason_puts_the_silence_first_then_the_error_then_what_is_missing() {
        let (mut f, now) = facts(SyncPhase::Watching { complete: true }, Some(200));
        f.partial = Some("pods not listed".into());
        let reason = status_reason(&f, Some("watch pods: reset"), now, STALE).unwrap();
        assert!(reason.starts_with("nothing heard for 3m20s"), "{reason}");
        assert!(
            reason.ends_with("; last error: watch pods: reset"),
            "{reason}"
        );
        let (mut f, now) = facts(SyncPhase::Watching { complete: true }, Some(10));
        f.partial = Some("pods not listed".into());
        assert_eq!(
            status_reason(&f, Some("watch pods: reset"), now, STALE).as_deref(),
            Some("watch pods: reset")
        );
        assert_eq!(
            status_reason(&f, None, now, STALE).as_deref(),
            Some("pods not listed")
        );
    }

    #[test]
    fn fresh_complete_watches_are_synced() {
        let (f, now) = facts(SyncPhase::Watching { complete: true }, Some(10));
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Synced);
    }

    #[test]
    fn silence_is_unknown_not_healthy() {
        let (f, now) = facts(SyncPhase::Watching { complete: true }, Some(600));
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Unknown);
        assert!(!ClusterStatus::Unknown.data_usable());
    }

    #[test]
    fn failures_and_partial_data() {
        let (f, now) = facts(SyncPhase::Failing { unreachable: true }, Some(5));
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Unreachable);
        let (mut f, now) = facts(SyncPhase::Failing { unreachable: false }, Some(5));
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Degraded);
        f.listed = false;
        assert_eq!(
            classify(&f, now, STALE),
            ClusterStatus::Unknown,
            "a first list that fails leaves nothing to judge by"
        );
        assert!(!ClusterStatus::Unknown.data_usable());
        let (f, now) = facts(SyncPhase::Failing { unreachable: false }, None);
        assert_eq!(
            classify(&f, now, STALE),
            ClusterStatus::Unknown,
            "answered with an error: reachable, nothing known"
        );
        let (f, now) = facts(SyncPhase::Watching { complete: false }, Some(5));
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Degraded);
        let (mut f, now) = facts(SyncPhase::Watching { complete: true }, Some(5));
        f.unreadable_objects = 1;
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Degraded);
        let (f, now) = facts(SyncPhase::Connecting, None);
        assert_eq!(classify(&f, now, STALE), ClusterStatus::Connecting);
    }

    #[test]
    fn a_credential_problem_is_its_own_status_until_the_watches_run() {
        let problem = super::super::CredentialProblem {
            kind: super::super::ProblemKind::LoginNeeded,
            message: "open https://login.example/device".into(),
            since: Timestamp::from_second(1_800_000_000).unwrap(),
        };
        for phase in [
            SyncPhase::Connecting,
            SyncPhase::Failing { unreachable: true },
            SyncPhase::Failing { unreachable: false },
        ] {
            let (mut f, now) = facts(phase.clone(), Some(5));
            f.credentials = Some(problem.clone());
            assert_eq!(
                classify(&f, now, STALE),
                ClusterStatus::Credentials,
                "{phase:?}"
            );
        }
        let (mut f, now) = facts(SyncPhase::Watching { complete: true }, Some(5));
        f.credentials = Some(problem);
        assert_eq!(
            classify(&f, now, STALE),
            ClusterStatus::Synced,
            "watches that run were let in: the problem is old news"
        );
        assert!(!ClusterStatus::Credentials.allows_actions());
        assert!(!ClusterStatus::Credentials.data_usable());
    }

    #[test]
    fn identity_mismatch_wins() {
        let (mut f, now) = facts(SyncPhase::Watching { complete: true }, Some(1));
        f.identity_mismatch = true;
        assert_eq!(classify(&f, now, STALE), ClusterStatus::IdentityMismatch);
        assert!(!ClusterStatus::IdentityMismatch.allows_actions());
    }

    #[test]
    fn only_fresh_data_allows_changes() {
        for status in [ClusterStatus::Synced, ClusterStatus::Degraded] {
            assert!(status.allows_actions(), "{status:?}");
        }
        for status in [
            ClusterStatus::Connecting,
            ClusterStatus::Unreachable,
            ClusterStatus::Credentials,
            ClusterStatus::Unknown,
            ClusterStatus::IdentityMismatch,
        ] {
            assert!(!status.allows_actions(), "{status:?}");
        }
    }
}
