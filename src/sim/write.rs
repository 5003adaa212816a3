//! Get, create, replace and patch of any served type, with optimistic concurrency,
//! `managedFields` tracking, the namespace lifecycle, and each kind's defaults (see
//! [`super::defaults`]) and validation (see [`super::validation`]).

use axum::response::Response;
use http::header;
use serde_json::{Value, json};

use super::defaults;
use super::error::ApiError;
use super::fields;
use super::fleet::{Cluster, ClusterState};
use super::http::{ApiRequest, json_response, value_response};
use super::objects::deleting;
use super::patch::{self, PatchKind};
use super::resource::{Kind, ResourceType};
use super::store::{Stored, str_at};
use super::validation::{
    self, BadValue, FieldError, Invalid,
    options::{self, Write},
};

/// GET of one object (also `/status`); a one-row Table when the client asks for one.
pub fn get(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    name: &str,
    accept: &str,
) -> Result<Response, ApiError> {
    let st = cluster.lock();
    let s = st
        .store
        .get(rt.slot, ns, name)
        .ok_or_else(|| ApiError::not_found(rt, name))?;
    if super::table::wants_table(accept) {
        let obj = s.value();
        let meta = json!({"resourceVersion": obj.pointer("/metadata/resourceVersion").cloned().unwrap_or(Value::Null)});
        return Ok(value_response(
            200,
            &super::table::table(rt, &[obj], meta, &cluster.clock),
        ));
    }
    Ok(json_response(200, s.json.clone()))
}

fn check_type(rt: &ResourceType, obj: &Value) -> Result<(), ApiError> {
    if let Some(k) = obj.get("kind").and_then(Value::as_str)
        && k != rt.kind
    {
        return Err(ApiError::bad_request(format!(
            "the kind in the data ({k}) does not match the expected kind ({})",
            rt.kind
        )));
    }
    if let Some(av) = obj.get("apiVersion").and_then(Value::as_str)
        && av != rt.api_version()
    {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({av}) does not match the expected API version ({})",
            rt.api_version()
        )));
    }
    Ok(())
}

/// Whether namespace `ns` is being terminated (nothing new may be created in it).
pub fn namespace_terminating(st: &ClusterState, ns: &str) -> bool {
    st.store
        .get(Kind::NAMESPACE, "", ns)
        .is_some_and(|s| s.idx.phase.as_deref() == Some("Terminating"))
}

