//! Rollouts in the handover: a pause that holds back an approved batch, and what an
//! aborted rollout left on its clusters.

use super::tests::{assert_detail, at, input};
use super::*;
use crate::model::rollout::BatchPhase;
use crate::model::run::{EventBody, EventLog, IdempotencyKey, NewEvent, PauseScope, Projection};

/// A rollout over three clusters whose first batch (prod-a) got the release and whose
/// second (prod-b, prod-c) waits for approval.
fn rollout() -> EventLog {
    let mut log = EventLog::default();
    let mut push = |t: i64, actor: &str, item: Option<&str>, body: EventBody| {
        let key = if actor.starts_with("executor") {
            format!("r{}", log.next_seq())
        } else {
            format!("cmd/r{}", log.next_seq())
        };
        let mut e = NewEvent::new(at(t), Actor(actor.into()), IdempotencyKey(key), body)
            .with_run(RunId("ro-cni-1".into()));
        e.item = item.map(ItemId::from);
        log.push(e);
    };
    push(
        0,
        "carol@ops",
        None,
        EventBody::RunPlanned {
            title: "rollout cni".into(),
            items: vec!["prod-a".into(), "prod-b".into(), "prod-c".into()],
            batches: vec![
                vec!["prod-a".into()],
                vec!["prod-b".into(), "prod-c".into()],
            ],
            spec: serde_json::Value::Null,
        },
    );
    push(
        10,
        "executor/e1",
        Some("prod-a"),
        EventBody::ItemApplied {
            digest: crate::model::rollout::ReleaseDigest("sha256:ab".into()),
        },
    );
    for (batch, phase) in [(0, BatchPhase::Done), (1, BatchPhase::AwaitingApproval)] {
        push(
            20,
            "executor/e1",
            None,
            EventBody::RolloutBatch { batch, phase },
        );
    }
    log
}

/// Appends to the rollout's log what a person did at `t`, as an operator command.
fn by_person(log: &mut EventLog, t: i64, actor: &str, body: EventBody) {
    let key = IdempotencyKey(format!("cmd/{actor}/{t}"));
    let mut e = NewEvent::new(at(t), Actor(actor.into()), key, body);
    e.run = Some(RunId("ro-cni-1".into()));
    log.push(e);
}

#[test]
fn a_paused_rollout_says_which_approved_batch_it_holds_back() {
    let mut log = rollout();
    by_person(
        &mut log,
        30,
        "bob@ops",
        EventBody::Paused {
            scope: PauseScope::Run {
                run: RunId("ro-cni-1".into()),
            },
            reason: "error budget".into(),
        },
    );
    by_person(
        &mut log,
        40,
        "dave@ops",
        EventBody::RunApproved {
            batch: Some(1),
            note: "ok".into(),
        },
    );
    let projection = Projection::replay(&log.0);
    let run = &projection.runs[&RunId("ro-cni-1".into())];
    assert_eq!(
        projection.effective_status(run),
        crate::model::run::RunStatus::Paused
    );
    let items = handover(&input(&projection, &log.0, &[])).items;
    let pause = items
        .iter()
        .find(|i| i.section == Section::PausedAutomation)
        .expect("the pause");
    assert_detail(pause, "holds back batch 2, approved by dave@ops");
}

#[test]
fn an_aborted_rollout_says_where_its_release_went() {
    let mut log = rollout();
    by_person(
        &mut log,
        30,
        "bob@ops",
        EventBody::Aborted {
            note: "bad canary".into(),
        },
    );
    let projection = Projection::replay(&log.0);
    let items = handover(&input(&projection, &log.0, &[])).items;
    assert_eq!(
        items.len(),
        1,
        "nothing awaits approval any more: {items:#?}"
    );
    assert_eq!(items[0].section, Section::LeftMidChange);
    assert_eq!(
        items[0].title,
        "ro-cni-1 aborted with its release on 1 of 3 clusters"
    );
    assert!(items[0].details.contains(&"release on: prod-a".to_string()));
    assert_detail(&items[0], "aborted by bob@ops");
}

#[test]
fn an_aborted_rollout_with_an_apply_still_in_flight_says_so() {
    let mut log = rollout();
    let mut intent = NewEvent::new(
        at(25),
        Actor("executor/e1".into()),
        IdempotencyKey("ro-cni-1/prod-b/apply".into()),
        EventBody::Intent {
            action: "apply".into(),
            detail: serde_json::Value::Null,
            identity: None,
        },
    );
    intent.run = Some(RunId("ro-cni-1".into()));
    intent.item = Some(ItemId::from("prod-b"));
    log.push(intent);
    by_person(
        &mut log,
        30,
        "bob@ops",
        EventBody::Aborted {
            note: "abort mid-apply".into(),
        },
    );
    let projection = Projection::replay(&log.0);
    let items = handover(&input(&projection, &log.0, &[])).items;
    assert_eq!(
        items[0].title,
        "ro-cni-1 aborted with its release on 1 of 3 clusters, 1 more in flight"
    );
    assert_detail(&items[0], "apply in flight on: prod-b (outcome pending");
    // In Chinese: the title and every line, the names and the note as they are.
    let lang = crate::i18n::Lang::ZhCn;
    assert_eq!(
        items[0].title_in(lang),
        "ro-cni-1 已中止，其版本已在 3 个集群中的 1 个上，另有 1 个正在应用"
    );
    let lines = items[0].details_in(lang);
    assert!(
        lines
            .iter()
            .any(|l| l == "正在应用到：prod-b（结果未定：请检查这些集群运行的版本）"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.ends_with("：abort mid-apply")),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| !l.starts_with("rollout:")),
        "{lines:?}"
    );
}
