//! The rollout port over kube and Prometheus: server-side apply of a release's manifests
//! (field manager `fleetdeck`) or its exec action, the release record every cluster keeps
//! (`kube-system/fleetdeck-release`, the deployed id read back after a restart), the
//! release's checks, and SLO evidence from Prometheus. A cluster whose identity does not
//! match the ledger's pin is never changed.

use std::collections::HashMap;
use std::path::PathBuf;

use k8s_openapi::api::apps::v1::{DaemonSet, Deployment, StatefulSet};
use k8s_openapi::api::core::v1::{ConfigMap, Node};
use kube::Api;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams};
use kube::discovery::ApiCapabilities;
use serde_json::json;

use super::kube_port::KubePort;
use crate::hooks::program::run_program;
use crate::hooks::prometheus::Prometheus;
use crate::k8s::reflect::describe_error;
use crate::model::ledger::{ClusterId, Job};
use crate::model::rollout::{
    AppliedSeen, BurnRateLimit, Check, Evidence, ExecCommand, MetricReading, NodesReadiness,
    PrometheusCheck, ReleaseAction, ReleaseDigest, RolloutPort, RolloutRunSpec, VerifyOutcome,
    VerifyProgress, WorkloadScope, WorkloadStatus, held_back_by_partition, nodes_ready,
    workload_behind,
};
use crate::model::run::IdempotencyKey;

/// The field manager of every server-side apply fleetdeck makes.
pub const FIELD_MANAGER: &str = "fleetdeck";
use crate::model::rollout::{RELEASE_RECORD, RELEASE_RECORD_NAMESPACE};

/// The error ratio of a cluster's services over the SLO window; `$cluster` and `$window`
/// are replaced. Client libraries create a labelled series on its first increment, so a
/// cluster that never answered a 5xx has no 5xx series at all: the numerator then reads 0
/// (`or vector(0)`; both sides of the division carry no labels after `sum`, so they
/// match). A missing denominator — no traffic series, metrics not scraped — still leaves
/// the result empty, which reads as unknown.
pub const DEFAULT_ERROR_RATIO_QUERY: &str = "(sum(rate(http_requests_total{cluster=\"$cluster\",code=~\"5..\"}[$window])) or vector(0)) / sum(rate(http_requests_total{cluster=\"$cluster\"}[$window]))";

/// What rollouts need beyond the clusters' clients.
#[derive(Debug, Clone)]
pub struct RolloutSettings {
    /// Where SLO evidence and `prometheus` checks are queried; none means every metric is
    /// unknown (which halts a rollout with an SLO condition unless `unknownMetrics: ignore`).
    pub prometheus: Option<Prometheus>,
    /// Given to exec actions and checks as `KUBECONFIG`.
    pub kubeconfig: Option<PathBuf>,
    /// Each cluster's kubeconfig context, given as `FLEETDECK_CONTEXT`.
    pub contexts: HashMap<String, String>,
    /// The SLO error-ratio query.
    pub error_ratio_query: String,
}

impl Default for RolloutSettings {
    fn default() -> Self {
        RolloutSettings {
            prometheus: None,
            kubeconfig: None,
            contexts: HashMap::new(),
            error_ratio_query: DEFAULT_ERROR_RATIO_QUERY.to_string(),
        }
    }
}

/// One check's verdict.
enum CheckVerdict {
    Pass,
    Fail(String),
    /// Not there yet, or not measurable yet: asked again until the verification deadline.
    NotYet {
        why: String,
        unknown: bool,
    },
}

fn promql_window(window: std::time::Duration) -> String {
    format!("{}s", window.as_secs().max(1))
}

impl KubePort {
    /// The environment of exec actions and checks.
    fn program_env(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        key: Option<&IdempotencyKey>,
    ) -> Vec<(String, String)> {
        let settings = &self.rollout;
        let mut env = vec![
            ("FLEETDECK_CLUSTER".to_string(), cluster.to_string()),
            (
                "FLEETDECK_RELEASE".to_string(),
                run.rollout.release.name.clone(),
            ),
            ("FLEETDECK_RELEASE_DIGEST".to_string(), run.digest.0.clone()),
        ];
        if let Some(context) = settings.contexts.get(cluster.as_str()) {
            env.push(("FLEETDECK_CONTEXT".to_string(), context.clone()));
        }
        if let Some(path) = &settings.kubeconfig {
            env.push(("KUBECONFIG".to_string(), path.display().to_string()));
        }
        if let Some(key) = key {
            env.push(("FLEETDECK_IDEMPOTENCY_KEY".to_string(), key.0.clone()));
        }
        env
    }

