//! The maintenance port on real (or simulated) clusters through kube: cordon by merge
//! patch, evictions through the Eviction API only, node events, observations. Reads of the
//! whole cluster (identity, PDBs, capacity) come from the fleet snapshot, which is kept by
//! watches, so prechecks do not add list traffic.
//!
//! Over 600 lines: the port's one implementation, a method per call of the maintenance
//! state machine; which client a change goes through (a job's own) is in `job_clients.rs`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event as CoreEvent, Node, Pod};
use k8s_openapi::api::policy::v1::PodDisruptionBudget;
use kube::Api;
use kube::api::{
    DeleteParams, EvictParams, ListParams, Patch, PatchParams, PostParams, Preconditions,
};
use tokio::sync::watch;

use crate::k8s::connect::ClusterClient;
use crate::k8s::job_clients::JobClient;
use crate::k8s::node_events::node_event;
use crate::k8s::nodes::observe;
use crate::k8s::reflect::{describe_error, is_unreachable};
use crate::model::capacity::{CapacityConfig, ClusterIndex, Scenario, what_if};
use crate::model::ledger::{ClusterId, Job};
use crate::model::live::FleetSnapshot;
use crate::model::maintenance::{
    Action, CheckOutcome, EvictionResult, HookResult, MaintenancePort, NodeObservation, Observe,
    PodInfo, PodOwner, PodRef, PrecheckReport, Seen, WorkloadObservation,
};
use crate::model::run::NodeName;

/// Why a call could not be made at all (the answer is then unknown, never success).
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    /// The cluster has no client (not in the ledger, or its context is unusable).
    #[error("cluster {0} has no usable connection")]
    NoClient(String),
    /// The API server could not be reached or answered with a server error.
    #[error("cluster {cluster}: {message}")]
    Unreachable {
        /// Ledger id.
        cluster: String,
        /// What happened.
        message: String,
    },
    /// A hook could not be started.
    #[error("hook: {0}")]
    Hook(String),
    /// The ledger names a context of its own for the job, and no client could be built
    /// from it: the job is not done under another identity instead.
    #[error("cluster {cluster}: the {job} context {context:?} cannot be used: {reason}")]
    JobContext {
        /// Ledger id.
        cluster: String,
        /// The job (`maintenance`, `release`).
        job: &'static str,
        /// The context the ledger names for it.
        context: String,
        /// Why not.
        reason: String,
    },
    /// The cluster may not be changed: its identity does not match the ledger's pin, or
    /// is not confirmed (yet).
    #[error("cluster {cluster}: not changed: {reason}")]
    Refused {
        /// Ledger id.
        cluster: String,
        /// Why, in words.
        reason: String,
    },
}

/// The port: one client per ledger cluster plus the latest fleet snapshot, and a client
/// per job that acts through a context of its own (`jobContexts` in the ledger).
#[derive(Clone)]
pub struct KubePort {
    pub(super) clients: Arc<HashMap<String, ClusterClient>>,
    /// The clients of jobs with a context of their own, by ledger id and job (or why the
    /// context cannot be used); a job without one acts through the cluster's client.
    pub(super) job_clients: Arc<HashMap<(String, Job), JobClient>>,
    pub(super) snapshots: watch::Receiver<FleetSnapshot>,
    actor: String,
    pub(super) rollout: Arc<super::rollout_kube::RolloutSettings>,
    /// The capacity model's configuration (failure-domain key, reserve) for prechecks.
    capacity: Arc<CapacityConfig>,
}

fn classify(cluster: &ClusterId, error: kube::Error) -> PortError {
    PortError::Unreachable {
        cluster: cluster.to_string(),
        message: describe_error(&error),
    }
}

fn api_code(error: &kube::Error) -> Option<u16> {
    match error {
        kube::Error::Api(status) => Some(status.code),
        _ => None,
    }
}

/// Reads "The disruption budget web-pdb needs 3 healthy pods and has 3 currently".
pub fn parse_pdb_refusal(message: &str) -> Option<(String, u32, u32)> {
    let rest = message.split("disruption budget ").nth(1)?;
    let (pdb, rest) = rest.split_once(" needs ")?;
    let (needs, rest) = rest.split_once(" healthy pods and has ")?;
    let has = rest.split_whitespace().next()?;
    Some((
        pdb.to_string(),
        needs.trim().parse().ok()?,
        has.trim().parse().ok()?,
    ))
}

