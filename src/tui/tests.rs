//! Snapshot tests of every screen from the fixed fixture fleet (TestBackend + insta), and
//! behaviour tests that drive the console with keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use super::app::{App, Command, Msg, Overlay};
use super::feed::ConsoleCommand;
use super::fixtures;
use super::nav::{CapacityScope, Route};
use super::theme::Theme;
use super::view::draw;

/// The buffer as plain text, one line per row, trailing spaces trimmed.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            skip = unicode_width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn unicode_width(s: &str) -> usize {
    use ratatui::text::Span;
    Span::raw(s).width().max(1)
}

pub(super) fn render(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| draw(app, f.area(), f.buffer_mut())).unwrap();
    text(term.backend().buffer())
}

pub(super) fn press(app: &mut App, keys: &str) -> Vec<Command> {
    let mut out = Vec::new();
    for k in keys.split(' ').filter(|k| !k.is_empty()) {
        let chord = super::keymap::KeyChord::parse(k).unwrap();
        out.extend(app.update(Msg::Key(KeyEvent::new(chord.code, chord.mods))));
    }
    out
}

pub(super) fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
}

#[test]
fn ledger_screen() {
    let app = fixtures::app();
    insta::assert_snapshot!(render(&app, 200, 30));
}

#[test]
fn ledger_grouped_filtered_and_marked() {
    let mut app = fixtures::app();
    press(&mut app, "R space");
    insta::assert_snapshot!("ledger_grouped_marked", render(&app, 200, 24));
    press(&mut app, "/");
    typed(&mut app, "env=production !sg");
    insta::assert_snapshot!("ledger_filter_typing", render(&app, 200, 24));
    press(&mut app, "enter");
    assert_eq!(app.ledger_state.visible(&app.rows).len(), 3);
}

#[test]
fn ledger_at_minimum_size() {
    let app = fixtures::app();
    insta::assert_snapshot!(render(&app, 40, 12));
}

#[test]
fn a_ledger_scrolled_down_says_how_many_rows_are_out_of_sight_above() {
    let mut app = fixtures::app();
    app.update(Msg::Resize(80, 12));
    assert!(render(&app, 80, 12).contains("· rows 1–5 of 7"));
    press(&mut app, "j j j j j");
    let screen = render(&app, 80, 12);
    assert!(screen.contains("· rows 3–7 of 7, 2 above"), "{screen}");
}

#[test]
fn a_degraded_cluster_says_what_its_data_lacks() {
    let mut app = fixtures::app();
    let snapshot = fixtures::with_cluster(&fixtures::snapshot(), "eu-fra-prod-02", |c| {
        c.status = crate::model::live::ClusterStatus::Degraded;
        c.facts.partial = Some(
            "persistentvolumes cannot be read (forbidden): pods are not pinned to their volumes' domains".into(),
        );
    });
    app.update(Msg::Snapshot(snapshot));
    press(&mut app, ":");
    typed(&mut app, "cluster eu-fra-prod-02");
    press(&mut app, "enter");
    let screen = render(&app, 160, 40);
    assert!(
        screen.contains("Degraded — counted, but: persistentvolumes cannot be read"),
        "{screen}"
    );
}

#[test]
fn a_filter_key_that_names_nothing_is_called_out() {
    let mut app = fixtures::app();
    press(&mut app, "/");
    typed(&mut app, "stauts=Synced");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(
        screen
            .contains("filter: stauts: no cluster has this field or label (did you mean status?)"),
        "{screen}"
    );
}

#[test]
fn too_small_terminal() {
    let mut app = fixtures::app();
    insta::assert_snapshot!(render(&app, 39, 11));
    assert_eq!(
        press(&mut app, "q"),
        vec![Command::Send(ConsoleCommand::Quit), Command::Quit]
    );
}

#[test]
fn cluster_drill_down() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    insta::assert_snapshot!(render(&app, 200, 40));
}

