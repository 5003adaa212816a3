//! The maintenance reducer's tests, over 600 lines: one scenario per transition on the
//! shared helpers; they split by step with the one test harness.

use super::*;
use crate::model::maintenance::MaintenanceSpec;
use crate::model::maintenance::observe::*;
use crate::model::maintenance::read_maintenance;
use crate::model::maintenance::restart::HOOK_OUTCOME_UNKNOWN;
use crate::model::run::{NodeName, RunId};
use jiff::Timestamp;

fn spec(action: &str) -> MaintenanceSpec {
    let text = format!(
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: t\ncluster: c1\nnodes: {{names: [n1]}}\n\
         action: {action}\nbudgets: {{maxUnavailable: 1}}\n\
         deadlines: {{drain: 10m, verifyNode: 10m}}\ndrain: {{evictionRetry: 20s, terminatingGrace: 2m}}\n\
         verify: {{expectedVersions: {{kernel: '6.8'}}}}\n"
    );
    read_maintenance(&text).spec.expect("test spec is valid")
}

fn exec_spec() -> MaintenanceSpec {
    spec("{exec: {argv: [/bin/patch], timeout: 20m}}")
}

struct Harness {
    spec: MaintenanceSpec,
    run: RunId,
    actor: Actor,
    now: Timestamp,
    paused: Option<String>,
    change_refused: Option<String>,
    state: NodeState,
    log: Vec<Action>,
}

impl Harness {
    fn new(spec: MaintenanceSpec) -> Self {
        Harness {
            spec,
            run: RunId("r1".into()),
            actor: Actor("executor/a".into()),
            now: Timestamp::from_second(1_750_000_000).unwrap(),
            paused: None,
            change_refused: None,
            state: NodeState::new(NodeName("n1".into())),
            log: Vec::new(),
        }
    }

    fn advance(&mut self, secs: i64) {
        self.now = self
            .now
            .checked_add(jiff::SignedDuration::from_secs(secs))
            .unwrap();
    }

    fn feed(&mut self, obs: Observation) -> Vec<Action> {
        let env = Env {
            now: self.now,
            paused: self.paused.as_deref(),
            change_refused: self.change_refused.as_deref(),
            spec: &self.spec,
            run: &self.run,
            actor: &self.actor,
        };
        let (state, actions) = step(self.state.clone(), &env, obs);
        self.state = state;
        self.log.extend(actions.clone());
        actions
    }

    fn count(&self, f: impl Fn(&Action) -> bool) -> usize {
        self.log.iter().filter(|a| f(a)).count()
    }
}

fn pod(name: &str) -> PodRef {
    PodRef {
        namespace: "web".into(),
        name: name.into(),
        uid: format!("uid-{name}"),
    }
}

fn info(name: &str, owner: PodOwner) -> PodInfo {
    PodInfo {
        pod: pod(name),
        owner,
        has_empty_dir: false,
        terminating: false,
    }
}

fn pass_report(unschedulable: bool) -> PrecheckReport {
    PrecheckReport {
        identity: CheckOutcome::Pass,
        budgets: CheckOutcome::Pass,
        pdb_headroom: CheckOutcome::Pass,
        capacity: CheckOutcome::Pass,
        guard: CheckOutcome::Pass,
        node: NodeObservation {
            ready: true,
            unschedulable,
            gpus_allocatable: 8,
            versions: Default::default(),
        },
    }
}

fn healthy_node() -> NodeObservation {
    NodeObservation {
        ready: true,
        unschedulable: true,
        gpus_allocatable: 8,
        versions: [("kernel".to_string(), "6.8".to_string())].into(),
    }
}

fn is_evict(a: &Action) -> bool {
    matches!(a, Action::Evict { .. })
}

/// Precheck passed, cordoned, pods listed: the drain has asked for evictions.
fn into_drain(h: &mut Harness, pods: Vec<PodInfo>) {
    h.feed(Observation::Tick);
    h.feed(Observation::Prechecked(pass_report(false)));
    h.feed(Observation::Cordoned(Ok(())));
    h.feed(Observation::Pods(pods));
}

