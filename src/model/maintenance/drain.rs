//! Drain bookkeeping: which pods must leave, which were asked to, what the Eviction API
//! answered, and — while stuck — why, grouped by cause the way Cluster API reports it.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::observe::{EvictionResult, PodInfo, PodOwner, PodRef};
use super::spec::DrainOptions;

/// One pod still on the node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDrain {
    /// The pod as last listed.
    pub info: PodInfo,
    /// When we last asked to evict it.
    #[serde(alias = "asked_at")]
    pub asked_at: Option<Timestamp>,
    /// The last answer.
    pub answer: Option<EvictionResult>,
    /// When an eviction was accepted (the pod should be going).
    #[serde(alias = "evicted_at")]
    pub evicted_at: Option<Timestamp>,
}

/// Progress of one node's drain.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DrainProgress {
    /// Every evictable pod seen on the node since the drain began: the workloads
    /// VerifyWorkloads checks afterwards.
    pub displaced: BTreeSet<PodRef>,
    /// Evictable pods still on the node.
    #[serde(with = "crate::model::serde_pairs")]
    pub remaining: BTreeMap<PodRef, PodDrain>,
    /// Whether the pods were listed at least once (an empty node is drained only then).
    pub listed: bool,
}

/// Whether drain should touch the pod at all: DaemonSet pods would come straight back and
/// mirror pods belong to the kubelet, so both are always left in place.
pub fn is_evictable(pod: &PodInfo) -> bool {
    pod.owner == PodOwner::Other
}

impl DrainProgress {
    /// Takes in the current pod list: pods no longer listed are gone.
    pub fn observe_pods(&mut self, pods: &[PodInfo]) {
        self.listed = true;
        let mut next = BTreeMap::new();
        for info in pods.iter().filter(|p| is_evictable(p)) {
            self.displaced.insert(info.pod.clone());
            let entry = match self.remaining.remove(&info.pod) {
                Some(mut known) => {
                    known.info = info.clone();
                    known
                }
                None => PodDrain {
                    info: info.clone(),
                    asked_at: None,
                    answer: None,
                    evicted_at: None,
                },
            };
            next.insert(info.pod.clone(), entry);
        }
        self.remaining = next;
    }

    /// Takes in the Eviction API's answers.
    pub fn record(&mut self, results: &[(PodRef, EvictionResult)], now: Timestamp) {
        for (pod, result) in results {
            if matches!(result, EvictionResult::PodGone) {
                self.remaining.remove(pod);
                continue;
            }
            if let Some(entry) = self.remaining.get_mut(pod) {
                if matches!(result, EvictionResult::Evicted) && entry.evicted_at.is_none() {
                    entry.evicted_at = Some(now);
                }
                entry.answer = Some(result.clone());
            }
        }
    }

    /// Notes that an eviction was requested (the executor journals the intent).
    pub fn mark_asked(&mut self, pod: &PodRef, now: Timestamp) {
        if let Some(entry) = self.remaining.get_mut(pod) {
            entry.asked_at = Some(now);
        }
    }

    /// Settles an eviction whose answer was lost in a restart.
    pub fn settle_lost(&mut self, pod: &PodRef, happened: bool, now: Timestamp) {
        if let Some(entry) = self.remaining.get_mut(pod) {
            if happened {
                entry.evicted_at.get_or_insert(now);
                entry.answer = Some(EvictionResult::Evicted);
            } else {
                entry.asked_at = None;
                entry.answer = None;
            }
        }
    }

    /// Pods to ask (again) now: never asked, or refused/unanswered and the retry interval
    /// has passed. Accepted evictions are never repeated; emptyDir pods wait for
    /// permission; pods already terminating are left to finish.
    pub fn to_evict(&self, now: Timestamp, options: &DrainOptions) -> Vec<PodRef> {
        self.remaining
            .values()
            .filter(|p| !p.info.terminating && p.evicted_at.is_none())
            .filter(|p| options.delete_empty_dir_data || !p.info.has_empty_dir)
            .filter(|p| match p.asked_at {
                None => true,
                Some(at) => elapsed(at, now) >= options.eviction_retry,
            })
            .map(|p| p.info.pod.clone())
            .collect()
    }

    /// Whether every evictable pod is gone.
    pub fn is_done(&self) -> bool {
        self.listed && self.remaining.is_empty()
    }

    /// Why the drain is not done, grouped by cause: PDBs with their numbers, pods not
    /// terminating, eviction errors, emptyDir pods without permission, pods waiting.
    pub fn blocked_reason(&self, now: Timestamp, options: &DrainOptions) -> String {
        let mut pdbs: BTreeMap<(String, u32, u32), Vec<String>> = BTreeMap::new();
        let mut not_terminating = Vec::new();
        let mut errors = Vec::new();
        let mut empty_dir = Vec::new();
        let mut waiting = Vec::new();
        for p in self.remaining.values() {
            let name = p.info.pod.to_string();
            let going_since = p.evicted_at;
            if let Some(since) = going_since {
                if elapsed(since, now) >= options.terminating_grace {
                    not_terminating.push(name);
                } else {
                    waiting.push(name);
                }
                continue;
            }
            if !options.delete_empty_dir_data && p.info.has_empty_dir && !p.info.terminating {
                empty_dir.push(name);
                continue;
            }
            match &p.answer {
                Some(EvictionResult::BlockedByPdb { pdb, needs, has }) => {
                    pdbs.entry((pdb.clone(), *needs, *has))
                        .or_default()
                        .push(name);
                }
                Some(EvictionResult::Error { message }) => {
                    errors.push(format!("{name}: {message}"))
                }
                _ => waiting.push(name),
            }
        }
        let mut parts = Vec::new();
        for ((pdb, needs, has), pods) in pdbs {
            parts.push(format!(
                "PDB {pdb} needs {needs} healthy pods and has {has} ({})",
                pods.join(", ")
            ));
        }
        if !not_terminating.is_empty() {
            parts.push(format!(
                "pods not terminating: {}",
                not_terminating.join(", ")
            ));
        }
        if !errors.is_empty() {
            parts.push(format!("eviction errors: {}", errors.join("; ")));
        }
        if !empty_dir.is_empty() {
            parts.push(format!(
                "pods with emptyDir data (drain.deleteEmptyDirData is false): {}",
                empty_dir.join(", ")
            ));
        }
        if !waiting.is_empty() {
            parts.push(format!("waiting for pods to leave: {}", waiting.join(", ")));
        }
        if parts.is_empty() {
            parts.push("the node's pods have not been listed yet".to_string());
        }
        parts.join("; ")
    }
}

/// Time from `from` to `to`, zero when the clock went backwards.
pub fn elapsed(from: Timestamp, to: Timestamp) -> std::time::Duration {
    std::time::Duration::try_from(to.duration_since(from)).unwrap_or_default()
}
