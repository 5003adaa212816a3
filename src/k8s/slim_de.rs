//! Field decoders for the slim objects: each reads one JSON field straight into the form
//! the projection needs, without building the general Kubernetes type first. Resource
//! lists become amounts as they are read, label maps become pairs, owner references
//! shrink to the controller, and enum-like strings are compared in place. A value a
//! cluster got wrong (a malformed quantity) is kept as an error on the object, so that
//! the object alone is left out, not the whole page.

use std::fmt;

use serde::Deserializer;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::model::fleet::{
    ATTACHABLE_VOLUMES_PREFIX, Dimension, GPU_RESOURCE, Interner, MIG_RESOURCE_PREFIX, PodPhase,
    ResourceError, ResourceVector, TaintEffect,
};
use crate::model::quantity::parse_quantity;

/// Reads `null` as the default and anything else with `visit`, the way the Kubernetes
/// types treat an explicit `null` like an absent field.
fn nullable<'de, D, V>(deserializer: D, visit: V) -> Result<V::Value, D::Error>
where
    D: Deserializer<'de>,
    V: Visitor<'de>,
    V::Value: Default,
{
    struct OrNull<V>(V);
    impl<'de, V> Visitor<'de> for OrNull<V>
    where
        V: Visitor<'de>,
        V::Value: Default,
    {
        type Value = V::Value;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(V::Value::default())
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(V::Value::default())
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self.0)
        }
    }
    deserializer.deserialize_option(OrNull(visit))
}

/// A string map (labels, node selector) as pairs in document order; no tree is built,
/// because the pairs are interned and sorted once by the projection anyway.
pub fn string_pairs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    struct Pairs;
    impl<'de> Visitor<'de> for Pairs {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map of strings")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(4));
            while let Some((k, v)) = map.next_entry::<String, Option<String>>()? {
                pairs.push((k, v.unwrap_or_default()));
            }
            Ok(pairs)
        }
    }
    nullable(d, Pairs)
}

/// Calls `f` with a string value without keeping it (borrowed from the input when it has
/// no escapes), so that a field can be compared or parsed without an allocation.
struct WithStr<F>(F);

impl<'de, F, T> Visitor<'de> for WithStr<F>
where
    F: FnOnce(&str) -> T,
{
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
        Ok((self.0)(v))
    }
}

impl<'de, F, T> DeserializeSeed<'de> for WithStr<F>
where
    F: FnOnce(&str) -> T,
{
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(self)
    }
}

/// One string field reduced to a value by `f` (`null` or absent: `T::default()`).
fn reduce_str<'de, D, T>(d: D, f: impl FnOnce(&str) -> T) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default,
{
    nullable(d, WithStr(f))
}

/// `restartPolicy: Always` on an init container marks a sidecar.
pub fn is_always<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    reduce_str(d, |s| s == "Always")
}

/// A toleration's `operator: Exists` (anything else, or nothing, means `Equal`).
pub fn is_exists<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    reduce_str(d, |s| s == "Exists")
}

/// A taint or toleration effect; an unknown spelling reads as `None`.
pub fn taint_effect<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TaintEffect>, D::Error> {
    reduce_str(d, TaintEffect::parse)
}

/// A pod phase; a spelling this version does not know reads as `Unknown`.
pub fn pod_phase<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PodPhase>, D::Error> {
    reduce_str(d, |s| {
        Some(match s {
            "Running" => PodPhase::Running,
            "Succeeded" => PodPhase::Succeeded,
            "Failed" => PodPhase::Failed,
            "Pending" => PodPhase::Pending,
            _ => PodPhase::Unknown,
        })
    })
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
    pub fn into_vector(self, interner: &mut Interner) -> Result<ResourceVector, ResourceError> {
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
    pub fn to_vector(&self, interner: &mut Interner) -> Result<ResourceVector, ResourceError> {
        self.clone().into_vector(interner)
    }
}

/// The dimension a resource name maps to, decided on the borrowed name. MIG profiles and
/// volume drivers (rare) get their own string here and are interned later.
fn dimension(name: &str) -> Option<Dimension> {
    match name {
        "cpu" => Some(Dimension::Cpu),
        "memory" => Some(Dimension::Memory),
        GPU_RESOURCE => Some(Dimension::Gpu),
        "pods" => Some(Dimension::Pods),
        _ => {
            if let Some(profile) = name.strip_prefix(MIG_RESOURCE_PREFIX) {
                Some(Dimension::Mig(profile.into()))
            } else {
                name.strip_prefix(ATTACHABLE_VOLUMES_PREFIX)
                    .map(|driver| Dimension::AttachableVolumes(driver.into()))
            }
        }
    }
}

/// The resource name as the API spells it, for error messages.
fn resource_name(dim: &Dimension) -> String {
    match dim {
        Dimension::Cpu => "cpu".to_owned(),
        Dimension::Memory => "memory".to_owned(),
        Dimension::Gpu => GPU_RESOURCE.to_owned(),
        Dimension::Pods => "pods".to_owned(),
        Dimension::Mig(p) => format!("{MIG_RESOURCE_PREFIX}{p}"),
        Dimension::AttachableVolumes(d) => format!("{ATTACHABLE_VOLUMES_PREFIX}{d}"),
    }
}

impl<'de> serde::Deserialize<'de> for Quantities {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = Quantities;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a resource list")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Quantities, A::Error> {
                let mut q = Quantities::default();
                while let Some(dim) = map.next_key_seed(WithStr(dimension))? {
                    let Some(dim) = dim else {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    };
                    let scale = dim.scale();
                    match map.next_value_seed(WithStr(|s: &str| parse_quantity(s, scale)))? {
                        Ok(amount) => q.amounts.set(dim, amount),
                        Err(source) => {
                            if q.error.is_none() {
                                q.error = Some(ResourceError {
                                    resource: resource_name(&dim),
                                    source,
                                });
                            }
                        }
                    }
                }
                Ok(q)
            }
        }
        nullable(d, List)
    }
}

