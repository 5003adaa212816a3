//! Slim Kubernetes objects: only the fields fleetdeck reads, with strings borrowed from
//! the page they were read from (see `slim_de`). They live only while one object is
//! turned into its view (see `project`): nothing of a page outlives its decoding but the
//! views and the interned strings they share.
//!
//! Each kind knows the API path it is listed and watched at and how one of its objects
//! becomes an [`Item`], which is all the list-then-watch loop needs from it.

use std::borrow::Cow;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use super::json_reader::{JsonError, Reader};
use super::project::{self, NodeVersions, PdbSelector, PodLinks, ProjectionError};
use super::slim_de::{self, Owner, Quantities};
use crate::model::fleet::{
    ClaimView, Interner, NodeView, OwnerRef, PdbView, PodPhase, PodView, TaintEffect, VolumeView,
};

/// One object as the store receives it: its key, and its view with the facts kept beside
/// it, or why it could not be read (it is then left out and counted).
#[derive(Debug)]
pub struct Item<K, V, E> {
    /// What identifies the object in its cluster (a deletion needs only this).
    pub key: K,
    /// The view and its companion facts, or the reason the object is left out.
    pub view: Result<(V, E), ProjectionError>,
}

/// A resource kind the list-then-watch loop keeps.
pub trait SlimKind: Send + 'static {
    /// The collection path, e.g. `/api/v1/pods`.
    const PATH: &'static str;
    /// Identity within the cluster.
    type Key: Hash + Eq + Clone + Send + Debug + 'static;
    /// What the console and the engine read.
    type View: Clone + Send + Debug + 'static;
    /// Facts kept beside each view.
    type Extra: Send + Debug + 'static;

    /// Reads one object at `reader` and projects it, sharing strings through `interner`.
    /// Also returns the object's `metadata.resourceVersion`, where a watch resumes.
    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError>;
}

/// The item type of a kind.
pub type ItemOf<K> = Item<<K as SlimKind>::Key, <K as SlimKind>::View, <K as SlimKind>::Extra>;

/// Nodes, keyed by name.
#[derive(Debug)]
pub enum Nodes {}

/// Pods, keyed by namespace and name.
#[derive(Debug)]
pub enum Pods {}

/// PodDisruptionBudgets, keyed by namespace and name.
#[derive(Debug)]
pub enum Pdbs {}

/// PersistentVolumeClaims, keyed by namespace and name.
#[derive(Debug)]
pub enum Claims {}

/// PersistentVolumes, keyed by name.
#[derive(Debug)]
pub enum Volumes {}

/// ReplicaSets, keyed by namespace and name: only their controller (a Deployment) is kept.
#[derive(Debug)]
pub enum ReplicaSets {}

/// Jobs, keyed by namespace and name: only their controller (a CronJob) is kept.
#[derive(Debug)]
pub enum Jobs {}

/// A ReplicaSet or Job as kept: its controller, if it has one.
type Controlled = Item<NamespacedKey, Option<OwnerRef>, ()>;

/// Reads a ReplicaSet or Job for its controller only.
fn decode_controlled<'a>(
    reader: &mut Reader<'a>,
    interner: &mut Interner,
) -> Result<(Controlled, Option<Cow<'a, str>>), JsonError> {
    let metadata = slim_de::metadata_only(reader)?;
    let key = metadata.key(interner);
    let controller = metadata.controller.as_ref().map(|o| OwnerRef {
        kind: interner.intern(&o.kind),
        name: interner.intern(&o.name),
    });
    Ok((
        Item {
            key,
            view: Ok((controller, ())),
        },
        metadata.resource_version,
    ))
}

impl SlimKind for ReplicaSets {
    const PATH: &'static str = "/apis/apps/v1/replicasets";
    type Key = NamespacedKey;
    type View = Option<OwnerRef>;
    type Extra = ();

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        decode_controlled(reader, interner)
    }
}

impl SlimKind for Jobs {
    const PATH: &'static str = "/apis/batch/v1/jobs";
    type Key = NamespacedKey;
    type View = Option<OwnerRef>;
    type Extra = ();

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        decode_controlled(reader, interner)
    }
}

