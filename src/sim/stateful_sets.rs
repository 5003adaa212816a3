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
    claim_name, claim_templates, ordinal_claim, ordinal_of, ordinal_pod, stateful_set_status,
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
    for sts in pass.st.store.values(Kind::StatefulSet, None) {
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
                if pass.st.store.get(Kind::Pod, &ns, &pod_name).is_some() {
                    continue;
                }
                for template in claim_templates(&sts) {
                    let claim = claim_name(&template, &pod_name);
                    if pass
                        .st
                        .store
                        .get(Kind::PersistentVolumeClaim, &ns, &claim)
                        .is_none()
                    {
                        let claim_uid = pass.st.store.new_uid();
                        let claim =
                            ordinal_claim(&sts, &template, &pod_name, &claim_uid, &pass.now);
                        pass.put(Kind::PersistentVolumeClaim, claim);
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
        let mut count = 0;
        let mut ready = 0;
        for i in owned {
            let ordinal = ordinal_of(&name, &str_at(&pass.pods[i], "/metadata/name"));
            if ordinal.is_none_or(|o| o >= replicas) {
                pass.delete_pod_graceful(i);
                continue;
            }
            count += 1;
            ready += i32::from(pod_ready(&pass.pods[i]));
        }
        let generation = sts
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let status = stateful_set_status(count, ready, generation);
        if sts.get("status") != Some(&status) {
            let mut sts = sts;
            sts["status"] = status;
            pass.put(Kind::StatefulSet, sts);
        }
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
