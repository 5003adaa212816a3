//! Delete and delete-collection as the API server does them: grace periods for pods,
//! finalizers, preconditions, protected namespaces, namespace termination, and the three
//! propagation policies (Background: dependents are collected after the owner is gone;
//! Foreground: the owner waits with the `foregroundDeletion` finalizer until its
//! blocking dependents are gone; Orphan: dependents lose their owner reference).

use axum::response::Response;
use serde_json::{Value, json};

use super::controllers::begin_pod_deletion;
use super::error::ApiError;
use super::fleet::{Cluster, ClusterState};
use super::http::{ApiRequest, value_response};
use super::objects::deleting;
use super::resource::{Kind, ResourceType};
use super::store::{Key, str_at};

/// The finalizer that holds an owner until its blocking dependents are gone.
pub const FOREGROUND: &str = "foregroundDeletion";
/// The finalizer the namespace controller removes once a namespace is empty.
pub const NAMESPACE_FINALIZER: &str = "kubernetes";

/// What happens to an owner's dependents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    /// Dependents are deleted after the owner is gone.
    Background,
    /// The owner stays (with `foregroundDeletion`) until its dependents are gone.
    Foreground,
    /// Dependents keep running without their owner reference.
    Orphan,
}

/// `DeleteOptions` from the body or the query.
pub struct DeleteOptions {
    /// `gracePeriodSeconds`.
    pub grace: Option<i64>,
    /// `propagationPolicy` (or the legacy `orphanDependents`).
    pub propagation: Propagation,
    /// `preconditions.uid`.
    pub uid: Option<String>,
    /// `preconditions.resourceVersion`.
    pub rv: Option<String>,
    /// `dryRun: [All]` from the body or the query: answer, change nothing.
    pub dry_run: bool,
}

