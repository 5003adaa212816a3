//! Losing a whole cluster: its siblings' share, hand-computed.

use crate::fixtures::capacity::*;
use crate::model::capacity::UnplacedReason;
use crate::model::capacity::{CapacityConfig, ClusterIndex, absorb_cluster_loss, default_siblings};
use crate::model::fleet::{ClusterId, ClusterView, Dimension, RequiredDomain, TaintEffect};

fn named(id: &str, mut view: ClusterView) -> ClusterView {
    view.id = ClusterId::from(id);
    view
}

/// The cluster reports each `(namespace, ReplicaSet, Deployment)` as controlled so.
fn deployed(mut view: ClusterView, owners: &[(&str, &str, &str)]) -> ClusterView {
    for (namespace, replica_set, deployment) in owners {
        view.controllers.set(
            (*namespace).into(),
            "ReplicaSet".into(),
            (*replica_set).into(),
            Some(crate::model::fleet::OwnerRef {
                kind: "Deployment".into(),
                name: (*deployment).into(),
            }),
        );
    }
    view
}

#[test]
fn siblings_running_the_workload_take_what_fits_and_say_why_the_rest_cannot_move() {
    // The lost cluster runs three 6-core web pods, an 8-GPU job and a database whose
    // zonal volume holds it, plus a DaemonSet pod (not movable: every cluster has its own).
    let lost = deployed(
        named(
            "lost",
            cluster(
                vec![
                    node("l0", "a").build(),
                    node("l1", "a").build(),
                    node("lg", "a")
                        .gpus(8)
                        .label("pool", "gpu")
                        .taint("nvidia.com/gpu", TaintEffect::NoSchedule)
                        .build(),
                ],
                vec![
                    pod("web-0", Some("l0"))
                        .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                        .cpu(6000)
                        .build(),
                    pod("web-1", Some("l0"))
                        .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                        .cpu(6000)
                        .build(),
                    pod("web-2", Some("l1"))
                        .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                        .cpu(6000)
                        .build(),
                    pod("train", Some("lg"))
                        .owner("ml", "ReplicaSet", "train-0a1b2c3d4e")
                        .cpu(1000)
                        .gpus(8)
                        .select("pool", "gpu")
                        .tolerate("nvidia.com/gpu")
                        .build(),
                    pod("db-0", Some("l1"))
                        .owner("data", "StatefulSet", "db")
                        .cpu(1000)
                        .domain("topology.kubernetes.io/zone", "a")
                        .build(),
                    pod("proxy", Some("l1"))
                        .owner("kube-system", "DaemonSet", "proxy")
                        .cpu(100)
                        .build(),
                ],
            ),
        ),
        &[
            ("shop", "web-5f6c7d8e9a", "web"),
            ("ml", "train-0a1b2c3d4e", "train"),
        ],
    );
    // s1: one 16-core node with 10 cores in use: 6 free. It runs web (its own
    // ReplicaSet hash) but not the training job.
    let web_here = |node: &str| {
        pod("web-x", Some(node))
            .owner("shop", "ReplicaSet", "web-7d9f8c6b5d")
            .build()
    };
    let s1 = deployed(
        named(
            "s1",
            cluster(
                vec![node("s1n0", "a").build()],
                vec![
                    pod("busy", Some("s1n0")).cpu(10_000).build(),
                    web_here("s1n0"),
                ],
            ),
        ),
        &[("shop", "web-7d9f8c6b5d", "web")],
    );
    // s2: an empty 16-core node, and a GPU node with 4 GPUs (the job needs 8).
    let s2 = named(
        "s2",
        cluster(
            vec![
                node("s2n0", "a").build(),
                node("s2g0", "a")
                    .gpus(4)
                    .label("pool", "gpu")
                    .taint("nvidia.com/gpu", TaintEffect::NoSchedule)
                    .build(),
            ],
            vec![
                web_here("s2n0"),
                pod("train-y", Some("s2g0"))
                    .owner("ml", "ReplicaSet", "train-9f8e7d6c5b")
                    .tolerate("nvidia.com/gpu")
                    .build(),
            ],
        ),
    );
    let s2 = deployed(
        s2,
        &[
            ("shop", "web-7d9f8c6b5d", "web"),
            ("ml", "train-9f8e7d6c5b", "train"),
        ],
    );
    let config = CapacityConfig::default();
    let (lost, s1, s2) = (
        ClusterIndex::new(&lost, &config),
        ClusterIndex::new(&s1, &config),
        ClusterIndex::new(&s2, &config),
    );
    let report = absorb_cluster_loss(&lost, &[(&s1, &[]), (&s2, &[])]);

    // Displaced: 3 web + train + db-0 = 5 (the DaemonSet pod stays behind).
    assert_eq!(report.displaced_pods, 5);
    // Most CPU headroom first: web-0 and web-1 go to s2 (32 cores against s1's 6) and
    // fill s2n0 to 4 cores left; web-2 then finds s2n0 too full and the GPU node
    // untolerated, so s1 takes it with its 6 free cores.
    assert_eq!(report.placed_pods, 3);
    assert_eq!(report.siblings[0].placed_pods, 1);
    assert_eq!(report.siblings[1].placed_pods, 2);
    assert!(report.siblings.iter().all(|s| s.runs_any));
    // s1's CPU headroom: 16 − 10 = 6 cores before, 0 after.
    assert_eq!(
        report.siblings[0].headroom_before.get(&Dimension::Cpu),
        6000
    );
    assert_eq!(report.siblings[0].headroom_after.get(&Dimension::Cpu), 0);
    // s2's: 32 cores before (two empty 16-core nodes), 32 − 12 = 20 after.
    assert_eq!(
        report.siblings[1].headroom_before.get(&Dimension::Cpu),
        32_000
    );
    assert_eq!(
        report.siblings[1].headroom_after.get(&Dimension::Cpu),
        20_000
    );
    assert_eq!(report.siblings[1].absorbed.get(&Dimension::Cpu), 12_000);

    // The job finds a node that admits it, with 4 GPUs: GPU is what is short. The
    // database's data stays in the lost cluster.
    let reasons: Vec<(&str, &UnplacedReason)> = report
        .unplaced
        .iter()
        .map(|g| (&*g.owner.name, &g.reason))
        .collect();
    assert_eq!(report.unplaced_pods(), 2);
    assert!(
        // Named by the Deployment the cluster reports, not the ReplicaSet.
        reasons.contains(&("train", &UnplacedReason::Insufficient(Dimension::Gpu))),
        "{reasons:?}"
    );
    assert!(
        reasons.contains(&(
            "db",
            &UnplacedReason::VolumeWithLostCluster(RequiredDomain::one(
                "topology.kubernetes.io/zone".into(),
                "a".into()
            ))
        )),
        "{reasons:?}"
    );
    assert!(report.unplaced.iter().any(|g| g.reason.is_stranded()));
}