#[test]
fn at_80_by_24_the_drill_down_keeps_its_pdb_and_journal_panels() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    let screen = render(&app, 80, 24);
    assert!(screen.contains("PDBs that would block a drain"), "{screen}");
    assert!(
        screen.contains("shop/web"),
        "the blocking PDB is listed: {screen}"
    );
    assert!(screen.contains("Recent journal events"), "{screen}");
    assert!(
        screen.contains("fra1-cpu-a00"),
        "nodes keep most rows: {screen}"
    );
    assert!(
        screen
            .lines()
            .last()
            .is_some_and(|l| l.contains("<?> help")),
        "a narrow footer drops hints, never help's: {screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn enter_on_a_node_opens_its_page_and_esc_returns() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    press(&mut app, "enter");
    let Route::Node(cluster, node) = app.nav.current().clone() else {
        panic!("enter opens the node page: {:?}", app.nav.current())
    };
    assert_eq!(cluster, "eu-fra-prod-01");
    let screen = render(&app, 200, 30);
    assert!(
        screen.contains(&format!("node {node}  cluster eu-fra-prod-01")),
        "{screen}"
    );
    assert!(screen.contains("IF DRAINED, MOVES"), "{screen}");
    insta::assert_snapshot!(screen);
    // At 80 columns every dimension keeps its line.
    let narrow = render(&app, 80, 24);
    assert!(narrow.contains("pods 6 of 110"), "{narrow}");
    // ...and the pod list keeps each pod's readiness and what a drain does to it.
    assert!(narrow.contains("READY"), "{narrow}");
    assert!(narrow.contains("blocked by PDB shop/web"), "{narrow}");
    press(&mut app, "j");
    assert_eq!(app.node_state.as_ref().map(|s| s.selected), Some(1));
    // Help lists the page's list keys once, and no key the page does not use.
    press(&mut app, "?");
    let help = render(&app, 200, 60);
    assert_eq!(help.matches("LIST").count(), 1, "{help}");
    assert!(!help.contains("Mark or unmark"), "{help}");
    assert!(
        help.contains("IF DRAINED, MOVES"),
        "the drain column is explained: {help}"
    );
    press(&mut app, "esc");
    press(&mut app, "esc");
    assert_eq!(app.nav.current(), &Route::Cluster("eu-fra-prod-01".into()));
}

fn open_first_cluster(app: &mut App) {
    // Sorted by status, worst first: put the healthy production cluster on top by id.
    press(app, ":");
    typed(app, "cluster eu-fra-prod-01");
    press(app, "enter");
    assert_eq!(app.nav.current(), &Route::Cluster("eu-fra-prod-01".into()));
}

#[test]
fn unusable_cluster_drill_down_says_so() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "cluster us-east-prod-03");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("Unreachable — the figures below are the last seen"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn a_what_if_on_a_cluster_without_data_says_why_it_did_nothing() {
    for (cluster, said) in [
        (
            "us-east-prod-03",
            "its data is Unreachable and cannot be trusted",
        ),
        (
            "ap-sg-stg-02",
            "its data is Connecting and cannot be trusted",
        ),
    ] {
        let mut app = fixtures::app();
        press(&mut app, ":");
        typed(&mut app, &format!("cluster {cluster}"));
        press(&mut app, "enter w");
        let message = app.message.clone().unwrap_or_default();
        assert!(message.contains(said), "{cluster}: {message:?}");
        assert!(app.capacity_state.what_if.is_none());
    }
    // A cluster never synced says so rather than an age of "-".
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "cluster ap-sg-stg-02");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(screen.contains("Connecting, never synced ·"), "{screen}");
}

#[test]
fn capacity_fleet() {
    let mut app = fixtures::app();
    press(&mut app, "2");
    insta::assert_snapshot!(render(&app, 200, 30));
    // Too short for every cluster: the rows in sight are said.
    let short = render(&app, 200, 15);
    assert!(short.contains("rows 1–"), "{short}");
    assert!(short.contains(" of 7 "), "{short}");
}