/// Namespace and name.
pub type NamespacedKey = (Arc<str>, Arc<str>);

impl SlimKind for Nodes {
    const PATH: &'static str = "/api/v1/nodes";
    type Key = Arc<str>;
    type View = NodeView;
    type Extra = NodeVersions;

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        let node = slim_de::node(reader)?;
        let view = project::project_node(&node, interner);
        let key = match &view {
            Ok((view, _)) => Arc::clone(&view.name.0),
            Err(_) => interner.intern(node.metadata.name.as_deref().unwrap_or_default()),
        };
        Ok((Item { key, view }, node.metadata.resource_version))
    }
}

impl SlimKind for Pods {
    const PATH: &'static str = "/api/v1/pods";
    type Key = NamespacedKey;
    type View = PodView;
    type Extra = PodLinks;

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        let pod = slim_de::pod(reader)?;
        let view = project::project_pod(&pod, interner);
        let key = match &view {
            Ok((view, _)) => (Arc::clone(&view.namespace), Arc::clone(&view.name)),
            Err(_) => pod.metadata.key(interner),
        };
        Ok((Item { key, view }, pod.metadata.resource_version))
    }
}

impl SlimKind for Claims {
    const PATH: &'static str = "/api/v1/persistentvolumeclaims";
    type Key = NamespacedKey;
    type View = ClaimView;
    type Extra = ();

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        let claim = slim_de::claim(reader)?;
        let view = project::project_claim(&claim, interner);
        let key = (Arc::clone(&view.namespace), Arc::clone(&view.name));
        Ok((
            Item {
                key,
                view: Ok((view, ())),
            },
            claim.metadata.resource_version,
        ))
    }
}

impl SlimKind for Volumes {
    const PATH: &'static str = "/api/v1/persistentvolumes";
    type Key = Arc<str>;
    type View = VolumeView;
    type Extra = ();

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        let volume = slim_de::volume(reader)?;
        let view = project::project_volume(&volume, interner);
        let key = Arc::clone(&view.name);
        Ok((
            Item {
                key,
                view: Ok((view, ())),
            },
            volume.metadata.resource_version,
        ))
    }
}

impl SlimKind for Pdbs {
    const PATH: &'static str = "/apis/policy/v1/poddisruptionbudgets";
    type Key = NamespacedKey;
    type View = PdbView;
    type Extra = PdbSelector;

    fn decode<'a>(
        reader: &mut Reader<'a>,
        interner: &mut Interner,
    ) -> Result<(ItemOf<Self>, Option<Cow<'a, str>>), JsonError> {
        let pdb = slim_de::pdb(reader)?;
        let (view, selector) = project::project_pdb(&pdb, interner);
        let key = (Arc::clone(&view.namespace), Arc::clone(&view.name));
        Ok((
            Item {
                key,
                view: Ok((view, selector)),
            },
            pdb.metadata.resource_version,
        ))
    }
}

/// One list page: its items and where to go next.
#[derive(Debug)]
pub struct ListPage<T> {
    /// The list's `metadata.resourceVersion`, where the watch starts.
    pub resource_version: Option<String>,
    /// The token for the next page; `None` (or empty) on the last page.
    pub continue_token: Option<String>,
    /// The page's objects.
    pub items: Vec<T>,
}

/// Reads one list page of kind `K` from its text.
pub fn decode_list<K: SlimKind>(
    text: &str,
    interner: &mut Interner,
) -> Result<ListPage<ItemOf<K>>, JsonError> {
    let mut page = ListPage {
        resource_version: None,
        continue_token: None,
        items: Vec::new(),
    };
    let mut reader = Reader::new(text);
    if reader.peek() != Some(b'{') {
        return Err(reader.error("expected a list object"));
    }
    reader.object(|r, key| match &*key {
        "metadata" => r.object(|r, key| {
            match &*key {
                "resourceVersion" => {
                    page.resource_version = r.optional_string()?.map(Cow::into_owned)
                }
                "continue" => page.continue_token = r.optional_string()?.map(Cow::into_owned),
                _ => r.skip()?,
            }
            Ok(())
        }),
        "items" => r.array(|r| {
            if r.peek() != Some(b'{') {
                return Err(r.error("expected an object"));
            }
            let (item, _) = K::decode(r, interner)?;
            page.items.push(item);
            Ok(())
        }),
        _ => r.skip(),
    })?;
    reader.end()?;
    Ok(page)
}

