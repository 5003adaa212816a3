use super::*;
use crate::model::rollout::Refusal;
use crate::model::rollout::read_rollout;
use crate::model::run::{ClusterRefusal, cluster_refusal_event, refusal_event};
use crate::model::run::{Event, Sequence};

fn at(s: i64) -> Timestamp {
    Timestamp::from_second(1_750_000_000 + s).unwrap()
}

fn event(seq: i64, actor: &str, body: EventBody) -> Event {
    Event {
        seq: Sequence(seq),
        token: None,
        event: NewEvent::new(
            at(seq),
            Actor(actor.into()),
            IdempotencyKey(format!("k{seq}")),
            body,
        )
        .with_run(RunId("r1".into()))
        .with_cluster(ClusterId("c1".into())),
    }
}

fn rollout_spec() -> serde_json::Value {
    let report = read_rollout(include_str!("../../../examples/rollout.yaml"));
    crate::model::rollout::journaled_for_tests(report.spec.expect("the example rollout is valid"))
}

/// A rollout started by alice whose first batch awaits approval.
fn waiting_rollout() -> Projection {
    Projection::replay(&[
        event(
            1,
            "alice@h",
            EventBody::RunPlanned {
                title: "release".into(),
                items: vec!["c1".into(), "c2".into()],
                batches: vec![vec!["c1".into()], vec!["c2".into()]],
                spec: rollout_spec(),
            },
        ),
        event(
            2,
            "executor/x",
            EventBody::RolloutBatch {
                batch: 0,
                phase: BatchPhase::AwaitingApproval,
            },
        ),
    ])
}

#[test]
fn approval_by_the_author_is_refused_with_the_reason() {
    let projection = waiting_rollout();
    let command = OperatorCommand::Approve {
        run: RunId("r1".into()),
        batch: None,
        note: "ok".into(),
    };
    let refused = command_event(&projection, &command, &Actor("alice@h".into()), at(10), 1);
    assert!(
        matches!(
            &refused,
            Err(CommandRefusal::Approval(
                Refusal::AuthorCannotApprove { .. }
            ))
        ),
        "{refused:?}"
    );
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("distinctApprover")
    );
    let ok = command_event(&projection, &command, &Actor("bob@h".into()), at(10), 1).unwrap();
    assert_eq!(ok.actor, Actor("bob@h".into()));
    assert_eq!(ok.run, Some(RunId("r1".into())));
    assert_eq!(
        ok.body,
        EventBody::RunApproved {
            batch: Some(0),
            note: "ok".into()
        }
    );
}

#[test]
fn item_commands_name_run_item_and_cluster() {
    let projection = waiting_rollout();
    let hand_off = OperatorCommand::HandOff {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        to: Actor("carol@h".into()),
        note: "PDB needs a look".into(),
    };
    let e = command_event(&projection, &hand_off, &Actor("bob@h".into()), at(5), 1).unwrap();
    assert_eq!(e.item, Some(ItemId("c2".into())));
    assert_eq!(e.cluster, Some(ClusterId("c1".into())));
    assert!(e.key.0.starts_with("cmd/bob@h/handoff/"));
    let missing = OperatorCommand::TakeOver {
        run: RunId("r1".into()),
        item: ItemId("nope".into()),
        note: String::new(),
    };
    assert_eq!(
        command_event(&projection, &missing, &Actor("bob@h".into()), at(5), 1)
            .unwrap_err()
            .to_string(),
        "run r1 has no node nope"
    );
    // A whole run's abort names the run's cluster as well, as its pause does.
    let abort = OperatorCommand::Abort {
        run: RunId("r1".into()),
        note: "wrong firmware".into(),
    };
    let e = command_event(&projection, &abort, &Actor("bob@h".into()), at(5), 1).unwrap();
    assert_eq!(e.run, Some(RunId("r1".into())));
    assert_eq!(e.cluster, Some(ClusterId("c1".into())));
    let unknown = OperatorCommand::Abort {
        run: RunId("r9".into()),
        note: "x".into(),
    };
    assert!(matches!(
        command_event(&projection, &unknown, &Actor("bob@h".into()), at(5), 1),
        Err(CommandRefusal::NoRun(_))
    ));
}

