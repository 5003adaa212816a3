use super::*;
use crate::model::ledger::{LedgerContext, read_ledger};
use crate::model::rollout::read_rollout;

fn ledger(text: &str) -> Ledger {
    let report = read_ledger(
        text,
        &LedgerContext {
            today: jiff::civil::date(2026, 12, 1),
            is_known_zone: &|_| true,
        },
    );
    report.ledger.expect("valid ledger")
}

#[test]
fn sizes_round_never_vanish_and_the_last_stage_takes_the_rest() {
    use StageSize::*;
    assert_eq!(
        stage_sizes(
            &[
                Count(1),
                Count(3),
                Count(10),
                Percent(10.0),
                Count(56),
                Count(100),
                Rest
            ],
            300
        ),
        vec![1, 3, 10, 30, 56, 100, 100]
    );
    // 0.1% of 40 rounds to 0 but a stage never stays empty while targets remain.
    assert_eq!(
        stage_sizes(&[Percent(0.1), Percent(50.0), Count(1)], 40),
        vec![1, 20, 19]
    );
    // Targets run out: later stages are empty, never negative.
    assert_eq!(stage_sizes(&[Count(5), Count(5), Rest], 3), vec![3, 0, 0]);
    assert_eq!(stage_sizes(&[Count(2)], 7), vec![7]);
}

#[test]
fn the_300_cluster_example_plans_1_3_10_30_56_100_100() {
    let spec = read_rollout(include_str!("../../../examples/rollout-300.yaml"))
        .spec
        .expect("valid rollout");
    let ledger = ledger(include_str!("../../../examples/ledger-300.yaml"));
    let plan = plan_rollout(&spec, &ledger).expect("plan");
    let sizes: Vec<usize> = plan.stages.iter().map(PlannedStage::size).collect();
    assert_eq!(sizes, vec![1, 3, 10, 30, 56, 100, 100]);
    assert_eq!(plan.targets, 300);
    // Every stage of representative canaries tests only combinations new to the rollout,
    // as long as untested ones remain.
    for stage in plan.stages.iter().take(3) {
        assert_eq!(
            stage.newly_covered.len(),
            stage.size().min(stage.untested_before.len())
        );
    }
    // Untested combinations shrink by what each stage newly covers.
    for pair in plan.stages.windows(2) {
        assert_eq!(
            pair[1].untested_before.len(),
            pair[0].untested_before.len() - pair[0].newly_covered.len()
        );
    }
    assert_eq!(plan.stages[0].untested_before.len(), plan.combinations);
    // Budgets: at most 20 in flight, 6 per region, 3 per failure domain per batch.
    for stage in &plan.stages {
        for batch in &stage.batches {
            assert!(batch.len() <= 20);
            let mut region: BTreeMap<&str, usize> = BTreeMap::new();
            let mut domain: BTreeMap<&str, usize> = BTreeMap::new();
            for id in batch {
                let c = ledger.cluster(&id.0).expect("in ledger");
                *region.entry(&c.region).or_default() += 1;
                *domain.entry(&c.failure_domain).or_default() += 1;
            }
            assert!(region.values().all(|&n| n <= 6), "{region:?}");
            assert!(domain.values().all(|&n| n <= 3), "{domain:?}");
        }
    }
}

#[test]
fn lowest_tier_first_takes_the_least_critical_and_unknown_tiers_last() {
    let text = "\
apiVersion: fleetdeck.dev/v1
kind: Ledger
labelDictionary:
  env: [production, staging]
  tier: [critical, standard, best-effort]
clusters:
  - {id: a, context: a, env: staging, region: r, failureDomain: f, tier: critical, owner: o, lifecycle: building}
  - {id: b, context: b, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building}
  - {id: c, context: c, env: staging, region: r, failureDomain: f, tier: best-effort, lifecycle: building}
  - {id: d, context: d, env: staging, region: r, failureDomain: f, tier: best-effort, lifecycle: building}
";
    let ledger = ledger(text);
    let spec_text = "\
apiVersion: fleetdeck.dev/v1
kind: Rollout
release: {name: r, bundle: {cni: x}, action: {apply: {directory: m}}, checks: []}
targets: ''
stages:
  - {name: first, count: 3, batchSize: 1, pick: lowestTierFirst}
  - {name: rest, batchSize: 1}
budgets: {maxInFlight: 1}
";
    let spec = read_rollout(spec_text).spec.expect("valid");
    let plan = plan_rollout(&spec, &ledger).expect("plan");
    let first: Vec<&str> = plan.stages[0]
        .batches
        .iter()
        .flatten()
        .map(|c| c.0.as_str())
        .collect();
    assert_eq!(first, vec!["c", "d", "b"]);
    assert_eq!(plan.stages[1].batches, vec![vec![ClusterId("a".into())]]);
}

