use crate::fixtures::capacity::*;
use crate::model::capacity::*;
use crate::model::fleet::NodeName;

/// 8 nodes × 8 GPUs, each running one 6-GPU pod: 2 free per node, 16 free in total.
fn sixteen_free_as_two_per_node() -> crate::model::fleet::ClusterView {
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for i in 0..8 {
        let name = format!("gpu-{i}");
        let clique = if i < 4 { "clique-a" } else { "clique-b" };
        nodes.push(
            node(&name, "z1")
                .gpus(8)
                .label("nvidia.com/gpu.clique", clique)
                .taint(
                    "nvidia.com/gpu",
                    crate::model::fleet::TaintEffect::NoSchedule,
                )
                .build(),
        );
        pods.push(
            pod(&format!("train-{i}"), Some(&name))
                .owner("ml", "Job", "train")
                .gpus(6)
                .tolerate("nvidia.com/gpu")
                .build(),
        );
    }
    cluster(nodes, pods)
}

#[test]
fn sixteen_free_gpus_two_per_node_give_no_eight_gpu_slot() {
    let c = sixteen_free_as_two_per_node();
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let shape = gpu_shape(&index, &[]);
    assert_eq!(shape.total_gpus, 64);
    assert_eq!(shape.free_gpus, 16);
    assert_eq!(shape.largest_gang, 2);
    // k=1: 8×2 = 16; k=2: 8×1 = 8; k=4: 0; k=8: 0.
    let slots: Vec<(u32, i64)> = shape.slots.iter().map(|s| (s.size, s.slots)).collect();
    assert_eq!(slots, vec![(1, 16), (2, 8), (4, 0), (8, 0)]);
    assert!(shape.per_node.iter().all(|n| n.total == 8 && n.free == 2));

    // Two cliques of 4 nodes: 8 free each, no whole free node; the zone holds all 16.
    let cliques: Vec<(&str, i64, u32)> = shape
        .domains
        .iter()
        .filter(|d| &*d.key == "nvidia.com/gpu.clique")
        .map(|d| (&*d.value, d.free_gpus, d.whole_free_nodes))
        .collect();
    assert_eq!(cliques, vec![("clique-a", 8, 0), ("clique-b", 8, 0)]);
    let zone = shape
        .domains
        .iter()
        .find(|d| &*d.key == ZONE_LABEL)
        .expect("zone domain");
    assert_eq!((zone.nodes, zone.free_gpus), (8, 16));

    let eight = gang_fit(
        &shape,
        &GangRequest::parse("8xnvidia.com/gpu").expect("valid"),
    );
    assert!(!eight.fits_on_one_node());
    assert_eq!(eight.largest_on_one_node, 2);
    assert_eq!(eight.free_total, 16);
    // A multi-node job confined to one clique would find 8 in each.
    assert_eq!(eight.domains_that_fit.len(), 3);
    let two = gang_fit(
        &shape,
        &GangRequest::parse("2xnvidia.com/gpu").expect("valid"),
    );
    assert_eq!(two.nodes_that_fit, 8);

    let report = cluster_report(&c, &config, &[]);
    let sentences: Vec<String> = report.limits.iter().map(ToString::to_string).collect();
    assert!(
        sentences.contains(&"GPU: 16 free but no node has 8 (largest gang 2)".to_owned()),
        "{sentences:?}"
    );
}

#[test]
fn whole_free_nodes_per_rack() {
    // rack r1: two idle 4-GPU nodes; rack r2: one 4-GPU node with a 1-GPU pod.
    let c = cluster(
        vec![
            node("a", "z1").gpus(4).label(RACK_LABEL, "r1").build(),
            node("b", "z1").gpus(4).label(RACK_LABEL, "r1").build(),
            node("c", "z1").gpus(4).label(RACK_LABEL, "r2").build(),
        ],
        vec![pod("p", Some("c")).gpus(1).build()],
    );
    let config = CapacityConfig::default();
    let shape = gpu_shape(&ClusterIndex::new(&c, &config), &[]);
    let racks: Vec<(&str, i64, u32)> = shape
        .domains
        .iter()
        .filter(|d| &*d.key == RACK_LABEL)
        .map(|d| (&*d.value, d.free_gpus, d.whole_free_nodes))
        .collect();
    assert_eq!(racks, vec![("r1", 8, 2), ("r2", 3, 0)]);
    // Slots: k=4: 1+1+0 = 2; largest gang 4.
    assert_eq!(shape.slots[2], GangSlots { size: 4, slots: 2 });
    assert_eq!(shape.largest_gang, 4);
}

#[test]
fn time_slicing_is_deflated_to_physical_gpus() {
    // 4 physical GPUs × 4 replicas = 16 advertised shares; pods hold 5 shares.
    // Free shares 11 → ⌊11/4⌋ = 2 whole GPUs free; 4 − 2 = 2 GPUs in use.
    let c = cluster(
        vec![node("ts", "z1").gpus(16).replicas(4).build()],
        vec![
            pod("a", Some("ts")).gpus(3).build(),
            pod("b", Some("ts")).gpus(2).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let shape = gpu_shape(&index, &[]);
    assert_eq!(
        (shape.total_gpus, shape.free_gpus, shape.largest_gang),
        (4, 2, 2)
    );
    let baseline = what_if(&index, &Scenario::Baseline, &[]);
    assert_eq!(baseline.allocatable.gpu(), 4);
    assert_eq!(baseline.demand.gpu(), 2);
    assert_eq!(baseline.headroom.gpu(), 2);
}

#[test]
fn mig_slices_are_their_own_dimension() {
    let c = cluster(
        vec![node("m", "z1").mig("1g.5gb", 7).mig("3g.20gb", 2).build()],
        vec![
            pod("a", Some("m")).mig("1g.5gb", 1).build(),
            pod("b", Some("m")).mig("1g.5gb", 1).build(),
        ],
    );
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let shape = gpu_shape(&index, &[]);
    assert_eq!(shape.total_gpus, 0);
    assert_eq!(
        shape.per_node[0].mig_free,
        vec![("1g.5gb".into(), 5), ("3g.20gb".into(), 2)]
    );
    let fit = gang_fit(
        &shape,
        &GangRequest::parse("3xnvidia.com/mig-3g.20gb").expect("valid"),
    );
    assert!(!fit.fits_on_one_node());
    assert_eq!(fit.largest_on_one_node, 2);
    let baseline = what_if(&index, &Scenario::Baseline, &[]);
    let dim = crate::model::fleet::Dimension::Mig("1g.5gb".into());
    assert_eq!(baseline.headroom.get(&dim), 5);
}

#[test]
fn reserved_and_unhealthy_nodes_are_not_gpu_capacity() {
    let c = cluster(
        vec![
            node("ok", "z1").gpus(8).build(),
            node("reserved", "z1").gpus(8).build(),
            node("cordoned", "z1").gpus(8).cordoned().build(),
        ],
        vec![],
    );
    let config = CapacityConfig::default();
    let shape = gpu_shape(
        &ClusterIndex::new(&c, &config),
        &[NodeName::from("reserved")],
    );
    assert_eq!((shape.total_gpus, shape.free_gpus), (8, 8));
}
