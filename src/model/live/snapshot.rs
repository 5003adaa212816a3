//! The fleet snapshot: an immutable, versioned view of every cluster, cheap to clone
//! (everything behind `Arc`), published to the console and the engine.

use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::Timestamp;
use serde::Serialize;

use super::identity::{IdentityVerdict, ObservedIdentity};
use super::status::{ClusterStatus, ConnectionFacts, classify, status_reason};
use crate::i18n::Msg;
use crate::model::fleet::{ClusterView, Readiness};

/// How many nodes report one version string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionCount {
    /// The version as reported.
    pub version: Arc<str>,
    /// Nodes reporting it.
    pub nodes: u32,
}

/// One cluster at one moment.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSnapshot {
    /// Ledger id.
    pub id: Arc<str>,
    /// Status at the time the snapshot was taken.
    pub status: ClusterStatus,
    /// What the status was derived from.
    pub facts: ConnectionFacts,
    /// Identity the cluster reported, once reached.
    pub identity: Option<ObservedIdentity>,
    /// Verdict against the ledger's pin.
    pub identity_verdict: Option<IdentityVerdict>,
    /// `/version` gitVersion.
    pub server_version: Option<String>,
    /// Why the cluster reads as it does, in words ([`super::status_reason`]: the silence,
    /// the last error, what data is missing).
    pub last_error: Option<String>,
    /// The last error alone, as the sync met it: what a reader ageing the snapshot builds
    /// the reason from again.
    #[serde(skip)]
    pub error: Option<String>,
    /// Kubelet versions across nodes.
    pub kubelet_versions: Vec<VersionCount>,
    /// Kernel versions across nodes.
    pub kernel_versions: Vec<VersionCount>,
    /// Container runtime versions across nodes.
    pub runtime_versions: Vec<VersionCount>,
    /// NVIDIA driver versions across the nodes GPU feature discovery labelled.
    pub gpu_driver_versions: Vec<VersionCount>,
    /// Requests sent to this cluster so far.
    pub requests_sent: u64,
    /// The credential the cluster is reached with, as the credential layer last saw it
    /// (none before the first connection attempt).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<super::CredentialReport>,
    /// The facts the findings judge, as last read (none before the first round, or when
    /// findings are not read).
    #[serde(skip)]
    pub findings: Option<Arc<crate::model::findings::ClusterFacts>>,
    /// Nodes, pods and PDBs as slim views (empty until first synced).
    #[serde(skip)]
    pub view: Arc<ClusterView>,
}

impl ClusterSnapshot {
    /// Why no change may be made to this cluster now, if so: its identity is not the one
    /// pinned or not confirmed ([`super::may_change`]), or nothing recent is known about
    /// it ([`ClusterStatus::allows_actions`]). The one rule every adapter asks before it
    /// changes a cluster.
    pub fn change_refusal(&self) -> Option<String> {
        self.change_refusal_said().map(|(english, _)| english)
    }

    /// [`ClusterSnapshot::change_refusal`] with the same sentence as a message for the
    /// reader's language.
    pub fn change_refusal_said(&self) -> Option<(String, Msg)> {
        let stale = || {
            (
                format!(
                    "nothing recent is known about it: cluster is {}",
                    self.status.label()
                ),
                Msg::new("reason-cluster-stale").arg("status", self.status.label()),
            )
        };
        // A known mismatch is said first, whatever else; otherwise an unreachable or
        // unknown cluster says so: its identity is then unconfirmed only because nothing
        // answers, and "not confirmed" would hide why.
        let mismatch = self
            .identity_verdict
            .as_ref()
            .is_some_and(|verdict| verdict.is_mismatch());
        if !mismatch
            && !self.status.allows_actions()
            && self.status != ClusterStatus::IdentityMismatch
        {
            return Some(stale());
        }
        if let Err(refusal) = super::may_change(self.identity_verdict.as_ref()) {
            return Some((refusal.to_string(), refusal.msg()));
        }
        (!self.status.allows_actions()).then(stale)
    }

    /// A cluster not connected yet: status Connecting, nothing observed, an empty view.
    pub fn connecting(id: &str) -> ClusterSnapshot {
        let id: Arc<str> = Arc::from(id);
        ClusterSnapshot {
            id: Arc::clone(&id),
            status: ClusterStatus::Connecting,
            facts: ConnectionFacts::connecting(),
            identity: None,
            identity_verdict: None,
            server_version: None,
            last_error: None,
            error: None,
            kubelet_versions: Vec::new(),
            kernel_versions: Vec::new(),
            gpu_driver_versions: Vec::new(),
            runtime_versions: Vec::new(),
            requests_sent: 0,
            credential: None,
            findings: None,
            view: Arc::new(ClusterView::empty(crate::model::fleet::ClusterId(id))),
        }
    }

    /// (Ready nodes, all nodes). Zero ready when the data is not usable: unknown is not
    /// healthy.
    pub fn nodes_ready(&self) -> (usize, usize) {
        let total = self.view.nodes.len();
        if !self.status.data_usable() {
            return (0, total);
        }
        let ready = self
            .view
            .nodes
            .iter()
            .filter(|n| n.readiness == Readiness::Ready)
            .count();
        (ready, total)
    }

    /// Counts node versions, most common first (ties by version string).
    pub fn count_versions<'a>(versions: impl Iterator<Item = &'a Arc<str>>) -> Vec<VersionCount> {
        let mut counts: BTreeMap<Arc<str>, u32> = BTreeMap::new();
        for v in versions {
            *counts.entry(Arc::clone(v)).or_default() += 1;
        }
        let mut out: Vec<VersionCount> = counts
            .into_iter()
            .map(|(version, nodes)| VersionCount { version, nodes })
            .collect();
        out.sort_by(|a, b| {
            b.nodes
                .cmp(&a.nodes)
                .then_with(|| a.version.cmp(&b.version))
        });
        out
    }
}

