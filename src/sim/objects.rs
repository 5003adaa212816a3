//! Constructors for the objects the simulator creates itself (scenario generation and
//! controllers), in the shape the real API server returns them.

use serde_json::{Value, json};

use super::resource::Kind;

/// Tolerations the DefaultTolerationSeconds admission plugin adds to every pod.
pub fn default_tolerations() -> Value {
    json!([
        {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
    ])
}

/// A namespace.
pub fn namespace(name: &str, uid: &str, ts: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": name, "uid": uid, "creationTimestamp": ts,
            "labels": {"kubernetes.io/metadata.name": name}},
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"}
    })
}

/// A pod template for a workload.
pub fn pod_template(
    app: &str,
    cpu_m: u32,
    mem_mi: u32,
    gpus: u32,
    extra_labels: &[(&str, &str)],
) -> Value {
    let mut labels = json!({"app": app});
    for (k, v) in extra_labels {
        labels[*k] = json!(v);
    }
    let mut requests = json!({"cpu": format!("{cpu_m}m"), "memory": format!("{mem_mi}Mi")});
    let mut resources = json!({"requests": requests.clone()});
    let mut spec = json!({
        "containers": [{"name": "app", "image": format!("registry.example.com/{app}:1.4.2"),
            "resources": resources.clone(), "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}],
        "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
        "schedulerName": "default-scheduler"
    });
    if gpus > 0 {
        requests["nvidia.com/gpu"] = json!(gpus.to_string());
        resources = json!({"requests": requests, "limits": {"nvidia.com/gpu": gpus.to_string()}});
        spec["containers"][0]["resources"] = resources;
        spec["nodeSelector"] = json!({"nvidia.com/gpu.present": "true"});
        spec["tolerations"] =
            json!([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]);
    }
    json!({"metadata": {"labels": labels}, "spec": spec})
}

/// An owner reference with `controller: true`.
pub fn controller_ref(kind: Kind, name: &str, uid: &str) -> Value {
    json!({"apiVersion": kind.api_version(), "kind": kind.kind(), "name": name, "uid": uid,
        "controller": true, "blockOwnerDeletion": true})
}

/// A pod created from a template by a controller (not yet scheduled: `Pending`).
pub fn pod_from_template(
    template: &Value,
    ns: &str,
    name: &str,
    uid: &str,
    owner: Value,
    ts: &str,
) -> Value {
    let mut pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "uid": uid, "creationTimestamp": ts,
            "labels": template.pointer("/metadata/labels").cloned().unwrap_or(json!({})),
            "ownerReferences": [owner]},
        "spec": template.get("spec").cloned().unwrap_or(json!({})),
        "status": {"phase": "Pending", "qosClass": "Burstable"}
    });
    let tolerations = pod
        .pointer("/spec/tolerations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut all = tolerations;
    if let Some(defaults) = default_tolerations().as_array() {
        all.extend(defaults.iter().cloned());
    }
    pod["spec"]["tolerations"] = Value::Array(all);
    pod
}

/// Marks a pod as bound to `node` and Running (and Ready when `ready`).
pub fn set_running(
    pod: &mut Value,
    node: &str,
    host_ip: &str,
    pod_ip: &str,
    ts: &str,
    ready: bool,
) {
    pod["spec"]["nodeName"] = json!(node);
    let r = if ready { "True" } else { "False" };
    let container = pod
        .pointer("/spec/containers/0/name")
        .cloned()
        .unwrap_or(json!("app"));
    let unready = format!(
        "containers with unready status: [{}]",
        container.as_str().unwrap_or("app")
    );
    let image = pod
        .pointer("/spec/containers/0/image")
        .cloned()
        .unwrap_or(json!(""));
    pod["status"] = json!({
        "phase": "Running", "hostIP": host_ip, "podIP": pod_ip, "podIPs": [{"ip": pod_ip}],
        "startTime": ts, "qosClass": "Burstable",
        "conditions": [
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": ts},
            {"type": "Initialized", "status": "True", "lastTransitionTime": ts},
            {"type": "ContainersReady", "status": r, "lastTransitionTime": ts},
            {"type": "Ready", "status": r, "lastTransitionTime": ts}
        ],
        "containerStatuses": [{"name": container, "image": image, "imageID": "", "ready": ready,
            "started": true, "restartCount": 0, "state": {"running": {"startedAt": ts}}}]
    });
    // Until its containers are ready the kubelet says why, which is also how it knows
    // later that this NotReady is its own to lift.
    if !ready {
        for c in pod["status"]["conditions"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .skip(2)
        {
            c["reason"] = json!("ContainersNotReady");
            c["message"] = json!(unready);
        }
    }
}

/// Whether a pod has condition Ready=True.
pub fn pod_ready(pod: &Value) -> bool {
    condition_status(pod, "Ready") == Some("True")
}

/// The status of a condition (`True`/`False`/`Unknown`).
pub fn condition_status<'a>(obj: &'a Value, ctype: &str) -> Option<&'a str> {
    obj.pointer("/status/conditions")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(ctype))?
        .get("status")
        .and_then(Value::as_str)
}

/// Sets a condition (replacing one of the same type; transition time only on change).
pub fn set_condition(
    obj: &mut Value,
    ctype: &str,
    status: &str,
    reason: &str,
    message: &str,
    ts: &str,
) {
    if !obj["status"].is_object() {
        obj["status"] = json!({});
    }
    if !obj["status"]["conditions"].is_array() {
        obj["status"]["conditions"] = json!([]);
    }
    let Some(list) = obj["status"]["conditions"].as_array_mut() else {
        return;
    };
    let new = json!({"type": ctype, "status": status, "reason": reason, "message": message,
        "lastTransitionTime": ts, "lastHeartbeatTime": ts});
    match list
        .iter_mut()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(ctype))
    {
        Some(c) if c.get("status").and_then(Value::as_str) == Some(status) => {}
        Some(c) => *c = new,
        None => list.push(new),
    }
}

/// The controller owner reference of an object, as `(kind, name, uid)`.
pub fn controller_of(obj: &Value) -> Option<(String, String, String)> {
    obj.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)?
        .iter()
        .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true))
        .map(|o| {
            let s = |k: &str| {
                o.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            (s("kind"), s("name"), s("uid"))
        })
}

/// Whether the object is being deleted.
pub fn deleting(obj: &Value) -> bool {
    obj.pointer("/metadata/deletionTimestamp")
        .is_some_and(|v| !v.is_null())
}
