//! The `scale` subresource of Deployments, ReplicaSets and StatefulSets
//! (`autoscaling/v1 Scale`), used by `kubectl scale` and autoscalers.

use axum::response::Response;
use http::{Method, header};
use serde_json::{Value, json};

use super::error::ApiError;
use super::fleet::Cluster;
use super::http::{ApiRequest, value_response};
use super::patch::{self, PatchKind};
use super::resource::ResourceType;
use super::store::str_at;

fn scale_of(obj: &Value) -> Value {
    let labels = obj
        .pointer("/spec/selector/matchLabels")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    json!({
        "kind": "Scale", "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": str_at(obj, "/metadata/name"), "namespace": str_at(obj, "/metadata/namespace"),
            "uid": str_at(obj, "/metadata/uid"), "resourceVersion": str_at(obj, "/metadata/resourceVersion"),
            "creationTimestamp": str_at(obj, "/metadata/creationTimestamp"),
        },
        "spec": {"replicas": obj.pointer("/spec/replicas").and_then(Value::as_i64).unwrap_or(1)},
        "status": {"replicas": obj.pointer("/status/replicas").and_then(Value::as_i64).unwrap_or(0), "selector": labels}
    })
}

/// GET, PUT or PATCH of `…/{name}/scale`.
pub fn scale(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    name: &str,
    method: &Method,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let mut st = cluster.lock();
    let mut obj = st
        .store
        .get_value(rt.slot, ns, name)
        .ok_or_else(|| ApiError::not_found(rt, name))?;
    if *method == Method::GET {
        return Ok(value_response(200, &scale_of(&obj)));
    }
    let body = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    let mut wanted = scale_of(&obj);
    match *method {
        Method::PUT => wanted = body,
        Method::PATCH => match PatchKind::from_content_type(req.header(header::CONTENT_TYPE))? {
            PatchKind::Merge | PatchKind::Apply => patch::merge_patch(&mut wanted, &body),
            PatchKind::Strategic => patch::strategic_merge(&mut wanted, &body),
            PatchKind::Json => patch::json_patch(&mut wanted, &body)?,
        },
        _ => return Err(ApiError::method_not_allowed()),
    }
    let rv = str_at(&wanted, "/metadata/resourceVersion");
    if !rv.is_empty() && rv != str_at(&obj, "/metadata/resourceVersion") {
        return Err(ApiError::conflict(rt, name));
    }
    let replicas = wanted
        .pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .filter(|r| *r >= 0)
        .ok_or_else(|| {
            ApiError::invalid(
                rt,
                name,
                "spec.replicas",
                "Invalid value: must be greater than or equal to 0",
            )
        })?;
    if obj.pointer("/spec/replicas").and_then(Value::as_i64) != Some(replicas) {
        obj["spec"]["replicas"] = json!(replicas);
        let g = obj
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        obj["metadata"]["generation"] = json!(g + 1);
        obj = st.store.put(rt.slot, obj).value();
    }
    drop(st);
    cluster.kick();
    Ok(value_response(200, &scale_of(&obj)))
}
