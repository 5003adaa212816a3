//! The seam between the node state machine and a cluster: what the executor needs a
//! Kubernetes adapter (or the simulator, or a test double) to do. Every answer is plain
//! data from [`super::observe`], fed back to [`super::step`] as an [`Observation`].
//! Declared here, implemented by adapters; nothing in `model/` calls it.
//!
//! [`Observation`]: super::Observation

use std::future::Future;

use super::observe::{
    EvictionResult, HookResult, NodeObservation, PodInfo, PodRef, PrecheckReport,
    WorkloadObservation,
};
use super::restart::Seen;
use super::state::Action;
use crate::model::ledger::ClusterId;
use crate::model::run::NodeName;

/// Cluster actions and observations for node maintenance. Errors that are answers (a PDB
/// refusal, a failed hook) are data in the results; `Err` is for "could not ask" (the
/// cluster is unreachable), which the executor treats as unknown, never as success.
pub trait MaintenancePort {
    /// Why a call could not be made.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Identity, budgets, PDB headroom, capacity what-if, guard state and the node.
    /// `held` is what maintenance holds in the cluster (this and every other run): the
    /// what-if re-places the node's pods without those nodes.
    fn precheck(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        held: &super::ClusterHolds,
    ) -> impl Future<Output = Result<PrecheckReport, Self::Error>> + Send;

    /// Why a change to `cluster` would be refused now (its identity is not confirmed, or
    /// is not the one the ledger pins); `None` when it may be changed. Asked before a
    /// change is journaled; the calls themselves check again.
    fn change_refused(&self, cluster: &ClusterId) -> Option<String>;

    /// Who maintenance acts as on `cluster` (the kubeconfig user of its context),
    /// journaled with each intent; `None` when the port cannot say.
    fn acting_as(&self, _cluster: &ClusterId) -> Option<String> {
        None
    }

    /// Sets (`true`) or clears `spec.unschedulable`; `Ok(Err(message))` when refused.
    fn set_unschedulable(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        unschedulable: bool,
    ) -> impl Future<Output = Result<Result<(), String>, Self::Error>> + Send;

    /// The pods bound to the node, with owner kind, emptyDir and terminating flags.
    fn pods_on_node(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
    ) -> impl Future<Output = Result<Vec<PodInfo>, Self::Error>> + Send;

    /// One eviction through the Eviction API (never a delete).
    fn evict(
        &self,
        cluster: &ClusterId,
        pod: &PodRef,
        grace_period: Option<std::time::Duration>,
    ) -> impl Future<Output = Result<EvictionResult, Self::Error>> + Send;

    /// Runs the hook described by an [`Action::RunHook`] (argv, no shell, timeout, env).
    fn run_hook(
        &self,
        hook: &Action,
    ) -> impl Future<Output = Result<HookResult, Self::Error>> + Send;

    /// The node now.
    fn observe_node(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
    ) -> impl Future<Output = Result<NodeObservation, Self::Error>> + Send;

    /// Whether the displaced workloads are Ready again and their PDBs healthy.
    fn observe_workloads(
        &self,
        cluster: &ClusterId,
        pods: &[PodRef],
    ) -> impl Future<Output = Result<WorkloadObservation, Self::Error>> + Send;

    /// What restart reconciliation needs to see for an intent (node or pod).
    fn observe_for_restart(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        what: &super::restart::Observe,
    ) -> impl Future<Output = Result<Seen, Self::Error>> + Send;

    /// A Kubernetes Event on the node (reason `FleetdeckMaintenance`, `action` the step).
    fn node_event(
        &self,
        cluster: &ClusterId,
        node: &NodeName,
        reason: &str,
        action: &str,
        message: &str,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}