/// Fills in what the API server sets on create, the kind's defaults, and validates the
/// result.
fn prepare_create(
    cluster: &Cluster,
    st: &mut ClusterState,
    rt: &ResourceType,
    ns: &str,
    mut obj: Value,
    manager: Option<&str>,
) -> Result<Value, ApiError> {
    check_type(rt, &obj)?;
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    let body_ns = str_at(&obj, "/metadata/namespace");
    let mut name = str_at(&obj, "/metadata/name");
    if rt.namespaced {
        if !body_ns.is_empty() && body_ns != ns {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        if st.store.get(Kind::NAMESPACE, "", ns).is_none() {
            return Err(ApiError::namespace_not_found(ns));
        }
        if namespace_terminating(st, ns) {
            return Err(ApiError::namespace_terminating(rt, &name, ns));
        }
        obj["metadata"]["namespace"] = json!(ns);
    } else if let Some(m) = obj["metadata"].as_object_mut() {
        m.remove("namespace");
    }
    if name.is_empty() {
        let prefix = str_at(&obj, "/metadata/generateName");
        if prefix.is_empty() {
            return Err(Invalid::field(
                rt,
                "",
                FieldError::required("metadata.name", "name or generateName is required"),
            )
            .into());
        }
        name = format!("{prefix}{}", st.store.name_suffix());
        obj["metadata"]["name"] = json!(name);
    }
    let now = cluster.clock.now_rfc3339();
    let uid = st.store.new_uid();
    let meta = &mut obj["metadata"];
    meta["uid"] = json!(uid);
    meta["creationTimestamp"] = json!(now);
    meta["generation"] = json!(1);
    if let Some(m) = meta.as_object_mut() {
        for k in [
            "resourceVersion",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "managedFields",
            "selfLink",
        ] {
            m.remove(k);
        }
    }
    obj["apiVersion"] = json!(rt.api_version());
    obj["kind"] = json!(rt.kind);
    defaults::on_create(cluster, st, rt, &mut obj);
    defaults::on_write(st, rt, &mut obj);
    // Validation comes before storage, so an invalid object is refused even when its
    // name is taken.
    validation::validate_create(rt, &obj)?;
    if let Some(m) = manager {
        fields::record_update(None, &mut obj, m, rt, None, &now);
    }
    if st.store.get(rt.slot, ns, &name).is_some() {
        return Err(ApiError::already_exists(rt, &name));
    }
    Ok(obj)
}

/// Creates an object as a POST would (defaults, validation, namespace lifecycle), for
/// requests and for a scenario's declared objects. Returns the stored object.
pub fn create_object(
    cluster: &Cluster,
    st: &mut ClusterState,
    rt: &ResourceType,
    ns: &str,
    obj: Value,
    manager: &str,
) -> Result<Value, ApiError> {
    let obj = prepare_create(cluster, st, rt, ns, obj, Some(manager))?;
    Ok(st.store.put(rt.slot, obj).value())
}

/// Replaces a stored object with `obj` as a PUT by `manager` would (the same
/// validation, immutable fields and controllers' view), without a resourceVersion check:
/// for what a scenario declares twice.
pub fn update_object(
    cluster: &Cluster,
    st: &mut ClusterState,
    rt: &ResourceType,
    ns: &str,
    mut obj: Value,
    manager: &str,
) -> Result<Value, ApiError> {
    let name = str_at(&obj, "/metadata/name");
    let old = st
        .store
        .get_value(rt.slot, ns, &name)
        .ok_or_else(|| ApiError::not_found(rt, &name))?;
    obj["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"].clone();
    commit_update(cluster, st, rt, &old, obj, None, Managed::Update(manager))
}

/// POST to a collection.
pub fn create(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    options::write_options(&req.query, Write::Create)?;
    let obj = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    let mut st = cluster.lock();
    let obj = prepare_create(cluster, &mut st, rt, ns, obj, Some(&req.manager()))?;
    if req.dry_run() {
        return Ok(value_response(201, &obj));
    }
    let stored = st.store.put(rt.slot, obj);
    drop(st);
    cluster.kick();
    Ok(json_response(201, stored.json))
}

/// How `managedFields` are maintained by an update.
enum Managed<'a> {
    /// Already computed (server-side apply).
    Keep,
    /// An `Update` by this manager.
    Update(&'a str),
}

/// The object an update would store: keeps what clients cannot change, keeps status (or
/// only changes status, for the subresource), bumps `generation` on spec changes,
/// records field ownership, and validates the result.
fn updated(
    cluster: &Cluster,
    st: &ClusterState,
    rt: &ResourceType,
    old: &Value,
    mut new: Value,
    sub: Option<&str>,
    managed: Managed,
) -> Result<Value, ApiError> {
    let status_only = sub == Some("status");
    if status_only {
        let status = new.get("status").cloned();
        new = old.clone();
        match status {
            Some(s) => new["status"] = s,
            None => {
                if let Some(o) = new.as_object_mut() {
                    o.remove("status");
                }
            }
        }
    } else if rt.status {
        match old.get("status") {
            Some(s) => new["status"] = s.clone(),
            None => {
                if let Some(o) = new.as_object_mut() {
                    o.remove("status");
                }
            }
        }
    }
    if !new.get("metadata").is_some_and(Value::is_object) {
        new["metadata"] = json!({});
    }
    for k in [
        "uid",
        "creationTimestamp",
        "name",
        "namespace",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
    ] {
        match old.pointer(&format!("/metadata/{k}")) {
            Some(v) => new["metadata"][k] = v.clone(),
            None => {
                if let Some(m) = new["metadata"].as_object_mut() {
                    m.remove(k);
                }
            }
        }
    }
    new["apiVersion"] = json!(rt.api_version());
    new["kind"] = json!(rt.kind);
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("metadata");
            o.remove("status");
        }
        v
    };
    if rt.generation && strip(old) != strip(&new) {
        let g = old
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        new["metadata"]["generation"] = json!(g + 1);
    }
    defaults::on_write(st, rt, &mut new);
    if status_only {
        validation::validate_status_update(rt, &new)?;
    } else {
        validation::validate_update(rt, &new, old)?;
    }
    let now = cluster.clock.now_rfc3339();
    match managed {
        Managed::Keep => {}
        Managed::Update(m) => {
            if let Some(mf) = old.pointer("/metadata/managedFields") {
                new["metadata"]["managedFields"] = mf.clone();
            }
            fields::record_update(Some(old), &mut new, m, rt, sub, &now);
        }
    }
    Ok(new)
}

