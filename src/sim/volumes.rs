//! Persistent volumes: claims, the zonal volumes bound to them, and what a bound volume
//! asks of the node its pod runs on.
//!
//! Claims wait for their first consumer (`WaitForFirstConsumer`, as EBS storage classes
//! do): the volume is provisioned when the pod is scheduled, in that node's zone. From
//! then on the volume stays in that zone, and so must every pod that mounts it: this is
//! what keeps a StatefulSet's pod from moving to another zone when its own is lost. A
//! claim of the regional class gets a volume replicated in two zones (as GCE regional
//! persistent disks and Azure zone-redundant disks are): its pod may move between them.

use serde_json::{Value, json};

use super::generate::fnv;
use super::resource::Kind;
use super::scheduler::NodeFit;
use super::selector::LabelSelector;
use super::store::{Store, str_at};

/// The node label a zonal volume is pinned to.
pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
/// The node label used instead on a node without a zone.
const HOSTNAME_LABEL: &str = "kubernetes.io/hostname";
/// The storage class of generated claims (EBS gp3).
pub const STORAGE_CLASS: &str = "gp3";
/// The storage class whose volumes are replicated in two zones.
pub const REGIONAL_STORAGE_CLASS: &str = "regional-replicated";
/// The CSI driver that provisions the volumes.
const CSI_DRIVER: &str = "ebs.csi.aws.com";

/// A `volumeClaimTemplates` entry: `storage_gi` GiB of storage class `class`,
/// ReadWriteOnce.
pub fn claim_template(name: &str, storage_gi: u32, class: &str) -> Value {
    json!({
        "metadata": {"name": name},
        "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": class,
            "volumeMode": "Filesystem", "resources": {"requests": {"storage": format!("{storage_gi}Gi")}}}
    })
}

/// A claim created from a template, waiting for its first consumer (`Pending`, no
/// volume yet).
pub fn claim_from_template(
    template: &Value,
    ns: &str,
    name: &str,
    uid: &str,
    labels: &Value,
    ts: &str,
) -> Value {
    let mut spec = template.get("spec").cloned().unwrap_or(json!({}));
    if spec.get("volumeMode").is_none() {
        spec["volumeMode"] = json!("Filesystem");
    }
    json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, "namespace": ns, "uid": uid, "creationTimestamp": ts,
            "labels": labels},
        "spec": spec,
        "status": {"phase": "Pending"}
    })
}

/// The distinct zones of a cluster's nodes, sorted.
pub fn zones_of(nodes: &[NodeFit]) -> Vec<String> {
    let mut zones: Vec<String> = nodes
        .iter()
        .filter_map(|n| n.label(ZONE_LABEL))
        .filter(|z| !z.is_empty())
        .map(String::from)
        .collect();
    zones.sort();
    zones.dedup();
    zones
}

/// Where a volume provisioned for a pod on `node` lives: the node's zone (and, for the
/// regional class, the cluster's next zone after it), or the node itself when it has no
/// zone label.
fn topology(node: &NodeFit, regional: bool, zones: &[String]) -> (&'static str, Vec<String>) {
    match node.label(ZONE_LABEL) {
        Some(zone) if !zone.is_empty() => {
            let mut values = vec![zone.to_string()];
            let next = zones
                .iter()
                .position(|z| z == zone)
                .and_then(|i| zones.get((i + 1) % zones.len()))
                .filter(|next| *next != zone);
            if let (true, Some(next)) = (regional, next) {
                values.push(next.clone());
                values.sort();
            }
            (ZONE_LABEL, values)
        }
        _ => (HOSTNAME_LABEL, vec![node.name.clone()]),
    }
}

/// The volume provisioned for `claim` on `node` (named `pvc-<claim uid>`, as dynamic
/// provisioning names them), pinned to the node's zone (regional: that zone and the next
/// of `zones`) and bound to the claim.
pub fn volume_for(claim: &Value, node: &NodeFit, zones: &[String], uid: &str, ts: &str) -> Value {
    let regional = str_at(claim, "/spec/storageClassName") == REGIONAL_STORAGE_CLASS;
    let (key, values) = topology(node, regional, zones);
    let claim_uid = str_at(claim, "/metadata/uid");
    let storage = claim
        .pointer("/spec/resources/requests/storage")
        .cloned()
        .unwrap_or(json!("1Gi"));
    let access = claim
        .pointer("/spec/accessModes")
        .cloned()
        .unwrap_or(json!(["ReadWriteOnce"]));
    let class = claim
        .pointer("/spec/storageClassName")
        .cloned()
        .unwrap_or(json!(STORAGE_CLASS));
    json!({
        "apiVersion": "v1", "kind": "PersistentVolume",
        "metadata": {"name": format!("pvc-{claim_uid}"), "uid": uid, "creationTimestamp": ts,
            "annotations": {"pv.kubernetes.io/provisioned-by": CSI_DRIVER,
                "volume.kubernetes.io/provisioner-deletion-secret-name": "",
                "volume.kubernetes.io/provisioner-deletion-secret-namespace": ""}},
        "spec": {
            "capacity": {"storage": storage}, "accessModes": access,
            "claimRef": {"kind": "PersistentVolumeClaim", "apiVersion": "v1",
                "namespace": str_at(claim, "/metadata/namespace"), "name": str_at(claim, "/metadata/name"),
                "uid": claim_uid},
            "storageClassName": class, "persistentVolumeReclaimPolicy": "Delete", "volumeMode": "Filesystem",
            "csi": {"driver": CSI_DRIVER, "volumeHandle": format!("vol-0{:016x}", fnv(uid)), "fsType": "ext4"},
            "nodeAffinity": {"required": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": key, "operator": "In", "values": values}]}
            ]}}
        },
        "status": {"phase": "Bound"}
    })
}

