//! Snapshot and behaviour tests of the operator screens and dialogs, on the fixture fleet
//! and a fixture journal (a stuck drain, a hand-off, a rollout awaiting approval, a note).

use super::app::{Command, Overlay};
use super::feed::ConsoleCommand;
use super::fixtures;
use super::nav::Route;
use super::tests::{press, render, typed};
use crate::model::ledger::ClusterId;
use crate::model::live::ClusterStatus;
use crate::model::run::{
    Actor, ClusterRefusal, EventBody, EventLog, IdempotencyKey, ItemId, NewEvent, OperatorCommand,
    PauseScope, ReturnOutcome, RunId,
};

fn sent(commands: &[Command]) -> Option<&OperatorCommand> {
    commands.iter().find_map(|c| match c {
        Command::Send(ConsoleCommand::Operator(op)) => Some(op),
        _ => None,
    })
}

#[test]
fn maintenance_swimlanes() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4");
    assert_eq!(app.nav.current(), &Route::Maintenance);
    let screen = render(&app, 200, 36);
    assert!(screen.contains("STUCK 25m"), "{screen}");
    assert!(
        screen.contains("• PDB web-pdb needs 3 healthy pods and has 3 (shop/web-b0-0)"),
        "grouped reasons of the selected stuck card:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn a_drain_still_trying_shows_what_refused_its_last_eviction() {
    use crate::model::maintenance::{EvictionResult, Observation, PodRef};
    let mut app = fixtures::operator_app();
    let mut events = EventLog(fixtures::journal_events());
    let mut push = |key: &str, body: EventBody| {
        let mut e = NewEvent::new(
            fixtures::now(),
            Actor("executor/e1".into()),
            IdempotencyKey(key.into()),
            body,
        )
        .with_run(RunId("mnt-kernel-1".into()));
        e.item = Some(crate::model::run::ItemId::from("fra1-cpu-b00"));
        e.step = Some(crate::model::run::StepName::from("Drain"));
        events.push(e);
    };
    push(
        "retry",
        EventBody::StepStatusChanged {
            status: crate::model::run::StepStatus::Running,
        },
    );
    let refused = Observation::Evictions(vec![(
        PodRef {
            namespace: "shop".into(),
            name: "checkout-0".into(),
            uid: "u1".into(),
        },
        EvictionResult::BlockedByPdb {
            pdb: "checkout-blocking".into(),
            needs: 3,
            has: 3,
        },
    )]);
    push(
        "evict/outcome",
        EventBody::Outcome {
            intent: IdempotencyKey("evict".into()),
            ok: false,
            detail: serde_json::to_value(&refused).expect("json"),
        },
    );
    fixtures::with_journal(&mut app, events.0);
    press(&mut app, "4");
    let screen = render(&app, 200, 36);
    assert!(
        screen.contains("running 0s !"),
        "the lane marks the refused call:\n{screen}"
    );
    press(&mut app, "k");
    let screen = render(&app, 200, 36);
    assert!(
        screen.contains(
            "eviction refused, shop/checkout-0: PDB checkout-blocking needs 3 healthy pods and has 3"
        ),
        "{screen}"
    );
}

#[test]
fn hand_off_dialog_two_phases() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 h");
    typed(&mut app, "dave@ops");
    press(&mut app, "enter");
    typed(&mut app, "PDB web-pdb blocks; owners paged");
    insta::assert_snapshot!("hand_off_dialog", render(&app, 160, 36));
    assert!(press(&mut app, "enter").is_empty(), "nothing sent yet");
    insta::assert_snapshot!("hand_off_confirm", render(&app, 160, 36));
    let commands = press(&mut app, "enter");
    assert_eq!(
        sent(&commands),
        Some(&OperatorCommand::HandOff {
            run: RunId("mnt-kernel-1".into()),
            item: ItemId("fra1-cpu-b00".into()),
            to: Actor("dave@ops".into()),
            note: "PDB web-pdb blocks; owners paged".into(),
        })
    );
    assert!(app.overlay.is_none());
}

#[test]
fn take_over_and_return_dialogs() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 t");
    insta::assert_snapshot!("take_over_dialog", render(&app, 160, 30));
    press(&mut app, "esc");
    assert!(app.overlay.is_none());
    press(&mut app, "r");
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("not in a person's hands"),
        "{:?}",
        app.message
    );
    press(&mut app, "j r");
    typed(&mut app, "scaled web to 4");
    press(&mut app, "tab r");
    insta::assert_snapshot!("return_dialog", render(&app, 160, 30));
    press(&mut app, "enter");
    let commands = press(&mut app, "enter");
    assert!(matches!(
        sent(&commands),
        Some(OperatorCommand::Return {
            outcome: ReturnOutcome::Retry,
            ..
        })
    ));
}

#[test]
fn pause_run_and_freeze_cluster_dialogs() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 f");
    insta::assert_snapshot!("freeze_cluster_dialog", render(&app, 160, 30));
    typed(&mut app, "change freeze");
    press(&mut app, "enter");
    let commands = press(&mut app, "enter");
    assert!(matches!(
        sent(&commands),
        Some(OperatorCommand::Pause {
            scope: PauseScope::Cluster { .. },
            ..
        })
    ));
    press(&mut app, "p");
    typed(&mut app, "x");
    insta::assert_snapshot!("pause_run_dialog", render(&app, 160, 30));
    press(&mut app, "enter");
    assert!(matches!(
        sent(&press(&mut app, "enter")),
        Some(OperatorCommand::Pause {
            scope: PauseScope::Run { .. },
            ..
        })
    ));
}

pub(super) fn paused(app: &mut super::app::App) {
    let mut events = EventLog(fixtures::journal_events());
    events.push(NewEvent::new(
        fixtures::now() - jiff::SignedDuration::from_mins(5),
        Actor("alice@ops-laptop".into()),
        IdempotencyKey("pause".into()),
        EventBody::Paused {
            scope: PauseScope::Fleet,
            reason: "incident 4711: registry outage".into(),
        },
    ));
    fixtures::with_journal(app, events.0);
}

