//! The simulated kubelet and node lifecycle: node readiness from faults and reboots,
//! pod start, readiness and termination, graceful deletion, and the taint manager.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::clock::{parse_time, rfc3339};
use super::controllers::{Pass, ids};
use super::events::{self, Involved};
use super::faults::Faults;
use super::fleet::Cluster;
use super::objects::{deleting, pod_ready, set_condition, set_running};
use super::resource::Kind;
use super::scheduler::toleration_for;
use super::store::{Store, str_at};

/// Starts deleting a pod: an unscheduled pod (or grace period 0) is removed at once;
/// a running one gets `deletionTimestamp = now + grace` and is removed by the kubelet
/// when it has terminated. Finalizers keep the object until they are removed. Returns
/// whether the object is gone.
pub fn begin_pod_deletion(
    store: &mut Store,
    pod: &mut Value,
    grace: Option<i64>,
    now: &str,
) -> bool {
    let ns = str_at(pod, "/metadata/namespace");
    let name = str_at(pod, "/metadata/name");
    let grace = grace
        .or_else(|| {
            pod.pointer("/spec/terminationGracePeriodSeconds")
                .and_then(Value::as_i64)
        })
        .unwrap_or(30)
        .max(0);
    let bound = pod
        .pointer("/spec/nodeName")
        .and_then(Value::as_str)
        .is_some_and(|n| !n.is_empty());
    let has_finalizers = pod
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty());
    if (!bound || grace == 0) && !has_finalizers {
        store.remove(Kind::POD, &ns, &name);
        pod["metadata"]["deletionTimestamp"] = json!(now);
        return true;
    }
    if deleting(pod) {
        // A shorter grace period may shorten an ongoing deletion; never lengthen it.
        let old = pod
            .pointer("/metadata/deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(grace);
        if grace >= old {
            return false;
        }
    }
    let at = parse_time(now)
        .and_then(|t| t.checked_add(jiff::SignedDuration::from_secs(grace)).ok())
        .map(rfc3339)
        .unwrap_or_else(|| now.to_string());
    pod["metadata"]["deletionTimestamp"] = json!(at);
    pod["metadata"]["deletionGracePeriodSeconds"] = json!(grace);
    store.put(Kind::POD, pod.clone());
    if bound {
        let (ns, name, uid) = ids(pod);
        let container = pod
            .pointer("/spec/containers/0/name")
            .and_then(Value::as_str)
            .unwrap_or("app")
            .to_string();
        let about = Involved {
            kind: Kind::POD,
            ns: &ns,
            name: &name,
            uid: &uid,
        };
        events::record(
            store,
            about,
            false,
            "Killing",
            &format!("Stopping container {container}"),
            "kubelet",
            now,
        );
    }
    false
}

/// What the kubelet step needs to know about a node.
pub struct NodeState {
    /// Ready (kubelet reporting, not rebooting).
    healthy: bool,
    /// `NoExecute` taints (the taint manager evicts pods that do not tolerate them).
    no_execute: Vec<Value>,
}

