//! batch/v1 Job and CronJob defaults (`pkg/apis/batch/v1/defaults.go` and the Job
//! strategy): a Job's generated selector and labels, its parallelism, completions and
//! backoff limit; a CronJob's policies and history limits.

use serde_json::{Value, json};

use super::super::store::str_at;

fn default(obj: &mut Value, pointer: &str, v: Value) {
    if obj.pointer(pointer).is_none() {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
        if let Some(p) = obj.pointer_mut(parent).and_then(Value::as_object_mut) {
            p.insert(key.to_string(), v);
        }
    }
}

/// Defaults of a new Job (`uid` is its metadata.uid, used in the generated selector).
pub fn job_defaults(obj: &mut Value) {
    let uid = str_at(obj, "/metadata/uid");
    let name = str_at(obj, "/metadata/name");
    if !obj["spec"].is_object() {
        obj["spec"] = json!({});
    }
    let manual = obj.pointer("/spec/manualSelector").and_then(Value::as_bool) == Some(true);
    if !manual {
        let labels = json!({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
            "controller-uid": uid, "job-name": name});
        if !obj["spec"]["template"]["metadata"].is_object() {
            obj["spec"]["template"]["metadata"] = json!({});
        }
        if let (Some(t), Some(l)) = (
            obj["spec"]["template"]["metadata"]
                .as_object_mut()
                .map(|m| m.entry("labels").or_insert_with(|| json!({}))),
            labels.as_object(),
        ) {
            for (k, v) in l {
                t[k] = v.clone();
            }
        }
        obj["spec"]["selector"] =
            json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}});
    }
    let explicit_parallelism = obj.pointer("/spec/parallelism").is_some();
    default(obj, "/spec/parallelism", json!(1));
    if obj.pointer("/spec/completions").is_none() && !explicit_parallelism {
        obj["spec"]["completions"] = json!(1);
    }
    default(obj, "/spec/backoffLimit", json!(6));
    default(obj, "/spec/completionMode", json!("NonIndexed"));
    default(obj, "/spec/suspend", json!(false));
    default(
        obj,
        "/spec/podReplacementPolicy",
        json!("TerminatingOrFailed"),
    );
    if obj
        .pointer("/spec/template/spec")
        .is_some_and(Value::is_object)
    {
        for (k, v) in [
            ("terminationGracePeriodSeconds", json!(30)),
            ("dnsPolicy", json!("ClusterFirst")),
            ("schedulerName", json!("default-scheduler")),
        ] {
            default(obj, &format!("/spec/template/spec/{k}"), v);
        }
    }
    obj["status"] = json!({});
}

/// Defaults of a new CronJob.
pub fn cron_job_defaults(obj: &mut Value) {
    if !obj["spec"].is_object() {
        obj["spec"] = json!({});
    }
    default(obj, "/spec/concurrencyPolicy", json!("Allow"));
    default(obj, "/spec/suspend", json!(false));
    default(obj, "/spec/successfulJobsHistoryLimit", json!(3));
    default(obj, "/spec/failedJobsHistoryLimit", json!(1));
    obj["status"] = json!({});
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_get_a_selector_labels_and_counts() {
        let mut j = json!({"metadata": {"name": "migrate", "uid": "u-1"},
            "spec": {"template": {"spec": {"restartPolicy": "Always", "containers": [{"name": "m", "image": "i"}]}}}});
        job_defaults(&mut j);
        assert_eq!(
            j.pointer("/spec/selector/matchLabels/batch.kubernetes.io~1controller-uid"),
            Some(&json!("u-1"))
        );
        assert_eq!(
            j.pointer("/spec/template/metadata/labels/job-name"),
            Some(&json!("migrate"))
        );
        assert_eq!(
            (
                j["spec"]["completions"].clone(),
                j["spec"]["backoffLimit"].clone()
            ),
            (json!(1), json!(6))
        );
    }

    #[test]
    fn cron_jobs_get_their_policies_and_history_limits() {
        let mut c = json!({"metadata": {"name": "nightly"}, "spec": {"schedule": "@daily", "suspend": true}});
        cron_job_defaults(&mut c);
        assert_eq!(c["spec"]["concurrencyPolicy"], "Allow");
        assert_eq!(c["spec"]["suspend"], true);
        assert_eq!(
            (
                c["spec"]["successfulJobsHistoryLimit"].clone(),
                c["spec"]["failedJobsHistoryLimit"].clone()
            ),
            (json!(3), json!(1))
        );
    }
}