#[test]
fn global_pause_asks_why_then_the_banner_shows_everywhere() {
    let mut app = fixtures::operator_app();
    press(&mut app, "P");
    insta::assert_snapshot!("global_pause_dialog", render(&app, 160, 30));
    press(&mut app, "enter");
    assert_eq!(
        app.overlay.as_ref().and_then(|o| match o {
            Overlay::Dialog(d) => d.problem.clone(),
            _ => None,
        }),
        Some("reason must not be empty".into())
    );
    typed(&mut app, "incident 4711: registry outage");
    press(&mut app, "enter");
    insta::assert_snapshot!("global_pause_confirm", render(&app, 160, 30));
    assert_eq!(
        sent(&press(&mut app, "enter")),
        Some(&OperatorCommand::Pause {
            scope: PauseScope::Fleet,
            reason: "incident 4711: registry outage".into()
        })
    );
    paused(&mut app);
    for screen in ["1", "2", "3", "4", "5"] {
        press(&mut app, screen);
        let text = render(&app, 200, 20);
        assert!(
            text.contains("ALL AUTOMATION PAUSED by alice@ops-laptop"),
            "banner on screen {screen}:\n{text}"
        );
    }
    press(&mut app, "3");
    let text = render(&app, 200, 20);
    assert!(
        text.contains("<P> resume all"),
        "the footer says what P does now:\n{text}"
    );
    press(&mut app, "1");
    insta::assert_snapshot!("paused_banner", render(&app, 200, 16));
    press(&mut app, "P");
    insta::assert_snapshot!("global_resume_dialog", render(&app, 160, 30));
    press(&mut app, "enter");
    assert!(matches!(
        sent(&press(&mut app, "enter")),
        Some(OperatorCommand::Resume {
            scope: PauseScope::Fleet,
            ..
        })
    ));
}

#[test]
fn readonly_refuses_every_mutating_key_and_says_why() {
    let mut app = fixtures::app();
    fixtures::with_journal(&mut app, fixtures::journal_events());
    for keys in ["3 a", "3 p", "3 X", "4 h", "4 t", "4 r", "4 f", "P"] {
        app.message = None;
        let commands = press(&mut app, keys);
        assert!(commands.is_empty(), "{keys} sent {commands:?}");
        assert!(app.overlay.is_none(), "{keys} opened a dialog");
        let message = app.message.clone().unwrap_or_default();
        assert!(
            message.starts_with("read-only mode (--readonly)"),
            "{keys}: {message}"
        );
    }
    press(&mut app, "3 a");
    insta::assert_snapshot!("readonly_refuses_approve", render(&app, 160, 24));
    press(&mut app, "H a");
    assert!(app.message.as_deref().unwrap_or("").contains("read-only"));
    press(&mut app, "esc :");
    typed(&mut app, "pause");
    let Some(Overlay::Palette(p)) = &app.overlay else {
        panic!("palette closed")
    };
    assert!(
        p.matches.iter().all(|e| e.label != ":pause"),
        "hidden when read-only"
    );
}

