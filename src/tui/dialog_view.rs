//! Draws a dialog: its target, its inputs, then exactly what will happen (or why not).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::app::App;
use super::canvas;
use super::dialog::{Dialog, Purpose, Stage};
use super::theme::Slot;
use super::view::{centred, overlay_block};
use crate::model::run::ReturnOutcome;
use crate::t;

/// Rows `lines` take when wrapped at words to `width` columns, as the dialog draws them
/// (a note's line breaks count). A confirmation judged to fit must fit.
fn wrapped_height(lines: &[String], width: u16) -> u16 {
    let lines: Vec<Line> = lines
        .iter()
        .flat_map(|l| l.split('\n'))
        .map(|l| Line::raw(l.to_owned()))
        .collect();
    canvas::wrapped_height(&lines, width)
}

/// The dialog's width in `area`, and the width inside its border.
fn widths(area: Rect) -> (u16, u16) {
    let width = area.width.saturating_sub(4).min(100);
    (width, width.saturating_sub(2))
}

/// Rows the dialog's body takes below the context: its warnings, the inputs or what will
/// happen (or why not), with the key hint.
fn body_rows(dialog: &Dialog, inner_w: u16) -> u16 {
    let warnings = if dialog.warnings.is_empty() {
        0
    } else {
        wrapped_height(&dialog.warnings, inner_w) + 1
    };
    warnings
        + match &dialog.stage {
            Stage::Edit => {
                dialog
                .fields
                .iter()
                .map(|f| if f.multiline { 4 } else { 2 })
                .sum::<u16>()
                + u16::from(dialog.asks_outcome())
                // The problem (as it wraps) and the hint.
                + dialog
                    .problem
                    .as_ref()
                    .map_or(1, |p| wrapped_height(std::slice::from_ref(p), inner_w))
                + 1
            }
            // The heading, the text (indented by two), a blank row and the hint.
            Stage::Confirm(text) => {
                wrapped_height(std::slice::from_ref(text), inner_w.saturating_sub(2)) + 3
            }
            Stage::Refused(text) => wrapped_height(std::slice::from_ref(text), inner_w) + 3,
        }
}

/// Whether `area` is tall enough to show all of what a confirmation will do, with its
/// warnings, heading and key hint. The context above gives way first; when even this does
/// not fit, the console does not take the confirming key.
pub fn confirmation_fits(dialog: &Dialog, area: Rect) -> bool {
    let Stage::Confirm(text) = &dialog.stage else {
        return true;
    };
    let (_, inner_w) = widths(area);
    // The text is indented by two; around it the heading and the hint, and around
    // those the borders and the blank row below the context.
    let text_rows = wrapped_height(std::slice::from_ref(text), inner_w.saturating_sub(2));
    let warning_rows = wrapped_height(&dialog.warnings, inner_w);
    area.height >= warning_rows + text_rows + 2 + 3
}

