//! Facts the screens show, derived from a fleet snapshot once per change rather than once
//! per frame. Clusters whose view did not change (same `Arc`) keep their facts, so a
//! snapshot in which one cluster of 300 moved costs one cluster's work.

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::capacity::{
    CapacityConfig, ClusterIndex, DomainCapacity, GpuShape, NodeHealth, Scenario, domain_capacity,
    gpu_shape, what_if,
};
use crate::model::fleet::{ClusterView, ResourceVector};
use crate::model::ledger::Ledger;
use crate::model::live::{FleetSnapshot, find_drift};
use crate::model::maintenance::{ClusterHolds, MaintenanceHolds};

/// What the drill-down shows about one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeFacts {
    /// Why it does or does not count as capacity.
    pub health: NodeHealth,
    /// Pods holding resources on it.
    pub pods: u32,
    /// Physical GPUs with nothing requested.
    pub gpu_free: i64,
    /// Physical GPUs.
    pub gpu_total: i64,
    /// Its failure-domain value.
    pub zone: Option<Arc<str>>,
    /// Its most specific topology domain other than the zone (rack, block, NVLink).
    pub block: Option<Arc<str>>,
    /// Requests held on it (physical GPUs not deflated; for the domain view).
    pub used: ResourceVector,
}

/// A PodDisruptionBudget that would block a drain right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockingPdb {
    /// Index in the cluster's `pdbs`.
    pub pdb: usize,
    /// Pods it covers that hold resources.
    pub pods: u32,
    /// Nodes those pods run on.
    pub nodes: u32,
}

/// Derived facts about one cluster's view.
#[derive(Debug, Clone)]
pub struct ClusterFacts {
    /// The snapshot's view these facts were computed from (compared by pointer).
    pub source: Arc<ClusterView>,
    /// What maintenance held in the cluster when they were computed.
    pub held: ClusterHolds,
    /// The view as capacity sees it: `source` with the nodes maintenance holds marked.
    pub view: Arc<ClusterView>,
    /// One entry per node, in view order.
    pub nodes: Vec<NodeFacts>,
    /// Physical GPUs free on healthy nodes.
    pub gpus_free: i64,
    /// Physical GPUs on all nodes.
    pub gpus_total: i64,
    /// Capacity per failure domain.
    pub domains: Vec<DomainCapacity>,
    /// Healthy allocatable, without nodes maintenance holds or reserves (physical GPUs).
    pub allocatable: ResourceVector,
    /// Demand that needs a place in it: requests on healthy nodes and those of pods on
    /// nodes that do not count (a node in maintenance still runs pods that must move).
    /// The same figure as the cluster page's "headroom with nothing lost", so the fleet
    /// list and the cluster agree.
    pub used: ResourceVector,
    /// GPU shape of healthy nodes.
    pub gpu: GpuShape,
    /// PDBs with no disruption allowed that cover running pods.
    pub blocking_pdbs: Vec<BlockingPdb>,
    /// Failure domains none of whose nodes is Ready, in a cluster with more than one:
    /// a zone that is down, not a few nodes here and there.
    pub zones_down: Vec<Arc<str>>,
}

/// The zones of `nodes` (each with its view node) in which no node is Ready, when the
/// nodes span more than one zone.
fn zones_down(view: &ClusterView, nodes: &[NodeFacts]) -> Vec<Arc<str>> {
    let mut zones: Vec<(Arc<str>, bool)> = Vec::new();
    for (node, facts) in view.nodes.iter().zip(nodes) {
        let Some(zone) = &facts.zone else { continue };
        let ready = node.readiness == crate::model::fleet::Readiness::Ready;
        match zones.iter_mut().find(|(z, _)| z == zone) {
            Some((_, any_ready)) => *any_ready |= ready,
            None => zones.push((Arc::clone(zone), ready)),
        }
    }
    if zones.len() < 2 {
        return Vec::new();
    }
    let mut down: Vec<Arc<str>> = zones
        .into_iter()
        .filter(|(_, any_ready)| !any_ready)
        .map(|(z, _)| z)
        .collect();
    down.sort();
    down
}

impl ClusterFacts {
    /// Computes the facts of one view.
    pub fn compute(
        source: Arc<ClusterView>,
        config: &CapacityConfig,
        held: &ClusterHolds,
    ) -> ClusterFacts {
        let view = held.apply(&source);
        let index = ClusterIndex::new(&view, config);
        let domains = domain_capacity(&index, &held.reserved);
        let gpu = gpu_shape(&index, &held.reserved);
        let baseline = what_if(&index, &Scenario::Baseline, &held.reserved);
        let (allocatable, used) = (baseline.allocatable, baseline.demand);
        let mut pods_on = vec![0u32; view.nodes.len()];
        let mut pdb_pods = vec![(0u32, Vec::<u32>::new()); view.pdbs.len()];
        for (pod, node) in view.pods.iter().zip(&index.pod_node) {
            if let Some(n) = node {
                pods_on[*n as usize] += 1;
                if let Some(slot) = pod.pdb.and_then(|p| pdb_pods.get_mut(p as usize)) {
                    slot.0 += 1;
                    if !slot.1.contains(n) {
                        slot.1.push(*n);
                    }
                }
            }
        }
        let zone_key = &config.failure_domain_key;
        let nodes: Vec<NodeFacts> = view
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let used = index.used[i].clone();
                let replicas = i64::from(node.gpu_replicas.max(1));
                let total = node.physical_gpus();
                let free = (node.allocatable.gpu() - used.gpu())
                    .max(0)
                    .div_euclid(replicas)
                    .min(total);
                NodeFacts {
                    health: index.health[i].clone(),
                    pods: pods_on[i],
                    gpu_free: free,
                    gpu_total: total,
                    zone: node.labels.get(zone_key).cloned(),
                    block: config
                        .topology_keys
                        .iter()
                        .filter(|k| *k != zone_key)
                        .find_map(|k| node.labels.get(k).cloned()),
                    used,
                }
            })
            .collect();
        let blocking_pdbs = view
            .pdbs
            .iter()
            .enumerate()
            .filter(|(i, pdb)| pdb.blocks_eviction() && pdb_pods[*i].0 > 0)
            .map(|(i, _)| BlockingPdb {
                pdb: i,
                pods: pdb_pods[i].0,
                nodes: u32::try_from(pdb_pods[i].1.len()).unwrap_or(u32::MAX),
            })
            .collect();
        drop(index);
        let zones_down = zones_down(&view, &nodes);
        ClusterFacts {
            zones_down,
            gpus_free: gpu.free_gpus,
            gpus_total: view.nodes.iter().map(|n| n.physical_gpus()).sum(),
            nodes,
            domains,
            allocatable,
            used,
            gpu,
            blocking_pdbs,
            view,
            source,
            held: held.clone(),
        }
    }
}

