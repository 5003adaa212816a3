//! What needs a person, read from the journal's projection for the first screen: the
//! header's counts (batches awaiting approval, halted rollouts, stuck steps) and the
//! ledger's IN FLIGHT per cluster, kept as facts (run, node, step, status) so that a
//! narrow column shortens it by meaning — the node and its step before the run's id.

use crate::i18n::Lang;
use crate::t;
use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::model::rollout::BatchPhase;
use crate::model::run::{PauseScope, Projection, RunId, RunStatus, StepStatus};

use super::theme::Slot;

/// How many things wait for a person, fleet-wide.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Urgent {
    /// Rollout batches awaiting approval.
    pub awaiting_approval: usize,
    /// Rollouts halted by a gate or a failed check.
    pub halted: usize,
    /// Maintenance steps stuck past their deadline.
    pub stuck: usize,
}

impl Urgent {
    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        *self == Urgent::default()
    }
}

/// Counts what waits for a person in `projection` (finished and aborted runs left out).
pub fn urgent(projection: &Projection) -> Urgent {
    let mut out = Urgent::default();
    for run in projection.runs.values() {
        if run.status.is_final() {
            continue;
        }
        if run.is_rollout() {
            out.awaiting_approval += run
                .rollout
                .batches
                .values()
                .filter(|p| **p == BatchPhase::AwaitingApproval)
                .count();
            out.halted += usize::from(matches!(run.status, RunStatus::Halted { .. }));
            continue;
        }
        out.stuck += run
            .items
            .values()
            .filter_map(|item| item.current_step().map(|(_, step)| &step.status))
            .filter(|status| matches!(status, StepStatus::Blocked { .. }))
            .count();
    }
    out
}

/// What is changing on one cluster, as the journal says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InFlight {
    /// The run changing it.
    pub run: Option<RunId>,
    /// What the run does there.
    pub doing: Doing,
    /// Why the cluster is frozen, when it is: it takes no change, whatever is in flight.
    pub frozen: Option<String>,
}

/// What a run does on a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Doing {
    /// A rollout applies its release here.
    Applying,
    /// A rollout verifies its release here.
    Verifying,
    /// A rollout halted; `here` when its halt names this cluster.
    Halted {
        /// Whether the halt names this cluster.
        here: bool,
    },
    /// A maintenance stands at a node's step.
    Step {
        /// The node.
        node: String,
        /// The step.
        step: String,
        /// Its status.
        status: StepStatus,
        /// Since when.
        since: Timestamp,
    },
    /// A maintenance between steps, in this run status.
    Run(&'static str),
    /// Nothing runs; the cluster is frozen.
    Nothing,
}

/// Changes in flight per cluster id: rollouts applying, verifying or halted there,
/// maintenances at a node's step, and frozen clusters.
pub fn in_flight(projection: &Projection) -> BTreeMap<String, InFlight> {
    let mut out = BTreeMap::new();
    for run in projection.runs.values() {
        if run.status.is_final() {
            continue;
        }
        if run.is_rollout() {
            let halt_names: Vec<&str> = run
                .rollout
                .halted
                .as_ref()
                .map(|why| why.clusters())
                .unwrap_or_default();
            let halted = matches!(run.status, RunStatus::Halted { .. });
            for (cluster, item) in &run.items {
                let here = halt_names.contains(&cluster.as_str());
                let touched = item.staged.is_some() || item.applied.is_some();
                let doing = match (&item.applied, &item.verified) {
                    // A halted rollout stays on the clusters it reached: nothing moves
                    // there until a person resumes or aborts it.
                    _ if halted && (here || touched) => Doing::Halted { here },
                    (_, Some(_)) => continue,
                    (Some(_), None) => Doing::Verifying,
                    (None, None) if !item.open_intents.is_empty() => Doing::Applying,
                    (None, None) => continue,
                };
                out.insert(
                    cluster.0.clone(),
                    InFlight {
                        run: Some(run.id.clone()),
                        doing,
                        frozen: None,
                    },
                );
            }
            continue;
        }
        let Some(cluster) = &run.cluster else {
            continue;
        };
        let current = run.items.iter().find_map(|(item, view)| {
            let (step, at) = view.current_step()?;
            (!matches!(at.status, StepStatus::Succeeded)).then(|| Doing::Step {
                node: item.0.clone(),
                step: step.to_string(),
                status: at.status.clone(),
                since: at.since,
            })
        });
        out.insert(
            cluster.to_string(),
            InFlight {
                run: Some(run.id.clone()),
                doing: current.unwrap_or(Doing::Run(run.status.word())),
                frozen: None,
            },
        );
    }
    for pause in projection.pauses.values() {
        if let PauseScope::Cluster { cluster } = &pause.scope {
            out.entry(cluster.to_string())
                .or_insert(InFlight {
                    run: None,
                    doing: Doing::Nothing,
                    frozen: None,
                })
                .frozen = Some(pause.reason.clone());
        }
    }
    out
}