    async fn run_exec(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        key: Option<&IdempotencyKey>,
        command: &ExecCommand,
    ) -> Result<(), String> {
        let env = self.program_env(cluster, run, key);
        let outcome = run_program(&command.argv, &env, command.timeout).await?;
        if outcome.succeeded() {
            Ok(())
        } else {
            Err(format!("{}: {}", command.argv.join(" "), outcome.summary()))
        }
    }

    async fn query(&self, promql: &str) -> Result<f64, String> {
        match &self.rollout.prometheus {
            None => Err("no Prometheus configured (--prometheus)".to_string()),
            Some(p) => p.query(promql).await.map_err(|e| e.to_string()),
        }
    }

    async fn check(
        &self,
        client: &kube::Client,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        check: &Check,
        since_applied: std::time::Duration,
    ) -> CheckVerdict {
        let unknown = |e: kube::Error| CheckVerdict::NotYet {
            why: describe_error(&e),
            unknown: true,
        };
        match check {
            Check::NodesReady { min_ratio } => {
                let nodes = match Api::<Node>::all(client.clone())
                    .list(&ListParams::default())
                    .await
                {
                    Ok(list) => list.items,
                    Err(e) => return unknown(e),
                };
                let ready = nodes
                    .iter()
                    .filter(|n| super::nodes::node_is_ready(n))
                    .count();
                match nodes_ready(ready, nodes.len(), *min_ratio) {
                    NodesReadiness::Enough => CheckVerdict::Pass,
                    // Nodes may be coming back from a reboot: asked again until the deadline.
                    NodesReadiness::TooFew(why) => CheckVerdict::NotYet {
                        why,
                        unknown: false,
                    },
                    NodesReadiness::NoNodes => {
                        CheckVerdict::Fail("the cluster has no nodes".into())
                    }
                }
            }
            Check::WorkloadsReady(scope) => match workloads_behind(client, scope).await {
                Ok(behind) if behind.is_empty() => CheckVerdict::Pass,
                Ok(behind) => CheckVerdict::NotYet {
                    why: behind.join("; "),
                    unknown: false,
                },
                Err(e) => unknown(e),
            },
            Check::Exec(command) => match self.run_exec(cluster, run, None, command).await {
                Ok(()) => CheckVerdict::Pass,
                Err(why) => CheckVerdict::Fail(why),
            },
            Check::Prometheus(prometheus) => {
                if let Some(lookback) = prometheus.lookback()
                    && since_applied < lookback
                {
                    // Part of the window is from before the change: any value now would
                    // judge the old release as much as the new one.
                    return CheckVerdict::NotYet {
                        why: format!(
                            "metric window {} still reaches back before the change (applied {} ago)",
                            crate::model::duration::format_duration(lookback),
                            crate::model::duration::format_duration(since_applied)
                        ),
                        unknown: false,
                    };
                }
                let PrometheusCheck {
                    query,
                    threshold,
                    comparison,
                } = prometheus;
                let promql = query.replace("$cluster", &cluster.0);
                match self.query(&promql).await {
                    Ok(value) if comparison.passes(value, *threshold) => CheckVerdict::Pass,
                    Ok(value) => CheckVerdict::Fail(format!(
                        "query value {value} is not {} {threshold}",
                        crate::model::rollout::file_spelling(comparison)
                    )),
                    Err(why) => CheckVerdict::NotYet {
                        why: format!("metrics unknown: {why}"),
                        unknown: true,
                    },
                }
            }
        }
    }
}