impl DeleteOptions {
    /// Background propagation with the object's own grace period.
    pub fn background() -> DeleteOptions {
        DeleteOptions {
            grace: None,
            propagation: Propagation::Background,
            uid: None,
            rv: None,
            dry_run: false,
        }
    }
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
    let orphan_dependents = body
        .get("orphanDependents")
        .and_then(Value::as_bool)
        .or_else(|| req.query.get("orphanDependents").map(|v| v == "true"));
    let propagation = match (policy.as_deref(), orphan_dependents) {
        (Some("Foreground"), _) => Propagation::Foreground,
        (Some("Orphan"), _) | (None, Some(true)) => Propagation::Orphan,
        _ => Propagation::Background,
    };
    Ok(DeleteOptions {
        grace,
        propagation,
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

fn has_finalizers(obj: &Value) -> bool {
    obj.pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty())
}

/// Adds a finalizer to an object (once).
fn add_finalizer(obj: &mut Value, finalizer: &str) {
    if !obj["metadata"]["finalizers"].is_array() {
        obj["metadata"]["finalizers"] = json!([]);
    }
    if let Some(list) = obj["metadata"]["finalizers"].as_array_mut()
        && !list.iter().any(|f| f == finalizer)
    {
        list.push(json!(finalizer));
    }
}

/// Keys (slot, namespace, name) of the objects that name `owner` among their owners:
/// in the owner's namespace for a namespaced owner, among cluster-scoped objects
/// otherwise.
pub fn dependents_of(st: &ClusterState, owner: &Value) -> Vec<(Kind, Key)> {
    let uid = str_at(owner, "/metadata/uid");
    let ns = str_at(owner, "/metadata/namespace");
    let mut out = Vec::new();
    for slot in st.store.used_slots() {
        for key in st.store.dependents(slot, Some(&ns), &uid) {
            out.push((slot, key));
        }
    }
    out
}

/// Removes the owner reference to `owner_uid` from an object.
fn drop_owner_ref(st: &mut ClusterState, slot: Kind, key: &Key, owner_uid: &str) {
    let Some(mut obj) = st.store.get_value(slot, &key.0, &key.1) else {
        return;
    };
    if let Some(refs) = obj
        .pointer_mut("/metadata/ownerReferences")
        .and_then(Value::as_array_mut)
    {
        refs.retain(|r| r.get("uid").and_then(Value::as_str) != Some(owner_uid));
        if refs.is_empty()
            && let Some(m) = obj["metadata"].as_object_mut()
        {
            m.remove("ownerReferences");
        }
    }
    st.store.put(slot, obj);
}

/// The garbage collector's answer to an owner that is gone: a dependent whose owners
/// are all gone is deleted (in the background); one that still has another owner only
/// loses the reference.
pub fn collect_garbage(cluster: &Cluster, st: &mut ClusterState, owner: &Value) {
    let uid = str_at(owner, "/metadata/uid");
    for (slot, key) in dependents_of(st, owner) {
        let Some(dep) = st.store.get_value(slot, &key.0, &key.1) else {
            continue;
        };
        let other_owner_alive = dep
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .is_some_and(|refs| {
                refs.iter()
                    .filter(|r| r.get("uid").and_then(Value::as_str) != Some(uid.as_str()))
                    .any(|r| owner_exists(st, r, &key.0))
            });
        if other_owner_alive {
            drop_owner_ref(st, slot, &key, &uid);
        } else if !deleting(&dep) {
            // Already gone is fine.
            let _ = delete_object(
                cluster,
                st,
                slot,
                &key.0,
                &key.1,
                &DeleteOptions::background(),
            );
        }
    }
}

/// Whether the object an owner reference names exists (same uid).
fn owner_exists(st: &ClusterState, owner_ref: &Value, ns: &str) -> bool {
    let s = |k: &str| {
        owner_ref
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let registry = st.registry.clone();
    let Some(rt) = registry.by_kind(&s("apiVersion"), &s("kind")) else {
        return false;
    };
    let ns = if rt.namespaced { ns } else { "" };
    st.store
        .get_value(rt.slot, ns, &s("name"))
        .is_some_and(|o| str_at(&o, "/metadata/uid") == s("uid"))
}

/// Starts terminating a namespace: `deletionTimestamp` set and `phase: Terminating`;
/// the namespace controller then removes its content and finally the namespace.
fn terminate_namespace(
    cluster: &Cluster,
    st: &mut ClusterState,
    mut ns: Value,
    name: &str,
) -> Result<Value, ApiError> {
    if ["default", "kube-system", "kube-public"].contains(&name) {
        return Err(ApiError::forbidden(format!(
            "namespaces \"{name}\" is forbidden: this namespace may not be deleted"
        )));
    }
    if deleting(&ns) {
        return Err(ApiError::precondition(
            Kind::NAMESPACE.info(),
            name,
            "The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.",
        ));
    }
    ns["metadata"]["deletionTimestamp"] = json!(cluster.clock.now_rfc3339());
    ns["metadata"]["deletionGracePeriodSeconds"] = json!(0);
    ns["status"]["phase"] = json!("Terminating");
    st.terminating.insert(name.to_string());
    Ok(st.store.put(Kind::NAMESPACE, ns).value())
}

/// Deletes one object as `opts` say. Returns the object's state after the call.
pub fn delete_object(
    cluster: &Cluster,
    st: &mut ClusterState,
    slot: Kind,
    ns: &str,
    name: &str,
    opts: &DeleteOptions,
) -> Result<Value, ApiError> {
    let registry = st.registry.clone();
    let rt = registry
        .of_slot(slot)
        .next()
        .cloned()
        .unwrap_or_else(|| std::sync::Arc::new(slot.info().clone()));
    let mut obj = st
        .store
        .get_value(slot, ns, name)
        .ok_or_else(|| ApiError::not_found(&rt, name))?;
    if slot == Kind::NAMESPACE {
        return terminate_namespace(cluster, st, obj, name);
    }
    let now = cluster.clock.now_rfc3339();
    let uid = str_at(&obj, "/metadata/uid");
    if slot == Kind::CUSTOM_RESOURCE_DEFINITION && !deleting(&obj) {
        // The CRD controller removes its custom resources, then the finalizer.
        add_finalizer(&mut obj, super::crd::CLEANUP_FINALIZER);
    }
    match opts.propagation {
        Propagation::Orphan => {
            for (dslot, key) in dependents_of(st, &obj) {
                drop_owner_ref(st, dslot, &key, &uid);
            }
        }
        Propagation::Foreground if !deleting(&obj) => {
            obj["metadata"]["deletionTimestamp"] = json!(now);
            obj["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            add_finalizer(&mut obj, FOREGROUND);
            st.foreground
                .insert((slot, ns.to_string(), name.to_string()));
            return Ok(st.store.put(slot, obj).value());
        }
        _ => {}
    }
    let gone = if slot == Kind::POD {
        begin_pod_deletion(&mut st.store, &mut obj, opts.grace, &now)
    } else if has_finalizers(&obj) {
        if !deleting(&obj) {
            obj["metadata"]["deletionTimestamp"] = json!(now);
            obj["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            obj = st.store.put(slot, obj).value();
        }
        false
    } else {
        st.store.remove(slot, ns, name);
        true
    };
    if gone && opts.propagation != Propagation::Orphan {
        collect_garbage(cluster, st, &obj);
    }
    if gone && slot == Kind::PERSISTENT_VOLUME_CLAIM {
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
    let Some(mut pv) = st.store.get_value(Kind::PERSISTENT_VOLUME, "", &volume) else {
        return;
    };
    if str_at(&pv, "/spec/claimRef/uid") != str_at(claim, "/metadata/uid") {
        return;
    }
    if str_at(&pv, "/spec/persistentVolumeReclaimPolicy") == "Retain" {
        pv["status"] = json!({"phase": "Released"});
        st.store.put(Kind::PERSISTENT_VOLUME, pv);
    } else {
        st.store.remove(Kind::PERSISTENT_VOLUME, "", &volume);
    }
}

/// DELETE of one object.
pub fn delete(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    name: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let opts = delete_options(req)?;
    let mut st = cluster.lock();
    let current = st
        .store
        .get_value(rt.slot, ns, name)
        .ok_or_else(|| ApiError::not_found(rt, name))?;
    if let Some(uid) = &opts.uid
        && *uid != str_at(&current, "/metadata/uid")
    {
        return Err(ApiError::precondition(
            rt,
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
            rt,
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
    let out = delete_object(cluster, &mut st, rt.slot, ns, name, &opts)?;
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}

/// DELETE of a collection (with selectors).
pub fn delete_collection(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let filter = super::list::Filter::from_query(&req.query)?;
    let opts = delete_options(req)?;
    let mut st = cluster.lock();
    let keys: Vec<(String, String)> = st
        .store
        .iter(rt.slot, ns, None)
        .filter(|(k, s)| filter.matches(&k.0, &k.1, &s.idx))
        .map(|(k, _)| k.clone())
        .collect();
    let mut items = Vec::new();
    if opts.dry_run {
        items = keys
            .iter()
            .filter_map(|(kns, kname)| st.store.get_value(rt.slot, kns, kname))
            .collect();
    }
    for (kns, kname) in keys.into_iter().filter(|_| !opts.dry_run) {
        if let Ok(v) = delete_object(cluster, &mut st, rt.slot, &kns, &kname, &opts) {
            items.push(v);
        }
    }
    let rv = st.store.rv();
    drop(st);
    cluster.kick();
    Ok(value_response(
        200,
        &json!({"kind": rt.list_kind, "apiVersion": rt.api_version(),
        "metadata": {"resourceVersion": rv.to_string()}, "items": items}),
    ))
}