#[test]
fn rollouts_screen() {
    let mut app = fixtures::operator_app();
    press(&mut app, "3");
    let screen = render(&app, 200, 40);
    assert!(screen.contains("awaiting-approval"), "{screen}");
    assert!(screen.contains("gate after batch 1 passed"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn approve_dialog_lists_clusters_budgets_and_gates() {
    let mut app = fixtures::operator_app();
    // Batch 2 is eu-fra-prod-02 (Degraded) and us-east-prod-03, reachable again.
    fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
    press(&mut app, "3 a");
    let screen = render(&app, 160, 36);
    assert!(screen.contains("budgets: 2 in flight at once"), "{screen}");
    insta::assert_snapshot!("approve_dialog", screen);
    typed(&mut app, "canary clean for 45m");
    press(&mut app, "enter");
    assert_eq!(
        sent(&press(&mut app, "enter")),
        Some(&OperatorCommand::Approve {
            run: RunId("ro-cni-1".into()),
            batch: Some(1),
            note: "canary clean for 45m".into()
        })
    );
}

#[test]
fn approve_is_refused_before_the_form_when_a_cluster_of_the_batch_cannot_act() {
    // Batch 2 holds us-east-prod-03, which the fixture fleet sees Unreachable.
    let mut app = fixtures::operator_app();
    press(&mut app, "3 a");
    let screen = render(&app, 160, 36);
    assert!(
        screen.contains(
            "refused: batch 2 cannot be approved now: us-east-prod-03 (nothing recent is known about it"
        ) && screen.contains("cluster is Unreachable) cannot take actions"),
        "the cluster is named with the change rule's reason:\n{screen}"
    );
    assert!(screen.contains("pause"), "{screen}");
    assert!(!screen.contains("▸ note"), "no form:\n{screen}");
    assert!(press(&mut app, "enter").is_empty());
    assert!(app.overlay.is_none());
}

#[test]
fn distinct_approver_refusal_says_why() {
    let mut app = fixtures::operator_app();
    app.config.actor = "carol@ops".into();
    press(&mut app, "3 a");
    let screen = render(&app, 160, 36);
    assert!(
        screen.contains("carol@ops started this rollout and cannot approve"),
        "{screen}"
    );
    insta::assert_snapshot!("approve_refused", screen);
    assert!(press(&mut app, "enter").is_empty());
    assert!(app.overlay.is_none());
}

#[test]
fn abort_needs_the_name_typed() {
    let mut app = fixtures::operator_app();
    press(&mut app, "3 X");
    typed(&mut app, "bad release");
    press(&mut app, "enter");
    typed(&mut app, "ro-cni");
    press(&mut app, "enter");
    insta::assert_snapshot!("abort_dialog_wrong_name", render(&app, 160, 30));
    typed(&mut app, "-1");
    press(&mut app, "enter");
    assert!(matches!(
        sent(&press(&mut app, "enter")),
        Some(OperatorCommand::Abort { .. })
    ));
}

#[test]
fn aborting_a_maintenance_says_what_stays_and_not_a_rollouts_rollback() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 X");
    let screen = render(&app, 160, 30);
    assert!(screen.contains("stays cordoned"), "{screen}");
    assert!(!screen.contains("rollback"), "{screen}");
}

#[test]
fn timeline_filters_and_details() {
    let mut app = fixtures::operator_app();
    press(&mut app, "5");
    insta::assert_snapshot!("timeline", render(&app, 200, 30));
    press(&mut app, "/");
    typed(&mut app, "actor=bob@ops");
    press(&mut app, "enter");
    let screen = render(&app, 200, 30);
    assert!(screen.contains("1 of 20 events"), "{screen}");
    press(&mut app, "enter");
    insta::assert_snapshot!("timeline_detail", render(&app, 160, 30));
    press(&mut app, "esc");
    assert!(app.timeline_state.detail.is_none());
    press(&mut app, "esc k");
    assert!(!app.timeline_state.follow, "moving up stops the live tail");
}

#[test]
fn handover_walkthrough_and_acknowledge() {
    let mut app = fixtures::operator_app();
    press(&mut app, "H");
    let screen = render(&app, 200, 40);
    // Nine items, and the two findings that started this shift (a failing etcd check,
    // an Application out of sync for 2h).
    assert!(screen.contains("item 1 of 11"), "{screen}");
    assert!(
        screen.contains("eu-fra-prod-02: readyz check etcd fails"),
        "{screen}"
    );
    insta::assert_snapshot!("handover_walkthrough", screen);
    let handed = app
        .handover
        .items
        .iter()
        .position(|i| i.title.contains("is with bob@ops"))
        .expect("the hand-off is listed");
    for _ in 0..handed {
        press(&mut app, "right");
    }
    let screen = render(&app, 200, 40);
    assert!(
        screen.contains("note: web team is scaling up; retry after 15:00"),
        "the hand-off's note:\n{screen}"
    );
    insta::assert_snapshot!("handover_hand_off_item", screen);
    press(&mut app, "a");
    typed(&mut app, "read it, will check at 15:00");
    insta::assert_snapshot!("acknowledge_dialog", render(&app, 160, 30));
    press(&mut app, "enter");
    let confirm = render(&app, 160, 30);
    assert!(
        confirm.contains("it stays acknowledged for everyone until it gets worse"),
        "{confirm}"
    );
    assert!(
        !confirm.contains("step/"),
        "the confirmation shows no internal key:\n{confirm}"
    );
    let commands = press(&mut app, "enter");
    let Some(OperatorCommand::Acknowledge {
        problem,
        note,
        item,
        ..
    }) = sent(&commands)
    else {
        panic!("{commands:?}")
    };
    assert_eq!(note, "read it, will check at 15:00");
    assert!(problem.0.starts_with("step/"), "{problem}");
    assert_eq!(item.as_ref().map(|i| i.as_str()), Some("fra1-cpu-c00"));
    assert!(
        matches!(app.overlay, Some(Overlay::Handover)),
        "back to the walkthrough"
    );
}

/// The operator console drilled down into `cluster`, then `keys` pressed there.
fn on_cluster(cluster: &str, keys: &str) -> super::app::App {
    let mut app = fixtures::operator_app();
    press(&mut app, ":");
    typed(&mut app, &format!("cluster {cluster}"));
    press(&mut app, &format!("enter {keys}"));
    app
}

#[test]
fn start_maintenance_from_marked_nodes() {
    let mut app = on_cluster("us-east-stg-01", "space space m");
    let screen = render(&app, 160, 36);
    assert!(screen.contains("batch 2: use1-cpu-b00"), "{screen}");
    insta::assert_snapshot!("start_maintenance_dialog", screen);
    press(&mut app, "enter");
    for _ in 0..3 {
        press(&mut app, "backspace");
    }
    typed(&mut app, "2m");
    press(&mut app, "enter");
    let commands = press(&mut app, "enter");
    let Some(Command::Send(ConsoleCommand::StartMaintenance { spec, inventory })) =
        commands.first()
    else {
        panic!("{commands:?}")
    };
    assert_eq!(
        spec.deadlines.of(crate::model::maintenance::Step::Drain),
        std::time::Duration::from_secs(120)
    );
    assert_eq!(
        inventory.len(),
        5,
        "every node of the cluster, GPU nodes too"
    );
    let crate::model::maintenance::NodeSelection::Names(names) = &spec.nodes else {
        panic!()
    };
    assert_eq!(names.len(), 2);
}

#[test]
fn start_maintenance_from_the_node_page_takes_its_node() {
    let mut app = on_cluster("us-east-stg-01", "j enter");
    let Route::Node(_, node) = app.nav.current().clone() else {
        panic!("{:?}", app.nav.current())
    };
    press(&mut app, "m");
    let screen = render(&app, 160, 36);
    assert!(screen.contains(&format!("batch 1: {node}")), "{screen}");
    press(&mut app, "enter enter");
    let commands = press(&mut app, "enter");
    let Some(Command::Send(ConsoleCommand::StartMaintenance { spec, .. })) = commands.first()
    else {
        panic!("{commands:?}")
    };
    let crate::model::maintenance::NodeSelection::Names(names) = &spec.nodes else {
        panic!("{:?}", spec.nodes)
    };
    assert_eq!(
        names.iter().map(|n| n.0.as_str()).collect::<Vec<_>>(),
        [node.as_ref()]
    );
    assert_eq!(spec.name, format!("console-{node}"));
}

#[test]
fn a_maintenance_started_in_the_console_gets_a_name_fit_for_run_ids() {
    let mut app = on_cluster("us-east-stg-01", "space m");
    typed(&mut app, " / X");
    press(&mut app, "enter enter");
    let screen = render(&app, 200, 36);
    assert!(
        screen.contains("name \"console-use1-cpu-a00 / X\" must be lowercase letters"),
        "{screen}"
    );
    assert_eq!(
        super::operator_keys::default_run_name(&format!("n-{}.x", "a".repeat(60))),
        format!("console-n-{}", "a".repeat(53)),
        "a long node name is cut to 63 characters, ending with a letter or digit"
    );
}

#[test]
fn start_maintenance_refused_when_nothing_can_be_planned() {
    let app = on_cluster("eu-fra-prod-01", "space space m");
    let screen = render(&app, 160, 36);
    assert!(
        screen.contains("refused: no node can be planned"),
        "{screen}"
    );
    assert!(screen.contains("maxUnavailable 1 reached"), "{screen}");
}

#[test]
fn start_maintenance_refused_on_a_cluster_that_allows_no_change() {
    let app = on_cluster("us-east-prod-03", "space m");
    let screen = render(&app, 160, 24);
    assert!(
        screen.contains("only a Synced or Degraded cluster whose identity is confirmed"),
        "{screen}"
    );
    assert!(screen.contains("cluster is Unreachable"), "{screen}");
    // A Degraded cluster allows actions, as the rule says: the plan is shown.
    let app = on_cluster("eu-fra-prod-02", "space m");
    let screen = render(&app, 160, 36);
    assert!(!screen.contains("refused"), "{screen}");
}

#[test]
fn start_maintenance_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.yaml");
    std::fs::write(
        &path,
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: kernel-b\ncluster: us-east-stg-01\nnodes: {names: [use1-cpu-b00]}\naction: {exec: {argv: [\"true\"], timeout: 5m, idempotent: false}}\nbudgets: {maxUnavailable: 1, failureDomainLabel: topology.kubernetes.io/zone}\ndeadlines: {drain: 45s}\n",
    )
    .unwrap();
    let mut app = fixtures::operator_app();
    press(&mut app, ":");
    typed(&mut app, &format!("start {}", path.display()));
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(screen.contains("batch 1: use1-cpu-b00"), "{screen}");
    assert!(
        screen.contains("45s"),
        "the file's drain deadline is offered:\n{screen}"
    );
    press(&mut app, "enter enter");
    let commands = press(&mut app, "enter");
    let Some(Command::Send(ConsoleCommand::StartMaintenance { spec, .. })) = commands.first()
    else {
        panic!("{commands:?}")
    };
    assert_eq!(spec.name, "kernel-b");

    std::fs::write(&path, "kind: Maintenance\nname: [\n").unwrap();
    press(&mut app, ":");
    typed(&mut app, &format!("start {}", path.display()));
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("has errors: nothing was started"),
        "{screen}"
    );
    assert!(
        screen.contains("m.yaml:"),
        "problems name the file:\n{screen}"
    );
}

#[test]
fn start_reads_a_path_under_home_as_a_shell_does() {
    let Some(home) = std::env::var_os("HOME") else {
        return;
    };
    let mut app = fixtures::operator_app();
    press(&mut app, ":");
    typed(&mut app, "start ~/fleetdeck-test-no-such-maintenance.yaml");
    press(&mut app, "enter");
    let screen = render(&app, 200, 30);
    let expanded = std::path::Path::new(&home).join("fleetdeck-test-no-such-maintenance.yaml");
    assert!(
        screen.contains(&format!("cannot read {}", expanded.display())),
        "{screen}"
    );
}

#[test]
fn operator_screens_and_dialogs_never_panic_at_any_size() {
    let mut app = fixtures::operator_app();
    for (w, h) in [(1, 1), (40, 12), (41, 13), (80, 24), (300, 100), (0, 0)] {
        app.update(super::app::Msg::Resize(w, h));
        for keys in [
            "3", "a", "esc", "X", "esc", "4", "j", "h", "esc", "t", "esc", "f", "esc", "5", "k",
            "enter", "esc", "f", "H", "right", "a", "esc", "esc", "P", "esc",
        ] {
            press(&mut app, keys);
            let _ = super::view::render_to_buffer(&app, w, h);
        }
    }
}

/// The operator fixture with ro-cni-1 halted because `cluster`'s metrics are unknown.
pub(super) fn halted_on(cluster: &str) -> super::app::App {
    use crate::model::rollout::HaltReason;
    let mut app = fixtures::operator_app();
    let mut events = EventLog(fixtures::journal_events());
    events.push(
        NewEvent::new(
            fixtures::now(),
            Actor("executor/e1".into()),
            IdempotencyKey("halt".into()),
            EventBody::RolloutHalted {
                batch: 1,
                why: HaltReason::MetricsUnknown {
                    clusters: vec![(cluster.into(), "prometheus unreachable".into())],
                },
            },
        )
        .with_run(RunId("ro-cni-1".into())),
    );
    fixtures::with_journal(&mut app, events.0);
    app
}

#[test]
fn a_cluster_the_halt_names_covers_nothing_even_if_it_verified() {
    // The canary verified, then its metrics could not be read: the run halted on it.
    let mut app = halted_on("eu-fra-prod-01");
    press(&mut app, "3");
    let screen = render(&app, 200, 30);
    assert!(screen.contains("! eu-fra-prod-01"), "{screen}");
    assert!(
        screen.contains("0 of 1 version/hardware combinations"),
        "{screen}"
    );
}

#[test]
fn a_halted_rollout_shows_why_and_p_resumes_it() {
    let mut app = halted_on("eu-fra-prod-02");
    press(&mut app, "3");
    let screen = render(&app, 200, 30);
    assert!(
        screen.contains("metrics UNKNOWN on eu-fra-prod-02 (prometheus unreachable)"),
        "{screen}"
    );
    insta::assert_snapshot!("rollouts_halted", screen);
    press(&mut app, "p");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("resume halted ro-cni-1"),
        "{:?}\n{screen}",
        app.message
    );
    press(&mut app, "enter");
    assert!(matches!(
        sent(&press(&mut app, "enter")),
        Some(OperatorCommand::Resume {
            scope: PauseScope::Run { .. },
            ..
        })
    ));
    press(&mut app, "H");
    assert!(
        app.handover
            .items
            .iter()
            .any(|i| i.section == crate::model::handover::Section::HaltedRollouts),
        "the handover lists the halted rollout"
    );
}

#[test]
fn nodes_maintenance_holds_are_shown_and_not_counted_as_capacity() {
    // The fixture journal's maintenance on eu-fra-prod-01 has begun on fra1-cpu-b00 and
    // fra1-cpu-c00 (drains blocked) and finished on fra1-cpu-a00; the nodes themselves
    // still report schedulable.
    let without = fixtures::app();
    let mut app = fixtures::operator_app();
    let free = |app: &super::app::App| {
        app.data
            .cluster("eu-fra-prod-01")
            .map(|facts| facts.allocatable.cpu_millis())
            .expect("facts")
    };
    assert!(
        free(&app) < free(&without),
        "nodes under maintenance leave healthy allocatable"
    );
    press(&mut app, ":");
    typed(&mut app, "cluster eu-fra-prod-01");
    press(&mut app, "enter");
    let screen = render(&app, 200, 60);
    let row = |node: &str| {
        screen
            .lines()
            .find(|l| l.contains(node))
            .unwrap_or_else(|| panic!("{node} on screen:\n{screen}"))
            .to_string()
    };
    assert!(row("fra1-cpu-b00").contains("in maintenance"), "{screen}");
    assert!(row("fra1-cpu-c00").contains("in maintenance"), "{screen}");
    assert!(!row("fra1-cpu-a00").contains("in maintenance"), "{screen}");
}

#[test]
fn facts_prepared_beside_the_event_loop_are_taken_unless_the_holds_moved_meanwhile() {
    use std::sync::Arc;
    // Prepared by a console that knows no maintenance; taken by one whose journal holds
    // two nodes of eu-fra-prod-01 (as if the journal moved while the facts were prepared).
    let without = fixtures::app();
    let mut app = fixtures::operator_app();
    let prepared = without.facts_inputs().prepare(fixtures::snapshot());
    let other = prepared
        .snapshot
        .clusters
        .iter()
        .map(|c| c.id.to_string())
        .find(|id| id != "eu-fra-prod-01")
        .expect("another cluster");
    let kept = Arc::clone(prepared.data.cluster(&other).expect("facts"));
    let unheld = prepared
        .data
        .cluster("eu-fra-prod-01")
        .expect("facts")
        .allocatable
        .cpu_millis();
    let before = app.snapshot.version;
    app.update(super::app::Msg::Prepared(Box::new(prepared)));
    assert_eq!(
        app.take_retired().map(|r| r.0.version),
        Some(before),
        "the snapshot replaced is handed back to be freed off the event loop"
    );
    assert!(
        Arc::ptr_eq(app.data.cluster(&other).expect("facts"), &kept),
        "facts prepared for unchanged holds are taken as they are"
    );
    let held = app.data.cluster("eu-fra-prod-01").expect("facts");
    assert!(
        held.allocatable.cpu_millis() < unheld,
        "the cluster whose holds moved is worked out again with this console's holds"
    );
}

#[test]
fn a_confirmation_too_tall_for_the_terminal_is_not_taken() {
    use super::app::Msg;
    let mut app = fixtures::operator_app();
    fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
    press(&mut app, "3 a");
    typed(&mut app, "canary clean for 45m");
    press(&mut app, "enter");
    // A short terminal: the approval's context gives way to what it will do.
    app.update(Msg::Resize(40, 12));
    let screen = render(&app, 40, 12);
    assert!(screen.contains("This will:"), "{screen}");
    assert!(screen.contains("clean for 45m)"), "all of it: {screen}");
    assert!(screen.contains("enter confirms"), "{screen}");
    // Where even that cannot be shown in full, enter sends nothing.
    press(&mut app, "esc");
    typed(
        &mut app,
        ", latency flat, error ratio under the objective in every canary cluster, dashboards reviewed with the service owners",
    );
    press(&mut app, "enter");
    let screen = render(&app, 40, 12);
    assert!(screen.contains("enlarge the terminal"), "{screen}");
    assert!(press(&mut app, "enter").is_empty(), "nothing sent blind");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("too small")),
        "{:?}",
        app.message
    );
    // Once it fits, the same key sends.
    app.update(Msg::Resize(160, 36));
    let screen = render(&app, 160, 36);
    assert!(screen.contains("This will:"), "{screen}");
    assert!(sent(&press(&mut app, "enter")).is_some());
}

