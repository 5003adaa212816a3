//! Whether a batch may be approved given how its clusters are seen right now: an approval
//! lets the executor act on every cluster of the batch, so one that cannot take actions
//! (unreachable, not the cluster the ledger pins, nothing recent known, still connecting)
//! is refused before the approval, naming the clusters and their statuses.

use super::approval::Refusal;
use crate::model::ledger::ClusterId;
use crate::model::live::ClusterStatus;

/// Refuses approving batch `batch` (counted from 0) when any of its clusters, with the
/// status it is seen in (`None`: not seen at all), cannot take actions.
pub fn check_batch_can_act(
    batch: usize,
    clusters: &[(ClusterId, Option<ClusterStatus>)],
) -> Result<(), Refusal> {
    let blocked: Vec<String> = clusters
        .iter()
        .filter(|(_, status)| !status.is_some_and(ClusterStatus::allows_actions))
        .map(|(id, status)| match status {
            Some(status) => format!("{id} ({})", status.label()),
            None => format!("{id} (not in the fleet view)"),
        })
        .collect();
    if blocked.is_empty() {
        return Ok(());
    }
    Err(Refusal::ClustersCannotAct {
        number: batch + 1,
        clusters: blocked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> ClusterId {
        ClusterId(s.into())
    }

    #[test]
    fn a_batch_with_a_cluster_that_cannot_act_is_refused_naming_it() {
        let refused = check_batch_can_act(
            1,
            &[
                (id("prod-apse1-01"), Some(ClusterStatus::Synced)),
                (id("prod-apse1-03"), Some(ClusterStatus::Unreachable)),
                (id("prod-apse1-04"), Some(ClusterStatus::IdentityMismatch)),
                (id("prod-apse1-05"), None),
            ],
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("batch 2 cannot be approved now: prod-apse1-03 (Unreachable), prod-apse1-04 (IdentityMismatch), prod-apse1-05 (not in the fleet view) cannot take actions; pause or abort the run, or wait until every cluster of the batch is Synced (or Degraded) and approve then".to_string())
        );
    }

    #[test]
    fn synced_and_degraded_clusters_may_be_approved() {
        assert!(
            check_batch_can_act(
                0,
                &[
                    (id("a"), Some(ClusterStatus::Synced)),
                    (id("b"), Some(ClusterStatus::Degraded)),
                ],
            )
            .is_ok()
        );
        for status in [ClusterStatus::Unknown, ClusterStatus::Connecting] {
            assert!(check_batch_can_act(0, &[(id("a"), Some(status))]).is_err());
        }
    }
}
