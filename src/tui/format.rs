//! Small text shapes the screens share: ages, counts, bars, padding.

use jiff::Timestamp;
use jiff::civil::Date;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Whole days from `date` to `now` (UTC), for drills.
pub fn days_since(now: Timestamp, date: Date) -> i64 {
    let today = now.to_zoned(jiff::tz::TimeZone::UTC).date();
    i64::from((today - date).get_days())
}

/// A bar of `width` cells filled to `part / whole` (clamped), with eighth-cell precision.
pub fn bar(part: i64, whole: i64, width: usize) -> String {
    if width == 0 {
        return String::new();
    }
    let frac = if whole <= 0 {
        0.0
    } else {
        (part as f64 / whole as f64).clamp(0.0, 1.0)
    };
    let eighths = (frac * (width * 8) as f64).round() as usize;
    let full = eighths / 8;
    let mut out = "█".repeat(full);
    if full < width {
        const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
        let rem = eighths % 8;
        let mut used = full;
        if rem > 0 {
            out.push_str(PARTS[rem]);
            used += 1;
        }
        out.push_str(&"░".repeat(width - used));
    }
    out
}

/// `part/whole` as a whole percent; `-` when the whole is zero.
pub fn percent(part: i64, whole: i64) -> String {
    if whole <= 0 {
        "-".into()
    } else {
        format!("{}%", part * 100 / whole)
    }
}

pub use crate::model::text::{count, counted, one_line};

/// Cuts `text` to at most `width` terminal cells, marking the cut with `…`. The cut
/// comes after a whole word (at a space, or after the `-`, `/`, `.` that join the parts
/// of a name), never inside one: `STUC…` reads as a word that is not there. Only a text
/// whose first word alone is too wide is cut inside it (the console's checker reports
/// that in tests). Widths are display widths: a CJK character takes two cells.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let head = take_cells(text.chars(), width.saturating_sub(1));
    let next = text[head.len()..].chars().next();
    let kept = after_whole_word(&head, next);
    let inside_a_word = kept.len() == head.len() && ends_in_word(&head, next);
    let out = format!("{kept}…");
    #[cfg(test)]
    if !inside_a_word {
        super::canvas_check::fitted(&out);
    }
    #[cfg(not(test))]
    let _ = inside_a_word;
    out
}

/// Whether the cut between `head` and `next` falls inside a word. Chinese is written
/// without spaces: a cut beside a wide (CJK) character is between words.
fn ends_in_word(head: &str, next: Option<char>) -> bool {
    let narrow_letter = |c: char| c.is_alphanumeric() && c.width() != Some(2);
    head.chars().last().is_some_and(narrow_letter) && next.is_some_and(narrow_letter)
}

/// Opening brackets and quotes of Chinese text: never the last character before a cut.
const OPENING: &[char] = &['（', '【', '《', '“', '‘', '「'];

/// Characters after which a name may be cut: its parts are joined by these.
fn joins_parts(c: char) -> bool {
    matches!(c, '-' | '/' | '.' | '_' | ':' | ',' | '=' | ';' | ')')
}

/// `head` (the start of a text whose next character is `next`) shortened to end after a
/// whole word; `head` itself when no word boundary is in it.
fn after_whole_word(head: &str, next: Option<char>) -> &str {
    if !ends_in_word(head, next) {
        // An opening bracket does not end a cut text: `天前（…` reads as a bracket left open.
        return head.trim_end().trim_end_matches(OPENING);
    }
    match head
        .char_indices()
        .rev()
        // After a wide (CJK) character is between words too: `备注：registry…` is cut
        // after `：`, not inside `registry`.
        .find(|(_, c)| {
            c.is_whitespace() || joins_parts(*c) || (c.width() == Some(2) && !OPENING.contains(c))
        }) {
        Some((i, c)) if c.is_whitespace() => head[..i].trim_end(),
        Some((i, c)) => &head[..i + c.len_utf8()],
        None => head,
    }
}

