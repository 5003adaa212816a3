use super::*;
use crate::model::rollout::read_rollout;
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
    let refused = command_event(&projection, &command, &Actor("alice@h".into()), at(10));
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
    let ok = command_event(&projection, &command, &Actor("bob@h".into()), at(10)).unwrap();
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
    let e = command_event(&projection, &hand_off, &Actor("bob@h".into()), at(5)).unwrap();
    assert_eq!(e.item, Some(ItemId("c2".into())));
    assert_eq!(e.cluster, Some(ClusterId("c1".into())));
    assert!(e.key.0.starts_with("cmd/bob@h/handoff/"));
    let missing = OperatorCommand::TakeOver {
        run: RunId("r1".into()),
        item: ItemId("nope".into()),
        note: String::new(),
    };
    assert_eq!(
        command_event(&projection, &missing, &Actor("bob@h".into()), at(5))
            .unwrap_err()
            .to_string(),
        "run r1 has no node nope"
    );
    let unknown = OperatorCommand::Abort {
        run: RunId("r9".into()),
        note: "x".into(),
    };
    assert!(matches!(
        command_event(&projection, &unknown, &Actor("bob@h".into()), at(5)),
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
            command_event(&projection, &command, &Actor("bob@h".into()), at(5)),
            Err(CommandRefusal::NoRun(_))
        ));
    }
    let known = OperatorCommand::Pause {
        scope: PauseScope::Run {
            run: RunId("r1".into()),
        },
        reason: "looking".into(),
    };
    assert!(command_event(&projection, &known, &Actor("bob@h".into()), at(5)).is_ok());
}

#[test]
fn pauses_need_a_reason_and_carry_their_scope() {
    let projection = Projection::default();
    let empty = OperatorCommand::Pause {
        scope: PauseScope::Fleet,
        reason: "  ".into(),
    };
    assert_eq!(
        command_event(&projection, &empty, &Actor("a@h".into()), at(1)),
        Err(CommandRefusal::Empty("the reason"))
    );
    let cluster = OperatorCommand::Pause {
        scope: PauseScope::Cluster {
            cluster: ClusterId("c7".into()),
        },
        reason: "freeze".into(),
    };
    let e = command_event(&projection, &cluster, &Actor("a@h".into()), at(1)).unwrap();
    assert_eq!(e.cluster, Some(ClusterId("c7".into())));
    assert!(cluster.describe().contains("nothing is undone"));
    // A run's pause names the run and its cluster, so a filter by cluster finds it.
    let run = OperatorCommand::Pause {
        scope: PauseScope::Run {
            run: RunId("r1".into()),
        },
        reason: "looks odd".into(),
    };
    let e = command_event(&waiting_rollout(), &run, &Actor("a@h".into()), at(3)).unwrap();
    assert_eq!(
        (e.run, e.cluster),
        (Some(RunId("r1".into())), Some(ClusterId("c1".into())))
    );
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
        command_event(&projection, &give_back, &bob, at(5)),
        Err(CommandRefusal::NotInHand { .. })
    ));
    let mut taken = event(
        3,
        "bob@h",
        EventBody::TakenOver {
            note: "mine".into(),
        },
    );
    taken.event.item = Some(ItemId("c2".into()));
    projection.apply(&taken);
    assert!(command_event(&projection, &give_back, &bob, at(6)).is_ok());
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
        let refusal = command_event(&projection, &command, &Actor("bob@h".into()), at(5));
        assert_eq!(refusal, Err(CommandRefusal::Empty(what)), "{command:?}");
        assert!(!CommandRefusal::Empty(what).is_audited());
    }
}