/// Stores an updated object (see [`updated`]), completes deletion once finalizers are
/// gone, and skips no-op writes.
fn commit_update(
    cluster: &Cluster,
    st: &mut ClusterState,
    rt: &ResourceType,
    old: &Value,
    new: Value,
    sub: Option<&str>,
    managed: Managed,
) -> Result<Value, ApiError> {
    let new = updated(cluster, st, rt, old, new, sub, managed)?;
    let same = {
        let mut a = old.clone();
        let mut b = new.clone();
        for v in [&mut a, &mut b] {
            if let Some(m) = v["metadata"].as_object_mut() {
                m.remove("resourceVersion");
                m.remove("managedFields");
            }
        }
        a == b
    };
    if same {
        return Ok(old.clone());
    }
    let ns = str_at(&new, "/metadata/namespace");
    let name = str_at(&new, "/metadata/name");
    let finalizers_empty = new
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_none_or(|f| f.is_empty());
    if deleting(&new) && finalizers_empty {
        let bound = new
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty());
        if rt.slot != Kind::POD || !bound {
            st.store.remove(rt.slot, &ns, &name);
            super::delete::collect_garbage(cluster, st, &new);
            return Ok(new);
        }
    }
    let stored: Stored = st.store.put(rt.slot, new);
    Ok(stored.value())
}

/// Checks the request's resourceVersion against the stored one.
fn check_version(
    rt: &ResourceType,
    name: &str,
    new: &Value,
    old: &Value,
    required: bool,
) -> Result<(), ApiError> {
    let rv = str_at(new, "/metadata/resourceVersion");
    if rv.is_empty() {
        if required && !rt.unconditional_update {
            return Err(Invalid::field(
                rt,
                name,
                FieldError::invalid(
                    "metadata.resourceVersion",
                    BadValue::Raw("0x0".into()),
                    "must be specified for an update",
                ),
            )
            .into());
        }
    } else if rv != str_at(old, "/metadata/resourceVersion") {
        return Err(ApiError::conflict(rt, name));
    }
    Ok(())
}

/// PUT of an object (or its status).
pub fn replace(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    name: &str,
    sub: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    options::write_options(&req.query, Write::Update)?;
    let new = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    check_type(rt, &new)?;
    let body_name = str_at(&new, "/metadata/name");
    if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    let mut st = cluster.lock();
    let old = st
        .store
        .get_value(rt.slot, ns, name)
        .ok_or_else(|| ApiError::not_found(rt, name))?;
    check_version(rt, name, &new, &old, true)?;
    let manager = req.manager();
    if req.dry_run() {
        let out = updated(cluster, &st, rt, &old, new, sub, Managed::Update(&manager))?;
        return Ok(value_response(200, &out));
    }
    let out = commit_update(
        cluster,
        &mut st,
        rt,
        &old,
        new,
        sub,
        Managed::Update(&manager),
    )?;
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}

