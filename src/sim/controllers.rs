//! The per-cluster control loop: a kubelet (node readiness, reboots, pod start,
//! readiness and termination), the scheduler, the workload controllers and the
//! disruption controller. It runs when something changed or a timer is due, so idle
//! clusters cost nothing.

use std::sync::{Arc, Weak};

use serde_json::{Value, json};

use super::disruption;
use super::events::{self, Involved};
use super::faults::Faults;
use super::fleet::{Cluster, ClusterState};
use super::kubelet;
pub use super::kubelet::begin_pod_deletion;
use super::objects::{condition_status, deleting, set_condition};
use super::resource::Kind;
use super::scheduler::{NodeFit, choose_where, pod_requests};
use super::stateful_sets;
use super::store::str_at;
use super::volumes::{self, ClaimFit};
use super::workloads;

/// One reconcile pass over a cluster, holding its lock.
pub struct Pass<'a> {
    /// The cluster's state.
    pub st: &'a mut ClusterState,
    /// All pods, decoded once per pass and kept current by the pass.
    pub pods: Vec<Value>,
    /// Simulated now (RFC 3339).
    pub now: String,
    /// Simulated seconds since start.
    pub now_secs: f64,
    /// Whether the pass wrote anything.
    pub changed: bool,
    /// Earliest simulated second at which something is due.
    pub next: Option<f64>,
}

impl Pass<'_> {
    /// Stores an object.
    pub fn put(&mut self, kind: Kind, obj: Value) {
        self.st.store.put(kind, obj);
        self.changed = true;
    }

    /// Stores pod `i` of [`Pass::pods`].
    pub fn put_pod(&mut self, i: usize) {
        let pod = self.pods[i].clone();
        self.put(Kind::POD, pod);
    }

    /// Creates a pod.
    pub fn create_pod(&mut self, pod: Value) {
        self.put(Kind::POD, pod.clone());
        self.pods.push(pod);
    }

    /// Starts graceful deletion of pod `i` (as a controller scaling down does).
    pub fn delete_pod_graceful(&mut self, i: usize) {
        self.delete_pod(i, None);
    }

    /// Deletes pod `i` with grace period `grace` (its own when `None`; 0 removes a pod
    /// without finalizers at once, as for one whose containers have already ended).
    pub fn delete_pod(&mut self, i: usize, grace: Option<i64>) {
        let now = self.now.clone();
        let mut pod = self.pods[i].clone();
        begin_pod_deletion(&mut self.st.store, &mut pod, grace, &now);
        self.pods[i] = pod;
        self.changed = true;
    }

    /// Notes that something is due at simulated second `at`.
    pub fn due(&mut self, at: f64) {
        self.next = Some(self.next.map_or(at, |n| n.min(at)));
    }
}

/// Runs the controllers until nothing changes (at most a few rounds). Returns the
/// simulated second at which the next timer is due.
pub fn reconcile(cluster: &Cluster, st: &mut ClusterState, faults: &Faults) -> Option<f64> {
    let mut next = None;
    for _ in 0..4 {
        let finished =
            super::crd::reconcile(cluster, st) | super::lifecycle::reconcile(cluster, st);
        let clock = &cluster.clock;
        let mut pass = Pass {
            pods: st.store.values(Kind::POD, None),
            st,
            now: clock.now_rfc3339(),
            now_secs: clock.elapsed_secs(),
            changed: finished,
            next: None,
        };
        let nodes_health = kubelet::nodes(&mut pass, faults);
        kubelet::pods(&mut pass, cluster, faults, &nodes_health);
        workloads::deployments(&mut pass);
        workloads::replica_sets(&mut pass);
        super::jobs::reconcile(&mut pass);
        stateful_sets::reconcile(&mut pass);
        let fits = node_fits(&pass);
        workloads::daemon_sets(&mut pass, &fits);
        schedule(&mut pass, fits);
        disruption::reconcile(&mut pass);
        super::services::reconcile(&mut pass);
        next = pass.next;
        if !pass.changed {
            break;
        }
    }
    next
}

pub fn ids(obj: &Value) -> (String, String, String) {
    (
        str_at(obj, "/metadata/namespace"),
        str_at(obj, "/metadata/name"),
        str_at(obj, "/metadata/uid"),
    )
}

