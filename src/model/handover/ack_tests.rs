//! Acknowledgements that hold while a problem stays the same one and no worse, and
//! re-open when it gets worse or another problem appears.

use super::*;
use crate::model::live::ClusterStatus;
use crate::model::run::Projection;
use crate::model::run::{
    EventBody, EventLog, IdempotencyKey, NewEvent, OperatorCommand, StepName, StepStatus,
    command_event,
};

fn at(s: i64) -> Timestamp {
    Timestamp::from_second(1_795_800_000 + s).expect("in range")
}

/// prod-euw1-02 with `down` of 8 nodes not ready and these budgets (name, healthy, needs).
fn euw(status: ClusterStatus, down: usize, budgets: &[(&str, i32, i32)]) -> ClusterHealth {
    ClusterHealth {
        id: ClusterId("prod-euw1-02".into()),
        status,
        error: Some("watch of pods failed".into()),
        nodes_ready: (8 - down, 8),
        budgets_below_minimum: budgets
            .iter()
            .map(|(budget, healthy, needs)| BudgetShort {
                budget: (*budget).into(),
                healthy: *healthy,
                needs: *needs,
            })
            .collect(),
        nodes: Default::default(),
    }
}

fn items(log: &EventLog, clusters: &[ClusterHealth]) -> Vec<HandoverItem> {
    let projection = Projection::replay(&log.0);
    handover(&HandoverInput {
        journal: Known::Read(JournalFacts {
            projection: &projection,
            events: &log.0,
        }),
        fleet: Known::Read(clusters),
        ledger: Known::NotRead("not given".into()),
        findings: Known::Read(&[]),
        since: at(-3600),
        now: at(3600),
        expiring_within_days: 14,
    })
    .items
}

fn only(items: Vec<HandoverItem>, section: Section) -> HandoverItem {
    let mut found: Vec<HandoverItem> = items.into_iter().filter(|i| i.section == section).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    found.remove(0)
}

/// What `a` in the walkthrough sends for `item`, journaled as the console does.
fn acknowledge(log: &mut EventLog, item: &HandoverItem, t: i64, who: &str, note: &str) {
    let command = OperatorCommand::Acknowledge {
        problem: item.key.clone(),
        title: item.title.clone(),
        extent: item.extent.clone(),
        run: item.subject.run.clone(),
        item: item.subject.item.clone(),
        cluster: item.subject.cluster.clone(),
        note: note.into(),
    };
    let projection = Projection::replay(&log.0);
    let event = command_event(&projection, &command, &Actor(who.into()), at(t)).expect("accepted");
    assert_eq!(event.body.to_parts().0, "operator.acknowledge");
    log.push(event);
}