#[test]
fn a_full_cycle_cordons_drains_patches_verifies_and_uncordons_once() {
    let mut h = Harness::new(exec_spec());
    assert_eq!(h.feed(Observation::Tick)[2], Action::Precheck);
    let actions = h.feed(Observation::Prechecked(pass_report(false)));
    assert!(actions.contains(&Action::Cordon));
    h.feed(Observation::Cordoned(Ok(())));
    assert_eq!(h.state.step, Step::Drain);
    let actions = h.feed(Observation::Pods(vec![
        info("web-1", PodOwner::Other),
        info("agent", PodOwner::DaemonSet),
        info("static", PodOwner::Mirror),
    ]));
    let evicted: Vec<&Action> = actions.iter().filter(|a| is_evict(a)).collect();
    assert_eq!(
        evicted.len(),
        1,
        "DaemonSet and mirror pods are left alone: {actions:?}"
    );
    h.feed(Observation::Evictions(vec![(
        pod("web-1"),
        EvictionResult::Evicted,
    )]));
    h.advance(5);
    let actions = h.feed(Observation::Pods(vec![info("agent", PodOwner::DaemonSet)]));
    assert_eq!(h.state.step, Step::Maintain);
    let Some(Action::RunHook { env, key, .. }) =
        actions.iter().find(|a| matches!(a, Action::RunHook { .. }))
    else {
        panic!("{actions:?}")
    };
    assert!(env.contains(&("FLEETDECK_NODE".into(), "n1".into())));
    assert_eq!(key.0, "r1/n1/Maintain/hook#1");
    h.feed(Observation::HookFinished(HookResult {
        exit_code: Some(0),
        timed_out: false,
        output: "patched\n".into(),
    }));
    assert_eq!(h.state.step, Step::VerifyNode);
    h.feed(Observation::Node(healthy_node()));
    let actions = h.feed(Observation::Tick);
    assert!(actions.is_empty() || h.state.step == Step::VerifyWorkloads);
    let actions = h.log.clone();
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::ObserveWorkloads { pods } if pods == &vec![pod("web-1")]))
    );
    h.feed(Observation::Workloads(WorkloadObservation::default()));
    h.feed(Observation::Uncordoned(Ok(())));
    assert_eq!(h.state.step, Step::Done);
    assert!(h.state.is_finished());
    assert_eq!(h.count(|a| *a == Action::Cordon), 1);
    assert_eq!(h.count(|a| *a == Action::Uncordon), 1);
    assert_eq!(h.count(is_evict), 1);
    // Every step start and end is told on the node.
    let events = h.count(
        |a| matches!(a, Action::EmitNodeEvent { reason, .. } if reason == NODE_EVENT_REASON),
    );
    assert_eq!(events, 7 * 2 + 1);
}

#[test]
fn a_node_cordoned_before_us_is_not_cordoned_and_stays_cordoned() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.feed(Observation::Prechecked(pass_report(true)));
    assert_eq!(h.state.cordon, CordonRecord::AlreadyCordoned);
    assert_eq!(h.state.step, Step::Drain);
    h.feed(Observation::Pods(vec![]));
    h.feed(Observation::HookFinished(HookResult {
        exit_code: Some(0),
        timed_out: false,
        output: String::new(),
    }));
    h.feed(Observation::Node(healthy_node()));
    assert_eq!(
        h.state.step,
        Step::Done,
        "no displaced pods: nothing to verify, Uncordon skipped"
    );
    assert_eq!(h.count(|a| *a == Action::Cordon), 0);
    assert_eq!(h.count(|a| *a == Action::Uncordon), 0);
    assert!(h.log.iter().any(|a| matches!(
        a,
        Action::RecordStatus {
            step: Step::Uncordon,
            status: StepStatus::Skipped
        }
    )));
}