/// Reads one object of kind `K` (a watch event's `object`), with its resource version.
pub fn decode_object<K: SlimKind>(
    text: &str,
    interner: &mut Interner,
) -> Result<(ItemOf<K>, Option<String>), JsonError> {
    let mut reader = Reader::new(text);
    if reader.peek() != Some(b'{') {
        return Err(reader.error("expected an object"));
    }
    let (item, version) = K::decode(&mut reader, interner)?;
    reader.end()?;
    Ok((item, version.map(Cow::into_owned)))
}

/// `metadata`, slim: identity, labels, the controller and the one annotation read.
#[derive(Debug, Clone, Default)]
pub struct SlimMeta<'a> {
    /// Object name.
    pub name: Option<Cow<'a, str>>,
    /// Namespace (none for cluster-scoped objects).
    pub namespace: Option<Cow<'a, str>>,
    /// Where a watch resumes.
    pub resource_version: Option<Cow<'a, str>>,
    /// Labels, in document order.
    pub labels: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// `nvidia.com/gpu.replicas`, the only annotation read.
    pub gpu_replicas_annotation: Option<Cow<'a, str>>,
    /// The controlling owner reference.
    pub controller: Option<Owner<'a>>,
    /// Whether `deletionTimestamp` is set: the object is being deleted.
    pub deleting: bool,
}

impl SlimMeta<'_> {
    /// The value of label `key`, if present (last one wins, as in a JSON map).
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_ref())
    }

    /// Namespace (`default` when absent, as the API server defaults it) and name.
    pub fn key(&self, interner: &mut Interner) -> NamespacedKey {
        (
            interner.intern(self.namespace.as_deref().unwrap_or("default")),
            Arc::from(self.name.as_deref().unwrap_or_default()),
        )
    }
}

/// A Node, as much of it as capacity, drift and maintenance read.
#[derive(Debug, Clone, Default)]
pub struct SlimNode<'a> {
    /// Name, labels, the GPU annotation.
    pub metadata: SlimMeta<'a>,
    /// Cordon and taints.
    pub spec: SlimNodeSpec<'a>,
    /// Allocatable, conditions, versions.
    pub status: SlimNodeStatus<'a>,
}

/// `Node.spec`, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimNodeSpec<'a> {
    /// Cordoned.
    pub unschedulable: Option<bool>,
    /// Taints.
    pub taints: Vec<SlimTaint<'a>>,
}

/// A node taint, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimTaint<'a> {
    /// Taint key.
    pub key: Cow<'a, str>,
    /// Taint value.
    pub value: Option<Cow<'a, str>>,
    /// Effect; `None` when the spelling is unknown (the taint is then ignored).
    pub effect: Option<TaintEffect>,
}

/// `Node.status`, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimNodeStatus<'a> {
    /// Allocatable resources, already in amounts.
    pub allocatable: Quantities,
    /// The `Ready` condition's status (`True`, `False`, `Unknown`), if reported.
    pub ready: Option<Cow<'a, str>>,
    /// Versions reported by the kubelet.
    pub node_info: SlimNodeInfo<'a>,
}

/// `Node.status.nodeInfo`, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimNodeInfo<'a> {
    /// e.g. `v1.31.4`.
    pub kubelet_version: Cow<'a, str>,
    /// e.g. `6.1.0-28-amd64`.
    pub kernel_version: Cow<'a, str>,
    /// e.g. `containerd://1.7.22`.
    pub container_runtime_version: Cow<'a, str>,
}

/// A Pod, as much of it as capacity and drains read.
#[derive(Debug, Clone, Default)]
pub struct SlimPod<'a> {
    /// Name, namespace, labels, controller.
    pub metadata: SlimMeta<'a>,
    /// Placement and requests.
    pub spec: SlimPodSpec<'a>,
    /// The phase; `None` when absent (a pod not yet seen by a kubelet: pending).
    pub phase: Option<PodPhase>,
    /// `status.conditions[Ready].status`, if the pod has that condition.
    pub ready: Option<Cow<'a, str>>,
}