/// Facts for the whole fleet, kept up to date snapshot by snapshot.
#[derive(Debug, Clone, Default)]
pub struct FleetData {
    facts: HashMap<Arc<str>, Arc<ClusterFacts>>,
    /// Per cluster, the drift components (`kubernetes`, `kubelet`, …) that disagree with
    /// the ledger.
    pub drift: HashMap<String, Vec<String>>,
}

impl FleetData {
    /// Brings the facts up to date with `snapshot`, recomputing only changed clusters.
    pub fn refresh(
        &mut self,
        snapshot: &FleetSnapshot,
        ledger: &Ledger,
        config: &CapacityConfig,
        holds: &MaintenanceHolds,
    ) {
        self.refresh_facts(snapshot, config, holds);
        self.refresh_drift(snapshot, ledger);
    }

    /// The per-cluster facts only: clusters whose view and holds did not change keep
    /// theirs.
    fn refresh_facts(
        &mut self,
        snapshot: &FleetSnapshot,
        config: &CapacityConfig,
        holds: &MaintenanceHolds,
    ) {
        let mut next = HashMap::with_capacity(snapshot.clusters.len());
        for cluster in snapshot.clusters.iter() {
            let held = holds.of(&cluster.view.id);
            let facts = match self.facts.remove(&cluster.id) {
                Some(f) if Arc::ptr_eq(&f.source, &cluster.view) && f.held == *held => f,
                _ => Arc::new(ClusterFacts::compute(
                    Arc::clone(&cluster.view),
                    config,
                    held,
                )),
            };
            next.insert(Arc::clone(&cluster.id), facts);
        }
        self.facts = next;
    }

    fn refresh_drift(&mut self, snapshot: &FleetSnapshot, ledger: &Ledger) {
        self.drift.clear();
        for d in find_drift(ledger, snapshot) {
            if let Some(what) = d.kind.topic() {
                self.drift.entry(d.cluster).or_default().push(what);
            }
        }
    }

    /// The facts of one cluster.
    pub fn cluster(&self, id: &str) -> Option<&Arc<ClusterFacts>> {
        self.facts.get(id)
    }

    /// Whether the cluster's Kubernetes version (API server or kubelets) drifts from the
    /// ledger.
    pub fn version_drift(&self, id: &str) -> bool {
        self.drift
            .get(id)
            .is_some_and(|d| d.iter().any(|c| c == "kubernetes" || c == "kubelet"))
    }
}

/// What working out a snapshot's facts away from the console's event loop needs: copies
/// of what the console holds (cheap: the facts are shared, not copied).
#[derive(Debug, Clone)]
pub struct FactsInputs {
    /// The facts the console has now; clusters that did not change keep them.
    pub previous: FleetData,
    /// The ledger (for drift).
    pub ledger: Arc<Ledger>,
    /// The capacity model's configuration.
    pub config: CapacityConfig,
    /// What maintenance holds, as the console knows it.
    pub holds: Arc<MaintenanceHolds>,
}

/// A snapshot with its facts worked out, ready for the console to take.
#[derive(Debug, Clone)]
pub struct PreparedSnapshot {
    /// The snapshot.
    pub snapshot: FleetSnapshot,
    /// Its facts.
    pub data: FleetData,
}

impl FactsInputs {
    /// Works out `snapshot`'s facts. The cost is one cluster's what-if per changed
    /// cluster: milliseconds for a large fleet whose clusters all moved, which is why it
    /// runs beside the console's event loop rather than on it.
    pub fn prepare(self, snapshot: FleetSnapshot) -> PreparedSnapshot {
        let mut data = self.previous;
        data.refresh(&snapshot, &self.ledger, &self.config, &self.holds);
        PreparedSnapshot { snapshot, data }
    }
}

impl FleetData {
    /// Takes facts prepared from the snapshot `snapshot`: only a cluster whose holds
    /// changed since they were prepared (the journal moved meanwhile) is worked out again.
    pub fn adopt(
        &mut self,
        prepared: FleetData,
        snapshot: &FleetSnapshot,
        config: &CapacityConfig,
        holds: &MaintenanceHolds,
    ) {
        *self = prepared;
        self.refresh_facts(snapshot, config, holds);
    }
}
