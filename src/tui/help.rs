//! `?`: the keys of the active keymap, generated from it, so help never disagrees with
//! what the keys do.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::App;
use super::keymap::Context;
use super::theme::Slot;
use super::view::{centred, overlay_block};

/// The help lines for the current screen: its own keys, then lists, then global ones.
pub fn lines(app: &App) -> Vec<Line<'static>> {
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
            out.push(Line::from(vec![
                Span::styled(
                    format!("  {:<12}", b.key.to_string()),
                    theme.style(Slot::Mark),
                ),
                Span::raw(b.desc.clone()),
            ]));
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
    let inner = overlay_block(app, rect, "help · esc closes · ↑↓ scroll", buf);
    let lines = lines(app);
    let scroll = scroll.min(lines.len().saturating_sub(usize::from(inner.height)));
    Paragraph::new(lines)
        .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
        .render(inner, buf);
}
