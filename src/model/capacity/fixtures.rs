//! Small builders for hand-computed capacity tests.

use std::sync::Arc;

use crate::model::fleet::{
    ClusterId, ClusterView, Dimension, LabelRequirement, Labels, MaintenanceState, NodeName,
    NodeSelector, NodeView, OwnerRef, PdbView, PodPhase, PodView, Readiness, RequiredDomain,
    ResourceVector, Schedulability, Taint, TaintEffect, Toleration, TolerationOperator,
};

/// One gibibyte.
pub(crate) const GI: i64 = 1 << 30;

/// Builds a node: 16 cores, 64 GiB, 110 pods, no GPUs, labelled with its zone.
pub(crate) struct NodeB {
    node: NodeView,
    labels: Vec<(Arc<str>, Arc<str>)>,
}

pub(crate) fn node(name: &str, zone: &str) -> NodeB {
    NodeB {
        node: NodeView {
            name: NodeName::from(name),
            labels: Labels::default(),
            readiness: Readiness::Ready,
            schedulability: Schedulability::Schedulable,
            maintenance: MaintenanceState::InService,
            taints: Box::new([]),
            allocatable: ResourceVector::new(16_000, 64 * GI, 0, 110),
            gpu_replicas: 1,
            kubelet_version: Arc::from("v1.34.1"),
        },
        labels: vec![
            ("topology.kubernetes.io/zone".into(), zone.into()),
            ("kubernetes.io/hostname".into(), name.into()),
        ],
    }
}

impl NodeB {
    pub(crate) fn cpu(mut self, millis: i64) -> Self {
        self.node.allocatable.set(Dimension::Cpu, millis);
        self
    }
    pub(crate) fn mem_gi(mut self, gi: i64) -> Self {
        self.node.allocatable.set(Dimension::Memory, gi * GI);
        self
    }
    pub(crate) fn gpus(mut self, n: i64) -> Self {
        self.node.allocatable.set(Dimension::Gpu, n);
        self
    }
    pub(crate) fn mig(mut self, profile: &str, n: i64) -> Self {
        self.node.allocatable.set(Dimension::Mig(profile.into()), n);
        self
    }
    pub(crate) fn replicas(mut self, r: u32) -> Self {
        self.node.gpu_replicas = r;
        self
    }
    pub(crate) fn label(mut self, k: &str, v: &str) -> Self {
        self.labels.push((k.into(), v.into()));
        self
    }
    pub(crate) fn taint(mut self, key: &str, effect: TaintEffect) -> Self {
        let mut taints = self.node.taints.into_vec();
        taints.push(Taint {
            key: key.into(),
            value: None,
            effect,
        });
        self.node.taints = taints.into_boxed_slice();
        self
    }
    pub(crate) fn cordoned(mut self) -> Self {
        self.node.schedulability = Schedulability::Cordoned;
        self
    }
    pub(crate) fn not_ready(mut self) -> Self {
        self.node.readiness = Readiness::NotReady;
        self
    }
    pub(crate) fn in_maintenance(mut self) -> Self {
        self.node.maintenance = MaintenanceState::UnderMaintenance;
        self
    }
    pub(crate) fn build(mut self) -> NodeView {
        self.node.labels = Labels::new(self.labels);
        self.node
    }
}

/// Builds a running pod of ReplicaSet `default/app` requesting nothing but a pod slot.
pub(crate) struct PodB(PodView);

pub(crate) fn pod(name: &str, node: Option<&str>) -> PodB {
    PodB(PodView {
        namespace: "default".into(),
        name: name.into(),
        node: node.map(NodeName::from),
        phase: if node.is_some() {
            PodPhase::Running
        } else {
            PodPhase::Pending
        },
        ready: node.is_some(),
        mounts_claims: false,
        owner: Some(OwnerRef {
            kind: "ReplicaSet".into(),
            name: "app".into(),
        }),
        requests: ResourceVector::new(0, 0, 0, 1),
        node_selector: NodeSelector::default(),
        tolerations: Box::new([]),
        required_domain: None,
        pdb: None,
    })
}