#[test]
fn pausing_or_resuming_a_run_not_in_the_journal_is_refused() {
    let projection = waiting_rollout();
    let scope = PauseScope::Run {
        run: RunId("r9".into()),
    };
    for command in [
        OperatorCommand::Pause {
            scope: scope.clone(),
            reason: "typo".into(),
        },
        OperatorCommand::Resume {
            scope: scope.clone(),
            note: String::new(),
        },
    ] {
        assert!(matches!(
            command_event(&projection, &command, &Actor("bob@h".into()), at(5), 1),
            Err(CommandRefusal::NoRun(_))
        ));
    }
    let known = OperatorCommand::Pause {
        scope: PauseScope::Run {
            run: RunId("r1".into()),
        },
        reason: "looking".into(),
    };
    assert!(command_event(&projection, &known, &Actor("bob@h".into()), at(5), 1).is_ok());
}

#[test]
fn pauses_need_a_reason_and_carry_their_scope() {
    let projection = Projection::default();
    let empty = OperatorCommand::Pause {
        scope: PauseScope::Fleet,
        reason: "  ".into(),
    };
    assert_eq!(
        command_event(&projection, &empty, &Actor("a@h".into()), at(1), 1),
        Err(CommandRefusal::Empty("the reason"))
    );
    let cluster = OperatorCommand::Pause {
        scope: PauseScope::Cluster {
            cluster: ClusterId("c7".into()),
        },
        reason: "freeze".into(),
    };
    let e = command_event(&projection, &cluster, &Actor("a@h".into()), at(1), 1).unwrap();
    assert_eq!(e.cluster, Some(ClusterId("c7".into())));
    assert!(cluster.describe().contains("nothing is undone"));
    // A run's pause names the run and its cluster, so a filter by cluster finds it.
    let run = OperatorCommand::Pause {
        scope: PauseScope::Run {
            run: RunId("r1".into()),
        },
        reason: "looks odd".into(),
    };
    let e = command_event(&waiting_rollout(), &run, &Actor("a@h".into()), at(3), 1).unwrap();
    assert_eq!(
        (e.run, e.cluster),
        (Some(RunId("r1".into())), Some(ClusterId("c1".into())))
    );
}

/// bob takes node `item` of r1 over.
fn take_over(projection: &mut Projection, item: &str) {
    let mut taken = event(
        3,
        "bob@h",
        EventBody::TakenOver {
            note: "mine".into(),
        },
    );
    taken.event.item = Some(ItemId(item.into()));
    projection.apply(&taken);
}

#[test]
fn only_a_node_in_a_persons_hands_can_be_returned() {
    let mut projection = waiting_rollout();
    let give_back = OperatorCommand::Return {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        outcome: ReturnOutcome::Done,
        note: "fixed".into(),
    };
    let bob = Actor("bob@h".into());
    assert!(matches!(
        command_event(&projection, &give_back, &bob, at(5), 1),
        Err(CommandRefusal::NotInHand { .. })
    ));
    take_over(&mut projection, "c2");
    assert!(command_event(&projection, &give_back, &bob, at(6), 1).is_ok());
}

#[test]
fn a_step_waiting_for_a_person_can_be_returned_without_taking_it_over() {
    // A manual step: the engine hands it to the on-call person itself.
    let mut projection = waiting_rollout();
    let mut waiting = event(
        3,
        "executor/x",
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("on-call".into()),
                note: "reseat the NIC".into(),
            },
        },
    );
    waiting.event.item = Some(ItemId("c2".into()));
    waiting.event.step = Some(crate::model::run::StepName::from("Maintain"));
    projection.apply(&waiting);
    let done = OperatorCommand::Return {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        outcome: ReturnOutcome::Done,
        note: "reseated".into(),
    };
    assert!(command_event(&projection, &done, &Actor("bob@h".into()), at(6), 1).is_ok());
}

