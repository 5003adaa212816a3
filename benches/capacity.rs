//! Capacity what-if across a large synthetic fleet: 300 clusters, 30,000 nodes,
//! 300,000 pods; every failure-domain (zone) what-if of every cluster, timed.
//!
//! Run with `cargo bench --bench capacity`. The fleet is generated deterministically
//! (fixed-seed splitmix64), so figures are comparable between runs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetdeck::model::capacity::{CapacityConfig, ClusterIndex, cluster_report, n_minus_one};
use fleetdeck::model::fleet::{
    ClusterId, ClusterView, Dimension, FleetView, Interner, LabelRequirement, Labels,
    MaintenanceState, NodeName, NodeSelector, NodeView, OwnerRef, PodPhase, PodView, Readiness,
    RequiredDomain, ResourceVector, Schedulability, Taint, TaintEffect, Toleration,
    TolerationOperator,
};

const CLUSTERS: usize = 300;
const NODES_PER_CLUSTER: usize = 100;
const PODS_PER_CLUSTER: usize = 1000;
const GPU_NODES_PER_CLUSTER: usize = 20;
const ZONES: [&str; 3] = ["a", "b", "c"];
const GI: i64 = 1 << 30;

/// Deterministic generator, independent of any crate's algorithm choices.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Gen<'a> {
    interner: &'a mut Interner,
    rng: SplitMix,
}

impl Gen<'_> {
    fn s(&mut self, v: &str) -> Arc<str> {
        self.interner.intern(v)
    }

    fn cluster(&mut self, c: usize) -> ClusterView {
        let region = format!("region-{}", c % 12);
        let mut nodes = Vec::with_capacity(NODES_PER_CLUSTER);
        for n in 0..NODES_PER_CLUSTER {
            let gpu = n >= NODES_PER_CLUSTER - GPU_NODES_PER_CLUSTER;
            let zone = ZONES[n % ZONES.len()];
            let name = format!("c{c}-n{n}");
            let mut labels = vec![
                (
                    self.s("topology.kubernetes.io/zone"),
                    self.s(&format!("{region}{zone}")),
                ),
                (self.s("topology.kubernetes.io/region"), self.s(&region)),
                (self.s("kubernetes.io/hostname"), self.s(&name)),
                (
                    self.s("topology.kubernetes.io/rack"),
                    self.s(&format!("rack-{}", n / 8)),
                ),
                (
                    self.s("pool"),
                    self.s(if gpu {
                        "gpu"
                    } else if n % 5 == 0 {
                        "highmem"
                    } else {
                        "general"
                    }),
                ),
                (
                    self.s("node.kubernetes.io/instance-type"),
                    self.s(if gpu { "p5.48xlarge" } else { "m7i.8xlarge" }),
                ),
            ];
            let mut taints = Vec::new();
            let mut allocatable = ResourceVector::new(31_750, 120 * GI, 0, 110);
            if gpu {
                labels.push((
                    self.s("nvidia.com/gpu.clique"),
                    self.s(&format!("clique-{}", n / 4)),
                ));
                allocatable = ResourceVector::new(191_000, 1900 * GI, 8, 110);
                taints.push(Taint {
                    key: self.s("nvidia.com/gpu"),
                    value: Some(self.s("present")),
                    effect: TaintEffect::NoSchedule,
                });
            }
            // A few nodes in every cluster are not healthy allocatable.
            let readiness = if self.rng.below(100) == 0 {
                Readiness::NotReady
            } else {
                Readiness::Ready
            };
            let schedulability = if self.rng.below(100) == 0 {
                Schedulability::Cordoned
            } else {
                Schedulability::Schedulable
            };
            nodes.push(NodeView {
                name: NodeName(self.s(&name)),
                labels: Labels::new(labels),
                readiness,
                schedulability,
                maintenance: MaintenanceState::InService,
                taints: taints.into_boxed_slice(),
                allocatable,
                gpu_replicas: 1,
                kubelet_version: self.s("v1.34.1"),
            });
        }

        let mut pods = Vec::with_capacity(PODS_PER_CLUSTER);
        let gpu_toleration: Box<[Toleration]> = Box::new([Toleration {
            key: Some(self.s("nvidia.com/gpu")),
            operator: TolerationOperator::Exists,
            value: None,
            effect: None,
        }]);
        // Two DaemonSet pods per node.
        for (n, node) in nodes.iter().enumerate() {
            for ds in ["node-exporter", "cni"] {
                pods.push(PodView {
                    namespace: self.s("kube-system"),
                    name: self.s(&format!("{ds}-{n}")),
                    node: Some(node.name.clone()),
                    phase: PodPhase::Running,
                    ready: true,
                    mounts_claims: false,
                    owner: Some(OwnerRef {
                        kind: self.s("DaemonSet"),
                        name: self.s(ds),
                    }),
                    requests: ResourceVector::new(100, GI / 8, 0, 1),
                    node_selector: NodeSelector::default(),
                    tolerations: Box::new([Toleration {
                        key: None,
                        operator: TolerationOperator::Exists,
                        value: None,
                        effect: None,
                    }]),
                    required_domain: None,
                    pdb: None,
                });
            }
        }
        // GPU jobs: 1, 2 or 4 GPUs; roughly 60% of GPUs requested.
        let gpu_first = NODES_PER_CLUSTER - GPU_NODES_PER_CLUSTER;
        for (n, node) in nodes.iter().enumerate().skip(gpu_first) {
            let mut used = 0;
            while used < 5 {
                let gpus = [1, 2, 4][self.rng.below(3) as usize].min(8 - used);
                used += gpus;
                let owner = format!("train-{}", self.rng.below(6));
                pods.push(PodView {
                    namespace: self.s("ml"),
                    name: self.s(&format!("{owner}-{n}-{used}")),
                    node: Some(node.name.clone()),
                    phase: PodPhase::Running,
                    ready: true,
                    mounts_claims: false,
                    owner: Some(OwnerRef {
                        kind: self.s("Job"),
                        name: self.s(&owner),
                    }),
                    requests: ResourceVector::new(gpus * 20_000, gpus * 200 * GI, gpus, 1),
                    node_selector: NodeSelector::all_of([LabelRequirement::equals(
                        self.s("pool"),
                        self.s("gpu"),
                    )]),
                    tolerations: gpu_toleration.clone(),
                    required_domain: None,
                    pdb: None,
                });
            }
        }
        // Service pods on CPU nodes until the cluster has PODS_PER_CLUSTER pods.
        let cpu_nodes = gpu_first as u64;
        let mut i = 0;
        while pods.len() < PODS_PER_CLUSTER {
            i += 1;
            let n = self.rng.below(cpu_nodes) as usize;
            let app = self.rng.below(40);
            let cpu = [100, 250, 500, 1000, 2000][(app % 5) as usize];
            let mem = [GI / 4, GI / 2, GI, 2 * GI, 4 * GI][((app / 5) % 5) as usize];
            let node_selector = if app.is_multiple_of(7) {
                NodeSelector::all_of([LabelRequirement::equals(self.s("pool"), self.s("highmem"))])
            } else {
                NodeSelector::default()
            };
            let node = if app.is_multiple_of(7) { n - n % 5 } else { n };
            let (kind, required_domain) = if app.is_multiple_of(11) {
                let zone = nodes[node]
                    .labels
                    .get("topology.kubernetes.io/zone")
                    .cloned();
                let domain = zone
                    .map(|value| RequiredDomain::one(self.s("topology.kubernetes.io/zone"), value));
                ("StatefulSet", domain)
            } else {
                ("ReplicaSet", None)
            };
            let mut requests = ResourceVector::new(cpu, mem, 0, 1);
            if app == 39 {
                requests.set(Dimension::Memory, 24 * GI);
            }
            pods.push(PodView {
                namespace: self.s(&format!("team-{}", app % 9)),
                name: self.s(&format!("app-{app}-{i}")),
                node: Some(nodes[node].name.clone()),
                phase: PodPhase::Running,
                ready: true,
                mounts_claims: false,
                owner: Some(OwnerRef {
                    kind: self.s(kind),
                    name: self.s(&format!("app-{app}")),
                }),
                requests,
                node_selector,
                tolerations: Box::new([]),
                required_domain,
                pdb: None,
            });
        }
        ClusterView {
            id: ClusterId(self.s(&format!("cluster-{c:03}"))),
            claims: Vec::new(),
            volumes: Vec::new(),
            volumes_unreadable: None,
            controllers: Default::default(),
            nodes,
            pods,
            pdbs: Vec::new(),
        }
    }
}