fn qualified(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> String {
    format!(
        "{}/{}",
        meta.namespace.as_deref().unwrap_or(""),
        meta.name.as_deref().unwrap_or("")
    )
}

/// The numbers readiness is judged on, as a Deployment reports them. `status.replicas`
/// counts the pods of every ReplicaSet, old ones included: more than `updatedReplicas`
/// means old replicas still serve.
fn deployment_readiness(d: &Deployment) -> WorkloadStatus {
    let status = d.status.clone().unwrap_or_default();
    let desired = d.spec.as_ref().and_then(|s| s.replicas).unwrap_or(1);
    WorkloadStatus {
        name: format!("deployment {}", qualified(&d.metadata)),
        generation: d.metadata.generation.unwrap_or(0),
        observed_generation: status.observed_generation,
        desired: desired.into(),
        updated: status.updated_replicas.unwrap_or(0).into(),
        available: status.available_replicas.unwrap_or(0).into(),
        replicas: status.replicas.unwrap_or(0).into(),
        held_back: 0,
        on_delete: false,
    }
}

/// The numbers readiness is judged on, as a DaemonSet reports them (one pod per node: a
/// node still on the old template shows as not updated).
fn daemon_set_readiness(ds: &DaemonSet) -> WorkloadStatus {
    let status = ds.status.clone().unwrap_or_default();
    WorkloadStatus {
        name: format!("daemonset {}", qualified(&ds.metadata)),
        generation: ds.metadata.generation.unwrap_or(0),
        observed_generation: status.observed_generation,
        desired: status.desired_number_scheduled.into(),
        updated: status.updated_number_scheduled.unwrap_or(0).into(),
        available: status.number_available.unwrap_or(0).into(),
        replicas: status.current_number_scheduled.into(),
        held_back: 0,
        on_delete: false,
    }
}

/// The numbers readiness is judged on, as a StatefulSet reports them: its pods are
/// replaced one ordinal at a time, and those below a partition keep the old template.
fn stateful_set_readiness(sts: &StatefulSet) -> WorkloadStatus {
    let status = sts.status.clone().unwrap_or_default();
    let spec = sts.spec.as_ref();
    let strategy = spec.and_then(|s| s.update_strategy.as_ref());
    let desired = spec.and_then(|s| s.replicas).unwrap_or(1).into();
    let partition = strategy
        .and_then(|s| s.rolling_update.as_ref())
        .and_then(|r| r.partition)
        .unwrap_or(0);
    let on_delete = strategy.and_then(|s| s.type_.as_deref()) == Some("OnDelete");
    WorkloadStatus {
        name: format!("statefulset {}", qualified(&sts.metadata)),
        generation: sts.metadata.generation.unwrap_or(0),
        observed_generation: status.observed_generation,
        desired,
        updated: status.updated_replicas.unwrap_or(0).into(),
        // `availableReplicas` is reported since 1.22; Ready is what it was before.
        available: status
            .available_replicas
            .unwrap_or(status.ready_replicas.unwrap_or(0))
            .into(),
        replicas: status.replicas.into(),
        held_back: held_back_by_partition(partition.into(), desired, on_delete),
        on_delete,
    }
}

/// Deployments, DaemonSets and StatefulSets in scope that are not available at their newest generation,
/// in words. A status written for an older generation does not count.
async fn workloads_behind(
    client: &kube::Client,
    scope: &WorkloadScope,
) -> Result<Vec<String>, kube::Error> {
    fn api<K>(client: &kube::Client, scope: &WorkloadScope) -> Api<K>
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
        K::DynamicType: Default,
    {
        match scope {
            WorkloadScope::Namespace(ns) => Api::namespaced(client.clone(), ns),
            WorkloadScope::Selector(_) => Api::all(client.clone()),
        }
    }
    let params = match scope {
        WorkloadScope::Namespace(_) => ListParams::default(),
        WorkloadScope::Selector(selector) => ListParams::default().labels(selector),
    };
    let mut statuses = Vec::new();
    for d in api::<Deployment>(client, scope).list(&params).await?.items {
        statuses.push(deployment_readiness(&d));
    }
    for ds in api::<DaemonSet>(client, scope).list(&params).await?.items {
        statuses.push(daemon_set_readiness(&ds));
    }
    for sts in api::<StatefulSet>(client, scope).list(&params).await?.items {
        statuses.push(stateful_set_readiness(&sts));
    }
    let behind = statuses.iter().filter_map(workload_behind).collect();
    Ok(behind)
}

/// Server-side applies every object of the manifests in the release's apply order (see
/// [`apply_order`](crate::model::rollout::apply_order)): by path, kinds others depend on
/// first.
async fn apply_manifests(client: &kube::Client, run: &RolloutRunSpec) -> Result<usize, String> {
    let params = PatchParams::apply(FIELD_MANAGER).force();
    let mut applied = 0;
    // Discovery is a request per kind: asked once per kind for the whole release.
    let mut kinds: HashMap<GroupVersionKind, (ApiResource, ApiCapabilities)> = HashMap::new();
    let objects = crate::model::rollout::apply_order(&run.manifests).map_err(|e| e.to_string())?;
    for object in &objects {
        let at = object.at();
        let (group, version) = object
            .api_version
            .rsplit_once('/')
            .unwrap_or(("", object.api_version.as_str()));
        let gvk = GroupVersionKind::gvk(group, version, &object.kind);
        let (resource, caps) = match kinds.get(&gvk) {
            Some(known) => known.clone(),
            None => {
                let found = kube::discovery::pinned_kind(client, &gvk)
                    .await
                    .map_err(|e| {
                        format!(
                            "{at}: {} {}: {}",
                            object.api_version,
                            object.kind,
                            describe_error(&e)
                        )
                    })?;
                kinds.insert(gvk.clone(), found.clone());
                found
            }
        };
        let api: Api<DynamicObject> = if caps.scope == kube::discovery::Scope::Namespaced {
            let ns = object.namespace.as_deref().unwrap_or("default");
            Api::namespaced_with(client.clone(), ns, &resource)
        } else {
            Api::all_with(client.clone(), &resource)
        };
        api.patch(&object.name, &params, &Patch::Apply(&object.body))
            .await
            .map_err(|e| format!("{at}: {}: {}", object.label(), describe_error(&e)))?;
        applied += 1;
    }
    Ok(applied)
}

fn record_api(client: &kube::Client) -> Api<ConfigMap> {
    Api::namespaced(client.clone(), RELEASE_RECORD_NAMESPACE)
}

/// Writes the release record: the deployed id, read back after a restart.
async fn record_release(
    client: &kube::Client,
    run: &RolloutRunSpec,
    key: &IdempotencyKey,
) -> Result<(), String> {
    let record = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": RELEASE_RECORD,
            "namespace": RELEASE_RECORD_NAMESPACE,
            "labels": {"app.kubernetes.io/managed-by": FIELD_MANAGER},
        },
        "data": {
            "release": run.rollout.release.name,
            "digest": run.digest.0,
            "idempotencyKey": key.0,
        },
    });
    record_api(client)
        .patch(
            RELEASE_RECORD,
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&record),
        )
        .await
        .map(|_| ())
        .map_err(|e| format!("writing the release record: {}", describe_error(&e)))
}