#[test]
fn failover_spreads_pods_over_the_siblings_with_most_room() {
    // Four 4-core pods, two empty 16-core siblings. First fit would stack all four on
    // the first; spreading alternates: s1 (tie, order given), s2 (16 > 12), s1 (tie at
    // 12), s2: two each, 8 cores left on both.
    let lost = named(
        "lost",
        cluster(
            vec![node("l0", "a").build()],
            (0..4)
                .map(|i| pod(&format!("web-{i}"), Some("l0")).cpu(4000).build())
                .collect(),
        ),
    );
    // Both run the workload (the fixture's ReplicaSet "app"), with nothing requested.
    let s1 = named(
        "s1",
        cluster(
            vec![node("s1n0", "a").build()],
            vec![pod("app-1", Some("s1n0")).build()],
        ),
    );
    let s2 = named(
        "s2",
        cluster(
            vec![node("s2n0", "a").build()],
            vec![pod("app-2", Some("s2n0")).build()],
        ),
    );
    // s3 is the roomiest but runs none of it: it is no sibling for this loss.
    let s3 = named(
        "s3",
        cluster(
            vec![node("s3n0", "a").build(), node("s3n1", "a").build()],
            vec![],
        ),
    );
    let config = CapacityConfig::default();
    let (lost, s1, s2, s3) = (
        ClusterIndex::new(&lost, &config),
        ClusterIndex::new(&s1, &config),
        ClusterIndex::new(&s2, &config),
        ClusterIndex::new(&s3, &config),
    );
    let report = absorb_cluster_loss(&lost, &[(&s1, &[]), (&s2, &[]), (&s3, &[])]);
    let taken: Vec<(u32, i64, bool)> = report
        .siblings
        .iter()
        .map(|s| {
            (
                s.placed_pods,
                s.headroom_after.get(&Dimension::Cpu),
                s.runs_any,
            )
        })
        .collect();
    assert_eq!(
        taken,
        vec![(2, 8000, true), (2, 8000, true), (0, 32_000, false)]
    );
}

