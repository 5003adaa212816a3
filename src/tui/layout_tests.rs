//! Every screen and every dialog drawn at 160×45, 80×24 and 60×20 through the checking
//! canvas (`canvas_check.rs`): no text wider than its room, no word cut or broken in the
//! middle, no text over other text, nothing drawn around the canvas. Each is also kept
//! as an insta snapshot at the three sizes.

use ratatui::layout::Rect;

use super::app::{App, Msg};
use super::canvas_check::check_draw;
use super::fixtures;
use super::tests::{press, text, typed};
use super::view::draw;
use crate::model::live::ClusterStatus;

/// The sizes screens are judged at.
const SIZES: [(u16, u16); 3] = [(160, 45), (80, 24), (60, 20)];

/// A screen or dialog: its name and how to get there from the operator fixture.
pub(super) type Setup = (&'static str, fn(&mut App));

fn open_cluster(app: &mut App) {
    app.open_cluster("eu-fra-prod-01", None);
}

fn halted(app: &mut App) {
    let size = app.size;
    *app = super::operator_tests::halted_on("eu-fra-prod-02");
    app.update(Msg::Resize(size.0, size.1));
    press(app, "3");
}

/// The fixture's maintenance run paused by a person, with a long reason.
fn run_paused(app: &mut App) {
    use crate::model::run::{
        Actor, EventBody, EventLog, IdempotencyKey, NewEvent, PauseScope, RunId,
    };
    let mut events = EventLog(fixtures::journal_events());
    events.push(NewEvent::new(
        fixtures::now() - jiff::SignedDuration::from_mins(3),
        Actor("bob@ops".into()),
        IdempotencyKey("cmd/pause-run".into()),
        EventBody::Paused {
            scope: PauseScope::Run {
                run: RunId("mnt-kernel-1".into()),
            },
            reason: "waiting for the storage team to confirm the replica rebuild finished".into(),
        },
    ));
    fixtures::with_journal(app, events.0);
}

pub(super) const SETUPS: &[Setup] = &[
    ("ledger", |_| {}),
    ("ledger_read_only", |app| app.config.readonly = true),
    ("ledger_grouped_marked", |app| {
        press(app, "R space space");
    }),
    ("ledger_filter_typing", |app| {
        press(app, "/");
        typed(app, "env=production !sg");
    }),
    ("ledger_help", |app| {
        press(app, "?");
    }),
    ("palette", |app| {
        press(app, ":");
        typed(app, "fra");
    }),
    ("cluster", open_cluster),
    ("cluster_unreachable", |app| {
        app.open_cluster("us-east-prod-03", None);
    }),
    ("cluster_identity_mismatch", |app| {
        app.open_cluster("ap-sg-prod-01", None);
    }),
    ("capacity_unreachable_cluster_loss", |app| {
        app.open_cluster("us-east-prod-03", None);
        press(app, "L");
    }),
    ("cluster_pdb_focus", |app| {
        open_cluster(app);
        press(app, "tab");
    }),
    ("node", |app| {
        open_cluster(app);
        press(app, "enter");
    }),
    ("start_maintenance", |app| {
        app.open_cluster("us-east-stg-01", None);
        press(app, "space m");
    }),
    ("start_maintenance_confirm", |app| {
        app.open_cluster("us-east-stg-01", None);
        press(app, "space m enter enter");
    }),
    ("start_maintenance_refused", |app| {
        open_cluster(app);
        press(app, "space m");
    }),
    ("pdb_pods", |app| {
        open_cluster(app);
        press(app, "tab enter");
    }),
    ("capacity_fleet", |app| {
        press(app, "2");
    }),
    ("capacity_cluster_what_if", |app| {
        open_cluster(app);
        press(app, "c w");
    }),
    ("capacity_cluster_loss", |app| {
        open_cluster(app);
        press(app, "L");
    }),
    ("capacity_domain", |app| {
        open_cluster(app);
        press(app, "c enter");
    }),
    ("rollouts", |app| {
        press(app, "3");
    }),
    ("rollouts_halted", halted),
    ("approve_refused", |app| {
        press(app, "3 a");
    }),
    ("approve", |app| {
        fixtures::seen_as(app, "us-east-prod-03", ClusterStatus::Synced);
        press(app, "3 a");
    }),
    ("approve_confirm", |app| {
        fixtures::seen_as(app, "us-east-prod-03", ClusterStatus::Synced);
        press(app, "3 a enter");
    }),
    ("pause_run", |app| {
        press(app, "3 p");
    }),
    ("abort", |app| {
        press(app, "3 X");
    }),
    ("maintenance", |app| {
        press(app, "4");
    }),
    ("hand_off", |app| {
        press(app, "4 h");
    }),
    ("hand_off_confirm", |app| {
        press(app, "4 h");
        typed(app, "erin@ops");
        press(app, "enter");
        typed(
            app,
            "PDB web-pdb holds the drain; the web team scales up at 15:00",
        );
        press(app, "enter");
    }),
    ("take_over", |app| {
        press(app, "4 t");
    }),
    ("return", |app| {
        press(app, "4 j r");
    }),
    ("freeze", |app| {
        press(app, "4 f");
    }),
    ("pause_all", |app| {
        press(app, "P");
    }),
    ("paused_everywhere", |app| {
        super::operator_tests::paused(app);
        press(app, "4");
    }),
    ("maintenance_run_paused", |app| {
        run_paused(app);
        press(app, "4");
    }),
    ("timeline", |app| {
        press(app, "5");
    }),
    ("findings", |app| {
        press(app, "6");
    }),
    ("findings_sorted_by_cluster", |app| {
        press(app, "6 s j j");
    }),
    ("findings_resume_sync", |app| {
        press(app, "6");
        app.findings_state.filter = super::filter::Filter::parse("rule=gitOpsSuspended");
        press(app, "p");
    }),
    ("timeline_detail", |app| {
        press(app, "5 k enter");
    }),
    ("handover", |app| {
        press(app, "H");
    }),
    ("acknowledge", |app| {
        press(app, "H a");
    }),
    ("quit_confirm", |app| {
        let ours = crate::model::run::Actor::instance(
            &crate::model::run::Actor("executor/e1".into()),
            std::process::id(),
            0,
        );
        app.config.executor = Some("executor/e1".into());
        super::operator_tests::maintenance_running(app, &ours.0);
        press(app, "q");
    }),
];

/// The app of `setup` at `w`×`h`.
fn at(setup: fn(&mut App), w: u16, h: u16) -> App {
    let mut app = fixtures::operator_app();
    app.update(Msg::Resize(w, h));
    setup(&mut app);
    app
}

#[test]
fn no_screen_or_dialog_overlaps_or_cuts_text_at_the_three_sizes() {
    assert_every_setup_fits(at);
}

/// Draws every setup at the three sizes on the console `make` builds (`make(setup, w,
/// h)`) through the checking canvas, and fails listing every overlap or cut text found:
/// the scan the English and the Chinese console share.
pub(super) fn assert_every_setup_fits(make: fn(fn(&mut App), u16, u16) -> App) {
    let mut found = Vec::new();
    for (name, setup) in SETUPS {
        for (w, h) in SIZES {
            let app = make(*setup, w, h);
            let area = Rect::new(0, 0, w, h);
            let (_, findings) = check_draw(area, |buf| draw(&app, area, buf));
            found.extend(findings.into_iter().map(|f| format!("{name} {w}×{h}: {f}")));
        }
    }
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_screen_and_dialog_at_the_three_sizes() {
    for (name, setup) in SETUPS {
        let mut all = String::new();
        for (w, h) in SIZES {
            let app = at(*setup, w, h);
            let area = Rect::new(0, 0, w, h);
            let (buf, _) = check_draw(area, |buf| draw(&app, area, buf));
            all.push_str(&format!("── {w}×{h} ──\n{}", text(&buf)));
        }
        insta::assert_snapshot!(format!("layout_{name}"), all);
    }
}