#[test]
fn slash_on_a_screen_without_a_filter_does_not_filter_another_screen() {
    let mut app = fixtures::operator_app();
    let ledger_rows = app.rows.len();
    press(&mut app, "3 /");
    assert!(app.filter_input.is_none(), "no filter input opens");
    assert_eq!(app.message.as_deref(), Some("this screen has no filter"));
    press(&mut app, "1");
    assert!(
        app.ledger_state.filter.is_empty(),
        "the ledger filter is untouched"
    );
    assert_eq!(app.rows.len(), ledger_rows);
}

#[test]
fn the_rollout_list_scrolls_to_keep_the_selected_run_in_view() {
    use crate::model::run::{EventBody, Sequence};
    let mut events = fixtures::journal_events();
    let planned = events
        .iter()
        .find(|e| {
            matches!(e.event.body, EventBody::RunPlanned { .. })
                && e.event.run.as_ref().is_some_and(|r| r.0 == "ro-cni-1")
        })
        .cloned()
        .expect("the fixture rollout");
    let first = events.last().map_or(1, |e| e.seq.0 + 1);
    for i in 0..40 {
        let mut copy = planned.clone();
        copy.seq = Sequence(first + i);
        copy.event.run = Some(RunId(format!("ro-old-{i:02}")));
        copy.event.key = IdempotencyKey(format!("ro-old-{i:02}/planned"));
        events.push(copy);
    }
    let mut app = fixtures::operator_app();
    fixtures::with_journal(&mut app, events);
    press(&mut app, "3 G");
    let screen = render(&app, 120, 20);
    assert!(screen.contains('▶'), "the selected run is drawn: {screen}");
}