async fn read_record(client: &kube::Client) -> AppliedSeen {
    match record_api(client).get_opt(RELEASE_RECORD).await {
        Ok(None) => AppliedSeen::Nothing,
        Ok(Some(cm)) => match cm.data.as_ref().and_then(|d| d.get("digest")) {
            Some(digest) => AppliedSeen::Digest {
                digest: ReleaseDigest(digest.clone()),
            },
            None => AppliedSeen::Nothing,
        },
        Err(e) => AppliedSeen::Unreachable {
            why: describe_error(&e),
        },
    }
}

impl RolloutPort for KubePort {
    fn releasing_as(&self, cluster: &ClusterId) -> Option<String> {
        self.identity(cluster, Job::Release)
    }

    async fn apply_release(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        key: &IdempotencyKey,
    ) -> Result<ReleaseDigest, String> {
        self.confirmed_identity(cluster)?;
        let client = self
            .client_for_change(cluster, Job::Release)
            .map_err(|e| e.to_string())?;
        match &run.rollout.release.action {
            ReleaseAction::Apply { .. } => {
                let objects = apply_manifests(&client, run).await?;
                tracing::info!(%cluster, objects, "release manifests applied");
            }
            ReleaseAction::Exec(command) => self.run_exec(cluster, run, Some(key), command).await?,
        }
        record_release(&client, run, key).await?;
        match read_record(&client).await {
            AppliedSeen::Digest { digest } => Ok(digest),
            AppliedSeen::Nothing => Err("the release record is missing after writing it".into()),
            AppliedSeen::Unreachable { why } => Err(format!("reading the release record: {why}")),
        }
    }

