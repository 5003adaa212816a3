//! A write whose answer is lost (the connection closes after the database committed it,
//! before the client heard so) is never reported as failed: the client asks again on a
//! new connection, by the write's idempotency key, and finds it recorded, once. A journal
//! that does not answer again in time leaves the outcome unknown, and it says so (exit
//! code 3), not that nothing was recorded. Through a proxy that loses the answer
//! (`support::proxy`), for the library and for the CLI.

use crate::support::proxy::Proxy;
use crate::support::team::{Team, one_cluster_plan, server};
use fleetdeck::engine::rollout_start::{NewRollout, record_rollout};
use fleetdeck::journal::{AnyJournal, JournalStore, JournalTarget, OpenMode};
use fleetdeck::model::run::{Actor, EventBody, IdempotencyKey, NewEvent};

/// `role`'s connection string through `proxy`, giving up on a connection after a second.
fn through(team: &Team, proxy: &Proxy, role: &str) -> String {
    team.url(role).replace(
        &format!("port={}", server().port()),
        &format!("port={} connect_timeout=1", proxy.port),
    )
}

fn note(key: &str) -> NewEvent {
    NewEvent::new(
        jiff::Timestamp::now(),
        Actor("op_a".into()),
        IdempotencyKey(key.into()),
        EventBody::Note {
            text: format!("note {key}"),
        },
    )
}

fn stored_under(team: &Team, key: &str) -> usize {
    team.events()
        .iter()
        .filter(|e| e.event.key.0 == key)
        .count()
}

#[test]
fn a_write_whose_answer_is_lost_is_found_by_its_key_and_recorded_once() {
    let team = Team::new();
    let proxy = Proxy::start(server().port());
    let mut journal = AnyJournal::open(
        &JournalTarget::Postgres(through(&team, &proxy, "op_a")),
        OpenMode::ReadWrite,
    )
    .expect("opens through the proxy");
    // An append in a statement of its own.
    proxy.lose_next_answer();
    let appended = journal
        .append(note("lost-answer"), None)
        .expect("found, not failed");
    assert!(proxy.answer_lost(), "the answer was lost");
    assert!(!appended.duplicate, "it is this write, found");
    assert_eq!(stored_under(&team, "lost-answer"), 1, "recorded once");
    // A plan decided on the journal as it stood (its own transaction): the commit's
    // answer lost, the run is found, not planned a second time under another id.
    let rollout = fleetdeck::model::rollout::read_rollout(
        "apiVersion: fleetdeck.dev/v1\nkind: Rollout\nrelease:\n  name: cni\n  bundle: {cni: c1}\n  action:\n    exec: {argv: [helm, upgrade], timeout: 1m}\n  checks:\n    - nodesReady: {minRatio: 0.9}\ntargets: \"\"\nstages:\n  - {name: all, batchSize: 1, soak: 10s, approval: auto, pick: ordered}\nbudgets: {maxInFlight: 1}\nstopWhen: {failedClusters: 1}\n",
    )
    .spec
    .expect("a rollout");
    let plan = one_cluster_plan(fleetdeck::model::rollout::Approval::Auto);
    proxy.lose_next_answer();
    let (run, _) = record_rollout(
        &mut journal,
        &Actor("op_a".into()),
        NewRollout {
            rollout,
            digest: fleetdeck::model::rollout::ReleaseDigest("sha256:00".into()),
            manifests: Vec::new(),
            plan: &plan,
        },
        jiff::Timestamp::now(),
    )
    .expect("found, not failed");
    assert!(proxy.answer_lost());
    let p = team.projection();
    assert_eq!(p.runs.len(), 1, "one run");
    assert!(p.runs.contains_key(&run));
}

#[test]
fn a_cli_pause_whose_answer_is_lost_is_reported_done_or_unknown_never_failed() {
    let team = Team::new();
    let proxy = Proxy::start(server().port());
    let dir = tempfile::tempdir().expect("tempdir");
    let pause = |reason: &str| {
        crate::support::cli::fleetdeck(
            &[
                "--journal",
                &through(&team, &proxy, "op_a"),
                "pause",
                "--all",
                "--reason",
                reason,
            ],
            dir.path(),
        )
    };
    let pauses = |reason: &str| {
        team.events()
            .iter()
            .filter(|e| matches!(&e.event.body, EventBody::Paused { reason: r, .. } if r == reason))
            .count()
    };
    // The journal answers again: the pause is found, the command succeeds.
    proxy.lose_next_answer();
    let out = pause("first");
    assert!(proxy.answer_lost());
    assert!(out.status.success(), "{}", crate::support::cli::text(&out));
    assert_eq!(pauses("first"), 1);
    // The journal does not answer again: the outcome is unknown, and said to be.
    proxy.lose_next_answer();
    let cut_then_refuse = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !proxy.answer_lost() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            proxy.refuse(true);
        });
        let out = pause("second");
        let _ = watcher.join();
        out
    });
    let text = crate::support::cli::text(&cut_then_refuse);
    assert_eq!(cut_then_refuse.status.code(), Some(3), "{text}");
    assert!(
        text.contains("did not confirm the write")
            && text.contains("may or may not have been recorded"),
        "{text}"
    );
    assert!(!text.contains("nothing was recorded"), "{text}");
    assert_eq!(pauses("second"), 1, "it was recorded, once");
    proxy.refuse(false);
    // Connecting at all fails before anything is sent: that is "nothing recorded".
    proxy.refuse(true);
    let out = pause("third");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(pauses("third"), 0);
}