#[test]
fn an_acknowledgement_survives_a_count_change_and_reopens_when_it_gets_worse() {
    let mut log = EventLog::default();
    let synced = ClusterStatus::Synced;
    let orders = ("payments/orders", 1, 2);
    let item = only(
        items(&log, &[euw(synced, 3, &[orders])]),
        Section::ClustersNotWhole,
    );
    assert_eq!(
        item.key.0, "cluster/prod-euw1-02/not-whole",
        "no count in the key"
    );
    acknowledge(&mut log, &item, 100, "bob@ops", "zone b is out, case 42");

    // One node back: the same problem, better. The acknowledgement holds and says so.
    let now = only(
        items(&log, &[euw(synced, 2, &[orders])]),
        Section::ClustersNotWhole,
    );
    assert!(now.acknowledged(), "{:#?}", now.acks);
    assert_eq!(now.acks[0].by, Actor("bob@ops".into()));
    assert_eq!(now.acks[0].at, at(100));
    assert_eq!(
        now.acks[0].change,
        "then 3 of 8 nodes not ready; PDB payments/orders has 1, needs 2 healthy: below its \
         minimum; now 2 of 8 nodes not ready; PDB payments/orders has 1, needs 2 healthy: \
         below its minimum"
    );
    // The budget back to its minimum: better still.
    let now = only(
        items(&log, &[euw(synced, 3, &[])]),
        Section::ClustersNotWhole,
    );
    assert!(now.acknowledged(), "{:#?}", now.acks);

    // Worse, each in its own way: more nodes down, the budget further below its minimum,
    // another budget below its own, Degraded data.
    for (cluster, worse) in [
        (
            euw(synced, 4, &[orders]),
            "worse since: 4 of 8 nodes not ready (was 3 of 8 nodes not ready)",
        ),
        (
            euw(synced, 2, &[("payments/orders", 0, 2)]),
            "worse since: PDB payments/orders has 0, needs 2 healthy: below its minimum \
             (was PDB payments/orders has 1, needs 2 healthy: below its minimum)",
        ),
        (
            euw(synced, 3, &[orders, ("shop/web", 2, 3)]),
            "worse since: new: PDB shop/web has 2, needs 3 healthy: below its minimum",
        ),
        (
            euw(ClusterStatus::Degraded, 3, &[orders]),
            "worse since: new: data Degraded: watch of pods failed",
        ),
    ] {
        let now = only(items(&log, &[cluster]), Section::ClustersNotWhole);
        assert!(now.reopened(), "{now:#?}");
        assert_eq!(now.acks[0].standing, Standing::Reopened);
        assert_eq!(now.acks[0].change, worse);
    }

    // Acknowledged again as it stands now: that one holds, the first stays re-opened.
    let worse = only(
        items(&log, &[euw(synced, 4, &[orders])]),
        Section::ClustersNotWhole,
    );
    acknowledge(&mut log, &worse, 200, "carol@ops", "second zone too");
    let now = only(
        items(&log, &[euw(synced, 4, &[orders])]),
        Section::ClustersNotWhole,
    );
    let standings: Vec<Standing> = now.acks.iter().map(|a| a.standing).collect();
    assert_eq!(standings, [Standing::Reopened, Standing::Holds]);
    assert!(now.acknowledged());
    assert_eq!(now.acks[1].change, "unchanged since");
}

#[test]
fn a_cluster_that_changes_status_is_another_problem() {
    let mut log = EventLog::default();
    let unreachable = ClusterHealth {
        id: ClusterId("prod-apse1-03".into()),
        status: ClusterStatus::Unreachable,
        error: Some("connection refused".into()),
        nodes_ready: (0, 6),
        budgets_below_minimum: Vec::new(),
        nodes: Default::default(),
    };
    let item = only(
        items(&log, std::slice::from_ref(&unreachable)),
        Section::Clusters,
    );
    acknowledge(&mut log, &item, 100, "bob@ops", "network team on it");
    let mut other_error = unreachable.clone();
    other_error.error = Some("timed out".into());
    assert!(only(items(&log, &[other_error]), Section::Clusters).acknowledged());
    let mut mismatch = unreachable;
    mismatch.status = ClusterStatus::IdentityMismatch;
    let now = only(items(&log, &[mismatch]), Section::Clusters);
    assert!(now.reopened(), "{now:#?}");
    assert_eq!(now.acks[0].change, "worse since: new: IdentityMismatch");
}

/// The maintenance run `mnt-1` of node n1 on prod-use1-01, its drain blocked for `reason`.
fn blocked(log: &mut EventLog, t: i64, reason: &str) {
    if log.0.is_empty() {
        log.push(
            NewEvent::new(
                at(0),
                Actor("alice@ops".into()),
                IdempotencyKey("cmd/plan".into()),
                EventBody::RunPlanned {
                    title: "maintenance reboot".into(),
                    items: vec!["n1".into()],
                    batches: vec![vec!["n1".into()]],
                    spec: serde_json::Value::Null,
                },
            )
            .with_run(RunId("mnt-1".into()))
            .with_cluster(ClusterId("prod-use1-01".into())),
        );
    }
    let mut e = NewEvent::new(
        at(t),
        Actor("executor/e1".into()),
        IdempotencyKey(format!("mnt-1/n1/Drain/status#{t}")),
        EventBody::StepStatusChanged {
            status: StepStatus::Blocked {
                reason: reason.into(),
            },
        },
    )
    .with_run(RunId("mnt-1".into()))
    .with_cluster(ClusterId("prod-use1-01".into()));
    e.item = Some(ItemId::from("n1"));
    e.step = Some(StepName::from("Drain"));
    log.push(e);
}

