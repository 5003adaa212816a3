//! No English sentence for people is written in the console's or the CLI's code: what a
//! person reads comes from the catalogues (`i18n/<lang>/*.ftl`), so that it exists in
//! every language. It reads the source, so it lives at the crate root like
//! `message_id_tests`.
//!
//! The scan reads every string literal of the non-test code under `src/tui/` and
//! `src/cli/` and flags the ones that hold prose: two words of letters side by side
//! (`"no runs"`, `"{n} clusters"`). Not flagged:
//! - literals inside log macros (`tracing::warn!(…)`), `panic!`/`assert!`-style macros,
//!   `.expect(…)` and attributes (`#[arg(…)]`): they are for developers, logs or clap's
//!   English help (the catalogues translate clap's help at run time);
//! - code after a `#[cfg(test)]` line, files named `tests.rs` or `*_tests.rs`, and
//!   modules their parent declares under `#[cfg(test)]`;
//! - a literal on a line that says why it is not for people, in a comment
//!   `// i18n: not for people (…)`, or in the statement after such a comment standing
//!   alone (up to the line that ends with `;`, `,` or `{`).
//!   Such a literal is a JSON value, a journal text that stays English, a command line.

use std::path::{Path, PathBuf};

/// Macros whose literals are for developers or logs.
const DEVELOPER_MACROS: &[&str] = &[
    "trace",
    "debug",
    "info",
    "warn",
    "error",
    "event",
    "span",
    "info_span",
    "debug_span",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "expect",
];

/// The marker that says a literal is not for people.
const MARKER: &str = "i18n: not for people";

/// A literal holding prose, where it was found.
#[derive(Debug, PartialEq, Eq)]
struct Prose {
    line: usize,
    text: String,
}

#[test]
fn no_sentence_for_people_is_built_outside_the_catalogues() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/tui", "src/cli"] {
        sources(&root.join(dir), &mut files);
    }
    files.retain(|path| !declared_for_tests(path));
    files.sort();
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for prose in prose_literals(&text) {
            found.push(format!(
                "{}:{}: {:?}",
                path.strip_prefix(root).unwrap_or(path).display(),
                prose.line,
                prose.text
            ));
        }
    }
    assert!(
        found.is_empty(),
        "{} literals hold English for people outside the catalogues (move them into \
         i18n/*/*.ftl, or mark a line that is not for people with `// {MARKER} (why)`):\n{}",
        found.len(),
        found.join("\n")
    );
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            sources(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// Whether the module in `path` is declared under `#[cfg(test)]` by its parent
/// (`#[cfg(test)]` then `mod NAME;` in the folder's `mod.rs`).
fn declared_for_tests(path: &Path) -> bool {
    let (Some(dir), Some(name)) = (path.parent(), path.file_stem().and_then(|n| n.to_str())) else {
        return false;
    };
    let parent = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    let lines: Vec<&str> = parent.lines().map(str::trim).collect();
    let declaration = format!("mod {name};");
    lines
        .windows(2)
        .any(|pair| pair[0] == "#[cfg(test)]" && pair[1].ends_with(&declaration))
}

/// The prose literals of one file's code, before its `#[cfg(test)]`.
fn prose_literals(source: &str) -> Vec<Prose> {
    let code = match source.find("\n#[cfg(test)]") {
        Some(at) => &source[..at],
        None => source,
    };
    let lines: Vec<&str> = code.lines().collect();
    // Lines (from 1) a standalone marker covers: the statement after it.
    let mut covered = std::collections::BTreeSet::new();
    for (at, l) in lines.iter().enumerate() {
        let l = l.trim_start();
        if !(l.starts_with("//") && l.contains(MARKER)) {
            continue;
        }
        for (next, code) in lines.iter().enumerate().skip(at + 1) {
            covered.insert(next + 1);
            if code.trim_end().ends_with([';', ',', '{']) {
                break;
            }
        }
    }
    let exempt_line = |line: usize| {
        covered.contains(&line) || lines.get(line - 1).is_some_and(|l| l.contains(MARKER))
    };
    literals(code)
        .into_iter()
        .filter(|lit| !lit.for_developers && is_prose(&lit.text) && !exempt_line(lit.line))
        .map(|lit| Prose {
            line: lit.line,
            text: lit.text,
        })
        .collect()
}

/// Two words of at least two letters side by side (`no runs`), or a word beside a
/// placeholder (`{n} clusters`, `cluster {}`).
fn is_prose(text: &str) -> bool {
    let words: Vec<&str> = text.split([' ', '\n']).collect();
    words.windows(2).any(|pair| {
        let (a, b) = (pair[0], pair[1]);
        (is_word(a) || is_placeholder(a))
            && (is_word(b) || is_placeholder(b))
            && (is_word(a) || is_word(b))
    })
}

/// `{}`, `{n}`, `{:>4}`, `{name:?}`.
fn is_placeholder(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.', ':', ';', '!', '?', ')']);
    w.starts_with('{') && w.ends_with('}') && !w[1..].contains('{')
}

