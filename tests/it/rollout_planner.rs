//! Property tests of the rollout planner on random ledgers: every target in exactly one
//! stage, stage sizes as declared, budgets in every batch, and representative canaries
//! never covering fewer combinations than random picks of the same size.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use fleetdeck::model::ledger::{Cluster, ClusterId, Ledger, Lifecycle, Positions};
use fleetdeck::model::rollout::{
    Approval, ApprovalPolicy, Budgets, Combination, Pick, Release, ReleaseAction, RolloutSpec,
    Stage, StageSize, StopWhen, plan_rollout, stage_sizes,
};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::SmallRng};

#[derive(Debug, Clone)]
struct Facts {
    region: u8,
    domain: u8,
    tier: u8,
    k8s: u8,
    kernel: u8,
    cni: u8,
    gpu: u8,
}

fn facts() -> impl Strategy<Value = Facts> {
    (0u8..4, 0u8..3, 0u8..3, 0u8..3, 0u8..4, 0u8..3, 0u8..4).prop_map(
        |(region, domain, tier, k8s, kernel, cni, gpu)| Facts {
            region,
            domain,
            tier,
            k8s,
            kernel,
            cni,
            gpu,
        },
    )
}

fn cluster(index: usize, f: &Facts) -> Cluster {
    let mut labels = BTreeMap::new();
    if f.gpu > 0 {
        labels.insert("accelerator".to_string(), format!("gpu-{}", f.gpu));
    }
    Cluster {
        id: ClusterId::from(format!("c{index:03}")),
        display_name: format!("c{index:03}"),
        context: format!("c{index:03}"),
        job_contexts: Default::default(),
        identity: None,
        env: "production".into(),
        region: format!("r{}", f.region),
        failure_domain: format!("r{}-{}", f.region, f.domain),
        tier: ["critical", "standard", "best-effort"][f.tier as usize].into(),
        owner: Some("o".into()),
        lifecycle: Lifecycle::Running,
        labels,
        versions: BTreeMap::from([
            ("kubernetes".to_string(), format!("v1.3{}", f.k8s)),
            ("runtime".to_string(), "containerd".to_string()),
            ("kernel".to_string(), format!("k{}", f.kernel)),
            ("cni".to_string(), format!("cni{}", f.cni)),
        ]),
        network: None,
        shared_dependencies: Vec::new(),
        backup: None,
        maintenance_window: None,
        exceptions: Vec::new(),
    }
}

fn ledger(all: &[Facts]) -> Ledger {
    Ledger {
        api_version: "fleetdeck.dev/v1".into(),
        kind: "Ledger".into(),
        label_dictionary: BTreeMap::from([(
            "tier".to_string(),
            vec!["critical".into(), "standard".into(), "best-effort".into()],
        )]),
        support_matrix: Default::default(),
        kubernetes_support: BTreeMap::new(),
        clusters: all.iter().enumerate().map(|(i, f)| cluster(i, f)).collect(),
        positions: Positions::default(),
    }
}

fn size() -> impl Strategy<Value = StageSize> {
    prop_oneof![
        (1u32..20).prop_map(StageSize::Count),
        (1u32..60).prop_map(|p| StageSize::Percent(p as f64)),
    ]
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        Just(Pick::Representative),
        Just(Pick::Ordered),
        Just(Pick::LowestTierFirst)
    ]
}

