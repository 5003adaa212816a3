//! Readers for the slim objects: each reads one object's JSON straight into the form the
//! projection needs, skipping every field it does not name. Resource lists become amounts
//! as they are read, label maps become pairs, owner references shrink to the controller,
//! conditions to the `Ready` one, and enum-like strings are compared in place. A value a
//! cluster got wrong (a malformed quantity) is kept as an error on the object, so that
//! the object alone is left out, not the whole page; text that is not the JSON shape of
//! the object fails the page, as the API types would.

use std::borrow::Cow;

use super::json_reader::{JsonError, Reader};
use super::slim::{
    SlimClaim, SlimContainer, SlimMeta, SlimNode, SlimNodeInfo, SlimNodeSelectorTerm, SlimPdb,
    SlimPdbStatus, SlimPod, SlimSelectorRequirement, SlimTaint, SlimToleration, SlimVolume,
};
use crate::model::fleet::{
    Dimension, GPU_REPLICAS_LABEL, Interner, PodPhase, ResourceError, ResourceVector, TaintEffect,
};
use crate::model::quantity::parse_quantity;

type Result<T> = std::result::Result<T, JsonError>;

/// A string field, `null` reading as absent.
fn text<'a>(r: &mut Reader<'a>) -> Result<Cow<'a, str>> {
    Ok(r.optional_string()?.unwrap_or_default())
}

/// An array whose elements are each read by `element`; `null` reads as empty.
fn list_of<'a, T>(
    r: &mut Reader<'a>,
    mut element: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    r.array(|r| {
        out.push(element(r)?);
        Ok(())
    })?;
    Ok(out)
}

/// A string map (labels, node selector) as pairs in document order; no tree is built,
/// because the pairs are interned and sorted once by the projection anyway.
fn string_pairs<'a>(r: &mut Reader<'a>) -> Result<Vec<(Cow<'a, str>, Cow<'a, str>)>> {
    let mut pairs = Vec::new();
    r.object(|r, key| {
        let value = text(r)?;
        pairs.push((key, value));
        Ok(())
    })?;
    Ok(pairs)
}

/// `metadata`, slim.
fn meta<'a>(r: &mut Reader<'a>) -> Result<SlimMeta<'a>> {
    let mut meta = SlimMeta::default();
    r.object(|r, key| {
        match &*key {
            "name" => meta.name = r.optional_string()?,
            "namespace" => meta.namespace = r.optional_string()?,
            "resourceVersion" => meta.resource_version = r.optional_string()?,
            "labels" => meta.labels = string_pairs(r)?,
            "annotations" => meta.gpu_replicas_annotation = one_annotation(r, GPU_REPLICAS_LABEL)?,
            "ownerReferences" => meta.controller = controller(r)?,
            "deletionTimestamp" => meta.deleting = r.optional_string()?.is_some(),
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(meta)
}

/// The value of one annotation (`key`), the others skipped unread.
fn one_annotation<'a>(r: &mut Reader<'a>, wanted: &str) -> Result<Option<Cow<'a, str>>> {
    let mut found = None;
    r.object(|r, key| {
        if key == wanted {
            found = r.optional_string()?;
        } else {
            r.skip()?;
        }
        Ok(())
    })?;
    Ok(found)
}

/// The controlling owner of an object: kind and name of the first owner reference with
/// `controller: true`; the others are skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owner<'a> {
    /// e.g. `ReplicaSet`.
    pub kind: Cow<'a, str>,
    /// The owner's name.
    pub name: Cow<'a, str>,
}

/// `ownerReferences`, reduced to the controller.
fn controller<'a>(r: &mut Reader<'a>) -> Result<Option<Owner<'a>>> {
    let mut found = None;
    r.array(|r| {
        let mut owner = Owner::default();
        let mut is_controller = false;
        r.object(|r, key| {
            match &*key {
                "kind" => owner.kind = text(r)?,
                "name" => owner.name = text(r)?,
                "controller" => is_controller = r.optional_bool()?.unwrap_or(false),
                _ => r.skip()?,
            }
            Ok(())
        })?;
        if found.is_none() && is_controller {
            found = Some(owner);
        }
        Ok(())
    })?;
    Ok(found)
}