#[test]
fn capacity_cluster_with_zone_what_if() {
    let mut app = fixtures::app();
    press(&mut app, "2 enter");
    assert_eq!(
        app.nav.current(),
        &Route::Capacity(CapacityScope::Cluster("eu-fra-prod-01".into()))
    );
    press(&mut app, "j w");
    let what_if = app.capacity_state.what_if.as_ref().expect("what-if ran");
    assert_eq!(what_if.report.lost_nodes, 4);
    insta::assert_snapshot!(render(&app, 200, 45));
    // At 80×24 the panel takes the rows it needs, so the headroom bars keep theirs.
    let small = render(&app, 80, 24);
    for kept in ["Pods ", "2 would not fit", "ReplicaSet shop/web: 2 pods"] {
        assert!(small.contains(kept), "{kept}: {small}");
    }
    press(&mut app, "x");
    assert!(app.capacity_state.what_if.is_none());
}

#[test]
fn hints_in_the_text_follow_a_remapped_key() {
    use super::keymap::{Keymap, USER_KEYMAP_FILE};
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(USER_KEYMAP_FILE),
        "[[capacity]]\non = \"w\"\nrun = \"none\"\n\n[[capacity]]\non = \"L\"\nrun = \"whatif.lose\"\n\n[[global]]\non = \"esc\"\nrun = \"none\"\n\n[[global]]\non = \"backspace\"\nrun = \"back\"\n\n[[list]]\non = \"space\"\nrun = \"none\"\n\n[[list]]\non = \"v\"\nrun = \"mark\"\n",
    )
    .unwrap();
    let (keymap, warnings) = Keymap::load("default", Some(dir.path()));
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut app = fixtures::app();
    app.config.keymap = keymap;
    press(&mut app, "2 enter");
    let screen = render(&app, 200, 45);
    assert!(
        screen.contains("Failure domains · free on counted nodes · enter opens · L loses one"),
        "{screen}"
    );
    press(&mut app, "1 /");
    typed(&mut app, "no-such-cluster");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("no cluster matches the filter (backspace clears it)"),
        "{screen}"
    );
    press(&mut app, "4");
    let screen = render(&app, 160, 30);
    assert!(
        !screen.contains("then m."),
        "read-only: no key that writes is offered: {screen}"
    );
    app.config.readonly = false;
    let screen = render(&app, 160, 30);
    assert!(screen.contains("mark nodes with v, then m."), "{screen}");
}

#[test]
fn capacity_domain() {
    let mut app = fixtures::app();
    press(&mut app, "2 enter enter");
    assert!(matches!(
        app.nav.current(),
        Route::Capacity(CapacityScope::Domain(..))
    ));
    insta::assert_snapshot!(render(&app, 160, 40));
}

#[test]
fn capacity_of_unusable_cluster_is_not_computed() {
    let mut app = fixtures::app();
    app.go_capacity(CapacityScope::Cluster("us-west-dev-01".into()), false);
    let screen = render(&app, 120, 20);
    assert!(
        screen.contains("capacity is not computed from data we cannot trust"),
        "{screen}"
    );
}

#[test]
fn node_what_if_from_the_drill_down() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    press(&mut app, "G k space space b");
    let w = app
        .capacity_state
        .what_if
        .as_ref()
        .expect("batch what-if ran");
    assert_eq!(w.report.lost_nodes, 2);
    assert!(matches!(
        w.report.scenario,
        crate::model::capacity::Scenario::MaintenanceBatch(_)
    ));
    assert_eq!(
        app.nav.current(),
        &Route::Capacity(CapacityScope::Cluster("eu-fra-prod-01".into()))
    );
    press(&mut app, "esc");
    assert_eq!(app.nav.current(), &Route::Cluster("eu-fra-prod-01".into()));
}

