use super::*;
use crate::model::ledger::read_ledger;
use crate::model::live::ClusterStatus;
use crate::model::run::{Event, Projection};
use crate::model::run::{
    EventBody, EventLog, IdempotencyKey, NewEvent, PauseScope, StepName, StepStatus,
};

pub(super) fn at(s: i64) -> Timestamp {
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
            // People's events are commands, as the journal keys them; the executor's not.
            IdempotencyKey(if actor.starts_with("executor") {
                format!("k{}", self.0.next_seq())
            } else {
                format!("cmd/k{}", self.0.next_seq())
            }),
            body,
        )
        .with_run(RunId("mnt-reboot-1".into()))
        .with_cluster(ClusterId("prod-use1-01".into()));
        e.item = item.map(ItemId::from);
        e.step = step.map(StepName::from);
        self.0.push(e);
    }
}

/// The maintenance of nodes n1 and n2 on prod-use1-01, planned by alice.
fn planned() -> Log {
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
    log
}

/// A maintenance with one drain stuck on a PDB and one node handed off, a fleet pause,
/// a note and an acknowledgement.
fn shift() -> Log {
    let mut log = planned();
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
        EventBody::Acknowledged {
            problem: ProblemKey("step/mnt-reboot-1/n2/Drain".into()),
            title: "n2 Drain in mnt-reboot-1 is with bob@ops (handed off)".into(),
            extent: Extent(vec![Fact::kind(
                "in bob@ops's hands",
                "with bob@ops (handed off)",
            )]),
            note: "seen, on it".into(),
        },
    );
    log
}

/// Asserts that one of `item`'s details starts with `prefix`, showing them all if not.
pub(super) fn assert_detail(item: &HandoverItem, prefix: &str) {
    assert!(
        item.details.iter().any(|d| d.starts_with(prefix)),
        "no detail starts with {prefix:?}: {:?}",
        item.details
    );
}

pub(super) fn input<'a>(
    p: &'a Projection,
    events: &'a [Event],
    clusters: &'a [ClusterHealth],
) -> HandoverInput<'a> {
    HandoverInput {
        journal: Known::Read(JournalFacts {
            projection: p,
            events,
        }),
        fleet: Known::Read(clusters),
        ledger: Known::NotRead("not given".into()),
        findings: Known::Read(&[]),
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
            nodes_ready: (0, 6),
            budgets_below_minimum: Vec::new(),
            nodes: Default::default(),
        },
        ClusterHealth {
            id: ClusterId("prod-use1-02".into()),
            status: ClusterStatus::Synced,
            error: None,
            nodes_ready: (8, 8),
            budgets_below_minimum: Vec::new(),
            nodes: Default::default(),
        },
        // Fresh data, but a zone down and a budget short of healthy pods.
        ClusterHealth {
            id: ClusterId("prod-euw1-02".into()),
            status: ClusterStatus::Synced,
            error: None,
            nodes_ready: (5, 8),
            budgets_below_minimum: vec![BudgetShort {
                budget: "payments/orders".into(),
                healthy: 1,
                needs: 2,
            }],
            nodes: Default::default(),
        },
    ];
    let items = handover(&input(&projection, &log.0.0, &clusters)).items;
    let sections: Vec<Section> = items.iter().map(|i| i.section).collect();
    assert_eq!(
        sections,
        vec![
            Section::PausedAutomation,
            Section::StuckSteps,
            Section::HandedOff,
            Section::Clusters,
            Section::ClustersNotWhole,
            Section::Notes
        ]
    );
    let not_whole = items
        .iter()
        .find(|i| i.section == Section::ClustersNotWhole)
        .expect("listed");
    assert_eq!(not_whole.title, "prod-euw1-02: 3 of 8 nodes not ready");
    assert_eq!(
        not_whole.details,
        ["PDB payments/orders has 1, needs 2 healthy: below its minimum"],
        "the title's fact is not said twice"
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
    assert!(handed.acknowledged(), "{:?}", handed.acks);
    assert_eq!(handed.acks[0].change, "unchanged since");
    assert!(items[0].details.contains(&"by: alice@ops".to_string()));
}