#[test]
fn a_drain_blocked_by_a_pdb_is_stuck_with_the_numbers_then_retried_after_return() {
    let mut h = Harness::new(exec_spec());
    into_drain(
        &mut h,
        vec![
            info("web-1", PodOwner::Other),
            info("web-2", PodOwner::Other),
        ],
    );
    let pdb = EvictionResult::BlockedByPdb {
        pdb: "web-pdb".into(),
        needs: 3,
        has: 3,
    };
    h.feed(Observation::Evictions(vec![
        (pod("web-1"), pdb.clone()),
        (pod("web-2"), pdb.clone()),
    ]));
    // Retries go through the Eviction API again after the retry interval, never forced.
    h.advance(30);
    h.feed(Observation::Tick);
    let actions = h.feed(Observation::Pods(vec![
        info("web-1", PodOwner::Other),
        info("web-2", PodOwner::Other),
    ]));
    assert_eq!(actions.iter().filter(|a| is_evict(a)).count(), 2);
    h.feed(Observation::Evictions(vec![
        (pod("web-1"), pdb.clone()),
        (pod("web-2"), pdb),
    ]));
    h.advance(600);
    h.feed(Observation::Tick);
    let StepStatus::Blocked { reason } = &h.state.status else {
        panic!("{:?}", h.state.status)
    };
    assert_eq!(
        reason,
        "PDB web-pdb needs 3 healthy pods and has 3 (web/web-1, web/web-2)"
    );
    // Stuck means the engine stops asking.
    let before = h.count(is_evict);
    h.advance(60);
    h.feed(Observation::Tick);
    h.feed(Observation::Pods(vec![
        info("web-1", PodOwner::Other),
        info("web-2", PodOwner::Other),
    ]));
    assert_eq!(h.count(is_evict), before);

    h.feed(Observation::HandOff {
        to: Actor("bob@h".into()),
        by: Actor("alice@h".into()),
        note: "PDB too strict".into(),
    });
    assert!(matches!(&h.state.status, StepStatus::HandedOff { to, .. } if to.0 == "bob@h"));
    h.feed(Observation::Tick);
    assert_eq!(h.count(is_evict), before, "a handed-off item is left alone");
    h.feed(Observation::Return {
        outcome: ReturnOutcome::Retry,
        by: Actor("bob@h".into()),
        note: "relaxed PDB".into(),
    });
    assert_eq!(h.state.status, StepStatus::Running);
    let actions = h.feed(Observation::Pods(vec![
        info("web-1", PodOwner::Other),
        info("web-2", PodOwner::Other),
    ]));
    assert_eq!(actions.iter().filter(|a| is_evict(a)).count(), 2);
    h.feed(Observation::Evictions(vec![
        (pod("web-1"), EvictionResult::Evicted),
        (pod("web-2"), EvictionResult::PodGone),
    ]));
    h.feed(Observation::Pods(vec![]));
    assert_eq!(h.state.step, Step::Maintain);
}

#[test]
fn drain_reasons_group_not_terminating_pods_errors_and_empty_dir() {
    let mut h = Harness::new(exec_spec());
    let mut cache = info("cache", PodOwner::Other);
    cache.has_empty_dir = true;
    into_drain(
        &mut h,
        vec![
            info("a", PodOwner::Other),
            info("b", PodOwner::Other),
            cache.clone(),
        ],
    );
    assert_eq!(
        h.count(is_evict),
        2,
        "emptyDir pods wait for deleteEmptyDirData"
    );
    h.feed(Observation::Evictions(vec![
        (pod("a"), EvictionResult::Evicted),
        (
            pod("b"),
            EvictionResult::Error {
                message: "etcdserver: request timed out".into(),
            },
        ),
    ]));
    h.advance(601);
    h.feed(Observation::Tick);
    let StepStatus::Blocked { reason } = &h.state.status else {
        panic!()
    };
    assert_eq!(
        reason,
        "pods not terminating: web/a; eviction errors: web/b: etcdserver: request timed out; \
         pods with emptyDir data (drain.deleteEmptyDirData is false): web/cache"
    );
}

