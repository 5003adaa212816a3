//! Builds a fleet from a scenario: cluster profiles (what the ledger says) and each
//! cluster's initial objects, in a steady state (pods placed, Running and Ready, statuses
//! filled), deterministically from the seed.
//!
//! Over 600 lines: one deterministic builder per kind of initial object; it splits by
//! kind once the scenarios being added land.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng, rngs::SmallRng};
use serde_json::{Value, json};

use super::auth::SimUser;
use super::clock::{SimClock, rfc3339};
use super::disruption::pdb_status;
use super::error::SimError;
use super::faults::Faults;
use super::objects::{self, controller_ref, pod_from_template, pod_template, set_running};
use super::resource::Kind;
use super::scenario::{ClusterGroup, ClusterOverride, LedgerDrift, Scenario, Settings};
use super::scheduler::{NodeFit, choose, pod_requests};
use super::stateful::{self, Placement};
use super::store::Store;
use super::workloads::{daemon_set_status, deployment_status, replica_set_status, template_hash};

/// What the simulator knows about a cluster beyond its objects: the ledger facts.
#[derive(Debug, Clone)]
pub struct ClusterProfile {
    /// Cluster id (also the kubeconfig context name).
    pub id: String,
    /// Position in the fleet (used for CIDRs and addresses).
    pub index: usize,
    /// Human name.
    pub display_name: String,
    /// `production` or `staging`.
    pub env: String,
    /// Region.
    pub region: String,
    /// Zones (`us-east-1a` …).
    pub zones: Vec<String>,
    /// Tier.
    pub tier: String,
    /// Owning team.
    pub owner: String,
    /// Lifecycle.
    pub lifecycle: String,
    /// Ledger labels.
    pub labels: BTreeMap<String, String>,
    /// Live versions: kubernetes, etcd, runtime, kernel, cni, csi, gpuDriver, devicePlugin.
    pub versions: BTreeMap<String, String>,
    /// Live kube-system namespace UID.
    pub kube_system_uid: String,
    /// Pod CIDR.
    pub pod_cidr: String,
    /// Service CIDR.
    pub service_cidr: String,
    /// Shared dependencies.
    pub shared_dependencies: Vec<String>,
    /// Ledger exceptions.
    pub exceptions: Vec<Value>,
    /// Where the ledger deliberately disagrees with the cluster.
    pub drift: LedgerDrift,
    /// Days its own serving certificate is valid for, when it has one.
    pub serving_certificate_days: Option<i64>,
    /// Whether the cluster has GPU nodes.
    pub gpu: bool,
    /// Deprecated APIs its clients request (what its `/metrics` counts).
    pub deprecated_api_requests: Vec<super::scenario::DeprecatedApiRequest>,
}

/// One generated cluster.
pub struct Generated {
    /// Profile.
    pub profile: ClusterProfile,
    /// Objects.
    pub store: Store,
    /// Faults active from the start.
    pub faults: Faults,
}

const SERVICES: &[&str] = &[
    "checkout",
    "payments",
    "search",
    "catalog",
    "auth",
    "orders",
    "inventory",
    "notify",
    "gateway",
    "ledger",
    "pricing",
    "reviews",
    "profile",
    "cart",
    "shipping",
];

