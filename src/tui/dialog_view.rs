//! Draws a dialog: its target, its inputs, then exactly what will happen (or why not).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::app::App;
use super::dialog::{Dialog, Purpose, Stage};
use super::theme::Slot;
use super::view::{centred, overlay_block};
use crate::model::run::ReturnOutcome;

/// Rows `lines` take when wrapped at word boundaries to `width` columns, as the
/// paragraphs here are drawn (a word longer than a row is broken). Counted the way the
/// text wraps, not by its length: a confirmation judged to fit must fit.
fn wrapped_height(lines: &[String], width: u16) -> u16 {
    let w = usize::from(width.max(1));
    let rows: usize = lines
        .iter()
        .flat_map(|l| l.split('\n'))
        .map(|line| word_wrapped_rows(line, w))
        .sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
}

fn word_wrapped_rows(line: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in line.split(' ') {
        let len = unicode_width::UnicodeWidthStr::width(word);
        let needed = if used == 0 { len } else { used + 1 + len };
        if needed <= width {
            used = needed;
            continue;
        }
        if used > 0 {
            rows += 1;
        }
        // A word longer than a row fills whole rows, then starts the next one.
        rows += len.saturating_sub(1) / width;
        used = match len % width {
            0 if len > 0 => width,
            rest => rest,
        };
    }
    rows
}

/// The dialog's width in `area`, and the width inside its border.
fn widths(area: Rect) -> (u16, u16) {
    let width = area.width.saturating_sub(4).min(100);
    (width, width.saturating_sub(2))
}

/// Rows the dialog's body takes below the context: the inputs, or what will happen (or
/// why not), with the key hint.
fn body_rows(dialog: &Dialog, inner_w: u16) -> u16 {
    match &dialog.stage {
        Stage::Edit => {
            dialog
                .fields
                .iter()
                .map(|f| if f.multiline { 4 } else { 2 })
                .sum::<u16>()
                + u16::from(dialog.asks_outcome())
                + 2
        }
        // The heading, the text (indented by two), a blank row and the hint.
        Stage::Confirm(text) => {
            wrapped_height(std::slice::from_ref(text), inner_w.saturating_sub(2)) + 3
        }
        Stage::Refused(text) => wrapped_height(std::slice::from_ref(text), inner_w) + 3,
    }
}

/// Whether `area` is tall enough to show all of what a confirmation will do, with its
/// heading and key hint. The context above gives way first; when even this does not fit,
/// the console does not take the confirming key.
pub fn confirmation_fits(dialog: &Dialog, area: Rect) -> bool {
    let Stage::Confirm(text) = &dialog.stage else {
        return true;
    };
    let (_, inner_w) = widths(area);
    // The text is indented by two; around it the heading and the hint, and around
    // those the borders and the blank row below the context.
    let text_rows = wrapped_height(std::slice::from_ref(text), inner_w.saturating_sub(2));
    area.height >= text_rows + 2 + 3
}