#[test]
fn no_step_starts_and_no_side_effect_is_asked_while_paused() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.paused = Some("incident 42".into());
    // The precheck answer (a call in flight) is recorded, but Cordon does not start.
    let actions = h.feed(Observation::Prechecked(pass_report(false)));
    assert_eq!(h.state.step, Step::Cordon);
    assert_eq!(h.state.status, StepStatus::Pending);
    assert!(!actions.contains(&Action::Cordon));
    h.advance(3600);
    assert!(h.feed(Observation::Tick).is_empty());
    h.paused = None;
    let actions = h.feed(Observation::Tick);
    assert!(actions.contains(&Action::Cordon));
    h.feed(Observation::Cordoned(Ok(())));
    h.feed(Observation::Pods(vec![info("web-1", PodOwner::Other)]));
    // Pause mid-drain: answers are still recorded, no new eviction goes out, and the
    // deadline clock stops.
    h.paused = Some("incident 43".into());
    h.feed(Observation::Evictions(vec![(
        pod("web-1"),
        EvictionResult::BlockedByPdb {
            pdb: "p".into(),
            needs: 1,
            has: 1,
        },
    )]));
    h.advance(3600);
    h.feed(Observation::Tick);
    let before = h.count(is_evict);
    h.feed(Observation::Pods(vec![info("web-1", PodOwner::Other)]));
    assert_eq!(h.count(is_evict), before);
    assert_eq!(
        h.state.status,
        StepStatus::Running,
        "a pause never makes a step stuck"
    );
    h.paused = None;
    h.feed(Observation::Tick);
    h.feed(Observation::Pods(vec![info("web-1", PodOwner::Other)]));
    assert_eq!(h.count(is_evict), before + 1);
    assert_eq!(h.state.status, StepStatus::Running);
}

#[test]
fn nothing_changes_a_cluster_that_may_not_be_changed_and_the_step_says_why() {
    let refusal = "identity not confirmed: cluster is Unreachable";
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.change_refused = Some(refusal.into());
    // Precheck passed (its identity check is its own), but no cordon is asked for.
    let actions = h.feed(Observation::Prechecked(pass_report(false)));
    assert_eq!(h.state.step, Step::Cordon);
    assert!(!actions.contains(&Action::Cordon), "{actions:?}");
    assert!(!h.state.call_in_flight);
    assert_eq!(
        h.state.waiting_on,
        vec![format!("cluster may not be changed: {refusal}")]
    );
    // Confirmed again: the next retry asks for it.
    h.change_refused = None;
    h.advance(20);
    assert!(h.feed(Observation::Tick).contains(&Action::Cordon));
    h.feed(Observation::Cordoned(Ok(())));
    // Refused mid-drain: no eviction goes out, and once the drain is overdue it is stuck
    // naming the refusal, not the pods.
    h.change_refused = Some(refusal.into());
    let actions = h.feed(Observation::Pods(vec![info("web-1", PodOwner::Other)]));
    assert!(!actions.iter().any(is_evict), "{actions:?}");
    h.advance(11 * 60);
    h.feed(Observation::Tick);
    assert_eq!(h.count(is_evict), 0);
    let StepStatus::Blocked { reason } = &h.state.status else {
        panic!("{:?}", h.state.status);
    };
    assert_eq!(*reason, format!("cluster may not be changed: {refusal}"));
}

#[test]
fn a_hook_held_back_by_a_refused_cluster_runs_once_it_is_confirmed() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.feed(Observation::Prechecked(pass_report(false)));
    h.feed(Observation::Cordoned(Ok(())));
    h.change_refused = Some("kube-system UID differs from the ledger's pin".into());
    // The node is drained (nothing to evict): Maintain starts, but its hook waits.
    h.feed(Observation::Pods(vec![]));
    assert_eq!(h.state.step, Step::Maintain);
    let hooks = |h: &Harness| h.count(|a| matches!(a, Action::RunHook { .. }));
    assert_eq!(hooks(&h), 0);
    h.advance(60);
    h.feed(Observation::Tick);
    assert_eq!(hooks(&h), 0);
    h.change_refused = None;
    h.advance(60);
    h.feed(Observation::Tick);
    h.advance(60);
    h.feed(Observation::Tick);
    assert_eq!(hooks(&h), 1, "asked for once, then in flight");
    assert!(h.state.call_in_flight);
}

