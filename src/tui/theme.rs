//! Themes: `themes/*.toml` fill semantic slots (ok, warn, critical, unknown, paused,
//! selection, border, muted, …) and give each environment an accent colour so that
//! production looks different. A user file in `<config>/themes/NAME.toml` overrides a few
//! slots of the built-in theme of the same name; `NO_COLOR` strips every colour and keeps
//! the emphasis (bold, reverse) that still carries meaning without it.

use crate::i18n::Msg;
use std::collections::BTreeMap;
use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use super::config_file::{ConfigWarning, Selection, line_of, read_optional, toml_warning};

/// Built-in theme files, by name.
pub const BUILTIN_THEMES: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

/// A meaning the console gives a style to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// Ordinary text.
    Text,
    /// Secondary text: units, empty values, hints.
    Muted,
    /// Healthy, synced, within budget.
    Ok,
    /// Needs attention: degraded, drift, old backups.
    Warn,
    /// Failing, short of capacity, identity mismatch.
    Critical,
    /// We do not know: unreachable, stale, connecting. Never looks healthy.
    Unknown,
    /// Automation paused.
    Paused,
    /// The selected row.
    Selection,
    /// Marked rows.
    Mark,
    /// Panel borders.
    Border,
    /// The always-visible header bar.
    Header,
    /// Panel titles and column headers.
    Title,
}

