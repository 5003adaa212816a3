//! What the journal says was left behind, judged against later events and the live
//! state, and what could not be checked at all.

use std::collections::BTreeMap;

use super::*;
use crate::model::fleet::Schedulability;
use crate::model::live::ClusterStatus;
use crate::model::rollout::ReleaseDigest;
use crate::model::run::{
    EventBody, EventLog, IdempotencyKey, NewEvent, Projection, StepName, StepStatus,
};

fn at(s: i64) -> Timestamp {
    Timestamp::from_second(1_795_800_000 + s).expect("in range")
}

/// Appends an event of `run` (about `item`, at `step`) by `actor` at `t`.
fn push(
    log: &mut EventLog,
    t: i64,
    actor: &str,
    run: &str,
    item: Option<&str>,
    step: Option<&str>,
    body: EventBody,
) {
    let key = if actor.starts_with("executor") {
        format!("{run}/{}", log.next_seq())
    } else {
        format!("cmd/{run}/{}", log.next_seq())
    };
    let mut e = NewEvent::new(at(t), Actor(actor.into()), IdempotencyKey(key), body)
        .with_run(RunId(run.into()));
    if !run.starts_with("ro-") {
        e = e.with_cluster(ClusterId("prod-use1-01".into()));
    }
    e.item = item.map(ItemId::from);
    e.step = step.map(StepName::from);
    log.push(e);
}

/// Maintenance `run` of n1 on prod-use1-01, planned at `t`, taken through `steps`.
fn maintenance(log: &mut EventLog, run: &str, t: i64, steps: &[(&str, StepStatus)]) {
    push(
        log,
        t,
        "alice@ops",
        run,
        None,
        None,
        EventBody::RunPlanned {
            title: format!("maintenance {run}"),
            items: vec!["n1".into()],
            batches: vec![vec!["n1".into()]],
            spec: serde_json::Value::Null,
        },
    );
    for (i, (step, status)) in steps.iter().enumerate() {
        push(
            log,
            t + 10 + i as i64,
            "executor/e1",
            run,
            Some("n1"),
            Some(step),
            EventBody::StepStatusChanged {
                status: status.clone(),
            },
        );
    }
}

/// n1 cordoned and draining in mnt-1, then the run aborted: the journal says n1 was
/// left cordoned.
fn left_cordoned() -> EventLog {
    let mut log = EventLog::default();
    maintenance(
        &mut log,
        "mnt-1",
        0,
        &[
            ("Precheck", StepStatus::Succeeded),
            ("Cordon", StepStatus::Succeeded),
            ("Drain", StepStatus::Running),
        ],
    );
    push(
        &mut log,
        100,
        "bob@ops",
        "mnt-1",
        None,
        None,
        EventBody::Aborted {
            note: "wrong firmware".into(),
        },
    );
    log
}

fn use1(status: ClusterStatus, n1: Option<Schedulability>) -> ClusterHealth {
    ClusterHealth {
        id: ClusterId("prod-use1-01".into()),
        status,
        error: (status != ClusterStatus::Synced).then(|| "connection refused".to_string()),
        nodes_ready: (3, 3),
        budgets_below_minimum: Vec::new(),
        nodes: n1
            .map(|s| ("n1".to_string(), s))
            .into_iter()
            .chain([("n2".to_string(), Schedulability::Schedulable)])
            .collect::<BTreeMap<_, _>>(),
    }
}

fn report(log: &EventLog, fleet: Known<&[ClusterHealth]>) -> Handover {
    let projection = Projection::replay(&log.0);
    handover(&HandoverInput {
        journal: Known::Read(JournalFacts {
            projection: &projection,
            events: &log.0,
        }),
        fleet,
        ledger: Known::NotRead("not given".into()),
        findings: Known::Read(&[]),
        since: at(-3600),
        now: at(3600),
        expiring_within_days: 14,
    })
}

fn left_items(report: &Handover) -> Vec<&HandoverItem> {
    report
        .items
        .iter()
        .filter(|i| i.section == Section::LeftMidChange)
        .collect()
}