#[test]
fn after_a_restart_a_settled_cordon_is_not_repeated() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.feed(Observation::Prechecked(pass_report(false)));
    assert_eq!(h.count(|a| *a == Action::Cordon), 1);
    let actions = h.feed(Observation::Reconciled {
        intent: Intent::Cordon,
        resolution: Resolution::Happened,
    });
    assert_eq!(h.state.step, Step::Drain);
    assert_eq!(h.state.cordon, CordonRecord::CordonedByUs);
    assert!(actions.contains(&Action::ListPods));
    assert_eq!(h.count(|a| *a == Action::Cordon), 1);
}

#[test]
fn after_a_restart_an_unsettled_cordon_is_asked_again() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    h.feed(Observation::Prechecked(pass_report(false)));
    let actions = h.feed(Observation::Reconciled {
        intent: Intent::Cordon,
        resolution: Resolution::NotDone,
    });
    assert!(actions.contains(&Action::Cordon));
}

#[test]
fn a_lost_hook_outcome_blocks_but_an_idempotent_hook_runs_again() {
    let mut h = Harness::new(exec_spec());
    into_drain(&mut h, vec![]);
    assert_eq!(h.state.step, Step::Maintain);
    let key = IdempotencyKey("r1/n1/Maintain/hook#1".into());
    h.feed(Observation::Reconciled {
        intent: Intent::Hook { key: key.clone() },
        resolution: Resolution::Blocked {
            reason: HOOK_OUTCOME_UNKNOWN.into(),
        },
    });
    assert_eq!(
        h.state.status,
        StepStatus::Blocked {
            reason: HOOK_OUTCOME_UNKNOWN.into()
        }
    );
    assert_eq!(h.count(|a| matches!(a, Action::RunHook { .. })), 1);

    let mut h = Harness::new(spec(
        "{exec: {argv: [/bin/patch], timeout: 20m, idempotent: true}}",
    ));
    into_drain(&mut h, vec![]);
    let actions = h.feed(Observation::Reconciled {
        intent: Intent::Hook { key },
        resolution: Resolution::NotDone,
    });
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::RunHook { key, .. } if key.0.ends_with("#2"))),
        "{actions:?}"
    );
}

#[test]
fn a_failed_hook_fails_the_item_and_abort_stops_it() {
    let mut h = Harness::new(exec_spec());
    into_drain(&mut h, vec![]);
    h.feed(Observation::HookFinished(HookResult {
        exit_code: Some(3),
        timed_out: false,
        output: "x\ndisk full\n".into(),
    }));
    assert_eq!(
        h.state.status,
        StepStatus::Failed {
            error: "hook exited with 3: disk full".into()
        }
    );
    assert!(h.state.is_finished());
    h.feed(Observation::Return {
        outcome: ReturnOutcome::Abort,
        by: Actor("bob@h".into()),
        note: "give up".into(),
    });
    assert!(
        matches!(&h.state.status, StepStatus::Failed { error } if error == "aborted by bob@h: give up")
    );
    assert!(h.feed(Observation::Tick).is_empty());
}

#[test]
fn a_manual_step_waits_for_a_person_and_continues_when_returned_done() {
    let mut h = Harness::new(spec("{manual: {instructions: reseat the NIC}}"));
    into_drain(&mut h, vec![]);
    assert!(h.log.contains(&Action::WaitForPerson {
        instructions: "reseat the NIC".into()
    }));
    assert!(matches!(&h.state.status, StepStatus::HandedOff { to, .. } if to.0 == ON_CALL));
    h.feed(Observation::TakeOver {
        by: Actor("carol@h".into()),
        note: "on it".into(),
    });
    assert!(matches!(&h.state.status, StepStatus::HandedOff { to, .. } if to.0 == "carol@h"));
    let actions = h.feed(Observation::Return {
        outcome: ReturnOutcome::Done,
        by: Actor("carol@h".into()),
        note: "reseated".into(),
    });
    assert_eq!(h.state.step, Step::VerifyNode);
    assert!(actions.contains(&Action::ObserveNode));
}

