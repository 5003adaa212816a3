use super::*;
use crate::model::ledger::read_ledger;
use crate::model::run::{EventLog, IdempotencyKey, NewEvent, PauseScope, StepName};

fn at(s: i64) -> Timestamp {
    Timestamp::from_second(1_795_800_000 + s).unwrap()
}

/// The maintenance run's events, numbered as the journal numbers them.
struct Log(EventLog);

impl Log {
    fn push(
        &mut self,
        t: i64,
        actor: &str,
        item: Option<&str>,
        step: Option<&str>,
        body: EventBody,
    ) {
        let mut e = NewEvent::new(
            at(t),
            Actor(actor.into()),
            IdempotencyKey(format!("k{}", self.0.next_seq())),
            body,
        )
        .with_run(RunId("mnt-reboot-1".into()))
        .with_cluster(ClusterId("prod-use1-01".into()));
        e.item = item.map(ItemId::from);
        e.step = step.map(StepName::from);
        self.0.push(e);
    }
}

/// A maintenance with one drain stuck on a PDB and one node handed off, a fleet pause,
/// a note and an acknowledgement.
fn shift() -> Log {
    let mut log = Log(EventLog::default());
    log.push(
        0,
        "alice@ops",
        None,
        None,
        EventBody::RunPlanned {
            title: "maintenance reboot on prod-use1-01".into(),
            items: vec!["n1".into(), "n2".into()],
            batches: vec![vec!["n1".into()], vec!["n2".into()]],
            spec: serde_json::Value::Null,
        },
    );
    log.push(
        60,
        "executor/e1",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: "PDB checkout-blocking needs 2 healthy pods and has 2 (shop/checkout-0); waiting for pods to leave: shop/web-1".into(),
            },
        },
    );
    log.push(
        120,
        "executor/e1",
        Some("n2"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked { reason: "x".into() },
        },
    );
    log.push(
        180,
        "alice@ops",
        Some("n2"),
        None,
        EventBody::HandedOff {
            to: Actor("bob@ops".into()),
            note: "checkout team must scale up first".into(),
        },
    );
    let mut pause = Log(EventLog::default());
    pause.push(
        200,
        "alice@ops",
        None,
        None,
        EventBody::Paused {
            scope: PauseScope::Fleet,
            reason: "incident 7".into(),
        },
    );
    log.0.push(pause.0.0.remove(0).event);
    log.push(
        240,
        "alice@ops",
        None,
        None,
        EventBody::Note {
            text: "registry is slow in us-east-1".into(),
        },
    );
    log.push(
        300,
        "bob@ops",
        Some("n2"),
        None,
        EventBody::Note {
            text: format!("{ACK_PREFIX}step/mnt-reboot-1/n2/Drain: seen, on it"),
        },
    );
    log
}

fn input<'a>(
    p: &'a Projection,
    events: &'a [Event],
    clusters: &'a [ClusterHealth],
) -> HandoverInput<'a> {
    HandoverInput {
        projection: p,
        events,
        clusters: Some(clusters),
        ledger: None,
        since: at(-3600),
        now: at(3600),
        expiring_within_days: 14,
    }
}

#[test]
fn lists_pauses_stuck_and_handed_off_steps_notes_and_acks() {
    let log = shift();
    let projection = Projection::replay(&log.0.0);
    let clusters = vec![
        ClusterHealth {
            id: ClusterId("prod-apse1-03".into()),
            status: ClusterStatus::Unreachable,
            error: Some("connection refused".into()),
        },
        ClusterHealth {
            id: ClusterId("prod-use1-02".into()),
            status: ClusterStatus::Synced,
            error: None,
        },
    ];
    let items = handover(&input(&projection, &log.0.0, &clusters));
    let sections: Vec<Section> = items.iter().map(|i| i.section).collect();
    assert_eq!(
        sections,
        vec![
            Section::PausedAutomation,
            Section::StuckSteps,
            Section::HandedOff,
            Section::Clusters,
            Section::Notes
        ]
    );
    let stuck = &items[1];
    assert_eq!(stuck.title, "n1 Drain stuck in mnt-reboot-1");
    assert!(
        stuck.details[0].starts_with("stuck for 59m"),
        "{:?}",
        stuck.details
    );
    assert!(
        stuck.details.contains(
            &"why: PDB checkout-blocking needs 2 healthy pods and has 2 (shop/checkout-0)"
                .to_string()
        ),
        "reasons are grouped one per line: {:?}",
        stuck.details
    );
    let handed = &items[2];
    assert!(handed.details.contains(&"owner: bob@ops".to_string()));
    assert!(
        handed
            .details
            .contains(&"note: checkout team must scale up first".to_string())
    );
    assert_eq!(
        handed.acks.len(),
        1,
        "the acknowledgement is attached, not a note"
    );
    assert_eq!(handed.acks[0].note, "seen, on it");
    assert!(items[0].details.contains(&"by: alice@ops".to_string()));

    let md = to_markdown(&items, &input(&projection, &log.0.0, &clusters));
    assert!(md.contains("## Handed-off steps"), "{md}");
    assert!(md.contains("checkout team must scale up first"), "{md}");
    assert!(md.contains("acknowledged by bob@ops"), "{md}");
    assert!(md.contains("prod-apse1-03 is Unreachable"), "{md}");
}

#[test]
fn exceptions_expiring_within_the_window_are_listed() {
    let text = include_str!("../../examples/ledger.yaml");
    let context = crate::model::ledger::LedgerContext {
        today: jiff::civil::date(2026, 11, 28),
        is_known_zone: &|_| true,
    };
    let ledger = read_ledger(text, &context)
        .ledger
        .expect("example ledger is valid");
    let projection = Projection::default();
    let mut i = input(&projection, &[], &[]);
    i.ledger = Some(&ledger);
    i.expiring_within_days = 100_000;
    let items = handover(&i);
    assert!(!items.is_empty());
    assert!(items.iter().all(|i| i.section == Section::Exceptions));
    i.expiring_within_days = -100_000;
    assert!(handover(&i).is_empty());
}
