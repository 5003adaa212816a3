//! Server-side printing: `meta.k8s.io/v1 Table` answers for clients that ask for them
//! (kubectl `get`), with the columns kubectl shows for nodes, pods, workloads and volumes.

use serde_json::{Value, json};

use super::clock::{SimClock, parse_time};
use super::objects::{condition_status, deleting};
use super::resource::{Kind, ResourceType};

/// Whether the `Accept` header asks for a Table.
pub fn wants_table(accept: &str) -> bool {
    accept
        .split(',')
        .next()
        .is_some_and(|first| first.contains("as=Table"))
}

fn col(name: &str, ty: &str, priority: i32) -> Value {
    json!({"name": name, "type": ty, "format": if name == "Name" { "name" } else { "" }, "description": "", "priority": priority})
}

fn columns(kind: Kind) -> Vec<Value> {
    match kind {
        Kind::NODE => vec![
            col("Name", "string", 0),
            col("Status", "string", 0),
            col("Roles", "string", 0),
            col("Age", "string", 0),
            col("Version", "string", 0),
            col("Internal-IP", "string", 1),
            col("External-IP", "string", 1),
            col("OS-Image", "string", 1),
            col("Kernel-Version", "string", 1),
            col("Container-Runtime", "string", 1),
        ],
        Kind::POD => vec![
            col("Name", "string", 0),
            col("Ready", "string", 0),
            col("Status", "string", 0),
            col("Restarts", "string", 0),
            col("Age", "string", 0),
            col("IP", "string", 1),
            col("Node", "string", 1),
            col("Nominated Node", "string", 1),
            col("Readiness Gates", "string", 1),
        ],
        Kind::DEPLOYMENT => vec![
            col("Name", "string", 0),
            col("Ready", "string", 0),
            col("Up-to-date", "integer", 0),
            col("Available", "integer", 0),
            col("Age", "string", 0),
        ],
        Kind::REPLICA_SET => vec![
            col("Name", "string", 0),
            col("Desired", "integer", 0),
            col("Current", "integer", 0),
            col("Ready", "integer", 0),
            col("Age", "string", 0),
        ],
        Kind::DAEMON_SET => vec![
            col("Name", "string", 0),
            col("Desired", "integer", 0),
            col("Current", "integer", 0),
            col("Ready", "integer", 0),
            col("Up-to-date", "integer", 0),
            col("Available", "integer", 0),
            col("Age", "string", 0),
        ],
        Kind::STATEFUL_SET => vec![
            col("Name", "string", 0),
            col("Ready", "string", 0),
            col("Age", "string", 0),
        ],
        Kind::PERSISTENT_VOLUME_CLAIM => vec![
            col("Name", "string", 0),
            col("Status", "string", 0),
            col("Volume", "string", 0),
            col("Capacity", "string", 0),
            col("Access Modes", "string", 0),
            col("StorageClass", "string", 0),
            col("Age", "string", 0),
            col("VolumeMode", "string", 1),
        ],
        Kind::PERSISTENT_VOLUME => vec![
            col("Name", "string", 0),
            col("Capacity", "string", 0),
            col("Access Modes", "string", 0),
            col("Reclaim Policy", "string", 0),
            col("Status", "string", 0),
            col("Claim", "string", 0),
            col("StorageClass", "string", 0),
            col("Reason", "string", 0),
            col("Age", "string", 0),
            col("VolumeMode", "string", 1),
        ],
        Kind::POD_DISRUPTION_BUDGET => vec![
            col("Name", "string", 0),
            col("Min Available", "string", 0),
            col("Max Unavailable", "string", 0),
            col("Allowed Disruptions", "integer", 0),
            col("Age", "string", 0),
        ],
        Kind::NAMESPACE => vec![
            col("Name", "string", 0),
            col("Status", "string", 0),
            col("Age", "string", 0),
        ],
        Kind::LEASE => vec![
            col("Name", "string", 0),
            col("Holder", "string", 0),
            col("Age", "string", 0),
        ],
        Kind::EVENT => vec![
            col("Last Seen", "string", 0),
            col("Type", "string", 0),
            col("Reason", "string", 0),
            col("Object", "string", 0),
            col("Message", "string", 0),
        ],
        Kind::SERVICE => vec![
            col("Name", "string", 0),
            col("Type", "string", 0),
            col("Cluster-IP", "string", 0),
            col("External-IP", "string", 0),
            col("Port(s)", "string", 0),
            col("Age", "string", 0),
            col("Selector", "string", 1),
        ],
        Kind::ENDPOINTS => vec![
            col("Name", "string", 0),
            col("Endpoints", "string", 0),
            col("Age", "string", 0),
        ],
        _ => vec![col("Name", "string", 0), col("Age", "string", 0)],
    }
}

