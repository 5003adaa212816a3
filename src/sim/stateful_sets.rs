//! The StatefulSet controller: every ordinal below `spec.replicas` has its pod, under
//! the same name as before and with the same claims, so a pod that was evicted or
//! deleted comes back bound to its old volume (and therefore, through the scheduler,
//! to its old zone). A pod that failed (or ran to completion) is deleted and so replaced
//! the same way. Pods above the count are removed; statuses are kept current.

use serde_json::Value;

use super::controllers::Pass;
use super::objects::{controller_of, deleting, pod_ready};
use super::resource::Kind;
use super::stateful::{
    REVISION_LABEL, StatefulCounts, claim_name, claim_templates, ordinal_claim, ordinal_of,
    ordinal_pod, stateful_set_status, update_revision,
};
use super::store::str_at;

/// Whether a pod still counts (not terminating, not finished).
fn active(pod: &Value) -> bool {
    let phase = str_at(pod, "/status/phase");
    !deleting(pod) && phase != "Succeeded" && phase != "Failed"
}

/// Creates the missing ordinal pods (and their claims) of every StatefulSet, removes
/// the ones above the count, and reports status.
pub fn reconcile(pass: &mut Pass) {
    for sts in pass.st.store.values(Kind::STATEFUL_SET, None) {
        let ns = str_at(&sts, "/metadata/namespace");
        let name = str_at(&sts, "/metadata/name");
        let uid = str_at(&sts, "/metadata/uid");
        let replicas = sts
            .pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(1)
            .max(0);
        if !deleting(&sts) {
            for ordinal in 0..replicas {
                let pod_name = format!("{name}-{ordinal}");
                // A pod of that name still terminating keeps its successor waiting: two
                // pods of one identity never run at once.
                if pass.st.store.get(Kind::POD, &ns, &pod_name).is_some() {
                    continue;
                }
                for template in claim_templates(&sts) {
                    let claim = claim_name(&template, &pod_name);
                    if pass
                        .st
                        .store
                        .get(Kind::PERSISTENT_VOLUME_CLAIM, &ns, &claim)
                        .is_none()
                    {
                        let claim_uid = pass.st.store.new_uid();
                        let claim =
                            ordinal_claim(&sts, &template, &pod_name, &claim_uid, &pass.now);
                        pass.put(Kind::PERSISTENT_VOLUME_CLAIM, claim);
                    }
                }
                let pod_uid = pass.st.store.new_uid();
                let pod = ordinal_pod(&sts, ordinal, &pod_uid, &pass.now);
                pass.create_pod(pod);
            }
        }
        let owns = |pod: &Value| controller_of(pod).is_some_and(|(_, _, owner)| owner == uid);
        // Its containers have ended, so nothing is left to stop: it goes at once and its
        // ordinal is recreated on the next round.
        let finished: Vec<usize> = (0..pass.pods.len())
            .filter(|&i| owns(&pass.pods[i]) && !deleting(&pass.pods[i]) && !active(&pass.pods[i]))
            .collect();
        for i in finished {
            pass.delete_pod(i, Some(0));
        }
        let owned: Vec<usize> = (0..pass.pods.len())
            .filter(|&i| owns(&pass.pods[i]) && active(&pass.pods[i]))
            .collect();
        let update = update_revision(&sts);
        let status_revision = str_at(&sts, "/status/currentRevision");
        let current = if status_revision.is_empty() {
            update.clone()
        } else {
            status_revision
        };
        let revision_of = |pod: &Value| str_at(pod, &format!("/metadata/labels/{REVISION_LABEL}"));
        let mut counts = StatefulCounts {
            replicas: 0,
            ready: 0,
            updated: 0,
            current: 0,
        };
        // Pods of an older template that the update may replace, by ordinal.
        let mut outdated: Vec<(i64, usize)> = Vec::new();
        for i in owned {
            let ordinal = ordinal_of(&name, &str_at(&pass.pods[i], "/metadata/name"));
            let Some(ordinal) = ordinal.filter(|o| *o < replicas) else {
                pass.delete_pod_graceful(i);
                continue;
            };
            let revision = revision_of(&pass.pods[i]);
            counts.replicas += 1;
            counts.ready += i32::from(pod_ready(&pass.pods[i]));
            counts.updated += i32::from(revision == update);
            counts.current += i32::from(revision == current);
            if revision != update {
                outdated.push((ordinal, i));
            }
        }
        if !deleting(&sts) {
            roll_one(pass, &sts, &counts, replicas, &outdated, uid.as_str());
        }
        // The update is the current revision once every replica runs it.
        let current = if i64::from(counts.updated) == replicas {
            update.clone()
        } else {
            current
        };
        let generation = sts
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let status = stateful_set_status(&counts, generation, &current, &update);
        if sts.get("status") != Some(&status) {
            let mut sts = sts;
            sts["status"] = status;
            pass.put(Kind::STATEFUL_SET, sts);
        }
    }
}