#[test]
fn the_node_page_what_ifs_its_own_node_whatever_the_drill_down_marked() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    // A mark on another node of the drill-down does not leak into the node page.
    press(&mut app, "space enter");
    let Route::Node(_, node) = app.nav.current().clone() else {
        panic!("{:?}", app.nav.current())
    };
    let footer = render(&app, 200, 30);
    assert!(footer.contains("<w> what-if"), "{footer}");
    press(&mut app, "w");
    let w = app.capacity_state.what_if.as_ref().expect("what-if ran");
    let crate::model::capacity::Scenario::LoseNodes(lost) = &w.report.scenario else {
        panic!("{:?}", w.report.scenario)
    };
    assert_eq!(
        lost.iter().map(|n| n.0.as_ref()).collect::<Vec<_>>(),
        [node.as_ref()]
    );
    assert_eq!(w.report.lost_nodes, 1);
    assert_eq!(
        app.nav.current(),
        &Route::Capacity(CapacityScope::Cluster("eu-fra-prod-01".into()))
    );
    press(&mut app, "esc");
    assert!(matches!(app.nav.current(), Route::Node(..)));
    press(&mut app, "c");
    assert_eq!(
        app.nav.current(),
        &Route::Capacity(CapacityScope::Cluster("eu-fra-prod-01".into()))
    );
}

#[test]
fn a_drain_what_if_names_the_budget_that_would_hold_it_up() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    // fra1-cpu-a00 carries a pod the spent shop/web budget refuses to evict.
    press(&mut app, "enter b");
    let w = app.capacity_state.what_if.as_ref().expect("what-if ran");
    assert_eq!(
        w.blocking
            .iter()
            .map(|b| (b.name.as_ref(), b.pods))
            .collect::<Vec<_>>(),
        [("web", 1)]
    );
    let screen = render(&app, 200, 40);
    assert!(
        screen.contains("while draining node fra1-cpu-a00 as a maintenance batch"),
        "{screen}"
    );
    assert!(
        screen.contains(
            "the drain would wait: PDB shop/web (1 pod; has 9 healthy, needs 9) allows no eviction now"
        ),
        "{screen}"
    );
    // Losing the node asks no budget.
    press(&mut app, "esc w");
    let w = app.capacity_state.what_if.as_ref().expect("what-if ran");
    assert!(w.blocking.is_empty());
}

#[test]
fn losing_a_whole_cluster_asks_its_siblings() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    press(&mut app, "L");
    assert_eq!(
        app.nav.current(),
        &Route::Capacity(CapacityScope::Cluster("eu-fra-prod-01".into()))
    );
    let shown = app
        .capacity_state
        .cluster_loss
        .as_ref()
        .expect("the loss was asked");
    let absorbed = shown.loss.absorbed.as_ref().expect("its pods are known");
    assert_eq!(
        absorbed
            .siblings
            .iter()
            .map(|s| s.cluster.as_str())
            .collect::<Vec<_>>(),
        ["eu-fra-prod-02"],
        "the other production cluster of eu-central"
    );
    let screen = render(&app, 200, 45);
    assert!(
        screen.contains(
            "What-if: lose eu-fra-prod-01 whole · siblings env=production, region=eu-central"
        ),
        "{screen}"
    );
    assert!(screen.contains(&shown.loss.headline()), "{screen}");
    insta::assert_snapshot!(screen);
    // One what-if at a time: a zone what-if replaces it, x clears either.
    press(&mut app, "w");
    assert!(app.capacity_state.cluster_loss.is_none());
    press(&mut app, "L x");
    assert!(app.capacity_state.cluster_loss.is_none() && app.capacity_state.what_if.is_none());
}

#[test]
fn help_wraps_a_long_description_rather_than_cutting_it() {
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    press(&mut app, "?");
    let screen = render(&app, 160, 60);
    // The end of `L`'s description, which one 60-cell line cannot hold.
    assert!(screen.contains("take its pods?"), "{screen}");
}

#[test]
fn a_shown_cluster_loss_is_asked_again_only_when_a_cluster_it_read_changes() {
    use std::sync::Arc;
    let mut app = fixtures::app();
    open_first_cluster(&mut app);
    press(&mut app, "L");
    let changed = |app: &App, id: &str| {
        let mut snapshot = app.snapshot.clone();
        snapshot.version += 1;
        snapshot.clusters = snapshot
            .clusters
            .iter()
            .map(|c| {
                let mut c = (**c).clone();
                if &*c.id == id {
                    c.view = Arc::new((*c.view).clone());
                }
                Arc::new(c)
            })
            .collect();
        snapshot
    };
    let shown = app.capacity_state.cluster_loss.as_ref().expect("asked");
    let holds = &app.activity.journal.holds;
    // A newer snapshot whose change is elsewhere: the answer stands.
    let elsewhere = changed(&app, "us-east-stg-01");
    assert!(shown.is_current(&app.ledger, &elsewhere, holds));
    // A sibling's new view: asked again.
    let sibling = changed(&app, "eu-fra-prod-02");
    assert!(!shown.is_current(&app.ledger, &sibling, holds));
}

