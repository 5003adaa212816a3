//! The rollout planner, pure: targets → stages → batches under budgets, with representative
//! canaries and the coverage each stage buys.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::Serialize;

use super::coverage::{Combination, LiveVersions, Tested};
use super::spec::{Approval, Budgets, Pick, RolloutSpec, StageSize};
use crate::model::budget::{self, Limit, Usage};
use crate::model::ledger::{Cluster, ClusterId, Ledger, Selector, SelectorError};

/// Why a rollout cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The target selector does not parse (the decoder checks it; kept total anyway).
    #[error("targets: {0}")]
    Selector(#[from] SelectorError),
    /// No ledger cluster matches the targets.
    #[error("targets `{0}` select no cluster of the ledger")]
    NoTargets(String),
}

/// The dry run: every target placed in one stage and one batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutPlan {
    /// The release's name.
    pub release: String,
    /// How many clusters the targets select.
    pub targets: usize,
    /// How many distinct combinations they run.
    pub combinations: usize,
    /// Stages in order.
    pub stages: Vec<PlannedStage>,
    /// Things worth knowing (stages left empty, a last stage larger than declared).
    pub warnings: Vec<String>,
    /// Targets whose live versions differ from the ledger's: their canaries were picked
    /// by what they run.
    pub live_drift: Vec<LiveDrift>,
    /// Targets whose live versions could not be seen, when they were asked for: picked by
    /// the ledger's versions.
    pub not_observed: Vec<ClusterId>,
}

/// A target that runs another combination than the ledger records.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveDrift {
    /// The cluster.
    pub cluster: ClusterId,
    /// What the ledger says it runs.
    pub ledger: Combination,
    /// What it was seen running.
    pub live: Combination,
}