/// PATCH of an object (or its status): merge, strategic merge (built-in types only, as
/// on a real server), JSON patch, or server-side apply (which creates the object when it
/// does not exist).
pub fn patch(
    cluster: &Cluster,
    rt: &ResourceType,
    ns: &str,
    name: &str,
    sub: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let content_type = req.header(header::CONTENT_TYPE);
    let pk = PatchKind::from_content_type(content_type)?;
    options::write_options(
        &req.query,
        Write::Patch {
            apply: pk == PatchKind::Apply,
        },
    )?;
    if pk == PatchKind::Strategic && rt.custom {
        return Err(ApiError::unsupported_media_for_custom(content_type));
    }
    let body = match req.json() {
        Ok(Some(v)) => v,
        Ok(None) => return Err(ApiError::bad_request("empty patch")),
        Err(e) if pk == PatchKind::Apply => {
            let text = std::str::from_utf8(&req.body).map_err(|_| e.clone())?;
            super::yaml::parse(text)
                .map_err(|m| ApiError::bad_request(format!("error decoding YAML: {m}")))?
        }
        Err(e) => return Err(e),
    };
    let mut st = cluster.lock();
    let old = st.store.get_value(rt.slot, ns, name);
    let now = cluster.clock.now_rfc3339();
    let out = if pk == PatchKind::Apply {
        let manager = req
            .query
            .get("fieldManager")
            .filter(|m| !m.is_empty())
            .ok_or_else(|| {
                // Already refused by the options check; kept so no path applies
                // without a manager.
                ApiError::from(Invalid::named(
                    "meta.k8s.io",
                    "PatchOptions",
                    "",
                    vec![FieldError::required(
                        "fieldManager",
                        "is required for apply patch",
                    )],
                ))
            })?;
        check_type(rt, &body)?;
        let force = req.query.get("force").is_some_and(|f| f == "true");
        let body_name = str_at(&body, "/metadata/name");
        if !body_name.is_empty() && body_name != name {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({body_name}) does not match the name on the URL ({name})"
            )));
        }
        let merged = fields::apply(old.as_ref(), &body, manager, force, rt, name, &now)?;
        match old {
            None => {
                let mut created = merged;
                created["metadata"]["name"] = json!(name);
                let mf = created.pointer("/metadata/managedFields").cloned();
                let mut created = prepare_create(cluster, &mut st, rt, ns, created, None)?;
                if let Some(mf) = mf {
                    created["metadata"]["managedFields"] = mf;
                }
                if req.dry_run() {
                    return Ok(value_response(201, &created));
                }
                let stored = st.store.put(rt.slot, created);
                drop(st);
                cluster.kick();
                return Ok(json_response(201, stored.json));
            }
            Some(old) => {
                if req.dry_run() {
                    let out = updated(cluster, &st, rt, &old, merged, sub, Managed::Keep)?;
                    return Ok(value_response(200, &out));
                }
                commit_update(cluster, &mut st, rt, &old, merged, sub, Managed::Keep)?
            }
        }
    } else {
        let old = old.ok_or_else(|| ApiError::not_found(rt, name))?;
        let mut new = old.clone();
        match pk {
            PatchKind::Merge => patch::merge_patch(&mut new, &body),
            PatchKind::Strategic => patch::strategic_merge(&mut new, &body),
            PatchKind::Json => patch::json_patch(&mut new, &body)?,
            PatchKind::Apply => {}
        }
        check_version(rt, name, &new, &old, false)?;
        let manager = req.manager();
        if req.dry_run() {
            let out = updated(cluster, &st, rt, &old, new, sub, Managed::Update(&manager))?;
            return Ok(value_response(200, &out));
        }
        commit_update(
            cluster,
            &mut st,
            rt,
            &old,
            new,
            sub,
            Managed::Update(&manager),
        )?
    };
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}

/// PUT of `/api/v1/namespaces/{name}/finalize`: replaces `spec.finalizers` only. A
/// terminating namespace whose finalizers are all gone is removed at once, whatever it
/// still holds (what "force-finalizing" a stuck namespace does on a real cluster).
pub fn finalize_namespace(
    cluster: &Cluster,
    name: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let rt = Kind::NAMESPACE.info();
    let body = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    check_type(rt, &body)?;
    let body_name = str_at(&body, "/metadata/name");
    if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    let mut st = cluster.lock();
    let mut ns = st
        .store
        .get_value(Kind::NAMESPACE, "", name)
        .ok_or_else(|| ApiError::not_found(rt, name))?;
    check_version(rt, name, &body, &ns, false)?;
    ns["spec"]["finalizers"] = body
        .pointer("/spec/finalizers")
        .cloned()
        .unwrap_or(json!([]));
    let spec_empty = ns["spec"]["finalizers"]
        .as_array()
        .is_none_or(|f| f.is_empty());
    let meta_empty = ns
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_none_or(|f| f.is_empty());
    let out = if deleting(&ns) && spec_empty && meta_empty {
        st.store.remove(Kind::NAMESPACE, "", name);
        st.terminating.remove(name);
        ns
    } else {
        st.store.put(Kind::NAMESPACE, ns).value()
    };
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}