#[test]
fn verify_node_names_what_is_missing_at_the_deadline() {
    let mut h = Harness::new(exec_spec());
    into_drain(&mut h, vec![]);
    h.feed(Observation::HookFinished(HookResult {
        exit_code: Some(0),
        timed_out: false,
        output: String::new(),
    }));
    h.feed(Observation::Node(NodeObservation {
        ready: false,
        unschedulable: true,
        gpus_allocatable: 6,
        versions: [("kernel".to_string(), "6.5".to_string())].into(),
    }));
    h.advance(601);
    h.feed(Observation::Tick);
    assert_eq!(
        h.state.status,
        StepStatus::Blocked {
            reason: "node not Ready; kernel is 6.5, expected 6.8; GPUs allocatable 6 of 8 before maintenance".into()
        }
    );
}

#[test]
fn an_identity_mismatch_blocks_before_anything_is_touched() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    let mut report = pass_report(false);
    report.identity = CheckOutcome::Fail("kube-system UID is u2, ledger pins u1".into());
    h.feed(Observation::Prechecked(report));
    assert!(
        matches!(&h.state.status, StepStatus::Blocked { reason } if reason.starts_with("identity:"))
    );
    assert_eq!(h.count(|a| a.intent().is_some()), 0);
}

#[test]
fn failing_prechecks_are_retried_until_the_deadline() {
    let mut h = Harness::new(exec_spec());
    h.feed(Observation::Tick);
    let mut report = pass_report(false);
    report.capacity = CheckOutcome::Unknown("metrics missing".into());
    h.feed(Observation::Prechecked(report.clone()));
    assert_eq!(h.state.status, StepStatus::Running);
    h.advance(30);
    assert!(h.feed(Observation::Tick).contains(&Action::Precheck));
    h.feed(Observation::Prechecked(report));
    h.advance(300);
    h.feed(Observation::Tick);
    assert_eq!(
        h.state.status,
        StepStatus::Blocked {
            reason: "capacity: unknown (metrics missing)".into()
        }
    );
}

#[test]
fn a_call_that_cannot_be_settled_is_shown_stuck_once_its_step_is_overdue() {
    let mut h = Harness::new(exec_spec());
    into_drain(&mut h, vec![info("web-1", PodOwner::Other)]);
    assert_eq!(h.state.step, Step::Drain);
    fn env(h: &Harness) -> Env<'_> {
        Env {
            now: h.now,
            paused: None,
            change_refused: None,
            spec: &h.spec,
            run: &h.run,
            actor: &h.actor,
        }
    }
    // Within the drain deadline (10m): nothing changes, nothing is done.
    h.advance(60);
    let (state, actions) = unsettled(&h.state, &env(&h), "cluster c1 unreachable");
    assert!(actions.is_empty());
    assert_eq!(state, h.state);
    // Past it: the step is stuck with why, for a person to see.
    h.advance(11 * 60);
    let (state, actions) = unsettled(&h.state, &env(&h), "cluster c1 unreachable");
    let StepStatus::Blocked { reason } = &state.status else {
        panic!("{:?}", state.status);
    };
    assert!(
        reason.contains("cannot be settled: cluster c1 unreachable"),
        "{reason}"
    );
    assert!(!actions.is_empty(), "the status change is journaled");
    assert!(
        !actions
            .iter()
            .any(|a| matches!(a, Action::Evict { .. } | Action::Cordon | Action::Uncordon)),
        "{actions:?}"
    );
    // Stuck once: asked again, nothing more happens.
    let (again, actions) = unsettled(&state, &env(&h), "cluster c1 unreachable");
    assert!(actions.is_empty());
    assert_eq!(again, state);
}