/// FNV-1a, for seeds and hashes that must not change between runs or platforms.
pub fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Generates every cluster of a scenario (on two threads for large fleets).
pub fn build(
    scenario: &Scenario,
    seed: u64,
    clock: &SimClock,
    users: &[SimUser],
) -> Result<Vec<Generated>, SimError> {
    let mut jobs = Vec::new();
    for g in &scenario.groups {
        for n in 1..=g.count {
            let id = format!("{}-{:02}", g.prefix, n);
            let ovr = scenario
                .overrides
                .iter()
                .find(|o| o.cluster == id)
                .cloned()
                .unwrap_or_default();
            jobs.push((jobs.len(), id, g, ovr));
        }
    }
    let settings = &scenario.settings;
    let threads = if jobs.len() > 20 { 2 } else { 1 };
    let chunk = jobs.len().div_ceil(threads).max(1);
    let parts: Vec<std::thread::Result<Vec<Generated>>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(i, id, g, ovr)| {
                            build_cluster(*i, id, g, ovr, settings, seed, clock, users)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });
    let mut out = Vec::new();
    for part in parts {
        out.extend(part.map_err(|_| SimError::Scenario {
            name: scenario.name.clone(),
            message: "cluster generation failed".into(),
        })?);
    }
    out.sort_by_key(|g| g.profile.index);
    for g in &mut out {
        if g.faults.degradation.is_none()
            && let Some(rule) = scenario
                .degradations
                .iter()
                .find(|r| r.applies_to(&g.profile.versions))
        {
            g.faults.degradation = Some(rule.degradation.clone());
        }
    }
    Ok(out)
}

fn pick(rng: &mut SmallRng, list: &[String], default: &str) -> String {
    if list.is_empty() {
        default.to_string()
    } else {
        list[rng.random_range(0..list.len())].clone()
    }
}

/// A random RFC 4122 version-4 UID from the generation's seeded generator.
pub(super) fn uid(rng: &mut SmallRng) -> String {
    let b: [u8; 16] = rng.random();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
        u16::from_be_bytes([b[4], b[5]]),
        u16::from_be_bytes([b[6], b[7]]) & 0x0fff,
        (u16::from_be_bytes([b[8], b[9]]) & 0x3fff) | 0x8000,
        u64::from_be_bytes([0, 0, b[10], b[11], b[12], b[13], b[14], b[15]])
    )
}

