//! StatefulSets: the set, its ordinal pods (`postgres-0`, `postgres-1`, …) and their
//! claims, built the same way by scenario generation and by the controller, and the
//! generation of a cluster's stateful sets with their zonal volumes already bound.

use rand::rngs::SmallRng;
use serde_json::{Value, json};

use super::generate::uid;
use super::objects::{controller_ref, pod_from_template, pod_template, set_running};
use super::resource::Kind;
use super::scenario::StatefulSets;
use super::scheduler::{NodeFit, choose, choose_where, pod_requests};
use super::store::{Store, str_at};
use super::volumes::{
    REGIONAL_STORAGE_CLASS, STORAGE_CLASS, ZONE_LABEL, bind_claim, claim_from_template,
    claim_template, volume_for, zones_of,
};

const NAMES: &[&str] = &[
    "postgres",
    "redis",
    "kafka",
    "etcd-backup",
    "zookeeper",
    "rabbitmq",
    "elasticsearch",
    "mongodb",
];

/// The name of the claim template every generated StatefulSet has.
const DATA: &str = "data";

/// The label a StatefulSet's pod carries with the revision of the template it was made
/// from.
pub const REVISION_LABEL: &str = "controller-revision-hash";

/// The revision of a StatefulSet's current template: `postgres-5d8f…`.
pub fn update_revision(sts: &Value) -> String {
    let template = sts.pointer("/spec/template").cloned().unwrap_or(json!({}));
    format!(
        "{}-{}",
        str_at(sts, "/metadata/name"),
        super::workloads::template_hash(&template)
    )
}

/// How a StatefulSet's pods stand, for its status.
pub struct StatefulCounts {
    /// Pods that count (not terminating, not finished).
    pub replicas: i32,
    /// Of those, Ready.
    pub ready: i32,
    /// Of those, made from the current template.
    pub updated: i32,
    /// Of those, made from the revision the set ran before this update.
    pub current: i32,
}

/// A StatefulSet status. `currentRevision` is the revision it ran before the update in
/// progress, and becomes the update's once every replica runs it.
pub fn stateful_set_status(
    counts: &StatefulCounts,
    generation: i64,
    current_revision: &str,
    update_revision: &str,
) -> Value {
    let StatefulCounts {
        replicas,
        ready,
        updated,
        current,
    } = *counts;
    json!({"replicas": replicas, "readyReplicas": ready, "currentReplicas": current,
        "updatedReplicas": updated, "availableReplicas": ready, "observedGeneration": generation,
        "currentRevision": current_revision, "updateRevision": update_revision,
        "collisionCount": 0})
}

/// The claim templates of a StatefulSet.
pub fn claim_templates(sts: &Value) -> Vec<Value> {
    sts.pointer("/spec/volumeClaimTemplates")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The claim of pod `pod` from `template`: `data-postgres-0`.
pub fn claim_name(template: &Value, pod: &str) -> String {
    format!("{}-{pod}", str_at(template, "/metadata/name"))
}

/// The claim `pod` gets from `template`, labelled with the set's selector labels.
pub fn ordinal_claim(sts: &Value, template: &Value, pod: &str, uid: &str, ts: &str) -> Value {
    let labels = sts
        .pointer("/spec/selector/matchLabels")
        .cloned()
        .unwrap_or(json!({}));
    claim_from_template(
        template,
        &str_at(sts, "/metadata/namespace"),
        &claim_name(template, pod),
        uid,
        &labels,
        ts,
    )
}

/// Pod number `ordinal` of a StatefulSet: its template, a stable name and hostname, and
/// one volume per claim template mounting that ordinal's claim.
pub fn ordinal_pod(sts: &Value, ordinal: i64, uid: &str, ts: &str) -> Value {
    let set = str_at(sts, "/metadata/name");
    let name = format!("{set}-{ordinal}");
    let template = sts.pointer("/spec/template").cloned().unwrap_or(json!({}));
    let owner = controller_ref(Kind::STATEFUL_SET, &set, &str_at(sts, "/metadata/uid"));
    let ns = str_at(sts, "/metadata/namespace");
    let mut pod = pod_from_template(&template, &ns, &name, uid, owner, ts);
    pod["metadata"]["labels"][REVISION_LABEL] = json!(update_revision(sts));
    pod["metadata"]["labels"]["statefulset.kubernetes.io/pod-name"] = json!(name);
    pod["metadata"]["labels"]["apps.kubernetes.io/pod-index"] = json!(ordinal.to_string());
    pod["spec"]["hostname"] = json!(name);
    pod["spec"]["subdomain"] = sts
        .pointer("/spec/serviceName")
        .cloned()
        .unwrap_or(json!(set));
    let mut volumes = pod
        .pointer("/spec/volumes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for t in claim_templates(sts) {
        let volume = str_at(&t, "/metadata/name");
        if !volumes.iter().any(|v| str_at(v, "/name") == volume) {
            volumes.push(json!({"name": volume,
                "persistentVolumeClaim": {"claimName": claim_name(&t, &name)}}));
        }
    }
    pod["spec"]["volumes"] = Value::Array(volumes);
    pod
}

/// The ordinal of a pod of set `set` (`postgres-2` → 2), if its name is one.
pub fn ordinal_of(set: &str, pod: &str) -> Option<i64> {
    pod.strip_prefix(set)?.strip_prefix('-')?.parse().ok()
}

/// A StatefulSet object (without status).
fn stateful_set(name: &str, ns: &str, uid: &str, spec: &StatefulSets, ts: &str) -> Value {
    let template = pod_template(name, spec.cpu_millis, spec.memory_mi, 0, &[]);
    let class = if spec.regional {
        REGIONAL_STORAGE_CLASS
    } else {
        STORAGE_CLASS
    };
    json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": name, "namespace": ns, "uid": uid, "generation": 1,
            "creationTimestamp": ts, "labels": {"app": name}},
        "spec": {"replicas": spec.replicas, "serviceName": name,
            "selector": {"matchLabels": {"app": name}}, "template": template,
            "volumeClaimTemplates": [claim_template(DATA, spec.storage_gi, class)],
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"}}
    })
}