/// The controlling owner of an object: kind and name of the first owner reference with
/// `controller: true`; the others are skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Owner {
    /// e.g. `ReplicaSet`.
    #[serde(default)]
    pub kind: String,
    /// The owner's name.
    #[serde(default)]
    pub name: String,
    /// Whether this reference is the controller.
    #[serde(default, deserialize_with = "nullable_bool")]
    pub controller: bool,
}

fn nullable_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(<Option<bool> as serde::Deserialize>::deserialize(d)?.unwrap_or(false))
}

/// `ownerReferences`, reduced to the controller.
pub fn controller<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Owner>, D::Error> {
    struct Controller;
    impl<'de> Visitor<'de> for Controller {
        type Value = Option<Owner>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of owner references")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(owner) = seq.next_element::<Owner>()? {
                if found.is_none() && owner.controller {
                    found = Some(owner);
                }
            }
            Ok(found)
        }
    }
    nullable(d, Controller)
}

/// The value of one annotation (`key`), the others skipped unread.
fn one_annotation<'de, D: Deserializer<'de>>(
    d: D,
    key: &'static str,
) -> Result<Option<String>, D::Error> {
    struct One(&'static str);
    impl<'de> Visitor<'de> for One {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map of strings")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(wanted) = map.next_key_seed(WithStr(|k: &str| k == self.0))? {
                if wanted {
                    found = map.next_value::<Option<String>>()?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    nullable(d, One(key))
}

/// The GPU time-slicing annotation, the only annotation fleetdeck reads.
pub fn gpu_replicas_annotation<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    one_annotation(d, crate::model::fleet::GPU_REPLICAS_LABEL)
}

/// A `Vec` field where `null` means empty.
pub fn vec_or_null<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    Ok(<Option<Vec<T>> as serde::Deserialize>::deserialize(d)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::slim::{SlimNode, SlimPod};
    use crate::model::quantity::QuantityError;

    #[test]
    fn resource_lists_become_amounts_and_skip_unmodelled_resources() {
        let q: Quantities = serde_json::from_str(
            r#"{"cpu": "1500m", "memory": "1Gi", "ephemeral-storage": "10Gi",
                "nvidia.com/mig-1g.5gb": "2", "pods": "110"}"#,
        )
        .unwrap();
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
        let q: Quantities = serde_json::from_str(r#"{"cpu": "lots", "memory": "1Gi"}"#).unwrap();
        let error = q.into_vector(&mut Interner::new()).unwrap_err();
        assert_eq!(error.resource, "cpu");
        assert_eq!(error.source, QuantityError::Malformed("lots".into()));
    }

    #[test]
    fn nulls_read_as_absent() {
        let pod: SlimPod = serde_json::from_str(
            r#"{"metadata": {"name": "p", "labels": null, "ownerReferences": null, "annotations": null},
                "spec": {"containers": [{"resources": {"requests": null}, "restartPolicy": null}],
                         "tolerations": null, "nodeSelector": null, "overhead": null},
                "status": {"phase": null}}"#,
        )
        .unwrap();
        assert!(pod.metadata.labels.is_empty());
        assert!(pod.metadata.controller.is_none());
        assert!(pod.status.phase.is_none());
        assert!(!pod.spec.containers[0].restarts_always);
    }

    #[test]
    fn owner_references_reduce_to_the_controller_and_annotations_to_the_gpu_one() {
        let pod: SlimPod = serde_json::from_str(
            r#"{"metadata": {"name": "p", "ownerReferences": [
                  {"kind": "Foo", "name": "a", "controller": false},
                  {"kind": "ReplicaSet", "name": "web-1", "controller": true}]}}"#,
        )
        .unwrap();
        let owner = pod.metadata.controller.unwrap();
        assert_eq!(
            (owner.kind.as_str(), owner.name.as_str()),
            ("ReplicaSet", "web-1")
        );
        let node: SlimNode = serde_json::from_str(
            r#"{"metadata": {"name": "n", "annotations": {"a": "x", "nvidia.com/gpu.replicas": "4"}}}"#,
        )
        .unwrap();
        assert_eq!(node.metadata.gpu_replicas_annotation.as_deref(), Some("4"));
    }
}
