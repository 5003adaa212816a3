//! Get, create, replace, patch and delete (with grace periods, finalizers, preconditions
//! and owner cascading), with optimistic concurrency and `managedFields` tracking.

use axum::response::Response;
use http::header;
use serde_json::{Value, json};

use super::error::ApiError;
use super::fields;
use super::fleet::{Cluster, ClusterState};
use super::http::{ApiRequest, json_response, value_response};
use super::objects::{default_tolerations, deleting};
use super::patch::{self, PatchKind};
use super::resource::Kind;
use super::store::{Stored, str_at};
use super::validation::{
    self,
    options::{self, Write},
};

/// GET of one object (also `/status`); a one-row Table when the client asks for one.
pub fn get(
    cluster: &Cluster,
    kind: Kind,
    ns: &str,
    name: &str,
    accept: &str,
) -> Result<Response, ApiError> {
    let st = cluster.lock();
    let s = st
        .store
        .get(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    if super::table::wants_table(accept) {
        let obj = s.value();
        let meta = json!({"resourceVersion": obj.pointer("/metadata/resourceVersion").cloned().unwrap_or(Value::Null)});
        return Ok(value_response(
            200,
            &super::table::table(kind, &[obj], meta, &cluster.clock),
        ));
    }
    Ok(json_response(200, s.json.clone()))
}

fn check_type(kind: Kind, obj: &Value) -> Result<(), ApiError> {
    if let Some(k) = obj.get("kind").and_then(Value::as_str)
        && k != kind.kind()
    {
        return Err(ApiError::bad_request(format!(
            "the kind in the data ({k}) does not match the expected kind ({})",
            kind.kind()
        )));
    }
    if let Some(av) = obj.get("apiVersion").and_then(Value::as_str)
        && av != kind.api_version()
    {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({av}) does not match the expected API version ({})",
            kind.api_version()
        )));
    }
    Ok(())
}

/// Fills in what the API server sets on create (and kind-specific defaults).
fn prepare_create(
    cluster: &Cluster,
    st: &mut ClusterState,
    kind: Kind,
    ns: &str,
    mut obj: Value,
    manager: Option<&str>,
) -> Result<Value, ApiError> {
    check_type(kind, &obj)?;
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    let body_ns = str_at(&obj, "/metadata/namespace");
    if kind.namespaced() {
        if !body_ns.is_empty() && body_ns != ns {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        if st.store.get(Kind::Namespace, "", ns).is_none() {
            return Err(ApiError::namespace_not_found(ns));
        }
        obj["metadata"]["namespace"] = json!(ns);
    } else if let Some(m) = obj["metadata"].as_object_mut() {
        m.remove("namespace");
    }
    let mut name = str_at(&obj, "/metadata/name");
    let prefix = str_at(&obj, "/metadata/generateName");
    if name.is_empty() && !prefix.is_empty() {
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
    obj["apiVersion"] = json!(kind.api_version());
    obj["kind"] = json!(kind.kind());
    match kind {
        Kind::Pod => {
            let spec = &mut obj["spec"];
            for (k, v) in [
                ("restartPolicy", json!("Always")),
                ("terminationGracePeriodSeconds", json!(30)),
                ("dnsPolicy", json!("ClusterFirst")),
                ("schedulerName", json!("default-scheduler")),
            ] {
                if spec.get(k).is_none() {
                    spec[k] = v;
                }
            }
            let mut tol = spec
                .get("tolerations")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for d in default_tolerations()
                .as_array()
                .cloned()
                .unwrap_or_default()
            {
                if !tol.iter().any(|t| t.get("key") == d.get("key")) {
                    tol.push(d);
                }
            }
            spec["tolerations"] = Value::Array(tol);
            let bound = spec
                .get("nodeName")
                .and_then(Value::as_str)
                .is_some_and(|n| !n.is_empty());
            obj["status"] = json!({"phase": "Pending", "qosClass": "Burstable"});
            if bound {
                super::objects::set_condition(&mut obj, "PodScheduled", "True", "", "", &now);
            }
        }
        Kind::Namespace => {
            obj["spec"] = json!({"finalizers": ["kubernetes"]});
            obj["status"] = json!({"phase": "Active"});
            obj["metadata"]["labels"]["kubernetes.io/metadata.name"] = json!(name);
        }
        _ => {}
    }
    if let Some(m) = manager {
        fields::record_update(None, &mut obj, m, kind, None, &now);
    }
    // Validation comes before storage, so an invalid object is refused even when its
    // name is taken.
    validation::validate_create(kind.group(), kind.kind(), &obj)?;
    if st.store.get(kind, ns, &name).is_some() {
        return Err(ApiError::already_exists(kind, &name));
    }
    Ok(obj)
}

/// POST to a collection.
pub fn create(
    cluster: &Cluster,
    kind: Kind,
    ns: &str,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    options::write_options(&req.query, Write::Create)?;
    let obj = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    let mut st = cluster.lock();
    let obj = prepare_create(cluster, &mut st, kind, ns, obj, Some(&req.manager()))?;
    if req.dry_run() {
        return Ok(value_response(201, &obj));
    }
    let stored = st.store.put(kind, obj);
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

/// What an update writes and how.
struct Commit<'a> {
    /// `Some("status")` for the status subresource.
    sub: Option<&'a str>,
    /// Field ownership.
    managed: Managed<'a>,
    /// Validate and answer, but store nothing (`dryRun=All`).
    dry_run: bool,
}

/// Stores an updated object: keeps what clients cannot change, keeps status (or only
/// changes status, for the subresource), validates the result, bumps `generation` on
/// spec changes, records field ownership, completes deletion once finalizers are gone,
/// and skips no-op writes.
fn commit_update(
    cluster: &Cluster,
    st: &mut ClusterState,
    kind: Kind,
    old: &Value,
    mut new: Value,
    commit: Commit,
) -> Result<Value, ApiError> {
    let Commit {
        sub,
        managed,
        dry_run,
    } = commit;
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
    } else if kind.has_status() {
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
    new["apiVersion"] = json!(kind.api_version());
    new["kind"] = json!(kind.kind());
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("metadata");
            o.remove("status");
        }
        v
    };
    if kind.tracks_generation() && strip(old) != strip(&new) {
        let g = old
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        new["metadata"]["generation"] = json!(g + 1);
    }
    let now = cluster.clock.now_rfc3339();
    match managed {
        Managed::Keep => {}
        Managed::Update(m) => {
            if let Some(mf) = old.pointer("/metadata/managedFields") {
                new["metadata"]["managedFields"] = mf.clone();
            }
            fields::record_update(Some(old), &mut new, m, kind, sub, &now);
        }
    }
    if !status_only {
        validation::validate_update(kind.group(), kind.kind(), &new, old)?;
    }
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
    if dry_run {
        return Ok(new);
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
        if kind != Kind::Pod || !bound {
            st.store.remove(kind, &ns, &name);
            return Ok(new);
        }
    }
    let stored: Stored = st.store.put(kind, new);
    Ok(stored.value())
}