fn fleet() -> FleetView {
    let mut interner = Interner::new();
    let mut generator = Gen {
        interner: &mut interner,
        rng: SplitMix(0x_f1ee_7dec),
    };
    FleetView {
        clusters: (0..CLUSTERS).map(|c| generator.cluster(c)).collect(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let t = Instant::now();
    let fleet = fleet();
    let nodes: usize = fleet.clusters.iter().map(|c| c.nodes.len()).sum();
    let pods: usize = fleet.clusters.iter().map(|c| c.pods.len()).sum();
    println!(
        "fleet: {} clusters, {nodes} nodes, {pods} pods (generated in {:.0} ms)",
        fleet.clusters.len(),
        ms(t.elapsed())
    );
    println!(
        "view sizes (inline, excluding shared strings): NodeView {} B, PodView {} B",
        std::mem::size_of::<NodeView>(),
        std::mem::size_of::<PodView>()
    );
    let config = CapacityConfig::default();

    // Every zone what-if of every cluster, including indexing each cluster once.
    let mut best = Duration::MAX;
    let mut whatifs = 0;
    let mut displaced = 0u64;
    let mut unplaced = 0u64;
    for run in 0..5 {
        let t = Instant::now();
        let (mut w, mut d, mut u) = (0, 0u64, 0u64);
        for cluster in &fleet.clusters {
            let index = ClusterIndex::new(cluster, &config);
            let n1 = n_minus_one(&index, &[]);
            w += n1.per_domain.len();
            for r in &n1.per_domain {
                d += u64::from(r.displaced_pods);
                u += u64::from(r.unplaced_pods());
            }
        }
        let elapsed = t.elapsed();
        println!("  run {run}: {:.1} ms", ms(elapsed));
        best = best.min(elapsed);
        (whatifs, displaced, unplaced) = (w, d, u);
    }
    println!(
        "every failure-domain what-if: {whatifs} what-ifs, {displaced} pods re-placed \
         ({unplaced} unplaceable), best of 5: {:.1} ms (target < 2000 ms)",
        ms(best)
    );

    // The full per-cluster picture the capacity screen shows (baseline, domains, GPU
    // shape, N−1, explanations).
    let t = Instant::now();
    let reports: Vec<_> = fleet
        .clusters
        .iter()
        .map(|c| cluster_report(c, &config, &[]))
        .collect();
    let limits: usize = reports.iter().map(|r| r.limits.len()).sum();
    println!(
        "full capacity report for the fleet: {:.1} ms ({limits} limit sentences)",
        ms(t.elapsed())
    );
    if let Some(first) = reports.first() {
        for limit in first.limits.iter().take(4) {
            println!("  {}: {limit}", first.cluster);
        }
    }
}