impl KubePort {
    /// A port over `clients` (keyed by ledger id), reading cluster-wide facts from
    /// `snapshots`, naming `actor` in node events.
    pub fn new(
        clients: HashMap<String, ClusterClient>,
        snapshots: watch::Receiver<FleetSnapshot>,
        actor: String,
    ) -> Self {
        KubePort {
            clients: Arc::new(clients),
            job_clients: Arc::default(),
            snapshots,
            actor,
            rollout: Arc::default(),
            capacity: Arc::default(),
        }
    }

    /// The capacity model's configuration for the maintenance precheck.
    pub fn with_capacity(mut self, config: CapacityConfig) -> Self {
        self.capacity = Arc::new(config);
        self
    }

    /// Where rollouts find Prometheus and what their exec actions are given.
    pub fn with_rollout_settings(mut self, settings: super::rollout_kube::RolloutSettings) -> Self {
        self.rollout = Arc::new(settings);
        self
    }

    pub(super) fn client(&self, cluster: &ClusterId) -> Result<kube::Client, PortError> {
        self.clients
            .get(cluster.as_str())
            .map(|c| c.client.clone())
            .ok_or_else(|| PortError::NoClient(cluster.to_string()))
    }

    async fn node(&self, cluster: &ClusterId, node: &NodeName) -> Result<Node, PortError> {
        let nodes: Api<Node> = Api::all(self.client(cluster)?);
        nodes
            .get(node.as_str())
            .await
            .map_err(|e| classify(cluster, e))
    }
}

/// Whether the node's pods could be evicted now, budget by budget.
fn pdb_headroom(view: &crate::model::fleet::ClusterView, node: &NodeName) -> CheckOutcome {
    let node = node.clone();
    let blocking =
        crate::model::capacity::budgets_blocking_drain(view, std::slice::from_ref(&node));
    if blocking.is_empty() {
        return CheckOutcome::Pass;
    }
    let each: Vec<String> = blocking
        .iter()
        .map(|b| {
            format!(
                "PDB {}/{} needs {} healthy pods and has {}: it would refuse {} of {node} now",
                b.namespace,
                b.name,
                b.desired_healthy,
                b.current_healthy,
                crate::model::text::counted(i64::from(b.pods), "pod")
            )
        })
        .collect();
    CheckOutcome::Fail(format!(
        "{}; not cordoning until it allows them",
        each.join("; ")
    ))
}

/// Whether a 409's message is a failed precondition (the API server words it
/// "Precondition failed: UID in precondition: …").
fn is_precondition_failure(message: &str) -> bool {
    message.to_ascii_lowercase().contains("precondition")
}

fn pod_info(pod: &Pod) -> PodInfo {
    let meta = &pod.metadata;
    let owner = if meta
        .annotations
        .as_ref()
        .is_some_and(|a| a.contains_key("kubernetes.io/config.mirror"))
    {
        PodOwner::Mirror
    } else if meta
        .owner_references
        .iter()
        .flatten()
        .any(|o| o.controller == Some(true) && o.kind == "DaemonSet")
    {
        PodOwner::DaemonSet
    } else {
        PodOwner::Other
    };
    PodInfo {
        pod: PodRef {
            namespace: meta.namespace.clone().unwrap_or_default(),
            name: meta.name.clone().unwrap_or_default(),
            uid: meta.uid.clone().unwrap_or_default(),
        },
        owner,
        has_empty_dir: pod
            .spec
            .as_ref()
            .and_then(|s| s.volumes.as_ref())
            .is_some_and(|v| v.iter().any(|v| v.empty_dir.is_some())),
        terminating: meta.deletion_timestamp.is_some(),
    }
}

impl MaintenancePort for KubePort {
    type Error = PortError;