#[test]
fn the_handover_without_a_journal_says_so_rather_than_nothing_to_hand_over() {
    let mut app = fixtures::app();
    app.activity.connected = false;
    // A fleet with nothing to say for itself: only the journal could add items.
    app.update(super::app::Msg::Snapshot(
        crate::model::live::FleetSnapshot::empty(),
    ));
    press(&mut app, "H");
    let screen = render(&app, 160, 36);
    assert!(app.handover.items.is_empty(), "{:?}", app.handover.items);
    assert!(screen.contains("Journal not connected"), "{screen}");
    assert!(!screen.contains("Nothing to hand over"), "{screen}");
}

#[test]
fn pasted_text_goes_into_the_field_being_edited_and_confirms_nothing() {
    use super::app::Msg;
    let mut app = fixtures::operator_app();
    press(&mut app, "4 h");
    assert!(app.update(Msg::Paste("dave@ops\n".into())).is_empty());
    press(&mut app, "enter");
    assert!(
        app.update(Msg::Paste("PDB web-pdb blocks;\nowners paged".into()))
            .is_empty(),
        "a pasted line break sends nothing"
    );
    assert!(press(&mut app, "enter").is_empty(), "nothing sent yet");
    assert_eq!(
        sent(&press(&mut app, "enter")),
        Some(&OperatorCommand::HandOff {
            run: RunId("mnt-kernel-1".into()),
            item: ItemId("fra1-cpu-b00".into()),
            to: Actor("dave@ops".into()),
            note: "PDB web-pdb blocks;\nowners paged".into(),
        })
    );
    // Outside a field, a paste is dropped and said so.
    app.update(Msg::Paste("x".into()));
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.starts_with("paste ignored"))
    );
}

#[test]
fn help_lists_only_the_list_keys_a_screen_uses() {
    let text = |app: &super::app::App| -> String {
        super::help::lines(app, 200)
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut app = fixtures::operator_app();
    let ledger = text(&app);
    assert!(ledger.contains("Mark or unmark"), "{ledger}");
    press(&mut app, "3");
    let rollouts = text(&app);
    assert!(!rollouts.contains("Mark or unmark"), "{rollouts}");
    assert!(
        rollouts.contains("approve") || rollouts.contains("Approve"),
        "{rollouts}"
    );
    press(&mut app, "4");
    let maintenance = text(&app);
    assert!(!maintenance.contains("Mark or unmark"), "{maintenance}");
}

#[test]
fn a_refusal_stays_in_the_footer_through_other_keys_for_a_while() {
    use super::app::Msg;
    use super::feed::Notice;
    let mut app = fixtures::operator_app();
    app.update(Msg::Notice(Notice {
        ok: false,
        text: "cluster prod-use1-04 is not the one the ledger pins".into(),
    }));
    press(&mut app, "j k");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("refused")),
        "{:?}",
        app.message
    );
    let later = jiff::Timestamp::from_second(app.now.as_second() + 20).unwrap();
    app.update(Msg::Tick(later));
    press(&mut app, "j");
    assert_eq!(app.message, None, "gone after a while");
    app.update(Msg::Notice(Notice {
        ok: false,
        text: "again".into(),
    }));
    press(&mut app, "esc");
    assert!(
        !app.message
            .as_deref()
            .is_some_and(|m| m.contains("refused")),
        "esc clears it at once: {:?}",
        app.message
    );
    // Another message replacing a held one is not held itself.
    app.update(Msg::Notice(Notice {
        ok: false,
        text: "third".into(),
    }));
    app.update(Msg::Notice(Notice {
        ok: true,
        text: "recorded".into(),
    }));
    press(&mut app, "j");
    assert_eq!(app.message, None, "{:?}", app.message);
}

#[test]
fn the_fleet_capacity_list_and_the_cluster_page_agree_while_nodes_are_in_maintenance() {
    // eu-fra-prod-01 has two nodes in maintenance still running their pods: both screens
    // count those pods as demand that needs a place, so they show the same CPU figure.
    let mut app = fixtures::operator_app();
    press(&mut app, "2");
    let fleet = render(&app, 200, 40);
    let percent_in = |line: &str| -> String {
        line.split_whitespace()
            .find(|w| w.ends_with('%'))
            .unwrap_or_else(|| panic!("a percentage in {line}"))
            .to_string()
    };
    let row = fleet
        .lines()
        .find(|l| l.contains("eu-fra-prod-01"))
        .unwrap_or_else(|| panic!("eu-fra-prod-01 listed:\n{fleet}"));
    let listed = percent_in(row);
    app.go_capacity(
        crate::tui::CapacityScope::Cluster("eu-fra-prod-01".into()),
        false,
    );
    let page = render(&app, 200, 40);
    let cpu = page
        .lines()
        .find(|l| l.trim_start_matches(['│', ' ']).starts_with("CPU "))
        .unwrap_or_else(|| panic!("a CPU line:\n{page}"));
    assert_eq!(percent_in(cpu), listed, "{row}\n{cpu}");
}