    async fn verify_release(
        &self,
        cluster: &ClusterId,
        run: &RolloutRunSpec,
        since_applied: std::time::Duration,
    ) -> VerifyProgress {
        let client = match self.client(cluster) {
            Ok(c) => c,
            Err(e) => {
                return VerifyProgress::Done(VerifyOutcome::Unknown { why: e.to_string() });
            }
        };
        let mut waiting: Vec<String> = Vec::new();
        let mut unknown = false;
        for check in &run.rollout.release.checks {
            match self
                .check(&client, cluster, run, check, since_applied)
                .await
            {
                CheckVerdict::Pass => {}
                CheckVerdict::Fail(reason) => {
                    return VerifyProgress::Done(VerifyOutcome::Fail { reason });
                }
                CheckVerdict::NotYet { why, unknown: u } => {
                    unknown |= u;
                    waiting.push(why);
                }
            }
        }
        if waiting.is_empty() {
            return VerifyProgress::Done(VerifyOutcome::Pass);
        }
        let why = waiting.join("; ");
        VerifyProgress::NotYet {
            at_deadline: if unknown {
                VerifyOutcome::Unknown { why: why.clone() }
            } else {
                VerifyOutcome::Fail {
                    reason: format!("still not ready at the verification deadline: {why}"),
                }
            },
            why,
        }
    }

    async fn applied_release(&self, cluster: &ClusterId) -> AppliedSeen {
        // Read to decide a change (a digest already recorded counts as applied), so only
        // from a cluster whose identity is confirmed: an impostor's record proves nothing.
        match self.client_for_change(cluster, Job::Release) {
            Ok(client) => read_record(&client).await,
            Err(e) => AppliedSeen::Unreachable { why: e.to_string() },
        }
    }

    async fn burn_evidence(&self, clusters: &[ClusterId], slo: &BurnRateLimit) -> Evidence {
        let mut evidence = Evidence {
            at: Some(jiff::Timestamp::now()),
            ..Evidence::default()
        };
        let query = slo
            .error_ratio_query
            .as_deref()
            .unwrap_or(&self.rollout.error_ratio_query);
        let long = promql_window(slo.window);
        let short = slo.short.map(|s| promql_window(s.window));
        for cluster in clusters {
            let ask = |window: &str| {
                query
                    .replace("$cluster", &cluster.0)
                    .replace("$window", window)
            };
            let reading = match self.query(&ask(&long)).await {
                Ok(ratio) => MetricReading::Known { error_ratio: ratio },
                Err(why) => MetricReading::Unknown { why },
            };
            evidence.readings.insert(cluster.clone(), reading);
            // Both windows every time: the short one alone high is worth showing (the
            // gate holds, the findings say so), not only when the long one exceeds.
            if let Some(short) = &short {
                let reading = match self.query(&ask(short)).await {
                    Ok(ratio) => MetricReading::Known { error_ratio: ratio },
                    Err(why) => MetricReading::Unknown { why },
                };
                evidence.short_readings.insert(cluster.clone(), reading);
            }
        }
        evidence
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_deployment_with_old_replicas_still_serving_is_behind() {
        let deployment = |replicas: i32| -> Deployment {
            serde_json::from_value(json!({
                "metadata": {"name": "web", "namespace": "shop", "generation": 2},
                "spec": {"replicas": 3, "selector": {}, "template": {}},
                "status": {"observedGeneration": 2, "replicas": replicas,
                    "updatedReplicas": 3, "availableReplicas": 3, "readyReplicas": 3}
            }))
            .expect("a deployment")
        };
        assert_eq!(
            workload_behind(&deployment_readiness(&deployment(4))),
            Some("deployment shop/web: 1 old replica(s) pending termination".into())
        );
        assert_eq!(workload_behind(&deployment_readiness(&deployment(3))), None);
    }

    #[test]
    fn a_stateful_set_reads_its_partition_and_strategy() {
        let sts = |strategy: Value, updated: i32| -> StatefulSet {
            serde_json::from_value(json!({
                "metadata": {"name": "postgres", "namespace": "shop", "generation": 2},
                "spec": {"replicas": 3, "selector": {}, "serviceName": "postgres",
                    "template": {}, "updateStrategy": strategy},
                "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": updated,
                    "readyReplicas": 3, "availableReplicas": 3}
            }))
            .expect("a statefulset")
        };
        let partitioned = json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 2}});
        assert_eq!(
            workload_behind(&stateful_set_readiness(&sts(partitioned, 1))),
            None
        );
        let rolling = json!({"type": "RollingUpdate"});
        assert_eq!(
            workload_behind(&stateful_set_readiness(&sts(rolling, 1))),
            Some("statefulset shop/postgres: 1 of 3 updated, 3 available".into())
        );
        let on_delete = json!({"type": "OnDelete"});
        assert!(
            workload_behind(&stateful_set_readiness(&sts(on_delete, 1)))
                .is_some_and(|why| why.contains("OnDelete"))
        );
    }
}
