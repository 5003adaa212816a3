//! Reading a ledger from disk: the IO around the pure reader in `model::ledger`.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

use crate::model::ledger::{Ledger, LedgerContext, LedgerReport, read_ledger};
use crate::yaml::{Diagnostic, Severity};

/// Why a ledger could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LedgerFileError {
    /// The file could not be read.
    #[error("cannot read ledger {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// The file has errors; each is listed in `FILE:LINE:COL: message` form.
    #[error("ledger {path} has {count} error(s):\n{listing}", count = errors.len(), listing = render(path, errors))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The errors (warnings left out).
        errors: Vec<Diagnostic>,
    },
}

fn render(path: &Path, diagnostics: &[Diagnostic]) -> String {
    let name = path.display().to_string();
    diagnostics
        .iter()
        .map(|d| d.render(&name))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `name` is a time zone this machine knows.
pub fn is_known_zone(name: &str) -> bool {
    name == "UTC" || jiff::tz::db().get(name).is_ok()
}

/// Today's date in the local time zone.
pub fn today() -> Date {
    jiff::Zoned::now().date()
}

/// Reads and checks the ledger at `path`, as of `today`.
pub fn check_file(path: &Path, today: Date) -> Result<LedgerReport, LedgerFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| LedgerFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(read_ledger(
        &text,
        &LedgerContext {
            today,
            is_known_zone: &is_known_zone,
        },
    ))
}

/// Reads the ledger at `path` for use: any error makes it unusable as a whole.
pub fn load(path: &Path) -> Result<Ledger, LedgerFileError> {
    let report = check_file(path, today())?;
    report.ledger.ok_or_else(|| LedgerFileError::Invalid {
        path: path.to_path_buf(),
        errors: report
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect(),
    })
}