/// Letters (and an apostrophe or hyphen inside), at least two, with punctuation allowed
/// at the end: `cluster`, `isn't`, `drain,`.
fn is_word(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.', ':', ';', '!', '?', ')']);
    let w = w.trim_start_matches('(');
    w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2
        && w.chars()
            .all(|c| c.is_ascii_alphabetic() || c == '\'' || c == '-')
        && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// A string literal of the code.
#[derive(Debug)]
struct Literal {
    /// The line it starts on, from 1.
    line: usize,
    text: String,
    /// Inside a developer macro, an `.expect(…)` or an attribute.
    for_developers: bool,
}

/// Every string literal in `code`, skipping comments and char literals, knowing which
/// ones sit inside a developer macro or an attribute.
fn literals(code: &str) -> Vec<Literal> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    // One entry per open bracket: whether what it encloses is for developers.
    let mut stack: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => line += 1,
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
                continue;
            }
            '\'' => {
                // A char literal ('"', '\'', '\u{1F}') or a lifetime ('a).
                if chars.get(i + 1) == Some(&'\\') {
                    let close = (i + 3..chars.len().min(i + 12)).find(|&j| chars[j] == '\'');
                    i = close.map_or(i + 1, |j| j + 1);
                    continue;
                }
                if chars.get(i + 2) == Some(&'\'') {
                    i += 3;
                    continue;
                }
            }
            '"' | 'r' if starts_string(&chars, i) => {
                let (text, end, lines) = read_string(&chars, i);
                out.push(Literal {
                    line,
                    text,
                    for_developers: stack.iter().any(|d| *d),
                });
                line += lines;
                i = end;
                continue;
            }
            '(' | '[' | '{' => {
                let before = word_before(&chars, i);
                let attribute = c == '[' && i > 0 && chars[i - 1] == '#';
                let developer_macro = c == '('
                    && (DEVELOPER_MACROS.contains(&before.as_str())
                        && (i > 0 && chars[i - 1] == '!' || before == "expect"));
                stack.push(attribute || developer_macro);
            }
            ')' | ']' | '}' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether a string literal starts at `i`: `"`, `r"`, `r#"` (not the `r` ending a word).
fn starts_string(chars: &[char], i: usize) -> bool {
    match chars[i] {
        '"' => true,
        'r' => {
            let after_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            after_word && chars.get(j) == Some(&'"')
        }
        _ => false,
    }
}

/// The string literal starting at `i`: its text (escapes left as written), the index
/// after it, and how many line breaks it holds.
fn read_string(chars: &[char], i: usize) -> (String, usize, usize) {
    let mut j = i;
    let mut hashes = 0;
    let raw = chars[j] == 'r';
    if raw {
        j += 1;
        while chars[j] == '#' {
            hashes += 1;
            j += 1;
        }
    }
    j += 1; // the opening quote
    let mut text = String::new();
    let mut lines = 0;
    while j < chars.len() {
        let c = chars[j];
        if !raw && c == '\\' {
            // An escaped line break joins lines: the next line's indent is not text.
            if chars.get(j + 1) == Some(&'\n') {
                lines += 1;
                j += 2;
                while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                    j += 1;
                }
                continue;
            }
            if chars.get(j + 1) == Some(&'n') {
                text.push('\n');
            } else {
                text.push(' ');
            }
            j += 2;
            continue;
        }
        if c == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
            return (text, j + 1 + hashes, lines);
        }
        if c == '\n' {
            lines += 1;
        }
        text.push(c);
        j += 1;
    }
    (text, j, lines)
}

/// The identifier just before `i` (`warn` in `tracing::warn!(`, `expect` in `.expect(`).
fn word_before(chars: &[char], i: usize) -> String {
    let mut end = i;
    if end > 0 && chars[end - 1] == '!' {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && (chars[start - 1].is_alphanumeric() || chars[start - 1] == '_') {
        start -= 1;
    }
    chars[start..end].iter().collect()
}

#[test]
fn the_scan_finds_prose_and_leaves_what_is_not_for_people() {
    let code = r##"
fn f() {
    let a = "no runs selected";
    let b = format!("{n} clusters");
    tracing::warn!(id, "message missing or broken");
    let c = thing.expect("a journal was opened");
    let d = "camelCase"; let e = '"'; let g = "two words"; // i18n: not for people (JSON)
    // i18n: not for people (a kubectl argument)
    let h =
        "apply --server-side";
    let i = r#"raw "quoted" text here"#;
    let j = "escaped \
             line here";
}
#[cfg(test)]
mod tests { fn t() { let x = "test words here"; } }
"##;
    let found = prose_literals(code);
    let texts: Vec<(usize, &str)> = found.iter().map(|p| (p.line, p.text.as_str())).collect();
    assert_eq!(
        texts,
        vec![
            (3, "no runs selected"),
            (4, "{n} clusters"),
            (11, "raw \"quoted\" text here"),
            (12, "escaped line here"),
        ]
    );
}