#[test]
fn a_narrow_maintenance_screen_keeps_the_run_status_and_stuck_count() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4");
    let screen = render(&app, 80, 24);
    let header = screen
        .lines()
        .find(|l| l.contains("▌mnt-kernel-1"))
        .unwrap_or_else(|| panic!("run header:\n{screen}"));
    assert!(
        header.contains("PLANNED") && header.contains("1 STUCK"),
        "{header}"
    );
    // Too narrow for the step grid, each card says its step and status in words, whole.
    assert!(
        screen.contains("fra1-cpu-b00             Drain STUCK 25m"),
        "{screen}"
    );
    // With room for the grid, the two Verify columns stay apart and no cell runs into
    // the next.
    let screen = render(&app, 110, 24);
    assert!(
        screen.contains("VNode") && screen.contains("VWork"),
        "{screen}"
    );
    assert!(screen.contains("STUCK 25m"), "{screen}");
    assert!(!screen.contains("pending·"), "{screen}");
}

#[test]
fn long_run_ids_are_listed_whole_when_the_screen_has_room() {
    // Two runs of one rollout file: their ids differ in the middle and at the end.
    let base: Vec<_> = fixtures::journal_events()
        .into_iter()
        .filter(|e| e.event.run.as_ref().is_some_and(|r| r.0 == "ro-cni-1"))
        .collect();
    let mut events = Vec::new();
    for (copy, id) in [
        "ro-cni-canary-ux-1-1796048131",
        "ro-cni-canary-ux-2-1796048127",
    ]
    .into_iter()
    .enumerate()
    {
        for (i, e) in base.iter().enumerate() {
            let mut e = e.clone();
            e.seq = crate::model::run::Sequence((copy * 1000 + i + 1) as i64);
            e.event.run = Some(RunId(id.into()));
            e.event.key = crate::model::run::IdempotencyKey(format!("{id}/{i}"));
            events.push(e);
        }
    }
    let mut app = fixtures::app();
    fixtures::with_journal(&mut app, events);
    press(&mut app, "3");
    let screen = render(&app, 200, 30);
    for id in [
        "ro-cni-canary-ux-1-1796048131",
        "ro-cni-canary-ux-2-1796048127",
    ] {
        let line = screen
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_else(|| panic!("{id}:\n{screen}"));
        // And its status after it, whole.
        assert!(line.contains("awaiting-approval"), "{line}");
    }
}

#[test]
fn a_handed_off_or_taken_over_step_names_the_person_not_the_executor() {
    let mut app = fixtures::operator_app();
    let mut events = EventLog(fixtures::journal_events());
    let on_c00 = |actor: &str, key: &str, body: EventBody| {
        let mut e = NewEvent::new(
            fixtures::now(),
            Actor(actor.into()),
            IdempotencyKey(key.into()),
            body,
        )
        .with_run(RunId("mnt-kernel-1".into()))
        .with_item(ItemId("fra1-cpu-c00".into()));
        e.step = Some(crate::model::run::StepName::from("Drain"));
        e
    };
    let handed = |to: &str, note: &str| crate::model::run::StepStatus::HandedOff {
        to: Actor(to.into()),
        note: note.into(),
    };
    // The executor records alice's hand-off to bob as the step's status.
    events.push(on_c00(
        "executor@vm",
        "mnt-kernel-1/fra1-cpu-c00/Drain/status#2",
        EventBody::StepStatusChanged {
            status: handed("bob@ops", "web team is scaling up; retry after 15:00"),
        },
    ));
    fixtures::with_journal(&mut app, events.0.clone());
    press(&mut app, "4 j");
    let screen = render(&app, 200, 36);
    assert!(screen.contains("step Drain: handed-off"), "{screen}");
    assert!(screen.contains("(set by alice@ops-laptop)"), "{screen}");
    assert!(!screen.contains("set by executor@vm"), "{screen}");

    // carol takes it over; the executor records that too.
    events.push(on_c00(
        "carol@ops",
        "cmd/carol@ops/takeover/1",
        EventBody::TakenOver {
            note: "on it".into(),
        },
    ));
    events.push(on_c00(
        "executor@vm",
        "mnt-kernel-1/fra1-cpu-c00/Drain/status#3",
        EventBody::StepStatusChanged {
            status: handed("carol@ops", "on it"),
        },
    ));
    fixtures::with_journal(&mut app, events.0);
    let screen = render(&app, 200, 36);
    assert!(screen.contains("step Drain: taken-over"), "{screen}");
    assert!(screen.contains("(set by carol@ops)"), "{screen}");
    assert!(!screen.contains("set by executor@vm"), "{screen}");
}

/// The fixture journal with its maintenance running under `executor/e1`, and the fleet
/// lease last taken by `lease_holder`.
pub(super) fn maintenance_running(app: &mut super::app::App, lease_holder: &str) {
    let mut events = EventLog(fixtures::journal_events());
    events.push(NewEvent::new(
        fixtures::now() - jiff::SignedDuration::from_mins(2),
        Actor(lease_holder.into()),
        IdempotencyKey("lease".into()),
        EventBody::LeaseAcquired {
            scope: crate::model::run::LeaseScope::fleet(),
            token: crate::model::run::FencingToken(1),
        },
    ));
    events.push(
        NewEvent::new(
            fixtures::now() - jiff::SignedDuration::from_mins(1),
            Actor("executor/e1".into()),
            IdempotencyKey("running".into()),
            EventBody::RunStatusChanged {
                status: crate::model::run::RunStatus::Running,
            },
        )
        .with_run(RunId("mnt-kernel-1".into())),
    );
    fixtures::with_journal(app, events.0);
}

