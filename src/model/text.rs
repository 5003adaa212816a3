//! Text as people read it where only one line fits: tables, list items, headers.

/// The separator a line break of a note is shown as where only one line fits.
pub const LINE_BREAK: &str = " ⏎ ";

/// `text` on one line: each line break (of a multi-line note) shown as ` ⏎ ` rather
/// than dropped, which would run the lines together, or kept, which would break a
/// table's rows or start a Markdown heading.
pub fn one_line(text: &str) -> String {
    if !text.contains(['\n', '\r']) {
        return text.to_owned();
    }
    text.replace("\r\n", "\n")
        .split(['\n', '\r'])
        .collect::<Vec<_>>()
        .join(LINE_BREAK)
}

/// `n` and the noun, singular for one: `1 node`, `3 nodes`, `1,200 pods`.
pub fn counted(n: i64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", count(n))
    }
}

/// `29120` → `29,120`.
pub fn count(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_are_shown_not_kept_or_dropped() {
        assert_eq!(one_line("line one\nline two"), "line one ⏎ line two");
        assert_eq!(one_line("a\r\nb"), "a ⏎ b");
        assert_eq!(one_line("plain"), "plain");
    }
}