    async fn precheck(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        held: &crate::model::maintenance::ClusterHolds,
    ) -> Result<PrecheckReport, PortError> {
        let observed = observe(&self.node(cluster, node).await?);
        let snapshot = self.snapshots.borrow().clone();
        let live = snapshot.cluster(&cluster.0).cloned();
        // Still connecting: no verdict yet. Ask again later instead of answering "unknown",
        // which the state machine would rightly treat as a reason to stop.
        if live
            .as_ref()
            .is_some_and(|c| c.status == crate::model::live::ClusterStatus::Connecting)
        {
            return Err(PortError::Unreachable {
                cluster: cluster.to_string(),
                message: "fleet view still connecting".into(),
            });
        }
        let identity = match &live {
            None => CheckOutcome::Unknown("cluster not in the fleet view".into()),
            Some(c) => match crate::model::live::may_change(c.identity_verdict.as_ref()) {
                Ok(()) => CheckOutcome::Pass,
                Err(refusal) if refusal.may_change_later() => {
                    CheckOutcome::Unknown(format!("{refusal}: cluster is {}", c.status.label()))
                }
                Err(refusal) => CheckOutcome::Fail(refusal.to_string()),
            },
        };
        let (pdb_headroom, capacity) = match &live {
            Some(c) if c.status.data_usable() => {
                let view = held.apply(&c.view);
                // Each of the node's pods judged as the node page judges it: a budget that
                // would refuse one now keeps the node from being cordoned at all, rather
                // than cordoned and then found undrainable. The step waits at Precheck
                // naming the budget, until it allows the eviction or, past the deadline,
                // a person has it. (A budget that turns later is still met in the Drain.)
                let pdb = pdb_headroom(&c.view, node);
                let index = ClusterIndex::new(&view, &self.capacity);
                let report = what_if(
                    &index,
                    &Scenario::MaintenanceBatch(vec![crate::model::fleet::NodeName::from(
                        node.as_str(),
                    )]),
                    &held.reserved,
                );
                // Pods held on the node by their volume (a local volume, or a zonal one
                // with no other node in the zone) wait for it to come back, as they
                // would for any maintenance of it; their PDBs still govern the drain.
                // Volumes that cannot be read leave the pods that mount them with an
                // unknown answer: unknown is not "free to move", the step waits.
                let unknown: Vec<String> = report
                    .unknown
                    .iter()
                    .map(|g| {
                        format!(
                            "{} of {} {}/{}",
                            crate::model::text::counted(i64::from(g.pods), "pod"),
                            g.owner.kind,
                            g.namespace,
                            g.owner.name
                        )
                    })
                    .collect();
                let capacity = if report.short_pods() == 0 && unknown.is_empty() {
                    CheckOutcome::Pass
                } else if report.short_pods() == 0 {
                    let why = c
                        .view
                        .volumes_unreadable
                        .as_deref()
                        .unwrap_or("volumes cannot be read");
                    CheckOutcome::Unknown(format!(
                        "{why}: whether {} can move is unknown",
                        unknown.join("; ")
                    ))
                } else {
                    let groups: Vec<String> = report
                        .short_groups()
                        .map(|g| {
                            format!(
                                "{} of {} {}/{} ({})",
                                crate::model::text::counted(i64::from(g.pods), "pod"),
                                g.owner.kind,
                                g.namespace,
                                g.owner.name,
                                g.reason
                            )
                        })
                        .collect();
                    CheckOutcome::Fail(format!(
                        "displaced pods would not fit: {}",
                        groups.join("; ")
                    ))
                };
                (pdb, capacity)
            }
            Some(c) => {
                let why = format!("cluster data is {}", c.status.label());
                (
                    CheckOutcome::Unknown(why.clone()),
                    CheckOutcome::Unknown(why),
                )
            }
            None => (
                CheckOutcome::Unknown("no fleet view".into()),
                CheckOutcome::Unknown("no fleet view".into()),
            ),
        };
        Ok(PrecheckReport {
            identity,
            // Budgets and the mass-failure guard are the executor's to judge: it sees every
            // run and the guard's pauses. It overwrites these two.
            budgets: CheckOutcome::Pass,
            pdb_headroom,
            capacity,
            guard: CheckOutcome::Pass,
            node: observed,
        })
    }

    fn acting_as(&self, cluster: &ClusterId) -> Option<String> {
        self.identity(cluster, Job::Maintenance)
    }

