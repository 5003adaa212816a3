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
