//! The create-only review kinds a client asks about itself with:
//! `SelfSubjectAccessReview` (`kubectl auth can-i`), `SelfSubjectRulesReview`
//! (`kubectl auth can-i --list`) and `SelfSubjectReview` (`kubectl auth whoami`).
//! They are answered from the same RBAC policy that authorizes requests, and stored
//! nowhere.

use axum::response::Response;
use serde_json::{Value, json};

use super::auth::{Attributes, SimUser};
use super::error::ApiError;
use super::field_errors::FieldError;
use super::fleet::Cluster;
use super::http::{ApiRequest, value_response};
use super::rbac::Policy;
use super::resource::{Kind, ResourceType};
use super::store::str_at;

/// POST of a review.
pub fn create(
    cluster: &Cluster,
    user: &SimUser,
    rt: &ResourceType,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let body = if req
        .header(http::header::CONTENT_TYPE)
        .starts_with(super::proto::MEDIA_TYPE)
    {
        super::proto::review_json(&req.body).ok_or_else(|| {
            ApiError::bad_request("the body of the request could not be decoded as protobuf")
        })?
    } else {
        req.json()?
            .ok_or_else(|| ApiError::bad_request("empty body"))?
    };
    if let Some(k) = body.get("kind").and_then(Value::as_str)
        && k != rt.kind
    {
        return Err(ApiError::bad_request(format!(
            "the kind in the data ({k}) does not match the expected kind ({})",
            rt.kind
        )));
    }
    let policy = {
        let mut st = cluster.lock();
        let p = Policy::current(&st.store, st.policy.as_ref());
        st.policy = Some(p.clone());
        p
    };
    let now = cluster.clock.now_rfc3339();
    let mut out = json!({"kind": rt.kind, "apiVersion": rt.api_version(),
        "metadata": {"creationTimestamp": Value::Null}});
    match rt.slot {
        Kind::SELF_SUBJECT_ACCESS_REVIEW => {
            let spec = body.get("spec").cloned().unwrap_or(Value::Null);
            let attributes = access_attributes(rt, &spec)?;
            let denied_by_fault = match &attributes {
                Attributes::Resource { resource, .. } => cluster
                    .faults()
                    .forbidden_resources
                    .iter()
                    .any(|r| r == resource),
                Attributes::NonResource { .. } => false,
            };
            let allowed = policy
                .allows(user, &attributes)
                .filter(|_| !denied_by_fault);
            out["spec"] = spec;
            out["status"] = match allowed {
                Some(reason) => json!({"allowed": true, "reason": reason}),
                None => json!({"allowed": false}),
            };
        }
        Kind::SELF_SUBJECT_RULES_REVIEW => {
            let ns = str_at(&body, "/spec/namespace");
            if ns.is_empty() {
                return Err(ApiError::invalid_fields(
                    rt,
                    "",
                    &[FieldError::required("spec.namespace", "")],
                ));
            }
            let (resource, non_resource) = policy.rules_for(user, &ns);
            out["spec"] = json!({"namespace": ns});
            out["status"] = json!({"resourceRules": resource, "nonResourceRules": non_resource,
                "incomplete": false});
        }
        _ => {
            out["metadata"]["creationTimestamp"] = json!(now);
            out["status"] = json!({"userInfo": {"username": user.name, "uid": user.uid(),
                "groups": user.all_groups()}});
        }
    }
    Ok(value_response(201, &out))
}

/// The attributes a SelfSubjectAccessReview asks about, validated as the API server
/// does (exactly one of resourceAttributes and nonResourceAttributes).
fn access_attributes(rt: &ResourceType, spec: &Value) -> Result<Attributes, ApiError> {
    let s = |p: &str| str_at(spec, p);
    match (
        spec.get("resourceAttributes"),
        spec.get("nonResourceAttributes"),
    ) {
        (Some(_), None) => Ok(Attributes::Resource {
            verb: s("/resourceAttributes/verb"),
            group: s("/resourceAttributes/group"),
            resource: s("/resourceAttributes/resource"),
            subresource: s("/resourceAttributes/subresource"),
            namespace: s("/resourceAttributes/namespace"),
            name: s("/resourceAttributes/name"),
        }),
        (None, Some(_)) => Ok(Attributes::NonResource {
            verb: s("/nonResourceAttributes/verb"),
            path: s("/nonResourceAttributes/path"),
        }),
        (Some(_), Some(_)) => Err(ApiError::invalid_fields(
            rt,
            "",
            &[FieldError::invalid(
                "spec.nonResourceAttributes",
                &spec["nonResourceAttributes"],
                "cannot be specified in combination with resourceAttributes",
            )],
        )),
        (None, None) => Err(ApiError::invalid_fields(
            rt,
            "",
            &[FieldError::required(
                "spec.resourceAttributes",
                "exactly one of nonResourceAttributes or resourceAttributes must be specified",
            )],
        )),
    }
}