/// `text` cut to `width` cells in the middle, keeping its start and its end: for ids that
/// differ only at the end (`ro-cni-1796020170-1` and `ro-cni-1796020170-2`), where cutting
/// the end would make them look the same. Both parts are whole parts of the name.
pub fn fit_middle(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    if width < 3 {
        return fit(text, width);
    }
    let tail_cells = (width - 1) / 2;
    let head_cells = width - 1 - tail_cells;
    let head = take_cells(text.chars(), head_cells);
    let head = after_whole_word(&head, text[head.len()..].chars().next()).to_owned();
    let tail: String = take_cells(text.chars().rev(), tail_cells)
        .chars()
        .rev()
        .collect();
    let before_tail = text[..text.len() - tail.len()].chars().last();
    let tail = match (before_tail, tail.chars().next()) {
        // Inside a word: start the tail at its next part.
        (Some(b), Some(t)) if b.is_alphanumeric() && t.is_alphanumeric() => tail
            .char_indices()
            .find(|(_, c)| joins_parts(*c) || c.is_whitespace())
            .map_or(String::new(), |(i, _)| tail[i..].to_owned()),
        _ => tail,
    };
    let out = format!("{head}…{tail}");
    #[cfg(test)]
    super::canvas_check::fitted(&out);
    out
}

/// The leading characters of `chars` that fill at most `cells` cells (a wide character
/// that would straddle the edge is left out).
fn take_cells(chars: impl Iterator<Item = char>, cells: usize) -> String {
    let mut used = 0;
    chars
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used <= cells
        })
        .collect()
}

/// `text` padded with spaces to `cells` cells (a Chinese word is twice as wide).
pub fn pad(text: &str, cells: usize) -> String {
    format!("{text}{}", " ".repeat(cells.saturating_sub(text.width())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_cut_after_a_character_not_inside_the_latin_word_after_it() {
        assert_eq!(fit("备注：registry slow", 12), "备注：…");
        // Never after an opening bracket.
        assert_eq!(fit("演练在 141 天前（2026-07-10）", 18), "演练在 141 天前…");
    }

    #[test]
    fn one_of_a_thing_is_singular() {
        assert_eq!(counted(1, "node"), "1 node");
        assert_eq!(counted(0, "pod"), "0 pods");
        assert_eq!(counted(1200, "pod"), "1,200 pods");
    }

    #[test]
    fn ids_cut_in_the_middle_keep_their_ends_apart() {
        assert_eq!(fit_middle("ro-cni-1796020170", 18), "ro-cni-1796020170");
        let a = fit_middle("ro-cni-1796020170-1", 12);
        let b = fit_middle("ro-cni-1796020170-2", 12);
        assert_ne!(a, b);
        assert!(a.chars().count() <= 12);
        assert_eq!(b, "ro-cni…-2");
        assert_eq!(fit_middle("abcdef", 2), "a…");
    }

    #[test]
    fn wide_characters_count_two_cells() {
        // Four CJK characters are eight cells: cut to six, three cells of text remain
        // whole (a character is never split) and the mark takes one.
        let cut = fit("節点保守", 6);
        assert_eq!(cut, "節点…");
        assert!(cut.width() <= 6);
        assert_eq!(fit("節点", 4), "節点");
        let middle = fit_middle("保守-節点-2", 8);
        assert!(middle.width() <= 8, "{middle}");
        assert!(middle.ends_with("-2"), "{middle}");
        assert_eq!(fit("abc", 2), "a…");
        // Chinese is cut between characters (no word is split), at a cell boundary:
        // an odd width leaves the cell a wide character would straddle empty.
        assert_eq!(fit("自动化已暂停", 8), "自动化…");
        assert_eq!(fit("自动化已暂停", 9), "自动化已…");
        assert_eq!(fit("节点 node-01 已封锁", 12), "节点 node-…");
        for w in 1..14 {
            let cut = fit("交接班：节点 n2 已腾空", w);
            assert!(cut.width() <= w, "{w}: {cut}");
        }
    }

    #[test]
    fn shapes() {
        assert_eq!(count(29_120), "29,120");
        assert_eq!(count(-1_000_000), "-1,000,000");
        assert_eq!(count(12), "12");
        assert_eq!(bar(1, 2, 4), "██░░");
        assert_eq!(bar(0, 0, 3), "░░░");
        assert_eq!(bar(5, 4, 3), "███");
        assert_eq!(bar(1, 2, 1), "▌");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("the drain would wait", 12), "the drain…");
        assert_eq!(fit("prod-use1-02-n001", 15), "prod-use1-02-…");
        assert_eq!(fit("STUCK 25m", 4), "STU…", "no word boundary: cut inside");
        assert_eq!(percent(1, 3), "33%");
    }
}