/// Binds `claim` to `volume`, selected for a pod on `node`.
pub fn bind_claim(claim: &mut Value, volume: &Value, node: &str) {
    claim["spec"]["volumeName"] = volume["metadata"]["name"].clone();
    let annotations = json!({"pv.kubernetes.io/bind-completed": "yes",
        "pv.kubernetes.io/bound-by-controller": "yes",
        "volume.beta.kubernetes.io/storage-provisioner": CSI_DRIVER,
        "volume.kubernetes.io/storage-provisioner": CSI_DRIVER,
        "volume.kubernetes.io/selected-node": node});
    match claim["metadata"]["annotations"].as_object_mut() {
        Some(existing) => {
            if let Some(new) = annotations.as_object() {
                existing.extend(new.clone());
            }
        }
        None => claim["metadata"]["annotations"] = annotations,
    }
    claim["status"] = json!({
        "phase": "Bound",
        "accessModes": volume.pointer("/spec/accessModes").cloned().unwrap_or(json!([])),
        "capacity": volume.pointer("/spec/capacity").cloned().unwrap_or(json!({}))
    });
}

/// The claims a pod mounts, by name.
pub fn claim_names(pod: &Value) -> Vec<String> {
    pod.pointer("/spec/volumes")
        .and_then(Value::as_array)
        .map(|vs| {
            vs.iter()
                .filter_map(|v| v.pointer("/persistentVolumeClaim/claimName"))
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// What a pod's claims require of the node it is scheduled on.
#[derive(Debug, Default)]
pub struct ClaimFit {
    /// The node selector terms of each bound volume: a node must match one term of each.
    bound: Vec<Vec<LabelSelector>>,
    /// Claims still waiting for their first consumer: provisioned where the pod lands.
    pub waiting: Vec<String>,
    /// Why the pod cannot be scheduled at all (a claim or its volume does not exist).
    pub missing: Option<String>,
}

impl ClaimFit {
    /// Reads the claims of `pod` and the volumes bound to them.
    pub fn of(store: &Store, pod: &Value) -> ClaimFit {
        let ns = str_at(pod, "/metadata/namespace");
        let mut fit = ClaimFit::default();
        for name in claim_names(pod) {
            let Some(claim) = store.get_value(Kind::PERSISTENT_VOLUME_CLAIM, &ns, &name) else {
                fit.missing = Some(format!("persistentvolumeclaim \"{name}\" not found"));
                continue;
            };
            let volume = str_at(&claim, "/spec/volumeName");
            if volume.is_empty() {
                fit.waiting.push(name);
                continue;
            }
            let Some(pv) = store.get_value(Kind::PERSISTENT_VOLUME, "", &volume) else {
                fit.missing = Some(format!("persistentvolume \"{volume}\" not found"));
                continue;
            };
            let terms = pv
                .pointer("/spec/nodeAffinity/required/nodeSelectorTerms")
                .and_then(Value::as_array)
                .map(|ts| ts.iter().map(LabelSelector::from_object).collect())
                .unwrap_or_default();
            fit.bound.push(terms);
        }
        fit
    }

    /// Whether the pod's volumes can be attached on `node`.
    pub fn allow(&self, node: &NodeFit) -> bool {
        self.missing.is_none()
            && self
                .bound
                .iter()
                .all(|terms| terms.is_empty() || terms.iter().any(|t| t.matches(&node.labels)))
    }

    /// The scheduler's message when no node fits: what the volumes ruled out, if anything.
    pub fn unschedulable(&self, nodes: &[NodeFit]) -> Option<String> {
        if let Some(missing) = &self.missing {
            return Some(format!("0/{} nodes are available: {missing}.", nodes.len()));
        }
        let conflicts = nodes.iter().filter(|n| !self.allow(n)).count();
        (conflicts > 0).then(|| {
            format!(
                "0/{} nodes are available: {conflicts} node(s) had volume node affinity conflict, \
                 the others do not fit the pod's requests, selectors and tolerations.",
                nodes.len()
            )
        })
    }
}

/// Provisions a volume for each claim of a pod just bound to `node` that was waiting for
/// it, in the node's zone (see [`volume_for`] for the cluster's `zones`), and binds the
/// claim.
pub fn provision(
    store: &mut Store,
    ns: &str,
    waiting: &[String],
    node: &NodeFit,
    zones: &[String],
    ts: &str,
) {
    for name in waiting {
        let Some(mut claim) = store.get_value(Kind::PERSISTENT_VOLUME_CLAIM, ns, name) else {
            continue;
        };
        let uid = store.new_uid();
        let volume = volume_for(&claim, node, zones, &uid, ts);
        bind_claim(&mut claim, &volume, &node.name);
        store.put(Kind::PERSISTENT_VOLUME, volume);
        store.put(Kind::PERSISTENT_VOLUME_CLAIM, claim);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, zone: &str) -> NodeFit {
        let mut fit = NodeFit::of(&json!({"metadata": {"name": name,
            "labels": {ZONE_LABEL: zone, HOSTNAME_LABEL: name}}}));
        fit.schedulable = true;
        fit
    }

    #[test]
    fn a_bound_claim_keeps_its_pod_in_the_volume_zone() {
        let mut store = Store::new(1, 100);
        let template = claim_template("data", 10, STORAGE_CLASS);
        let claim = claim_from_template(&template, "db", "data-pg-0", "c-1", &json!({}), "t");
        store.put(Kind::PERSISTENT_VOLUME_CLAIM, claim);
        let pod = json!({"metadata": {"name": "pg-0", "namespace": "db"}, "spec": {"volumes": [
            {"name": "data", "persistentVolumeClaim": {"claimName": "data-pg-0"}}]}});
        let (a, b) = (node("n-a", "zone-a"), node("n-b", "zone-b"));

        let waiting = ClaimFit::of(&store, &pod);
        assert_eq!(waiting.waiting, vec!["data-pg-0".to_string()]);
        assert!(waiting.allow(&a) && waiting.allow(&b), "not bound yet");

        let zones = zones_of(&[a.clone(), b.clone()]);
        provision(&mut store, "db", &waiting.waiting, &b, &zones, "t");
        let claim = store.get_value(Kind::PERSISTENT_VOLUME_CLAIM, "db", "data-pg-0");
        let claim = claim.unwrap_or_default();
        assert_eq!(str_at(&claim, "/status/phase"), "Bound");
        assert_eq!(str_at(&claim, "/spec/volumeName"), "pvc-c-1");
        assert_eq!(str_at(&claim, "/status/capacity/storage"), "10Gi");

        let bound = ClaimFit::of(&store, &pod);
        assert!(bound.waiting.is_empty());
        assert!(!bound.allow(&a), "the volume lives in zone-b");
        assert!(bound.allow(&b));
        let message = bound
            .unschedulable(std::slice::from_ref(&a))
            .unwrap_or_default();
        assert!(
            message.contains("volume node affinity conflict"),
            "{message}"
        );
    }

    #[test]
    fn a_regional_claim_gets_a_volume_in_its_nodes_zone_and_the_next() {
        let mut store = Store::new(1, 100);
        let template = claim_template("data", 10, REGIONAL_STORAGE_CLASS);
        let claim = claim_from_template(&template, "db", "data-pg-0", "c-1", &json!({}), "t");
        store.put(Kind::PERSISTENT_VOLUME_CLAIM, claim);
        let pod = json!({"metadata": {"name": "pg-0", "namespace": "db"}, "spec": {"volumes": [
            {"name": "data", "persistentVolumeClaim": {"claimName": "data-pg-0"}}]}});
        let nodes = [
            node("n-a", "zone-a"),
            node("n-b", "zone-b"),
            node("n-c", "zone-c"),
        ];
        let zones = zones_of(&nodes);
        // Placed in the last zone, the second is the first again.
        provision(
            &mut store,
            "db",
            &["data-pg-0".into()],
            &nodes[2],
            &zones,
            "t",
        );
        let volume = store.get_value(Kind::PERSISTENT_VOLUME, "", "pvc-c-1");
        let values = volume
            .as_ref()
            .and_then(|v| {
                v.pointer(
                    "/spec/nodeAffinity/required/nodeSelectorTerms/0/matchExpressions/0/values",
                )
            })
            .cloned();
        assert_eq!(values, Some(json!(["zone-a", "zone-c"])));
        let fit = ClaimFit::of(&store, &pod);
        assert!(fit.allow(&nodes[0]) && fit.allow(&nodes[2]));
        assert!(!fit.allow(&nodes[1]));
    }

    #[test]
    fn a_missing_claim_fits_nowhere() {
        let store = Store::new(1, 100);
        let pod = json!({"metadata": {"name": "pg-0", "namespace": "db"}, "spec": {"volumes": [
            {"name": "data", "persistentVolumeClaim": {"claimName": "data-pg-0"}}]}});
        let fit = ClaimFit::of(&store, &pod);
        assert!(!fit.allow(&node("n-a", "zone-a")));
        assert!(
            fit.unschedulable(&[])
                .is_some_and(|m| m.contains("\"data-pg-0\" not found"))
        );
    }
}
