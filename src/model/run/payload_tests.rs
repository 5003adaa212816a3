use serde_json::{Value, json};

use super::*;
use crate::model::handover::{Extent, ProblemKey};
use crate::model::ledger::ClusterId;
use crate::model::rollout::{BatchPhase, HaltReason, Observation, ReleaseDigest, VerifyOutcome};
use crate::model::run::{
    Actor, EVENT_KINDS, EventBody, FencingToken, IdempotencyKey, ItemId, LeaseScope, NodeName,
    PauseScope, ReturnOutcome, RunStatus, StepStatus,
};

/// One body of every kind this version writes, as the engine and the CLI write them.
pub(crate) fn one_of_each() -> Vec<EventBody> {
    let key = IdempotencyKey("r1/c1/apply#0".into());
    let scope = PauseScope::Cluster {
        cluster: ClusterId("c1".into()),
    };
    vec![
        EventBody::RunPlanned {
            title: "kernel".into(),
            items: vec![ItemId("n1".into())],
            batches: vec![vec![ItemId("n1".into())]],
            spec: json!({"cluster": "c1"}),
        },
        EventBody::RunApproved {
            batch: Some(0),
            note: "canary fine".into(),
        },
        EventBody::RunStatusChanged {
            status: RunStatus::Running,
        },
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB".into(),
            },
        },
        EventBody::Intent {
            action: "cordon".into(),
            detail: Value::Null,
            identity: None,
        },
        EventBody::Outcome {
            intent: key.clone(),
            ok: true,
            detail: json!({"code": 200}),
        },
        EventBody::Observed {
            observation: json!({"Cordoned": null}),
        },
        EventBody::Waiting {
            why: "frozen".into(),
        },
        EventBody::NodeEventFailed {
            reason: "Cordoned".into(),
            message: "m".into(),
            error: "403".into(),
        },
        EventBody::Paused {
            scope: scope.clone(),
            reason: "look".into(),
        },
        EventBody::Resumed {
            scope,
            note: "ok".into(),
        },
        EventBody::HandedOff {
            to: Actor("bob".into()),
            note: "yours".into(),
        },
        EventBody::TakenOver {
            note: "mine".into(),
        },
        EventBody::Returned {
            outcome: ReturnOutcome::Done,
            note: "done".into(),
        },
        EventBody::Aborted {
            note: "stop".into(),
        },
        EventBody::Note { text: "hi".into() },
        EventBody::ExecutorNote {
            text: "ledger".into(),
        },
        EventBody::Acknowledged {
            problem: ProblemKey("p".into()),
            title: "t".into(),
            extent: Extent(Vec::new()),
            note: "seen".into(),
        },
        EventBody::CommandRefused {
            command: "approve".into(),
            reason: "author".into(),
        },
        EventBody::WindowOverridden {
            until: jiff::Timestamp::from_second(1_800_000_000).unwrap_or_default(),
            reason: "incident".into(),
        },
        EventBody::GuardTripped {
            scope: PauseScope::Fleet,
            reason: "shared".into(),
            not_ready: vec![NodeName("n1".into())],
            total: 4,
        },
        EventBody::LeaseAcquired {
            scope: LeaseScope::fleet(),
            token: FencingToken(3),
        },
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Executing,
        },
        EventBody::ItemStaged {
            digest: ReleaseDigest("sha256:ab".into()),
        },
        EventBody::ItemApplied {
            digest: ReleaseDigest("sha256:ab".into()),
        },
        EventBody::ItemVerified {
            outcome: VerifyOutcome::Pass,
        },
        EventBody::GateEvaluated {
            batch: 0,
            halt: None,
        },
        EventBody::RolloutHalted {
            batch: 0,
            why: HaltReason::MetricsUnknown {
                clusters: vec![("c1".into(), "no samples".into())],
            },
        },
        EventBody::RolloutObserved {
            observation: Observation::Tick,
            command: None,
        },
        EventBody::GitOpsIntent {
            action: "suspend".into(),
            object: json!({"kind": "Application"}),
            reason: "freeze".into(),
            previous: Value::Null,
        },
        EventBody::GitOpsOutcome {
            intent: key.clone(),
            ok: true,
            detail: Value::Null,
        },
        EventBody::Dispatched {
            call: crate::model::shard::ShardCall::Apply,
            intent: Some(key.clone()),
        },
        EventBody::Claimed {
            request: key.clone(),
            withdrawn: false,
        },
        EventBody::Answered {
            request: key,
            answer: crate::model::shard::ShardAnswer::Verify {
                outcome: VerifyOutcome::Pass,
            },
        },
    ]
}

