//! Over 600 lines: one scenario per event family folded by the projection, on the shared
//! helpers at the top.

use super::*;
use crate::model::run::NewEvent;

struct Log {
    events: Vec<Event>,
    t: i64,
}

impl Log {
    fn new() -> Self {
        Log {
            events: Vec::new(),
            t: 1_750_000_000,
        }
    }

    fn push(&mut self, actor: &str, item: Option<&str>, step: Option<&str>, body: EventBody) {
        self.t += 1;
        let seq = Sequence(self.events.len() as i64 + 1);
        let mut e = NewEvent::new(
            Timestamp::from_second(self.t).unwrap(),
            Actor(actor.into()),
            IdempotencyKey(format!("k{}", seq.0)),
            body,
        )
        .with_run(RunId("r1".into()))
        .with_cluster(ClusterId("c1".into()));
        e.item = item.map(ItemId::from);
        e.step = step.map(StepName::from);
        self.events.push(Event {
            seq,
            token: None,
            event: e,
        });
    }

    fn plan(&mut self) {
        self.push(
            "alice@h",
            None,
            None,
            EventBody::RunPlanned {
                title: "kernel".into(),
                items: vec!["n1".into(), "n2".into()],
                batches: vec![vec!["n1".into()], vec!["n2".into()]],
                spec: Value::Null,
            },
        );
    }
}

