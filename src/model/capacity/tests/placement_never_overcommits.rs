//! Property: re-placement never pushes any node past its allocatable in any dimension,
//! never uses an ineligible or unhealthy node, and accounts for every displaced pod.

use proptest::prelude::*;

use crate::fixtures::capacity::*;
use crate::model::capacity::whatif::place;
use crate::model::capacity::*;
use crate::model::fleet::{ClusterView, NodeName, ResourceVector, TaintEffect};

fn arb_cluster() -> impl Strategy<Value = (ClusterView, Vec<bool>)> {
    let nodes = prop::collection::vec(
        (
            0u8..3,
            2000i64..16000,
            4i64..32,
            prop::sample::select(vec![0i64, 2, 4, 8]),
            0u8..4,
            4i64..24,
            0u8..10,
        ),
        1..12,
    );
    let pods = prop::collection::vec(
        (
            0usize..12,
            0i64..2000,
            0i64..4,
            prop::sample::select(vec![0i64, 0, 0, 0, 1, 2, 4, 8]),
            0u8..8,
            any::<bool>(),
            0u8..6,
        ),
        0..40,
    );
    let lost = prop::collection::vec(any::<bool>(), 12);
    (nodes, pods, lost).prop_map(|(nodes, pods, lost)| {
        let node_count = nodes.len();
        let nodes: Vec<_> = nodes
            .into_iter()
            .enumerate()
            .map(|(i, (zone, cpu, mem, gpus, pool, max_pods, health))| {
                let mut b = node(&format!("n{i}"), ["a", "b", "c"][zone as usize])
                    .cpu(cpu)
                    .mem_gi(mem)
                    .gpus(gpus)
                    .mig("1g.5gb", if pool == 3 { 3 } else { 0 })
                    .label("pool", ["x", "y", "z", "m"][pool as usize]);
                if gpus > 0 {
                    b = b.taint("nvidia.com/gpu", TaintEffect::NoSchedule);
                }
                match health {
                    0 => b = b.cordoned(),
                    1 => b = b.taint("node.kubernetes.io/not-ready", TaintEffect::NoExecute),
                    _ => {}
                }
                let mut n = b.build();
                n.allocatable
                    .set(crate::model::fleet::Dimension::Pods, max_pods);
                n
            })
            .collect();
        let pods = pods
            .into_iter()
            .enumerate()
            .map(|(i, (on, cpu, mem, gpus, selector, tolerate, mig))| {
                let mut b = pod(&format!("p{i}"), Some(&format!("n{}", on % node_count)))
                    .owner("ns", "ReplicaSet", &format!("o{}", i % 5))
                    .cpu(cpu)
                    .mem_gi(mem)
                    .gpus(gpus)
                    .mig("1g.5gb", i64::from(mig == 0));
                if selector < 3 {
                    b = b.select("pool", ["x", "y", "z"][selector as usize]);
                }
                if tolerate || gpus > 0 {
                    b = b.tolerate("nvidia.com/gpu");
                }
                b.build()
            })
            .collect();
        (cluster(nodes, pods), lost[..node_count].to_vec())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn re_placement_never_overcommits((c, lost) in arb_cluster()) {
        let config = CapacityConfig::default();
        let index = ClusterIndex::new(&c, &config);
        let lost_names: Vec<NodeName> = c
            .nodes
            .iter()
            .zip(&lost)
            .filter(|(_, l)| **l)
            .map(|(n, _)| n.name.clone())
            .collect();
        let scenario = Scenario::LoseNodes(lost_names);
        let placement = place(&index, &scenario, &[]);

        // Recompute each node's load independently: resident pods plus placed ones.
        let mut placed_load = vec![ResourceVector::ZERO; c.nodes.len()];
        for &(p, n) in &placement.assigned {
            let n = n as usize;
            let pod = &c.pods[p as usize];
            prop_assert!(placement.target[n], "placed on a non-target node");
            prop_assert!(!lost[n]);
            prop_assert!(crate::model::capacity::feasibility::admits(pod, &c.nodes[n].labels, &c.nodes[n].taints));
            placed_load[n].add_assign(&pod.requests);
        }
        for (n, node) in c.nodes.iter().enumerate() {
            if placed_load[n] == ResourceVector::ZERO {
                continue;
            }
            let mut resident = ResourceVector::ZERO;
            for pod in &c.pods {
                if pod.node.as_ref() == Some(&node.name) && pod.phase.holds_resources() {
                    resident.add_assign(&pod.requests);
                }
            }
            let free_before = node.allocatable.minus(&resident);
            let free_after = free_before.minus(&placed_load[n]);
            // In every dimension a placed pod asked for, the node stays within allocatable.
            for (dim, amount) in placed_load[n].iter() {
                if amount > 0 {
                    prop_assert!(free_after.get(&dim) >= 0, "node {} over-committed in {dim}", node.name);
                }
            }
            prop_assert_eq!(&free_after, &placement.free[n]);
        }
        prop_assert_eq!(
            placement.assigned.len() + placement.unplaced.len(),
            placement.displaced as usize
        );
        let report = what_if(&index, &scenario, &[]);
        prop_assert_eq!(report.unplaced_pods() as usize, placement.unplaced.len());
        // Headroom identity: allocatable − demand − reserve.
        prop_assert_eq!(report.headroom.clone(), report.allocatable.minus(&report.demand).minus(&report.reserve));
    }
}