/// A taint or toleration effect; an unknown spelling reads as `None`.
fn effect(r: &mut Reader<'_>) -> Result<Option<TaintEffect>> {
    Ok(r.optional_string()?.and_then(|s| TaintEffect::parse(&s)))
}

/// A Node.
pub fn node<'a>(r: &mut Reader<'a>) -> Result<SlimNode<'a>> {
    let mut node = SlimNode::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => node.metadata = meta(r)?,
            "spec" => r.object(|r, key| {
                match &*key {
                    "unschedulable" => node.spec.unschedulable = r.optional_bool()?,
                    "taints" => r.array(|r| {
                        let mut taint = SlimTaint::default();
                        r.object(|r, key| {
                            match &*key {
                                "key" => taint.key = text(r)?,
                                "value" => taint.value = r.optional_string()?,
                                "effect" => taint.effect = effect(r)?,
                                _ => r.skip()?,
                            }
                            Ok(())
                        })?;
                        node.spec.taints.push(taint);
                        Ok(())
                    })?,
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            "status" => r.object(|r, key| {
                match &*key {
                    "allocatable" => node.status.allocatable = quantities(r)?,
                    "conditions" => node.status.ready = ready_condition(r)?,
                    "nodeInfo" => node.status.node_info = node_info(r)?,
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(node)
}

fn node_info<'a>(r: &mut Reader<'a>) -> Result<SlimNodeInfo<'a>> {
    let mut info = SlimNodeInfo::default();
    r.object(|r, key| {
        match &*key {
            "kubeletVersion" => info.kubelet_version = text(r)?,
            "kernelVersion" => info.kernel_version = text(r)?,
            "containerRuntimeVersion" => info.container_runtime_version = text(r)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(info)
}

/// The status of the first `Ready` condition in a `conditions` list (empty if it has
/// none), or `None` when the list has no such condition.
fn ready_condition<'a>(r: &mut Reader<'a>) -> Result<Option<Cow<'a, str>>> {
    let mut ready = None;
    r.array(|r| {
        let (mut kind, mut status) = (Cow::Borrowed(""), None);
        r.object(|r, key| {
            match &*key {
                "type" => kind = text(r)?,
                "status" => status = r.optional_string()?,
                _ => r.skip()?,
            }
            Ok(())
        })?;
        if kind == "Ready" && ready.is_none() {
            ready = Some(status.unwrap_or_default());
        }
        Ok(())
    })?;
    Ok(ready)
}

/// A Pod.
pub fn pod<'a>(r: &mut Reader<'a>) -> Result<SlimPod<'a>> {
    let mut pod = SlimPod::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => pod.metadata = meta(r)?,
            "spec" => r.object(|r, key| {
                let spec = &mut pod.spec;
                match &*key {
                    "nodeName" => spec.node_name = r.optional_string()?,
                    "nodeSelector" => spec.node_selector = string_pairs(r)?,
                    "tolerations" => spec.tolerations = list_of(r, toleration)?,
                    "containers" => spec.containers = list_of(r, container)?,
                    "initContainers" => spec.init_containers = list_of(r, container)?,
                    "overhead" => spec.overhead = quantities(r)?,
                    "resources" => spec.pod_requests = requests(r)?,
                    "affinity" => spec.required_node_terms = required_node_terms(r)?,
                    "volumes" => {
                        spec.claims = list_of(r, claim_name)?.into_iter().flatten().collect()
                    }
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            "status" => r.object(|r, key| {
                match &*key {
                    "phase" => pod.phase = r.optional_string()?.map(|s| phase(&s)),
                    "conditions" => pod.ready = ready_condition(r)?,
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(pod)
}

/// The claim a pod volume mounts by name, if it is a `persistentVolumeClaim` volume.
fn claim_name<'a>(r: &mut Reader<'a>) -> Result<Option<Cow<'a, str>>> {
    let mut name = None;
    r.object(|r, key| match &*key {
        "persistentVolumeClaim" => r.object(|r, key| {
            match &*key {
                "claimName" => name = r.optional_string()?,
                _ => r.skip()?,
            }
            Ok(())
        }),
        _ => r.skip(),
    })?;
    Ok(name)
}

/// An object read for its metadata only (a ReplicaSet or a Job: its controller, which
/// names what its pods are an instance of); everything else is skipped.
pub fn metadata_only<'a>(r: &mut Reader<'a>) -> Result<SlimMeta<'a>> {
    let mut metadata = SlimMeta::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => metadata = meta(r)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(metadata)
}

/// A PersistentVolumeClaim.
pub fn claim<'a>(r: &mut Reader<'a>) -> Result<SlimClaim<'a>> {
    let mut claim = SlimClaim::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => claim.metadata = meta(r)?,
            "spec" => r.object(|r, key| {
                match &*key {
                    "volumeName" => claim.volume_name = r.optional_string()?,
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(claim)
}

/// A PersistentVolume.
pub fn volume<'a>(r: &mut Reader<'a>) -> Result<SlimVolume<'a>> {
    let mut volume = SlimVolume::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => volume.metadata = meta(r)?,
            "spec" => r.object(|r, key| match &*key {
                "nodeAffinity" => r.object(|r, key| match &*key {
                    "required" => r.object(|r, key| {
                        match &*key {
                            "nodeSelectorTerms" => {
                                volume.required_terms = list_of(r, node_selector_term)?
                            }
                            _ => r.skip()?,
                        }
                        Ok(())
                    }),
                    _ => r.skip(),
                }),
                _ => r.skip(),
            })?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(volume)
}

/// A pod phase; a spelling this version does not know reads as `Unknown`.
fn phase(s: &str) -> PodPhase {
    match s {
        "Running" => PodPhase::Running,
        "Succeeded" => PodPhase::Succeeded,
        "Failed" => PodPhase::Failed,
        "Pending" => PodPhase::Pending,
        _ => PodPhase::Unknown,
    }
}

fn toleration<'a>(r: &mut Reader<'a>) -> Result<SlimToleration<'a>> {
    let mut t = SlimToleration::default();
    r.object(|r, key| {
        match &*key {
            "key" => t.key = r.optional_string()?,
            // `Exists`; anything else, or nothing, means `Equal`.
            "operator" => t.exists = r.optional_string()?.is_some_and(|s| s == "Exists"),
            "value" => t.value = r.optional_string()?,
            "effect" => t.effect = effect(r)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(t)
}

/// `resources.requests` of a container or a pod; limits do not matter for placement.
fn requests(r: &mut Reader<'_>) -> Result<Option<Quantities>> {
    let mut requests = None;
    r.object(|r, key| {
        match &*key {
            "requests" => requests = Some(quantities(r)?),
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(requests)
}

/// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
/// `None` when the pod has no required node affinity.
fn required_node_terms<'a>(r: &mut Reader<'a>) -> Result<Option<Vec<SlimNodeSelectorTerm<'a>>>> {
    let mut terms = None;
    r.object(|r, key| match &*key {
        "nodeAffinity" => r.object(|r, key| match &*key {
            "requiredDuringSchedulingIgnoredDuringExecution" => r.object(|r, key| {
                match &*key {
                    "nodeSelectorTerms" => terms = Some(list_of(r, node_selector_term)?),
                    _ => r.skip()?,
                }
                Ok(())
            }),
            _ => r.skip(),
        }),
        _ => r.skip(),
    })?;
    Ok(terms)
}

fn node_selector_term<'a>(r: &mut Reader<'a>) -> Result<SlimNodeSelectorTerm<'a>> {
    let mut term = SlimNodeSelectorTerm::default();
    r.object(|r, key| {
        match &*key {
            "matchExpressions" => term.expressions = list_of(r, selector_requirement)?,
            "matchFields" => term.by_field = !list_of(r, selector_requirement)?.is_empty(),
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(term)
}

fn selector_requirement<'a>(r: &mut Reader<'a>) -> Result<SlimSelectorRequirement<'a>> {
    let mut requirement = SlimSelectorRequirement::default();
    r.object(|r, key| {
        match &*key {
            "key" => requirement.key = text(r)?,
            "operator" => requirement.operator = text(r)?,
            "values" => requirement.values = list_of(r, text)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(requirement)
}

fn container(r: &mut Reader<'_>) -> Result<SlimContainer> {
    let mut c = SlimContainer::default();
    r.object(|r, key| {
        match &*key {
            "resources" => c.requests = requests(r)?.unwrap_or_default(),
            // `restartPolicy: Always` on an init container marks a sidecar.
            "restartPolicy" => {
                c.restarts_always = r.optional_string()?.is_some_and(|s| s == "Always")
            }
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(c)
}

/// A PodDisruptionBudget.
pub fn pdb<'a>(r: &mut Reader<'a>) -> Result<SlimPdb<'a>> {
    let mut pdb = SlimPdb::default();
    r.object(|r, key| {
        match &*key {
            "metadata" => pdb.metadata = meta(r)?,
            "spec" => r.object(|r, key| {
                match &*key {
                    "selector" => {
                        let at = r.error("invalid label selector");
                        let raw = r.raw_value()?;
                        pdb.selector = serde_json::from_str(raw).map_err(|_| at)?;
                    }
                    "unhealthyPodEvictionPolicy" => {
                        pdb.unhealthy_pod_eviction_policy = r.optional_string()?
                    }
                    _ => r.skip()?,
                }
                Ok(())
            })?,
            "status" => pdb.status = pdb_status(r)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    Ok(pdb)
}

fn pdb_status(r: &mut Reader<'_>) -> Result<SlimPdbStatus> {
    let mut status = SlimPdbStatus::default();
    r.object(|r, key| {
        let field = match &*key {
            "disruptionsAllowed" => &mut status.disruptions_allowed,
            "currentHealthy" => &mut status.current_healthy,
            "desiredHealthy" => &mut status.desired_healthy,
            "expectedPods" => &mut status.expected_pods,
            _ => return r.skip(),
        };
        let at = r.error("expected a 32-bit integer");
        let value = r.optional_integer()?.unwrap_or_default();
        *field = i32::try_from(value).map_err(|_| at)?;
        Ok(())
    })?;
    Ok(status)
}

/// A resource list (`requests`, `allocatable`, `overhead`) read straight into amounts.
/// Resources capacity does not model are skipped unread.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quantities {
    /// The amounts. MIG and volume dimension names are not interned yet (see
    /// [`Quantities::into_vector`]).
    amounts: ResourceVector,
    /// The first malformed quantity, if any: the object is then left out.
    error: Option<ResourceError>,
}

impl Quantities {
    /// The amounts, with dimension names shared through `interner`, or the first
    /// malformed quantity.
    pub fn into_vector(
        self,
        interner: &mut Interner,
    ) -> std::result::Result<ResourceVector, ResourceError> {
        match self.error {
            Some(error) => Err(error),
            None => {
                let mut amounts = self.amounts;
                amounts.share_names(interner);
                Ok(amounts)
            }
        }
    }

    /// As [`Quantities::into_vector`], without consuming.
    pub fn to_vector(
        &self,
        interner: &mut Interner,
    ) -> std::result::Result<ResourceVector, ResourceError> {
        self.clone().into_vector(interner)
    }
}

/// A resource list read straight into amounts. Quantities come as strings (bare numbers
/// are read too, as the API server reads them); a malformed one is kept as the error.
pub fn quantities(r: &mut Reader<'_>) -> Result<Quantities> {
    let mut q = Quantities::default();
    r.object(|r, name| {
        let Some(dim) = Dimension::from_resource_name(&name) else {
            return r.skip();
        };
        let value = match r.peek() {
            Some(b'"') => r.string()?,
            // `null` is a zero amount, as the API server reads it.
            Some(b'n') if r.null()? => return Ok(()),
            // A number, or anything else (kept as the malformed quantity).
            _ => Cow::Borrowed(r.raw_value()?),
        };
        match parse_quantity(&value, dim.scale()) {
            Ok(amount) => q.amounts.set(dim, amount),
            Err(source) => {
                if q.error.is_none() {
                    q.error = Some(ResourceError {
                        resource: dim.resource_name(),
                        source,
                    });
                }
            }
        }
        Ok(())
    })?;
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::quantity::QuantityError;

    fn read<'a, T>(json: &'a str, f: impl FnOnce(&mut Reader<'a>) -> Result<T>) -> T {
        let mut r = Reader::new(json);
        let value = f(&mut r).unwrap();
        r.end().unwrap();
        value
    }

    #[test]
    fn resource_lists_become_amounts_and_skip_unmodelled_resources() {
        let q = read(
            r#"{"cpu": "1500m", "memory": "1Gi", "ephemeral-storage": "10Gi",
                "nvidia.com/mig-1g.5gb": "2", "pods": 110}"#,
            quantities,
        );
        let mut interner = Interner::new();
        let v = q.into_vector(&mut interner).unwrap();
        assert_eq!(v.cpu_millis(), 1500);
        assert_eq!(v.memory_bytes(), 1 << 30);
        assert_eq!(v.pods(), 110);
        assert_eq!(v.get(&Dimension::Mig("1g.5gb".into())), 2);
        assert_eq!(interner.len(), 1, "the MIG profile name is interned");
    }

    #[test]
    fn a_malformed_quantity_is_kept_as_the_objects_error() {
        for json in [r#"{"cpu": "lots", "memory": "1Gi"}"#, r#"{"cpu": true}"#] {
            let q = read(json, quantities);
            let error = q.into_vector(&mut Interner::new()).unwrap_err();
            assert_eq!(error.resource, "cpu");
            assert!(
                matches!(error.source, QuantityError::Malformed(_)),
                "{json}"
            );
        }
    }

    #[test]
    fn nulls_read_as_absent() {
        let pod = read(
            r#"{"metadata": {"name": "p", "labels": null, "ownerReferences": null, "annotations": null},
                "spec": {"containers": [{"resources": {"requests": null}, "restartPolicy": null}],
                         "tolerations": null, "nodeSelector": null, "overhead": null},
                "status": {"phase": null}}"#,
            pod,
        );
        assert!(pod.metadata.labels.is_empty());
        assert!(pod.metadata.controller.is_none());
        assert!(pod.phase.is_none());
        assert!(!pod.spec.containers[0].restarts_always);
    }

    #[test]
    fn owner_references_reduce_to_the_controller_and_annotations_to_the_gpu_one() {
        let pod = read(
            r#"{"metadata": {"name": "p", "ownerReferences": [
                  {"kind": "Foo", "name": "a", "controller": false},
                  {"kind": "ReplicaSet", "name": "web-1", "controller": true}]}}"#,
            pod,
        );
        let owner = pod.metadata.controller.unwrap();
        assert_eq!((&*owner.kind, &*owner.name), ("ReplicaSet", "web-1"));
        let node = read(
            r#"{"metadata": {"name": "n", "annotations": {"a": "x", "nvidia.com/gpu.replicas": "4"}},
                "status": {"conditions": [{"type": "MemoryPressure", "status": "False"},
                                          {"type": "Ready", "status": "True"}]}}"#,
            node,
        );
        assert_eq!(node.metadata.gpu_replicas_annotation.as_deref(), Some("4"));
        assert_eq!(node.status.ready.as_deref(), Some("True"));
    }

    #[test]
    fn a_pods_readiness_and_a_budgets_unhealthy_pod_policy_are_read() {
        let crashing = read(
            r#"{"status": {"phase": "Running", "conditions": [
                  {"type": "PodScheduled", "status": "True"},
                  {"type": "ContainersReady", "status": "False"},
                  {"type": "Ready", "status": "False", "reason": "ContainersNotReady"}]}}"#,
            pod,
        );
        assert_eq!(crashing.ready.as_deref(), Some("False"));
        let fresh = read(
            r#"{"status": {"phase": "Pending", "conditions": null}}"#,
            pod,
        );
        assert!(fresh.ready.is_none());
        let budget = read(
            r#"{"spec": {"unhealthyPodEvictionPolicy": "AlwaysAllow", "minAvailable": 2}}"#,
            pdb,
        );
        assert_eq!(
            budget.unhealthy_pod_eviction_policy.as_deref(),
            Some("AlwaysAllow")
        );
    }

    #[test]
    fn a_wrong_shape_fails_with_the_place() {
        let mut r = Reader::new(r#"{"spec": {"unschedulable": "yes"}}"#);
        let error = node(&mut r).unwrap_err();
        assert_eq!(error.message, "expected a boolean");
        assert_eq!(error.offset, 27);
        let mut r = Reader::new(r#"{"status": {"expectedPods": 1e12}}"#);
        assert_eq!(pdb(&mut r).unwrap_err().message, "expected an integer");
    }
}