    fn change_refused(&self, cluster: &ClusterId) -> Option<String> {
        match self.client_for_change(cluster, Job::Maintenance) {
            Ok(_) => None,
            Err(PortError::Refused { reason, .. }) => Some(reason),
            Err(other) => Some(other.to_string()),
        }
    }

    async fn set_unschedulable(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        unschedulable: bool,
    ) -> Result<Result<(), String>, PortError> {
        let nodes: Api<Node> = Api::all(self.client_for_change(cluster, Job::Maintenance)?);
        let patch = serde_json::json!({"spec": {"unschedulable": unschedulable}});
        match nodes
            .patch(
                node.as_str(),
                &PatchParams::default(),
                &Patch::Merge(&patch),
            )
            .await
        {
            Ok(_) => Ok(Ok(())),
            Err(e) if is_unreachable(&e) || api_code(&e).is_some_and(|c| c >= 500) => {
                Err(classify(cluster, e))
            }
            Err(e) => Ok(Err(describe_error(&e))),
        }
    }

    async fn pods_on_node(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
    ) -> Result<Vec<PodInfo>, PortError> {
        let pods: Api<Pod> = Api::all(self.client(cluster)?);
        let params = ListParams::default().fields(&format!("spec.nodeName={}", node.as_str()));
        let list = pods.list(&params).await.map_err(|e| classify(cluster, e))?;
        Ok(list.items.iter().map(pod_info).collect())
    }

    async fn evict(
        &self,
        cluster: &ClusterId,
        pod: &PodRef,
        grace_period: Option<Duration>,
    ) -> Result<EvictionResult, PortError> {
        let pods: Api<Pod> = Api::namespaced(
            self.client_for_change(cluster, Job::Maintenance)?,
            &pod.namespace,
        );
        let params = EvictParams {
            delete_options: Some(DeleteParams {
                grace_period_seconds: grace_period
                    .map(|g| u32::try_from(g.as_secs()).unwrap_or(u32::MAX)),
                // Evict exactly the pod we saw, not a namesake that replaced it.
                preconditions: (!pod.uid.is_empty()).then(|| Preconditions {
                    uid: Some(pod.uid.clone()),
                    resource_version: None,
                }),
                ..DeleteParams::default()
            }),
            ..EvictParams::default()
        };
        match pods.evict(&pod.name, &params).await {
            Ok(_) => Ok(EvictionResult::Evicted),
            Err(kube::Error::Api(status)) if status.code == 429 => {
                // The numbers are in the `DisruptionBudget` cause, as the API server sends
                // them; older servers put them in the message.
                let cause = status
                    .details
                    .iter()
                    .flat_map(|d| d.causes.iter())
                    .find_map(|c| parse_pdb_refusal(&c.message));
                Ok(match cause.or_else(|| parse_pdb_refusal(&status.message)) {
                    Some((pdb, needs, has)) => EvictionResult::BlockedByPdb { pdb, needs, has },
                    None => EvictionResult::Error {
                        message: format!("429: {}", status.message),
                    },
                })
            }
            Err(kube::Error::Api(status)) if status.code == 404 => Ok(EvictionResult::PodGone),
            // 409 is both "the pod we saw was replaced" (its UID precondition failed: ours
            // is gone) and a conflict updating the PDB (the pod is still there: try again).
            Err(kube::Error::Api(status)) if status.code == 409 => {
                Ok(if is_precondition_failure(&status.message) {
                    EvictionResult::PodGone
                } else {
                    EvictionResult::Error {
                        message: format!("409: {}", status.message),
                    }
                })
            }
            Err(e) if is_unreachable(&e) => Err(classify(cluster, e)),
            Err(e) => Ok(EvictionResult::Error {
                message: describe_error(&e),
            }),
        }
    }

    async fn run_hook(&self, hook: &Action) -> Result<HookResult, PortError> {
        let Action::RunHook {
            argv, timeout, env, ..
        } = hook
        else {
            return Err(PortError::Hook("not a hook action".into()));
        };
        crate::hooks::program::run_program(argv, env, *timeout)
            .await
            .map_err(PortError::Hook)
    }