impl InFlight {
    /// The slot it is drawn in: a halt or a stuck step stands out.
    pub fn slot(&self) -> Slot {
        match &self.doing {
            Doing::Halted { .. } => Slot::Critical,
            Doing::Step { status, .. } if status.needs_person() => Slot::Critical,
            _ if self.frozen.is_some() => Slot::Paused,
            _ => Slot::Warn,
        }
    }

    /// The text for `cluster`'s row in `width` cells: the longest of its forms that fits,
    /// from `fra1-cpu-b00 Drain STUCK 25m · mnt-kernel-1` down to `STUCK`. A node is named
    /// without its cluster's id in front (`n001` on `prod-use1-02`): the row says which.
    pub fn text(&self, lang: Lang, cluster: &str, now: Timestamp, width: usize) -> String {
        let run = self.run.as_ref().map(|r| r.0.as_str());
        let mut forms: Vec<String> = Vec::new();
        let with_run = |what: &str| match run {
            Some(run) => format!("{what} · {run}"),
            None => what.to_owned(),
        };
        match &self.doing {
            Doing::Applying => {
                let word = t!(lang, "attn-applying");
                forms.extend([with_run(&word), word]);
            }
            Doing::Verifying => {
                let word = t!(lang, "attn-verifying");
                forms.extend([with_run(&word), word]);
            }
            Doing::Halted { here: true } => {
                let here = t!(lang, "attn-halted-here");
                forms.extend([with_run(&here), here, t!(lang, "attn-halted-short")]);
            }
            Doing::Halted { here: false } => {
                let word = t!(lang, "attn-halted");
                forms.extend([with_run(&word), word]);
            }
            Doing::Step {
                node,
                step,
                status,
                since,
            } => {
                let age = crate::model::duration::age(now, *since);
                let state = match status {
                    StepStatus::Blocked { .. } => t!(lang, "attn-stuck", age = age),
                    StepStatus::HandedOff { to, .. } => format!("→{to}"),
                    StepStatus::Failed { .. } => t!(lang, "attn-failed"),
                    other => other.word().to_owned(),
                };
                let node = short_node(node, cluster);
                let word = state.split(' ').next().unwrap_or_default().to_owned();
                forms.extend([
                    with_run(&format!("{node} {step} {state}")),
                    format!("{node} {step} {state}"),
                    format!("{node} {step} {word}"),
                    format!("{node} {state}"),
                    format!("{node} {word}"),
                    word,
                ]);
            }
            Doing::Run(word) => forms.extend([with_run(word), (*word).to_owned()]),
            Doing::Nothing => {}
        }
        if let Some(reason) = &self.frozen {
            let inner = forms.clone();
            let frozen = t!(lang, "attn-frozen");
            forms = inner.iter().map(|f| format!("{frozen} · {f}")).collect();
            if inner.is_empty() {
                forms.push(t!(lang, "attn-frozen-because", reason = reason));
            }
            forms.push(frozen);
        }
        forms
            .into_iter()
            .find(|f| unicode_width::UnicodeWidthStr::width(f.as_str()) <= width)
            .unwrap_or_default()
    }
}