#[test]
fn a_run_that_is_over_takes_no_return_and_no_second_abort() {
    let mut projection = waiting_rollout();
    take_over(&mut projection, "c2");
    let mut aborted = event(
        4,
        "carol@h",
        EventBody::Aborted {
            note: "wrong release".into(),
        },
    );
    aborted.event.cluster = None;
    projection.apply(&aborted);
    let bob = Actor("bob@h".into());
    let give_back = OperatorCommand::Return {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        outcome: ReturnOutcome::Done,
        note: "fixed".into(),
    };
    let refused = command_event(&projection, &give_back, &bob, at(5), 1).unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("r1 is already aborted: nothing follows on its nodes any more"),
        "{refused}"
    );
    assert!(refused.is_audited());
    // Nor a hand-off or a take-over: the record of where it stopped stays.
    let hand_off = OperatorCommand::HandOff {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        to: Actor("zed@h".into()),
        note: "yours".into(),
    };
    let refused = command_event(&projection, &hand_off, &bob, at(5), 1).unwrap_err();
    assert!(
        matches!(refused, CommandRefusal::RunOver { .. }),
        "{refused}"
    );
    let record = refusal_event(&projection, &hand_off, &bob, at(5), 1, &refused).expect("audited");
    assert_eq!(record.item, Some(ItemId("c2".into())));
    let again = OperatorCommand::Abort {
        run: RunId("r1".into()),
        note: "again".into(),
    };
    let refused = command_event(&projection, &again, &bob, at(6), 1).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "r1 is already aborted: there is nothing left to abort"
    );
    let record = refusal_event(&projection, &again, &bob, at(6), 1, &refused).expect("audited");
    assert_eq!(record.run, Some(RunId("r1".into())));
}

#[test]
fn an_empty_note_is_not_announced() {
    let resume = |note: &str| OperatorCommand::Resume {
        scope: PauseScope::Fleet,
        note: note.into(),
    };
    assert!(!resume("").describe().contains("note:"));
    assert!(
        resume("all clear")
            .describe()
            .ends_with("(note: all clear)")
    );
}

#[test]
fn an_approval_refused_for_its_clusters_is_one_audit_event_per_cluster() {
    use crate::model::rollout::check_batch_can_act;
    let run = RunId("r1".into());
    let refused = check_batch_can_act(
        0,
        &[
            (ClusterId("c1".into()), None),
            (ClusterId("c2".into()), Some("Unreachable".into())),
            (
                ClusterId("c3".into()),
                Some("the ledger pins no identity".into()),
            ),
        ],
    )
    .unwrap_err();
    let refusals = ClusterRefusal::of_approval(&run, &refused);
    assert_eq!(refusals.len(), 2, "{refusals:?}");
    let bob = Actor("bob@h".into());
    let events: Vec<NewEvent> = refusals
        .iter()
        .map(|r| cluster_refusal_event(r, &bob, at(7), 1))
        .collect();
    let first = &events[0];
    assert_eq!(first.actor, bob);
    assert_eq!(first.run, Some(run.clone()));
    assert_eq!(first.cluster, Some(ClusterId("c2".into())));
    assert_eq!(events[1].cluster, Some(ClusterId("c3".into())));
    assert!(first.key.is_command());
    assert_ne!(first.key, events[1].key, "one attempt, two distinct keys");
    let EventBody::CommandRefused { command, reason } = &first.body else {
        panic!("{:?}", first.body)
    };
    assert_eq!(command, "approve");
    assert!(
        reason.starts_with("batch 1 cannot be approved now: c2 (Unreachable) cannot take actions"),
        "each names its own cluster only: {reason}"
    );
    let EventBody::CommandRefused { reason, .. } = &events[1].body else {
        panic!()
    };
    assert!(
        reason.contains("c3 (the ledger pins no identity)") && !reason.contains("c2"),
        "{reason}"
    );
    assert_eq!(first.body.to_parts().0, "operator.refused");
    // A refusal not about clusters concerns none.
    let policy = crate::model::rollout::Refusal::AuthorCannotApprove {
        approver: Actor("alice@h".into()),
    };
    assert!(ClusterRefusal::of_approval(&run, &policy).is_empty());
}

