//! What the operator dialogs say before anything is confirmed: a maintenance whose drain a
//! PDB will hold warns in both phases, and a refused form puts the cursor where the fix
//! goes.

use super::app::Overlay;
use super::fixtures;
use super::tests::{press, render, typed};

fn open_on(cluster: &str, keys: &str) -> super::app::App {
    let mut app = fixtures::operator_app();
    app.open_cluster(cluster, None);
    press(&mut app, keys);
    app
}

#[test]
fn starting_a_maintenance_a_pdb_will_hold_warns_before_confirmation() {
    // use1-cpu-a00 runs a pod PDB shop/web (9 healthy, needs 9) covers:
    // the node page says "blocked by PDB shop/web"; the dialog says it before `enter`.
    let mut app = open_on("us-east-stg-01", "space m");
    let screen = render(&app, 160, 45);
    assert!(
        screen.contains(
            "warning: the drain will wait: PDB shop/web (1 pod on these nodes; has 9 healthy, needs 9)"
        ),
        "{screen}"
    );
    // Still there when it asks to confirm, and at 80×24 too.
    press(&mut app, "enter enter");
    assert!(app.in_confirmation(), "{:?}", app.overlay.is_some());
    for (w, h) in [(160, 45), (80, 24)] {
        let screen = render(&app, w, h);
        assert!(
            screen.contains("the drain will wait: PDB shop/web"),
            "{w}×{h}:\n{screen}"
        );
        assert!(screen.contains("This will:"), "{screen}");
    }
}

#[test]
fn a_maintenance_no_pdb_holds_has_no_warning() {
    // fra1-cpu-b02 runs only pods no budget refuses.
    let mut app = fixtures::operator_app();
    app.open_cluster("eu-fra-prod-01", None);
    press(&mut app, "/");
    typed(&mut app, "fra1-cpu-c02");
    press(&mut app, "enter m");
    let Some(Overlay::Dialog(dialog)) = &app.overlay else {
        panic!("no dialog: {:?}", app.message)
    };
    assert!(dialog.warnings.is_empty(), "{:?}", dialog.warnings);
}

#[test]
fn a_refused_hand_off_keeps_the_cursor_in_the_empty_assignee() {
    let mut app = fixtures::operator_app();
    press(&mut app, "4 h");
    // The assignee is left empty: enter walks on to the note, which is typed.
    press(&mut app, "ctrl-u enter");
    typed(&mut app, "PDB web-pdb holds the drain");
    press(&mut app, "enter");
    let screen = render(&app, 160, 45);
    assert!(screen.contains("assignee must not be empty"), "{screen}");
    assert!(
        screen.contains("▸ assignee"),
        "the cursor is back in the assignee:\n{screen}"
    );
    typed(&mut app, "erin@ops");
    // enter walks on to the note, kept as typed, and then asks to confirm.
    press(&mut app, "enter enter");
    assert!(app.in_confirmation(), "{}", render(&app, 160, 45));
}
