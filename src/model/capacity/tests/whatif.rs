//! What-if tests, over 600 lines: each hand-computes one scenario's answer on the
//! shared capacity fixtures; they split by scenario kind with the one test harness.

use crate::fixtures::capacity::*;
use crate::model::capacity::*;
use crate::model::fleet::{Dimension, NodeName, PodPhase, RequiredDomain, TaintEffect};

fn names(ns: &[&str]) -> Vec<NodeName> {
    ns.iter().map(|n| NodeName::from(*n)).collect()
}

/// Zones a, b, c with two 4-core / 16 GiB nodes each. Zone a runs four 1-core/2 GiB
/// pods (two per node); every node in b and c runs one 1-core/2 GiB pod.
fn three_zones() -> crate::model::fleet::ClusterView {
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for zone in ["a", "b", "c"] {
        for i in 0..2 {
            let name = format!("{zone}{i}");
            nodes.push(node(&name, zone).cpu(4000).mem_gi(16).build());
            let count = if zone == "a" { 2 } else { 1 };
            for j in 0..count {
                pods.push(
                    pod(&format!("{name}-p{j}"), Some(&name))
                        .cpu(1000)
                        .mem_gi(2)
                        .build(),
                );
            }
        }
    }
    cluster(nodes, pods)
}

#[test]
fn zone_loss_whose_displaced_pods_fit() {
    let c = three_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    // Four pods displaced; b and c have 4 × 3000m free, so all fit.
    assert_eq!(
        (report.lost_nodes, report.displaced_pods, report.placed_pods),
        (2, 4, 4)
    );
    assert!(report.unplaced.is_empty());
    // Allocatable: 4 × 4000m = 16000m, 4 × 16 GiB = 64 GiB.
    // Demand: 4 resident + 4 displaced pods = 8000m and 16 GiB.
    assert_eq!(report.allocatable.cpu_millis(), 16_000);
    assert_eq!(report.demand.cpu_millis(), 8000);
    assert_eq!(report.headroom.cpu_millis(), 8000);
    assert_eq!(report.headroom.memory_bytes(), 48 * GI);
    // Pods: 4 × 110 slots − 8 pods = 432.
    assert_eq!(report.headroom.pods(), 432);
    // Where they went: first fit in node order fills b0 first (3 pods), then b1.
    let moves = planned_moves(&index, &lose_zone("a"), &[]);
    let targets: Vec<&str> = moves.iter().map(|m| m.node.as_str()).collect();
    assert_eq!(targets, vec!["b0", "b0", "b0", "b1"]);
}

/// Zone a: two 8-GPU nodes each running one 8-GPU trainer pod (and a CPU pod).
/// Zone b: two 8-GPU nodes each running one 4-GPU pod.
fn gpu_zones() -> crate::model::fleet::ClusterView {
    let gpu_node = |name: &str, zone: &str| {
        node(name, zone)
            .gpus(8)
            .taint("nvidia.com/gpu", TaintEffect::NoSchedule)
            .build()
    };
    let trainer = |name: &str, on: &str| {
        pod(name, Some(on))
            .owner("ml", "Deployment", "trainer")
            .cpu(4000)
            .gpus(8)
            .tolerate("nvidia.com/gpu")
            .build()
    };
    let half = |name: &str, on: &str| {
        pod(name, Some(on))
            .owner("ml", "Deployment", "infer")
            .cpu(1000)
            .gpus(4)
            .tolerate("nvidia.com/gpu")
            .build()
    };
    cluster(
        vec![
            gpu_node("a-gpu0", "a"),
            gpu_node("a-gpu1", "a"),
            gpu_node("b-gpu0", "b"),
            gpu_node("b-gpu1", "b"),
            node("b-cpu", "b").build(),
        ],
        vec![
            trainer("t0", "a-gpu0"),
            trainer("t1", "a-gpu1"),
            pod("web", Some("a-gpu0"))
                .cpu(500)
                .tolerate("nvidia.com/gpu")
                .build(),
            half("i0", "b-gpu0"),
            half("i1", "b-gpu1"),
        ],
    )
}