/// Node readiness from faults and reboots, per node name.
pub fn nodes(pass: &mut Pass, faults: &Faults) -> HashMap<String, NodeState> {
    let mut out = HashMap::new();
    if let Some(z) = &faults.zone_outage
        && z.at_seconds > pass.now_secs
    {
        pass.due(z.at_seconds);
    }
    for mut node in pass.st.store.values(Kind::NODE, None) {
        let name = str_at(&node, "/metadata/name");
        let zone = node
            .pointer("/metadata/labels/topology.kubernetes.io~1zone")
            .and_then(Value::as_str)
            .map(String::from);
        let silent = faults.node_silent(&name, zone.as_deref(), pass.now_secs);
        let reboot_until = pass.st.reboots.get(&name).copied();
        let rebooting = reboot_until.is_some_and(|t| t > pass.now_secs);
        if let Some(t) = reboot_until {
            if rebooting {
                pass.due(t);
            } else {
                pass.st.reboots.remove(&name);
                node["status"]["nodeInfo"]["bootID"] = json!(format!(
                    "{:x}",
                    super::generate::fnv(&format!("{name}/{}", pass.now))
                ));
            }
        }
        let (status, reason, message, taint) = if silent {
            (
                "Unknown",
                "NodeStatusUnknown",
                "Kubelet stopped posting node status.",
                Some("node.kubernetes.io/unreachable"),
            )
        } else if rebooting {
            (
                "False",
                "KubeletNotReady",
                "node is rebooting",
                Some("node.kubernetes.io/not-ready"),
            )
        } else {
            (
                "True",
                "KubeletReady",
                "kubelet is posting ready status",
                None,
            )
        };
        let before = node.clone();
        set_condition(&mut node, "Ready", status, reason, message, &pass.now);
        let mut taints: Vec<Value> = node
            .pointer("/spec/taints")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        taints.retain(|t| {
            let k = t.get("key").and_then(Value::as_str).unwrap_or_default();
            k != "node.kubernetes.io/unreachable" && k != "node.kubernetes.io/not-ready"
        });
        if let Some(key) = taint {
            taints.push(json!({"key": key, "effect": "NoSchedule", "timeAdded": pass.now}));
            taints.push(json!({"key": key, "effect": "NoExecute", "timeAdded": pass.now}));
        }
        let old_taints = before
            .pointer("/spec/taints")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let same_keys = |a: &[Value], b: &[Value]| {
            let keys = |v: &[Value]| {
                v.iter()
                    .map(|t| (t.get("key").cloned(), t.get("effect").cloned()))
                    .collect::<Vec<_>>()
            };
            keys(a) == keys(b)
        };
        if !same_keys(&taints, &old_taints) {
            if taints.is_empty() {
                if let Some(spec) = node["spec"].as_object_mut() {
                    spec.remove("taints");
                }
            } else {
                node["spec"]["taints"] = Value::Array(taints);
            }
        }
        if node != before {
            let was = super::objects::condition_status(&before, "Ready").map(String::from);
            if was.as_deref() != Some(status) {
                let (_, nname, uid) = ids(&node);
                let (warning, why, msg) = match status {
                    "True" if rebooting_done(&before) => {
                        (true, "Rebooted", format!("Node {nname} has been rebooted"))
                    }
                    "True" => (
                        false,
                        "NodeReady",
                        format!("Node {nname} status is now: NodeReady"),
                    ),
                    _ => (
                        false,
                        "NodeNotReady",
                        format!("Node {nname} status is now: NodeNotReady"),
                    ),
                };
                let about = Involved {
                    kind: Kind::NODE,
                    ns: "",
                    name: &nname,
                    uid: &uid,
                };
                let now = pass.now.clone();
                events::record(
                    &mut pass.st.store,
                    about,
                    warning,
                    why,
                    &msg,
                    "node-controller",
                    &now,
                );
            }
            pass.put(Kind::NODE, node.clone());
        }
        let taints = node
            .pointer("/spec/taints")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let no_execute = taints
            .into_iter()
            .filter(|t| t.get("effect").and_then(Value::as_str) == Some("NoExecute"))
            .collect();
        out.insert(
            name,
            NodeState {
                healthy: !silent && !rebooting,
                no_execute,
            },
        );
    }
    out
}

/// Whether a node's NotReady came from a reboot (the kubelet reported it).
fn rebooting_done(node: &Value) -> bool {
    node.pointer("/status/conditions")
        .and_then(Value::as_array)
        .and_then(|cs| {
            cs.iter()
                .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))
        })
        .and_then(|c| c.get("message").and_then(Value::as_str))
        == Some("node is rebooting")
}