/// Nodes with the requests of the pods bound to them.
fn node_fits(pass: &Pass) -> Vec<NodeFit> {
    let mut fits: Vec<NodeFit> = pass
        .st
        .store
        .values(Kind::NODE, None)
        .iter()
        .map(NodeFit::of)
        .collect();
    let by_name: std::collections::HashMap<String, usize> = fits
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i))
        .collect();
    for p in &pass.pods {
        let phase = str_at(p, "/status/phase");
        if phase == "Succeeded" || phase == "Failed" {
            continue;
        }
        if let Some(node) = p.pointer("/spec/nodeName").and_then(Value::as_str)
            && let Some(&i) = by_name.get(node)
        {
            fits[i].used.add(pod_requests(p));
        }
    }
    fits
}

/// Binds pending, unscheduled pods to feasible nodes; marks the rest Unschedulable.
/// A pod whose claim is bound goes only where its volume can be attached (the volume's
/// zone); claims waiting for their first consumer get a volume where the pod lands.
fn schedule(pass: &mut Pass, mut fits: Vec<NodeFit>) {
    let mut queue: Vec<usize> = (0..pass.pods.len())
        .filter(|&i| {
            let p = &pass.pods[i];
            !deleting(p)
                && p.pointer("/spec/nodeName")
                    .is_none_or(|n| n.as_str().unwrap_or_default().is_empty())
        })
        .collect();
    let zones = volumes::zones_of(&fits);
    queue.sort_by_key(|&i| {
        (
            str_at(&pass.pods[i], "/metadata/creationTimestamp"),
            str_at(&pass.pods[i], "/metadata/name"),
        )
    });
    for i in queue {
        let req = pod_requests(&pass.pods[i]);
        let now = pass.now.clone();
        let claims = ClaimFit::of(&pass.st.store, &pass.pods[i]);
        match choose_where(&fits, &pass.pods[i], &req, |n| claims.allow(n)) {
            Some(n) => {
                fits[n].used.add(req);
                if !claims.waiting.is_empty() {
                    let ns = str_at(&pass.pods[i], "/metadata/namespace");
                    volumes::provision(
                        &mut pass.st.store,
                        &ns,
                        &claims.waiting,
                        &fits[n],
                        &zones,
                        &now,
                    );
                }
                pass.pods[i]["spec"]["nodeName"] = json!(fits[n].name);
                set_condition(&mut pass.pods[i], "PodScheduled", "True", "", "", &now);
                pass.put_pod(i);
                let (ns, name, uid) = ids(&pass.pods[i]);
                let msg = format!("Successfully assigned {ns}/{name} to {}", fits[n].name);
                let about = Involved {
                    kind: Kind::POD,
                    ns: &ns,
                    name: &name,
                    uid: &uid,
                };
                events::record(
                    &mut pass.st.store,
                    about,
                    false,
                    "Scheduled",
                    &msg,
                    "default-scheduler",
                    &now,
                );
                pass.due(pass.now_secs);
            }
            None => {
                if condition_status(&pass.pods[i], "PodScheduled") != Some("False") {
                    let msg = claims.unschedulable(&fits).unwrap_or_else(|| {
                        format!(
                            "0/{} nodes are available: no node fits the pod's requests, selectors and tolerations.",
                            fits.len()
                        )
                    });
                    set_condition(
                        &mut pass.pods[i],
                        "PodScheduled",
                        "False",
                        "Unschedulable",
                        &msg,
                        &now,
                    );
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
                        "FailedScheduling",
                        &msg,
                        "default-scheduler",
                        &now,
                    );
                }
            }
        }
    }
}

/// The control loop of one cluster: reconcile, then sleep until woken or a timer is
/// due. Ends when the fleet is dropped.
pub async fn run(cluster: Weak<Cluster>) {
    loop {
        let Some(c) = cluster.upgrade() else { return };
        let faults = c.faults();
        let next = {
            let mut st = c.lock();
            reconcile(&c, &mut st, &faults)
        };
        let wake = c.wake.clone();
        let deadline = next.map(|t| tokio::time::Instant::from_std(c.clock.real_instant_at(t)));
        drop(c);
        match deadline {
            Some(d) => {
                tokio::select! {
                    _ = wake.notified() => {}
                    _ = tokio::time::sleep_until(d) => {}
                }
            }
            None => wake.notified().await,
        }
    }
}

/// Spawns the control loop of a cluster on the current runtime.
pub fn spawn(cluster: &Arc<Cluster>) {
    tokio::spawn(run(Arc::downgrade(cluster)));
}
