//! `fleetdeck handover` and the maintenance hand-off commands on a journal written here:
//! a drain stuck on a PDB, handed off with the CLI, listed in the Markdown report.

mod cli_support;

use cli_support::{fleetdeck, text};

use std::path::Path;

use fleetdeck::journal::{Durability, JournalStore, SqliteJournal};
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{
    Actor, EventBody, IdempotencyKey, ItemId, NewEvent, RunId, StepName, StepStatus,
};
use jiff::Timestamp;

/// A maintenance whose drain of n1 is stuck on a PDB, as the executor records it.
fn stuck_drain(dir: &Path) {
    let mut store =
        SqliteJournal::open(&dir.join("data/journal.sqlite"), Durability::Full).expect("journal");
    let run = RunId("mnt-reboot-1".into());
    let cluster = ClusterId("prod-use1-01".into());
    let now = Timestamp::now();
    store
        .append(
            NewEvent::new(
                now,
                Actor("alice@ops".into()),
                IdempotencyKey("mnt-reboot-1/planned".into()),
                EventBody::RunPlanned {
                    title: "maintenance reboot on prod-use1-01".into(),
                    items: vec!["n1".into()],
                    batches: vec![vec!["n1".into()]],
                    spec: serde_json::Value::Null,
                },
            )
            .with_run(run.clone())
            .with_cluster(cluster.clone()),
            None,
        )
        .expect("planned");
    store
        .append(
            NewEvent::new(
                now,
                Actor("executor/e1".into()),
                IdempotencyKey("mnt-reboot-1/n1/Drain/status#1".into()),
                EventBody::StepStatusChanged {
                    status: StepStatus::Blocked {
                        reason:
                            "PDB checkout-blocking needs 3 healthy pods and has 3 (shop/checkout-0)"
                                .into(),
                    },
                },
            )
            .with_run(run)
            .with_item(ItemId("n1".into()))
            .with_step(StepName("Drain".into()))
            .with_cluster(cluster),
            None,
        )
        .expect("blocked");
}

#[test]
fn a_handed_off_stuck_drain_is_in_the_markdown_handover() {
    let dir = tempfile::tempdir().unwrap();
    stuck_drain(dir.path());
    let out = fleetdeck(&["handover", "-o", "markdown"], dir.path());
    assert!(out.status.success(), "{}", text(&out));
    let report = text(&out);
    assert!(report.contains("## Stuck steps"), "{report}");
    assert!(
        report.contains("why: PDB checkout-blocking needs 3 healthy pods and has 3"),
        "{report}"
    );
    assert!(
        report.contains("Cluster statuses were not checked"),
        "{report}"
    );

    let refused = fleetdeck(
        &[
            "--readonly",
            "maintenance",
            "handoff",
            "mnt-reboot-1",
            "--node",
            "n1",
            "--to",
            "dana@ops",
            "--note",
            "x",
        ],
        dir.path(),
    );
    assert!(!refused.status.success() && text(&refused).contains("read-only"));

    let out = fleetdeck(
        &[
            "--as",
            "bob@ops",
            "maintenance",
            "handoff",
            "mnt-reboot-1",
            "--node",
            "n1",
            "--to",
            "dana@ops",
            "--note",
            "checkout owners paged",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = fleetdeck(&["handover", "--since", "8h", "-o", "markdown"], dir.path());
    let report = text(&out);
    assert!(report.contains("## Handed-off steps"), "{report}");
    assert!(report.contains("owner: dana@ops"), "{report}");
    assert!(report.contains("note: checkout owners paged"), "{report}");
    assert!(report.contains("handed off by bob@ops"), "{report}");

    let out = fleetdeck(&["handover", "-o", "json"], dir.path());
    let items: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(items[0]["section"], "handedOff");
    assert_eq!(items[0]["subject"]["item"], "n1");
}
