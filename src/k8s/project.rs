//! Slim Kubernetes objects → the model's views. Strings go through one interner per
//! cluster so that repeated labels, namespaces and owner kinds are stored once.

use std::sync::Arc;

use std::borrow::Cow;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

use super::slim::{SlimClaim, SlimNode, SlimNodeSelectorTerm, SlimPdb, SlimPod, SlimVolume};
use crate::model::fleet::{
    ClaimView, GPU_REPLICAS_LABEL, InitContainerKind, InitContainerRequests, Interner,
    LabelRequirement, Labels, MaintenanceState, NodeName, NodeSelector, NodeView, OwnerRef,
    PdbView, PodPhase, PodSpecRequests, PodView, Readiness, ResourceError, Schedulability, Taint,
    Toleration, TolerationOperator, VolumeView, effective_requests, gpu_replicas_from_label,
    volume_domain,
};

/// Why an object could not be turned into a view (it is then left out and counted).
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    /// A quantity the cluster reported is malformed.
    #[error("{kind} {name}: {source}")]
    Resource {
        /// Object kind.
        kind: &'static str,
        /// Object name.
        name: String,
        /// The bad quantity.
        #[source]
        source: ResourceError,
    },
    /// `nvidia.com/gpu.replicas` is not a whole number.
    #[error("node {0}: invalid {GPU_REPLICAS_LABEL} value")]
    GpuReplicas(String),
}

/// Node facts that drift reports read but capacity does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeVersions {
    /// Kernel version.
    pub kernel: Arc<str>,
    /// Container runtime and version.
    pub runtime: Arc<str>,
}

fn labels(pairs: &[(Cow<'_, str>, Cow<'_, str>)], interner: &mut Interner) -> Labels {
    Labels::new(
        pairs
            .iter()
            .map(|(k, v)| (interner.intern(k), interner.intern(v))),
    )
}

/// A node's view and versions.
pub fn project_node(
    node: &SlimNode<'_>,
    interner: &mut Interner,
) -> Result<(NodeView, NodeVersions), ProjectionError> {
    let name = node.metadata.name.as_deref().unwrap_or_default();
    let allocatable = node
        .status
        .allocatable
        .to_vector(interner)
        .map_err(|source| ProjectionError::Resource {
            kind: "node",
            name: name.to_owned(),
            source,
        })?;
    let replicas_value = node
        .metadata
        .label(GPU_REPLICAS_LABEL)
        .or(node.metadata.gpu_replicas_annotation.as_deref());
    let gpu_replicas = gpu_replicas_from_label(replicas_value)
        .map_err(|_| ProjectionError::GpuReplicas(name.to_owned()))?;
    let readiness = match node.status.ready.as_deref() {
        Some("True") => Readiness::Ready,
        Some("False") => Readiness::NotReady,
        _ => Readiness::Unknown,
    };
    let taints = node
        .spec
        .taints
        .iter()
        .filter_map(|t| {
            Some(Taint {
                key: interner.intern(&t.key),
                value: t.value.as_deref().map(|v| interner.intern(v)),
                effect: t.effect?,
            })
        })
        .collect();
    let info = &node.status.node_info;
    let view = NodeView {
        name: NodeName(interner.intern(name)),
        labels: labels(&node.metadata.labels, interner),
        readiness,
        schedulability: if node.spec.unschedulable == Some(true) {
            Schedulability::Cordoned
        } else {
            Schedulability::Schedulable
        },
        maintenance: MaintenanceState::InService,
        taints,
        allocatable,
        gpu_replicas,
        kubelet_version: interner.intern(&info.kubelet_version),
    };
    let versions = NodeVersions {
        kernel: interner.intern(&info.kernel_version),
        runtime: interner.intern(&info.container_runtime_version),
    };
    Ok((view, versions))
}

/// What a pod's links to other objects are found from, kept beside its view: its labels
/// (PDB selectors cover pods by label) and the claims it mounts by name (their volumes
/// may confine it to a topology domain).
#[derive(Debug, Clone, Default)]
pub struct PodLinks {
    /// Labels, for PDB selectors.
    pub labels: Labels,
    /// Claim names, in its namespace.
    pub claims: Box<[Arc<str>]>,
}