#[test]
fn losing_a_cluster_without_data_shows_its_siblings_room_or_that_it_has_none() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "cluster us-east-prod-03");
    press(&mut app, "enter L");
    let screen = render(&app, 160, 30);
    assert!(
        screen.contains("its pods are unknown without fresh data"),
        "{screen}"
    );
    assert!(
        screen.contains("no sibling: no other serving cluster in its environment and region"),
        "{screen}"
    );
    // Its capacity page has no domain to lose: w says why instead of doing nothing.
    press(&mut app, "w");
    let said = app.message.clone().unwrap_or_default();
    assert!(
        said.contains("no failure domain to show on us-east-prod-03"),
        "{said:?}"
    );
}

#[test]
fn palette_over_the_ledger() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "gpu");
    let Some(Overlay::Palette(p)) = &app.overlay else {
        panic!("palette closed")
    };
    assert!(
        p.matches
            .iter()
            .any(|e| e.label.starts_with(":node fra1-gpu"))
    );
    let first_is_node = p.matches[0].label.starts_with(":node");
    insta::assert_snapshot!(render(&app, 120, 30));
    press(&mut app, "enter");
    if first_is_node {
        // A node opens its page over its cluster's, where `esc` shows it selected.
        let Route::Node(_, node) = app.nav.current().clone() else {
            panic!("{:?}", app.nav.current())
        };
        press(&mut app, "esc");
        assert!(matches!(app.nav.current(), Route::Cluster(_)));
        assert_eq!(
            app.cluster_state.as_ref().and_then(|s| s.selected.clone()),
            Some(node)
        );
    } else {
        assert!(matches!(app.nav.current(), Route::Cluster(_)));
    }
}

#[test]
fn the_open_palette_searches_the_newest_snapshot_and_lets_it_go_when_closed() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    let first = fixtures::snapshot().clusters[0].id.to_string();
    let mut snapshot = fixtures::with_cluster(&fixtures::snapshot(), &first, |c| {
        let view = std::sync::Arc::make_mut(&mut c.view);
        let mut late = view.nodes[0].clone();
        late.name = crate::model::fleet::NodeName::from("late-joiner-001");
        view.nodes.push(late);
    });
    snapshot.version += 1;
    app.update(Msg::Snapshot(snapshot));
    typed(&mut app, "node late-joiner");
    let Some(Overlay::Palette(p)) = &app.overlay else {
        panic!("palette closed")
    };
    assert_eq!(
        p.matches.first().map(|e| e.label.as_str()),
        Some(":node late-joiner-001")
    );
    press(&mut app, "esc");
    assert!(app.overlay.is_none());
    assert!(
        app.candidates.nodes.is_empty(),
        "a closed palette holds no cluster view"
    );
}

#[test]
fn help_is_generated_from_the_keymap() {
    let mut app = fixtures::app();
    press(&mut app, "?");
    let screen = render(&app, 120, 50);
    for b in app.config.keymap.bindings(super::keymap::Context::Ledger) {
        assert!(screen.contains(&b.desc), "help lacks {}", b.desc);
    }
    insta::assert_snapshot!(screen);
    press(&mut app, "x");
    assert!(app.overlay.is_none());
}

