//! The eviction subresource (`POST …/pods/{name}/eviction`), following the real API
//! server: pods that are Pending, Succeeded, Failed or already deleting are deleted
//! without a budget check; more than one matching PDB is a 500; a not-Ready pod is
//! deleted without touching the budget when the budget's `unhealthyPodEvictionPolicy`
//! is `AlwaysAllow`, or (`IfHealthyBudget`, the default) when the budget is healthy
//! (currentHealthy ≥ desiredHealthy > 0); otherwise a budget that allows no disruption
//! is a 429 with a `DisruptionBudget` cause, and one that does is decremented and the
//! pod deleted. A dry run (`?dryRun=All`, or `dryRun: [All]` in the eviction's
//! deleteOptions) makes every check and changes nothing.

use axum::response::Response;
use serde_json::{Value, json};

use super::controllers::begin_pod_deletion;
use super::disruption::matching_pdbs;
use super::error::ApiError;
use super::fleet::Cluster;
use super::http::{ApiRequest, value_response};
use super::objects::{deleting, pod_ready};
use super::resource::Kind;
use super::store::{Index, str_at};

fn success() -> Response {
    value_response(
        201,
        &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
    )
}

/// Evicts a pod. Accepts the bodies kube (`policy/v1` Eviction) and kubectl (`policy/v1`
/// or `policy/v1beta1`) send, and an empty body.
pub fn evict(
    cluster: &Cluster,
    ns: &str,
    name: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let body = req.json()?.unwrap_or(Value::Null);
    if let Some(k) = body.get("kind").and_then(Value::as_str)
        && k != "Eviction"
        && k != "DeleteOptions"
    {
        return Err(ApiError::bad_request(format!(
            "expected an Eviction, got {k}"
        )));
    }
    let body_name = str_at(&body, "/metadata/name");
    if !body_name.is_empty() && body_name != name {
        return Err(ApiError::bad_request(
            "name in URL does not match name in Eviction object",
        ));
    }
    let grace = body
        .pointer("/deleteOptions/gracePeriodSeconds")
        .and_then(Value::as_i64);
    let dry_run = req.dry_run()
        || body
            .pointer("/deleteOptions/dryRun")
            .and_then(Value::as_array)
            .is_some_and(|d| d.iter().any(|v| v == "All"));
    let mut st = cluster.lock();
    let mut pod = st
        .store
        .get_value(Kind::POD, ns, name)
        .ok_or_else(|| ApiError::not_found(Kind::POD.info(), name))?;
    if let Some(uid) = body
        .pointer("/deleteOptions/preconditions/uid")
        .and_then(Value::as_str)
        && uid != str_at(&pod, "/metadata/uid")
    {
        return Err(ApiError::precondition(
            Kind::POD.info(),
            name,
            &format!(
                "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                str_at(&pod, "/metadata/uid")
            ),
        ));
    }
    let now = cluster.clock.now_rfc3339();
    let phase = str_at(&pod, "/status/phase");
    if deleting(&pod) || matches!(phase.as_str(), "Pending" | "Succeeded" | "Failed") {
        if dry_run {
            return Ok(success());
        }
        begin_pod_deletion(&mut st.store, &mut pod, grace, &now);
        drop(st);
        cluster.kick();
        return Ok(success());
    }
    let pdbs = matching_pdbs(&st.store, ns, &Index::of(&pod).labels);
    if pdbs.len() > 1 {
        return Err(ApiError::internal(
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
        ));
    }
    if let Some(mut pdb) = pdbs.into_iter().next() {
        let pdb_name = str_at(&pdb, "/metadata/name");
        let generation = pdb
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let observed = pdb
            .pointer("/status/observedGeneration")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if observed < generation {
            return Err(ApiError::disruption_budget(format!(
                "The disruption budget {pdb_name} is still being processed by the server."
            )));
        }
        let status_i = |k: &str| {
            pdb.pointer(&format!("/status/{k}"))
                .and_then(Value::as_i64)
                .unwrap_or(0)
        };
        let (healthy, desired, allowed) = (
            status_i("currentHealthy"),
            status_i("desiredHealthy"),
            status_i("disruptionsAllowed"),
        );
        let policy = pdb
            .pointer("/spec/unhealthyPodEvictionPolicy")
            .and_then(Value::as_str)
            .unwrap_or("IfHealthyBudget");
        let unhealthy = !pod_ready(&pod);
        let skip_budget =
            unhealthy && (policy == "AlwaysAllow" || (healthy >= desired && desired > 0));
        if !skip_budget {
            if allowed < 0 {
                return Err(ApiError::forbidden("pdb disruptions allowed is negative"));
            }
            if allowed == 0 {
                return Err(ApiError::disruption_budget(format!(
                    "The disruption budget {pdb_name} needs {desired} healthy pods and has {healthy} currently"
                )));
            }
            if dry_run {
                return Ok(success());
            }
            pdb["status"]["disruptionsAllowed"] = json!(allowed - 1);
            pdb["status"]["disruptedPods"][name] = json!(now);
            st.store.put(Kind::POD_DISRUPTION_BUDGET, pdb);
        }
    }
    if dry_run {
        return Ok(success());
    }
    begin_pod_deletion(&mut st.store, &mut pod, grace, &now);
    drop(st);
    cluster.kick();
    Ok(success())
}
