//! What "ready" means for a release's checks, pure: a workload counts only when its status
//! was written for its newest generation, every desired replica is updated and available,
//! and no replica of an older template is left; a cluster's nodes count when enough of
//! them are Ready. The adapter reads the
//! numbers from the cluster; the verdicts are decided here.

/// The numbers of one Deployment or DaemonSet that readiness depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadStatus {
    /// `deployment shop/web`, `daemonset kube-system/cilium`.
    pub name: String,
    /// `metadata.generation` (the spec's version).
    pub generation: i64,
    /// `status.observedGeneration` (the spec version the status describes), if any.
    pub observed_generation: Option<i64>,
    /// Replicas (or scheduled pods) wanted.
    pub desired: i64,
    /// Of those, running the newest template.
    pub updated: i64,
    /// Of those, available.
    pub available: i64,
    /// Pods of every template, old ones included (a Deployment's `status.replicas`; a
    /// DaemonSet's `currentNumberScheduled`).
    pub replicas: i64,
    /// Replicas kept on the old template on purpose: a StatefulSet's partition leaves the
    /// ordinals below it alone. They count as updated as intended.
    pub held_back: i64,
    /// The workload replaces a pod only when someone deletes it (a StatefulSet's
    /// `OnDelete` strategy): said when it is behind, since waiting will not help.
    pub on_delete: bool,
}

/// How many of a StatefulSet's `desired` replicas its partition keeps on the old
/// template on purpose under `RollingUpdate`: the ordinals below it (none under
/// `OnDelete`, where no partition applies).
pub fn held_back_by_partition(partition: i64, desired: i64, on_delete: bool) -> i64 {
    if on_delete {
        0
    } else {
        partition.clamp(0, desired)
    }
}

/// Why the workload is not ready at its newest generation, or `None` when it is.
pub fn workload_behind(w: &WorkloadStatus) -> Option<String> {
    let Some(observed) = w.observed_generation else {
        return Some(format!("{}: no status yet", w.name));
    };
    if observed < w.generation {
        // The controller has not seen the new spec: whatever the status says is stale.
        return Some(format!(
            "{}: status is for generation {observed}, spec is {}",
            w.name, w.generation
        ));
    }
    let as_intended = w.updated + w.held_back;
    if as_intended < w.desired || w.available < w.desired {
        let held = if w.held_back > 0 {
            format!(
                " ({} kept on the old template by the partition)",
                w.held_back
            )
        } else {
            String::new()
        };
        let manual = if w.on_delete && as_intended < w.desired {
            " (updateStrategy OnDelete: its pods take the new template only when deleted)"
        } else {
            ""
        };
        return Some(format!(
            "{}: {} of {} updated{held}, {} available{manual}",
            w.name, w.updated, w.desired, w.available
        ));
    }
    if w.replicas > as_intended {
        // Old replicas still serve next to the new ones (a surge not scaled down yet):
        // the old release is still answering requests, so the new one is not verified.
        return Some(format!(
            "{}: {} old replica(s) pending termination",
            w.name,
            w.replicas - as_intended
        ));
    }
    None
}

/// How a cluster's nodes stand against a check's minimum Ready ratio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodesReadiness {
    /// Enough nodes are Ready.
    Enough,
    /// Too few are, in words (nodes coming back from a reboot: worth asking again).
    TooFew(String),
    /// The cluster has no nodes at all: nothing will become Ready by waiting.
    NoNodes,
}

/// Whether `ready` of `total` nodes meets `min_ratio`.
pub fn nodes_ready(ready: usize, total: usize, min_ratio: f64) -> NodesReadiness {
    if total == 0 {
        return NodesReadiness::NoNodes;
    }
    let ratio = ready as f64 / total as f64;
    if ratio >= min_ratio {
        NodesReadiness::Enough
    } else {
        NodesReadiness::TooFew(format!(
            "{ready} of {total} nodes Ready ({:.0}%), need {:.0}%",
            ratio * 100.0,
            min_ratio * 100.0
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web(generation: i64, observed: Option<i64>, updated: i64, available: i64) -> WorkloadStatus {
        WorkloadStatus {
            name: "deployment shop/web".into(),
            generation,
            observed_generation: observed,
            desired: 3,
            updated,
            available,
            replicas: updated,
            held_back: 0,
            on_delete: false,
        }
    }

    fn postgres(updated: i64, partition: i64, on_delete: bool) -> WorkloadStatus {
        WorkloadStatus {
            name: "statefulset shop/postgres".into(),
            replicas: 3,
            held_back: held_back_by_partition(partition, 3, on_delete),
            on_delete,
            ..web(2, Some(2), updated, 3)
        }
    }

    #[test]
    fn a_stateful_set_is_ready_once_every_ordinal_at_or_above_its_partition_is_updated() {
        assert_eq!(
            workload_behind(&postgres(1, 0, false)),
            Some("statefulset shop/postgres: 1 of 3 updated, 3 available".into())
        );
        assert_eq!(workload_behind(&postgres(3, 0, false)), None);
        // Partition 1: ordinal 0 stays on the old template as intended.
        assert_eq!(workload_behind(&postgres(2, 1, false)), None);
        assert_eq!(
            workload_behind(&postgres(1, 1, false)),
            Some(
                "statefulset shop/postgres: 1 of 3 updated (1 kept on the old template by the partition), 3 available"
                    .into()
            )
        );
        // OnDelete: nothing rolls until pods are deleted, and the reason says so.
        assert!(
            workload_behind(&postgres(0, 0, true))
                .is_some_and(|why| why.ends_with("take the new template only when deleted)"))
        );
    }

    #[test]
    fn a_healthy_status_for_an_older_generation_does_not_count() {
        assert_eq!(
            workload_behind(&web(4, Some(3), 3, 3)),
            Some("deployment shop/web: status is for generation 3, spec is 4".into())
        );
        assert_eq!(workload_behind(&web(4, Some(4), 3, 3)), None);
    }

    #[test]
    fn every_replica_must_be_updated_and_available() {
        assert_eq!(
            workload_behind(&web(2, Some(2), 2, 3)),
            Some("deployment shop/web: 2 of 3 updated, 3 available".into())
        );
        assert!(workload_behind(&web(2, Some(2), 3, 1)).is_some());
        assert!(workload_behind(&web(1, None, 3, 3)).is_some());
    }

    #[test]
    fn old_replicas_still_serving_are_not_ready() {
        // Three new replicas up and available, one old one not scaled down yet.
        let surge = WorkloadStatus {
            replicas: 4,
            ..web(2, Some(2), 3, 3)
        };
        assert_eq!(
            workload_behind(&surge),
            Some("deployment shop/web: 1 old replica(s) pending termination".into())
        );
        let done = WorkloadStatus {
            replicas: 3,
            ..surge
        };
        assert_eq!(workload_behind(&done), None);
    }

    #[test]
    fn node_readiness_is_a_ratio_and_no_nodes_is_not_ready() {
        assert_eq!(nodes_ready(19, 20, 0.95), NodesReadiness::Enough);
        assert_eq!(
            nodes_ready(18, 20, 0.95),
            NodesReadiness::TooFew("18 of 20 nodes Ready (90%), need 95%".into())
        );
        assert_eq!(nodes_ready(0, 0, 0.5), NodesReadiness::NoNodes);
    }
}