#[test]
fn paused_automation_and_light_theme_header() {
    let (light, _) = Theme::load("light", None, false);
    let mut app = fixtures::app_with(light);
    let pause = crate::model::run::NewEvent::new(
        fixtures::now(),
        crate::model::run::Actor("guard".into()),
        crate::model::run::IdempotencyKey("guard-pause".into()),
        crate::model::run::EventBody::Paused {
            scope: crate::model::run::PauseScope::Fleet,
            reason: "mass failure in eu-fra-1b".into(),
        },
    );
    let mut events = crate::model::run::EventLog::default();
    events.push(pause);
    fixtures::with_journal(&mut app, events.0);
    let screen = render(&app, 200, 12);
    assert!(
        screen.contains("AUTOMATION PAUSED (mass failure in eu-fra-1b, by guard)"),
        "{screen}"
    );
    assert!(screen.contains("READ-ONLY"));
    assert!(screen.contains("14:02:03 UTC · 15:02"), "{screen}");
}

#[test]
fn unknown_is_not_counted_in_fleet_totals() {
    let app = fixtures::app();
    let totals = super::screens::capacity::fleet_totals(&app.snapshot, &app.data);
    assert_eq!(totals.counted, 3, "Synced and Degraded only");
    let left_out: usize = totals.not_counted.iter().map(|(_, n)| n).sum();
    assert_eq!(left_out, 4);
    let screen = render(&app, 200, 12);
    assert!(screen.contains("(4 clusters not counted)"), "{screen}");
}

#[test]
fn sorting_grouping_and_history() {
    let mut app = fixtures::app();
    let first = |app: &App| app.rows[app.ledger_state.visible(&app.rows)[0]].id.clone();
    assert_eq!(first(&app), "ap-sg-prod-01", "worst status first");
    press(&mut app, "s");
    assert_eq!(
        app.ledger_state.sort,
        super::screens::ledger::Column::Findings
    );
    // eu-fra-prod-02: four findings, critical among them (a failing etcd check).
    assert_eq!(first(&app), "eu-fra-prod-02", "worst findings first");
    press(&mut app, "r");
    assert_eq!(
        first(&app),
        "us-east-stg-01",
        "one warning: fewest last reversed"
    );
    press(&mut app, "r");
    press(&mut app, "S");
    press(&mut app, "r");
    assert_eq!(
        first(&app),
        "us-east-stg-01",
        "synced and freshest first when reversed"
    );
    press(&mut app, "E");
    let lines = app.ledger_state.lines(&app.rows);
    assert!(matches!(&lines[0], super::screens::ledger::Line::Group(g, 1) if g == "development"));
    press(&mut app, "enter esc [ ]");
    assert!(matches!(app.nav.current(), Route::Ledger));
    press(&mut app, "[");
    assert!(matches!(app.nav.current(), Route::Cluster(_)));
}

#[test]
fn no_color_renders_the_same_text() {
    let (mono, _) = Theme::load("dark", None, true);
    let app = fixtures::app_with(mono);
    assert_eq!(render(&app, 200, 30), render(&fixtures::app(), 200, 30));
    let buf = super::view::render_to_buffer(&app, 200, 30);
    let coloured = buf
        .content()
        .iter()
        .any(|c| c.fg != ratatui::style::Color::Reset || c.bg != ratatui::style::Color::Reset);
    assert!(!coloured, "NO_COLOR leaves no colour in the frame");
}

#[test]
fn resize_any_time_never_panics() {
    let mut app = fixtures::app();
    for (w, h) in [(1, 1), (40, 12), (41, 13), (80, 24), (300, 100), (0, 0)] {
        app.update(Msg::Resize(w, h));
        for keys in [
            "", "2 enter", "j w", "enter", "esc esc", ":", "esc ?", "esc",
        ] {
            press(&mut app, keys);
            let _ = super::view::render_to_buffer(&app, w, h);
        }
    }
}

