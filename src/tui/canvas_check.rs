//! The checker behind `canvas.rs`, for tests. While [`check_draw`] runs a drawing, every
//! text the canvas draws is recorded with what it meant and the cells it took, and these
//! are reported: a line wider than its room (`connection closed before message c`), a
//! word broken by wrapping, a word cut with `…` in the middle (`STUC…`) rather than after
//! a whole word, text drawn over other text (`(data nrows 30–37 of 39`), and text in the
//! final frame that no canvas function drew (so no drawing escapes the check).

use std::cell::RefCell;
use std::collections::BTreeSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

struct State {
    area: Rect,
    /// Per cell, 1 + the index of the text that drew it last; 0 when none.
    owner: Vec<usize>,
    /// What each drawing meant (a border is `border`).
    meant: Vec<String>,
    findings: BTreeSet<String>,
    /// What `format::fit` gave back after cutting at a word.
    fits: Vec<String>,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> Option<R> {
    STATE.with(|s| s.borrow_mut().as_mut().map(f))
}

fn blank(symbol: &str) -> bool {
    symbol.trim().is_empty()
}

impl State {
    fn index(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.area;
        (x >= a.x && x < a.right() && y >= a.y && y < a.bottom())
            .then(|| usize::from(y - a.y) * usize::from(a.width) + usize::from(x - a.x))
    }

    fn record(&mut self, meant: &str) -> usize {
        self.meant.push(meant.to_owned());
        self.meant.len()
    }

    /// Takes cell `x`,`y` for drawing `id`, whose symbol before was `before`.
    fn take(&mut self, id: usize, x: u16, y: u16, before: &str) {
        let Some(i) = self.index(x, y) else { return };
        let other = self.owner[i];
        if other != 0 && other != id && !blank(before) {
            let (a, b) = (&self.meant[other - 1], &self.meant[id - 1]);
            self.findings
                .insert(format!("overlap at row {y}: `{b}` drawn over `{a}`"));
        }
        self.owner[i] = id;
    }
}

/// Draws into a fresh buffer of `area` while checking; returns the buffer and what was
/// found, one sentence per problem.
pub fn check_draw(area: Rect, draw: impl FnOnce(&mut Buffer)) -> (Buffer, Vec<String>) {
    let mut buf = Buffer::empty(area);
    STATE.with(|s| {
        *s.borrow_mut() = Some(State {
            area,
            owner: vec![0; usize::from(area.width) * usize::from(area.height)],
            meant: Vec::new(),
            findings: BTreeSet::new(),
            fits: Vec::new(),
        })
    });
    draw(&mut buf);
    let state = STATE.with(|s| s.borrow_mut().take());
    let Some(mut state) = state else {
        return (
            buf,
            vec!["the checker was switched off while drawing".into()],
        );
    };
    // Text nobody drew through the canvas escaped the check.
    for y in area.y..area.bottom() {
        let mut run = String::new();
        for x in area.x..area.right() {
            let symbol = buf[(x, y)].symbol();
            let unowned = state.index(x, y).is_some_and(|i| state.owner[i] == 0);
            if unowned && !blank(symbol) {
                run.push_str(symbol);
            } else if !run.is_empty() {
                state.findings.insert(format!(
                    "row {y}: `{}` was drawn outside the canvas",
                    std::mem::take(&mut run)
                ));
            }
        }
        if !run.is_empty() {
            state
                .findings
                .insert(format!("row {y}: `{run}` was drawn outside the canvas"));
        }
    }
    (buf, state.findings.into_iter().collect())
}

/// The symbols of the cells a line at `x`,`y` of `width` cells may take, before it is
/// drawn (empty when not checking).
pub fn row_before(buf: &Buffer, x: u16, y: u16, width: u16) -> Vec<String> {
    let active = with(|_| ()).is_some();
    if !active {
        return Vec::new();
    }
    let right = buf.area.right().min(x.saturating_add(width));
    (x..right)
        .map(|cx| buf[(cx, y)].symbol().to_owned())
        .collect()
}

/// A line meant as `meant` took the cells from `x` to `end` on row `y`.
pub fn wrote(before: &[String], x: u16, y: u16, end: u16, meant: &str, too_wide: bool) {
    with(|s| {
        let id = s.record(meant);
        if too_wide {
            let shown: String = meant.chars().take(usize::from(end - x)).collect();
            s.findings.insert(format!(
                "cut: `{meant}` does not fit its {} cells on row {y} (shows `{shown}`)",
                before.len()
            ));
        }
        for cx in x..end {
            let prev = before.get(usize::from(cx - x)).map_or("", String::as_str);
            s.take(id, cx, y, prev);
        }
        // A `…` right after a letter or digit must end a cut made after a whole word.
        let chars: Vec<char> = meant.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if *c != '…' || i == 0 || !chars[i - 1].is_alphanumeric() {
                continue;
            }
            let start = chars[..i]
                .iter()
                .rposition(|c| c.is_whitespace())
                .map_or(0, |p| p + 1);
            let token: String = chars[start..=i].iter().collect();
            if !s.fits.iter().any(|f| f.contains(&token)) {
                s.findings
                    .insert(format!("cut mid-word: `{token}` in `{meant}` on row {y}"));
            }
        }
    });
}