/// Draws `dialog` centred over `area`.
pub fn draw(app: &App, dialog: &Dialog, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let (width, inner_w) = widths(area);
    let context_h = wrapped_height(&dialog.context, inner_w);
    let body_h = body_rows(dialog, inner_w);
    let height = (context_h + body_h + 3).min(area.height);
    let rect = centred(area, width, height);
    let inner = overlay_block(app, rect, &dialog.title, buf);
    if inner.height == 0 {
        return;
    }
    // A multi-line note keeps its line breaks (counted as rows by `wrapped_height`).
    let context: Vec<Line> = dialog
        .context
        .iter()
        .flat_map(|l| l.split('\n'))
        .map(|l| Line::raw(l.to_owned()))
        .collect();
    // What the operator acts on comes first: the context gets the rows the body leaves.
    let ctx_rect = Rect {
        height: context_h.min(inner.height.saturating_sub(body_h + 1)),
        ..inner
    };
    Paragraph::new(context)
        .wrap(Wrap { trim: false })
        .render(ctx_rect, buf);
    let mut y = inner.y + ctx_rect.height + 1;
    let bottom = inner.y + inner.height;
    match &dialog.stage {
        Stage::Edit => {
            for (i, field) in dialog.fields.iter().enumerate() {
                if y >= bottom {
                    return;
                }
                let focused = dialog.focus == i;
                let label = Span::styled(
                    format!("{}{}", if focused { "▸ " } else { "  " }, field.label),
                    if focused {
                        t.style(Slot::Title)
                    } else {
                        t.style(Slot::Muted)
                    },
                );
                buf.set_line(inner.x, y, &Line::from(label), inner.width);
                y += 1;
                let h = if field.multiline { 3 } else { 1 };
                let h = h.min(bottom.saturating_sub(y));
                let mut area = field.area.clone();
                area.set_style(t.style(Slot::Text));
                area.set_cursor_style(if focused {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new()
                });
                let r = Rect::new(inner.x + 2, y, inner.width.saturating_sub(2), h);
                buf.set_style(r, t.style(Slot::Selection));
                (&area).render(r, buf);
                y += h;
            }
            if dialog.asks_outcome() {
                let focused = dialog.focus == dialog.fields.len();
                let mut spans = vec![Span::styled(
                    format!("{}outcome  ", if focused { "▸ " } else { "  " }),
                    if focused {
                        t.style(Slot::Title)
                    } else {
                        t.style(Slot::Muted)
                    },
                )];
                for (o, word) in [
                    (ReturnOutcome::Done, "d done"),
                    (ReturnOutcome::Retry, "r retry"),
                    (ReturnOutcome::Abort, "a abort"),
                ] {
                    // The choice is marked, not only coloured: `[x]` is the chosen one.
                    let chosen = dialog.outcome == Some(o);
                    spans.push(Span::styled(
                        format!(" [{}] {word} ", if chosen { 'x' } else { ' ' }),
                        if chosen {
                            t.style(Slot::Selection).add_modifier(Modifier::BOLD)
                        } else {
                            t.style(Slot::Muted)
                        },
                    ));
                    spans.push(Span::raw(" "));
                }
                if y < bottom {
                    buf.set_line(inner.x, y, &Line::from(spans), inner.width);
                    y += 1;
                }
            }
            if let Some(problem) = &dialog.problem
                && y < bottom
            {
                buf.set_stringn(
                    inner.x,
                    y,
                    problem,
                    usize::from(inner.width),
                    t.style(Slot::Warn),
                );
            }
            hint(
                app,
                "enter continue · tab next field · alt-enter new line · esc cancel",
                inner,
                buf,
            );
        }
        Stage::Confirm(text) => {
            if y < bottom {
                buf.set_stringn(
                    inner.x,
                    y,
                    "This will:",
                    usize::from(inner.width),
                    t.style(Slot::Title),
                );
            }
            let r = Rect::new(
                inner.x + 2,
                y + 1,
                inner.width.saturating_sub(2),
                bottom.saturating_sub(y + 2),
            );
            Paragraph::new(Text::styled(text.clone(), t.style(Slot::Warn)))
                .wrap(Wrap { trim: false })
                .render(r, buf);
            hint(
                app,
                if dialog.purpose == Purpose::Quit {
                    "q or enter quits · esc stays"
                } else if confirmation_fits(dialog, area) {
                    "enter confirms · esc goes back · nothing is sent before enter"
                } else {
                    "enlarge the terminal to see all and confirm · esc goes back"
                },
                inner,
                buf,
            );
        }
        Stage::Refused(why) => {
            let r = Rect::new(inner.x, y, inner.width, bottom.saturating_sub(y + 1));
            Paragraph::new(Span::styled(why.clone(), t.style(Slot::Critical)))
                .wrap(Wrap { trim: false })
                .render(r, buf);
            hint(app, "any key closes · nothing was sent", inner, buf);
        }
    }
}

fn hint(app: &App, text: &str, inner: Rect, buf: &mut Buffer) {
    if inner.height == 0 {
        return;
    }
    buf.set_stringn(
        inner.x,
        inner.y + inner.height - 1,
        text,
        usize::from(inner.width),
        app.config.theme.style(Slot::Muted),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_counted_as_words_wrap() {
        assert_eq!(word_wrapped_rows("", 10), 1);
        assert_eq!(word_wrapped_rows("aaaa bbbb", 9), 1);
        // By length this is 2 rows of 10; by words, each 6-letter word needs its own.
        assert_eq!(word_wrapped_rows("aaaaaa bbbbbb cccccc", 10), 3);
        // A word longer than a row is broken.
        assert_eq!(word_wrapped_rows("aaaaaaaaaaaaaaaaaaaaaaaaa", 10), 3);
        assert_eq!(word_wrapped_rows("x aaaaaaaaaaaaaaaaaaaa y", 10), 4);
        assert_eq!(
            wrapped_height(&["one two\nthree".to_string()], 20),
            2,
            "line breaks count"
        );
        // Wide characters take two cells each: four of them fill an 8-cell row.
        assert_eq!(word_wrapped_rows("節点保守 節点保守", 8), 2);
    }
}
