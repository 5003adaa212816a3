//! Reading a file a user wrote (rollout, maintenance): every diagnostic printed as
//! `FILE:LINE:COL: message` on standard error, then the error count when it is unusable.

use std::path::Path;

use anyhow::Context;
use fleetdeck::i18n::Lang;
use fleetdeck::yaml::{Diagnostic, Severity};

/// Reads `file` with `read` (text → value and diagnostics); `None` after printing why the
/// file cannot be used, in `lang` (the `FILE:LINE:COL: ` prefix is the same in every
/// language).
pub fn read_spec<T>(
    file: &Path,
    lang: Lang,
    read: impl FnOnce(&str) -> (Option<T>, Vec<Diagnostic>),
) -> anyhow::Result<Option<T>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
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
        eprintln!(
            "{}",
            fleetdeck::t!(
                lang,
                "validate-summary-errors",
                file = &name,
                errors = errors.to_string()
            )
        );
    }
    Ok(spec)
}