/// A pod's view and what its links are found from.
pub fn project_pod(
    pod: &SlimPod<'_>,
    interner: &mut Interner,
) -> Result<(PodView, PodLinks), ProjectionError> {
    let name = pod.metadata.name.as_deref().unwrap_or_default();
    let bad = |source| ProjectionError::Resource {
        kind: "pod",
        name: name.to_owned(),
        source,
    };
    let mut spec = PodSpecRequests::default();
    for c in &pod.spec.containers {
        spec.containers
            .push(c.requests.to_vector(interner).map_err(bad)?);
    }
    for c in &pod.spec.init_containers {
        spec.init_containers.push(InitContainerRequests {
            requests: c.requests.to_vector(interner).map_err(bad)?,
            kind: if c.restarts_always {
                InitContainerKind::Sidecar
            } else {
                InitContainerKind::RunToCompletion
            },
        });
    }
    spec.overhead = pod.spec.overhead.to_vector(interner).map_err(bad)?;
    if let Some(pod_requests) = &pod.spec.pod_requests {
        spec.pod_level = Some(pod_requests.to_vector(interner).map_err(bad)?);
    }
    let phase = match pod.phase.unwrap_or(PodPhase::Pending) {
        // A pod being deleted that has not terminated yet: see `PodPhase::Terminating`.
        phase if pod.metadata.deleting && phase.holds_resources() => PodPhase::Terminating,
        phase => phase,
    };
    let owner = pod.metadata.controller.as_ref().map(|o| OwnerRef {
        kind: interner.intern(&o.kind),
        name: interner.intern(&o.name),
    });
    // Document order, last value winning on a duplicate key, as the map it was read from.
    let mut selector_pairs: Vec<&(Cow<'_, str>, Cow<'_, str>)> =
        pod.spec.node_selector.iter().collect();
    selector_pairs.sort_by(|a, b| a.0.cmp(&b.0));
    selector_pairs.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0;
        if same {
            std::mem::swap(later, earlier);
        }
        same
    });
    let node_selector = NodeSelector {
        all: selector_pairs
            .into_iter()
            .map(|(k, v)| LabelRequirement::equals(interner.intern(k), interner.intern(v)))
            .collect(),
        any_term: pod
            .spec
            .required_node_terms
            .iter()
            .flatten()
            .map(|term| node_selector_term(term, interner))
            .collect(),
    };
    let tolerations = pod
        .spec
        .tolerations
        .iter()
        .map(|t| Toleration {
            key: t
                .key
                .as_deref()
                .filter(|k| !k.is_empty())
                .map(|k| interner.intern(k)),
            operator: if t.exists {
                TolerationOperator::Exists
            } else {
                TolerationOperator::Equal
            },
            value: t.value.as_deref().map(|v| interner.intern(v)),
            effect: t.effect,
        })
        .collect();
    let view = PodView {
        namespace: interner.intern(pod.metadata.namespace.as_deref().unwrap_or("default")),
        name: Arc::from(name),
        node: pod
            .spec
            .node_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .map(|n| NodeName(interner.intern(n))),
        phase,
        ready: pod.ready.as_deref() == Some("True"),
        mounts_claims: !pod.spec.claims.is_empty(),
        owner,
        requests: effective_requests(&spec),
        node_selector,
        tolerations,
        required_domain: None,
        pdb: None,
    };
    let links = PodLinks {
        labels: labels(&pod.metadata.labels, interner),
        claims: pod.spec.claims.iter().map(|c| Arc::from(&**c)).collect(),
    };
    Ok((view, links))
}

/// A claim's view: the volume it is bound to.
pub fn project_claim(claim: &SlimClaim<'_>, interner: &mut Interner) -> ClaimView {
    let (namespace, name) = claim.metadata.key(interner);
    ClaimView {
        namespace,
        name,
        volume: claim
            .volume_name
            .as_deref()
            .filter(|v| !v.is_empty())
            .map(Arc::from),
    }
}

/// A volume's view: the one topology domain its node affinity confines it to, if any.
pub fn project_volume(volume: &SlimVolume<'_>, interner: &mut Interner) -> VolumeView {
    let terms: Vec<Box<[LabelRequirement]>> = volume
        .required_terms
        .iter()
        .map(|term| node_selector_term(term, interner))
        .collect();
    VolumeView {
        name: Arc::from(volume.metadata.name.as_deref().unwrap_or_default()),
        domain: volume_domain(&terms),
    }
}

