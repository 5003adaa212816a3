//! Whether a batch may be approved given how its clusters are seen right now: an approval
//! lets the executor act on every cluster of the batch, so one that cannot take actions
//! (unreachable, not the cluster the ledger pins, not pinned at all, nothing recent known,
//! still connecting) is refused before the approval, naming the clusters and their reasons.

use super::approval::{BlockedCluster, Refusal};
use crate::model::ledger::ClusterId;

/// Refuses approving batch `batch` (counted from 0) when any of its clusters cannot take
/// actions: each cluster comes with the reason it cannot, in the caller's words (`None`:
/// it can).
pub fn check_batch_can_act(
    batch: usize,
    clusters: &[(ClusterId, Option<String>)],
) -> Result<(), Refusal> {
    let blocked: Vec<BlockedCluster> = clusters
        .iter()
        .filter_map(|(id, reason)| {
            reason.as_ref().map(|why| BlockedCluster {
                cluster: id.clone(),
                reason: why.clone(),
            })
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

    fn why(s: &str) -> Option<String> {
        Some(s.into())
    }

    #[test]
    fn a_batch_with_a_cluster_that_cannot_act_is_refused_naming_it_and_why() {
        let refused = check_batch_can_act(
            1,
            &[
                (id("prod-apse1-01"), None),
                (id("prod-apse1-03"), why("Unreachable")),
                (
                    id("prod-apse1-04"),
                    why("identity mismatch: kube-system UID is u2 but the ledger pins u1"),
                ),
                (id("prod-apse1-05"), why("the ledger pins no identity")),
                (id("prod-apse1-06"), why("not in the fleet view")),
            ],
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("batch 2 cannot be approved now: prod-apse1-03 (Unreachable), prod-apse1-04 (identity mismatch: kube-system UID is u2 but the ledger pins u1), prod-apse1-05 (the ledger pins no identity), prod-apse1-06 (not in the fleet view) cannot take actions; pause or abort the run, or wait until every cluster of the batch can take actions (Synced or Degraded, with the identity the ledger pins confirmed) and approve then".to_string())
        );
    }

    #[test]
    fn a_batch_whose_clusters_all_can_act_may_be_approved() {
        assert!(check_batch_can_act(0, &[(id("a"), None), (id("b"), None)]).is_ok());
        assert!(check_batch_can_act(0, &[]).is_ok());
        assert!(check_batch_can_act(0, &[(id("a"), None), (id("b"), why("Connecting"))]).is_err());
    }
}