/// Pod lifecycle on nodes: start bound pods, make them Ready after a delay (NotReady
/// while their node is unhealthy), finish terminating deleted pods.
pub fn pods(
    pass: &mut Pass,
    cluster: &Cluster,
    faults: &Faults,
    health: &HashMap<String, NodeState>,
) {
    let s = &cluster.settings;
    let clock = cluster.clock;
    let healthy = |n: &str| health.get(n).is_some_and(|h| h.healthy);
    taint_evictions(pass, cluster, health);
    let mut gone = Vec::new();
    for i in 0..pass.pods.len() {
        let pod = &pass.pods[i];
        let node = str_at(pod, "/spec/nodeName");
        let phase = str_at(pod, "/status/phase");
        if deleting(pod) {
            if node.is_empty() || faults.stuck_terminating || !healthy(&node) {
                continue;
            }
            let grace = pod
                .pointer("/metadata/deletionGracePeriodSeconds")
                .and_then(Value::as_f64)
                .unwrap_or(30.0);
            let Some(deadline) = pod
                .pointer("/metadata/deletionTimestamp")
                .and_then(Value::as_str)
                .and_then(parse_time)
            else {
                continue;
            };
            let due = clock.secs_at(deadline) - grace + grace.min(s.termination_seconds);
            let finalizers = pod
                .pointer("/metadata/finalizers")
                .and_then(Value::as_array)
                .is_some_and(|f| !f.is_empty());
            if pass.now_secs >= due && !finalizers {
                gone.push(i);
            } else if !finalizers {
                pass.due(due);
            }
            continue;
        }
        if node.is_empty() || phase == "Succeeded" || phase == "Failed" {
            continue;
        }
        let node_ok = healthy(&node);
        let job_pod = super::objects::controller_of(pod).is_some_and(|(k, _, _)| k == "Job");
        if job_pod && phase == "Running" && node_ok {
            let started = pod
                .pointer("/status/startTime")
                .and_then(Value::as_str)
                .and_then(parse_time)
                .map(|t| clock.secs_at(t))
                .unwrap_or(pass.now_secs);
            let at = started + s.job_seconds;
            if pass.now_secs >= at {
                let now = pass.now.clone();
                complete_pod(&mut pass.pods[i], &now);
                pass.put_pod(i);
            } else {
                pass.due(at);
            }
            continue;
        }
        if phase == "Pending" {
            let scheduled = pod
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .and_then(|cs| {
                    cs.iter()
                        .find(|c| c.get("type").and_then(Value::as_str) == Some("PodScheduled"))
                })
                .and_then(|c| c.get("lastTransitionTime").and_then(Value::as_str))
                .and_then(parse_time)
                .map(|t| clock.secs_at(t))
                .unwrap_or(pass.now_secs);
            let at = scheduled + s.pod_start_seconds;
            if !node_ok {
                continue;
            }
            if pass.now_secs >= at {
                let host = node_ip(&pass.st.store, &node);
                let n = pass.st.store.random_below(60_000) as u32;
                let ip = format!("10.{}.{}.{}", 200 + (n >> 16), (n >> 8) & 0xff, n & 0xff);
                let now = pass.now.clone();
                set_running(&mut pass.pods[i], &node, &host, &ip, &now, false);
                pass.put_pod(i);
                pass.due(pass.now_secs + s.pod_ready_seconds);
            } else {
                pass.due(at);
            }
            continue;
        }
        let ready = pod_ready(pod);
        let probe_fails = !faults.not_ready_pods.is_empty() && {
            let (ns, name, _) = ids(pod);
            let labels = super::store::Index::of(pod).labels;
            faults
                .not_ready_pods
                .iter()
                .any(|s| s.matches(&ns, &name, &labels))
        };
        if node_ok && probe_fails && ready {
            let now = pass.now.clone();
            let container = pod
                .pointer("/spec/containers/0/name")
                .and_then(Value::as_str)
                .unwrap_or("app")
                .to_string();
            let unready = format!("containers with unready status: [{container}]");
            for c in ["ContainersReady", "Ready"] {
                set_condition(
                    &mut pass.pods[i],
                    c,
                    "False",
                    "ContainersNotReady",
                    &unready,
                    &now,
                );
            }
            if let Some(cs) = pass.pods[i].pointer_mut("/status/containerStatuses/0") {
                cs["ready"] = json!(false);
            }
            pass.put_pod(i);
            let (ns, name, uid) = ids(&pass.pods[i]);
            let about = Involved {
                kind: Kind::POD,
                ns: &ns,
                name: &name,
                uid: &uid,
            };
            events::record(
                &mut pass.st.store,
                about,
                true,
                "Unhealthy",
                "Readiness probe failed: the simulated probe is failing",
                "kubelet",
                &now,
            );
        } else if !node_ok && ready {
            let now = pass.now.clone();
            set_condition(
                &mut pass.pods[i],
                "Ready",
                "False",
                "NodeNotReady",
                "",
                &now,
            );
            set_condition(
                &mut pass.pods[i],
                "ContainersReady",
                "False",
                "NodeNotReady",
                "",
                &now,
            );
            pass.put_pod(i);
        } else if node_ok && !ready && !probe_fails && kubelet_owned(pod) {
            let since = pod
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .and_then(|cs| {
                    cs.iter()
                        .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))
                })
                .and_then(|c| c.get("lastTransitionTime").and_then(Value::as_str))
                .and_then(parse_time)
                .map(|t| clock.secs_at(t))
                .unwrap_or(pass.now_secs);
            let at = since + s.pod_ready_seconds;
            if pass.now_secs >= at {
                let now = pass.now.clone();
                set_condition(&mut pass.pods[i], "ContainersReady", "True", "", "", &now);
                set_condition(&mut pass.pods[i], "Ready", "True", "", "", &now);
                if let Some(cs) = pass.pods[i].pointer_mut("/status/containerStatuses/0") {
                    cs["ready"] = json!(true);
                }
                pass.put_pod(i);
            } else {
                pass.due(at);
            }
        }
    }
    for &i in gone.iter().rev() {
        let pod = pass.pods.remove(i);
        pass.st.store.remove(
            Kind::POD,
            &str_at(&pod, "/metadata/namespace"),
            &str_at(&pod, "/metadata/name"),
        );
        pass.changed = true;
    }
}