#[test]
fn a_node_left_cordoned_is_judged_by_what_its_cluster_reports() {
    let log = left_cordoned();
    let still = report(
        &log,
        Known::Read(&[use1(ClusterStatus::Synced, Some(Schedulability::Cordoned))]),
    );
    let left = left_items(&still);
    assert_eq!(left.len(), 1, "{still:#?}");
    assert_eq!(left[0].title, "n1 in mnt-1 left cordoned");
    assert_eq!(
        left[0].check,
        Check::Confirmed("prod-use1-01 reports n1 still cordoned".into())
    );
    assert!(
        left[0]
            .details
            .contains(&"checked: prod-use1-01 reports n1 still cordoned".to_string()),
        "{:?}",
        left[0].details
    );

    for (cluster, how) in [
        (
            use1(ClusterStatus::Synced, Some(Schedulability::Schedulable)),
            "prod-use1-01 reports n1 schedulable: it was uncordoned since",
        ),
        (
            use1(ClusterStatus::Synced, None),
            "prod-use1-01 has no node n1 any more (removed, or the cluster was rebuilt)",
        ),
    ] {
        let settled = report(&log, Known::Read(&[cluster]));
        assert!(left_items(&settled).is_empty(), "{settled:#?}");
        assert_eq!(
            settled.settled,
            [Settled {
                title: "n1 in mnt-1 left cordoned".into(),
                how: how.into(),
            }]
        );
    }
}

#[test]
fn a_node_whose_cluster_cannot_be_seen_stands_and_says_why() {
    let log = left_cordoned();
    for (fleet, why) in [
        (
            vec![use1(ClusterStatus::IdentityMismatch, None)],
            "prod-use1-01 answers as another cluster than the ledger pins: connection refused: \
             if it was rebuilt, re-pin it in the ledger; the node went with the old one",
        ),
        (
            vec![use1(ClusterStatus::Unreachable, None)],
            "prod-use1-01 is Unreachable: connection refused: its nodes cannot be seen",
        ),
        (
            // Degraded data without the node: gone or only unread, nobody can say.
            vec![use1(ClusterStatus::Degraded, None)],
            "prod-use1-01's data is Degraded: connection refused: whether n1 is still there \
             is not known",
        ),
        (
            Vec::new(),
            "prod-use1-01 is not among the ledger's clusters any more",
        ),
    ] {
        let r = report(&log, Known::Read(&fleet));
        let left = left_items(&r);
        assert_eq!(left.len(), 1, "{r:#?}");
        assert_eq!(left[0].check, Check::NotChecked(why.into()));
        assert!(r.settled.is_empty());
    }
    let r = report(
        &log,
        Known::NotRead("--wait-synced 0s skips the fleet sync".into()),
    );
    assert_eq!(
        left_items(&r)[0].check,
        Check::NotChecked(
            "cluster statuses not checked (--wait-synced 0s skips the fleet sync)".into()
        )
    );
    assert_eq!(
        r.not_checked[0],
        "cluster statuses not checked (--wait-synced 0s skips the fleet sync): clusters \
         Unreachable, IdentityMismatch, UNKNOWN or not whole are unknown, and what the \
         journal says was left behind was not checked against the clusters"
    );
}

#[test]
fn a_later_run_that_took_the_node_settles_what_an_earlier_one_left() {
    let mut log = left_cordoned();
    let cordoned = [use1(ClusterStatus::Synced, Some(Schedulability::Cordoned))];
    // A later run that only prechecked the node changed nothing on it.
    maintenance(&mut log, "mnt-2", 200, &[("Precheck", StepStatus::Running)]);
    assert_eq!(left_items(&report(&log, Known::Read(&cordoned))).len(), 1);
    maintenance(
        &mut log,
        "mnt-3",
        300,
        &[
            ("Precheck", StepStatus::Succeeded),
            ("Cordon", StepStatus::Succeeded),
            ("Drain", StepStatus::Succeeded),
            ("Maintain", StepStatus::Succeeded),
            ("Uncordon", StepStatus::Succeeded),
        ],
    );
    // Settled by the journal alone, even where the live state is not known.
    let r = report(&log, Known::NotRead("not synced".into()));
    assert!(left_items(&r).is_empty(), "{r:#?}");
    assert_eq!(
        r.settled[0].how,
        "mnt-3 took n1 through maintenance since and ended it (2026-11-27 17:25 UTC)"
    );
}

/// Rollout `run` of `digest` over prod-a, prod-b and prod-c, planned at `t`, applied to
/// `applied`.
fn rollout(log: &mut EventLog, run: &str, t: i64, digest: &str, applied: &[&str]) {
    push(
        log,
        t,
        "carol@ops",
        run,
        None,
        None,
        EventBody::RunPlanned {
            title: format!("rollout {digest}"),
            items: vec!["prod-a".into(), "prod-b".into(), "prod-c".into()],
            batches: vec![
                vec!["prod-a".into(), "prod-b".into()],
                vec!["prod-c".into()],
            ],
            spec: serde_json::Value::Null,
        },
    );
    push(
        log,
        t + 1,
        "executor/e1",
        run,
        None,
        None,
        EventBody::RolloutBatch {
            batch: 0,
            phase: crate::model::rollout::BatchPhase::Executing,
        },
    );
    for cluster in applied {
        push(
            log,
            t + 2,
            "executor/e1",
            run,
            Some(cluster),
            None,
            EventBody::ItemApplied {
                digest: ReleaseDigest(format!("sha256:{digest}")),
            },
        );
    }
}