/// The symbols of every cell of `area` before something is drawn over it.
pub fn area_before(buf: &Buffer, area: Rect) -> Vec<String> {
    let active = with(|_| ()).is_some();
    if !active {
        return Vec::new();
    }
    let area = buf.area.intersection(area);
    area.positions()
        .map(|p| buf[(p.x, p.y)].symbol().to_owned())
        .collect()
}

fn take_area(
    before: &[String],
    area: Rect,
    id: usize,
    s: &mut State,
    keep: impl Fn(u16, u16) -> bool,
) {
    for (p, prev) in area.positions().zip(before) {
        if keep(p.x, p.y) {
            s.take(id, p.x, p.y, prev);
        }
    }
}

/// A panel's borders were drawn around `inner`.
pub fn wrote_border(buf: &Buffer, before: &[String], area: Rect, inner: Rect) {
    let area = buf.area.intersection(area);
    with(|s| {
        let id = s.record("border");
        take_area(before, area, id, s, |x, y| {
            !(x >= inner.x && x < inner.right() && y >= inner.y && y < inner.bottom())
        });
    });
}

/// An input field holding `text` was drawn over `area`.
pub fn wrote_field(buf: &Buffer, before: &[String], area: Rect, text: &str) {
    let area = buf.area.intersection(area);
    with(|s| {
        let id = s.record(&format!("input field `{text}`"));
        take_area(before, area, id, s, |_, _| true);
    });
}

/// An overlay cleared `area`: what was under it is covered, not overlapped.
pub fn cleared(area: Rect) {
    with(|s| {
        let area = s.area.intersection(area);
        for p in area.positions() {
            if let Some(i) = s.index(p.x, p.y) {
                s.owner[i] = 0;
            }
        }
    });
}

/// Wrapping had to break `word`, wider than a row of `width` cells.
pub fn broken_word(word: &str, width: usize) {
    with(|s| {
        s.findings.insert(format!(
            "word broken: `{word}` is wider than its {width} cells"
        ))
    });
}

/// `format::fit` cut a text after a whole word and gave back `shown`.
pub fn fitted(shown: &str) {
    with(|s| s.fits.push(shown.to_owned()));
}

#[cfg(test)]
mod tests {
    use ratatui::style::Style;
    use ratatui::text::Line;

    use super::*;
    use crate::tui::canvas;
    use crate::tui::format::fit;

    fn findings(draw: impl FnOnce(&mut Buffer)) -> Vec<String> {
        check_draw(Rect::new(0, 0, 40, 4), draw).1
    }

    #[test]
    fn text_that_fits_whole_is_fine() {
        let found = findings(|buf| {
            canvas::text(
                buf,
                0,
                0,
                34,
                "connection closed before message completed",
                Style::new(),
            );
        });
        assert_eq!(found.len(), 1, "42 cells in 34: {found:?}");
        assert!(
            found[0].contains("connection closed before message c`"),
            "{found:?}"
        );
        assert!(
            findings(|buf| {
                canvas::text(buf, 0, 0, 40, "fits", Style::new());
            })
            .is_empty()
        );
    }

    #[test]
    fn text_drawn_over_text_is_an_overlap() {
        let found = findings(|buf| {
            canvas::text(buf, 0, 0, 40, "(data not fresh)", Style::new());
            canvas::text(buf, 6, 0, 30, "rows 30–37 of 39", Style::new());
        });
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("overlap"), "{found:?}");
        // Side by side is not an overlap.
        assert!(
            findings(|buf| {
                canvas::text(buf, 0, 0, 5, "left ", Style::new());
                canvas::text(buf, 5, 0, 5, "right", Style::new());
            })
            .is_empty()
        );
    }

    #[test]
    fn a_word_cut_in_the_middle_is_found() {
        let found = findings(|buf| {
            let cut: String = "STUCK 25m".chars().take(4).collect::<String>() + "…";
            canvas::text(buf, 0, 0, 10, &cut, Style::new());
        });
        assert_eq!(found, ["cut mid-word: `STUC…` in `STUC…` on row 0"]);
        // Cut after a whole word by `fit`, it is fine.
        assert!(
            findings(|buf| {
                let cut = fit("the drain would wait", 12);
                canvas::text(buf, 0, 0, 12, &cut, Style::new());
            })
            .is_empty()
        );
    }

    #[test]
    fn wrapping_that_breaks_a_word_is_found() {
        let found = findings(|buf| {
            canvas::wrapped(
                buf,
                Rect::new(0, 0, 6, 4),
                &[Line::from("a supercalifragilistic word")],
                Style::new(),
            );
        });
        assert!(
            found
                .iter()
                .any(|f| f.contains("word broken: `supercalifragilistic`")),
            "{found:?}"
        );
    }

    #[test]
    fn text_drawn_around_the_canvas_is_found() {
        let found = findings(|buf| {
            buf.set_string(0, 1, "sneaky", Style::new());
        });
        assert_eq!(found, ["row 1: `sneaky` was drawn outside the canvas"]);
    }

    #[test]
    fn an_overlay_covers_what_is_under_it() {
        let found = findings(|buf| {
            canvas::text(buf, 0, 0, 40, "the screen below", Style::new());
            canvas::clear(buf, Rect::new(0, 0, 20, 2));
            canvas::panel(
                buf,
                Rect::new(0, 0, 20, 2),
                ratatui::widgets::Borders::ALL,
                Style::new(),
                Some(&Line::from("dialog")),
            );
        });
        assert!(found.is_empty(), "{found:?}");
    }
}