fn spec(stages: Vec<(StageSize, u32, Pick)>, budgets: Budgets) -> RolloutSpec {
    RolloutSpec {
        release: Release {
            name: "r".into(),
            bundle: BTreeMap::from([("cni".to_string(), "x".to_string())]),
            action: ReleaseAction::Apply {
                directory: "m".into(),
            },
            checks: Vec::new(),
        },
        targets: String::new(),
        stages: stages
            .into_iter()
            .enumerate()
            .map(|(i, (size, batch_size, pick))| Stage {
                name: format!("s{i}"),
                size,
                batch_size,
                soak: Duration::ZERO,
                approval: Approval::Auto,
                pick,
            })
            .collect(),
        budgets,
        stop_when: StopWhen::default(),
        approvals: ApprovalPolicy::AnyPerson,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_target_once_sizes_as_declared_and_budgets_in_every_batch(
        fleet in prop::collection::vec(facts(), 1..120),
        stages in prop::collection::vec((size(), 1u32..12, pick()), 1..6),
        max_in_flight in 1u32..15,
        per_region in prop::option::of(1u32..4),
        per_domain in prop::option::of(1u32..3),
    ) {
        let ledger = ledger(&fleet);
        let budgets = Budgets { max_in_flight, per_region, per_failure_domain: per_domain };
        let spec = spec(stages.clone(), budgets);
        let plan = plan_rollout(&spec, &ledger).expect("plan");

        // Every target exactly once.
        let mut seen = BTreeSet::new();
        for stage in &plan.stages {
            for id in stage.batches.iter().flatten() {
                prop_assert!(seen.insert(id.clone()), "{id} twice");
            }
        }
        prop_assert_eq!(seen.len(), fleet.len());

        // Sizes as declared: the rounding rule, never zero while targets remain.
        let declared: Vec<StageSize> = stages.iter().map(|s| s.0).collect();
        let expected = stage_sizes(&declared, fleet.len());
        let actual: Vec<usize> = plan.stages.iter().map(|s| s.size()).collect();
        prop_assert_eq!(&actual, &expected);
        let mut left = fleet.len();
        for (i, n) in actual.iter().enumerate() {
            if left > 0 { prop_assert!(*n > 0, "stage {i} empty with {left} left"); }
            if i + 1 < declared.len() {
                let want = match declared[i] {
                    StageSize::Count(c) => c as usize,
                    StageSize::Percent(p) => ((p * fleet.len() as f64 / 100.0).round() as usize).max(1),
                    StageSize::Rest => left,
                };
                prop_assert_eq!(*n, want.min(left));
            } else {
                prop_assert_eq!(*n, left, "the last stage takes the rest");
            }
            left -= n;
        }

        // Budgets in every batch.
        for (stage, declared) in plan.stages.iter().zip(&stages) {
            for batch in &stage.batches {
                prop_assert!(!batch.is_empty());
                prop_assert!(batch.len() as u32 <= declared.1.min(max_in_flight));
                let mut regions: BTreeMap<&str, u32> = BTreeMap::new();
                let mut domains: BTreeMap<&str, u32> = BTreeMap::new();
                for id in batch {
                    let c = ledger.cluster(&id.0).expect("known");
                    *regions.entry(&c.region).or_default() += 1;
                    *domains.entry(&c.failure_domain).or_default() += 1;
                }
                if let Some(p) = per_region { prop_assert!(regions.values().all(|&n| n <= p)); }
                if let Some(p) = per_domain { prop_assert!(domains.values().all(|&n| n <= p)); }
            }
        }
    }

    #[test]
    fn representative_canaries_cover_at_least_as_much_as_random_picks(
        fleet in prop::collection::vec(facts(), 2..150),
        canary in 1u32..12,
        seed in any::<u64>(),
    ) {
        let ledger = ledger(&fleet);
        let budgets = Budgets { max_in_flight: 100, per_region: None, per_failure_domain: None };
        let spec = spec(vec![(StageSize::Count(canary), 100, Pick::Representative), (StageSize::Rest, 100, Pick::Ordered)], budgets);
        let plan = plan_rollout(&spec, &ledger).expect("plan");
        let first = &plan.stages[0];
        let covered = first.covers.len();
        let picked = first.size();
        let all: BTreeSet<Combination> = ledger.clusters.iter().map(Combination::of).collect();
        prop_assert_eq!(covered, picked.min(all.len()), "greedy covers the most possible");
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..8 {
            let mut shuffled: Vec<&Cluster> = ledger.clusters.iter().collect();
            shuffled.shuffle(&mut rng);
            let random = fleetdeck::model::rollout::distinct(shuffled.into_iter().take(picked));
            prop_assert!(covered >= random, "representative {covered} < random {random}");
        }
        // What the plan says is untested before stage 2 is exactly what stage 1 missed.
        let missed: Vec<Combination> = all.iter().filter(|c| !first.covers.contains(c)).cloned().collect();
        prop_assert_eq!(&plan.stages[1].untested_before, &missed);
    }
}