#[test]
fn a_maintenance_start_refused_for_its_cluster_names_the_cluster_and_no_run() {
    let refusal = ClusterRefusal::start_maintenance(
        "patch",
        ClusterId("prod-03".into()),
        "Unreachable: connection refused",
    );
    let event = cluster_refusal_event(&refusal, &Actor("bob@h".into()), at(9), 1);
    assert_eq!(event.run, None);
    assert_eq!(event.cluster, Some(ClusterId("prod-03".into())));
    assert_eq!(
        event.body,
        EventBody::CommandRefused {
            command: "start-maintenance".into(),
            reason: "maintenance patch on prod-03: Unreachable: connection refused".into(),
        }
    );
}

/// Every kind of command, in shapes the rules might refuse: unknown runs and items, empty
/// texts, a node nobody holds, a batch not awaiting approval, the author approving.
fn every_kind_of_command() -> Vec<OperatorCommand> {
    let (r1, r9) = (RunId("r1".into()), RunId("r9".into()));
    let (c2, nope) = (ItemId("c2".into()), ItemId("nope".into()));
    let mut commands = Vec::new();
    for run in [&r1, &r9] {
        for text in ["", "why"] {
            for scope in [
                PauseScope::Fleet,
                PauseScope::Run { run: run.clone() },
                PauseScope::Cluster {
                    cluster: ClusterId("c1".into()),
                },
            ] {
                commands.push(OperatorCommand::Pause {
                    scope: scope.clone(),
                    reason: text.into(),
                });
                commands.push(OperatorCommand::Resume {
                    scope,
                    note: text.into(),
                });
            }
            for item in [&c2, &nope] {
                commands.push(OperatorCommand::HandOff {
                    run: run.clone(),
                    item: item.clone(),
                    to: Actor(text.into()),
                    note: text.into(),
                });
                commands.push(OperatorCommand::TakeOver {
                    run: run.clone(),
                    item: item.clone(),
                    note: text.into(),
                });
                commands.push(OperatorCommand::Return {
                    run: run.clone(),
                    item: item.clone(),
                    outcome: ReturnOutcome::Done,
                    note: text.into(),
                });
            }
            commands.push(OperatorCommand::Abort {
                run: run.clone(),
                note: text.into(),
            });
            for batch in [None, Some(0), Some(1)] {
                commands.push(OperatorCommand::Approve {
                    run: run.clone(),
                    batch,
                    note: text.into(),
                });
            }
            commands.push(OperatorCommand::Note {
                run: Some(run.clone()),
                item: Some(c2.clone()),
                cluster: None,
                text: text.into(),
            });
            commands.push(OperatorCommand::Acknowledge {
                problem: crate::model::handover::ProblemKey("step/r/c2/Drain".into()),
                title: "c2 Drain stuck in r".into(),
                extent: crate::model::handover::Extent::default(),
                run: Some(run.clone()),
                item: Some(c2.clone()),
                cluster: None,
                note: text.into(),
            });
        }
    }
    commands
}

#[test]
fn only_approvals_aborts_and_returns_are_refused_by_the_rules() {
    let projection = waiting_rollout();
    let mut audited = std::collections::BTreeSet::new();
    for command in every_kind_of_command() {
        // Every kind is listed: a new one does not compile here until it is added above.
        match &command {
            OperatorCommand::Pause { .. }
            | OperatorCommand::Resume { .. }
            | OperatorCommand::HandOff { .. }
            | OperatorCommand::TakeOver { .. }
            | OperatorCommand::Return { .. }
            | OperatorCommand::Abort { .. }
            | OperatorCommand::Approve { .. }
            | OperatorCommand::Note { .. }
            | OperatorCommand::Acknowledge { .. } => {}
        }
        for actor in ["alice@h", "bob@h", "executor/x"] {
            let actor = Actor(actor.into());
            if let Err(refusal) = command_event(&projection, &command, &actor, at(20), 1)
                && refusal.is_audited()
            {
                audited.insert(command.verb());
                assert!(
                    refusal_event(&projection, &command, &actor, at(20), 1, &refusal).is_some(),
                    "{command:?}"
                );
            }
        }
    }
    assert_eq!(
        audited.into_iter().collect::<Vec<_>>(),
        vec!["approve", "return"],
        "refusal_event addresses only these and abort (of a run that is over, not in this \
         projection); a new one needs its run and item named there"
    );
}

