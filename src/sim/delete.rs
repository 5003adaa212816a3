//! Delete and delete-collection: grace periods for pods, finalizers, preconditions,
//! protected namespaces and background cascading to dependents.

use axum::response::Response;
use serde_json::{Value, json};

use super::controllers::begin_pod_deletion;
use super::error::ApiError;
use super::fleet::{Cluster, ClusterState};
use super::http::{ApiRequest, value_response};
use super::objects::deleting;
use super::resource::Kind;
use super::store::str_at;

/// `DeleteOptions` from the body or the query.
struct DeleteOptions {
    grace: Option<i64>,
    orphan: bool,
    uid: Option<String>,
    rv: Option<String>,
    dry_run: bool,
}

fn delete_options(req: &ApiRequest) -> Result<DeleteOptions, ApiError> {
    let body = req.json()?.unwrap_or(Value::Null);
    let checked = super::validation::options::DeleteOptions::read(Some(&body), &req.query);
    checked.validate()?;
    let grace = body
        .get("gracePeriodSeconds")
        .and_then(Value::as_i64)
        .or_else(|| {
            req.query
                .get("gracePeriodSeconds")
                .and_then(|g| g.parse().ok())
        });
    let policy = body
        .get("propagationPolicy")
        .and_then(Value::as_str)
        .map(String::from)
        .or_else(|| req.query.get("propagationPolicy").cloned());
    let orphan = policy.as_deref() == Some("Orphan")
        || body.get("orphanDependents").and_then(Value::as_bool) == Some(true);
    Ok(DeleteOptions {
        grace,
        orphan,
        uid: body
            .pointer("/preconditions/uid")
            .and_then(Value::as_str)
            .map(String::from),
        rv: body
            .pointer("/preconditions/resourceVersion")
            .and_then(Value::as_str)
            .map(String::from),
        dry_run: checked.is_dry_run(),
    })
}

/// Deletes one object (graceful for bound pods; finalizers respected). Returns the
/// object's state after the call.
pub fn delete_object(
    cluster: &Cluster,
    st: &mut ClusterState,
    kind: Kind,
    ns: &str,
    name: &str,
    grace: Option<i64>,
    orphan: bool,
) -> Result<Value, ApiError> {
    let mut obj = st
        .store
        .get_value(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    let now = cluster.clock.now_rfc3339();
    let uid = str_at(&obj, "/metadata/uid");
    if kind == Kind::Namespace {
        if ["default", "kube-system", "kube-public"].contains(&name) {
            return Err(ApiError::forbidden(format!(
                "namespaces \"{name}\" is forbidden: this namespace may not be deleted"
            )));
        }
        for k in Kind::ALL.into_iter().filter(|k| k.namespaced()) {
            let names: Vec<String> = st
                .store
                .iter(k, Some(name), None)
                .map(|(key, _)| key.1.clone())
                .collect();
            for n in names {
                st.store.remove(k, name, &n);
            }
        }
        st.store.remove(kind, ns, name);
        return Ok(obj);
    }
    let gone = if kind == Kind::Pod {
        begin_pod_deletion(&mut st.store, &mut obj, grace, &now)
    } else if obj
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty())
    {
        if !deleting(&obj) {
            obj["metadata"]["deletionTimestamp"] = json!(now);
            obj["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            obj = st.store.put(kind, obj).value();
        }
        false
    } else {
        st.store.remove(kind, ns, name);
        true
    };
    if !orphan && gone && kind.namespaced() {
        cascade(cluster, st, ns, &uid);
    }
    if gone && kind == Kind::PersistentVolumeClaim {
        reclaim(st, &obj);
    }
    Ok(obj)
}

/// What happens to the volume of a deleted claim, by its reclaim policy: `Delete` (what
/// dynamic provisioning sets) removes it, `Retain` leaves it `Released` for a person.
fn reclaim(st: &mut ClusterState, claim: &Value) {
    let volume = str_at(claim, "/spec/volumeName");
    if volume.is_empty() {
        return;
    }
    let Some(mut pv) = st.store.get_value(Kind::PersistentVolume, "", &volume) else {
        return;
    };
    if str_at(&pv, "/spec/claimRef/uid") != str_at(claim, "/metadata/uid") {
        return;
    }
    if str_at(&pv, "/spec/persistentVolumeReclaimPolicy") == "Retain" {
        pv["status"] = json!({"phase": "Released"});
        st.store.put(Kind::PersistentVolume, pv);
    } else {
        st.store.remove(Kind::PersistentVolume, "", &volume);
    }
}

/// Deletes the dependents of an owner (background propagation).
fn cascade(cluster: &Cluster, st: &mut ClusterState, ns: &str, owner_uid: &str) {
    for k in [Kind::ReplicaSet, Kind::Pod] {
        let deps: Vec<String> = st
            .store
            .iter(k, Some(ns), None)
            .filter(|(_, s)| {
                let v = s.value();
                v.pointer("/metadata/ownerReferences")
                    .and_then(Value::as_array)
                    .is_some_and(|o| {
                        o.iter()
                            .any(|r| r.get("uid").and_then(Value::as_str) == Some(owner_uid))
                    })
            })
            .map(|(key, _)| key.1.clone())
            .collect();
        for d in deps {
            // Dependents that are already gone are fine.
            let _ = delete_object(cluster, st, k, ns, &d, None, false);
        }
    }
}

/// DELETE of one object.
pub fn delete(
    cluster: &Cluster,
    kind: Kind,
    ns: &str,
    name: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let opts = delete_options(req)?;
    let mut st = cluster.lock();
    let current = st
        .store
        .get_value(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    if let Some(uid) = &opts.uid
        && *uid != str_at(&current, "/metadata/uid")
    {
        return Err(ApiError::precondition(
            kind,
            name,
            &format!(
                "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                str_at(&current, "/metadata/uid")
            ),
        ));
    }
    if let Some(rv) = &opts.rv
        && *rv != str_at(&current, "/metadata/resourceVersion")
    {
        return Err(ApiError::precondition(
            kind,
            name,
            &format!(
                "Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}",
                str_at(&current, "/metadata/resourceVersion")
            ),
        ));
    }
    if opts.dry_run {
        return Ok(value_response(200, &current));
    }
    let out = delete_object(cluster, &mut st, kind, ns, name, opts.grace, opts.orphan)?;
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}

/// DELETE of a collection (with selectors).
pub fn delete_collection(
    cluster: &Cluster,
    kind: Kind,
    ns: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let filter = super::list::Filter::from_query(&req.query)?;
    let opts = delete_options(req)?;
    let mut st = cluster.lock();
    let keys: Vec<(String, String)> = st
        .store
        .iter(kind, ns, None)
        .filter(|(k, s)| filter.matches(&k.0, &k.1, &s.idx))
        .map(|(k, _)| k.clone())
        .collect();
    let mut items = Vec::new();
    if opts.dry_run {
        items = keys
            .iter()
            .filter_map(|(kns, kname)| st.store.get_value(kind, kns, kname))
            .collect();
    }
    for (kns, kname) in keys.into_iter().filter(|_| !opts.dry_run) {
        if let Ok(v) = delete_object(
            cluster,
            &mut st,
            kind,
            &kns,
            &kname,
            opts.grace,
            opts.orphan,
        ) {
            items.push(v);
        }
    }
    let rv = st.store.rv();
    drop(st);
    cluster.kick();
    Ok(value_response(
        200,
        &json!({"kind": format!("{}List", kind.kind()), "apiVersion": kind.api_version(),
        "metadata": {"resourceVersion": rv.to_string()}, "items": items}),
    ))
}
