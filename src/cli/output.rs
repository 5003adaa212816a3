//! Printing results as aligned tables, JSON or YAML.
//!
//! Everything a command prints on standard output goes through [`write_out`]: a reader
//! that goes away early (`fleetdeck journal -o json | head -1`) is a normal end, not a
//! failure, and the command finishes what it was doing without printing more.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use fleetdeck::config::OutputFormat;
use serde::Serialize;

/// Set once standard output's reader has gone away; nothing more is written after that.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to standard output (locked, flushed). When the reader has gone away
/// (broken pipe) the rest of the output is dropped quietly; any other write error is
/// returned.
pub fn write_out(text: impl AsRef<[u8]>) -> anyhow::Result<()> {
    write_to(&mut io::stdout().lock(), text.as_ref(), &STDOUT_CLOSED)
        // i18n: not for people (said only when standard output is gone, to standard error)
        .context("writing to standard output")
}

/// [`write_out`] to any writer, `closed` remembering a reader that went away.
fn write_to(out: &mut impl Write, bytes: &[u8], closed: &AtomicBool) -> io::Result<()> {
    if closed.load(Ordering::Relaxed) {
        return Ok(());
    }
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
            closed.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// `println!` through [`write_out`]: a closed standard output ends the output quietly.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;

/// A table for people: a header row and data rows, printed with aligned columns.
pub struct Table {
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new(headers: Vec<&'static str>) -> Self {
        Table::with_headers(headers.into_iter().map(str::to_string).collect())
    }

    /// A table whose English column headers are shown in `lang`: the message of each is
    /// `col-` and the header in lower case (`FAILURE-DOMAIN` → `col-failure-domain`).
    pub fn in_lang(lang: fleetdeck::i18n::Lang, headers: Vec<&'static str>) -> Self {
        if lang == fleetdeck::i18n::Lang::En {
            return Table::new(headers);
        }
        Table::with_headers(
            headers
                .into_iter()
                .map(|h| {
                    let id = format!("col-{}", h.to_lowercase());
                    if fleetdeck::i18n::has(lang, &id) {
                        fleetdeck::i18n::text(lang, &id, &[])
                    } else {
                        h.to_string()
                    }
                })
                .collect(),
        )
    }

    /// A table with these column headers, translated ones included.
    pub fn with_headers(headers: Vec<String>) -> Self {
        Table {
            headers,
            rows: Vec::new(),
        }
    }

    /// The column headers, as shown.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// Adds a row (one cell per header). A multi-line cell (a note) is shown on one line,
    /// its breaks as ` ⏎ `, so every row stays one line under its headers.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(
            cells
                .iter()
                .map(|cell| fleetdeck::model::text::one_line(cell))
                .collect(),
        );
    }

    /// The table as text, columns separated by two spaces, no trailing blanks.
    pub fn render(&self) -> String {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| cells(h)).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if let Some(w) = widths.get_mut(i) {
                    *w = (*w).max(cells(cell));
                }
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(self.rows.iter()) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                line.push_str(cell);
                if i + 1 < row.len() {
                    let pad = widths[i].saturating_sub(cells(cell)) + 2;
                    line.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// How many terminal cells `text` takes: a character each, two for a wide one (Chinese).
fn cells(text: &str) -> usize {
    use unicode_width::UnicodeWidthChar;
    text.chars()
        .map(|c| if c.width() == Some(2) { 2 } else { 1 })
        .sum()
}

/// Prints `value` in the machine formats, or calls `table` for the table format.
pub fn emit<T: Serialize>(
    format: OutputFormat,
    value: &T,
    table: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    match format {
        OutputFormat::Table | OutputFormat::Markdown => write_out(table()),
        OutputFormat::Json => write_out(serde_json::to_string_pretty(value)? + "\n"),
        OutputFormat::Yaml => write_out(fleetdeck::yaml::to_yaml_string(&serde_json::to_value(
            value,
        )?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone away.
    struct ClosedPipe {
        attempts: usize,
    }

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            self.attempts += 1;
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_reader_that_went_away_ends_the_output_quietly() {
        let closed = AtomicBool::new(false);
        let mut pipe = ClosedPipe { attempts: 0 };
        assert!(write_to(&mut pipe, b"[\n", &closed).is_ok());
        assert!(closed.load(Ordering::Relaxed));
        assert!(write_to(&mut pipe, b"more\n", &closed).is_ok());
        assert_eq!(
            pipe.attempts, 1,
            "nothing more is written once it is closed"
        );
    }

    #[test]
    fn other_write_errors_are_reported() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::from(io::ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let closed = AtomicBool::new(false);
        assert!(write_to(&mut Full, b"x", &closed).is_err());
        assert!(!closed.load(Ordering::Relaxed));
    }

    #[test]
    fn columns_align() {
        let mut table = Table::new(vec!["ID", "ENV"]);
        table.row(vec!["cn-sh-prod-01".into(), "production".into()]);
        table.row(vec!["a".into(), "".into()]);
        assert_eq!(
            table.render(),
            "ID             ENV\ncn-sh-prod-01  production\na\n"
        );
    }
}