#[test]
fn exceptions_expiring_within_the_window_are_listed() {
    let text = include_str!("../../../examples/ledger.yaml");
    let context = crate::model::ledger::LedgerContext {
        today: jiff::civil::date(2026, 11, 28),
        is_known_zone: &|_| true,
    };
    let ledger = read_ledger(text, &context)
        .ledger
        .expect("example ledger is valid");
    let projection = Projection::default();
    let mut i = input(&projection, &[], &[]);
    i.ledger = Known::Read(&ledger);
    i.expiring_within_days = 100_000;
    let items = handover(&i).items;
    assert!(!items.is_empty());
    assert!(items.iter().all(|i| i.section == Section::Exceptions));
    i.expiring_within_days = -100_000;
    assert!(handover(&i).items.is_empty());
}

/// The two-node maintenance with n1 cordoned and draining, as the executor records it.
fn draining() -> Log {
    let mut log = planned();
    for (t, step, status) in [
        (10, "Precheck", StepStatus::Succeeded),
        (20, "Cordon", StepStatus::Running),
        (30, "Cordon", StepStatus::Succeeded),
        (40, "Drain", StepStatus::Running),
    ] {
        log.push(
            t,
            "executor/e1",
            Some("n1"),
            Some(step),
            EventBody::StepStatusChanged { status },
        );
    }
    log
}

fn items_of(log: &Log) -> Vec<HandoverItem> {
    let projection = Projection::replay(&log.0.0);
    handover(&input(&projection, &log.0.0, &[])).items
}

#[test]
fn an_abort_mid_drain_leaves_the_node_cordoned_and_the_handover_says_so() {
    let mut log = draining();
    assert!(
        items_of(&log).is_empty(),
        "a node being drained by a running run is not left behind"
    );
    log.push(
        100,
        "bob@ops",
        None,
        None,
        EventBody::Aborted {
            note: "wrong firmware".into(),
        },
    );
    let projection = Projection::replay(&log.0.0);
    let step = &projection.runs[&RunId("mnt-reboot-1".into())].items[&ItemId::from("n1")].steps
        [&StepName::from("Drain")];
    assert!(
        matches!(&step.status, StepStatus::Failed { error } if error.contains("stopped mid-step: bob@ops aborted the run")),
        "the drain no longer reads running: {:?}",
        step.status
    );
    let items = items_of(&log);
    assert_eq!(items.len(), 1, "{items:#?}");
    let left = &items[0];
    assert_eq!(left.section, Section::LeftMidChange);
    assert_eq!(left.title, "n1 in mnt-reboot-1 left cordoned");
    assert_detail(left, "fleetdeck cordoned the node and never uncordoned it");
    // Every line of it in Chinese; the step, status and names as they are.
    let lines = left.details_in(crate::i18n::Lang::ZhCn);
    assert_eq!(lines.len(), left.details.len());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("fleetdeck 封锁了该节点且从未解除封锁")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("运行：")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.starts_with("run: ")), "{lines:?}");
}

#[test]
fn a_freeze_names_the_node_it_holds_mid_drain() {
    let mut log = draining();
    log.push(
        100,
        "bob@ops",
        None,
        None,
        EventBody::Paused {
            scope: PauseScope::Cluster {
                cluster: ClusterId("prod-use1-01".into()),
            },
            reason: "registry outage".into(),
        },
    );
    let items = items_of(&log);
    let pause = items
        .iter()
        .find(|i| i.section == Section::PausedAutomation)
        .expect("the freeze is listed");
    assert_detail(
        pause,
        "holds n1 of mnt-reboot-1 mid-maintenance (at Drain: running)",
    );
}

#[test]
fn a_failed_node_of_a_running_run_is_left_mid_change_with_who_failed_it() {
    let mut log = draining();
    log.push(
        50,
        "bob@ops",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::Failed {
                error: "returned with outcome abort".into(),
            },
        },
    );
    let items = items_of(&log);
    assert_eq!(items.len(), 1, "{items:#?}");
    assert_eq!(items[0].section, Section::LeftMidChange);
    assert!(
        items[0].details[0]
            .starts_with("Drain failed: returned with outcome abort, set by bob@ops"),
        "{:?}",
        items[0].details
    );
}