fn aborted(log: &mut EventLog, run: &str, t: i64) {
    push(
        log,
        t,
        "bob@ops",
        run,
        None,
        None,
        EventBody::Aborted {
            note: "bad canary".into(),
        },
    );
}

#[test]
fn a_release_rolled_back_by_a_later_rollout_is_no_longer_left_behind() {
    let mut log = EventLog::default();
    rollout(
        &mut log,
        "ro-cni-2",
        0,
        "bbbbbbbbbbbbbbbb",
        &["prod-a", "prod-b"],
    );
    aborted(&mut log, "ro-cni-2", 10);
    let fleet = Known::NotRead("not synced".into());
    let r = report(&log, fleet.clone());
    let left = left_items(&r);
    assert_eq!(
        left[0].title,
        "ro-cni-2 aborted with its release on 2 of 3 clusters"
    );

    // The previous release rolled out again, to prod-a first: prod-b still runs ro-cni-2's.
    rollout(
        &mut log,
        "ro-cni-1-again",
        100,
        "aaaaaaaaaaaaaaaa",
        &["prod-a"],
    );
    let r = report(&log, fleet.clone());
    let left = left_items(&r);
    assert_eq!(
        left[0].title,
        "ro-cni-2 aborted with its release on 1 of 3 clusters"
    );
    assert!(
        left[0].details.contains(&"release on: prod-b".to_string()),
        "{:?}",
        left[0].details
    );
    assert!(
        left[0]
            .details
            .iter()
            .any(|d| d.starts_with("since: prod-a: ro-cni-1-again applied aaaaaaaaaaaa")),
        "{:?}",
        left[0].details
    );
    assert!(
        matches!(&left[0].check, Check::NotChecked(why) if why.contains("reads no cluster's release record")),
        "{:?}",
        left[0].check
    );

    // And to prod-b: nothing of ro-cni-2 is left anywhere.
    push(
        &mut log,
        120,
        "executor/e1",
        "ro-cni-1-again",
        Some("prod-b"),
        None,
        EventBody::ItemApplied {
            digest: ReleaseDigest("sha256:aaaaaaaaaaaaaaaa".into()),
        },
    );
    let r = report(&log, fleet);
    assert!(left_items(&r).is_empty(), "{r:#?}");
    assert_eq!(r.settled.len(), 1);
    assert_eq!(
        r.settled[0].title,
        "ro-cni-2 aborted with its release on 2 of 3 clusters"
    );
    assert!(
        r.settled[0]
            .how
            .starts_with("every cluster it reached has had a later release since: prod-a: ro-cni-1-again applied aaaaaaaaaaaa"),
        "{}",
        r.settled[0].how
    );
}

#[test]
fn sources_that_could_not_be_read_are_named_with_why() {
    let r = handover(&HandoverInput {
        journal: Known::NotRead("no journal at /tmp/j.sqlite yet".into()),
        fleet: Known::NotRead("no ledger configured".into()),
        ledger: Known::NotRead("no ledger configured".into()),
        findings: Known::Read(&[]),
        since: at(-3600),
        now: at(0),
        expiring_within_days: 14,
    });
    assert!(r.items.is_empty());
    assert_eq!(r.not_checked.len(), 2, "{:#?}", r.not_checked);
    assert!(r.not_checked[0].starts_with(
        "journal not read (no journal at /tmp/j.sqlite yet): pauses, batches awaiting approval"
    ));
    assert_eq!(
        r.not_checked[1],
        "ledger not read (no ledger configured): clusters Unreachable, IdentityMismatch, \
         UNKNOWN or not whole, findings new or worse this shift and expiring exceptions are \
         unknown, and what the journal says was left behind was not checked against the \
         clusters"
    );
    let connecting = ClusterHealth {
        status: ClusterStatus::Connecting,
        ..use1(ClusterStatus::Synced, None)
    };
    let r = report(&EventLog::default(), Known::Read(&[connecting]));
    assert_eq!(
        r.not_checked,
        [
            "still connecting, status unknown: prod-use1-01",
            "ledger not read (not given): expiring exceptions are unknown"
        ]
    );
}
