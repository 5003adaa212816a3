//! What theme and keymap files share: warnings that name `file:line`, and locating a byte
//! offset in a file. User files never crash the console; their problems become warnings.

use crate::i18n::{Lang, Msg};
use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a user-editable file, reported without stopping the console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    /// The file (a built-in file is named `<built-in>/NAME`).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// What is wrong and what was done instead.
    pub message: Msg,
}

impl ConfigWarning {
    /// `FILE:LINE: what`, in `lang` (the file and line as they are).
    pub fn text(&self, lang: Lang) -> String {
        format!("{}:{}: {}", self.file, self.line, self.message.text(lang))
    }
}

/// In English, as the log writes it.
impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// Line (from 1) of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The warning for a TOML syntax or schema error, at the line toml reports.
pub fn toml_warning(
    file: &str,
    text: &str,
    error: &toml::de::Error,
    fallback: Msg,
) -> ConfigWarning {
    let line = error.span().map_or(1, |s| line_of(text, s.start));
    ConfigWarning {
        file: file.to_owned(),
        line,
        message: Msg::new("cfg-toml-error")
            .arg("error", error.message().trim())
            .arg("fallback", fallback),
    }
}

/// Where a selection (`dark`, `./my-theme.toml`) points: a built-in name or a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// A built-in by name.
    Builtin(String),
    /// A file given by path.
    File(PathBuf),
}

impl Selection {
    /// Reads a name or a path: anything with a `/` or ending in `.toml` is a path.
    pub fn parse(text: &str) -> Selection {
        if text.contains('/') || text.ends_with(".toml") {
            Selection::File(PathBuf::from(text))
        } else {
            Selection::Builtin(text.to_owned())
        }
    }
}

/// Reads a user file; a missing file is `None`, an unreadable one is a warning.
pub fn read_optional(path: &Path, warnings: &mut Vec<ConfigWarning>) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            warnings.push(ConfigWarning {
                file: path.display().to_string(),
                line: 1,
                message: Msg::new("cfg-cannot-read").arg("error", e.to_string()),
            });
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_one() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
        assert_eq!(Selection::parse("dark"), Selection::Builtin("dark".into()));
        assert_eq!(
            Selection::parse("~/x.toml"),
            Selection::File(PathBuf::from("~/x.toml"))
        );
    }
}