#[test]
fn pods_being_deleted_are_neither_demand_elsewhere_nor_re_placed() {
    // Zone a's node is down: its two pods are being deleted, their replacements already
    // run in b. Counting the old ones as demand (or re-placing them) would count each
    // pod twice.
    let c = cluster(
        vec![node("a0", "a").not_ready().build(), node("b0", "b").build()],
        vec![
            pod("old-0", Some("a0"))
                .cpu(2000)
                .phase(PodPhase::Terminating)
                .build(),
            pod("old-1", Some("a0"))
                .cpu(2000)
                .phase(PodPhase::Terminating)
                .build(),
            pod("new-0", Some("b0")).cpu(2000).build(),
            pod("new-1", Some("b0")).cpu(2000).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let baseline = what_if(&index, &Scenario::Baseline, &[]);
    assert_eq!(baseline.demand.cpu_millis(), 4000, "only the live pods");
    let report = what_if(&index, &lose_zone("a"), &[]);
    assert_eq!(report.displaced_pods, 0, "nothing to re-place");
    assert_eq!(report.headroom.cpu_millis(), baseline.headroom.cpu_millis());
    // On a node that counts, a pod being deleted still holds what it asked for.
    let c = cluster(
        vec![node("b0", "b").build()],
        vec![
            pod("old", Some("b0"))
                .cpu(2000)
                .phase(PodPhase::Terminating)
                .build(),
        ],
    );
    let index = ClusterIndex::new(&c, &config);
    assert_eq!(
        what_if(&index, &Scenario::Baseline, &[])
            .demand
            .cpu_millis(),
        2000
    );
}

#[test]
fn losing_a_zone_already_down_changes_nothing() {
    // Zone b is down; its database pod is held there by its volume, its web pod is not.
    let c = cluster(
        vec![node("a0", "a").build(), node("b0", "b").not_ready().build()],
        vec![
            pod("db", Some("b0"))
                .cpu(1000)
                .domain("topology.kubernetes.io/zone", "b")
                .build(),
            pod("web", Some("b0")).cpu(2000).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let baseline = what_if(&index, &Scenario::Baseline, &[]);
    assert_eq!(
        baseline.demand.cpu_millis(),
        2000,
        "the web pod needs a place; the database waits for its zone"
    );
    let lost = what_if(&index, &lose_zone("b"), &[]);
    assert_eq!(lost.headroom, baseline.headroom, "nothing more is lost");
    assert_eq!(lost.unplaced_pods(), 1, "the database is reported stranded");
}

#[test]
fn a_gang_after_a_what_if_finds_neither_the_lost_nodes_nor_the_gpus_re_placed_pods_took() {
    use crate::model::capacity::{GangRequest, gang_fit, gpu_shape, gpu_shape_after};
    let c = gpu_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let four = GangRequest::parse("4xnvidia.com/gpu").expect("gang");
    // Today b-gpu0 and b-gpu1 each have 4 free.
    assert_eq!(gang_fit(&gpu_shape(&index, &[]), &four).nodes_that_fit, 2);
    // Losing b-gpu0: its 4-GPU pod moves to b-gpu1's 4 free GPUs, so no node has 4 left.
    let lose_b0 = Scenario::LoseNodes(vec![NodeName::from("b-gpu0")]);
    let after = gpu_shape_after(&index, &lose_b0, &[]);
    assert_eq!(gang_fit(&after, &four).nodes_that_fit, 0);
    assert_eq!((after.free_gpus, after.total_gpus), (0, 24));
    // Losing zone b: both nodes with room are gone.
    let after = gpu_shape_after(&index, &lose_zone("b"), &[]);
    assert_eq!(gang_fit(&after, &four).nodes_that_fit, 0);
    assert_eq!(after.total_gpus, 16);
    // Losing the cluster leaves nothing.
    let after = gpu_shape_after(&index, &Scenario::LoseCluster, &[]);
    assert_eq!((after.total_gpus, after.per_node.len()), (0, 0));
}

#[test]
fn zone_loss_whose_gpu_pods_cannot_be_placed() {
    let c = gpu_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    // Three displaced: two 8-GPU trainers (b nodes have 4 free each) and the web pod.
    assert_eq!((report.displaced_pods, report.placed_pods), (3, 1));
    assert_eq!(report.unplaced.len(), 1);
    let group = &report.unplaced[0];
    assert_eq!(
        (&*group.namespace, &*group.owner.kind, &*group.owner.name),
        ("ml", "Deployment", "trainer")
    );
    assert_eq!(group.pods, 2);
    assert_eq!(group.reason, UnplacedReason::Insufficient(Dimension::Gpu));
    assert_eq!(group.requests.gpu(), 16);
    // GPU headroom: 16 allocatable in b − (8 in use + 16 unplaced) = −8.
    assert_eq!(report.allocatable.gpu(), 16);
    assert_eq!(report.headroom.gpu(), -8);

    let sentences: Vec<String> = cluster_report(&c, &config, &[])
        .limits
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(sentences.contains(
        &"GPU: 2 pods cannot be re-placed after losing zone a (largest group Deployment ml/trainer: no eligible node has enough free GPU)"
            .to_owned()
    ), "{sentences:?}");
    assert!(
        sentences.contains(
            &"GPU: N−1 zone headroom is negative (−8 GPUs) after losing zone a".to_owned()
        )
    );
    // Baseline: 8 free (4 + 4) but no node has 8.
    assert!(sentences.contains(&"GPU: 8 free but no node has 8 (largest gang 4)".to_owned()));
}

#[test]
fn dedication_taints_are_honoured_through_tolerations() {
    // The GPU nodes are healthy (nvidia.com/gpu is a dedication taint) but a pod
    // without the toleration may not go there: losing the CPU node strands it.
    let c = gpu_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    assert!(index.node_health().iter().all(NodeHealth::is_healthy));
    let mut pods = c.pods.clone();
    pods.push(pod("plain", Some("b-cpu")).cpu(100).build());
    let c2 = cluster(c.nodes.clone(), pods);
    let index2 = ClusterIndex::new(&c2, &config);
    let report = what_if(&index2, &Scenario::LoseNodes(names(&["b-cpu"])), &[]);
    assert_eq!(report.unplaced[0].reason, UnplacedReason::NoEligibleNode);
}

#[test]
fn problem_taints_make_a_node_unhealthy() {
    let c = cluster(
        vec![
            node("sick", "a")
                .taint("node.kubernetes.io/unreachable", TaintEffect::NoExecute)
                .build(),
            node("odd", "a")
                .taint("example.com/unknown", TaintEffect::NoSchedule)
                .build(),
            node("soft", "a")
                .taint("example.com/prefer", TaintEffect::PreferNoSchedule)
                .build(),
            node("down", "a").not_ready().build(),
            node("maint", "a").in_maintenance().build(),
        ],
        vec![],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    assert_eq!(
        index.node_health(),
        &[
            NodeHealth::Tainted("node.kubernetes.io/unreachable".into()),
            NodeHealth::Tainted("example.com/unknown".into()),
            NodeHealth::Healthy,
            NodeHealth::NotReady,
            NodeHealth::UnderMaintenance,
        ]
    );
    // Only "soft" counts: 16 cores.
    assert_eq!(
        what_if(&index, &Scenario::Baseline, &[])
            .allocatable
            .cpu_millis(),
        16_000
    );
}

#[test]
fn node_selectors_restrict_re_placement() {
    // Pool "big" pods may only go to pool "big"; the only other big node is full.
    let c = cluster(
        vec![
            node("big0", "a").cpu(8000).label("pool", "big").build(),
            node("big1", "b").cpu(8000).label("pool", "big").build(),
            node("small", "b").cpu(8000).label("pool", "small").build(),
        ],
        vec![
            pod("x", Some("big0"))
                .cpu(4000)
                .select("pool", "big")
                .build(),
            pod("y", Some("big1"))
                .cpu(6000)
                .select("pool", "big")
                .build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    // x needs 4000m; big1 has 2000m free; small (8000m free) is not eligible.
    assert_eq!(report.unplaced_pods(), 1);
    assert_eq!(
        report.unplaced[0].reason,
        UnplacedReason::Insufficient(Dimension::Cpu)
    );
    // Without the selector it would have fit on "small".
    let mut free_pods = c.pods.clone();
    free_pods[0] = pod("x", Some("big0")).cpu(4000).build();
    let c2 = cluster(c.nodes.clone(), free_pods);
    let index2 = ClusterIndex::new(&c2, &config);
    assert_eq!(what_if(&index2, &lose_zone("a"), &[]).unplaced_pods(), 0);
}

#[test]
fn required_node_affinity_restricts_re_placement_to_any_of_its_terms() {
    // x needs pool gpu or pool big; zone b has only pool cpu nodes, and zone c a big one.
    let nodes = |with_big: bool| {
        let mut nodes = vec![
            node("gpu0", "a").cpu(8000).label("pool", "gpu").build(),
            node("cpu0", "b").cpu(8000).label("pool", "cpu").build(),
        ];
        if with_big {
            nodes.push(node("big0", "c").cpu(8000).label("pool", "big").build());
        }
        nodes
    };
    let x = || {
        pod("x", Some("gpu0"))
            .cpu(2000)
            .affinity(&[("pool", &["gpu"]), ("pool", &["big"])])
    };
    let config = CapacityConfig::default();
    let c = cluster(nodes(false), vec![x().build()]);
    let report = what_if(&ClusterIndex::new(&c, &config), &lose_zone("a"), &[]);
    assert_eq!(report.unplaced_pods(), 1);
    assert_eq!(report.unplaced[0].reason, UnplacedReason::NoEligibleNode);
    let c = cluster(nodes(true), vec![x().build()]);
    let report = what_if(&ClusterIndex::new(&c, &config), &lose_zone("a"), &[]);
    assert_eq!(report.unplaced_pods(), 0, "the second term admits big0");
}

#[test]
fn required_topology_domain_pins_pods_to_their_zone() {
    // A pod with a zonal volume in zone a cannot follow the zone's loss to b.
    let c = cluster(
        vec![node("a0", "a").build(), node("b0", "b").build()],
        vec![
            pod("db-0", Some("a0"))
                .owner("data", "StatefulSet", "db")
                .cpu(1000)
                .domain("topology.kubernetes.io/zone", "a")
                .build(),
            pod("web", Some("a0")).cpu(1000).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    assert_eq!(report.placed_pods, 1);
    assert_eq!(report.unplaced.len(), 1);
    assert_eq!(&*report.unplaced[0].owner.name, "db");
    assert_eq!(
        report.unplaced[0].reason,
        UnplacedReason::VolumeDomainLost(RequiredDomain::one(
            "topology.kubernetes.io/zone".into(),
            "a".into()
        ))
    );
    assert_eq!(
        report.unplaced[0].reason.to_string(),
        "its volume keeps it in topology.kubernetes.io/zone=a, where no healthy node is left"
    );
}

#[test]
fn a_regional_volume_lets_its_pod_move_to_the_other_zone_only() {
    // db-0's regional disk lives in zones a and b. Losing a, it moves to b; losing a and
    // b strands it although c0 is free.
    let db = || {
        pod("db-0", Some("a0"))
            .owner("data", "StatefulSet", "db")
            .cpu(1000)
            .domains("topology.kubernetes.io/zone", &["a", "b"])
            .build()
    };
    let c = cluster(
        vec![
            node("a0", "a").build(),
            node("c0", "c").build(),
            node("b0", "b").build(),
        ],
        vec![db()],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    assert_eq!((report.placed_pods, report.unplaced_pods()), (1, 0));
    let c_only = what_if(&index, &Scenario::LoseNodes(names(&["a0", "b0"])), &[]);
    assert_eq!(c_only.unplaced_pods(), 1);
    assert_eq!(
        c_only.unplaced[0].reason.to_string(),
        "its volume keeps it in topology.kubernetes.io/zone in (a, b), where no healthy node is left"
    );
    assert_eq!(c_only.short_pods(), 0, "stranded, not short of capacity");
    // With b full, the pod is short of CPU in its own domain, not stranded: c's free
    // CPU does not help it.
    let full_b = cluster(
        vec![
            node("a0", "a").build(),
            node("c0", "c").build(),
            node("b0", "b").cpu(1000).build(),
        ],
        vec![db(), pod("web", Some("b0")).cpu(1000).build()],
    );
    let report = what_if(&ClusterIndex::new(&full_b, &config), &lose_zone("a"), &[]);
    assert_eq!(report.unplaced_pods(), 1);
    assert_eq!(
        report.unplaced[0].reason,
        UnplacedReason::Insufficient(Dimension::Cpu)
    );
}

#[test]
fn pods_stranded_with_their_volume_are_reported_but_not_counted_as_missing_capacity() {
    let db = || {
        pod("db-0", Some("a0"))
            .owner("data", "StatefulSet", "db")
            .cpu(3000)
            .domain("kubernetes.io/hostname", "a0")
            .build()
    };
    let web = || pod("web", Some("a0")).cpu(1000).build();
    let nodes = || {
        vec![
            node("a0", "a")
                .label("kubernetes.io/hostname", "a0")
                .build(),
            node("b0", "b")
                .label("kubernetes.io/hostname", "b0")
                .build(),
        ]
    };
    let config = CapacityConfig::default();
    let maintenance = Scenario::MaintenanceBatch(names(&["a0"]));
    let with_db = cluster(nodes(), vec![db(), web()]);
    let report = what_if(&ClusterIndex::new(&with_db, &config), &maintenance, &[]);
    assert_eq!(
        report.unplaced_pods(),
        1,
        "the local-volume pod waits for a0"
    );
    assert_eq!(report.short_pods(), 0, "nothing lacks capacity");
    assert!(report.unplaced[0].reason.is_stranded());
    // Its requests are not counted against what is left: the same headroom as without it.
    let without = cluster(nodes(), vec![web()]);
    let baseline = what_if(&ClusterIndex::new(&without, &config), &maintenance, &[]);
    assert_eq!(report.headroom, baseline.headroom);
    assert_eq!(report.placed_pods, 1);
}

#[test]
fn a_pinned_pod_whose_domain_is_left_but_full_is_short_of_resources() {
    // Zone a keeps a node, but it is full: the pod is short of CPU there, not lost.
    let c = cluster(
        vec![
            node("a0", "a").build(),
            node("a1", "a").cpu(1000).build(),
            node("b0", "b").build(),
        ],
        vec![
            pod("db-0", Some("a0"))
                .owner("data", "StatefulSet", "db")
                .cpu(2000)
                .domain("topology.kubernetes.io/zone", "a")
                .build(),
        ],
    );
    let config = CapacityConfig::default();
    let report = what_if(
        &ClusterIndex::new(&c, &config),
        &Scenario::LoseNodes(names(&["a0"])),
        &[],
    );
    assert_eq!(report.unplaced_pods(), 1);
    assert!(
        matches!(report.unplaced[0].reason, UnplacedReason::Insufficient(_)),
        "{:?}",
        report.unplaced[0].reason
    );
}

#[test]
fn daemonset_and_terminated_pods_are_not_displaced() {
    let c = cluster(
        vec![node("a0", "a").build(), node("b0", "b").build()],
        vec![
            pod("ds", Some("a0"))
                .owner("kube-system", "DaemonSet", "cni")
                .cpu(100)
                .build(),
            pod("done", Some("a0"))
                .cpu(5000)
                .phase(PodPhase::Succeeded)
                .build(),
            pod("bare", Some("a0")).cpu(1000).bare().build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &lose_zone("a"), &[]);
    assert_eq!((report.displaced_pods, report.placed_pods), (1, 1));
    assert_eq!(
        report.staying_pods, 1,
        "the DaemonSet pod goes with its node"
    );
    assert_eq!(what_if(&index, &lose_zone("b"), &[]).staying_pods, 0);
    assert_eq!(what_if(&index, &Scenario::LoseCluster, &[]).staying_pods, 1);
    // Demand after the loss: only the bare pod (1000m); the DaemonSet pod leaves with
    // its node and the finished pod holds nothing.
    assert_eq!(report.demand.cpu_millis(), 1000);
}

#[test]
fn losing_the_whole_cluster_strands_every_movable_pod() {
    let c = three_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &Scenario::LoseCluster, &[]);
    assert_eq!(report.lost_nodes, 6);
    assert_eq!(report.displaced_pods, 8);
    assert_eq!(report.placed_pods, 0);
    assert_eq!(report.unplaced[0].reason, UnplacedReason::ClusterLost);
    assert_eq!(report.unplaced_pods(), 8);
    assert_eq!(
        report.allocatable,
        crate::model::fleet::ResourceVector::ZERO
    );
    assert_eq!(report.headroom.cpu_millis(), -8000);
}

#[test]
fn maintenance_batch_and_reservations() {
    let c = three_zones();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    // Drain a0 while b0 and b1 are reserved by another approved batch.
    let reserved = names(&["b0", "b1"]);
    let report = what_if(
        &index,
        &Scenario::MaintenanceBatch(names(&["a0"])),
        &reserved,
    );
    // Targets: a1, c0, c1 (3 × 4000m = 12000m). a0's two pods fit (a1 has 2000m free).
    assert_eq!(report.placed_pods, 2);
    assert_eq!(report.allocatable.cpu_millis(), 12_000);
    // Demand: 2 (a1) + 2 (c) + 2 (moved) + 2 still on reserved b nodes = 8000m.
    assert_eq!(report.demand.cpu_millis(), 8000);
    assert_eq!(report.headroom.cpu_millis(), 4000);
    // Reserved nodes never receive pods.
    let moves = planned_moves(
        &index,
        &Scenario::MaintenanceBatch(names(&["a0"])),
        &reserved,
    );
    assert!(moves.iter().all(|m| m.node.as_str() == "a1"));
}

#[test]
fn safety_reserve_reduces_headroom() {
    // Two 10-core nodes, 7.5 cores used on each: 20000m allocatable, 15000m demand.
    let c = cluster(
        vec![
            node("n0", "a").cpu(10_000).build(),
            node("n1", "b").cpu(10_000).build(),
        ],
        vec![
            pod("p0", Some("n0")).cpu(7500).build(),
            pod("p1", Some("n1")).cpu(7500).build(),
        ],
    );
    let mut config = CapacityConfig {
        safety_reserve: SafetyReserve {
            cpu_percent: 10,
            ..SafetyReserve::NONE
        },
        ..CapacityConfig::default()
    };
    let index = ClusterIndex::new(&c, &config);
    let report = what_if(&index, &Scenario::Baseline, &[]);
    // 20000 − 15000 − 2000 (10%) = 3000m.
    assert_eq!(report.reserve.cpu_millis(), 2000);
    assert_eq!(report.headroom.cpu_millis(), 3000);

    config.safety_reserve.cpu_percent = 30;
    let report = cluster_report(&c, &config, &[]);
    // 20000 − 15000 − 6000 = −1000m.
    assert_eq!(report.baseline.headroom.cpu_millis(), -1000);
    let first = report.limits[0].to_string();
    assert_eq!(
        first,
        "CPU: headroom is negative (−1 core) even with nothing lost"
    );
}

#[test]
fn pending_pods_count_as_demand() {
    let c = cluster(
        vec![node("n0", "a").cpu(4000).build()],
        vec![
            pod("p", None).cpu(3000).build(),
            pod("q", Some("ghost")).cpu(500).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    // A pending pod and a pod on a node we do not know both need room: 4000 − 3500.
    assert_eq!(
        what_if(&index, &Scenario::Baseline, &[])
            .headroom
            .cpu_millis(),
        500
    );
}

#[test]
fn long_node_lists_are_matched_too() {
    // 20 named nodes (hashed lookup) lose the same pods as a zone loss.
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for i in 0..40 {
        let name = format!("n{i}");
        nodes.push(
            node(&name, if i < 20 { "a" } else { "b" })
                .cpu(2000)
                .build(),
        );
        pods.push(pod(&format!("p{i}"), Some(&name)).cpu(500).build());
    }
    let c = cluster(nodes, pods);
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let lost: Vec<NodeName> = (0..20)
        .map(|i| NodeName::from(format!("n{i}").as_str()))
        .collect();
    let by_name = what_if(&index, &Scenario::LoseNodes(lost), &[]);
    let by_zone = what_if(&index, &lose_zone("a"), &[]);
    assert_eq!(
        (
            by_name.lost_nodes,
            by_name.displaced_pods,
            by_name.placed_pods
        ),
        (20, 20, 20)
    );
    assert_eq!(by_name.headroom, by_zone.headroom);
    // 20 × 2000 − 40 × 500 = 20000m.
    assert_eq!(by_name.headroom.cpu_millis(), 20_000);
}

#[test]
fn a_pod_whose_volumes_cannot_be_read_has_an_unknown_answer_not_a_free_move() {
    let mut c = cluster(
        vec![node("a0", "a").build(), node("b0", "b").build()],
        vec![
            pod("db-0", Some("a0"))
                .owner("data", "StatefulSet", "db")
                .cpu(1000)
                .mounts_claims()
                .build(),
            pod("web", Some("a0")).cpu(1000).build(),
            // Not displaced: its answer is not asked.
            pod("db-1", Some("b0"))
                .owner("data", "StatefulSet", "db")
                .cpu(1000)
                .mounts_claims()
                .build(),
        ],
    );
    let config = CapacityConfig::default();
    // Volumes read: db-0 is known to be unpinned and moves.
    let report = what_if(&ClusterIndex::new(&c, &config), &lose_zone("a"), &[]);
    assert_eq!(report.unknown_pods(), 0);
    c.volumes_unreadable = Some("persistentvolumes cannot be read (forbidden)".into());
    let report = what_if(&ClusterIndex::new(&c, &config), &lose_zone("a"), &[]);
    assert_eq!(report.unknown_pods(), 1);
    assert_eq!(&*report.unknown[0].owner.name, "db");
    assert_eq!(
        report.unknown[0].reason.to_string(),
        "it mounts volumes and persistentvolumes cannot be read (forbidden): whether it can move is unknown"
    );
    // A maintenance batch of the node asks the same question.
    let batch = Scenario::MaintenanceBatch(names(&["a0"]));
    assert_eq!(
        what_if(&ClusterIndex::new(&c, &config), &batch, &[]).unknown_pods(),
        1
    );
}
