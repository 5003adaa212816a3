//! The console in team mode: the header's who and who else, keys a role cannot use, and a
//! shared journal that cannot be reached.

use super::super::app::App;
use super::super::fixtures;
use super::super::tests::{press, render};
use crate::model::team::{Member, TeamFacts, TeamRole};

fn on_team(roles: &[TeamRole], others: Vec<Member>) -> App {
    let mut app = fixtures::operator_app();
    let mut activity = app.activity.clone();
    activity.team = Some(TeamFacts {
        me: Member {
            login: "op_a".into(),
            roles: roles.to_vec(),
        },
        others,
    });
    app.update(super::super::app::Msg::Activity(activity));
    app
}

fn approver_and_executor() -> Vec<Member> {
    vec![
        Member {
            login: "op_b".into(),
            roles: vec![TeamRole::Viewer, TeamRole::Operator, TeamRole::Approver],
        },
        Member {
            login: "exec_eu".into(),
            roles: vec![TeamRole::Executor],
        },
    ]
}

#[test]
fn the_header_says_who_you_are_to_the_database_and_who_else_is_connected() {
    let app = on_team(
        &[TeamRole::Viewer, TeamRole::Operator],
        approver_and_executor(),
    );
    let wide = render(&app, 160, 24);
    assert!(
        wide.contains("op_a (operator) · 2 others: op_b (operator+approver), exec_eu (executor)"),
        "{wide}"
    );
    // Narrow, it keeps whole parts: the count, then the login alone.
    let narrow = render(&app, 80, 24);
    let header = narrow.lines().nth(1).unwrap_or_default();
    assert!(
        header.contains("op_a") && !header.contains("op_b ("),
        "{header}"
    );
    assert!(
        header.contains("2 others")
            || header.ends_with("op_a")
            || header.contains("op_a (operator)"),
        "{header}"
    );
}

#[test]
fn a_role_without_the_right_hides_the_key_and_explains_it_when_pressed() {
    let mut app = on_team(&[TeamRole::Viewer, TeamRole::Operator], Vec::new());
    assert!(!app.offers(crate::tui::Action::Approve));
    assert!(app.offers(crate::tui::Action::PauseRun));
    let commands = press(&mut app, "3 a");
    assert!(commands.is_empty(), "{commands:?}");
    assert!(
        app.overlay.is_none(),
        "no dialog for what the database would refuse"
    );
    let message = app.message.clone().unwrap_or_default();
    assert!(
        message.contains("you are op_a (operator)")
            && message.contains("needs fleetdeck_approver")
            && message.contains("GRANT fleetdeck_approver TO \"op_a\""),
        "{message}"
    );
    let screen = render(&app, 160, 24);
    assert!(!screen.contains("<a> approve"), "{screen}");

    // A viewer is offered no write at all.
    let viewer = on_team(&[TeamRole::Viewer], Vec::new());
    for action in crate::tui::ACTIONS.iter().map(|(a, _)| *a) {
        assert_eq!(viewer.offers(action), !action.mutates(), "{action:?}");
    }
    // An approver is offered the approval.
    let approver = on_team(&[TeamRole::Approver, TeamRole::Operator], Vec::new());
    assert!(approver.offers(crate::tui::Action::Approve));
}

#[test]
fn an_unreachable_journal_is_shown_and_every_action_refused() {
    let mut app = on_team(
        &[TeamRole::Operator, TeamRole::Approver],
        approver_and_executor(),
    );
    let mut activity = app.activity.clone();
    activity.connected = false;
    app.update(super::super::app::Msg::Activity(activity));
    let screen = render(&app, 160, 24);
    assert!(
        screen.contains("JOURNAL UNREACHABLE: last known state, actions refused"),
        "{screen}"
    );
    for keys in ["3 a", "3 p", "4 h", "P"] {
        app.message = None;
        let commands = press(&mut app, keys);
        assert!(commands.is_empty(), "{keys} sent {commands:?}");
        let message = app.message.clone().unwrap_or_default();
        assert!(
            message.starts_with("the journal database cannot be reached")
                && message.contains("cannot be recorded"),
            "{keys}: {message}"
        );
    }
}
