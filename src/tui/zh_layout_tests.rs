//! The console in Simplified Chinese (`:lang zh-CN`): every screen and dialog of the
//! layout suite drawn through the checking canvas at 160×45, 80×24 and 60×20, so that
//! the translated chrome (header, banner, crumbs, footer, help, palette), twice as wide
//! per character, never overlaps or cuts text; and snapshots of the translated parts.

use ratatui::layout::Rect;

use super::app::{App, Msg};
use super::canvas_check::check_draw;
use super::fixtures;
use super::layout_tests::SETUPS;
use super::tests::{press, text, typed};
use super::view::draw;
use crate::i18n::Lang;

/// The operator fixture at `w`×`h`, switched to Chinese from the palette as a person
/// would, then `setup`.
fn zh(setup: fn(&mut App), w: u16, h: u16) -> App {
    let mut app = fixtures::operator_app();
    app.update(Msg::Resize(w, h));
    press(&mut app, ":");
    typed(&mut app, "lang zh-CN");
    press(&mut app, "enter");
    assert_eq!(app.config.lang, Lang::ZhCn);
    assert_eq!(app.message.as_deref(), Some("语言：简体中文"));
    app.message = None;
    setup(&mut app);
    // A setup that starts from another fixture (a halted rollout) speaks Chinese too.
    app.config.lang = Lang::ZhCn;
    app
}

fn drawn(app: &App, w: u16, h: u16) -> (String, Vec<String>) {
    let area = Rect::new(0, 0, w, h);
    let (buf, findings) = check_draw(area, |buf| draw(app, area, buf));
    (text(&buf), findings)
}

#[test]
fn in_chinese_no_screen_or_dialog_overlaps_or_cuts_text_at_the_three_sizes() {
    super::layout_tests::assert_every_setup_fits(zh);
}

#[test]
fn the_header_footer_help_and_palette_in_chinese() {
    let shots: [super::layout_tests::Setup; 4] = [
        ("ledger", |_| {}),
        ("help", |app| {
            press(app, "?");
        }),
        ("palette", |app| {
            press(app, ":");
            typed(app, "lang");
        }),
        ("maintenance_paused_all", |app| {
            super::operator_tests::paused(app);
            press(app, "4");
        }),
    ];
    for (name, setup) in shots {
        let mut all = String::new();
        for (w, h) in [(160, 45), (80, 24)] {
            let app = zh(setup, w, h);
            let (screen, findings) = drawn(&app, w, h);
            assert!(findings.is_empty(), "{name} {w}×{h}: {findings:?}");
            all.push_str(&format!("── {w}×{h} ──\n{screen}"));
        }
        insta::assert_snapshot!(format!("zh_{name}"), all);
    }
}

#[test]
fn the_handover_walkthrough_in_chinese() {
    let mut all = String::new();
    for (w, h) in [(160, 45), (80, 24)] {
        let app = zh(
            |app| {
                press(app, "H");
                // The stuck step: a title, details and "not acknowledged" in Chinese.
                press(app, "right");
            },
            w,
            h,
        );
        let (screen, findings) = drawn(&app, w, h);
        assert!(findings.is_empty(), "{w}×{h}: {findings:?}");
        all.push_str(&format!("── {w}×{h} ──\n{screen}"));
    }
    for said in ["交接班", "本班未确认"] {
        assert!(all.contains(said), "{said:?} missing:\n{all}");
    }
    insta::assert_snapshot!("zh_handover", all);
}

#[test]
fn the_chrome_says_it_in_chinese_and_back_in_english() {
    let mut app = zh(
        |app| {
            press(app, "?");
        },
        160,
        45,
    );
    let (screen, _) = drawn(&app, 160, 45);
    for said in [
        "个集群",
        "节点",
        "帮助 · esc 关闭",
        "全局",
        "退出 fleetdeck",
        "台账",
    ] {
        assert!(screen.contains(said), "{said}:\n{screen}");
    }
    press(&mut app, "esc");
    press(&mut app, ":");
    typed(&mut app, "lang en");
    press(&mut app, "enter");
    press(&mut app, "?");
    let (screen, _) = drawn(&app, 160, 45);
    assert!(screen.contains("help · esc closes"), "{screen}");
    assert!(screen.contains("GLOBAL"), "{screen}");
    assert!(!screen.contains("帮助"), "{screen}");
}

#[test]
fn an_unknown_language_in_the_palette_names_the_supported_ones() {
    let mut app = fixtures::operator_app();
    press(&mut app, ":");
    typed(&mut app, "lang fr");
    press(&mut app, "enter");
    assert_eq!(app.config.lang, Lang::En);
    assert_eq!(
        app.message.as_deref(),
        Some("unknown language fr: supported are en, zh-CN")
    );
}

/// Every screen and dialog of the layout suite, in Chinese at 160×45 and 80×24: one
/// snapshot each (`zh_dialog_NAME` when a dialog is open, else `zh_screen_NAME`).
#[test]
fn every_screen_and_dialog_in_chinese() {
    for (name, setup) in SETUPS {
        let mut all = String::new();
        let mut dialog = false;
        for (w, h) in [(160, 45), (80, 24)] {
            let app = zh(*setup, w, h);
            dialog = matches!(app.overlay, Some(super::app::Overlay::Dialog(_)));
            let (screen, findings) = drawn(&app, w, h);
            assert!(findings.is_empty(), "{name} {w}×{h}: {findings:?}");
            all.push_str(&format!("── {w}×{h} ──\n{screen}"));
        }
        let kind = if dialog { "dialog" } else { "screen" };
        insta::assert_snapshot!(format!("zh_{kind}_{name}"), all);
    }
}

/// What a dialog sends (and so what the journal holds) is the same in both languages;
/// only what the person reads is Chinese.
#[test]
fn a_dialog_sends_the_same_command_in_both_languages() {
    fn hand_off(app: &mut App) -> Vec<super::app::Command> {
        press(app, "4 h");
        typed(app, "erin@ops");
        press(app, "enter");
        typed(app, "PDB web-pdb holds the drain");
        press(app, "enter");
        press(app, "enter")
    }
    let mut en = fixtures::operator_app();
    en.update(Msg::Resize(160, 45));
    let sent_en = format!("{:?}", hand_off(&mut en));
    let mut app = zh(|_| {}, 160, 45);
    let sent_zh = format!("{:?}", hand_off(&mut app));
    assert!(sent_en.contains("HandOff"), "{sent_en}");
    assert_eq!(sent_en, sent_zh);
    let said = app.message.clone().unwrap_or_default();
    assert!(said.starts_with("已发送："), "{said}");
    assert!(said.contains("erin@ops"), "{said}");
    let said_en = en.message.clone().unwrap_or_default();
    assert!(said_en.starts_with("sent: hand "), "{said_en}");
}

#[test]
fn a_dialog_refuses_an_empty_field_in_chinese() {
    let mut app = zh(|_| {}, 160, 45);
    press(&mut app, "4 h enter enter");
    let Some(super::app::Overlay::Dialog(dialog)) = &app.overlay else {
        panic!("no dialog");
    };
    assert_eq!(dialog.problem.as_deref(), Some("接手人不能为空"));
}