fn int(o: &Value, p: &str) -> Value {
    json!(o.pointer(p).and_then(Value::as_i64).unwrap_or(0))
}

fn int_or_str(o: &Value, p: &str) -> Value {
    match o.pointer(p) {
        Some(Value::Number(n)) => json!(n.to_string()),
        Some(Value::String(s)) => json!(s),
        _ => json!("N/A"),
    }
}

/// Access modes as kubectl abbreviates them (`RWO,ROX`).
fn access_modes(modes: Option<&Value>) -> String {
    modes
        .and_then(Value::as_array)
        .map(|ms| {
            ms.iter()
                .filter_map(Value::as_str)
                .map(|m| match m {
                    "ReadWriteOnce" => "RWO",
                    "ReadOnlyMany" => "ROX",
                    "ReadWriteMany" => "RWX",
                    "ReadWriteOncePod" => "RWOP",
                    other => other,
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default()
}

/// Kubernetes' short age format (`5s`, `3m`, `2h`, `90d`).
fn age(obj: &Value, clock: &SimClock) -> String {
    let Some(ts) = obj
        .pointer("/metadata/creationTimestamp")
        .and_then(Value::as_str)
        .and_then(parse_time)
    else {
        return "<unknown>".into();
    };
    let secs = (clock.elapsed_secs() - clock.secs_at(ts)).max(0.0) as u64;
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86400),
    }
}

fn cells(kind: Kind, o: &Value, clock: &SimClock) -> Vec<Value> {
    let s = |p: &str| {
        o.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("<none>")
            .to_string()
    };
    let name = s("/metadata/name");
    match kind {
        Kind::NODE => {
            let mut status = match condition_status(o, "Ready") {
                Some("True") => "Ready".to_string(),
                _ => "NotReady".to_string(),
            };
            if o.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
                status.push_str(",SchedulingDisabled");
            }
            let roles: Vec<String> = o
                .pointer("/metadata/labels")
                .and_then(Value::as_object)
                .map(|m| {
                    m.keys()
                        .filter_map(|k| {
                            k.strip_prefix("node-role.kubernetes.io/").map(String::from)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let ip = o
                .pointer("/status/addresses")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().find(|x| x["type"] == "InternalIP"))
                .and_then(|x| x["address"].as_str())
                .unwrap_or("<none>");
            vec![
                json!(name),
                json!(status),
                json!(if roles.is_empty() {
                    "<none>".into()
                } else {
                    roles.join(",")
                }),
                json!(age(o, clock)),
                json!(s("/status/nodeInfo/kubeletVersion")),
                json!(ip),
                json!("<none>"),
                json!(s("/status/nodeInfo/osImage")),
                json!(s("/status/nodeInfo/kernelVersion")),
                json!(s("/status/nodeInfo/containerRuntimeVersion")),
            ]
        }
        Kind::POD => {
            let statuses = o
                .pointer("/status/containerStatuses")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let total = o
                .pointer("/spec/containers")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let ready = statuses.iter().filter(|c| c["ready"] == true).count();
            let restarts: i64 = statuses
                .iter()
                .filter_map(|c| c["restartCount"].as_i64())
                .sum();
            let status = if deleting(o) {
                "Terminating".to_string()
            } else {
                s("/status/phase")
            };
            vec![
                json!(name),
                json!(format!("{ready}/{total}")),
                json!(status),
                json!(restarts),
                json!(age(o, clock)),
                json!(s("/status/podIP")),
                json!(s("/spec/nodeName")),
                json!("<none>"),
                json!("<none>"),
            ]
        }
        Kind::DEPLOYMENT => {
            let ready = format!(
                "{}/{}",
                o.pointer("/status/readyReplicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(0),
                o.pointer("/spec/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
            );
            vec![
                json!(name),
                json!(ready),
                int(o, "/status/updatedReplicas"),
                int(o, "/status/availableReplicas"),
                json!(age(o, clock)),
            ]
        }
        Kind::REPLICA_SET => vec![
            json!(name),
            int(o, "/spec/replicas"),
            int(o, "/status/replicas"),
            int(o, "/status/readyReplicas"),
            json!(age(o, clock)),
        ],
        Kind::DAEMON_SET => vec![
            json!(name),
            int(o, "/status/desiredNumberScheduled"),
            int(o, "/status/currentNumberScheduled"),
            int(o, "/status/numberReady"),
            int(o, "/status/updatedNumberScheduled"),
            int(o, "/status/numberAvailable"),
            json!(age(o, clock)),
        ],
        Kind::STATEFUL_SET => vec![
            json!(name),
            json!(format!(
                "{}/{}",
                o.pointer("/status/readyReplicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(0),
                o.pointer("/spec/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
            )),
            json!(age(o, clock)),
        ],
        Kind::PERSISTENT_VOLUME_CLAIM => {
            let text = |p: &str| o.pointer(p).and_then(Value::as_str).unwrap_or("");
            vec![
                json!(name),
                json!(s("/status/phase")),
                json!(text("/spec/volumeName")),
                json!(text("/status/capacity/storage")),
                json!(access_modes(o.pointer("/status/accessModes"))),
                json!(s("/spec/storageClassName")),
                json!(age(o, clock)),
                json!(s("/spec/volumeMode")),
            ]
        }
        Kind::PERSISTENT_VOLUME => {
            let claim = match (
                o.pointer("/spec/claimRef/namespace")
                    .and_then(Value::as_str),
                o.pointer("/spec/claimRef/name").and_then(Value::as_str),
            ) {
                (Some(ns), Some(n)) => format!("{ns}/{n}"),
                _ => String::new(),
            };
            vec![
                json!(name),
                json!(s("/spec/capacity/storage")),
                json!(access_modes(o.pointer("/spec/accessModes"))),
                json!(s("/spec/persistentVolumeReclaimPolicy")),
                json!(s("/status/phase")),
                json!(claim),
                json!(s("/spec/storageClassName")),
                json!(
                    o.pointer("/status/reason")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                ),
                json!(age(o, clock)),
                json!(s("/spec/volumeMode")),
            ]
        }
        Kind::POD_DISRUPTION_BUDGET => vec![
            json!(name),
            int_or_str(o, "/spec/minAvailable"),
            int_or_str(o, "/spec/maxUnavailable"),
            int(o, "/status/disruptionsAllowed"),
            json!(age(o, clock)),
        ],
        Kind::NAMESPACE => vec![json!(name), json!(s("/status/phase")), json!(age(o, clock))],
        Kind::LEASE => vec![
            json!(name),
            json!(s("/spec/holderIdentity")),
            json!(age(o, clock)),
        ],
        Kind::EVENT => {
            let object = format!(
                "{}/{}",
                s("/involvedObject/kind").to_lowercase(),
                s("/involvedObject/name")
            );
            vec![
                json!(age(o, clock)),
                json!(s("/type")),
                json!(s("/reason")),
                json!(object),
                json!(s("/message")),
            ]
        }
        Kind::SERVICE => {
            let ports: Vec<String> = o
                .pointer("/spec/ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| {
                    let port = p.get("port").map(Value::to_string).unwrap_or_default();
                    let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
                    match p.get("nodePort") {
                        Some(n) => format!("{port}:{n}/{proto}"),
                        None => format!("{port}/{proto}"),
                    }
                })
                .collect();
            let selector: Vec<String> = o
                .pointer("/spec/selector")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect();
            vec![
                json!(name),
                json!(s("/spec/type")),
                json!(s("/spec/clusterIP")),
                json!("<none>"),
                json!(if ports.is_empty() {
                    "<none>".to_string()
                } else {
                    ports.join(",")
                }),
                json!(age(o, clock)),
                json!(if selector.is_empty() {
                    "<none>".to_string()
                } else {
                    selector.join(",")
                }),
            ]
        }
        Kind::ENDPOINTS => {
            let mut eps = Vec::new();
            for subset in o
                .get("subsets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for a in subset
                    .get("addresses")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    for p in subset
                        .get("ports")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        eps.push(format!(
                            "{}:{}",
                            a.get("ip").and_then(Value::as_str).unwrap_or_default(),
                            p.get("port").map(Value::to_string).unwrap_or_default()
                        ));
                    }
                }
            }
            vec![
                json!(name),
                json!(if eps.is_empty() {
                    "<none>".to_string()
                } else {
                    eps.join(",")
                }),
                json!(age(o, clock)),
            ]
        }
        _ => vec![json!(name), json!(age(o, clock))],
    }
}

/// A Table of `objects`; `metadata` is the list metadata (resourceVersion, continue).
pub fn table(rt: &ResourceType, objects: &[Value], metadata: Value, clock: &SimClock) -> Value {
    let kind = rt.slot;
    let rows: Vec<Value> = objects
        .iter()
        .map(|o| json!({"cells": cells(kind, o, clock), "object": o}))
        .collect();
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": metadata,
        "columnDefinitions": columns(kind), "rows": rows})
}
