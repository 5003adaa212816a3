//! Printing results as aligned tables, JSON or YAML.

use fleetdeck::config::OutputFormat;
use serde::Serialize;

/// A table for people: a header row and data rows, printed with aligned columns.
pub struct Table {
    headers: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new(headers: Vec<&'static str>) -> Self {
        Table {
            headers,
            rows: Vec::new(),
        }
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
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if let Some(w) = widths.get_mut(i) {
                    *w = (*w).max(cell.chars().count());
                }
            }
        }
        let mut out = String::new();
        let header: Vec<String> = self.headers.iter().map(|h| h.to_string()).collect();
        for row in std::iter::once(&header).chain(self.rows.iter()) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                line.push_str(cell);
                if i + 1 < row.len() {
                    let pad = widths[i].saturating_sub(cell.chars().count()) + 2;
                    line.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// Prints `value` in the machine formats, or calls `table` for the table format.
pub fn emit<T: Serialize>(
    format: OutputFormat,
    value: &T,
    table: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    match format {
        OutputFormat::Table | OutputFormat::Markdown => print!("{}", table()),
        OutputFormat::Json => println!("{}", serde_json::to_string_pretty(value)?),
        OutputFormat::Yaml => print!(
            "{}",
            fleetdeck::yaml::to_yaml_string(&serde_json::to_value(value)?)
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