/// `Pod.spec`, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimPodSpec<'a> {
    /// Bound node.
    pub node_name: Option<Cow<'a, str>>,
    /// Plain node selector, in document order.
    pub node_selector: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// Tolerations.
    pub tolerations: Vec<SlimToleration<'a>>,
    /// App containers.
    pub containers: Vec<SlimContainer>,
    /// Init containers and sidecars.
    pub init_containers: Vec<SlimContainer>,
    /// RuntimeClass overhead, already in amounts.
    pub overhead: Quantities,
    /// Pod-level requests (`spec.resources.requests`), already in amounts.
    pub pod_requests: Option<Quantities>,
    /// Required node affinity's terms (`requiredDuringSchedulingIgnoredDuringExecution
    /// .nodeSelectorTerms`), if the pod has required node affinity.
    pub required_node_terms: Option<Vec<SlimNodeSelectorTerm<'a>>>,
    /// Claims its volumes mount by name (`volumes[].persistentVolumeClaim.claimName`).
    /// Generic ephemeral volumes are left out: a pod recreated elsewhere gets a new claim
    /// and a new volume, so they pin nothing.
    pub claims: Vec<Cow<'a, str>>,
}

/// One node-selector term of required node affinity, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimNodeSelectorTerm<'a> {
    /// `matchExpressions` on node labels, all of which must hold.
    pub expressions: Vec<SlimSelectorRequirement<'a>>,
    /// Whether the term also has `matchFields` (node name), which are not modelled.
    pub by_field: bool,
}

/// A `matchExpressions` entry, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimSelectorRequirement<'a> {
    /// Label key.
    pub key: Cow<'a, str>,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt` or `Lt`.
    pub operator: Cow<'a, str>,
    /// Values.
    pub values: Vec<Cow<'a, str>>,
}

/// A toleration, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimToleration<'a> {
    /// Key; empty or absent matches every key (with `Exists`).
    pub key: Option<Cow<'a, str>>,
    /// `operator: Exists` (otherwise `Equal`).
    pub exists: bool,
    /// Value for `Equal`.
    pub value: Option<Cow<'a, str>>,
    /// Effect to match; `None` matches every effect.
    pub effect: Option<TaintEffect>,
}

/// A container, slim: its requests and whether it is a sidecar.
#[derive(Debug, Clone, Default)]
pub struct SlimContainer {
    /// `resources.requests`, already in amounts; limits do not matter for placement.
    pub requests: Quantities,
    /// `restartPolicy: Always`, which marks a sidecar init container.
    pub restarts_always: bool,
}

/// A PersistentVolumeClaim, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimClaim<'a> {
    /// Name and namespace.
    pub metadata: SlimMeta<'a>,
    /// `spec.volumeName`: the volume it is bound to.
    pub volume_name: Option<Cow<'a, str>>,
}

/// A PersistentVolume, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimVolume<'a> {
    /// Name.
    pub metadata: SlimMeta<'a>,
    /// `spec.nodeAffinity.required.nodeSelectorTerms`: where it can be attached.
    pub required_terms: Vec<SlimNodeSelectorTerm<'a>>,
}

/// A PodDisruptionBudget, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimPdb<'a> {
    /// Name and namespace.
    pub metadata: SlimMeta<'a>,
    /// `spec.selector`, decoded in full (PDBs are few and selectors small).
    pub selector: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector>,
    /// `spec.unhealthyPodEvictionPolicy` (`IfHealthyBudget` when absent).
    pub unhealthy_pod_eviction_policy: Option<Cow<'a, str>>,
    /// What the disruption controller computed.
    pub status: SlimPdbStatus,
}

/// `PodDisruptionBudget.status`, slim.
#[derive(Debug, Clone, Default)]
pub struct SlimPdbStatus {
    /// Evictions allowed now.
    pub disruptions_allowed: i32,
    /// Healthy pods now.
    pub current_healthy: i32,
    /// Healthy pods required.
    pub desired_healthy: i32,
    /// Pods counted.
    pub expected_pods: i32,
}
