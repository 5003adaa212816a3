//! A fixed journal for the operator screens' tests: a maintenance with a stuck drain and a
//! hand-off, a rollout whose second batch awaits approval, a note. Deterministic: times
//! are relative to the fixtures' fixed "now".

use super::app::{App, Msg};
use super::fixtures::{ago, app, ledger};
use crate::model::maintenance::Step;

/// A journal for the operator screens: a maintenance on eu-fra-prod-01 with a drain stuck
/// on a PDB, a node handed off to bob and one finished; a rollout of the example release
/// started by carol whose canary is done and whose second batch awaits approval; a note.
pub fn journal_events() -> Vec<crate::model::run::Event> {
    use crate::model::rollout::{
        BatchPhase, ReleaseDigest, VerifyOutcome, plan_rollout, read_rollout,
    };
    use crate::model::run::{
        Actor, EventBody, EventLog, IdempotencyKey, ItemId, NewEvent, RunId, StepName, StepStatus,
    };
    let mut events = EventLog::default();
    let mut push = |secs_ago: i64,
                    actor: &str,
                    run: Option<&str>,
                    item: Option<&str>,
                    step: Option<&str>,
                    cluster: Option<&str>,
                    body: EventBody| {
        let mut e = NewEvent::new(
            ago(secs_ago).unwrap(),
            Actor(actor.into()),
            // People's events are commands, as the journal keys them; the executor's not.
            IdempotencyKey(if actor.starts_with("executor") {
                format!("fixture-{}", events.next_seq())
            } else {
                format!("cmd/fixture-{}", events.next_seq())
            }),
            body,
        );
        e.run = run.map(RunId::from);
        e.item = item.map(ItemId::from);
        e.step = step.map(StepName::from);
        e.cluster = cluster.map(|c| crate::model::ledger::ClusterId::from(c.to_string()));
        events.push(e);
    };
    let m = Some("mnt-kernel-1");
    let fra = Some("eu-fra-prod-01");
    push(
        3600,
        "alice@ops-laptop",
        m,
        None,
        None,
        fra,
        EventBody::RunPlanned {
            title: "maintenance kernel on eu-fra-prod-01".into(),
            items: vec![
                "fra1-cpu-a00".into(),
                "fra1-cpu-b00".into(),
                "fra1-cpu-c00".into(),
            ],
            batches: vec![
                vec!["fra1-cpu-a00".into()],
                vec!["fra1-cpu-b00".into()],
                vec!["fra1-cpu-c00".into()],
            ],
            spec: serde_json::json!({"name": "kernel"}),
        },
    );
    for step in Step::WORK.map(|step| step.to_string()) {
        push(
            3000,
            "executor/e1",
            m,
            Some("fra1-cpu-a00"),
            Some(&step),
            fra,
            EventBody::StepStatusChanged {
                status: StepStatus::Succeeded,
            },
        );
    }
    push(
        1500,
        "executor/e1",
        m,
        Some("fra1-cpu-b00"),
        Some("Drain"),
        fra,
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB web-pdb needs 3 healthy pods and has 3 (shop/web-b0-0); pods not terminating: shop/cache-1".into(),
            },
        },
    );
    push(
        1400,
        "executor/e1",
        m,
        Some("fra1-cpu-c00"),
        Some("Drain"),
        fra,
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB web-pdb needs 3 healthy pods and has 3 (shop/web-c0-0)".into(),
            },
        },
    );
    push(
        900,
        "alice@ops-laptop",
        m,
        Some("fra1-cpu-c00"),
        None,
        fra,
        EventBody::HandedOff {
            to: Actor("bob@ops".into()),
            note: "web team is scaling up; retry after 15:00".into(),
        },
    );
    let report = read_rollout(include_str!("../../examples/rollout.yaml"));
    let spec = report.spec.expect("the example rollout is valid");
    let plan = plan_rollout(&spec, &ledger()).expect("the example rollout plans on the fixture");
    let batches: Vec<Vec<ItemId>> = plan
        .stages
        .iter()
        .flat_map(|s| s.batches.iter())
        .map(|b| b.iter().map(|c| ItemId(c.to_string())).collect())
        .collect();
    let r = Some("ro-cni-1");
    push(
        7200,
        "carol@ops",
        r,
        None,
        None,
        None,
        EventBody::RunPlanned {
            title: "cni-cilium-1.17.2".into(),
            items: batches.iter().flatten().cloned().collect(),
            batches: batches.clone(),
            spec: crate::model::rollout::journaled_for_tests(spec.clone()),
        },
    );
    let digest = ReleaseDigest(
        "sha256:4f2a9c0e1b7d3a6f58e2c1d09b7a4e3f2c1d0b9a8e7f6d5c4b3a29180716f5e4".into(),
    );
    let canary = batches[0][0].0.clone();
    push(
        7000,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Executing,
        },
    );
    // The canary staged, applied and verified, a hundred seconds apart.
    for (age, body) in [
        (
            6900,
            EventBody::ItemStaged {
                digest: digest.clone(),
            },
        ),
        (6800, EventBody::ItemApplied { digest }),
        (
            6700,
            EventBody::ItemVerified {
                outcome: VerifyOutcome::Pass,
            },
        ),
    ] {
        push(
            age,
            "executor/e1",
            r,
            Some(&canary),
            None,
            Some(&canary),
            body,
        );
    }
    push(
        6600,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::GateEvaluated {
            batch: 0,
            halt: None,
        },
    );
    push(
        3000,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: BatchPhase::Done,
        },
    );
    push(
        2990,
        "executor/e1",
        r,
        None,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 1,
            phase: BatchPhase::AwaitingApproval,
        },
    );
    push(
        600,
        "bob@ops",
        None,
        None,
        None,
        fra,
        EventBody::Note {
            text: "registry slow in eu-central since 13:40; pulls retry".into(),
        },
    );
    events.0
}

/// The fixture app, writable (not read-only), with the operator journal.
pub fn operator_app() -> App {
    let mut app = app();
    app.config.readonly = false;
    with_journal(&mut app, journal_events());
    app
}

/// Feeds `events` to the app as the journal feed would.
pub fn with_journal(app: &mut App, events: Vec<crate::model::run::Event>) {
    let mut activity = app.activity.clone();
    activity.journal =
        super::feed::JournalView::new(crate::model::run::Projection::replay(&events), events);
    app.update(Msg::Activity(activity));
}
