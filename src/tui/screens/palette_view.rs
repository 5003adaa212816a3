//! Draws the `:` palette.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::fit;
use crate::tui::palette::{Candidates, PaletteState};
use crate::tui::theme::Slot;
use crate::tui::view::overlay_block;

/// Draws the palette near the top of `area`; `candidates` is what it searches.
pub fn draw(
    state: &PaletteState,
    candidates: &Candidates,
    ctx: &Context,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let width = area.width.saturating_sub(4).min(80);
    let height = area.height.saturating_sub(2).min(16);
    let rect = Rect::new(area.x + (area.width - width) / 2, area.y + 1, width, height);
    let inner = overlay_block(
        &ctx.config.theme,
        rect,
        &crate::t!(ctx.config.lang, "palette-title"),
        buf,
    );
    if inner.height == 0 {
        return;
    }
    let prompt = Line::from(vec![
        Span::styled(":", t.style(Slot::Title)),
        Span::raw(state.input.clone()),
        Span::styled("█", t.style(Slot::Muted)),
    ]);
    canvas::line(buf, inner.x, inner.y, inner.width, &prompt);
    let rows = usize::from(inner.height.saturating_sub(1));
    let offset = state.selected.saturating_sub(rows.saturating_sub(1));
    if state.matches.is_empty() {
        let hint = crate::tui::palette::unmatched_hint(&state.input, candidates);
        canvas::wrapped(
            buf,
            Rect {
                y: inner.y + 1,
                height: inner.height.saturating_sub(1),
                ..inner
            },
            &[Line::styled(
                hint.unwrap_or_else(|| crate::t!(ctx.config.lang, "palette-no-match")),
                t.style(Slot::Muted),
            )],
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
        // The label whole when it can be, the detail in what is left.
        let width = usize::from(inner.width);
        let label_w = (width * 3 / 5).clamp(1, 40);
        let label = fit(&entry.label, label_w);
        let pad = label_w.saturating_sub(unicode_width::UnicodeWidthStr::width(label.as_str()));
        let detail = fit(&entry.detail, width.saturating_sub(label_w + 1));
        let line = Line::from(vec![
            Span::styled(
                format!("{label}{} ", " ".repeat(pad)),
                base.patch(t.style(Slot::Text)),
            ),
            Span::styled(detail, base.patch(t.style(Slot::Muted))),
        ]);
        canvas::line(buf, inner.x, y, inner.width, &line);
    }
}
