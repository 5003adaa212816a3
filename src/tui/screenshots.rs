//! Screenshots of every screen from the fixture fleet, through the real renderer: each
//! frame becomes an HTML page (one coloured span per run of equal style), which
//! `scripts/screenshots.sh` turns into `screenshots/*.png` with headless Chromium.
//! Ignored by default: `cargo test --lib tui::screenshots -- --ignored` writes the HTML.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

use super::app::{App, Msg};
use super::fixtures;
use super::view::render_to_buffer;

const BG: &str = "#1a1b26";
const FG: &str = "#c0caf5";

fn css(color: Color, default: &str) -> String {
    let named = |i: u8| -> &'static str {
        [
            "#15161e", "#f7768e", "#9ece6a", "#e0af68", "#7aa2f7", "#bb9af7", "#7dcfff", "#a9b1d6",
            "#414868", "#ff7a93", "#b9f27c", "#ff9e64", "#7da6ff", "#bb9af7", "#0db9d7", "#c0caf5",
        ][usize::from(i % 16)]
    };
    match color {
        Color::Reset => default.to_owned(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Black => named(0).into(),
        Color::Red => named(1).into(),
        Color::Green => named(2).into(),
        Color::Yellow => named(3).into(),
        Color::Blue => named(4).into(),
        Color::Magenta => named(5).into(),
        Color::Cyan => named(6).into(),
        Color::Gray => named(7).into(),
        Color::DarkGray => named(8).into(),
        Color::LightRed => named(9).into(),
        Color::LightGreen => named(10).into(),
        Color::LightYellow => named(11).into(),
        Color::LightBlue => named(12).into(),
        Color::LightMagenta => named(13).into(),
        Color::LightCyan => named(14).into(),
        Color::White => named(15).into(),
        Color::Indexed(i) => named(i).into(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The buffer as a standalone HTML page in a monospace grid.
pub fn to_html(buf: &Buffer, title: &str) -> String {
    let mut out = format!(
        "<!doctype html><meta charset=utf-8><title>{title}</title><style>body{{margin:0;background:{BG}}}pre{{margin:0;padding:8px;font:14px/1.25 'DejaVu Sans Mono','Noto Sans Mono CJK SC',monospace;color:{FG};background:{BG}}}</style><pre>"
    );
    for y in 0..buf.area.height {
        let mut x = 0;
        while x < buf.area.width {
            let cell = &buf[(x, y)];
            let (mut fg, mut bg) = (css(cell.fg, FG), css(cell.bg, BG));
            if cell.modifier.contains(Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            let mut style = format!("color:{fg};background:{bg}");
            if cell.modifier.contains(Modifier::BOLD) {
                style.push_str(";font-weight:bold");
            }
            if cell.modifier.contains(Modifier::ITALIC) {
                style.push_str(";font-style:italic");
            }
            if cell.modifier.contains(Modifier::UNDERLINED) {
                style.push_str(";text-decoration:underline");
            }
            let mut text = String::new();
            while x < buf.area.width {
                let c = &buf[(x, y)];
                if c.fg != cell.fg || c.bg != cell.bg || c.modifier != cell.modifier {
                    break;
                }
                // A wide character (Chinese) takes two cells on a terminal: draw it in a
                // box two cells wide and skip the cell it covers, so columns line up
                // whatever width the font gives the glyph.
                if unicode_width::UnicodeWidthStr::width(c.symbol()) == 2 {
                    let _ = write!(
                        text,
                        "<span style=\"display:inline-block;width:2ch;text-align:center\">{}</span>",
                        escape(c.symbol())
                    );
                    x += 2;
                    continue;
                }
                text.push_str(&escape(c.symbol()));
                x += 1;
            }
            let _ = write!(out, "<span style=\"{style}\">{text}</span>");
        }
        out.push('\n');
    }
    out.push_str("</pre>");
    out
}

fn key(app: &mut App, keys: &str) {
    for k in keys.split(' ').filter(|k| !k.is_empty()) {
        if let Ok(chord) = super::keymap::KeyChord::parse(k) {
            app.update(Msg::Key(crossterm::event::KeyEvent::new(
                chord.code, chord.mods,
            )));
        }
    }
}

/// Every screen worth a picture: (file name, keys from the ledger, width, height).
pub const SHOTS: &[(&str, &str, u16, u16)] = &[
    ("ledger-grouped", "R space", 200, 24),
    (
        "cluster",
        ": c l u s t e r space e u - f r a - p r o d - 0 1 enter",
        200,
        40,
    ),
    (
        "node",
        ": c l u s t e r space e u - f r a - p r o d - 0 1 enter enter",
        200,
        22,
    ),
    (
        "pdb-pods",
        ": c l u s t e r space e u - f r a - p r o d - 0 1 enter tab enter",
        200,
        26,
    ),
    ("capacity-fleet", "2", 200, 26),
    ("capacity-cluster-what-if", "2 enter j w", 200, 44),
    ("palette", ": g p u", 140, 24),
    ("help", "?", 120, 44),
    ("too-small", "", 39, 11),
];

/// The operator screens and dialogs, on the fixture fleet and its fixture journal (a
/// stuck drain, a hand-off, a rollout awaiting approval).
pub const OPERATOR_SHOTS: &[(&str, &str, u16, u16)] = &[
    ("ledger", "", 200, 24),
    ("rollouts", "3", 200, 36),
    ("approve", "3 a", 160, 36),
    ("maintenance", "4", 200, 36),
    ("hand-off", "4 h d a v e @ o p s enter", 160, 36),
    ("timeline", "5", 200, 36),
    ("findings", "6 j", 200, 40),
    ("handover", "H", 160, 36),
];

/// The operator screens again in Simplified Chinese (`zh-CN-NAME`), to show the
/// translated console beside the English one.
pub const CHINESE_SHOTS: &[(&str, &str, u16, u16)] = &[
    ("zh-CN-ledger", "", 200, 24),
    ("zh-CN-rollouts", "3", 200, 36),
    ("zh-CN-approve", "3 a", 160, 36),
    ("zh-CN-maintenance", "4", 200, 36),
    ("zh-CN-hand-off", "4 h d a v e @ o p s enter", 160, 36),
    ("zh-CN-handover", "H", 160, 36),
    ("zh-CN-help", "?", 120, 44),
    (
        "zh-CN-cluster",
        ": c l u s t e r space e u - f r a - p r o d - 0 1 enter",
        200,
        40,
    ),
    (
        "zh-CN-node",
        ": c l u s t e r space e u - f r a - p r o d - 0 1 enter enter",
        200,
        22,
    ),
    ("zh-CN-capacity-cluster-what-if", "2 enter j w", 200, 44),
    ("zh-CN-timeline", "5", 200, 36),
    ("zh-CN-findings", "6 j", 200, 40),
];

#[test]
#[ignore = "writes screenshots/*.html; run by scripts/screenshots.sh"]
fn write_screenshot_pages() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let fleet = SHOTS.iter().map(|s| (s, fixtures::app as fn() -> App));
    let operator = OPERATOR_SHOTS
        .iter()
        .map(|s| (s, fixtures::operator_app as fn() -> App));
    for ((name, keys, w, h), make) in fleet.chain(operator) {
        let mut app = make();
        key(&mut app, keys);
        let html = to_html(&render_to_buffer(&app, *w, *h), name);
        std::fs::write(dir.join(format!("{name}.html")), html).unwrap();
    }
    for (name, keys, w, h) in CHINESE_SHOTS {
        let mut app = fixtures::operator_app();
        app.config.lang = crate::i18n::Lang::ZhCn;
        key(&mut app, keys);
        let html = to_html(&render_to_buffer(&app, *w, *h), name);
        std::fs::write(dir.join(format!("{name}.html")), html).unwrap();
    }
}