#[allow(clippy::too_many_arguments)]
fn build_cluster(
    index: usize,
    id: &str,
    g: &ClusterGroup,
    ovr: &ClusterOverride,
    settings: &Settings,
    seed: u64,
    clock: &SimClock,
    users: &[SimUser],
) -> Generated {
    let cseed = seed ^ fnv(id);
    let mut rng = SmallRng::seed_from_u64(cseed);
    let v = &g.versions;
    let mut versions = BTreeMap::new();
    let k8s = ovr
        .kubernetes
        .clone()
        .unwrap_or_else(|| pick(&mut rng, &v.kubernetes, "v1.32.3"));
    versions.insert("kubernetes".to_string(), k8s.clone());
    versions.insert("etcd".into(), pick(&mut rng, &v.etcd, "3.5.17"));
    versions.insert(
        "runtime".into(),
        pick(&mut rng, &v.runtime, "containerd://1.7.24"),
    );
    versions.insert(
        "kernel".into(),
        pick(&mut rng, &v.kernel, "6.1.0-31-cloud-amd64"),
    );
    versions.insert("cni".into(), pick(&mut rng, &v.cni, "cilium 1.16.6"));
    versions.insert("csi".into(), pick(&mut rng, &v.csi, "ebs-csi 1.38.1"));
    if g.gpu.is_some() {
        versions.insert(
            "gpuDriver".into(),
            pick(&mut rng, &v.gpu_driver, "550.127.08"),
        );
        versions.insert(
            "devicePlugin".into(),
            pick(&mut rng, &v.device_plugin, "nvidia-device-plugin 0.17.0"),
        );
    }
    let kube_system_uid = uid(&mut rng);
    // Pod CIDRs: /17 blocks of 10.0.0.0/8; service CIDRs: /22 blocks of 172.16.0.0/12.
    let pod_base = (index as u32) << 15;
    let pod_cidr = format!(
        "10.{}.{}.0/17",
        (pod_base >> 16) & 0xff,
        (pod_base >> 8) & 0xff
    );
    let svc_base = (index as u32) << 10;
    let service_cidr = format!(
        "172.{}.{}.0/22",
        16 + ((svc_base >> 16) & 0x0f),
        (svc_base >> 8) & 0xff
    );
    let zones: Vec<String> = g
        .zones
        .iter()
        .map(|z| format!("{}{}", g.region, z))
        .collect();
    let mut labels = g.labels.clone();
    labels.insert("env".into(), g.env.clone());
    labels.insert("tier".into(), g.tier.clone());
    labels.insert("region".into(), g.region.clone());
    let profile = ClusterProfile {
        id: id.to_string(),
        index,
        display_name: format!(
            "{} {} #{}",
            g.region,
            g.env,
            id.rsplit('-').next().unwrap_or(id)
        ),
        env: g.env.clone(),
        region: g.region.clone(),
        zones: zones.clone(),
        tier: g.tier.clone(),
        owner: g.owner.clone(),
        lifecycle: g.lifecycle.clone(),
        labels,
        versions: versions.clone(),
        kube_system_uid: kube_system_uid.clone(),
        pod_cidr,
        service_cidr,
        shared_dependencies: g.shared_dependencies.clone(),
        exceptions: ovr.exceptions.clone(),
        drift: ovr.ledger.clone(),
        serving_certificate_days: ovr.serving_certificate_days,
        gpu: g.gpu.is_some(),
        deprecated_api_requests: ovr.deprecated_api_requests.clone(),
    };

    let mut st = Store::new(cseed ^ 0x5151, settings.history);
    let created = rfc3339(
        clock
            .now()
            .checked_sub(jiff::SignedDuration::from_hours(24 * 90))
            .unwrap_or(clock.now()),
    );
    for ns in ["default", "kube-system", "kube-public", "kube-node-lease"]
        .into_iter()
        .map(String::from)
        .chain(g.workloads.namespaces.iter().cloned())
        .chain(g.gpu.as_ref().map(|_| "training".to_string()))
    {
        let nsuid = if ns == "kube-system" {
            kube_system_uid.clone()
        } else {
            uid(&mut rng)
        };
        if st.get(Kind::NAMESPACE, "", &ns).is_none() {
            st.put(Kind::NAMESPACE, objects::namespace(&ns, &nsuid, &created));
        }
    }

    // Nodes.
    let mut nodes: Vec<NodeFit> = Vec::new();
    let mut node_ips: Vec<String> = Vec::new();
    let node_count = g.nodes.count + g.gpu.as_ref().map_or(0, |p| p.count);
    for n in 0..node_count {
        let gpu = n >= g.nodes.count;
        let local = if gpu { n - g.nodes.count } else { n };
        let name = if gpu {
            format!("{id}-g{local:02}")
        } else {
            format!("{id}-n{local:03}")
        };
        // CPU nodes spread over the zones one by one; GPU nodes a block at a time, since
        // an NVLink clique or rack never spans zones.
        let spread = match (gpu, &g.gpu) {
            (true, Some(p)) => local / p.nodes_per_block.max(1),
            _ => local,
        };
        let zone = zones
            .get(spread % zones.len().max(1))
            .cloned()
            .unwrap_or_default();
        let addr = (index as u32) * 256 + n as u32;
        let ip = format!(
            "100.{}.{}.{}",
            64 + (addr >> 16),
            (addr >> 8) & 0xff,
            addr & 0xff
        );
        // The first nodes may run an older kubelet (a node pool not upgraded yet).
        let node_versions = match &ovr.old_kubelets {
            Some(old) if n < old.nodes => {
                let mut older = versions.clone();
                older.insert("kubelet".into(), old.version.clone());
                std::borrow::Cow::Owned(older)
            }
            _ => std::borrow::Cow::Borrowed(&versions),
        };
        let node = node_object(
            id,
            &name,
            &zone,
            &ip,
            g,
            gpu,
            local,
            &node_versions,
            &created,
            &uid(&mut rng),
        );
        nodes.push(NodeFit::of(&node));
        node_ips.push(ip);
        st.put(Kind::NODE, node);
    }

    let mut pod_ip_counter = 0u32;
    let mut next_pod_ip = || {
        pod_ip_counter += 1;
        let a = pod_base + 16 + pod_ip_counter;
        format!("10.{}.{}.{}", (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff)
    };

    // DaemonSets: one pod per eligible node.
    for ds_name in &g.workloads.daemon_sets {
        let gpu_only = ds_name.contains("nvidia");
        let mut template = pod_template(
            ds_name,
            50,
            64,
            0,
            &[("controller-revision-hash", "6b8f5c7d9")],
        );
        template["spec"]["tolerations"] = json!([{"operator": "Exists"}]);
        template["spec"]["priorityClassName"] = json!("system-node-critical");
        if gpu_only {
            template["spec"]["nodeSelector"] = json!({"nvidia.com/gpu.present": "true"});
        }
        let ds_uid = uid(&mut rng);
        let mut ready = 0;
        let mut desired = 0;
        for (i, node) in nodes.iter_mut().enumerate() {
            if !super::scheduler::matches_node(node, &template) {
                continue;
            }
            desired += 1;
            let pname = format!("{ds_name}-{}", st.name_suffix());
            let mut pod = pod_from_template(
                &template,
                "kube-system",
                &pname,
                &uid(&mut rng),
                controller_ref(Kind::DAEMON_SET, ds_name, &ds_uid),
                &created,
            );
            node.used.add(pod_requests(&pod));
            set_running(
                &mut pod,
                &node.name.clone(),
                &node_ips[i],
                &node_ips[i],
                &created,
                true,
            );
            ready += 1;
            st.put(Kind::POD, pod);
        }
        let mut ds = json!({
            "apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": ds_name, "namespace": "kube-system", "uid": ds_uid, "generation": 1,
                "creationTimestamp": created, "labels": {"app": ds_name}},
            "spec": {"selector": {"matchLabels": {"app": ds_name}}, "template": template,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}}
        });
        ds["status"] = daemon_set_status(desired, desired, ready, 0, 1);
        st.put(Kind::DAEMON_SET, ds);
    }

    // Deployments with ReplicaSets, pods and PDBs.
    let mut specs: Vec<(String, String, i32, u32, u32, u32)> = Vec::new();
    for d in 0..g.workloads.deployments {
        let ns = g
            .workloads
            .namespaces
            .get(d % g.workloads.namespaces.len().max(1))
            .cloned()
            .unwrap_or_else(|| "default".into());
        let base = SERVICES[d % SERVICES.len()];
        let name = if d < SERVICES.len() {
            base.to_string()
        } else {
            format!("{base}-{}", d / SERVICES.len())
        };
        specs.push((
            ns,
            name,
            g.workloads.replicas,
            g.workloads.cpu_millis,
            g.workloads.memory_mi,
            0,
        ));
    }
    if let Some(gp) = &g.gpu {
        for (j, gpus) in gp.jobs.iter().enumerate() {
            specs.push((
                "training".into(),
                format!("train-{j:02}"),
                1,
                1000,
                4096,
                *gpus,
            ));
        }
    }
    let gpu_first = g.nodes.count;
    for (d, (ns, name, replicas, cpu, mem, gpus)) in specs.iter().enumerate() {
        let dep_template = pod_template(name, *cpu, *mem, *gpus, &[]);
        let hash = template_hash(&dep_template);
        let template = pod_template(name, *cpu, *mem, *gpus, &[("pod-template-hash", &hash)]);
        let (dep_uid, rs_uid) = (uid(&mut rng), uid(&mut rng));
        let rs_name = format!("{name}-{hash}");
        let mut ready = 0;
        for r in 0..*replicas {
            let pname = format!("{rs_name}-{}", st.name_suffix());
            let mut pod = pod_from_template(
                &template,
                ns,
                &pname,
                &uid(&mut rng),
                controller_ref(Kind::REPLICA_SET, &rs_name, &rs_uid),
                &created,
            );
            let req = pod_requests(&pod);
            // GPU jobs start spread over the GPU nodes, so free GPUs end up fragmented.
            let spread = if *gpus > 0 && node_count > gpu_first {
                let i = gpu_first + (d * 3 + r as usize) % (node_count - gpu_first);
                (nodes[i].alloc.fits(&nodes[i].used, &req)).then_some(i)
            } else {
                None
            };
            if let Some(i) = spread.or_else(|| choose(&nodes, &pod, &req)) {
                nodes[i].used.add(req);
                let ip = next_pod_ip();
                let node_name = nodes[i].name.clone();
                set_running(&mut pod, &node_name, &node_ips[i], &ip, &created, true);
                ready += 1;
            }
            st.put(Kind::POD, pod);
        }
        let rs_template = template.clone();
        let selector = json!({"matchLabels": {"app": name, "pod-template-hash": &hash}});
        let mut rs = json!({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": rs_name, "namespace": ns, "uid": rs_uid, "generation": 1, "creationTimestamp": created,
                "labels": {"app": name, "pod-template-hash": &hash},
                "annotations": {"deployment.kubernetes.io/revision": "1"},
                "ownerReferences": [controller_ref(Kind::DEPLOYMENT, name, &dep_uid)]},
            "spec": {"replicas": replicas, "selector": selector, "template": rs_template}
        });
        rs["status"] = replica_set_status(*replicas, ready, 1);
        st.put(Kind::REPLICA_SET, rs);
        let mut dep = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": ns, "uid": dep_uid, "generation": 1, "creationTimestamp": created,
                "labels": {"app": name}, "annotations": {"deployment.kubernetes.io/revision": "1"}},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "template": dep_template,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}}
        });
        dep["status"] = deployment_status(*replicas, *replicas, ready, 1);
        st.put(Kind::DEPLOYMENT, dep);
        if g.workloads.pdbs && *gpus == 0 {
            let blocking = ovr.blocking_pdb && d == 0;
            let (pdb_name, max_unavailable) = if blocking {
                (format!("{name}-blocking"), 0)
            } else {
                (name.clone(), 1)
            };
            let mut pdb = json!({
                "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                "metadata": {"name": pdb_name, "namespace": ns, "uid": uid(&mut rng), "generation": 1, "creationTimestamp": created},
                "spec": {"maxUnavailable": max_unavailable, "selector": {"matchLabels": {"app": name}}}
            });
            let spec = pdb["spec"].clone();
            pdb["status"] = pdb_status(&spec, ready as i64, *replicas as i64, 1, &created, None);
            st.put(Kind::POD_DISRUPTION_BUDGET, pdb);
        }
    }
    // StatefulSets come last, so the objects generated before them do not depend on
    // whether a scenario has any.
    if let Some(spec) = &g.workloads.stateful_sets {
        let ns = g
            .workloads
            .namespaces
            .first()
            .cloned()
            .unwrap_or_else(|| "default".into());
        let mut at = Placement {
            nodes: &mut nodes,
            node_ips: &node_ips,
            next_pod_ip: &mut next_pod_ip,
        };
        stateful::generate(&mut st, &mut rng, spec, &ns, &mut at, &created);
    }
    // What the API server itself creates at start: RBAC roles and bindings (one per
    // user with access), flow-control schemas and levels, local APIServices.
    for (kind, mut obj) in super::system::bootstrap(users, &created) {
        obj["metadata"]["uid"] = json!(uid(&mut rng));
        st.put(kind, obj);
    }
    // Generation is history nobody watched: start watch history empty.
    st.compact();
    let mut faults = ovr.faults.clone().unwrap_or_default();
    if faults.retry_after_seconds == 0 {
        faults.retry_after_seconds = 1;
    }
    Generated {
        profile,
        store: st,
        faults,
    }
}

