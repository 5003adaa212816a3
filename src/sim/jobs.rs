//! The Job controller: runs up to `parallelism` pods at a time until `completions` have
//! succeeded (the simulated kubelet ends a Job's pod successfully after the scenario's
//! `jobSeconds`), and reports status as the real controller does (`active`, `ready`,
//! `succeeded`, `startTime`, and `SuccessCriteriaMet` then `Complete` with
//! `completionTime`).

use serde_json::{Value, json};

use super::controllers::Pass;
use super::objects::{controller_of, controller_ref, deleting, pod_from_template, pod_ready};
use super::resource::Kind;
use super::store::str_at;

/// Reconciles every Job.
pub fn reconcile(pass: &mut Pass) {
    if pass.st.store.count(Kind::JOB) == 0 {
        return;
    }
    for job in pass.st.store.values(Kind::JOB, None) {
        let ns = str_at(&job, "/metadata/namespace");
        let name = str_at(&job, "/metadata/name");
        let uid = str_at(&job, "/metadata/uid");
        let owned: Vec<usize> = (0..pass.pods.len())
            .filter(|&i| {
                controller_of(&pass.pods[i]).is_some_and(|(k, _, u)| k == "Job" && u == uid)
            })
            .collect();
        let phase = |i: usize| str_at(&pass.pods[i], "/status/phase");
        let succeeded = owned.iter().filter(|&&i| phase(i) == "Succeeded").count() as i64;
        let failed = owned.iter().filter(|&&i| phase(i) == "Failed").count() as i64;
        let active: Vec<usize> = owned
            .iter()
            .copied()
            .filter(|&i| {
                !matches!(phase(i).as_str(), "Succeeded" | "Failed") && !deleting(&pass.pods[i])
            })
            .collect();
        let completions = job.pointer("/spec/completions").and_then(Value::as_i64);
        let parallelism = job
            .pointer("/spec/parallelism")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let suspended = job.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true);
        let complete = completions.is_some_and(|c| succeeded >= c)
            || (completions.is_none() && succeeded > 0 && active.is_empty());
        let done = job
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .is_some_and(|cs| {
                cs.iter()
                    .any(|c| c["type"] == "Complete" || c["type"] == "Failed")
            });
        let mut created = 0;
        if !done && !complete && !suspended && !deleting(&job) {
            let remaining = completions.map_or(parallelism, |c| c - succeeded);
            let want = parallelism.min(remaining).max(0);
            let template = job.pointer("/spec/template").cloned().unwrap_or(json!({}));
            for _ in (active.len() as i64)..want {
                let pname = format!("{name}-{}", pass.st.store.name_suffix());
                let puid = pass.st.store.new_uid();
                let owner = controller_ref(Kind::JOB, &name, &uid);
                let pod = pod_from_template(&template, &ns, &pname, &puid, owner, &pass.now);
                pass.create_pod(pod);
                created += 1;
            }
        }
        let ready = active.iter().filter(|&&i| pod_ready(&pass.pods[i])).count() as i64;
        let mut status = job.get("status").cloned().unwrap_or(json!({}));
        if !status.is_object() {
            status = json!({});
        }
        if status.get("startTime").is_none() && !suspended {
            status["startTime"] = json!(pass.now);
        }
        status["active"] = json!(active.len() as i64 + created);
        status["ready"] = json!(ready);
        status["succeeded"] = json!(succeeded);
        status["failed"] = json!(failed);
        status["terminating"] = json!(0);
        status["uncountedTerminatedPods"] = json!({});
        for k in ["active", "succeeded", "failed"] {
            if status[k] == 0
                && let Some(o) = status.as_object_mut()
            {
                o.remove(k);
            }
        }
        if complete && !done {
            let c = |t: &str| {
                json!({"type": t, "status": "True", "reason": "CompletionsReached",
                    "message": "Reached expected number of succeeded pods",
                    "lastProbeTime": pass.now, "lastTransitionTime": pass.now})
            };
            status["conditions"] = json!([c("SuccessCriteriaMet"), c("Complete")]);
            status["completionTime"] = json!(pass.now);
        }
        if job.get("status") != Some(&status) {
            let mut job = job;
            job["status"] = status;
            pass.put(Kind::JOB, job);
        }
    }
}
