use crate::fixtures::capacity::*;
use crate::model::capacity::*;
use crate::model::fleet::Dimension;

#[test]
fn worst_failure_domain_per_dimension() {
    // Zone a: two 4-core nodes; zones b and c: one each. Every node runs two 1-core
    // pods with 1 GiB each; nodes have 16 GiB.
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for (name, zone) in [("a0", "a"), ("a1", "a"), ("b0", "b"), ("c0", "c")] {
        nodes.push(node(name, zone).cpu(4000).mem_gi(16).build());
        for j in 0..2 {
            pods.push(
                pod(&format!("{name}-{j}"), Some(name))
                    .cpu(1000)
                    .mem_gi(1)
                    .build(),
            );
        }
    }
    let c = cluster(nodes, pods);
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&c, &config);
    let n1 = n_minus_one(&index, &[]);
    assert_eq!(n1.per_domain.len(), 3);
    // Lose a: 8000m left, 8000m demand → 0 (the four pods fill b0 and c0 exactly).
    // Lose b or c: 12000m left, 8000m demand → 4000m.
    let cpu: Vec<i64> = n1
        .per_domain
        .iter()
        .map(|r| r.headroom.cpu_millis())
        .collect();
    assert_eq!(cpu, vec![0, 4000, 4000]);
    assert!(n1.per_domain.iter().all(|r| r.unplaced.is_empty()));
    let worst = n1.worst_for(&Dimension::Cpu).expect("cpu");
    assert_eq!((&*worst.domain, worst.headroom), ("a", 0));
    // Memory: lose a → 32 GiB − 8 GiB = 24 GiB; worst is a.
    let worst_mem = n1.worst_for(&Dimension::Memory).expect("memory");
    assert_eq!((&*worst_mem.domain, worst_mem.headroom), ("a", 24 * GI));
    assert_eq!(n1.nodes_without_domain, 0);
}

#[test]
fn negative_n_minus_one_memory_is_explained() {
    // eu-west-1a: one 32 GiB node running 20 GiB; eu-west-1b: one 40 GiB node running
    // 20 + 4 GiB. Demand is 44 GiB.
    // Lose 1b: 32 GiB left → −12 GiB (the 4 GiB pod fits, the 20 GiB one is stranded).
    // Lose 1a: 40 GiB left → −4 GiB. Worst: 1b.
    let c = cluster(
        vec![
            node("n-a", "eu-west-1a").mem_gi(32).build(),
            node("n-b", "eu-west-1b").mem_gi(40).build(),
        ],
        vec![
            pod("p1", Some("n-a")).mem_gi(20).build(),
            pod("p2", Some("n-b"))
                .owner("shop", "StatefulSet", "cache")
                .mem_gi(20)
                .build(),
            pod("p3", Some("n-b")).mem_gi(4).build(),
        ],
    );
    let config = CapacityConfig::default();
    let report = cluster_report(&c, &config, &[]);
    let worst = report
        .n_minus_one
        .worst_for(&Dimension::Memory)
        .expect("memory");
    assert_eq!((&*worst.domain, worst.headroom), ("eu-west-1b", -12 * GI));
    let sentences: Vec<String> = report.limits.iter().map(ToString::to_string).collect();
    assert!(
        sentences.contains(
            &"memory: N−1 zone headroom is negative (−12 GiB) after losing zone eu-west-1b"
                .to_owned()
        ),
        "{sentences:?}"
    );
    assert!(
        sentences.iter().any(
            |s| s.starts_with("memory: 1 pod cannot be re-placed after losing zone eu-west-1a")
        )
    );
}

#[test]
fn missing_failure_domain_label_is_unknown_not_fine() {
    let mut n = node("n", "a").build();
    n.labels = crate::model::fleet::Labels::default();
    let c = cluster(vec![n], vec![]);
    let report = cluster_report(&c, &CapacityConfig::default(), &[]);
    assert!(report.n_minus_one.per_domain.is_empty());
    assert_eq!(report.n_minus_one.nodes_without_domain, 1);
    assert_eq!(
        report.limits[0].to_string(),
        "N−1: no node carries topology.kubernetes.io/zone, so failure-domain headroom is unknown"
    );
}

#[test]
fn per_domain_capacity_as_it_stands() {
    let c = cluster(
        vec![
            node("a0", "a").cpu(4000).build(),
            node("a1", "a").cpu(4000).cordoned().build(),
            node("b0", "b").cpu(2000).build(),
        ],
        vec![pod("p", Some("a0")).cpu(1500).build()],
    );
    let config = CapacityConfig::default();
    let domains = domain_capacity(&ClusterIndex::new(&c, &config), &[]);
    let rows: Vec<(Option<&str>, u32, u32, i64, i64)> = domains
        .iter()
        .map(|d| {
            (
                d.domain.as_deref(),
                d.nodes,
                d.healthy_nodes,
                d.allocatable.cpu_millis(),
                d.free.cpu_millis(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![(Some("a"), 2, 1, 4000, 2500), (Some("b"), 1, 1, 2000, 2000)]
    );
}

#[test]
fn between_equal_headroom_the_worst_loss_is_the_one_that_strands_more_pods() {
    // Three 8-GPU nodes, one per zone. a and c each run a 6-GPU job, b two 4-GPU jobs.
    // Losing any zone leaves −4 GPUs of headroom (free 2 + 2 or 0 + 2, less what was
    // displaced), but losing b strands two jobs where a or c strands one.
    let nodes = vec![
        node("a1", "a").gpus(8).build(),
        node("b1", "b").gpus(8).build(),
        node("c1", "c").gpus(8).build(),
    ];
    let pods = vec![
        pod("job-a", Some("a1")).gpus(6).build(),
        pod("job-b0", Some("b1")).gpus(4).build(),
        pod("job-b1", Some("b1")).gpus(4).build(),
        pod("job-c", Some("c1")).gpus(6).build(),
    ];
    let view = cluster(nodes, pods);
    let config = CapacityConfig::default();
    let index = ClusterIndex::new(&view, &config);
    let n1 = n_minus_one(&index, &[]);
    let headrooms: Vec<i64> = n1
        .per_domain
        .iter()
        .map(|r| r.headroom.get(&Dimension::Gpu))
        .collect();
    assert_eq!(headrooms, [-4, -4, -4]);
    let worst = n1.worst_for(&Dimension::Gpu).expect("GPU worst");
    assert_eq!((&*worst.domain, worst.headroom), ("b", -4));
}