#[test]
fn steps_intents_and_outcomes_fold_into_current_state() {
    let mut log = Log::new();
    log.plan();
    log.push(
        "alice@h",
        None,
        None,
        EventBody::RunApproved {
            batch: Some(0),
            note: "go".into(),
        },
    );
    log.push(
        "executor/a",
        Some("n1"),
        Some("Cordon"),
        EventBody::StepStatusChanged {
            status: StepStatus::Running,
        },
    );
    log.push(
        "executor/a",
        Some("n1"),
        Some("Cordon"),
        EventBody::Intent {
            action: "cordon".into(),
            detail: Value::Null,
            identity: None,
        },
    );
    let intent_key = log.events.last().unwrap().event.key.clone();
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    assert_eq!(
        item.open_intents.len(),
        1,
        "intent without outcome stays open"
    );
    assert_eq!(p.runs[&RunId("r1".into())].status, RunStatus::Running);

    log.push(
        "executor/a",
        Some("n1"),
        Some("Cordon"),
        EventBody::Outcome {
            intent: intent_key,
            ok: true,
            detail: Value::Null,
        },
    );
    log.push(
        "executor/a",
        Some("n1"),
        Some("Cordon"),
        EventBody::StepStatusChanged {
            status: StepStatus::Succeeded,
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    assert!(item.open_intents.is_empty());
    assert_eq!(item.current, Some(StepName("Cordon".into())));
    assert_eq!(
        item.steps[&StepName("Cordon".into())].status,
        StepStatus::Succeeded
    );
    assert_eq!(p.last_seq, Some(Sequence(6)));
}

#[test]
fn handoff_takeover_and_return_are_tracked_with_actor_and_note() {
    let mut log = Log::new();
    log.plan();
    let blocked = StepStatus::Blocked {
        reason: "PDB web-pdb needs 3 healthy pods and has 3".into(),
    };
    log.push(
        "executor/a",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged { status: blocked },
    );
    log.push(
        "alice@h",
        Some("n1"),
        Some("Drain"),
        EventBody::HandedOff {
            to: Actor("bob@h".into()),
            note: "PDB too strict".into(),
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    let handoff = item.handoff.as_ref().unwrap();
    assert_eq!(handoff.to, Actor("bob@h".into()));
    assert_eq!(handoff.by, Actor("alice@h".into()));
    assert_eq!(
        item.steps[&StepName("Drain".into())].status.word(),
        "handed-off"
    );

    log.push(
        "carol@h",
        Some("n1"),
        None,
        EventBody::TakenOver {
            note: "mine now".into(),
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    assert_eq!(item.handoff.as_ref().unwrap().to, Actor("carol@h".into()));
    assert_eq!(
        item.handoff.as_ref().unwrap().step,
        Some(StepName("Drain".into())),
        "takeover without a step applies to the current step"
    );

    log.push(
        "carol@h",
        Some("n1"),
        None,
        EventBody::Returned {
            outcome: ReturnOutcome::Retry,
            note: "relaxed PDB".into(),
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId("n1".into())];
    assert!(item.handoff.is_none());
    assert_eq!(
        item.steps[&StepName("Drain".into())].status,
        StepStatus::Pending
    );
}

#[test]
fn pauses_apply_by_scope_and_guard_pauses_need_a_person() {
    let mut log = Log::new();
    log.plan();
    log.push(
        "alice@h",
        None,
        None,
        EventBody::RunStatusChanged {
            status: RunStatus::Running,
        },
    );
    log.push(
        "alice@h",
        None,
        None,
        EventBody::Paused {
            scope: PauseScope::Cluster {
                cluster: ClusterId("c1".into()),
            },
            reason: "freeze".into(),
        },
    );
    let p = Projection::replay(&log.events);
    let run = &p.runs[&RunId("r1".into())];
    assert_eq!(p.effective_status(run), RunStatus::Paused);
    assert_eq!(p.pause_for(run).unwrap().reason, "freeze");
    // A fleet pause on top hides neither: both are listed, the fleet's first.
    let mut with_fleet = Log {
        events: log.events.clone(),
        t: log.t,
    };
    with_fleet.push(
        "bob@h",
        None,
        None,
        EventBody::Paused {
            scope: PauseScope::Fleet,
            reason: "incident 42".into(),
        },
    );
    let both = Projection::replay(&with_fleet.events);
    let reasons: Vec<&str> = both
        .pauses_for(&both.runs[&RunId("r1".into())])
        .iter()
        .map(|p| p.reason.as_str())
        .collect();
    assert_eq!(reasons, ["incident 42", "freeze"]);

    let zone = PauseScope::FailureDomain {
        cluster: ClusterId("c1".into()),
        domain: "zone-a".into(),
    };
    log.push(
        "fleetdeck/guard",
        None,
        None,
        EventBody::GuardTripped {
            scope: zone.clone(),
            reason: "suspect shared dependency".into(),
            not_ready: vec![],
            total: 4,
        },
    );
    log.push(
        "executor/a",
        None,
        None,
        EventBody::Resumed {
            scope: zone.clone(),
            note: "auto".into(),
        },
    );
    let p = Projection::replay(&log.events);
    assert!(
        p.domain_pause(&ClusterId("c1".into()), "zone-a").is_some(),
        "automation cannot resume a guard pause"
    );
    assert_eq!(p.ignored.len(), 1);
    assert!(
        p.domain_resumed_at.is_empty(),
        "a refused resume is not a person's decision to go on"
    );

    log.push(
        "alice@h",
        None,
        None,
        EventBody::Resumed {
            scope: zone,
            note: "switch replaced".into(),
        },
    );
    log.push(
        "alice@h",
        None,
        None,
        EventBody::Resumed {
            scope: PauseScope::Cluster {
                cluster: ClusterId("c1".into()),
            },
            note: "thaw".into(),
        },
    );
    let p = Projection::replay(&log.events);
    assert!(p.pauses.is_empty());
    // The guard counts only what happens in the zone after the person resumed it.
    let resumed = log.events.iter().rev().nth(1).map(|e| e.event.time);
    assert_eq!(
        p.domain_resumed_at
            .get(&ClusterId("c1".into()))
            .and_then(|zones| zones.get("zone-a"))
            .copied(),
        resumed
    );
    let run = &p.runs[&RunId("r1".into())];
    assert_eq!(p.effective_status(run), RunStatus::Running);
}

#[test]
fn replaying_an_overlapping_tail_does_not_double_apply() {
    let mut log = Log::new();
    log.plan();
    log.push(
        "alice@h",
        None,
        None,
        EventBody::Note {
            text: "hello".into(),
        },
    );
    let mut p = Projection::replay(&log.events);
    for e in &log.events {
        p.apply(e);
    }
    assert_eq!(p.runs[&RunId("r1".into())].notes.len(), 1);
}

#[test]
fn an_executors_record_of_an_approval_or_pause_does_not_replace_the_persons() {
    let mut log = Log::new();
    log.plan();
    let command = |log: &mut Log, actor: &str, body: EventBody| {
        log.push(actor, None, None, body);
        let last = log.events.len() - 1;
        log.events[last].event.key = IdempotencyKey(format!("cmd/{actor}/{last}"));
    };
    let approved = EventBody::RunApproved {
        batch: Some(0),
        note: "canary looks fine".into(),
    };
    command(&mut log, "bob@ops", approved.clone());
    log.push("executor@host", None, None, approved);
    let paused = EventBody::Paused {
        scope: PauseScope::Run {
            run: RunId("r1".into()),
        },
        reason: "error budget".into(),
    };
    command(&mut log, "carol@ops", paused.clone());
    log.push("executor@host", None, None, paused);
    let mut p = Projection::default();
    for e in &log.events {
        p.apply(e);
    }
    let run = &p.runs[&RunId("r1".into())];
    let approvers: Vec<&str> = run.approvals.iter().map(|a| a.0.0.as_str()).collect();
    assert_eq!(approvers, vec!["bob@ops"]);
    let pause = &p.pauses[&PauseScope::Run {
        run: RunId("r1".into()),
    }];
    assert_eq!(pause.by.0, "carol@ops");
    // A second person approving the same batch is recorded.
    command(
        &mut log,
        "dave@ops",
        EventBody::RunApproved {
            batch: Some(0),
            note: "second pair of eyes".into(),
        },
    );
    p.apply(log.events.last().unwrap());
    assert_eq!(p.runs[&RunId("r1".into())].approvals.len(), 2);
}

#[test]
fn a_hand_off_or_take_over_stays_the_persons_after_the_executor_records_it() {
    let mut log = Log::new();
    log.plan();
    let command = |log: &mut Log, actor: &str, body: EventBody| {
        log.push(actor, Some("n1"), None, body);
        let last = log.events.len() - 1;
        log.events[last].event.key = IdempotencyKey(format!("cmd/{actor}/{last}"));
    };
    let blocked = StepStatus::Blocked {
        reason: "PDB web needs 2".into(),
    };
    log.push(
        "executor@vm",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged { status: blocked },
    );
    let note = "web team scales up".to_string();
    command(
        &mut log,
        "alice@ops",
        EventBody::HandedOff {
            to: Actor("carol@ops".into()),
            note: note.clone(),
        },
    );
    let handed_at = log.events.last().map(|e| e.event.time);
    // The executor folds it and journals the step's status under its own name.
    log.push(
        "executor@vm",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("carol@ops".into()),
                note: note.clone(),
            },
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")];
    let step = &item.steps[&StepName::from("Drain")];
    assert_eq!(
        step.by.0, "alice@ops",
        "set by the person who handed it off"
    );
    assert_eq!(Some(step.since), handed_at);
    assert_eq!(item.status_word(&step.status), "handed-off");

    // carol takes it over; the executor records that too.
    command(
        &mut log,
        "carol@ops",
        EventBody::TakenOver {
            note: "on it".into(),
        },
    );
    log.push(
        "executor@vm",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("carol@ops".into()),
                note: "on it".into(),
            },
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")];
    let step = &item.steps[&StepName::from("Drain")];
    assert_eq!(step.by.0, "carol@ops", "set by the person who took it over");
    assert_eq!(item.status_word(&step.status), "taken-over");

    // The engine's own hand-off to the on-call (a manual Maintain) stays the engine's.
    log.push(
        "executor@vm",
        Some("n1"),
        Some("Maintain"),
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("on-call".into()),
                note: "replace the disk".into(),
            },
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")];
    let step = &item.steps[&StepName::from("Maintain")];
    assert_eq!(step.by.0, "executor@vm");
    assert_eq!(item.status_word(&step.status), "handed-off");
}

#[test]
fn a_failure_a_person_returned_stays_theirs_when_the_executor_records_it() {
    let mut log = Log::new();
    log.plan();
    log.push(
        "executor/e1",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB".into(),
            },
        },
    );
    log.push(
        "dave@ops",
        Some("n1"),
        Some("Drain"),
        EventBody::Returned {
            outcome: ReturnOutcome::Abort,
            note: "bad disk".into(),
        },
    );
    let last = log.events.len() - 1;
    log.events[last].event.key = IdempotencyKey(format!("cmd/dave/{last}"));
    log.push(
        "executor/e1",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::Failed {
                error: "aborted by dave@ops: bad disk".into(),
            },
        },
    );
    let p = Projection::replay(&log.events);
    let step =
        &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")].steps[&StepName::from("Drain")];
    assert_eq!(step.by.0, "dave@ops", "who failed the node is the person");
    assert!(matches!(&step.status, StepStatus::Failed { .. }));
}

#[test]
fn a_batch_under_way_in_a_paused_run_reads_paused() {
    let mut log = Log::new();
    log.plan();
    log.push(
        "executor/e1",
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Executing,
        },
    );
    let scope = PauseScope::Run {
        run: RunId("r1".into()),
    };
    log.push(
        "bob@ops",
        None,
        None,
        EventBody::Paused {
            scope: scope.clone(),
            reason: "error budget".into(),
        },
    );
    let p = Projection::replay(&log.events);
    let run = &p.runs[&RunId("r1".into())];
    assert_eq!(p.batch_word(run, 0), "executing (paused)");
    assert_eq!(p.batch_word(run, 1), "pending");
    log.push(
        "bob@ops",
        None,
        None,
        EventBody::Resumed {
            scope,
            note: String::new(),
        },
    );
    let p = Projection::replay(&log.events);
    assert_eq!(p.batch_word(&p.runs[&RunId("r1".into())], 0), "executing");
    log.push(
        "bob@ops",
        None,
        None,
        EventBody::Aborted {
            note: "bad canary".into(),
        },
    );
    let p = Projection::replay(&log.events);
    assert_eq!(
        p.batch_word(&p.runs[&RunId("r1".into())], 0),
        "executing (aborted)"
    );
}

#[test]
fn a_rollout_clusters_failure_is_kept_until_it_is_applied_again() {
    let mut log = Log::new();
    log.plan();
    let digest = ReleaseDigest("sha256:ab".into());
    log.push(
        "executor@h",
        Some("n1"),
        None,
        EventBody::ItemStaged {
            digest: digest.clone(),
        },
    );
    log.push(
        "executor@h",
        Some("n1"),
        None,
        EventBody::StepStatusChanged {
            status: StepStatus::Failed {
                error: "cni.yaml document 1: ConfigMap kube-system/cni: forbidden".into(),
            },
        },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")];
    assert_eq!(
        item.rollout_failure(),
        Some("cni.yaml document 1: ConfigMap kube-system/cni: forbidden")
    );
    assert!(item.steps.is_empty(), "a cluster has no steps");

    log.push(
        "executor@h",
        Some("n1"),
        None,
        EventBody::ItemStaged { digest },
    );
    let p = Projection::replay(&log.events);
    let item = &p.runs[&RunId("r1".into())].items[&ItemId::from("n1")];
    assert_eq!(item.rollout_failure(), None, "applied again");
}
