//! A minimal column renderer: fixed-width cells written straight into the buffer, so a
//! frame only touches the rows on screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// A column: title and width in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Col {
    /// Header text (or, for a table drawn with [`titles_in`], its message id).
    pub title: &'static str,
    /// Width in cells.
    pub width: u16,
}

/// Keeps the columns (in order of `priority`, first = most important) that fit in
/// `width` with one space between them; returns their indices in display order.
pub fn fit_columns(cols: &[Col], priority: &[usize], width: u16) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    let mut used = 0u16;
    for &i in priority {
        let w = cols[i].width + u16::from(!chosen.is_empty());
        if used + w <= width {
            used += w;
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen
}

/// The width each column gets in a table `width` cells wide, indexed like `cols` (0 for a
/// column not chosen): its own, the last chosen one taking what is left of the line.
pub fn widths(cols: &[Col], chosen: &[usize], width: u16) -> Vec<u16> {
    let mut out = vec![0; cols.len()];
    let mut x = 0u16;
    for &i in chosen {
        if x >= width {
            break;
        }
        out[i] = if chosen.last() == Some(&i) {
            width - x
        } else {
            cols[i].width.min(width - x)
        };
        x += cols[i].width + 1;
    }
    out
}

/// Writes one row of cells at `y`; `base` styles the whole row (selection).
pub fn row(
    buf: &mut Buffer,
    area: Rect,
    y: u16,
    cols: &[Col],
    chosen: &[usize],
    cells: &[(String, Style)],
    base: Style,
) {
    let line = Rect::new(area.x, y, area.width, 1);
    buf.set_style(line, base);
    let mut x = area.x;
    let right = area.x + area.width;
    for &i in chosen {
        if x >= right {
            break;
        }
        // The last column takes what is left of the line: its text is often the
        // sentence that matters (why a node does not count, what a drain does).
        let width = if chosen.last() == Some(&i) {
            right - x
        } else {
            cols[i].width.min(right - x)
        };
        if let Some((text, style)) = cells.get(i) {
            // A cut cell says so (`…`): a name or reason cut silently reads as whole.
            let text = crate::tui::format::fit(text, usize::from(width));
            crate::tui::canvas::text(buf, x, y, width, &text, base.patch(*style));
        }
        x += cols[i].width + 1;
    }
}

/// The titles of `cols` whose titles are message ids, in `lang`.
pub fn titles_in(lang: crate::i18n::Lang, cols: &[Col]) -> Vec<String> {
    cols.iter()
        .map(|c| crate::i18n::text(lang, c.title, &[]))
        .collect()
}

/// Writes the header row, with the titles given (in the user's language, indexed like
/// `cols`), on the first line of `area`; the rows go below it, in the area returned.
pub fn header_titled(
    buf: &mut Buffer,
    area: Rect,
    cols: &[Col],
    chosen: &[usize],
    titles: &[String],
    style: Style,
) -> Rect {
    let cells: Vec<(String, Style)> = titles
        .iter()
        .map(|title| (title.clone(), Style::new()))
        .collect();
    row(buf, area, area.y, cols, chosen, &cells, style);
    Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(1),
        ..area
    }
}

/// First row shown so that `selected` is on screen in `height` rows.
pub fn scroll_offset(selected: usize, len: usize, height: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    // Keep the selection in the middle third when possible, like k9s.
    selected.saturating_sub(height / 2).min(len - height)
}

/// What an empty, filtered list says in the user's language; `what` is the noun of what
/// is listed, already in that language (`fleet-noun-node`).
pub fn no_match_in(ctx: &crate::tui::component::Context, what: &str) -> String {
    let lang = ctx.config.lang;
    match ctx.key_on(ctx.layer, crate::tui::action::Action::Back) {
        Some(key) => crate::t!(lang, "fleet-no-match-key", what = what, key = key),
        None => crate::t!(lang, "fleet-no-match", what = what),
    }
}
