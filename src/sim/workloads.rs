//! The workload controllers: Deployments own ReplicaSets, ReplicaSets keep their replica
//! count of pods (recreating evicted or deleted ones), DaemonSets keep one pod on every
//! eligible node. Statuses are kept current.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::controllers::Pass;
use super::objects::{controller_of, controller_ref, deleting, pod_from_template, pod_ready};
use super::resource::Kind;
use super::scheduler::{Constraints, NodeFit};
use super::store::str_at;

/// The `pod-template-hash` of a pod template (stable across runs).
pub fn template_hash(template: &Value) -> String {
    let h = super::generate::fnv(&template.to_string());
    format!("{:010x}", h & 0xff_ffff_ffff)
}

/// A DaemonSet status.
pub fn daemon_set_status(
    desired: i64,
    current: i64,
    ready: i64,
    misscheduled: i64,
    generation: i64,
) -> Value {
    json!({"currentNumberScheduled": current, "desiredNumberScheduled": desired, "numberReady": ready,
        "numberAvailable": ready, "numberUnavailable": (desired - ready).max(0), "numberMisscheduled": misscheduled,
        "updatedNumberScheduled": current, "observedGeneration": generation})
}

/// A ReplicaSet status.
pub fn replica_set_status(replicas: i32, ready: i32, generation: i64) -> Value {
    json!({"replicas": replicas, "fullyLabeledReplicas": replicas, "readyReplicas": ready,
        "availableReplicas": ready, "observedGeneration": generation})
}

/// A Deployment status.
pub fn deployment_status(replicas: i32, updated: i32, ready: i32, generation: i64) -> Value {
    let available = if ready >= replicas.min(updated) {
        "True"
    } else {
        "False"
    };
    json!({"replicas": replicas, "updatedReplicas": updated, "readyReplicas": ready, "availableReplicas": ready,
    "unavailableReplicas": (replicas - ready).max(0), "observedGeneration": generation,
    "conditions": [
        {"type": "Available", "status": available, "reason": if available == "True" { "MinimumReplicasAvailable" } else { "MinimumReplicasUnavailable" }},
        {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}
    ]})
}

fn generation(obj: &Value) -> i64 {
    obj.pointer("/metadata/generation")
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

fn active(pod: &Value) -> bool {
    let phase = pod
        .pointer("/status/phase")
        .and_then(Value::as_str)
        .unwrap_or("Pending");
    !deleting(pod) && phase != "Succeeded" && phase != "Failed"
}

/// Writes `status` if it differs from the object's current one.
fn set_status(pass: &mut Pass, kind: Kind, mut obj: Value, status: Value) {
    if obj.get("status") != Some(&status) {
        obj["status"] = status;
        pass.put(kind, obj);
    }
}

/// Deployments: create the ReplicaSet of the current template, scale old ones to zero
/// (an immediate rollout), keep the replica count in sync, and report status.
pub fn deployments(pass: &mut Pass) {
    let mut by_owner: HashMap<String, Vec<Value>> = HashMap::new();
    for rs in pass.st.store.values(Kind::REPLICA_SET, None) {
        if let Some((_, _, uid)) = controller_of(&rs) {
            by_owner.entry(uid).or_default().push(rs);
        }
    }
    for dep in pass.st.store.values(Kind::DEPLOYMENT, None) {
        if deleting(&dep) {
            continue;
        }
        let ns = str_at(&dep, "/metadata/namespace");
        let name = str_at(&dep, "/metadata/name");
        let uid = str_at(&dep, "/metadata/uid");
        let replicas = dep
            .pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(1) as i32;
        let template = dep.pointer("/spec/template").cloned().unwrap_or(json!({}));
        let hash = template_hash(&template);
        let mut owned = by_owner.remove(&uid).unwrap_or_default();
        let is_current = |rs: &Value| {
            rs.pointer("/metadata/labels/pod-template-hash")
                .and_then(Value::as_str)
                == Some(hash.as_str())
        };
        let mut found_current = false;
        for rs in owned.iter_mut() {
            let current = is_current(rs);
            found_current |= current;
            let want = if current { replicas } else { 0 };
            if rs.pointer("/spec/replicas").and_then(Value::as_i64) != Some(want as i64) {
                rs["spec"]["replicas"] = json!(want);
                bump_generation(rs);
                pass.put(Kind::REPLICA_SET, rs.clone());
            }
        }
        if !found_current {
            let mut t = template.clone();
            t["metadata"]["labels"]["pod-template-hash"] = json!(hash);
            let mut selector = dep
                .pointer("/spec/selector")
                .cloned()
                .unwrap_or(json!({"matchLabels": {}}));
            selector["matchLabels"]["pod-template-hash"] = json!(hash);
            let rs_uid = pass.st.store.new_uid();
            let rs = json!({
                "apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {"name": format!("{name}-{hash}"), "namespace": ns, "uid": rs_uid, "generation": 1,
                    "creationTimestamp": pass.now, "labels": t["metadata"]["labels"].clone(),
                    "ownerReferences": [controller_ref(Kind::DEPLOYMENT, &name, &uid)]},
                "spec": {"replicas": replicas, "selector": selector, "template": t},
                "status": {"replicas": 0}
            });
            pass.put(Kind::REPLICA_SET, rs.clone());
            owned.push(rs);
        }
        let sum = |f: &str| {
            owned
                .iter()
                .map(|rs| rs.pointer(f).and_then(Value::as_i64).unwrap_or(0))
                .sum::<i64>() as i32
        };
        let updated = owned
            .iter()
            .filter(|rs| is_current(rs))
            .map(|rs| {
                rs.pointer("/status/replicas")
                    .and_then(Value::as_i64)
                    .unwrap_or(0)
            })
            .sum::<i64>() as i32;
        let status = deployment_status(
            sum("/status/replicas"),
            updated,
            sum("/status/readyReplicas"),
            generation(&dep),
        );
        set_status(pass, Kind::DEPLOYMENT, dep, status);
    }
}