impl PodB {
    pub(crate) fn owner(mut self, ns: &str, kind: &str, name: &str) -> Self {
        self.0.namespace = ns.into();
        self.0.owner = Some(OwnerRef {
            kind: kind.into(),
            name: name.into(),
        });
        self
    }
    pub(crate) fn bare(mut self) -> Self {
        self.0.owner = None;
        self
    }
    pub(crate) fn cpu(mut self, millis: i64) -> Self {
        self.0.requests.set(Dimension::Cpu, millis);
        self
    }
    pub(crate) fn mem_gi(mut self, gi: i64) -> Self {
        self.0.requests.set(Dimension::Memory, gi * GI);
        self
    }
    pub(crate) fn gpus(mut self, n: i64) -> Self {
        self.0.requests.set(Dimension::Gpu, n);
        self
    }
    pub(crate) fn mig(mut self, profile: &str, n: i64) -> Self {
        self.0.requests.set(Dimension::Mig(profile.into()), n);
        self
    }
    pub(crate) fn select(mut self, k: &str, v: &str) -> Self {
        let mut reqs = std::mem::take(&mut self.0.node_selector.all).into_vec();
        reqs.push(LabelRequirement::equals(k.into(), v.into()));
        self.0.node_selector.all = reqs.into_boxed_slice();
        self
    }
    /// Required node affinity: one of these terms of `key In [values]` must hold.
    pub(crate) fn affinity(mut self, terms: &[(&str, &[&str])]) -> Self {
        self.0.node_selector.any_term = terms
            .iter()
            .map(|(k, vs)| {
                let values = vs.iter().map(|v| Arc::<str>::from(*v)).collect();
                Box::new([LabelRequirement::In((*k).into(), values)]) as Box<[_]>
            })
            .collect();
        self
    }
    pub(crate) fn tolerate(mut self, key: &str) -> Self {
        let mut tols = self.0.tolerations.into_vec();
        tols.push(Toleration {
            key: Some(key.into()),
            operator: TolerationOperator::Exists,
            value: None,
            effect: None,
        });
        self.0.tolerations = tols.into_boxed_slice();
        self
    }
    pub(crate) fn domain(mut self, k: &str, v: &str) -> Self {
        self.0.required_domain = Some(RequiredDomain::one(k.into(), v.into()));
        self
    }
    /// Pinned to any of several values of `k` (a regional disk's zones).
    pub(crate) fn domains(mut self, k: &str, values: &[&str]) -> Self {
        self.0.required_domain = RequiredDomain::any_of(k.into(), values.iter().map(|&v| v.into()));
        self
    }
    /// Its Ready condition off (a crashing pod, or one on a node that stopped reporting).
    pub(crate) fn not_ready(mut self) -> Self {
        self.0.ready = false;
        self
    }
    /// It mounts a PersistentVolumeClaim.
    pub(crate) fn mounts_claims(mut self) -> Self {
        self.0.mounts_claims = true;
        self
    }
    pub(crate) fn phase(mut self, phase: PodPhase) -> Self {
        self.0.phase = phase;
        self
    }
    pub(crate) fn build(self) -> PodView {
        self.0
    }
}

/// A cluster named `c1`.
pub(crate) fn cluster(nodes: Vec<NodeView>, pods: Vec<PodView>) -> ClusterView {
    ClusterView {
        id: ClusterId::from("c1"),
        claims: Vec::new(),
        volumes: Vec::new(),
        volumes_unreadable: None,
        controllers: Default::default(),
        nodes,
        pods,
        pdbs: Vec::new(),
    }
}

/// PDB `shop/name` with `allowed` disruptions, `healthy` of `desired` healthy pods, 3
/// expected, the default unhealthy-pod policy.
pub(crate) fn pdb(name: &str, allowed: i32, healthy: i32, desired: i32) -> PdbView {
    PdbView {
        namespace: "shop".into(),
        name: name.into(),
        disruptions_allowed: allowed,
        current_healthy: healthy,
        desired_healthy: desired,
        expected_pods: 3,
        always_allow_unhealthy: false,
    }
}

/// Losing zone `value`.
pub(crate) fn lose_zone(value: &str) -> crate::model::capacity::Scenario {
    crate::model::capacity::Scenario::LoseFailureDomain {
        key: "topology.kubernetes.io/zone".into(),
        value: value.into(),
    }
}