#[test]
fn a_refused_return_or_approval_is_about_the_run_the_command_named() {
    let projection = waiting_rollout();
    let bob = Actor("bob@h".into());
    let give_back = OperatorCommand::Return {
        run: RunId("r1".into()),
        item: ItemId("c2".into()),
        outcome: ReturnOutcome::Retry,
        note: "x".into(),
    };
    let refusal = command_event(&projection, &give_back, &bob, at(30), 1).unwrap_err();
    let event = refusal_event(&projection, &give_back, &bob, at(30), 1, &refusal).unwrap();
    assert_eq!(event.actor, bob);
    assert_eq!(event.run, Some(RunId("r1".into())));
    assert_eq!(event.item, Some(ItemId("c2".into())));
    assert_eq!(event.cluster, Some(ClusterId("c1".into())));
    assert!(event.key.0.starts_with("cmd/bob@h/refused-return/"));
    assert!(matches!(
        &event.body,
        EventBody::CommandRefused { command, reason }
            if command == "return" && reason.contains("not in a person's hands")
    ));
    let approve = OperatorCommand::Approve {
        run: RunId("r1".into()),
        batch: Some(1),
        note: "x".into(),
    };
    let refusal = command_event(&projection, &approve, &bob, at(31), 1).unwrap_err();
    let event = refusal_event(&projection, &approve, &bob, at(31), 1, &refusal).unwrap();
    assert_eq!(
        (event.run, event.item, event.cluster),
        (Some(RunId("r1".into())), None, Some(ClusterId("c1".into())))
    );
    assert!(event.key.0.starts_with("cmd/bob@h/refused-approve/"));
    // A refusal that is not audited is not recorded.
    let unknown = OperatorCommand::Abort {
        run: RunId("r9".into()),
        note: "x".into(),
    };
    let refusal = command_event(&projection, &unknown, &bob, at(32), 1).unwrap_err();
    assert!(refusal_event(&projection, &unknown, &bob, at(32), 1, &refusal).is_none());
}

#[test]
fn a_hand_off_return_or_abort_without_a_note_is_a_typing_mistake() {
    let projection = waiting_rollout();
    let (run, item) = (RunId("r1".into()), ItemId("c2".into()));
    for (command, what) in [
        (
            OperatorCommand::HandOff {
                run: run.clone(),
                item: item.clone(),
                to: Actor("carol@h".into()),
                note: " ".into(),
            },
            "the note",
        ),
        (
            OperatorCommand::Return {
                run: run.clone(),
                item: item.clone(),
                outcome: ReturnOutcome::Done,
                note: String::new(),
            },
            "the note",
        ),
        (
            OperatorCommand::Abort {
                run: run.clone(),
                note: String::new(),
            },
            "the reason",
        ),
    ] {
        let refusal = command_event(&projection, &command, &Actor("bob@h".into()), at(5), 1);
        assert_eq!(refusal, Err(CommandRefusal::Empty(what)), "{command:?}");
        assert!(!CommandRefusal::Empty(what).is_audited());
    }
}

#[test]
fn an_approval_says_a_pause_still_holds_the_run() {
    let approve = OperatorCommand::Approve {
        run: RunId("r1".into()),
        batch: Some(1),
        note: String::new(),
    };
    assert_eq!(
        approve.describe(),
        "approve batch 2 of r1: its clusters start, unless a pause holds the run"
    );
}