fn bump_generation(obj: &mut Value) {
    let g = generation(obj);
    obj["metadata"]["generation"] = json!(g + 1);
}

/// Pods grouped by the uid of their controller.
fn pods_by_owner(pass: &Pass) -> HashMap<String, Vec<usize>> {
    let mut map: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in pass.pods.iter().enumerate() {
        if let Some((_, _, uid)) = controller_of(p) {
            map.entry(uid).or_default().push(i);
        }
    }
    map
}

/// ReplicaSets: create or delete pods to match `spec.replicas`; report status.
pub fn replica_sets(pass: &mut Pass) {
    let by_owner = pods_by_owner(pass);
    for rs in pass.st.store.values(Kind::REPLICA_SET, None) {
        let ns = str_at(&rs, "/metadata/namespace");
        let name = str_at(&rs, "/metadata/name");
        let uid = str_at(&rs, "/metadata/uid");
        let want = rs
            .pointer("/spec/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(1) as i32;
        let mut owned = by_owner.get(&uid).cloned().unwrap_or_default();
        let mut mine: Vec<usize> = owned
            .iter()
            .copied()
            .filter(|&i| active(&pass.pods[i]))
            .collect();
        let have = mine.len() as i32;
        if have < want && !deleting(&rs) {
            let template = rs.pointer("/spec/template").cloned().unwrap_or(json!({}));
            for _ in have..want {
                let pname = format!("{name}-{}", pass.st.store.name_suffix());
                let puid = pass.st.store.new_uid();
                let owner = controller_ref(Kind::REPLICA_SET, &name, &uid);
                let pod = pod_from_template(&template, &ns, &pname, &puid, owner, &pass.now);
                owned.push(pass.pods.len());
                pass.create_pod(pod);
            }
        } else if have > want {
            // Remove unscheduled and not-ready pods first, as the real controller does.
            mine.sort_by_key(|&i| {
                (
                    pass.pods[i].pointer("/spec/nodeName").is_some(),
                    pod_ready(&pass.pods[i]),
                )
            });
            for &i in mine.iter().take((have - want) as usize) {
                pass.delete_pod_graceful(i);
            }
        }
        let (mut count, mut ready) = (0, 0);
        for &i in &owned {
            let p = &pass.pods[i];
            if active(p) {
                count += 1;
                ready += pod_ready(p) as i32;
            }
        }
        let status = replica_set_status(count, ready, generation(&rs));
        set_status(pass, Kind::REPLICA_SET, rs, status);
    }
}

/// DaemonSets: one pod bound to every node the template fits (selector, taints).
pub fn daemon_sets(pass: &mut Pass, nodes: &[NodeFit]) {
    let by_owner = pods_by_owner(pass);
    for ds in pass.st.store.values(Kind::DAEMON_SET, None) {
        if deleting(&ds) {
            continue;
        }
        let ns = str_at(&ds, "/metadata/namespace");
        let name = str_at(&ds, "/metadata/name");
        let uid = str_at(&ds, "/metadata/uid");
        let template = ds.pointer("/spec/template").cloned().unwrap_or(json!({}));
        let constraints = Constraints::of(&template);
        let mut on_nodes: HashMap<String, usize> = HashMap::new();
        for &i in by_owner.get(&uid).map(Vec::as_slice).unwrap_or(&[]) {
            let p = &pass.pods[i];
            if active(p) {
                on_nodes.entry(str_at(p, "/spec/nodeName")).or_insert(i);
            }
        }
        let (mut desired, mut current, mut ready, mut misscheduled) = (0, 0, 0, 0);
        for node in nodes {
            let eligible = constraints.allow(node);
            let here = on_nodes.get(&node.name).copied();
            match (eligible, here) {
                (true, Some(i)) => {
                    desired += 1;
                    current += 1;
                    ready += pod_ready(&pass.pods[i]) as i64;
                }
                (true, None) => {
                    desired += 1;
                    let pname = format!("{name}-{}", pass.st.store.name_suffix());
                    let puid = pass.st.store.new_uid();
                    let owner = controller_ref(Kind::DAEMON_SET, &name, &uid);
                    let mut pod =
                        pod_from_template(&template, &ns, &pname, &puid, owner, &pass.now);
                    pod["spec"]["nodeName"] = json!(node.name);
                    super::objects::set_condition(
                        &mut pod,
                        "PodScheduled",
                        "True",
                        "",
                        "",
                        &pass.now,
                    );
                    pass.create_pod(pod);
                }
                (false, Some(_)) => misscheduled += 1,
                (false, None) => {}
            }
        }
        let status = daemon_set_status(desired, current, ready, misscheduled, generation(&ds));
        set_status(pass, Kind::DAEMON_SET, ds, status);
    }
}