#[test]
fn quit_asks_first_while_this_consoles_executor_drives_runs() {
    let ours = Actor::instance(&Actor("executor/e1".into()), std::process::id(), 0);
    // Without an executor in the console, `q` quits at once.
    let mut app = fixtures::operator_app();
    maintenance_running(&mut app, &ours.0);
    assert!(press(&mut app, "q").contains(&Command::Quit));

    let mut app = fixtures::operator_app();
    app.config.executor = Some("executor/e1".into());
    maintenance_running(&mut app, &ours.0);
    assert!(press(&mut app, "q").is_empty(), "asks first");
    let screen = render(&app, 160, 30);
    assert!(screen.contains("mnt-kernel-1"), "{screen}");
    assert!(screen.contains("undone"), "{screen}");
    assert!(screen.contains("picks the runs up"), "{screen}");
    insta::assert_snapshot!("quit_confirm", screen);
    press(&mut app, "esc");
    assert!(app.overlay.is_none(), "esc stays");
    press(&mut app, "q");
    assert!(
        press(&mut app, "q").contains(&Command::Quit),
        "a second q quits"
    );
    // ctrl-c from the help asks too.
    let mut app = fixtures::operator_app();
    app.config.executor = Some("executor/e1".into());
    maintenance_running(&mut app, &ours.0);
    assert!(press(&mut app, "? ctrl-c").is_empty(), "asks first");
    assert!(press(&mut app, "ctrl-c").contains(&Command::Quit));

    // The run's title is shown whole on a small terminal: the warning gives way first.
    let mut app = fixtures::operator_app();
    app.config.executor = Some("executor/e1".into());
    maintenance_running(&mut app, &ours.0);
    press(&mut app, "q");
    let small = render(&app, 80, 24);
    assert!(
        small.contains("(maintenance kernel on eu-fra-prod-01)"),
        "{small}"
    );

    // Another executor holds the lease (even one of the same name in another process):
    // this console stops nothing by quitting.
    for other in [
        Actor::instance(&Actor("executor/e1".into()), std::process::id() + 1, 0),
        Actor::instance(&Actor("executor@alice".into()), std::process::id(), 0),
    ] {
        let mut app = fixtures::operator_app();
        app.config.executor = Some("executor/e1".into());
        maintenance_running(&mut app, &other.0);
        assert!(press(&mut app, "q").contains(&Command::Quit), "{other}");
    }
}

#[test]
fn a_multi_line_note_keeps_its_line_break() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 h");
    typed(&mut app, "dave@ops");
    press(&mut app, "enter");
    typed(&mut app, "line one");
    press(&mut app, "alt-enter");
    typed(&mut app, "line two");
    press(&mut app, "enter");
    let confirm = render(&app, 160, 36);
    assert!(
        confirm.contains("(note: line one ") && confirm.contains("│  line two)"),
        "the confirmation breaks the line:\n{confirm}"
    );
    let commands = press(&mut app, "enter");
    let Some(OperatorCommand::HandOff { note, .. }) = sent(&commands) else {
        panic!("not sent")
    };
    assert_eq!(note, "line one\nline two");
    assert!(
        app.message
            .as_deref()
            .unwrap_or("")
            .contains("line one ⏎ line two"),
        "{:?}",
        app.message
    );

    // Journaled: the panel breaks the line, the timeline shows the break on one line.
    let mut events = EventLog(fixtures::journal_events());
    events.push(
        NewEvent::new(
            fixtures::now(),
            Actor("alice@ops-laptop".into()),
            IdempotencyKey("handoff-2".into()),
            EventBody::HandedOff {
                to: Actor("dave@ops".into()),
                note: note.clone(),
            },
        )
        .with_run(RunId("mnt-kernel-1".into()))
        .with_item(ItemId("fra1-cpu-b00".into())),
    );
    fixtures::with_journal(&mut app, events.0);
    let panel = render(&app, 200, 36);
    assert!(
        panel.contains("note: line one ") && panel.contains("│      line two "),
        "{panel}"
    );
    press(&mut app, "5");
    let timeline = render(&app, 200, 36);
    assert!(timeline.contains("line one ⏎ line two"), "{timeline}");
}

#[test]
fn timeline_filter_says_what_it_cannot_read_and_when_nothing_matches() {
    let mut app = fixtures::operator_app();
    press(&mut app, "5 /");
    typed(&mut app, "since=abc bogus=1");
    press(&mut app, "enter");
    let screen = render(&app, 200, 30);
    assert!(
        screen.contains("since=abc: not a duration, a date or an RFC 3339 time (try 30m, 8h)"),
        "{screen}"
    );
    assert!(
        screen.contains("bogus: unknown key (cluster, run, actor, kind, since)"),
        "{screen}"
    );
    let total = app.activity.journal.events.len();
    assert!(
        screen.contains(&format!("{total} of {total} events")),
        "terms it cannot read are not applied:\n{screen}"
    );
    press(&mut app, "esc /");
    typed(&mut app, "actor=nobody");
    press(&mut app, "enter");
    let screen = render(&app, 200, 30);
    assert!(
        screen.contains("no event matches the filter (esc clears it)"),
        "{screen}"
    );
}

#[test]
fn a_narrow_timeline_keeps_room_for_what_happened() {
    let mut app = fixtures::operator_app();
    press(&mut app, "5");
    let screen = render(&app, 80, 24);
    assert!(screen.contains("WHAT"), "{screen}");
    assert!(!screen.contains("KIND"), "KIND gives way: {screen}");
    // The words are readable, not cut to a character.
    assert!(
        screen.contains("note: registry slow in eu-central"),
        "{screen}"
    );
}

#[test]
fn returning_a_step_of_a_paused_run_says_it_waits_for_the_resume() {
    let mut app = fixtures::operator_app();
    paused(&mut app);
    press(&mut app, "4 j r");
    let screen = render(&app, 200, 60);
    assert!(
        screen.contains("the run is paused (fleet: incident 4711"),
        "{screen}"
    );
}

#[test]
fn a_batch_cluster_whose_identity_is_not_confirmed_refuses_the_approval() {
    let mut app = fixtures::operator_app();
    fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
    // eu-fra-prod-02 is fresh, but nothing pins its identity.
    let clusters: Vec<_> = app
        .snapshot
        .clusters
        .iter()
        .map(|c| {
            let mut c = (**c).clone();
            if &*c.id == "eu-fra-prod-02" {
                c.identity_verdict = Some(crate::model::live::IdentityVerdict::NotPinned);
            }
            std::sync::Arc::new(c)
        })
        .collect();
    app.snapshot.clusters = clusters.into();
    press(&mut app, "3 a");
    let screen = render(&app, 160, 36);
    assert!(screen.contains("cannot be approved now"), "{screen}");
    assert!(
        screen.contains("eu-fra-prod-02 (the ledger pins no identity)"),
        "named as not pinned, not as a mismatch:\n{screen}"
    );
    assert!(
        !screen.contains("eu-fra-prod-02 (IdentityMismatch"),
        "{screen}"
    );
}