/// A rolling update, as the StatefulSet controller makes it: while every replica is
/// there and Ready and none is going away, the highest ordinal still on an older
/// template (at or above the partition) is deleted, and recreated from the new one on a
/// later round. `OnDelete` replaces nothing: pods take the new template when deleted.
fn roll_one(
    pass: &mut Pass,
    sts: &Value,
    counts: &StatefulCounts,
    replicas: i64,
    outdated: &[(i64, usize)],
    uid: &str,
) {
    if str_at(sts, "/spec/updateStrategy/type") == "OnDelete" {
        return;
    }
    let partition = sts
        .pointer("/spec/updateStrategy/rollingUpdate/partition")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let settled = i64::from(counts.replicas) == replicas && counts.ready == counts.replicas;
    let going = pass
        .pods
        .iter()
        .any(|pod| deleting(pod) && controller_of(pod).is_some_and(|(_, _, owner)| owner == uid));
    if !settled || going {
        return;
    }
    if let Some(&(_, i)) = outdated
        .iter()
        .filter(|(ordinal, _)| *ordinal >= partition)
        .max_by_key(|(ordinal, _)| *ordinal)
    {
        pass.delete_pod_graceful(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::volumes::{STORAGE_CLASS, claim_template};
    use serde_json::json;

    #[test]
    fn ordinal_pods_mount_their_own_claims_under_stable_names() {
        let sts = json!({
            "metadata": {"name": "kafka", "namespace": "data", "uid": "u-1"},
            "spec": {"replicas": 2, "serviceName": "kafka-headless",
                "selector": {"matchLabels": {"app": "kafka"}},
                "template": {"metadata": {"labels": {"app": "kafka"}}, "spec": {"containers": [{"name": "k"}]}},
                "volumeClaimTemplates": [claim_template("data", 5, STORAGE_CLASS)]}
        });
        let pod = ordinal_pod(&sts, 1, "p-1", "t");
        assert_eq!(str_at(&pod, "/metadata/name"), "kafka-1");
        assert_eq!(
            str_at(&pod, "/spec/volumes/0/persistentVolumeClaim/claimName"),
            "data-kafka-1"
        );
        assert_eq!(
            str_at(&pod, "/metadata/labels/statefulset.kubernetes.io~1pod-name"),
            "kafka-1"
        );
        assert_eq!(str_at(&pod, "/spec/subdomain"), "kafka-headless");
        assert_eq!(
            controller_of(&pod).map(|(kind, name, _)| (kind, name)),
            Some(("StatefulSet".to_string(), "kafka".to_string()))
        );
        let claim = ordinal_claim(
            &sts,
            &claim_template("data", 5, STORAGE_CLASS),
            "kafka-1",
            "c-1",
            "t",
        );
        assert_eq!(str_at(&claim, "/metadata/name"), "data-kafka-1");
        assert_eq!(str_at(&claim, "/metadata/labels/app"), "kafka");
        assert_eq!(str_at(&claim, "/status/phase"), "Pending");
    }
}