#[test]
fn data_that_goes_stale_reads_unknown_without_a_new_snapshot() {
    use crate::model::live::ClusterStatus;
    // The publisher stops (no snapshot arrives); only time passes.
    let mut app = fixtures::app();
    let id = "eu-fra-prod-01";
    let status = |app: &App| app.snapshot.cluster(id).map(|c| c.status);
    assert_eq!(status(&app), Some(ClusterStatus::Synced));
    let soon = jiff::Timestamp::from_second(app.now.as_second() + 60).unwrap();
    app.update(Msg::Tick(soon));
    assert_eq!(status(&app), Some(ClusterStatus::Synced), "still fresh");
    let later = jiff::Timestamp::from_second(app.now.as_second() + 600).unwrap();
    app.update(Msg::Tick(later));
    assert_eq!(status(&app), Some(ClusterStatus::Unknown));
    let (ready, total) = app.snapshot.cluster(id).map(|c| c.nodes_ready()).unwrap();
    assert_eq!((ready, total > 0), (0, true), "no longer counted as ready");
    assert!(
        app.data
            .cluster(id)
            .is_some_and(|facts| std::sync::Arc::ptr_eq(
                &facts.source,
                &app.snapshot.cluster(id).unwrap().view
            )),
        "the facts follow the aged snapshot"
    );
    // The cluster screen says so.
    press(&mut app, ":");
    typed(&mut app, "cluster eu-fra-prod-01");
    press(&mut app, "enter");
    let screen = render(&app, 200, 40);
    assert!(
        screen.contains("Unknown") || screen.contains("UNKNOWN"),
        "{screen}"
    );
}

#[test]
fn a_shown_what_if_follows_new_data_and_goes_when_the_data_cannot_be_trusted() {
    use std::sync::Arc;
    let mut app = fixtures::app();
    press(&mut app, "2 enter j w");
    let lost = |app: &App| {
        app.capacity_state
            .what_if
            .as_ref()
            .map(|w| w.report.lost_nodes)
    };
    assert_eq!(lost(&app), Some(4));
    // A newer snapshot in which the zone has one node fewer: the what-if is run again.
    let mut snapshot = app.snapshot.clone();
    let clusters: Vec<_> = snapshot
        .clusters
        .iter()
        .map(|c| {
            if &*c.id != "eu-fra-prod-01" {
                return Arc::clone(c);
            }
            let zone = app
                .capacity_state
                .what_if
                .as_ref()
                .map(|w| w.scenario.clone());
            let mut view = (*c.view).clone();
            let gone = view
                .nodes
                .iter()
                .position(|n| match &zone {
                    Some(crate::model::capacity::Scenario::LoseFailureDomain { value, .. }) => {
                        n.labels.get("topology.kubernetes.io/zone") == Some(value)
                    }
                    _ => false,
                })
                .expect("a node in the zone");
            view.nodes.remove(gone);
            let mut cluster = (**c).clone();
            cluster.view = Arc::new(view);
            Arc::new(cluster)
        })
        .collect();
    snapshot.clusters = Arc::from(clusters);
    app.update(Msg::Snapshot(snapshot.clone()));
    assert_eq!(lost(&app), Some(3), "run again on the newer view");
    // The cluster's data goes stale: the what-if is dropped, and the footer says why.
    let later = jiff::Timestamp::from_second(app.now.as_second() + 600).unwrap();
    app.update(Msg::Tick(later));
    assert_eq!(lost(&app), None);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("cleared")),
        "{:?}",
        app.message
    );
}

#[test]
fn w_on_the_fleet_capacity_list_shows_the_selected_cluster_losing_its_worst_zone() {
    let mut app = fixtures::app();
    press(&mut app, "2");
    assert_eq!(app.nav.current(), &Route::Capacity(CapacityScope::Fleet));
    press(&mut app, "w");
    let Route::Capacity(CapacityScope::Cluster(id)) = app.nav.current().clone() else {
        panic!("{:?}", app.nav.current());
    };
    let shown = app.capacity_state.what_if.as_ref().expect("a what-if ran");
    assert_eq!(shown.cluster, id);
    assert!(
        matches!(
            shown.scenario,
            crate::model::capacity::Scenario::LoseFailureDomain { .. }
        ),
        "{:?}",
        shown.scenario
    );
    let report = &app.capacity_state.report.as_ref().expect("report").report;
    let most = report
        .n_minus_one
        .per_domain
        .iter()
        .map(|l| l.unplaced_pods())
        .max()
        .unwrap_or(0);
    assert_eq!(shown.report.unplaced_pods(), most, "the worst domain");
}