#[test]
fn a_take_over_reads_as_one_and_after_an_abort_the_node_is_left_in_that_persons_hands() {
    let mut log = draining();
    log.push(
        60,
        "carol@ops",
        Some("n1"),
        Some("Drain"),
        EventBody::TakenOver {
            note: "I have it".into(),
        },
    );
    log.push(
        61,
        "executor/e1",
        Some("n1"),
        Some("Drain"),
        EventBody::StepStatusChanged {
            status: StepStatus::HandedOff {
                to: Actor("carol@ops".into()),
                note: "I have it".into(),
            },
        },
    );
    let items = items_of(&log);
    assert_eq!(items.len(), 1, "{items:#?}");
    assert_eq!(
        items[0].title,
        "n1 Drain in mnt-reboot-1 is with carol@ops (taken over)"
    );
    assert_detail(&items[0], "taken over by carol@ops");
    log.push(
        100,
        "bob@ops",
        None,
        None,
        EventBody::Aborted {
            note: "stop".into(),
        },
    );
    // Once the run is aborted, nothing a return could start follows: the node is left
    // mid-change, in carol's hands, with who aborted the run and why.
    let items = items_of(&log);
    let sections: Vec<Section> = items.iter().map(|i| i.section).collect();
    assert_eq!(sections, vec![Section::LeftMidChange], "{items:#?}");
    let details = &items[0].details;
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("stood at Drain, in carol@ops's hands")),
        "{details:?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("aborted by bob@ops") && d.ends_with(": stop")),
        "{details:?}"
    );
}

#[test]
fn only_notes_people_wrote_are_open_notes() {
    let mut log = draining();
    log.push(
        70,
        "executor/e1",
        Some("n1"),
        Some("Maintain"),
        EventBody::Note {
            text: "Reseat the NIC, then mark the step done.".into(),
        },
    );
    log.push(
        80,
        "bob@ops",
        Some("n1"),
        None,
        EventBody::Note {
            text: "firmware staged\n## do not uncordon before 06:00".into(),
        },
    );
    let projection = Projection::replay(&log.0.0);
    let input = input(&projection, &log.0.0, &[]);
    let items = handover(&input).items;
    let notes: Vec<&str> = items
        .iter()
        .filter(|i| i.section == Section::Notes)
        .map(|i| i.title.as_str())
        .collect();
    assert_eq!(
        notes,
        vec!["bob@ops: firmware staged\n## do not uncordon before 06:00"]
    );
}

#[test]
fn every_sentence_with_a_message_says_it_in_chinese_and_english_stays_the_models() {
    use crate::i18n::Lang;
    for log in [shift(), draining()] {
        for item in items_of(&log) {
            // One message per detail, or none at all (shown in English).
            assert!(
                item.says.details.is_empty() || item.says.details.len() == item.details.len(),
                "{item:#?}"
            );
            assert_eq!(item.title_in(Lang::En), item.title);
            assert_eq!(item.details_in(Lang::En), item.details);
            let zh = item.details_in(Lang::ZhCn);
            for (i, msg) in item.says.details.iter().enumerate() {
                if let Some(msg) = msg {
                    // The English catalogue says word for word what the model wrote.
                    assert_eq!(msg.text(Lang::En), item.details[i]);
                    assert_ne!(zh[i], item.details[i], "untranslated: {}", zh[i]);
                    assert!(!zh[i].contains("{$"), "broken message: {}", zh[i]);
                }
            }
            if let Some(msg) = &item.says.title {
                assert_eq!(msg.text(Lang::En), item.title);
                assert_ne!(item.title_in(Lang::ZhCn), item.title);
            }
        }
    }
}

#[test]
fn a_cluster_its_credential_keeps_out_is_handed_over_with_what_to_do() {
    let log = shift();
    let projection = Projection::replay(&log.0.0);
    let clusters = vec![ClusterHealth {
        id: ClusterId("prod-use1-03".into()),
        status: ClusterStatus::Credentials,
        error: Some("credentials (login needed): error: the SSO session has expired".into()),
        nodes_ready: (0, 0),
        budgets_below_minimum: Vec::new(),
        nodes: Default::default(),
    }];
    let items = handover(&input(&projection, &log.0.0, &clusters)).items;
    let item = items
        .iter()
        .find(|i| i.section == Section::Clusters)
        .expect("listed with the untrusted clusters");
    assert_eq!(item.title, "prod-use1-03 is Credentials");
    assert_eq!(
        item.details,
        [
            "status: Credentials",
            "last error: credentials (login needed): error: the SSO session has expired",
            "nothing is read from it until its credential works: log in (:login in the console) or fix the kubeconfig user",
        ]
    );
}