/// The refusals the console asked to journal.
fn refusals_sent(commands: &[Command]) -> Vec<ClusterRefusal> {
    commands
        .iter()
        .filter_map(|c| match c {
            Command::Send(ConsoleCommand::Refused(refusals)) => Some(refusals.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn an_approval_refused_for_a_cluster_that_cannot_act_is_sent_to_the_journal() {
    // Batch 2 holds us-east-prod-03, which the fixture fleet sees Unreachable.
    let mut app = fixtures::operator_app();
    let commands = press(&mut app, "3 a");
    assert!(sent(&commands).is_none(), "no approval is sent");
    let refusals = refusals_sent(&commands);
    let [refusal] = refusals.as_slice() else {
        panic!("one refusal, for the one cluster: {commands:?}")
    };
    assert_eq!(refusal.command, "approve");
    assert_eq!(refusal.run, Some(RunId("ro-cni-1".into())));
    assert_eq!(refusal.cluster, ClusterId("us-east-prod-03".into()));
    assert!(
        refusal.reason.starts_with(
            "batch 2 cannot be approved now: us-east-prod-03 (nothing recent is known about it: cluster is Unreachable)"
        ),
        "the reason the dialog gives: {}",
        refusal.reason
    );
    // Closing the refused dialog sends nothing more.
    assert!(press(&mut app, "enter").is_empty());

    // Refused by the rollout's policy, not by a cluster: no cluster record; the command
    // goes to the journal to be refused (and recorded) by the same rules, never carried
    // out. Read-only sends nothing.
    let mut app = fixtures::operator_app();
    app.config.actor = "carol@ops".into();
    let commands = press(&mut app, "3 a");
    assert!(refusals_sent(&commands).is_empty());
    assert!(
        commands.iter().any(|c| matches!(
            c,
            Command::Send(ConsoleCommand::RefusedByRules(OperatorCommand::Approve { run, batch: Some(1), .. }))
                if run.0 == "ro-cni-1"
        )),
        "{commands:?}"
    );
    app.config.readonly = true;
    press(&mut app, "esc");
    assert!(press(&mut app, "3 a").is_empty());
    // Every cluster able to act: the form opens and nothing is journaled yet.
    let mut app = fixtures::operator_app();
    fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
    assert!(press(&mut app, "3 a").is_empty());
}

#[test]
fn a_maintenance_refused_for_its_cluster_is_sent_to_the_journal_unless_read_only() {
    let mut app = on_cluster("us-east-prod-03", "space");
    let commands = press(&mut app, "m");
    let refusals = refusals_sent(&commands);
    let [refusal] = refusals.as_slice() else {
        panic!("one refusal: {commands:?}")
    };
    assert_eq!(refusal.command, ClusterRefusal::START_MAINTENANCE);
    assert_eq!(refusal.run, None);
    assert_eq!(refusal.cluster, ClusterId("us-east-prod-03".into()));
    assert!(
        refusal.reason.contains("on us-east-prod-03: ")
            && refusal.reason.contains("cluster is Unreachable"),
        "{}",
        refusal.reason
    );
    assert!(
        commands.len() == 1,
        "only the refusal is sent: {commands:?}"
    );

    // A cluster that allows changes opens the plan; nothing is sent until confirmed.
    let mut app = on_cluster("us-east-stg-01", "space space");
    assert!(press(&mut app, "m").is_empty());

    // Read-only mode writes nothing, not even the record of a refusal.
    let mut app = on_cluster("us-east-prod-03", "space");
    app.config.readonly = true;
    assert!(press(&mut app, "m").is_empty());

    // No node to act on, on a cluster that takes no change: why, not "mark nodes".
    let mut app = on_cluster("ap-sg-stg-02", "");
    assert!(press(&mut app, "m").is_empty());
    let message = app.message.clone().unwrap_or_default();
    assert!(
        message.starts_with("ap-sg-stg-02 takes no change"),
        "{message}"
    );
}

#[test]
fn a_start_file_naming_a_cluster_the_ledger_lacks_suggests_one_and_records_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("m.yaml");
    std::fs::write(
        &file,
        "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: patch\ncluster: us-east-stg-1\nnodes:\n  names: [use1-cpu-a00]\naction:\n  manual: {instructions: do it}\nbudgets:\n  maxUnavailable: 1\n",
    )
    .expect("write");
    let mut app = fixtures::operator_app();
    press(&mut app, ":");
    typed(&mut app, &format!("start {}", file.display()));
    let commands = press(&mut app, "enter");
    assert!(commands.is_empty(), "nothing journaled: {commands:?}");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("the ledger has no cluster us-east-stg-1 (did you mean us-east-stg-01?)"),
        "{screen}"
    );
}

#[test]
fn the_rollout_on_screen_stays_selected_when_another_starts_waiting() {
    let mut app = fixtures::operator_app();
    press(&mut app, "3");
    let selected = |app: &super::app::App| {
        super::screens::rollouts::selected(&app.rollouts_state, &app.activity.journal.projection)
            .map(|r| r.id.0.clone())
    };
    assert_eq!(selected(&app).as_deref(), Some("ro-cni-1"));
    // ro-cni-1's batch is approved and under way; another rollout now awaits approval.
    let mut events = EventLog(fixtures::journal_events());
    let at = fixtures::now() - jiff::SignedDuration::from_secs(30);
    let rollout_event = |run: &str, key: &str, body: EventBody| {
        NewEvent::new(
            at,
            Actor("executor/e1".into()),
            IdempotencyKey(key.into()),
            body,
        )
        .with_run(RunId(run.into()))
    };
    events.push(rollout_event(
        "ro-dns-1",
        "dns-planned",
        EventBody::RunPlanned {
            title: "coredns-1.12".into(),
            items: vec!["eu-fra-prod-02".into()],
            batches: vec![vec!["eu-fra-prod-02".into()]],
            spec: serde_json::Value::Null,
        },
    ));
    events.push(rollout_event(
        "ro-dns-1",
        "dns-waiting",
        EventBody::RolloutBatch {
            batch: 0,
            phase: crate::model::rollout::BatchPhase::AwaitingApproval,
        },
    ));
    events.push(rollout_event(
        "ro-cni-1",
        "cni-executing",
        EventBody::RolloutBatch {
            batch: 1,
            phase: crate::model::rollout::BatchPhase::Executing,
        },
    ));
    fixtures::with_journal(&mut app, events.0);
    assert_eq!(
        selected(&app).as_deref(),
        Some("ro-cni-1"),
        "the selection moved by itself, under the operator's next key"
    );
}

#[test]
fn the_node_card_on_screen_stays_selected_when_it_no_longer_needs_a_person() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4");
    let selected = |app: &super::app::App| {
        super::screens::maintenance::selected(
            &app.maintenance_state,
            &app.activity.journal.projection,
        )
    };
    let (run, item) = selected(&app).expect("a card needing a person");
    // Its person gives it back: it needs nobody now, while another card still does.
    let mut events = EventLog(fixtures::journal_events());
    let mut returned = NewEvent::new(
        fixtures::now() - jiff::SignedDuration::from_secs(10),
        Actor("bob@ops".into()),
        IdempotencyKey("cmd/bob/return".into()),
        EventBody::Returned {
            outcome: ReturnOutcome::Retry,
            note: "PDB relaxed".into(),
        },
    )
    .with_run(run.clone());
    returned.item = Some(item.clone());
    events.push(returned);
    fixtures::with_journal(&mut app, events.0);
    assert_eq!(
        selected(&app),
        Some((run, item)),
        "the selection moved by itself, under the operator's next key"
    );
}
