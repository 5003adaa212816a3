//! `?`: the keys of the active keymap, generated from it, so help never disagrees with
//! what the keys do.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::app::App;
use super::canvas;
use super::keymap::Context;
use super::theme::Slot;
use super::view::{centred, overlay_block};
use unicode_width::UnicodeWidthStr;

/// Cells before a key's description: two of margin and the key's column.
const KEY_CELLS: usize = 14;

/// `text` cut at spaces into lines of at most `width` cells (a word longer than that
/// keeps its own line).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.width() + 1 + word.width() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

/// The help lines for the current screen: its own keys, then lists, then global ones,
/// each description wrapped to `width` cells under its key.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = &app.config.theme;
    let map = &app.config.keymap;
    let mut out = Vec::new();
    let screen = app.context();
    let mut contexts = vec![screen];
    for ctx in [Context::List, Context::Global] {
        if !contexts.contains(&ctx) {
            contexts.push(ctx);
        }
    }
    for ctx in contexts {
        let bindings: Vec<_> = map
            .bindings(ctx)
            .iter()
            .filter(|b| {
                ctx != Context::List || super::screen_keys::uses_list_action(screen, b.action)
            })
            .collect();
        if bindings.is_empty() {
            continue;
        }
        out.push(Line::styled(
            ctx.name().to_uppercase(),
            theme.style(Slot::Title),
        ));
        for b in bindings {
            let desc = wrap_words(&b.desc, width.saturating_sub(KEY_CELLS).max(20));
            for (i, part) in desc.into_iter().enumerate() {
                let key = if i == 0 {
                    b.key.to_string()
                } else {
                    String::new()
                };
                out.push(Line::from(vec![
                    Span::styled(format!("  {key:<12}"), theme.style(Slot::Mark)),
                    Span::raw(part),
                ]));
            }
        }
        out.push(Line::raw(""));
    }
    if matches!(app.nav.current(), super::nav::Route::Node(..)) {
        out.push(Line::styled("IF DRAINED, MOVES", theme.style(Slot::Title)));
        for (value, meaning) in super::screens::node::FATE_LEGEND.iter().copied() {
            out.push(Line::from(vec![
                Span::styled(format!("  {value:<12}"), theme.style(Slot::Mark)),
                Span::raw(meaning),
            ]));
        }
    }
    out
}

/// Draws the help overlay.
pub fn draw(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    let rect = centred(area, 76, area.height.saturating_sub(2).max(8));
    let inner = overlay_block(
        &app.config.theme,
        rect,
        "help · esc closes · ↑↓ scroll",
        buf,
    );
    let lines = lines(app, usize::from(inner.width));
    let height = usize::from(inner.height);
    let scroll = scroll.min(lines.len().saturating_sub(height));
    // Scrolled: the last row says how many lines are below, `↓` shows them.
    let shown: Vec<Line> = lines.into_iter().skip(scroll).collect();
    let below = shown.len().saturating_sub(height);
    if below == 0 {
        canvas::rows(buf, inner, &shown, app.config.theme.style(Slot::Muted));
        return;
    }
    let mut page: Vec<Line> = shown.into_iter().take(height.saturating_sub(1)).collect();
    page.push(Line::styled(
        format!("… {} more below (↓)", below + 1),
        app.config.theme.style(Slot::Muted),
    ));
    canvas::rows(buf, inner, &page, app.config.theme.style(Slot::Muted));
}

#[cfg(test)]
mod tests {
    use super::wrap_words;

    #[test]
    fn long_descriptions_wrap_at_spaces() {
        assert_eq!(
            wrap_words(
                "What-if: lose this cluster whole; could its siblings take its pods?",
                30
            ),
            [
                "What-if: lose this cluster",
                "whole; could its siblings take",
                "its pods?"
            ]
        );
        assert_eq!(wrap_words("short", 30), ["short"]);
        assert_eq!(
            wrap_words("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
    }
}
