//! What the projection does not take on trust: a second plan for a run, an approval by
//! someone the run's policy does not allow, a row it cannot read. Each is skipped, and
//! said (`ignored`, `unreadable`), so every reader folds the same journal the same way.

use super::*;
use crate::model::run::NewEvent;

fn event(seq: i64, actor: &str, body: EventBody) -> Event {
    Event {
        seq: Sequence(seq),
        token: None,
        event: NewEvent::new(
            Timestamp::from_second(1_750_000_000 + seq).unwrap_or_default(),
            Actor(actor.into()),
            IdempotencyKey(format!("cmd/{actor}/{seq}")),
            body,
        )
        .with_run(RunId("ro-1".into())),
    }
}

fn plan(title: &str, spec: Value) -> EventBody {
    EventBody::RunPlanned {
        title: title.into(),
        items: vec!["c1".into()],
        batches: vec![vec!["c1".into()]],
        spec,
    }
}

fn distinct_approver_spec() -> Value {
    let rollout =
        crate::model::rollout::read_rollout(include_str!("../../../examples/rollout.yaml"))
            .spec
            .unwrap_or_else(|| panic!("the example rollout reads"));
    assert_eq!(
        rollout.approvals,
        crate::model::rollout::ApprovalPolicy::DistinctFromAuthor,
        "the example asks for a distinct approver"
    );
    crate::model::rollout::journaled_for_tests(rollout)
}

#[test]
fn a_run_has_the_first_plan_only_and_a_later_one_is_said_and_skipped() {
    let events = [
        event(1, "alice", plan("real", distinct_approver_spec())),
        event(2, "mallory", plan("changed", Value::Null)),
    ];
    let p = Projection::replay(&events);
    let run = &p.runs[&RunId("ro-1".into())];
    assert_eq!(run.title, "real");
    assert_eq!(run.created_by, Actor("alice".into()));
    assert_eq!(
        p.ignored,
        [(
            Sequence(2),
            "a second plan for run ro-1 (a run has one plan)".to_string()
        )]
    );
}

#[test]
fn an_approval_counts_only_from_a_person_the_policy_allows() {
    let approve = || EventBody::RunApproved {
        batch: Some(0),
        note: "go".into(),
    };
    let events = [
        event(1, "alice", plan("real", distinct_approver_spec())),
        event(2, "alice", approve()),
        event(3, "executor/e1", approve()),
    ];
    let p = Projection::replay(&events);
    let run = &p.runs[&RunId("ro-1".into())];
    assert!(run.approvals.is_empty(), "{:?}", run.approvals);
    assert_eq!(run.status, RunStatus::Planned, "nothing started it");
    assert_eq!(p.ignored.len(), 2, "{:?}", p.ignored);
    assert!(
        p.ignored[0]
            .1
            .contains("alice started this rollout and cannot approve"),
        "{:?}",
        p.ignored
    );
    assert!(p.ignored[1].1.contains("is automation"), "{:?}", p.ignored);

    let mut p = p;
    p.apply(&event(4, "bob", approve()));
    let run = &p.runs[&RunId("ro-1".into())];
    assert_eq!(run.approvals.len(), 1);
    assert_eq!(run.approvals[0].0, Actor("bob".into()));
}

#[test]
fn an_unreadable_row_is_counted_named_and_skipped_and_the_fold_goes_on() {
    let events = [
        event(1, "alice", plan("real", Value::Null)),
        event(
            2,
            "mallory",
            EventBody::Unreadable {
                kind: "operator.pause".into(),
                reason: "its payload is not JSON: number out of range".into(),
            },
        ),
        event(
            3,
            "executor/e1",
            EventBody::ExecutorNote {
                text: "following the new ledger".into(),
            },
        ),
    ];
    let p = Projection::replay(&events);
    assert_eq!(
        p.unreadable,
        [UnreadableEvent {
            seq: Sequence(2),
            kind: "operator.pause".into(),
            reason: "its payload is not JSON: number out of range".into(),
        }]
    );
    assert!(p.pauses.is_empty());
    assert_eq!(p.last_seq, Some(Sequence(3)), "read past it");
    let run = &p.runs[&RunId("ro-1".into())];
    assert_eq!(run.notes.len(), 1, "the executor's note is the run's");
}