impl Slot {
    /// Every slot with its file name.
    pub const ALL: [(Slot, &'static str); 12] = [
        (Slot::Text, "text"),
        (Slot::Muted, "muted"),
        (Slot::Ok, "ok"),
        (Slot::Warn, "warn"),
        (Slot::Critical, "critical"),
        (Slot::Unknown, "unknown"),
        (Slot::Paused, "paused"),
        (Slot::Selection, "selection"),
        (Slot::Mark, "mark"),
        (Slot::Border, "border"),
        (Slot::Header, "header"),
        (Slot::Title, "title"),
    ];

    fn index(self) -> usize {
        self as usize
    }
}

/// The active theme: a style per slot and an accent per environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Theme name.
    pub name: String,
    styles: [Style; 12],
    env_accents: BTreeMap<String, Color>,
    default_accent: Color,
    /// Whether colours were stripped (`NO_COLOR`).
    pub monochrome: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawSlot {
    Colour(String),
    Style {
        fg: Option<String>,
        bg: Option<String>,
        bold: Option<bool>,
        italic: Option<bool>,
        underline: Option<bool>,
        reversed: Option<bool>,
        dim: Option<bool>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTheme {
    #[allow(dead_code)]
    name: Option<String>,
    #[serde(default)]
    slots: BTreeMap<String, toml::Spanned<RawSlot>>,
    #[serde(default)]
    env: BTreeMap<String, toml::Spanned<String>>,
}

impl Theme {
    fn blank(name: &str) -> Theme {
        Theme {
            name: name.to_owned(),
            styles: [Style::new(); 12],
            env_accents: BTreeMap::new(),
            default_accent: Color::Reset,
            monochrome: false,
        }
    }

    /// The style of a slot.
    pub fn style(&self, slot: Slot) -> Style {
        self.styles[slot.index()]
    }

    /// The accent colour of an environment (`default` when the theme does not name it).
    pub fn accent(&self, env: &str) -> Color {
        if self.monochrome {
            return Color::Reset;
        }
        self.env_accents
            .get(env)
            .copied()
            .unwrap_or(self.default_accent)
    }

    /// The built-in dark theme, without warnings (for tests and as the fallback).
    pub fn builtin_dark() -> Theme {
        let mut theme = Theme::blank("dark");
        theme.apply(BUILTIN_THEMES[0].1, "<built-in>/dark.toml", &mut Vec::new());
        theme
    }

    /// Loads `selection` (built-in name or file), then `<config_dir>/themes/NAME.toml`
    /// over it; with `no_color`, strips colours. Problems are warnings.
    pub fn load(
        selection: &str,
        config_dir: Option<&Path>,
        no_color: bool,
    ) -> (Theme, Vec<ConfigWarning>) {
        let mut warnings = Vec::new();
        let mut theme = Theme::builtin_dark();
        match Selection::parse(selection) {
            Selection::Builtin(name) => {
                match BUILTIN_THEMES.iter().find(|(n, _)| *n == name) {
                    Some((_, text)) => {
                        theme.name = name.clone();
                        theme.apply(text, &format!("<built-in>/{name}.toml"), &mut warnings);
                    }
                    None => {
                        let user =
                            config_dir.map(|d| d.join("themes").join(format!("{name}.toml")));
                        if user.as_ref().is_none_or(|p| !p.exists()) {
                            warnings.push(ConfigWarning {
                                file: "<settings>".into(),
                                line: 1,
                                message: Msg::new("cfg-no-theme").arg("name", format!("{name:?}")),
                            });
                        } else {
                            theme.name = name.clone();
                        }
                    }
                }
                if let Some(dir) = config_dir {
                    let path = dir.join("themes").join(format!("{name}.toml"));
                    if let Some(text) = read_optional(&path, &mut warnings) {
                        theme.apply(&text, &path.display().to_string(), &mut warnings);
                    }
                }
            }
            Selection::File(path) => {
                let path = crate::config::expand_home(&path);
                let file = path.display().to_string();
                match read_optional(&path, &mut warnings) {
                    Some(text) => {
                        theme.name = path
                            .file_stem()
                            .map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned());
                        theme.apply(&text, &file, &mut warnings);
                    }
                    None => warnings.push(ConfigWarning {
                        file,
                        line: 1,
                        message: Msg::new("cfg-theme-not-found"),
                    }),
                }
            }
        }
        if no_color {
            theme = theme.without_colour();
        }
        (theme, warnings)
    }

    /// Applies one theme file over this theme: named slots and accents replace, the rest
    /// stays.
    pub fn apply(&mut self, text: &str, file: &str, warnings: &mut Vec<ConfigWarning>) {
        let raw: RawTheme = match toml::from_str(text) {
            Ok(raw) => raw,
            Err(e) => {
                warnings.push(toml_warning(
                    file,
                    text,
                    &e,
                    Msg::new("cfg-whole-file-ignored"),
                ));
                return;
            }
        };
        let warn = |span: std::ops::Range<usize>, message: Msg| ConfigWarning {
            file: file.to_owned(),
            line: line_of(text, span.start),
            message,
        };
        let colour = |value: &str| value.parse::<Color>().ok();
        for (name, slot) in raw.slots {
            let span = slot.span();
            let Some((target, _)) = Slot::ALL.iter().find(|(_, n)| *n == name) else {
                warnings.push(warn(
                    span,
                    Msg::new("cfg-unknown-slot").arg("name", format!("{name:?}")),
                ));
                continue;
            };
            let mut style = Style::new();
            let mut bad = Vec::new();
            let mut set_colour = |value: Option<String>, bg: bool, style: &mut Style| {
                if let Some(value) = value {
                    match colour(&value) {
                        Some(c) if bg => *style = style.bg(c),
                        Some(c) => *style = style.fg(c),
                        None => bad.push(value),
                    }
                }
            };
            match slot.into_inner() {
                RawSlot::Colour(fg) => set_colour(Some(fg), false, &mut style),
                RawSlot::Style {
                    fg,
                    bg,
                    bold,
                    italic,
                    underline,
                    reversed,
                    dim,
                } => {
                    set_colour(fg, false, &mut style);
                    set_colour(bg, true, &mut style);
                    for (on, m) in [
                        (bold, Modifier::BOLD),
                        (italic, Modifier::ITALIC),
                        (underline, Modifier::UNDERLINED),
                        (reversed, Modifier::REVERSED),
                        (dim, Modifier::DIM),
                    ] {
                        if on == Some(true) {
                            style = style.add_modifier(m);
                        }
                    }
                }
            }
            for value in bad {
                warnings.push(warn(
                    span.clone(),
                    Msg::new("cfg-slot-not-a-colour")
                        .arg("name", format!("{name:?}"))
                        .arg("value", format!("{value:?}")),
                ));
            }
            self.styles[target.index()] = style;
        }
        for (env, value) in raw.env {
            match colour(value.get_ref()) {
                Some(c) if env == "default" => self.default_accent = c,
                Some(c) => {
                    self.env_accents.insert(env, c);
                }
                None => warnings.push(warn(
                    value.span(),
                    Msg::new("cfg-env-not-a-colour")
                        .arg("env", format!("{env:?}"))
                        .arg("value", format!("{:?}", value.get_ref())),
                )),
            }
        }
    }

    /// The same theme without colours: emphasis stays, and slots that only differed by
    /// colour get a modifier so that meaning survives (`NO_COLOR`).
    pub fn without_colour(mut self) -> Theme {
        for (slot, _) in Slot::ALL {
            let old = self.styles[slot.index()];
            let mut style = Style::new().add_modifier(old.add_modifier);
            style = match slot {
                Slot::Selection => style.add_modifier(Modifier::REVERSED),
                Slot::Critical | Slot::Paused => style.add_modifier(Modifier::BOLD),
                Slot::Unknown => style.add_modifier(Modifier::BOLD | Modifier::ITALIC),
                Slot::Warn => style.add_modifier(Modifier::UNDERLINED),
                Slot::Muted | Slot::Border => style.add_modifier(Modifier::DIM),
                Slot::Mark | Slot::Title => style.add_modifier(Modifier::BOLD),
                _ => style,
            };
            self.styles[slot.index()] = style;
        }
        self.env_accents.clear();
        self.default_accent = Color::Reset;
        self.monochrome = true;
        self
    }
}

/// Whether `NO_COLOR` asks for no colour (set and non-empty, per no-color.org).
pub fn no_color_requested(value: Option<std::ffi::OsString>) -> bool {
    value.is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
#[path = "theme_tests.rs"]
mod tests;