impl LiveDrift {
    /// `kubernetes v1.31.5 (ledger v1.31.4), kernel …`: only what differs.
    pub fn differences(&self) -> String {
        self.live
            .values()
            .iter()
            .zip(self.ledger.values())
            .filter(|((_, live), (_, ledger))| live != ledger)
            .map(|((dim, live), (_, ledger))| format!("{dim} {live} (ledger {ledger})"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One stage of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedStage {
    /// The stage's name.
    pub name: String,
    /// How its clusters were chosen.
    pub pick: Pick,
    /// Whether its batches wait for a person.
    pub approval: Approval,
    /// Soak after each batch.
    #[serde(serialize_with = "crate::model::rollout::serialize_duration")]
    pub soak: Duration,
    /// Batches in order; together they hold the stage's clusters.
    pub batches: Vec<Vec<ClusterId>>,
    /// Distinct combinations among the stage's clusters.
    pub covers: Vec<Combination>,
    /// Of those, the ones no earlier stage tested.
    pub newly_covered: Vec<Combination>,
    /// Combinations of the targets still untested when the stage starts.
    pub untested_before: Vec<Combination>,
}

impl PlannedStage {
    /// How many clusters the stage holds.
    pub fn size(&self) -> usize {
        self.batches.iter().map(Vec::len).sum()
    }
}

impl RolloutPlan {
    /// The combinations a run of this plan has really reached, each with the stage that
    /// was to cover it: those that a cluster where the release `passed` verification runs
    /// (per the ledger, as the plan was made). A batch awaiting approval, applying or
    /// failed reaches nothing.
    pub fn reached(
        &self,
        ledger: &Ledger,
        passed: impl Fn(&ClusterId) -> bool,
    ) -> Vec<(&str, &Combination)> {
        let verified: BTreeSet<Combination> = self
            .stages
            .iter()
            .flat_map(|s| s.batches.iter().flatten())
            .filter(|id| passed(id))
            .filter_map(|id| ledger.cluster(&id.0))
            .map(Combination::of)
            .collect();
        self.stages
            .iter()
            .flat_map(|s| {
                s.newly_covered
                    .iter()
                    .map(move |combo| (s.name.as_str(), combo))
            })
            .filter(|(_, combo)| verified.contains(*combo))
            .collect()
    }
}

/// The size of each stage for `total` targets: as declared, percentages rounded to the
/// nearest cluster but never zero while targets remain, capped by what remains; the last
/// stage takes the rest whatever it declares.
pub fn stage_sizes(declared: &[StageSize], total: usize) -> Vec<usize> {
    let mut left = total;
    declared
        .iter()
        .enumerate()
        .map(|(index, size)| {
            let want = if index + 1 == declared.len() {
                left
            } else {
                match *size {
                    StageSize::Count(n) => n as usize,
                    StageSize::Percent(p) => {
                        let exact = p * total as f64 / 100.0;
                        (exact.round() as usize).max(1)
                    }
                    StageSize::Rest => left,
                }
            };
            let take = want.min(left);
            left -= take;
            take
        })
        .collect()
}

/// The targets of a rollout among the ledger's clusters, in ledger order.
pub fn select_targets<'a>(
    spec: &RolloutSpec,
    ledger: &'a Ledger,
) -> Result<Vec<&'a Cluster>, PlanError> {
    let selector = Selector::parse(&spec.targets)?;
    let targets: Vec<&Cluster> = ledger
        .clusters
        .iter()
        .filter(|c| selector.matches(c))
        .collect();
    if targets.is_empty() {
        return Err(PlanError::NoTargets(spec.targets.clone()));
    }
    Ok(targets)
}

/// Plans a rollout over the ledger: every target in exactly one stage and one batch.
pub fn plan_rollout(spec: &RolloutSpec, ledger: &Ledger) -> Result<RolloutPlan, PlanError> {
    plan_rollout_live(spec, ledger, None)
}

/// Plans a rollout as [`plan_rollout`] does, with each target's combination taken from
/// what it was seen running where `live` has it (cluster id → versions), so representative
/// canaries cover what actually runs; the plan names the targets that differ from the
/// ledger and, when `live` was given, those it has nothing for.
pub fn plan_rollout_live(
    spec: &RolloutSpec,
    ledger: &Ledger,
    live: Option<&BTreeMap<String, LiveVersions>>,
) -> Result<RolloutPlan, PlanError> {
    let targets = select_targets(spec, ledger)?;
    let criticality = Criticality::of(ledger);
    let seen = |c: &Cluster| live.and_then(|l| l.get(&c.id.0));
    let combos: Vec<Combination> = targets
        .iter()
        .map(|c| Combination::live(c, seen(c)))
        .collect();
    let live_drift: Vec<LiveDrift> = targets
        .iter()
        .zip(&combos)
        .filter_map(|(c, combo)| {
            let ledger = Combination::of(c);
            (ledger != *combo).then(|| LiveDrift {
                cluster: c.id.clone(),
                ledger,
                live: combo.clone(),
            })
        })
        .collect();
    let not_observed: Vec<ClusterId> = match live {
        Some(_) => targets
            .iter()
            .filter(|c| seen(c).is_none())
            .map(|c| c.id.clone())
            .collect(),
        None => Vec::new(),
    };
    let mut population: BTreeMap<&Combination, usize> = BTreeMap::new();
    for combo in &combos {
        *population.entry(combo).or_default() += 1;
    }
    let all: BTreeSet<Combination> = combos.iter().cloned().collect();
    let declared: Vec<StageSize> = spec.stages.iter().map(|s| s.size).collect();
    let sizes = stage_sizes(&declared, targets.len());
    let mut warnings = Vec::new();
    let mut remaining: Vec<usize> = (0..targets.len()).collect();
    let mut tested = Tested::default();
    let mut stages = Vec::new();
    for (index, (stage, size)) in spec.stages.iter().zip(sizes).enumerate() {
        let last = index + 1 == spec.stages.len();
        if size == 0 {
            warnings.push(format!(
                "stage \"{}\" is empty: earlier stages already hold every target",
                stage.name
            ));
        }
        if last
            && let StageSize::Count(n) = stage.size
            && n as usize != size
        {
            warnings.push(format!(
                "stage \"{}\" declares {n} cluster(s) and takes the remaining {size}",
                stage.name
            ));
        }
        let picked = match stage.pick {
            Pick::Ordered => remaining.iter().copied().take(size).collect::<Vec<_>>(),
            Pick::LowestTierFirst => {
                let mut order = remaining.clone();
                order.sort_by_key(|&i| criticality.rank(targets[i]));
                order.truncate(size);
                order
            }
            Pick::Representative => {
                representative(&remaining, size, &combos, &population, &tested, |i| {
                    criticality.rank(targets[i])
                })
            }
        };
        let untested_before: Vec<Combination> =
            all.iter().filter(|c| !tested.has(c)).cloned().collect();
        let covers: BTreeSet<Combination> = picked.iter().map(|&i| combos[i].clone()).collect();
        let newly_covered: Vec<Combination> =
            covers.iter().filter(|c| !tested.has(c)).cloned().collect();
        for combo in &covers {
            tested.add(combo);
        }
        let chosen: BTreeSet<usize> = picked.iter().copied().collect();
        remaining.retain(|i| !chosen.contains(i));
        let limits: Vec<Vec<Limit>> = picked
            .iter()
            .map(|&i| limits(targets[i], stage.batch_size, &spec.budgets))
            .collect();
        let partition = budget::partition(&limits, &Usage::default());
        let batches = partition
            .batches
            .iter()
            .map(|b| b.iter().map(|&k| targets[picked[k]].id.clone()).collect())
            .collect();
        stages.push(PlannedStage {
            name: stage.name.clone(),
            pick: stage.pick,
            approval: stage.approval,
            soak: stage.soak,
            batches,
            covers: covers.into_iter().collect(),
            newly_covered,
            untested_before,
        });
    }
    Ok(RolloutPlan {
        release: spec.release.name.clone(),
        targets: targets.len(),
        combinations: all.len(),
        stages,
        warnings,
        live_drift,
        not_observed,
    })
}

/// The budgets one cluster counts against inside a batch.
fn limits(cluster: &Cluster, batch_size: u32, budgets: &Budgets) -> Vec<Limit> {
    let total = batch_size.min(budgets.max_in_flight);
    let mut out = vec![Limit {
        key: "total".into(),
        max: total,
        reason: format!("batch of {total} full"),
    }];
    if let Some(per) = budgets.per_region {
        out.push(Limit {
            key: format!("region={}", cluster.region),
            max: per,
            reason: format!("perRegion {per} reached in {}", cluster.region),
        });
    }
    if let Some(per) = budgets.per_failure_domain {
        out.push(Limit {
            key: format!("failureDomain={}", cluster.failure_domain),
            max: per,
            reason: format!(
                "perFailureDomain {per} reached in {}",
                cluster.failure_domain
            ),
        });
    }
    out
}

/// Greedy representative pick: each next cluster brings an untested combination if any
/// is left, then the most untested single values, then the combination shared by most of
/// the fleet, then the least critical tier, then ledger order. Every cluster carries one
/// combination, so this covers min(size, untested) combinations: the most possible.
fn representative(
    remaining: &[usize],
    size: usize,
    combos: &[Combination],
    population: &BTreeMap<&Combination, usize>,
    tested_before: &Tested,
    rank: impl Fn(usize) -> usize,
) -> Vec<usize> {
    let mut tested = tested_before.clone();
    let mut left: Vec<usize> = remaining.to_vec();
    let mut picked = Vec::with_capacity(size);
    while picked.len() < size {
        let best = left.iter().enumerate().min_by_key(|&(_, &i)| {
            let combo = &combos[i];
            (
                tested.has(combo),
                Reverse(tested.new_values(combo)),
                Reverse(population.get(combo).copied().unwrap_or(0)),
                rank(i),
                i,
            )
        });
        let Some((pos, &i)) = best else {
            break;
        };
        tested.add(&combos[i]);
        picked.push(i);
        left.remove(pos);
    }
    picked
}

/// How critical a cluster's tier is, from the ledger dictionary's `tier` list (most
/// critical first). A tier the dictionary does not list counts as the most critical, so a
/// typo never moves a cluster into the canaries.
struct Criticality {
    tiers: Vec<String>,
}

impl Criticality {
    fn of(ledger: &Ledger) -> Self {
        Criticality {
            tiers: ledger
                .label_dictionary
                .get("tier")
                .cloned()
                .unwrap_or_default(),
        }
    }

    /// 0 for the least critical tier, growing with criticality.
    fn rank(&self, cluster: &Cluster) -> usize {
        match self.tiers.iter().position(|t| *t == cluster.tier) {
            Some(p) => self.tiers.len() - 1 - p,
            None => self.tiers.len(),
        }
    }
}

#[cfg(test)]
#[path = "planner_tests.rs"]
mod tests;