    async fn observe_node(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
    ) -> Result<NodeObservation, PortError> {
        Ok(observe(&self.node(cluster, node).await?))
    }

    async fn observe_workloads(
        &self,
        cluster: &ClusterId,
        pods: &[PodRef],
    ) -> Result<WorkloadObservation, PortError> {
        let client = self.client(cluster)?;
        let namespaces: std::collections::BTreeSet<&str> =
            pods.iter().map(|p| p.namespace.as_str()).collect();
        let mut out = WorkloadObservation::default();
        for ns in namespaces {
            let list = Api::<Pod>::namespaced(client.clone(), ns)
                .list(&ListParams::default())
                .await
                .map_err(|e| classify(cluster, e))?;
            for pod in &list.items {
                let terminating = pod.metadata.deletion_timestamp.is_some();
                let phase = pod
                    .status
                    .as_ref()
                    .and_then(|s| s.phase.as_deref())
                    .unwrap_or("");
                let ready = pod
                    .status
                    .as_ref()
                    .and_then(|s| s.conditions.as_ref())
                    .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
                    .is_some_and(|c| c.status == "True");
                if !terminating && phase != "Succeeded" && phase != "Failed" && !ready {
                    out.not_ready.push(format!(
                        "{ns}/{}",
                        pod.metadata.name.as_deref().unwrap_or("")
                    ));
                }
            }
            let pdbs = Api::<PodDisruptionBudget>::namespaced(client.clone(), ns)
                .list(&ListParams::default())
                .await
                .map_err(|e| classify(cluster, e))?;
            for pdb in &pdbs.items {
                if let Some(status) = &pdb.status
                    && status.current_healthy < status.desired_healthy
                {
                    out.unhealthy_pdbs.push(format!(
                        "PDB {} needs {} healthy pods and has {}",
                        pdb.metadata.name.as_deref().unwrap_or(""),
                        status.desired_healthy,
                        status.current_healthy
                    ));
                }
            }
        }
        Ok(out)
    }

    async fn observe_for_restart(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        what: &Observe,
    ) -> Result<Seen, PortError> {
        match what {
            Observe::Nothing => Ok(Seen::Nothing),
            Observe::Node => match self.node(cluster, node).await {
                Ok(n) => Ok(Seen::Node {
                    unschedulable: n
                        .spec
                        .as_ref()
                        .and_then(|s| s.unschedulable)
                        .unwrap_or(false),
                }),
                Err(PortError::Unreachable { .. }) => Ok(Seen::Unreachable),
                Err(e) => Err(e),
            },
            Observe::Pod(pod) => {
                let pods: Api<Pod> = Api::namespaced(self.client(cluster)?, &pod.namespace);
                match pods.get_opt(&pod.name).await {
                    Ok(Some(found))
                        if pod.uid.is_empty()
                            || found.metadata.uid.as_deref() == Some(pod.uid.as_str()) =>
                    {
                        Ok(Seen::Pod {
                            exists: true,
                            terminating: found.metadata.deletion_timestamp.is_some(),
                        })
                    }
                    // A namesake with another UID is a replacement: ours is gone.
                    Ok(_) => Ok(Seen::Pod {
                        exists: false,
                        terminating: false,
                    }),
                    Err(e) if is_unreachable(&e) => Ok(Seen::Unreachable),
                    Err(e) => Err(classify(cluster, e)),
                }
            }
        }
    }

    async fn node_event(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        reason: &str,
        action: &str,
        message: &str,
    ) -> Result<(), PortError> {
        let events: Api<CoreEvent> = Api::namespaced(
            self.job_client(cluster, Job::Maintenance)?.client.clone(),
            "default",
        );
        // `kubectl describe node` finds events by the node's UID as well as its name.
        let uid = self
            .node(cluster, node)
            .await
            .ok()
            .and_then(|n| n.metadata.uid);
        let event = node_event(
            node,
            uid,
            reason,
            action,
            message,
            &self.actor,
            Timestamp::now(),
        );
        events
            .create(&PostParams::default(), &event)
            .await
            .map(|_| ())
            .map_err(|e| classify(cluster, e))
    }
}

#[cfg(test)]
#[path = "kube_port_tests.rs"]
mod tests;