/// Clusters per status, for the always-visible fleet summary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StatusCounts(pub BTreeMap<ClusterStatus, usize>);

/// The whole fleet at one moment.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetSnapshot {
    /// Increases with every published snapshot.
    pub version: u64,
    /// When it was taken.
    pub taken_at: Timestamp,
    /// One entry per ledger cluster, in ledger order.
    pub clusters: Arc<[Arc<ClusterSnapshot>]>,
}

impl FleetSnapshot {
    /// An empty snapshot (version 0) before anything is known.
    pub fn empty() -> Self {
        FleetSnapshot {
            version: 0,
            taken_at: Timestamp::UNIX_EPOCH,
            clusters: Arc::from(Vec::new()),
        }
    }

    /// Why no change may be made to cluster `id` now, if so: the one rule every change
    /// obeys ([`ClusterSnapshot::change_refusal`]), and a cluster this view does not hold
    /// may not be changed either.
    pub fn change_refusal(&self, id: &str) -> Option<String> {
        self.change_refusal_said(id).map(|(english, _)| english)
    }

    /// [`FleetSnapshot::change_refusal`] with the same sentence as a message for the
    /// reader's language.
    pub fn change_refusal_said(&self, id: &str) -> Option<(String, Msg)> {
        match self.cluster(id) {
            Some(cluster) => cluster.change_refusal_said(),
            None => Some((
                "not in the fleet view".to_owned(),
                Msg::new("reason-cluster-not-in-view"),
            )),
        }
    }

    /// The cluster with this ledger id.
    pub fn cluster(&self, id: &str) -> Option<&Arc<ClusterSnapshot>> {
        self.clusters.iter().find(|c| &*c.id == id)
    }

    /// Clusters per status.
    pub fn status_counts(&self) -> StatusCounts {
        let mut counts = StatusCounts::default();
        for c in self.clusters.iter() {
            *counts.0.entry(c.status).or_default() += 1;
        }
        counts
    }

    /// The snapshot as it must read at `now`: a cluster whose data went stale after the
    /// snapshot was taken — its publisher stalled or gone, so no newer snapshot says so —
    /// reads `Unknown` rather than the usable status it had. `None` when nothing aged.
    pub fn aged(&self, now: Timestamp, stale_after: std::time::Duration) -> Option<Self> {
        let mut aged = false;
        let clusters: Vec<Arc<ClusterSnapshot>> = self
            .clusters
            .iter()
            .map(|c| {
                let status = classify(&c.facts, now, stale_after);
                if c.status.data_usable() && !status.data_usable() {
                    aged = true;
                    Arc::new(ClusterSnapshot {
                        status,
                        last_error: status_reason(&c.facts, c.error.as_deref(), now, stale_after),
                        ..ClusterSnapshot::clone(c)
                    })
                } else {
                    Arc::clone(c)
                }
            })
            .collect();
        aged.then(|| FleetSnapshot {
            version: self.version,
            taken_at: self.taken_at,
            clusters: Arc::from(clusters),
        })
    }

    /// Whether every cluster has reached a final verdict for now (no longer connecting).
    pub fn settled(&self) -> bool {
        self.clusters
            .iter()
            .all(|c| c.status != ClusterStatus::Connecting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::live::SyncPhase;

    #[test]
    fn a_cluster_nothing_answers_is_refused_for_that_not_for_its_identity() {
        let mut c = ClusterSnapshot::connecting("c1");
        c.status = ClusterStatus::Unreachable;
        assert_eq!(
            c.change_refusal().as_deref(),
            Some("nothing recent is known about it: cluster is Unreachable")
        );
        c.status = ClusterStatus::Synced;
        assert!(
            c.change_refusal()
                .is_some_and(|why| !why.contains("nothing recent")),
            "a fresh cluster whose identity is not confirmed is refused for that"
        );
    }

    #[test]
    fn an_aged_cluster_says_how_long_it_was_silent_and_keeps_its_last_error() {
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let heard = now - jiff::SignedDuration::from_secs(200);
        let synced = |last_error: Option<&str>| {
            let mut c = ClusterSnapshot::connecting("c1");
            c.status = ClusterStatus::Degraded;
            c.facts.phase = SyncPhase::Watching { complete: true };
            c.facts.listed = true;
            c.facts.last_ok = Some(heard);
            c.facts.partial = Some("PDBs not listed".into());
            c.error = last_error.map(str::to_owned);
            c.last_error = c.error.clone().or_else(|| c.facts.partial.clone());
            FleetSnapshot {
                version: 1,
                taken_at: heard,
                clusters: Arc::from(vec![Arc::new(c)]),
            }
        };
        let stale = std::time::Duration::from_secs(150);
        let reason = |fleet: FleetSnapshot| {
            let aged = fleet.aged(now, stale).unwrap();
            assert_eq!(aged.clusters[0].status, ClusterStatus::Unknown);
            aged.clusters[0].last_error.clone().unwrap()
        };
        let with_error = reason(synced(Some("watch pods: reset")));
        assert!(
            with_error.starts_with("nothing heard for 3m20s"),
            "{with_error}"
        );
        assert!(with_error.ends_with("; last error: watch pods: reset"));
        // What was published as the reason was only the missing data, not an error.
        let without = reason(synced(None));
        assert!(!without.contains("last error"), "{without}");
    }
}