/// `node` without `cluster-` in front (`prod-use1-02-n001` on `prod-use1-02` is `n001`).
fn short_node<'n>(node: &'n str, cluster: &str) -> &'n str {
    node.strip_prefix(cluster)
        .and_then(|rest| rest.strip_prefix('-'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::Projection;

    fn fixture() -> Projection {
        Projection::replay(&crate::fixtures::console::journal_events())
    }

    #[test]
    fn the_fixture_journal_has_a_batch_to_approve_and_two_stuck_steps() {
        let u = urgent(&fixture());
        assert_eq!(
            u,
            Urgent {
                awaiting_approval: 1,
                halted: 0,
                // One of the two stuck steps was handed off: it is a person's now.
                stuck: 1,
            }
        );
    }

    #[test]
    fn a_maintenance_reads_as_its_node_and_step_before_its_run() {
        let flight = in_flight(&fixture());
        let fra = &flight["eu-fra-prod-01"];
        let now = crate::fixtures::console::now();
        assert_eq!(
            fra.text(Lang::En, "eu-fra-prod-01", now, 60),
            "fra1-cpu-b00 Drain STUCK 25m · mnt-kernel-1"
        );
        assert_eq!(
            fra.text(Lang::En, "eu-fra-prod-01", now, 30),
            "fra1-cpu-b00 Drain STUCK 25m"
        );
        assert_eq!(
            fra.text(Lang::En, "eu-fra-prod-01", now, 24),
            "fra1-cpu-b00 Drain STUCK"
        );
        assert_eq!(
            fra.text(Lang::En, "eu-fra-prod-01", now, 20),
            "fra1-cpu-b00 STUCK"
        );
        assert_eq!(fra.text(Lang::En, "eu-fra-prod-01", now, 8), "STUCK");
        // In Chinese the same forms, the state in Chinese, the node and step as they are.
        let zh = fra.text(Lang::ZhCn, "eu-fra-prod-01", now, 60);
        assert!(zh.starts_with("fra1-cpu-b00 Drain 卡住 "), "{zh}");
        assert_eq!(fra.text(Lang::ZhCn, "eu-fra-prod-01", now, 8), "卡住");
        assert_eq!(short_node("prod-use1-02-n001", "prod-use1-02"), "n001");
        assert_eq!(short_node("fra1-cpu-b00", "eu-fra-prod-01"), "fra1-cpu-b00");
    }

    #[test]
    fn rollout_clusters_being_changed_halted_and_frozen_clusters_are_in_flight() {
        use crate::model::ledger::ClusterId;
        use crate::model::rollout::{HaltReason, ReleaseDigest};
        use crate::model::run::{Actor, EventBody, EventLog, IdempotencyKey, ItemId, NewEvent};
        let mut log = EventLog(crate::fixtures::console::journal_events());
        let at = crate::fixtures::console::now();
        let mut applied = NewEvent::new(
            at,
            Actor("executor/e1".into()),
            IdempotencyKey("applied".into()),
            EventBody::ItemApplied {
                digest: ReleaseDigest("sha256:ab".into()),
            },
        )
        .with_run(RunId("ro-cni-1".into()));
        applied.item = Some(ItemId::from("ap-sg-prod-01"));
        log.push(applied);
        log.push(
            NewEvent::new(
                at,
                Actor("bob@ops".into()),
                IdempotencyKey("freeze".into()),
                EventBody::Paused {
                    scope: PauseScope::Cluster {
                        cluster: ClusterId("us-west-dev-01".into()),
                    },
                    reason: "registry outage".into(),
                },
            )
            .with_cluster(ClusterId("us-west-dev-01".into())),
        );
        let now = crate::fixtures::console::now();
        let flight = in_flight(&Projection::replay(&log.0));
        let text = |id: &str| flight.get(id).map(|f| f.text(Lang::En, id, now, 40));
        assert_eq!(
            text("ap-sg-prod-01").as_deref(),
            Some("verifying · ro-cni-1")
        );
        assert_eq!(
            text("us-west-dev-01").as_deref(),
            Some("frozen: registry outage")
        );
        // The rollout halts, naming the cluster it applied to: the ledger says so
        // instead of `-` (a halted rollout is still on its clusters).
        log.push(
            NewEvent::new(
                at,
                Actor("executor/e1".into()),
                IdempotencyKey("halt".into()),
                EventBody::RolloutHalted {
                    batch: 1,
                    why: HaltReason::FailedClusters {
                        failed: vec!["ap-sg-prod-01".into()],
                        finished: 2,
                        limit: crate::model::rollout::FailedLimit::Count(1),
                    },
                },
            )
            .with_run(RunId("ro-cni-1".into())),
        );
        let projection = Projection::replay(&log.0);
        let flight = in_flight(&projection);
        let halted = &flight["ap-sg-prod-01"];
        assert_eq!(
            halted.text(Lang::En, "ap-sg-prod-01", now, 40),
            "HALTED here · ro-cni-1"
        );
        assert_eq!(halted.slot(), Slot::Critical);
        assert_eq!(urgent(&projection).halted, 1);
    }
}