#[allow(clippy::too_many_arguments)]
fn node_object(
    cluster: &str,
    name: &str,
    zone: &str,
    ip: &str,
    g: &ClusterGroup,
    gpu: bool,
    local: usize,
    versions: &BTreeMap<String, String>,
    created: &str,
    node_uid: &str,
) -> Value {
    let v = |k: &str| versions.get(k).cloned().unwrap_or_default();
    let kubelet = versions
        .get("kubelet")
        .cloned()
        .unwrap_or_else(|| v("kubernetes"));
    let (cpu, mem_gi, instance) = if gpu {
        (96, 1024, "p5.48xlarge".to_string())
    } else {
        (
            g.nodes.cpu,
            g.nodes.memory_gi,
            g.nodes.instance_type.clone(),
        )
    };
    let mut labels = json!({
        "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
        "node.kubernetes.io/instance-type": instance, "topology.kubernetes.io/region": g.region,
        "topology.kubernetes.io/zone": zone, "node-role.kubernetes.io/worker": ""
    });
    let mut capacity = json!({"cpu": cpu.to_string(), "memory": format!("{mem_gi}Gi"), "pods": g.nodes.pods.to_string(),
        "ephemeral-storage": "200Gi"});
    let mut allocatable = json!({"cpu": format!("{}m", cpu * 1000 - 100), "memory": format!("{}Mi", mem_gi * 1024 - 512),
        "pods": g.nodes.pods.to_string(), "ephemeral-storage": "180Gi"});
    let mut spec = json!({"podCIDR": "", "providerID": format!("sim://{cluster}/{name}")});
    if let (true, Some(p)) = (gpu, &g.gpu) {
        let block = local / p.nodes_per_block.max(1);
        labels["nvidia.com/gpu.present"] = json!("true");
        labels["nvidia.com/gpu.product"] = json!(p.product);
        labels["nvidia.com/gpu.count"] = json!(p.gpus_per_node.to_string());
        // GPU feature discovery writes the driver both ways: the full version (newer
        // releases) and major/minor/revision (older ones).
        let driver = v("gpuDriver");
        let mut parts = driver.splitn(3, '.');
        labels["nvidia.com/cuda.driver-version.full"] = json!(driver);
        labels["nvidia.com/cuda.driver.major"] = json!(parts.next().unwrap_or_default());
        labels["nvidia.com/cuda.driver.minor"] = json!(parts.next().unwrap_or_default());
        labels["nvidia.com/cuda.driver.rev"] = json!(parts.next().unwrap_or_default());
        labels["nvidia.com/gpu.clique"] = json!(format!("{:08x}.{}", fnv(cluster) as u32, block));
        labels["fleetdeck.dev/rack"] = json!(format!("rack-{block:02}"));
        capacity["nvidia.com/gpu"] = json!(p.gpus_per_node.to_string());
        allocatable["nvidia.com/gpu"] = json!(p.gpus_per_node.to_string());
        spec["taints"] =
            json!([{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]);
    }
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": node_uid, "creationTimestamp": created, "labels": labels,
            "annotations": {"node.alpha.kubernetes.io/ttl": "0"}},
        "spec": spec,
        "status": {
            "capacity": capacity, "allocatable": allocatable,
            "conditions": [
                {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory", "message": "kubelet has sufficient memory available", "lastHeartbeatTime": created, "lastTransitionTime": created},
                {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure", "message": "kubelet has no disk pressure", "lastHeartbeatTime": created, "lastTransitionTime": created},
                {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID", "message": "kubelet has sufficient PID available", "lastHeartbeatTime": created, "lastTransitionTime": created},
                {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status", "lastHeartbeatTime": created, "lastTransitionTime": created}
            ],
            "addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "machineID": format!("{:032x}", fnv(name) as u128 * 7919),
                "systemUUID": node_uid, "bootID": format!("{:x}", fnv(&format!("{name}/boot"))),
                "kernelVersion": v("kernel"), "osImage": "Debian GNU/Linux 12 (bookworm)",
                "containerRuntimeVersion": v("runtime"), "kubeletVersion": kubelet,
                "kubeProxyVersion": kubelet, "operatingSystem": "linux", "architecture": "amd64"
            }
        }
    })
}
