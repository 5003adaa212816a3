//! What the first screen (the ledger and the header) must not hide from a person on call:
//! counts of what waits, halted rollouts and zones that are down, contexts the ledger does
//! not list, sorting by what is shown, where an age and a version come from.

use std::sync::Arc;

use super::app::{App, Msg};
use super::fixtures;
use super::screens::ledger::Column;
use super::tests::{press, render};
use crate::model::fleet::Readiness;
use crate::model::run::{Actor, EventBody, EventLog, IdempotencyKey, NewEvent, RunId};

/// The operator fixture with every node of `zone` on eu-fra-prod-01 NotReady.
fn zone_down(app: &mut App, zone: &str) {
    let snapshot = fixtures::with_cluster(&app.snapshot, "eu-fra-prod-01", |c| {
        let mut view = (*c.view).clone();
        for node in view.nodes.iter_mut() {
            if node.labels.get("topology.kubernetes.io/zone").map(|z| &**z) == Some(zone) {
                node.readiness = Readiness::NotReady;
            }
        }
        c.view = Arc::new(view);
    });
    app.update(Msg::Snapshot(snapshot));
}

fn ledger_row<'s>(screen: &'s str, cluster: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.contains(&format!(" {cluster} ")))
        .unwrap_or_else(|| panic!("{cluster} not on screen:\n{screen}"))
}

#[test]
fn the_header_counts_what_waits_for_a_person_beside_the_automation_switch() {
    let app = fixtures::operator_app();
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("AUTOMATION RUNNING · 1 awaiting approval · 1 stuck │ alice@ops-laptop"),
        "{screen}"
    );
    // Narrow, the counts keep their place and take a shorter form; who you are goes first.
    let narrow = render(&app, 60, 20);
    assert!(
        narrow.contains("AUTOMATION RUNNING · 1 to approve · 1 stuck"),
        "{narrow}"
    );
    // A halted rollout is counted too.
    let halted = super::operator_tests::halted_on("eu-fra-prod-02");
    let screen = render(&halted, 160, 30);
    assert!(screen.contains("· 1 halted · 1 stuck"), "{screen}");
}

#[test]
fn in_flight_names_the_node_and_step_and_a_halted_rollout_is_not_a_dash() {
    let app = fixtures::operator_app();
    let screen = render(&app, 160, 30);
    assert!(
        ledger_row(&screen, "eu-fra-prod-01").contains("fra1-cpu-b00 Drain STUCK"),
        "{screen}"
    );
    let halted = super::operator_tests::halted_on("eu-fra-prod-01");
    let screen = render(&halted, 160, 30);
    assert!(
        ledger_row(&screen, "eu-fra-prod-01").contains("HALTED here"),
        "the canary the halt names: {screen}"
    );
}

#[test]
fn a_zone_with_every_node_not_ready_is_said_as_such() {
    let mut app = fixtures::operator_app();
    zone_down(&mut app, "fra1-1b");
    let screen = render(&app, 160, 30);
    assert!(
        ledger_row(&screen, "eu-fra-prod-01").contains("8/13, fra1-1b down"),
        "{screen}"
    );
    // One NotReady node of a zone that still has Ready ones is not a zone down.
    let screen = render(&fixtures::operator_app(), 160, 30);
    assert!(!screen.contains("down"), "{screen}");
}

#[test]
fn kubeconfig_contexts_the_ledger_does_not_list_are_shown() {
    let mut app = fixtures::operator_app();
    app.config.unregistered_contexts = vec!["stg-apse1-04".into(), "kind-dev".into()];
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains(
            "2 kubeconfig contexts not in the ledger: stg-apse1-04, kind-dev (ledger reconcile)"
        ),
        "{screen}"
    );
    let narrow = render(&app, 60, 20);
    assert!(
        narrow.contains("2 kubeconfig contexts not in the ledger"),
        "{narrow}"
    );
}

#[test]
fn s_cycles_only_through_the_columns_on_screen() {
    let mut app = fixtures::operator_app();
    app.update(Msg::Resize(60, 20));
    let shown = super::screens::ledger_view::visible_columns(crate::i18n::Lang::En, &app.rows, 58);
    assert!(!shown.contains(&Column::Owner) && !shown.contains(&Column::Drill));
    let mut seen = Vec::new();
    for _ in 0..shown.len() {
        press(&mut app, "s");
        seen.push(app.ledger_state.sort);
    }
    assert!(
        seen.iter().all(|c| shown.contains(c)),
        "{seen:?} of {shown:?}"
    );
    assert_eq!(
        seen.last(),
        Some(&Column::Status),
        "round to where it began"
    );
    // Backwards too.
    press(&mut app, "S");
    assert!(shown.contains(&app.ledger_state.sort));
}