#[test]
fn a_narrow_header_drops_whole_figures_rather_than_cutting_them() {
    let app = fixtures::app();
    let wide = render(&app, 200, 24);
    let full = wide.lines().next().unwrap_or_default().to_string();
    let nodes = full
        .split(" │ ")
        .find(|part| part.starts_with("nodes "))
        .map(|part| part.split(" (").next().unwrap_or(part).trim().to_string())
        .unwrap_or_else(|| panic!("nodes in {full}"));
    for width in [60u16, 80, 100] {
        let screen = render(&app, width, 24);
        let first = screen.lines().next().unwrap_or_default();
        assert!(
            !first.contains("nodes ") || first.contains(&nodes),
            "{width}: {first} (whole: {nodes})"
        );
        assert!(first.contains("IDMISMATCH"), "worst first: {first}");
    }
}

#[test]
fn a_cluster_nothing_was_read_from_shows_no_data_not_zeros() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "cluster ap-sg-stg-02");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    assert!(!screen.contains("0 nodes · 0 pods"), "{screen}");
    assert!(
        !screen.contains("figures below"),
        "there are no figures:\n{screen}"
    );
    assert!(
        !screen.contains("matches the filter"),
        "no filter is active:\n{screen}"
    );
    assert!(
        screen.contains("no node or pod data") || screen.contains("no data for this cluster yet"),
        "{screen}"
    );
    press(&mut app, "esc");
    let ledger = render(&app, 200, 30);
    let row = ledger
        .lines()
        .find(|l| l.contains("ap-sg-stg-02"))
        .unwrap_or_default();
    assert!(!row.contains("?/0"), "{row}");
}

#[test]
fn an_identity_mismatch_drill_down_shows_the_whole_reason() {
    let mut app = fixtures::app();
    press(&mut app, ":");
    typed(&mut app, "cluster ap-sg-prod-01");
    press(&mut app, "enter");
    let screen = render(&app, 160, 30);
    let reason = app
        .snapshot
        .cluster("ap-sg-prod-01")
        .and_then(|c| match &c.identity_verdict {
            Some(crate::model::live::IdentityVerdict::Mismatch { reason }) => Some(reason.clone()),
            _ => None,
        })
        .expect("the fixture's impostor");
    assert!(
        screen.contains(&format!("IDENTITY MISMATCH: {reason}")),
        "{reason}\n{screen}"
    );
    assert_eq!(
        screen.matches(reason.as_str()).count(),
        1,
        "once:\n{screen}"
    );
}

#[test]
fn no_blocking_pdb_seen_is_not_none_without_fresh_data() {
    // us-east-stg-01 with its PDBs gone: nothing blocks a drain while its data is fresh.
    let without_pdbs = |status: crate::model::live::ClusterStatus| {
        let mut snapshot = fixtures::snapshot();
        let clusters: Vec<_> = snapshot
            .clusters
            .iter()
            .map(|c| {
                let mut c = (**c).clone();
                if &*c.id == "us-east-stg-01" {
                    let mut view = (*c.view).clone();
                    view.pdbs.clear();
                    view.pods.iter_mut().for_each(|p| p.pdb = None);
                    c.view = std::sync::Arc::new(view);
                    c.status = status;
                }
                std::sync::Arc::new(c)
            })
            .collect();
        snapshot.clusters = clusters.into();
        snapshot
    };
    let mut app = fixtures::app();
    app.update(super::app::Msg::Snapshot(without_pdbs(
        crate::model::live::ClusterStatus::Synced,
    )));
    press(&mut app, ":");
    typed(&mut app, "cluster us-east-stg-01");
    press(&mut app, "enter");
    let fresh = render(&app, 160, 30);
    assert!(
        fresh.contains("every PDB allows a disruption now"),
        "{fresh}"
    );
    app.update(super::app::Msg::Snapshot(without_pdbs(
        crate::model::live::ClusterStatus::Unknown,
    )));
    let stale = render(&app, 160, 30);
    assert!(!stale.contains("every PDB allows"), "{stale}");
    assert!(
        stale.contains("unknown: no fresh data from this cluster"),
        "{stale}"
    );
}
