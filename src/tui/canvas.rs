//! Every text the console draws goes through here: single lines, rows of lines, wrapped
//! paragraphs, panels with a title, and input fields. Text is never clipped silently:
//! a line either fits, or its screen chose a shorter form, wraps it at words, or cuts it
//! at a word with `…` (`format::fit`); rows that do not fit end with a line saying how
//! many were left out. In tests a checker watches every drawing (`canvas_check.rs`) and
//! reports text wider than its room, words broken or cut in the middle, text drawn over
//! other text, and text drawn outside these functions.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Widget};
use unicode_width::UnicodeWidthChar;

#[cfg(test)]
use super::canvas_check as check;

/// The plain text of a line, as meant.
#[cfg(test)]
pub fn plain(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// Draws `line` at `x`,`y` in at most `width` cells. It must fit: a screen that may have
/// less room chooses a shorter form first (the checker reports a line that does not fit).
pub fn line(buf: &mut Buffer, x: u16, y: u16, width: u16, line: &Line<'_>) -> u16 {
    if y < buf.area.y || y >= buf.area.bottom() || x >= buf.area.right() {
        return x;
    }
    #[cfg(test)]
    let before = check::row_before(buf, x, y, width);
    let (end, _) = buf.set_line(x, y, line, width);
    #[cfg(test)]
    check::wrote(
        &before,
        x,
        y,
        end,
        &plain(line),
        line.width() > usize::from(width),
    );
    end
}

/// Draws `text` in one style at `x`,`y` in at most `width` cells (see [`line`]).
pub fn text(buf: &mut Buffer, x: u16, y: u16, width: u16, text: &str, style: Style) -> u16 {
    line(buf, x, y, width, &Line::from(Span::styled(text, style)))
}

/// Draws one line per row of `area`. When there are more lines than rows, the last row
/// says how many were left out, in `note` style. Returns the rows used.
pub fn rows(buf: &mut Buffer, area: Rect, lines: &[Line<'_>], note: Style) -> u16 {
    let height = usize::from(area.height);
    if height == 0 {
        return 0;
    }
    let (shown, left_out) = if lines.len() > height {
        (height - 1, lines.len() - (height - 1))
    } else {
        (lines.len(), 0)
    };
    for (i, l) in lines.iter().take(shown).enumerate() {
        line(buf, area.x, area.y + i as u16, area.width, l);
    }
    if left_out > 0 {
        let text = more_text(left_out, usize::from(area.width));
        line(
            buf,
            area.x,
            area.y + shown as u16,
            area.width,
            &Line::styled(text, note),
        );
    }
    u16::try_from(shown + usize::from(left_out > 0)).unwrap_or(area.height)
}

/// What the last row says when `n` lines did not fit, in the words that fit `width`.
pub fn more_text(n: usize, width: usize) -> String {
    let lines = if n == 1 { "line" } else { "lines" };
    [
        format!("… {n} more {lines} (enlarge the terminal)"),
        format!("… {n} more {lines}"),
        format!("… +{n}"),
    ]
    .into_iter()
    .find(|t| unicode_width::UnicodeWidthStr::width(t.as_str()) <= width)
    .unwrap_or_default()
}

/// The first of `forms` that fits `width` cells; the last one, cut after a whole word,
/// when none does.
pub fn first_fitting(forms: Vec<String>, width: usize) -> String {
    let fits = |f: &String| unicode_width::UnicodeWidthStr::width(f.as_str()) <= width;
    let last = forms.last().cloned().unwrap_or_default();
    forms
        .into_iter()
        .find(fits)
        .unwrap_or_else(|| super::format::fit(&last, width))
}

/// One line of parts, each with a priority (higher is kept longer): the parts that do
/// not fit `width` go, lowest priority first, and the rest keep their order. When the
/// parts left of the highest priority still do not fit, the last of them is cut after a
/// whole word.
pub fn fit_parts(parts: Vec<(u8, Span<'static>)>, width: usize) -> Line<'static> {
    let mut parts = parts;
    let total = |parts: &[(u8, Span)]| parts.iter().map(|(_, s)| s.width()).sum::<usize>();
    while total(&parts) > width {
        let top = parts.iter().map(|(p, _)| *p).max().unwrap_or(0);
        let lowest = parts
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| *p < top)
            .min_by_key(|(i, (p, _))| (*p, usize::MAX - i))
            .map(|(i, _)| i);
        match lowest {
            Some(i) => {
                parts.remove(i);
            }
            None => {
                let Some((p, last)) = parts.pop() else { break };
                let room = width.saturating_sub(total(&parts));
                if room >= 4 {
                    let text = super::format::fit(&last.content, room);
                    parts.push((p, Span::styled(text, last.style)));
                }
            }
        }
    }
    Line::from(parts.into_iter().map(|(_, s)| s).collect::<Vec<_>>())
}

/// `lines` wrapped at words to `width` cells (see [`wrap`]).
pub fn wrap_all(lines: &[Line<'_>], width: u16) -> Vec<Line<'static>> {
    lines
        .iter()
        .flat_map(|l| wrap(l, usize::from(width)))
        .collect()
}

/// Rows `lines` take wrapped at words to `width` cells.
pub fn wrapped_height(lines: &[Line<'_>], width: u16) -> u16 {
    let rows: usize = lines
        .iter()
        .map(|l| wrap(l, usize::from(width)).len())
        .sum();
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// Draws `lines` wrapped at words into `area`; rows that do not fit are counted on the
/// last row (see [`rows`]). Returns the rows used.
pub fn wrapped(buf: &mut Buffer, area: Rect, lines: &[Line<'_>], note: Style) -> u16 {
    rows(buf, area, &wrap_all(lines, area.width), note)
}

/// One cell of a line being wrapped: a character and its style.
type Cell = (char, Style);

/// `line` broken at spaces into rows of at most `width` cells. Runs of spaces inside a
/// row are kept (tables written with padding stay aligned); at a break they go.
/// Continuation rows keep the line's indentation. A word wider than `width` is broken
/// (the checker reports it: a screen must give such a word room or a shorter form).
pub fn wrap(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    wrap_as(line, width, Breaks::Words)
}

/// How wrapping treats a word wider than a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    /// Prose: such a word is a layout fault (the checker reports it).
    Words,
    /// Values shown in full (an event's digest, an idempotency key): a long one goes on
    /// over the next rows, which is how it is read whole.
    Values,
}

/// Whether a row may break between `before` and `after`, two characters of a word: next
/// to a wide (Chinese) character, except before closing punctuation (`，` `。` `）`) or
/// after opening punctuation (`（` `“`).
fn wide_break(before: char, after: char) -> bool {
    const CLOSING: &str = "，。、：；！？）」』”’》〉·…";
    const OPENING: &str = "（「『“‘《〈";
    (cell_width(before) == 2 || cell_width(after) == 2)
        && !CLOSING.contains(after)
        && !OPENING.contains(before)
}

/// Draws `lines` in `area` as values shown in full: wrapped at words, a value wider than
/// a row going on over the next rows (see [`Breaks::Values`]).
pub fn wrapped_values(buf: &mut Buffer, area: Rect, lines: &[Line<'_>], note: Style) -> u16 {
    let rows_of: Vec<Line> = lines
        .iter()
        .flat_map(|l| wrap_as(l, usize::from(area.width), Breaks::Values))
        .collect();
    rows(buf, area, &rows_of, note)
}

fn wrap_as(line: &Line<'_>, width: usize, breaks: Breaks) -> Vec<Line<'static>> {
    let width = width.max(1);
    let cells: Vec<Cell> = line
        .spans
        .iter()
        .flat_map(|s| {
            let style = line.style.patch(s.style);
            s.content.chars().map(move |c| (c, style))
        })
        .filter(|(c, _)| !c.is_control())
        .collect();
    let total: usize = cells.iter().map(|(c, _)| cell_width(*c)).sum();
    if total <= width {
        return vec![to_line(&cells)];
    }
    // Words and the runs of spaces before them. Chinese has no spaces: a row may also
    // break next to a wide character (not before closing punctuation, nor after an
    // opening one).
    let mut tokens: Vec<(bool, &[Cell])> = Vec::new();
    let mut start = 0;
    for i in 1..=cells.len() {
        let boundary = i == cells.len()
            || (cells[i].0 == ' ') != (cells[start].0 == ' ')
            || (cells[i].0 != ' '
                && cells[i - 1].0 != ' '
                && wide_break(cells[i - 1].0, cells[i].0));
        if boundary {
            tokens.push((cells[start].0 == ' ', &cells[start..i]));
            start = i;
        }
    }
    let indent: Vec<Cell> = match tokens.first() {
        Some((true, spaces)) if spaces.len() < width / 2 => spaces.to_vec(),
        _ => Vec::new(),
    };
    let mut out: Vec<Vec<Cell>> = Vec::new();
    let mut row: Vec<Cell> = Vec::new();
    let mut row_w = 0;
    let mut gap: &[Cell] = &[];
    let mut has_word = false;
    for (is_space, token) in tokens {
        if is_space {
            gap = token;
            continue;
        }
        let word_w: usize = token.iter().map(|(c, _)| cell_width(*c)).sum();
        let gap_w = gap.len();
        if has_word && row_w + gap_w + word_w > width {
            out.push(std::mem::take(&mut row));
            row.extend_from_slice(&indent);
            row_w = indent.len();
        } else {
            row.extend_from_slice(gap);
            row_w += gap_w;
        }
        gap = &[];
        if row_w + word_w <= width {
            row.extend_from_slice(token);
            row_w += word_w;
        } else {
            // A word wider than a row: broken where the row ends.
            #[cfg(test)]
            if breaks == Breaks::Words {
                check::broken_word(&token.iter().map(|(c, _)| *c).collect::<String>(), width);
            }
            #[cfg(not(test))]
            let _ = breaks;
            for cell in token {
                let w = cell_width(cell.0);
                if row_w + w > width && row_w > 0 {
                    out.push(std::mem::take(&mut row));
                    row_w = 0;
                }
                row.push(*cell);
                row_w += w;
            }
        }
        has_word = true;
    }
    if !row.is_empty() || out.is_empty() {
        out.push(row);
    }
    out.iter().map(|r| to_line(r)).collect()
}

fn cell_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Cells back into a line, one span per run of one style.
fn to_line(cells: &[Cell]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = cells.first().map_or(Style::new(), |(_, s)| *s);
    for (c, s) in cells {
        if *s != style && !text.is_empty() {
            spans.push(Span::styled(std::mem::take(&mut text), style));
        }
        style = *s;
        text.push(*c);
    }
    if !text.is_empty() {
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}

/// A bordered panel: its borders, and its title on the top border (which must fit, as
/// any line). Returns the inside.
pub fn panel(
    buf: &mut Buffer,
    area: Rect,
    borders: Borders,
    border_style: Style,
    title: Option<&Line<'_>>,
) -> Rect {
    let block = Block::new()
        .borders(borders)
        .border_type(BorderType::Rounded)
        .border_style(border_style);
    let inner = block.inner(area);
    #[cfg(test)]
    let before = check::area_before(buf, area);
    block.render(area, buf);
    #[cfg(test)]
    check::wrote_border(buf, &before, area, inner);
    if let Some(title) = title
        && borders.contains(Borders::TOP)
        && area.height > 0
    {
        let left = u16::from(borders.contains(Borders::LEFT));
        let right = u16::from(borders.contains(Borders::RIGHT));
        let room = area.width.saturating_sub(left + right);
        // The title takes the place of the border under it.
        #[cfg(test)]
        check::cleared(Rect::new(
            area.x + left,
            area.y,
            room.min(u16::try_from(title.width()).unwrap_or(u16::MAX)),
            1,
        ));
        self::line(buf, area.x + left, area.y, room, title);
    }
    inner
}

/// Clears `area` for an overlay: what was drawn there before is covered.
pub fn clear(buf: &mut Buffer, area: Rect) {
    // A wide (Chinese) character just left of the overlay would cover its first column:
    // it goes, rather than the overlay's border.
    if area.x > buf.area.x {
        for y in area.top()..area.bottom() {
            if let Some(cell) = buf.cell_mut((area.x - 1, y))
                && unicode_width::UnicodeWidthStr::width(cell.symbol()) > 1
            {
                cell.set_symbol(" ");
            }
        }
    }
    Clear.render(area, buf);
    #[cfg(test)]
    check::cleared(area);
}

/// Draws an input field (text the person types, which scrolls inside its area).
pub fn field(buf: &mut Buffer, area: Rect, widget: impl Widget, text: &str) {
    #[cfg(test)]
    let before = check::area_before(buf, area);
    widget.render(area, buf);
    #[cfg(test)]
    check::wrote_field(buf, &before, area, text);
    #[cfg(not(test))]
    let _ = text;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(plain).collect()
    }

    #[test]
    fn chinese_wraps_between_characters_and_keeps_its_marks() {
        let l = Line::from("暂停运行：不启动新步骤（原因）");
        assert_eq!(
            texts(&wrap(&l, 10)),
            ["暂停运行：", "不启动新步", "骤（原因）"]
        );
        // Latin words inside Chinese stay whole.
        let l = Line::from("交出 erin@ops 的节点");
        assert_eq!(texts(&wrap(&l, 12)), ["交出", "erin@ops 的", "节点"]);
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_keeps_indentation() {
        let l = Line::from("  one two three four");
        assert_eq!(texts(&wrap(&l, 11)), ["  one two", "  three", "  four"]);
        assert_eq!(texts(&wrap(&Line::from("short"), 10)), ["short"]);
        // Padding inside a row is kept.
        assert_eq!(texts(&wrap(&Line::from("a    b"), 10)), ["a    b"]);
    }

    #[test]
    fn chinese_wraps_between_characters_never_before_closing_punctuation() {
        // The parenthesis and the colon stay with what they close; the Latin word whole.
        let l = Line::from("未读取台账（no-ledger）：例外未知");
        assert_eq!(
            texts(&wrap(&l, 16)),
            ["未读取台账", "（no-ledger）：", "例外未知"]
        );
        assert_eq!(
            texts(&wrap(&l, 12)).first().map(String::as_str),
            Some("未读取台账")
        );
    }

    #[test]
    fn styles_survive_wrapping() {
        let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let l = Line::from(vec![Span::raw("plain words "), Span::styled("bold", bold)]);
        let rows = wrap(&l, 11);
        assert_eq!(texts(&rows), ["plain words", "bold"]);
        assert_eq!(rows[1].spans[0].style, bold);
    }

    #[test]
    fn a_word_wider_than_the_row_is_broken() {
        assert_eq!(
            texts(&wrap(&Line::from("x abcdefghij y"), 4)),
            ["x", "abcd", "efgh", "ij y"]
        );
    }

    #[test]
    fn rows_that_do_not_fit_are_counted() {
        let area = Rect::new(0, 0, 40, 2);
        let mut buf = Buffer::empty(area);
        let lines: Vec<Line> = ["a", "b", "c"].into_iter().map(Line::from).collect();
        assert_eq!(rows(&mut buf, area, &lines, Style::new()), 2);
        assert_eq!(buf[(0, 0)].symbol(), "a");
        let second: String = (0..40).map(|x| buf[(x, 1)].symbol()).collect();
        assert_eq!(second.trim_end(), "… 2 more lines (enlarge the terminal)");
        assert_eq!(more_text(2, 14), "… 2 more lines");
        assert_eq!(more_text(2, 12), "… +2");
    }
}