/// PUT of an object (or its status).
pub fn replace(
    cluster: &Cluster,
    kind: Kind,
    ns: &str,
    name: &str,
    sub: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    options::write_options(&req.query, Write::Update)?;
    let new = req
        .json()?
        .ok_or_else(|| ApiError::bad_request("empty body"))?;
    check_type(kind, &new)?;
    let body_name = str_at(&new, "/metadata/name");
    if body_name != name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        )));
    }
    let mut st = cluster.lock();
    let old = st
        .store
        .get_value(kind, ns, name)
        .ok_or_else(|| ApiError::not_found(kind, name))?;
    let rv = str_at(&new, "/metadata/resourceVersion");
    if rv.is_empty() {
        if !kind.allows_unconditional_update() {
            return Err(ApiError::invalid(
                kind,
                name,
                "metadata.resourceVersion",
                "Invalid value: 0x0: must be specified for an update",
            ));
        }
    } else if rv != str_at(&old, "/metadata/resourceVersion") {
        return Err(ApiError::conflict(kind, name));
    }
    let manager = req.manager();
    let out = commit_update(
        cluster,
        &mut st,
        kind,
        &old,
        new,
        Commit {
            sub,
            managed: Managed::Update(&manager),
            dry_run: req.dry_run(),
        },
    )?;
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}

/// PATCH of an object (or its status): merge, strategic merge, JSON patch, or
/// server-side apply (which creates the object when it does not exist).
pub fn patch(
    cluster: &Cluster,
    kind: Kind,
    ns: &str,
    name: &str,
    sub: Option<&str>,
    req: &ApiRequest,
) -> Result<Response, ApiError> {
    let pk = PatchKind::from_content_type(req.header(header::CONTENT_TYPE))?;
    options::write_options(
        &req.query,
        Write::Patch {
            apply: pk == PatchKind::Apply,
        },
    )?;
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
    let old = st.store.get_value(kind, ns, name);
    let now = cluster.clock.now_rfc3339();
    let out = if pk == PatchKind::Apply {
        // Present: the patch options were checked above.
        let manager = req.manager();
        check_type(kind, &body)?;
        let force = req.query.get("force").is_some_and(|f| f == "true");
        let body_name = str_at(&body, "/metadata/name");
        if !body_name.is_empty() && body_name != name {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({body_name}) does not match the name on the URL ({name})"
            )));
        }
        let merged = fields::apply(old.as_ref(), &body, &manager, force, kind, name, &now)?;
        match old {
            None => {
                let mut created = merged;
                created["metadata"]["name"] = json!(name);
                let mf = created.pointer("/metadata/managedFields").cloned();
                let mut created = prepare_create(cluster, &mut st, kind, ns, created, None)?;
                if let Some(mf) = mf {
                    created["metadata"]["managedFields"] = mf;
                }
                if req.dry_run() {
                    return Ok(value_response(201, &created));
                }
                let stored = st.store.put(kind, created);
                drop(st);
                cluster.kick();
                return Ok(json_response(201, stored.json));
            }
            Some(old) => commit_update(
                cluster,
                &mut st,
                kind,
                &old,
                merged,
                Commit {
                    sub,
                    managed: Managed::Keep,
                    dry_run: req.dry_run(),
                },
            )?,
        }
    } else {
        let old = old.ok_or_else(|| ApiError::not_found(kind, name))?;
        let mut new = old.clone();
        match pk {
            PatchKind::Merge => patch::merge_patch(&mut new, &body),
            PatchKind::Strategic => patch::strategic_merge(&mut new, &body),
            PatchKind::Json => patch::json_patch(&mut new, &body)?,
            PatchKind::Apply => {}
        }
        let rv = str_at(&new, "/metadata/resourceVersion");
        if !rv.is_empty() && rv != str_at(&old, "/metadata/resourceVersion") {
            return Err(ApiError::conflict(kind, name));
        }
        let manager = req.manager();
        commit_update(
            cluster,
            &mut st,
            kind,
            &old,
            new,
            Commit {
                sub,
                managed: Managed::Update(&manager),
                dry_run: req.dry_run(),
            },
        )?
    };
    drop(st);
    cluster.kick();
    Ok(value_response(200, &out))
}