#[test]
fn a_pod_no_sibling_node_admits_is_told_apart_from_one_that_lacks_room() {
    // The job selects pool=gpu; the only sibling runs it but has no such node, whatever
    // its room. A bare pod runs nowhere else: no sibling's traffic brings it back.
    let lost = named(
        "lost",
        cluster(
            vec![node("l0", "a").build()],
            vec![
                pod("train", Some("l0"))
                    .cpu(1000)
                    .select("pool", "gpu")
                    .build(),
                pod("debug", Some("l0")).bare().cpu(100).build(),
            ],
        ),
    );
    let sibling = named(
        "s1",
        cluster(
            vec![node("s1n0", "a").build()],
            vec![pod("app-1", None).build()],
        ),
    );
    let config = CapacityConfig::default();
    let (lost, sibling) = (
        ClusterIndex::new(&lost, &config),
        ClusterIndex::new(&sibling, &config),
    );
    let report = absorb_cluster_loss(&lost, &[(&sibling, &[])]);
    assert_eq!(report.placed_pods, 0);
    assert!(
        report.siblings[0].runs_any,
        "it runs app, though nothing fits"
    );
    let reasons: Vec<&UnplacedReason> = report.unplaced.iter().map(|g| &g.reason).collect();
    assert!(
        reasons.contains(&&UnplacedReason::NoEligibleNode),
        "{reasons:?}"
    );
    assert!(
        reasons.contains(&&UnplacedReason::NotRunElsewhere),
        "{reasons:?}"
    );
    // With no sibling at all, nothing moves either.
    let alone = absorb_cluster_loss(&lost, &[]);
    assert_eq!((alone.displaced_pods, alone.placed_pods), (2, 0));
}

#[test]
fn reserved_sibling_nodes_take_nothing() {
    // The sibling's only node is held by approved maintenance: it neither takes the pod
    // nor counts as headroom.
    let lost = named(
        "lost",
        cluster(
            vec![node("l0", "a").build()],
            vec![pod("web", Some("l0")).cpu(1000).build()],
        ),
    );
    let sibling = named(
        "s1",
        cluster(
            vec![node("s1n0", "a").build()],
            vec![pod("app-1", Some("s1n0")).build()],
        ),
    );
    let config = CapacityConfig::default();
    let (lost, sibling) = (
        ClusterIndex::new(&lost, &config),
        ClusterIndex::new(&sibling, &config),
    );
    let held = [crate::model::fleet::NodeName::from("s1n0")];
    let report = absorb_cluster_loss(&lost, &[(&sibling, &held)]);
    assert_eq!(report.placed_pods, 0);
    assert_eq!(report.siblings[0].headroom_before.get(&Dimension::Cpu), 0);
    assert_eq!(report.unplaced[0].reason, UnplacedReason::NoEligibleNode);
}

#[test]
fn default_siblings_share_environment_and_region_and_serve() {
    let ledger = crate::model::ledger::test_ledger(&[
        "id: a1, context: a1, env: staging, region: r1, failureDomain: f1, tier: standard, lifecycle: running",
        "id: a2, context: a2, env: staging, region: r1, failureDomain: f2, tier: standard, lifecycle: running",
        "id: a3, context: a3, env: staging, region: r1, failureDomain: f3, tier: standard, lifecycle: building",
        "id: b1, context: b1, env: staging, region: r2, failureDomain: f1, tier: standard, lifecycle: running",
        "id: q1, context: q1, env: qa, region: r1, failureDomain: f1, tier: standard, lifecycle: running",
        "id: a4, context: a4, env: staging, region: r1, failureDomain: f4, tier: standard, lifecycle: retiring",
        "id: a5, context: a5, env: staging, region: r1, failureDomain: f5, tier: standard, lifecycle: running",
    ]);
    assert_eq!(default_siblings("a1", &ledger), vec!["a2", "a5"]);
    assert!(default_siblings("nope", &ledger).is_empty());
}

#[test]
fn a_replica_set_named_like_a_deployment_is_not_taken_for_one() {
    // The lost cluster runs a bare ReplicaSet `llm-serve` (nobody controls it); the
    // sibling runs a Deployment `llm`. Trimming `-serve` would call them one workload.
    let lost = named(
        "lost",
        cluster(
            vec![node("l0", "a").build()],
            vec![
                pod("llm-serve-x", Some("l0"))
                    .owner("ml", "ReplicaSet", "llm-serve")
                    .cpu(1000)
                    .build(),
            ],
        ),
    );
    let sibling = deployed(
        named(
            "s1",
            cluster(
                vec![node("s1n0", "a").build()],
                vec![
                    pod("llm-y", Some("s1n0"))
                        .owner("ml", "ReplicaSet", "llm-5f6c7d8e9a")
                        .build(),
                ],
            ),
        ),
        &[("ml", "llm-5f6c7d8e9a", "llm")],
    );
    let config = CapacityConfig::default();
    let (lost, sibling) = (
        ClusterIndex::new(&lost, &config),
        ClusterIndex::new(&sibling, &config),
    );
    let report = absorb_cluster_loss(&lost, &[(&sibling, &[])]);
    assert_eq!(report.placed_pods, 0);
    assert_eq!(report.unplaced.len(), 1);
    assert_eq!(report.unplaced[0].owner.to_string(), "ReplicaSet llm-serve");
    assert_eq!(report.unplaced[0].reason, UnplacedReason::NotRunElsewhere);
}
