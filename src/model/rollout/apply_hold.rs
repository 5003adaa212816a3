//! Whether a rollout's apply to one cluster must wait, and for what: the same switches
//! that hold a node's maintenance hold a release — the cluster frozen, a failure domain of
//! it paused (by the mass-failure guard, or by a person), or a cluster that may not be
//! changed (its identity not confirmed against the ledger's pin, nothing recent known
//! about it). The fleet-wide and per-run pauses hold the whole run and are judged there.

use std::collections::BTreeMap;

use crate::model::ledger::ClusterId;
use crate::model::run::{PauseScope, PauseSwitch};

/// Why an apply waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyHold {
    /// The cluster is frozen (a cluster pause).
    Frozen {
        /// The cluster.
        cluster: String,
        /// Who froze it.
        by: String,
        /// Why.
        reason: String,
    },
    /// A failure domain of the cluster is paused: a release changes the whole cluster,
    /// the paused domain with it.
    DomainPaused {
        /// The cluster.
        cluster: String,
        /// The domain (a zone, usually).
        domain: String,
        /// Set by the mass-failure guard (then only a person's resume clears it).
        by_guard: bool,
        /// Who paused it.
        by: String,
        /// Why.
        reason: String,
    },
    /// The cluster may not be changed now.
    MayNotChange {
        /// The cluster.
        cluster: String,
        /// Why, as the change rule says it.
        why: String,
    },
    /// The cluster is outside its maintenance window (and no override is in force).
    OutsideWindow {
        /// The cluster.
        cluster: String,
        /// The wait in words, with when the window opens.
        why: String,
    },
}

impl ApplyHold {
    /// The suffix of the journal record that notes this wait (once per apply and kind of
    /// wait): `frozen`, `domain-paused`, `not-changeable`.
    pub fn key_suffix(&self) -> &'static str {
        match self {
            ApplyHold::Frozen { .. } => "frozen",
            ApplyHold::DomainPaused { .. } => "domain-paused",
            ApplyHold::MayNotChange { .. } => "not-changeable",
            ApplyHold::OutsideWindow { .. } => "outside-window",
        }
    }
}

impl std::fmt::Display for ApplyHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyHold::Frozen {
                cluster,
                by,
                reason,
            } => write!(f, "apply waits: {cluster} is frozen ({reason} by {by})"),
            ApplyHold::DomainPaused {
                cluster,
                domain,
                by_guard: true,
                reason,
                ..
            } => write!(
                f,
                "apply waits: failure domain {domain} of {cluster} is paused by the mass-failure guard ({reason}); it goes on once a person runs `fleetdeck resume --domain {cluster}/{domain}`"
            ),
            ApplyHold::DomainPaused {
                cluster,
                domain,
                by,
                reason,
                ..
            } => write!(
                f,
                "apply waits: failure domain {domain} of {cluster} is paused ({reason} by {by})"
            ),
            ApplyHold::MayNotChange { cluster, why } => {
                write!(f, "apply waits: {cluster} may not be changed: {why}")
            }
            ApplyHold::OutsideWindow { why, .. } => write!(f, "apply waits: {why}"),
        }
    }
}

/// What holds an apply to `cluster`, if anything: a freeze first, then a paused failure
/// domain of it (the guard's before a person's), then `change_refused`, the change rule's
/// refusal for the cluster as the executor sees it now.
pub fn apply_hold(
    pauses: &BTreeMap<PauseScope, PauseSwitch>,
    cluster: &ClusterId,
    change_refused: Option<&str>,
) -> Option<ApplyHold> {
    if let Some(p) = pauses.get(&PauseScope::Cluster {
        cluster: cluster.clone(),
    }) {
        return Some(ApplyHold::Frozen {
            cluster: cluster.0.clone(),
            by: p.by.0.clone(),
            reason: p.reason.clone(),
        });
    }
    let domain = pauses
        .values()
        .filter_map(|p| match &p.scope {
            PauseScope::FailureDomain { cluster: c, domain } if c == cluster => Some((domain, p)),
            _ => None,
        })
        // The guard's pause is the one that needs a person: name it first.
        .max_by_key(|(_, p)| p.by_guard);
    if let Some((domain, p)) = domain {
        return Some(ApplyHold::DomainPaused {
            cluster: cluster.0.clone(),
            domain: domain.clone(),
            by_guard: p.by_guard,
            by: p.by.0.clone(),
            reason: p.reason.clone(),
        });
    }
    change_refused.map(|why| ApplyHold::MayNotChange {
        cluster: cluster.0.clone(),
        why: why.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::Actor;

    fn switch(scope: PauseScope, by_guard: bool) -> (PauseScope, PauseSwitch) {
        (
            scope.clone(),
            PauseSwitch {
                scope,
                reason: "suspect shared dependency: 3 of 4 nodes in zone-a turned NotReady".into(),
                by: Actor(if by_guard { "executor@x" } else { "bob@ops" }.into()),
                since: jiff::Timestamp::UNIX_EPOCH,
                by_guard,
            },
        )
    }

    fn domain(cluster: &str, domain: &str) -> PauseScope {
        PauseScope::FailureDomain {
            cluster: ClusterId(cluster.into()),
            domain: domain.into(),
        }
    }

    #[test]
    fn a_guard_paused_domain_holds_applies_to_its_cluster_only() {
        let pauses = BTreeMap::from([switch(domain("c1", "zone-a"), true)]);
        let c1 = ClusterId("c1".into());
        let hold = apply_hold(&pauses, &c1, None).expect("held");
        assert_eq!(hold.key_suffix(), "domain-paused");
        assert_eq!(
            hold.to_string(),
            "apply waits: failure domain zone-a of c1 is paused by the mass-failure guard (suspect shared dependency: 3 of 4 nodes in zone-a turned NotReady); it goes on once a person runs `fleetdeck resume --domain c1/zone-a`"
        );
        assert_eq!(apply_hold(&pauses, &ClusterId("c2".into()), None), None);
    }

    #[test]
    fn a_freeze_is_named_before_a_domain_and_a_domain_before_a_refusal() {
        let c1 = ClusterId("c1".into());
        let mut pauses = BTreeMap::from([
            switch(domain("c1", "zone-a"), false),
            switch(domain("c1", "zone-b"), true),
        ]);
        let hold = apply_hold(&pauses, &c1, Some("identity mismatch")).expect("held");
        assert!(
            matches!(&hold, ApplyHold::DomainPaused { domain, by_guard: true, .. } if domain == "zone-b"),
            "{hold:?}"
        );
        pauses.extend([switch(
            PauseScope::Cluster {
                cluster: c1.clone(),
            },
            false,
        )]);
        assert_eq!(
            apply_hold(&pauses, &c1, None).map(|h| h.key_suffix()),
            Some("frozen")
        );
        assert_eq!(
            apply_hold(
                &BTreeMap::new(),
                &c1,
                Some("identity mismatch: kube-system UID differs")
            )
            .map(|h| h.to_string()),
            Some(
                "apply waits: c1 may not be changed: identity mismatch: kube-system UID differs"
                    .into()
            )
        );
        assert_eq!(apply_hold(&BTreeMap::new(), &c1, None), None);
    }
}
