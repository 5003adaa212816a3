//! Draws the `:` palette.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::app::App;
use crate::tui::palette::PaletteState;
use crate::tui::theme::Slot;
use crate::tui::view::overlay_block;

/// Draws the palette near the top of `area`.
pub fn draw(app: &App, state: &PaletteState, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let width = area.width.saturating_sub(4).min(80);
    let height = area.height.saturating_sub(2).min(16);
    let rect = Rect::new(area.x + (area.width - width) / 2, area.y + 1, width, height);
    let inner = overlay_block(app, rect, "command · enter runs · esc closes", buf);
    if inner.height == 0 {
        return;
    }
    let prompt = Line::from(vec![
        Span::styled(":", t.style(Slot::Title)),
        Span::raw(state.input.clone()),
        Span::styled("█", t.style(Slot::Muted)),
    ]);
    buf.set_line(inner.x, inner.y, &prompt, inner.width);
    let rows = usize::from(inner.height.saturating_sub(1));
    let offset = state.selected.saturating_sub(rows.saturating_sub(1));
    if state.matches.is_empty() {
        let hint = crate::tui::palette::unmatched_hint(&state.input, &app.candidates);
        buf.set_stringn(
            inner.x,
            inner.y + 1,
            hint.as_deref().unwrap_or("no match"),
            usize::from(inner.width),
            t.style(Slot::Muted),
        );
    }
    for (n, entry) in state.matches.iter().skip(offset).take(rows).enumerate() {
        let y = inner.y + 1 + n as u16;
        let base = if offset + n == state.selected {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), base);
        let line = Line::from(vec![
            Span::styled(
                format!("{:<40}", entry.label),
                base.patch(t.style(Slot::Text)),
            ),
            Span::styled(entry.detail.clone(), base.patch(t.style(Slot::Muted))),
        ]);
        buf.set_line(inner.x, y, &line, inner.width);
    }
}
