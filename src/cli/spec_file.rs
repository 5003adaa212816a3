//! Reading a file a user wrote (rollout, maintenance): every diagnostic printed as
//! `FILE:LINE:COL: message` on standard error, then the error count when it is unusable.

use std::path::Path;

use anyhow::Context;
use fleetdeck::yaml::{Diagnostic, Severity};

/// Reads `file` with `read` (text → value and diagnostics); `None` after printing why the
/// file cannot be used.
pub fn read_spec<T>(
    lang: fleetdeck::i18n::Lang,
    file: &Path,
    read: impl FnOnce(&str) -> (Option<T>, Vec<Diagnostic>),
) -> anyhow::Result<Option<T>> {
    let text = std::fs::read_to_string(file)
        .with_context(|| fleetdeck::t!(lang, "cannot-read", path = file.display().to_string()))?;
    let (spec, diagnostics) = read(&text);
    let name = file.display().to_string();
    for d in &diagnostics {
        eprintln!("{}", d.render_in(&name, lang));
    }
    if spec.is_none() {
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let errors = errors.to_string();
        eprintln!(
            "{}",
            fleetdeck::t!(lang, "spec-errors", file = name.as_str(), errors = errors)
        );
    }
    Ok(spec)
}