#[test]
fn no_target_is_an_error_not_an_empty_plan() {
    let ledger = ledger(include_str!("../../../examples/ledger-300.yaml"));
    let mut spec = read_rollout(include_str!("../../../examples/rollout-300.yaml"))
        .spec
        .expect("valid");
    spec.targets = "region=mars".into();
    assert_eq!(
        plan_rollout(&spec, &ledger),
        Err(PlanError::NoTargets("region=mars".into()))
    );
}

#[test]
fn combinations_are_reached_by_verified_clusters_only() {
    let spec = read_rollout(include_str!("../../../examples/rollout-300.yaml"))
        .spec
        .expect("valid rollout");
    let ledger = ledger(include_str!("../../../examples/ledger-300.yaml"));
    let plan = plan_rollout(&spec, &ledger).expect("plan");
    assert!(
        plan.reached(&ledger, |_| false).is_empty(),
        "nothing verified"
    );
    // The canary verified: its stage's one combination, nothing of the next stage's.
    let canary = plan.stages[0].batches[0][0].clone();
    let reached = plan.reached(&ledger, |id| *id == canary);
    assert_eq!(reached.len(), 1);
    assert_eq!(reached[0].0, plan.stages[0].name);
    let canary_combo = ledger.cluster(&canary.0).map(Combination::of);
    assert_eq!(Some(reached[0].1), canary_combo.as_ref());
    // Everything verified: every combination the plan names.
    assert_eq!(plan.reached(&ledger, |_| true).len(), plan.combinations);
}

#[test]
fn canaries_are_picked_by_what_runs_where_it_differs_from_the_ledger() {
    // By the ledger, a, b and c run one combination and d another: a canary stage of two
    // takes a and d. Live, b runs a newer kernel (and c the ledger's with a build suffix,
    // which matches): the canaries must cover b's kernel, the one the ledger hides.
    let text = "\
apiVersion: fleetdeck.dev/v1
kind: Ledger
labelDictionary:
  env: [staging]
  tier: [standard]
clusters:
  - {id: a, context: a, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.31.4, kernel: 6.1.0-28}}
  - {id: b, context: b, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.31.4, kernel: 6.1.0-28}}
  - {id: c, context: c, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.31.4, kernel: 6.1.0-28}}
  - {id: d, context: d, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, versions: {kubernetes: v1.32.1, kernel: 6.1.0-28}}
";
    let ledger = ledger(text);
    let spec_text = "\
apiVersion: fleetdeck.dev/v1
kind: Rollout
release: {name: r, bundle: {cni: x}, action: {apply: {directory: m}}, checks: []}
targets: ''
stages:
  - {name: canary, count: 2, batchSize: 2, pick: representative}
  - {name: rest, batchSize: 2}
budgets: {maxInFlight: 2}
";
    let spec = read_rollout(spec_text).spec.expect("valid");
    let canaries = |plan: &RolloutPlan| {
        let mut ids: Vec<String> = plan.stages[0]
            .batches
            .iter()
            .flatten()
            .map(|c| c.0.clone())
            .collect();
        ids.sort();
        ids
    };
    let by_ledger = plan_rollout(&spec, &ledger).expect("plan");
    assert_eq!(canaries(&by_ledger), vec!["a", "d"]);
    assert!(by_ledger.live_drift.is_empty() && by_ledger.not_observed.is_empty());

    let seen = |kernel: &str| LiveVersions {
        kubernetes: Some("v1.31.4".into()),
        runtime: None,
        kernel: Some(kernel.into()),
    };
    let live = BTreeMap::from([
        ("a".to_string(), seen("6.1.0-28")),
        ("b".to_string(), seen("6.8.0-60")),
        ("c".to_string(), seen("6.1.0-28-cloud-amd64")),
    ]);
    let plan = plan_rollout_live(&spec, &ledger, Some(&live)).expect("plan");
    let picked = canaries(&plan);
    assert!(picked.contains(&"b".to_string()), "{picked:?}");
    assert_eq!(
        plan.combinations, 3,
        "b's kernel is a combination of its own"
    );
    assert_eq!(plan.live_drift.len(), 1, "{:?}", plan.live_drift);
    assert_eq!(plan.live_drift[0].cluster.0, "b");
    assert_eq!(
        plan.live_drift[0].differences(),
        "kernel 6.8.0-60 (ledger 6.1.0-28)"
    );
    assert_eq!(plan.not_observed, vec![ClusterId("d".into())]);
}