/// One required node-affinity term as requirements that must all hold. A term that also
/// selects by node name (`matchFields`) is read as admitting no node: which nodes it names
/// is not modelled, and claiming a pod could move elsewhere would overstate headroom. An
/// operator this version does not know makes the term admit no node for the same reason.
fn node_selector_term(
    term: &SlimNodeSelectorTerm<'_>,
    interner: &mut Interner,
) -> Box<[LabelRequirement]> {
    let requirements: Option<Box<[LabelRequirement]>> = if term.by_field {
        None
    } else {
        term.expressions
            .iter()
            .map(|e| {
                let key = interner.intern(&e.key);
                let number = || e.values.first().and_then(|v| v.parse::<i64>().ok());
                let mut values = || e.values.iter().map(|v| interner.intern(v)).collect();
                Some(match &*e.operator {
                    "In" => LabelRequirement::In(key, values()),
                    "NotIn" => LabelRequirement::NotIn(key, values()),
                    "Exists" => LabelRequirement::Exists(key),
                    "DoesNotExist" => LabelRequirement::DoesNotExist(key),
                    "Gt" => LabelRequirement::Gt(key, number()?),
                    "Lt" => LabelRequirement::Lt(key, number()?),
                    _ => return None,
                })
            })
            .collect()
    };
    // An empty term admits no node (the scheduler's rule), which is what "admits no
    // node" is written as.
    requirements.unwrap_or_default()
}

/// A PDB selector in a form that can be matched against interned pod labels: the
/// requirements that must all hold, or `None` for a PDB without a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbSelector(pub Option<Box<[LabelRequirement]>>);

impl PdbSelector {
    /// Whether a pod with `labels` is covered. By policy/v1's rule a PDB without a
    /// selector covers no pod, and an empty selector (`{}`) every pod of its namespace.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.0
            .as_ref()
            .is_some_and(|requirements| requirements.iter().all(|r| r.matches(labels)))
    }

    /// The requirements, none for a PDB without a selector.
    pub fn requirements(&self) -> &[LabelRequirement] {
        self.0.as_deref().unwrap_or_default()
    }
}

fn selector(selector: Option<&LabelSelector>, interner: &mut Interner) -> PdbSelector {
    let Some(selector) = selector else {
        return PdbSelector(None);
    };
    let mut requirements = Vec::new();
    {
        for (k, v) in selector.match_labels.iter().flatten() {
            requirements.push(LabelRequirement::equals(
                interner.intern(k),
                interner.intern(v),
            ));
        }
        for e in selector.match_expressions.iter().flatten() {
            let key = interner.intern(&e.key);
            let values: Box<[Arc<str>]> = e
                .values
                .iter()
                .flatten()
                .map(|v| interner.intern(v))
                .collect();
            requirements.push(match e.operator.as_str() {
                "In" => LabelRequirement::In(key, values),
                "NotIn" => LabelRequirement::NotIn(key, values),
                "Exists" => LabelRequirement::Exists(key),
                _ => LabelRequirement::DoesNotExist(key),
            });
        }
    }
    PdbSelector(Some(requirements.into_boxed_slice()))
}