/// Draws `dialog` centred over `area`.
pub fn draw(app: &App, dialog: &Dialog, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let lang = app.config.lang;
    let muted = t.style(Slot::Muted);
    let (width, inner_w) = widths(area);
    let context_h = wrapped_height(&dialog.context, inner_w);
    let body_h = body_rows(dialog, inner_w);
    let height = (context_h + body_h + 3).min(area.height);
    let rect = centred(area, width, height);
    let inner = overlay_block(&app.config.theme, rect, &dialog.title, buf);
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
    // What the operator acts on comes first: the context gets the rows the body leaves,
    // and says how many of its lines it left out.
    let ctx_rect = Rect {
        height: context_h.min(inner.height.saturating_sub(body_h + 1)),
        ..inner
    };
    canvas::wrapped(buf, ctx_rect, &context, muted);
    let mut y = inner.y + ctx_rect.height + 1;
    let bottom = inner.y + inner.height;
    // Warnings (a PDB that will hold the drain) stay in sight in both phases.
    if !dialog.warnings.is_empty() {
        let lines: Vec<Line> = dialog
            .warnings
            .iter()
            .map(|w| Line::styled(w.clone(), t.style(Slot::Critical)))
            .collect();
        let rect = Rect::new(inner.x, y, inner.width, bottom.saturating_sub(y + 1));
        y += canvas::wrapped(buf, rect, &lines, t.style(Slot::Critical)) + 1;
    }
    match &dialog.stage {
        Stage::Edit => {
            for (i, field) in dialog.fields.iter().enumerate() {
                if y >= bottom {
                    return;
                }
                let focused = dialog.focus == i;
                let label = Span::styled(
                    format!(
                        "{}{}",
                        if focused { "▸ " } else { "  " },
                        field.label_in(lang)
                    ),
                    if focused {
                        t.style(Slot::Title)
                    } else {
                        t.style(Slot::Muted)
                    },
                );
                canvas::line(buf, inner.x, y, inner.width, &Line::from(label));
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
                canvas::field(buf, r, &area, &field.text());
                y += h;
            }
            if dialog.asks_outcome() {
                let focused = dialog.focus == dialog.fields.len();
                let mut spans = vec![Span::styled(
                    format!(
                        "{}{}  ",
                        if focused { "▸ " } else { "  " },
                        t!(lang, "dialog-outcome")
                    ),
                    if focused {
                        t.style(Slot::Title)
                    } else {
                        t.style(Slot::Muted)
                    },
                )];
                for (o, word) in [
                    (ReturnOutcome::Done, t!(lang, "dialog-outcome-done")),
                    (ReturnOutcome::Retry, t!(lang, "dialog-outcome-retry")),
                    (ReturnOutcome::Abort, t!(lang, "dialog-outcome-abort")),
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
                    let rows = canvas::wrapped(
                        buf,
                        Rect::new(inner.x, y, inner.width, bottom.saturating_sub(y + 1)),
                        &[Line::from(spans)],
                        muted,
                    );
                    y += rows;
                }
            }
            if let Some(problem) = &dialog.problem
                && y < bottom
            {
                canvas::wrapped(
                    buf,
                    Rect::new(inner.x, y, inner.width, bottom.saturating_sub(y + 1)),
                    &[Line::styled(problem.clone(), t.style(Slot::Warn))],
                    t.style(Slot::Warn),
                );
            }
            hint(
                app,
                &[
                    t!(lang, "dialog-hint-edit-multiline"),
                    t!(lang, "dialog-hint-edit"),
                    t!(lang, "dialog-hint-edit-short"),
                ],
                inner,
                buf,
            );
        }
        Stage::Confirm(text) => {
            if y < bottom {
                canvas::text(
                    buf,
                    inner.x,
                    y,
                    inner.width,
                    &t!(lang, "dialog-this-will"),
                    t.style(Slot::Title),
                );
            }
            let r = Rect::new(
                inner.x + 2,
                y + 1,
                inner.width.saturating_sub(2),
                bottom.saturating_sub(y + 2),
            );
            let lines: Vec<Line> = text
                .split('\n')
                .map(|l| Line::styled(l.to_owned(), t.style(Slot::Warn)))
                .collect();
            canvas::wrapped(buf, r, &lines, t.style(Slot::Warn));
            let forms = if dialog.purpose == Purpose::Quit {
                vec![
                    t!(lang, "dialog-hint-quit"),
                    t!(lang, "dialog-hint-quit-short"),
                ]
            } else if confirmation_fits(dialog, area) {
                vec![
                    t!(lang, "dialog-hint-confirm"),
                    t!(lang, "dialog-hint-confirm-medium"),
                    t!(lang, "dialog-hint-confirm-short"),
                ]
            } else {
                vec![
                    t!(lang, "dialog-hint-enlarge"),
                    t!(lang, "dialog-hint-enlarge-medium"),
                    t!(lang, "dialog-hint-enlarge-short"),
                    t!(lang, "dialog-hint-too-small"),
                ]
            };
            hint(app, &forms, inner, buf);
        }
        Stage::Refused(why) => {
            let r = Rect::new(inner.x, y, inner.width, bottom.saturating_sub(y + 1));
            canvas::wrapped(
                buf,
                r,
                &[Line::styled(why.clone(), t.style(Slot::Critical))],
                t.style(Slot::Critical),
            );
            hint(
                app,
                &[
                    t!(lang, "dialog-hint-refused"),
                    t!(lang, "dialog-hint-refused-short"),
                ],
                inner,
                buf,
            );
        }
    }
}

/// The key hint on the dialog's last row: the first of `forms` that fits.
fn hint(app: &App, forms: &[String], inner: Rect, buf: &mut Buffer) {
    if inner.height == 0 {
        return;
    }
    let text = canvas::first_fitting(forms.to_vec(), usize::from(inner.width));
    canvas::text(
        buf,
        inner.x,
        inner.y + inner.height - 1,
        inner.width,
        &text,
        app.config.theme.style(Slot::Muted),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: u16) -> u16 {
        wrapped_height(&[text.to_owned()], width)
    }

    #[test]
    fn rows_are_counted_as_words_wrap() {
        assert_eq!(rows("", 10), 1);
        assert_eq!(rows("aaaa bbbb", 9), 1);
        // By length this is 2 rows of 10; by words, each 6-letter word needs its own.
        assert_eq!(rows("aaaaaa bbbbbb cccccc", 10), 3);
        // A word longer than a row is broken.
        assert_eq!(rows("aaaaaaaaaaaaaaaaaaaaaaaaa", 10), 3);
        assert_eq!(rows("x aaaaaaaaaaaaaaaaaaaa y", 10), 4);
        assert_eq!(rows("one two\nthree", 20), 2, "line breaks count");
        // Wide characters take two cells each: four of them fill an 8-cell row.
        assert_eq!(rows("節点保守 節点保守", 8), 2);
    }
}