/// The taint manager: pods on a node with a `NoExecute` taint they do not tolerate are
/// deleted; with `tolerationSeconds` (300 s by default for not-ready/unreachable) they
/// are deleted when that time has passed since the taint was added. On an unreachable
/// node they then stay Terminating, and their owners create replacements elsewhere.
fn taint_evictions(pass: &mut Pass, cluster: &Cluster, health: &HashMap<String, NodeState>) {
    for i in 0..pass.pods.len() {
        let pod = &pass.pods[i];
        if deleting(pod) {
            continue;
        }
        let Some(state) = pod
            .pointer("/spec/nodeName")
            .and_then(Value::as_str)
            .and_then(|n| health.get(n))
        else {
            continue;
        };
        if state.no_execute.is_empty() {
            continue;
        }
        let tolerations = pod
            .pointer("/spec/tolerations")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut evict_at: Option<f64> = None;
        for taint in &state.no_execute {
            let added = taint
                .get("timeAdded")
                .and_then(Value::as_str)
                .and_then(parse_time)
                .map_or(pass.now_secs, |t| cluster.clock.secs_at(t));
            let at = match toleration_for(&tolerations, taint) {
                None => Some(added),
                Some(t) => t
                    .get("tolerationSeconds")
                    .and_then(Value::as_f64)
                    .map(|s| added + s),
            };
            if let Some(at) = at {
                evict_at = Some(evict_at.map_or(at, |e| e.min(at)));
            }
        }
        match evict_at {
            Some(at) if pass.now_secs >= at => {
                let now = pass.now.clone();
                let (ns, name, uid) = ids(&pass.pods[i]);
                let about = Involved {
                    kind: Kind::POD,
                    ns: &ns,
                    name: &name,
                    uid: &uid,
                };
                let msg = format!("Marking for deletion Pod {ns}/{name}");
                events::record(
                    &mut pass.st.store,
                    about,
                    false,
                    "TaintManagerEviction",
                    &msg,
                    "taint-eviction-controller",
                    &now,
                );
                pass.delete_pod_graceful(i);
            }
            Some(at) => pass.due(at),
            None => {}
        }
    }
}

/// Ends a pod's containers successfully (a Job's pod that did its work).
fn complete_pod(pod: &mut Value, now: &str) {
    pod["status"]["phase"] = json!("Succeeded");
    for c in ["Ready", "ContainersReady"] {
        set_condition(pod, c, "False", "PodCompleted", "", now);
    }
    if let Some(statuses) = pod
        .pointer_mut("/status/containerStatuses")
        .and_then(Value::as_array_mut)
    {
        for cs in statuses {
            let started = cs
                .pointer("/state/running/startedAt")
                .cloned()
                .unwrap_or(json!(now));
            cs["ready"] = json!(false);
            cs["started"] = json!(false);
            cs["state"] = json!({"terminated": {"exitCode": 0, "reason": "Completed",
                "startedAt": started, "finishedAt": now}});
        }
    }
}

/// Whether a pod's readiness was last set by the kubelet itself (starting containers, a
/// failing probe, a node that went away): only then does the kubelet make it Ready
/// again. Readiness written by anyone else stays until they change it.
fn kubelet_owned(pod: &Value) -> bool {
    let reason = pod
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .and_then(|cs| {
            cs.iter()
                .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))
        })
        .and_then(|c| c.get("reason").and_then(Value::as_str))
        .unwrap_or_default();
    matches!(reason, "ContainersNotReady" | "NodeNotReady")
}

fn node_ip(store: &Store, node: &str) -> String {
    store
        .get_value(Kind::NODE, "", node)
        .and_then(|n| {
            n.pointer("/status/addresses/0/address")
                .and_then(Value::as_str)
                .map(String::from)
        })
        .unwrap_or_default()
}