#[test]
fn a_stuck_step_holds_through_new_numbers_and_reopens_on_a_new_cause_or_a_hand_off() {
    let mut log = EventLog::default();
    blocked(
        &mut log,
        10,
        "PDB web needs 3 healthy pods and has 3 (shop/web-0)",
    );
    let item = only(items(&log, &[]), Section::StuckSteps);
    acknowledge(&mut log, &item, 20, "bob@ops", "web team scaling up");
    blocked(
        &mut log,
        30,
        "PDB web needs 4 healthy pods and has 4 (shop/web-0, shop/web-1)",
    );
    let now = only(items(&log, &[]), Section::StuckSteps);
    assert!(
        now.acknowledged(),
        "the same cause, other numbers: {now:#?}"
    );
    blocked(
        &mut log,
        40,
        "PDB web needs 4 healthy pods and has 4 (shop/web-0); pods not terminating: shop/db-0",
    );
    let now = only(items(&log, &[]), Section::StuckSteps);
    assert!(now.reopened(), "{now:#?}");
    assert_eq!(
        now.acks[0].change,
        "worse since: new: pods not terminating: shop/db-0"
    );
    let mut handoff = NewEvent::new(
        at(50),
        Actor("bob@ops".into()),
        IdempotencyKey("cmd/handoff".into()),
        EventBody::HandedOff {
            to: Actor("dana@ops".into()),
            note: "yours".into(),
        },
    )
    .with_run(RunId("mnt-1".into()));
    handoff.item = Some(ItemId::from("n1"));
    handoff.step = Some(StepName::from("Drain"));
    log.push(handoff);
    let now = only(items(&log, &[]), Section::HandedOff);
    assert!(now.reopened(), "in someone's hands is news: {now:#?}");
}

#[test]
fn acknowledgements_before_the_shift_and_of_other_problems_do_not_count() {
    let mut log = EventLog::default();
    let cluster = [euw(ClusterStatus::Synced, 3, &[])];
    let item = only(items(&log, &cluster), Section::ClustersNotWhole);
    acknowledge(&mut log, &item, -7200, "bob@ops", "last shift");
    assert!(
        only(items(&log, &cluster), Section::ClustersNotWhole)
            .acks
            .is_empty()
    );
    let mut other = item.clone();
    other.key = ProblemKey("cluster/prod-euw1-01/not-whole".into());
    acknowledge(&mut log, &other, 100, "bob@ops", "the other one");
    assert!(
        only(items(&log, &cluster), Section::ClustersNotWhole)
            .acks
            .is_empty()
    );
}

#[test]
fn an_older_fleetdecks_acknowledgement_is_read_as_one_and_judged_by_its_counts() {
    let mut log = EventLog::default();
    log.push(NewEvent::new(
        at(100),
        Actor("bob@ops".into()),
        IdempotencyKey("cmd/bob/note/1".into()),
        EventBody::Note {
            text: format!("{LEGACY_ACK_PREFIX}cluster/prod-euw1-02/not-whole/Synced/3/0: seen"),
        },
    ));
    let found = items(&log, &[euw(ClusterStatus::Synced, 2, &[])]);
    assert!(
        found.iter().all(|i| i.section != Section::Notes),
        "not an open note: {found:#?}"
    );
    let now = only(found, Section::ClustersNotWhole);
    assert!(now.acknowledged(), "{now:#?}");
    assert_eq!(now.acks[0].note, "seen");
    let now = only(
        items(&log, &[euw(ClusterStatus::Synced, 4, &[])]),
        Section::ClustersNotWhole,
    );
    assert!(now.reopened(), "{now:#?}");
}

#[test]
fn the_acknowledge_command_says_what_it_does_without_the_key() {
    let item = only(
        items(&EventLog::default(), &[euw(ClusterStatus::Synced, 3, &[])]),
        Section::ClustersNotWhole,
    );
    let command = OperatorCommand::Acknowledge {
        problem: item.key.clone(),
        title: item.title.clone(),
        extent: item.extent.clone(),
        run: None,
        item: None,
        cluster: item.subject.cluster.clone(),
        note: "seen".into(),
    };
    let said = command.describe();
    assert_eq!(
        said,
        "acknowledge \"prod-euw1-02: 3 of 8 nodes not ready\" as it stands (3 of 8 nodes not \
         ready): it stays acknowledged for everyone until it gets worse or another problem \
         appears there (note: seen)"
    );
    assert!(!said.contains(&item.key.0), "{said}");
}