#[test]
fn nodes_sort_by_nodes_not_ready_and_the_key_is_marked() {
    let mut app = fixtures::operator_app();
    zone_down(&mut app, "fra1-1b");
    app.ledger_state.sort = Column::Nodes;
    let order: Vec<&str> = app
        .ledger_state
        .visible(&app.rows)
        .iter()
        .map(|i| app.rows[*i].id.as_str())
        .filter(|id| app.rows.iter().any(|r| r.id == *id && r.usable()))
        .collect();
    // 5 not ready, then 0 and 0 (by id): the cluster's size does not matter.
    assert_eq!(
        order,
        ["eu-fra-prod-01", "eu-fra-prod-02", "us-east-stg-01"]
    );
    let screen = render(&app, 160, 30);
    assert!(screen.contains("NODES↑"), "{screen}");
    assert!(
        screen.contains("sort NODES, most not ready first"),
        "{screen}"
    );
    press(&mut app, "r");
    let screen = render(&app, 160, 30);
    assert!(screen.contains("NODES↓"), "{screen}");
}

#[test]
fn the_status_age_says_what_it_is_of_and_a_declared_version_is_marked() {
    let app = fixtures::operator_app();
    let screen = render(&app, 160, 30);
    assert!(screen.contains("STATUS · LAST HEARD"), "{screen}");
    assert!(
        ledger_row(&screen, "us-east-stg-01").contains("Synced 1s ago"),
        "{screen}"
    );
    // ap-sg-stg-02 never answered: its version is the ledger's, not one it reported.
    assert!(
        ledger_row(&screen, "ap-sg-stg-02").contains("v1.32.1 (ledger)"),
        "{screen}"
    );
    assert!(
        ledger_row(&screen, "ap-sg-stg-02").contains("Connecting, never heard"),
        "{screen}"
    );
    assert!(
        !ledger_row(&screen, "us-east-stg-01").contains("(ledger)"),
        "a reported version is not marked: {screen}"
    );
}

#[test]
fn read_only_offers_no_key_that_writes() {
    let mut app = fixtures::operator_app();
    app.config.readonly = true;
    for keys in ["4", "3", "H"] {
        press(&mut app, "esc");
        press(&mut app, keys);
        let screen = render(&app, 160, 40);
        for write in [
            "hands it to a person",
            "takes it over",
            "returns it",
            "<a> approve",
            "<h> hand off",
            "a acknowledge",
            "<P> pause all",
        ] {
            assert!(
                !screen.contains(write),
                "read-only offers `{write}` on {keys}:\n{screen}"
            );
        }
    }
    // Writable, the same screens offer them.
    let mut app = fixtures::operator_app();
    press(&mut app, "4");
    let screen = render(&app, 160, 40);
    assert!(screen.contains("h hands it to a person"), "{screen}");
}

/// The journal with the fixture's maintenance run paused, its reason long.
#[test]
fn a_paused_swimlane_says_its_pause_whole() {
    let mut app = fixtures::operator_app();
    let mut events = EventLog(fixtures::journal_events());
    let reason = "waiting for the storage team to confirm the replica rebuild finished";
    events.push(NewEvent::new(
        fixtures::now(),
        Actor("bob@ops".into()),
        IdempotencyKey("cmd/pause".into()),
        EventBody::Paused {
            scope: crate::model::run::PauseScope::Run {
                run: RunId("mnt-kernel-1".into()),
            },
            reason: reason.into(),
        },
    ));
    fixtures::with_journal(&mut app, events.0);
    press(&mut app, "4");
    for (w, h) in [(160, 45), (80, 24)] {
        let screen = render(&app, w, h);
        let words: String = screen
            .lines()
            .skip_while(|l| !l.contains("paused (run mnt-kernel-1) by bob@ops"))
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        for word in reason.split(' ') {
            assert!(
                words.contains(word),
                "{word} of the reason at {w}×{h}:\n{screen}"
            );
        }
    }
}