#[test]
fn every_kind_has_a_shape_and_every_body_written_fits_it() {
    let bodies = one_of_each();
    let kinds: Vec<String> = bodies.iter().map(|b| b.to_parts().0).collect();
    assert_eq!(kinds, EVENT_KINDS, "one sample per kind, in order");
    for body in &bodies {
        let (kind, payload) = body.to_parts();
        assert_eq!(payload_problem(&kind, &payload), None, "{kind}: {payload}");
        // Every key the writer writes is in the table: a kind's shape says all of it.
        for key in payload.as_object().map(|m| m.keys()).into_iter().flatten() {
            assert!(
                SHAPES.iter().any(|(k, name, ..)| *k == kind && name == key),
                "{kind} writes {key:?}, which SHAPES does not list"
            );
        }
    }
    for (kind, ..) in SHAPES {
        assert!(EVENT_KINDS.contains(kind), "{kind} is not a kind");
    }
    let mut sorted = SHAPES.to_vec();
    sorted.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    assert_eq!(sorted, SHAPES, "sorted by kind, then key");
}

#[test]
fn what_a_reader_could_not_read_is_refused_with_the_reason() {
    let refused = |kind: &str, payload: Value| payload_problem(kind, &payload);
    assert_eq!(
        refused("operator.note", json!("hi")),
        Some("it is a string, not an object".into())
    );
    assert_eq!(
        refused("operator.note", json!({})),
        Some("it has no \"text\"".into())
    );
    assert_eq!(
        refused("operator.note", json!({"text": 5})),
        Some("its \"text\" is a number, not string".into())
    );
    assert_eq!(
        refused("run.approved", json!({"batch": "0", "note": ""})),
        Some("its \"batch\" is a string, not number or null".into())
    );
    let huge: Value = serde_json::from_str(r#"{"text": "x", "n": 1e30}"#).unwrap_or_default();
    assert_eq!(
        refused("operator.note", huge),
        Some("it holds a number beyond ±10^18".into())
    );
    assert!(
        refused(
            "operator.note",
            json!({"text": "x", "n": 999_999_999_999_999_999_i64})
        )
        .is_none()
    );
    assert!(
        refused(
            "operator.note",
            json!({"text": "x", "n": -1_000_000_000_000_000_000_i64})
        )
        .is_some()
    );
    let mut deep = json!(1);
    for _ in 0..MAX_DEPTH {
        deep = json!([deep]);
    }
    assert_eq!(
        refused("step.observed", json!({ "observation": deep })),
        Some("it is nested 64 levels deep or more".into())
    );
    // An aliased key may be under either name; an unknown kind is only checked for
    // what every reader can parse.
    assert!(
        refused(
            "guard.tripped",
            json!({"scope": {"scope": "fleet"}, "reason": "r", "not_ready": [], "total": 1})
        )
        .is_none()
    );
    assert!(refused("future.kind", json!([1, 2])).is_none());
    assert!(refused("future.kind", json!([1e19])).is_some());
}

#[test]
fn a_known_kind_whose_payload_does_not_fit_is_read_as_unreadable_not_unknown() {
    let body = EventBody::from_parts("operator.note", json!({"text": 5}));
    assert!(
        matches!(&body, EventBody::Unreadable { kind, reason } if kind == "operator.note" && reason.contains("invalid type")),
        "{body:?}"
    );
    assert!(matches!(
        EventBody::from_parts("future.kind", json!({})),
        EventBody::Unrecognized { .. }
    ));
}