/// The nodes of a cluster being generated, as placed so far.
pub struct Placement<'a> {
    /// Nodes with the requests of the pods generated so far.
    pub nodes: &'a mut [NodeFit],
    /// Node addresses, by node position.
    pub node_ips: &'a [String],
    /// Hands out the next pod IP.
    pub next_pod_ip: &'a mut dyn FnMut() -> String,
}

/// Generates the StatefulSets of a cluster in namespace `ns`, running and Ready, each
/// pod's claim bound to a volume in its node's zone. Replicas of one set go to zones no
/// earlier replica of the set uses where they fit; a pod that fits nowhere stays
/// Pending, its claim waiting for it.
pub fn generate(
    st: &mut Store,
    rng: &mut SmallRng,
    spec: &StatefulSets,
    ns: &str,
    at: &mut Placement,
    created: &str,
) {
    let cluster_zones = zones_of(at.nodes);
    for s in 0..spec.count {
        let base = NAMES[s % NAMES.len()];
        let name = if s < NAMES.len() {
            base.to_string()
        } else {
            format!("{base}-{}", s / NAMES.len())
        };
        let mut sts = stateful_set(&name, ns, &uid(rng), spec, created);
        let mut zones: Vec<String> = Vec::new();
        let mut ready = 0;
        for ordinal in 0..i64::from(spec.replicas.max(0)) {
            let mut pod = ordinal_pod(&sts, ordinal, &uid(rng), created);
            let pod_name = str_at(&pod, "/metadata/name");
            let mut claims: Vec<Value> = claim_templates(&sts)
                .iter()
                .map(|t| ordinal_claim(&sts, t, &pod_name, &uid(rng), created))
                .collect();
            let req = pod_requests(&pod);
            let fresh_zone = |n: &NodeFit| {
                n.label(ZONE_LABEL)
                    .is_none_or(|z| !zones.iter().any(|used| used == z))
            };
            let node = choose_where(at.nodes, &pod, &req, fresh_zone)
                .or_else(|| choose(at.nodes, &pod, &req));
            if let Some(i) = node {
                let n = &mut at.nodes[i];
                n.used.add(req);
                zones.extend(n.label(ZONE_LABEL).map(String::from));
                let ip = (at.next_pod_ip)();
                let host = at.node_ips.get(i).cloned().unwrap_or_default();
                set_running(&mut pod, &n.name.clone(), &host, &ip, created, true);
                ready += 1;
                for claim in &mut claims {
                    let volume =
                        volume_for(claim, &at.nodes[i], &cluster_zones, &uid(rng), created);
                    bind_claim(claim, &volume, &at.nodes[i].name);
                    st.put(Kind::PERSISTENT_VOLUME, volume);
                }
            }
            for claim in claims {
                st.put(Kind::PERSISTENT_VOLUME_CLAIM, claim);
            }
            st.put(Kind::POD, pod);
        }
        let revision = update_revision(&sts);
        let replicas = spec.replicas.max(0);
        sts["status"] = stateful_set_status(
            &StatefulCounts {
                replicas,
                ready,
                updated: replicas,
                current: replicas,
            },
            1,
            &revision,
            &revision,
        );
        st.put(Kind::STATEFUL_SET, sts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn node(name: &str, zone: &str, cpu_m: i64) -> NodeFit {
        let mut fit = NodeFit::of(&json!({"metadata": {"name": name,
            "labels": {ZONE_LABEL: zone}}}));
        fit.schedulable = true;
        fit.alloc.cpu_m = cpu_m;
        fit.alloc.mem = 1 << 34;
        fit.alloc.pods = 110;
        fit
    }

    fn generated(nodes: &mut [NodeFit], replicas: i32) -> Store {
        let mut st = Store::new(1, 100);
        let mut rng = SmallRng::seed_from_u64(3);
        let spec = StatefulSets {
            count: 1,
            replicas,
            cpu_millis: 1000,
            memory_mi: 1024,
            storage_gi: 50,
            regional: false,
        };
        let ips = vec!["100.64.0.1".to_string(); nodes.len()];
        let mut counter = 0;
        let mut next = || {
            counter += 1;
            format!("10.0.0.{counter}")
        };
        let mut at = Placement {
            nodes,
            node_ips: &ips,
            next_pod_ip: &mut next,
        };
        generate(
            &mut st,
            &mut rng,
            &spec,
            "db",
            &mut at,
            "2025-01-01T00:00:00Z",
        );
        st
    }

    #[test]
    fn replicas_spread_over_zones_and_their_volumes_follow_them() {
        // The least loaded node is always in zone a: only the zone preference spreads.
        let mut nodes = vec![
            node("a1", "zone-a", 8000),
            node("a2", "zone-a", 8000),
            node("b1", "zone-b", 2000),
            node("c1", "zone-c", 2000),
        ];
        let st = generated(&mut nodes, 3);
        let mut zones = Vec::new();
        for ordinal in 0..3 {
            let pod = st
                .get_value(Kind::POD, "db", &format!("postgres-{ordinal}"))
                .unwrap_or_default();
            assert_eq!(str_at(&pod, "/status/phase"), "Running");
            let node = str_at(&pod, "/spec/nodeName");
            let zone = nodes
                .iter()
                .find(|n| n.name == node)
                .and_then(|n| n.label(ZONE_LABEL))
                .unwrap_or_default()
                .to_string();
            let claim = st
                .get_value(
                    Kind::PERSISTENT_VOLUME_CLAIM,
                    "db",
                    &format!("data-postgres-{ordinal}"),
                )
                .unwrap_or_default();
            assert_eq!(str_at(&claim, "/status/phase"), "Bound");
            let pv = st
                .get_value(
                    Kind::PERSISTENT_VOLUME,
                    "",
                    &str_at(&claim, "/spec/volumeName"),
                )
                .unwrap_or_default();
            let pinned = pv.pointer(
                "/spec/nodeAffinity/required/nodeSelectorTerms/0/matchExpressions/0/values/0",
            );
            assert_eq!(pinned.and_then(Value::as_str), Some(zone.as_str()));
            assert_eq!(
                str_at(&pv, "/spec/claimRef/uid"),
                str_at(&claim, "/metadata/uid")
            );
            zones.push(zone);
        }
        zones.sort();
        assert_eq!(zones, ["zone-a", "zone-b", "zone-c"]);
        let sts = st
            .get_value(Kind::STATEFUL_SET, "db", "postgres")
            .unwrap_or_default();
        assert_eq!(sts.pointer("/status/readyReplicas"), Some(&json!(3)));
    }

    #[test]
    fn a_pod_that_fits_nowhere_leaves_its_claim_waiting() {
        let mut nodes = vec![node("a1", "zone-a", 1500)];
        let st = generated(&mut nodes, 2);
        let placed = st
            .get_value(Kind::POD, "db", "postgres-0")
            .unwrap_or_default();
        assert_eq!(str_at(&placed, "/spec/nodeName"), "a1");
        let pending = st
            .get_value(Kind::POD, "db", "postgres-1")
            .unwrap_or_default();
        assert_eq!(str_at(&pending, "/status/phase"), "Pending");
        let claim = st
            .get_value(Kind::PERSISTENT_VOLUME_CLAIM, "db", "data-postgres-1")
            .unwrap_or_default();
        assert_eq!(str_at(&claim, "/status/phase"), "Pending");
        assert!(claim.pointer("/spec/volumeName").is_none());
        assert_eq!(st.count(Kind::PERSISTENT_VOLUME), 1);
    }

    #[test]
    fn ordinals_are_read_back_from_pod_names() {
        assert_eq!(ordinal_of("redis", "redis-2"), Some(2));
        assert_eq!(ordinal_of("redis", "redis-x"), None);
        assert_eq!(ordinal_of("redis", "redisx-1"), None);
    }
}