/// A PDB's view and selector.
pub fn project_pdb(pdb: &SlimPdb<'_>, interner: &mut Interner) -> (PdbView, PdbSelector) {
    let view = PdbView {
        namespace: interner.intern(pdb.metadata.namespace.as_deref().unwrap_or("default")),
        name: Arc::from(pdb.metadata.name.as_deref().unwrap_or_default()),
        disruptions_allowed: pdb.status.disruptions_allowed,
        current_healthy: pdb.status.current_healthy,
        desired_healthy: pdb.status.desired_healthy,
        expected_pods: pdb.status.expected_pods,
        always_allow_unhealthy: pdb.unhealthy_pod_eviction_policy.as_deref() == Some("AlwaysAllow"),
    };
    (view, selector(pdb.selector.as_ref(), interner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::json_reader::Reader;
    use crate::k8s::slim_de;

    #[test]
    fn node_projection_reads_readiness_gpus_and_replicas() {
        let text = serde_json::json!({
                "metadata": {"name": "gpu-1", "labels": {"nvidia.com/gpu.replicas": "2", "topology.kubernetes.io/zone": "a"}},
                "spec": {"unschedulable": true, "taints": [{"key": "gpu", "effect": "NoSchedule"}]},
                "status": {
                    "allocatable": {"cpu": "63500m", "memory": "500Gi", "nvidia.com/gpu": "16", "pods": "110"},
                    "conditions": [{"type": "Ready", "status": "True"}],
                    "nodeInfo": {"kubeletVersion": "v1.31.4", "kernelVersion": "6.1.0", "containerRuntimeVersion": "containerd://1.7.22"}
                },
                "ignored": {"big": [1, 2, 3]}
            })
        .to_string();
        let node = slim_de::node(&mut Reader::new(&text)).unwrap();
        let mut interner = Interner::new();
        let (view, versions) = project_node(&node, &mut interner).unwrap();
        assert_eq!(view.readiness, Readiness::Ready);
        assert_eq!(view.schedulability, Schedulability::Cordoned);
        assert_eq!(view.allocatable.cpu_millis(), 63_500);
        assert_eq!(view.physical_gpus(), 8);
        assert_eq!(view.taints.len(), 1);
        assert_eq!(&*versions.kernel, "6.1.0");
    }

    #[test]
    fn pod_projection_computes_scheduler_requests_and_owner() {
        let text = serde_json::json!({
                "metadata": {"name": "web-1", "namespace": "shop", "labels": {"app": "web"},
                             "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-abc", "uid": "u", "controller": true}]},
                "spec": {
                    "nodeName": "n1",
                    "initContainers": [{"name": "init", "resources": {"requests": {"cpu": "2"}}}],
                    "containers": [{"name": "a", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}],
                    "overhead": {"cpu": "100m"},
                    "volumes": [
                        {"name": "data", "persistentVolumeClaim": {"claimName": "data-web-1"}},
                        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
                        {"name": "config", "configMap": {"name": "web"}}
                    ]
                },
                "status": {"phase": "Running"}
            })
        .to_string();
        let pod = slim_de::pod(&mut Reader::new(&text)).unwrap();
        let mut interner = Interner::new();
        let (view, links) = project_pod(&pod, &mut interner).unwrap();
        let labels = links.labels;
        assert_eq!(
            &*links.claims,
            [Arc::from("data-web-1")],
            "claims mounted by name; an ephemeral claim pins nothing"
        );
        assert_eq!(
            view.requests.cpu_millis(),
            2_100,
            "max(init 2, app 0.5) + overhead 0.1"
        );
        assert_eq!(view.owner.unwrap().to_string(), "ReplicaSet web-abc");
        assert_eq!(labels.get("app").map(|v| &**v), Some("web"));
    }

    #[test]
    fn a_pod_is_ready_only_when_its_ready_condition_says_true() {
        let ready = |status: serde_json::Value| {
            let text = serde_json::json!({
                "metadata": {"name": "p", "namespace": "ns"},
                "spec": {"nodeName": "n1", "containers": []},
                "status": status
            })
            .to_string();
            let pod = slim_de::pod(&mut Reader::new(&text)).unwrap();
            project_pod(&pod, &mut Interner::new()).unwrap().0.ready
        };
        let condition = |s: &str| serde_json::json!({"phase": "Running", "conditions": [{"type": "Ready", "status": s}]});
        assert!(ready(condition("True")));
        assert!(!ready(condition("False")));
        assert!(!ready(condition("Unknown")));
        assert!(
            !ready(serde_json::json!({"phase": "Pending"})),
            "no condition yet"
        );
    }

    fn projected_pod(spec: serde_json::Value) -> PodView {
        let text = serde_json::json!({
            "metadata": {"name": "p", "namespace": "ns"},
            "spec": spec,
            "status": {"phase": "Running"}
        })
        .to_string();
        let pod = slim_de::pod(&mut Reader::new(&text)).unwrap();
        project_pod(&pod, &mut Interner::new()).unwrap().0
    }

    #[test]
    fn a_pod_being_deleted_is_terminating_until_it_has_terminated() {
        let pod = |phase: &str| {
            let text = serde_json::json!({
                "metadata": {"name": "p", "namespace": "ns", "deletionTimestamp": "2026-11-30T03:00:00Z"},
                "spec": {"nodeName": "n1", "containers": []},
                "status": {"phase": phase}
            })
            .to_string();
            let pod = slim_de::pod(&mut Reader::new(&text)).unwrap();
            project_pod(&pod, &mut Interner::new()).unwrap().0.phase
        };
        assert_eq!(pod("Running"), PodPhase::Terminating);
        assert_eq!(pod("Succeeded"), PodPhase::Succeeded, "done holds nothing");
        assert_eq!(
            projected_pod(serde_json::json!({"containers": []})).phase,
            PodPhase::Running
        );
    }

    fn node_labels(pairs: &[(&str, &str)]) -> Labels {
        Labels::new(pairs.iter().map(|(k, v)| (Arc::from(*k), Arc::from(*v))))
    }

    #[test]
    fn required_node_affinity_becomes_ored_terms() {
        let pod = projected_pod(serde_json::json!({
            "nodeSelector": {"zone": "a"},
            "affinity": {
                "nodeAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["a"]}]},
                        {"matchExpressions": [
                            {"key": "pool", "operator": "In", "values": ["b"]},
                            {"key": "gen", "operator": "Gt", "values": ["4"]}
                        ]},
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n9"]}]}
                    ]},
                    "preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": 1, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["c"]}]}}
                    ]
                },
                "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": []}
            },
            "containers": []
        }));
        let selector = &pod.node_selector;
        assert_eq!(selector.any_term.len(), 3);
        assert!(selector.matches(&node_labels(&[("zone", "a"), ("pool", "a")])));
        assert!(selector.matches(&node_labels(&[("zone", "a"), ("pool", "b"), ("gen", "5")])));
        assert!(!selector.matches(&node_labels(&[("zone", "a"), ("pool", "b"), ("gen", "3")])));
        assert!(
            !selector.matches(&node_labels(&[("zone", "a"), ("pool", "c")])),
            "preferred terms do not restrict"
        );
        assert!(
            !selector.matches(&node_labels(&[("zone", "b"), ("pool", "a")])),
            "nodeSelector holds too"
        );
        // A term by node name is not modelled: it admits no node rather than every node.
        let by_name = projected_pod(serde_json::json!({
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n9"]}]}
            ]}}},
            "containers": []
        }));
        assert!(
            !by_name
                .node_selector
                .matches(&node_labels(&[("pool", "a")]))
        );
        let none = projected_pod(serde_json::json!({"affinity": null, "containers": []}));
        assert!(none.node_selector.is_empty());
    }

    #[test]
    fn pod_level_requests_replace_the_containers_cpu_and_memory() {
        let pod = projected_pod(serde_json::json!({
            "resources": {"requests": {"cpu": "4", "memory": "8Gi"}, "limits": {"cpu": "8"}},
            "containers": [{"name": "a"}, {"name": "b", "resources": {"requests": {"cpu": "1"}}}]
        }));
        assert_eq!(pod.requests.cpu_millis(), 4_000);
        assert_eq!(pod.requests.memory_bytes(), 8 << 30);
    }

    #[test]
    fn a_pdb_without_a_selector_covers_no_pod_and_an_empty_one_all() {
        let read = |spec: serde_json::Value| {
            let text = serde_json::json!({
                "metadata": {"name": "pdb", "namespace": "ns"}, "spec": spec
            })
            .to_string();
            let pdb = slim_de::pdb(&mut Reader::new(&text)).unwrap();
            project_pdb(&pdb, &mut Interner::new()).1
        };
        let web = node_labels(&[("app", "web")]);
        assert!(!read(serde_json::json!({"maxUnavailable": 1})).matches(&web));
        assert!(read(serde_json::json!({"selector": {}})).matches(&web));
        assert!(
            read(serde_json::json!({"selector": {"matchLabels": {"app": "web"}}})).matches(&web)
        );
        assert!(
            !read(serde_json::json!({"selector": {"matchLabels": {"app": "db"}}})).matches(&web)
        );
    }

    #[test]
    fn malformed_quantities_are_errors_not_panics() {
        let text = serde_json::json!({
            "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "lots"}}
        })
        .to_string();
        let node = slim_de::node(&mut Reader::new(&text)).unwrap();
        assert!(project_node(&node, &mut Interner::new()).is_err());
    }
}
