//! Every key of the active keymap pressed on every screen: each one changes what is on
//! screen or says in the footer why it does nothing there. A key that does nothing and
//! says nothing reads as a broken key at 3 a.m.

use crossterm::event::{KeyEvent, KeyModifiers};

use super::app::{App, Command, Msg};
use super::fixtures;
use super::keymap::{Context, KeyChord, Keymap};
use super::tests::{press, render};
use super::view::render_to_buffer;

/// The screens, each as reached from the operator fixture.
const SCREENS: &[(&str, &str)] = &[
    ("ledger", ""),
    ("cluster", "open"),
    ("cluster, PDB panel focused", "open tab"),
    ("node page", "open enter"),
    ("fleet capacity", "2"),
    ("cluster capacity", "open c"),
    ("failure domain", "open c enter"),
    ("rollouts", "3"),
    ("maintenance", "4"),
    ("timeline", "5"),
];

/// The operator fixture on a screen: `open` opens eu-fra-prod-01's page (which has
/// nodes, a blocking PDB and GPUs), the rest are keys of the default keymap.
fn on_screen(keymap: &Keymap, keys: &str) -> App {
    let mut app = fixtures::operator_app();
    app.update(Msg::Resize(160, 45));
    for key in keys.split(' ').filter(|k| !k.is_empty()) {
        if key == "open" {
            app.open_cluster("eu-fra-prod-01", None);
        } else {
            press(&mut app, key);
        }
    }
    app.config.keymap = keymap.clone();
    app.message = None;
    app.held_message = None;
    app
}

/// Every chord bound where `app` is: its screen's, the list's and the global ones.
fn chords(app: &App) -> Vec<KeyChord> {
    let mut out: Vec<KeyChord> = Vec::new();
    for ctx in [app.context(), Context::List, Context::Global] {
        for b in app.config.keymap.bindings(ctx) {
            if !out.contains(&b.key) {
                out.push(b.key);
            }
        }
    }
    out
}

fn walk(keymap_name: &str) -> Vec<String> {
    let (keymap, warnings) = Keymap::load(keymap_name, None);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut silent = Vec::new();
    for (screen, keys) in SCREENS {
        let start = on_screen(&keymap, keys);
        for chord in chords(&start) {
            let mut app = start.clone();
            // Cells with their styles: a selection that moves changes only styles.
            let before = render_to_buffer(&app, 160, 45);
            let commands = app.update(Msg::Key(KeyEvent::new(chord.code, chord.mods)));
            // Quitting, or leaving the screen for a credential plugin's login, acts.
            let quits = commands
                .iter()
                .any(|c| matches!(c, Command::Quit | Command::Login(_)));
            let said = app.message.is_some();
            let changed = render_to_buffer(&app, 160, 45) != before;
            if !(quits || said || changed) {
                silent.push(format!("{keymap_name}: {chord} on the {screen}"));
            }
        }
    }
    silent
}

#[test]
fn every_key_of_the_keymap_acts_or_says_why_not_on_every_screen() {
    let mut silent = walk("default");
    silent.extend(walk("vim"));
    assert!(
        silent.is_empty(),
        "keys that did nothing and said nothing:\n{}",
        silent.join("\n")
    );
}

#[test]
fn a_key_of_another_screen_says_where_it_works() {
    let mut app = fixtures::operator_app();
    for (key, says) in [
        (
            "a",
            "a does nothing on the ledger: on the rollouts screen it is \"Approve the waiting batch",
        ),
        (
            "w",
            "w does nothing on the ledger: on the cluster page it is \"What-if",
        ),
        (
            "m",
            "m does nothing on the ledger: on the cluster page it is \"Start a maintenance",
        ),
    ] {
        press(&mut app, key);
        let message = app.message.clone().unwrap_or_default();
        assert!(message.starts_with(says), "{key}: {message}");
    }
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.ends_with("(enter on a cluster opens it)")),
        "{:?}",
        app.message
    );
    press(&mut app, "Z");
    assert_eq!(
        app.message.as_deref(),
        Some("Z is not a key on the ledger (? lists the keys here)")
    );
    let _ = KeyModifiers::NONE;
}

#[test]
fn enter_on_a_pdb_lists_its_pods_and_their_nodes() {
    let mut app = fixtures::operator_app();
    app.open_cluster("eu-fra-prod-01", None);
    press(&mut app, "tab enter");
    let screen = render(&app, 160, 45);
    assert!(
        screen.contains("PDB shop/web on eu-fra-prod-01"),
        "{screen}"
    );
    assert!(
        screen.contains("has 9 healthy, needs 9, allows 0 disruption(s) now"),
        "{screen}"
    );
    assert!(screen.contains("EVICTION NOW"), "{screen}");
    assert!(screen.contains("refused"), "{screen}");
    // enter on a pod opens its node's page.
    press(&mut app, "enter");
    assert!(
        matches!(app.nav.current(), super::nav::Route::Node(c, _) if c == "eu-fra-prod-01"),
        "{:?}",
        app.nav.current()
    );
}
