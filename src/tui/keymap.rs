//! Keymaps: `keymaps/*.toml` name an action and a description for every key, per context.
//! A user file in the config directory overrides a few keys on top of the built-in map
//! (like yazi's keymap layers) without copying it; unknown actions, bad keys and
//! conflicts become warnings naming `file:line`, never a crash.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;

use super::action::Action;
use super::config_file::{ConfigWarning, Selection, line_of, read_optional, toml_warning};
use crate::i18n::{Lang, Msg};

/// Built-in keymap files, by name.
pub const BUILTIN_KEYMAPS: &[(&str, &str)] = &[
    ("default", include_str!("../../keymaps/default.toml")),
    ("vim", include_str!("../../keymaps/vim.toml")),
];

/// Name of the user override file in the config directory.
pub const USER_KEYMAP_FILE: &str = "keymap.toml";

/// Where a binding applies. Screen contexts are consulted first, then `list`, then
/// `global`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    /// Everywhere.
    Global,
    /// Every screen with a selectable list.
    List,
    /// The ledger screen.
    Ledger,
    /// The cluster drill-down.
    Cluster,
    /// The node page.
    Node,
    /// The capacity screen.
    Capacity,
    /// The rollouts screen.
    Rollouts,
    /// The maintenance screen.
    Maintenance,
    /// The journal timeline.
    Timeline,
    /// The findings screen.
    Findings,
}

impl Context {
    /// All contexts, in file order.
    pub const ALL: [Context; 10] = [
        Context::Global,
        Context::List,
        Context::Ledger,
        Context::Cluster,
        Context::Node,
        Context::Capacity,
        Context::Rollouts,
        Context::Maintenance,
        Context::Timeline,
        Context::Findings,
    ];

    /// The section name in keymap files.
    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::List => "list",
            Context::Ledger => "ledger",
            Context::Cluster => "cluster",
            Context::Node => "node",
            Context::Capacity => "capacity",
            Context::Rollouts => "rollouts",
            Context::Maintenance => "maintenance",
            Context::Timeline => "timeline",
            Context::Findings => "findings",
        }
    }
}

/// A key with its modifiers, normalised so that `A` and `shift-a` are the same chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyChord {
    /// The key.
    pub code: KeyCode,
    /// Ctrl and Alt (Shift is folded into the character).
    pub mods: KeyModifiers,
}

impl KeyChord {
    /// Normalises a terminal key event.
    pub fn from_event(event: &KeyEvent) -> KeyChord {
        Self::normalise(event.code, event.modifiers)
    }

    fn normalise(code: KeyCode, mods: KeyModifiers) -> KeyChord {
        let mut mods = mods & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match code {
            KeyCode::Char(c) if mods.contains(KeyModifiers::SHIFT) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(c.to_ascii_uppercase())
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        KeyChord { code, mods }
    }

    /// Parses `q`, `Q`, `ctrl-c`, `alt-x`, `shift-tab`, `enter`, `space`, `pagedown`, `f1`.
    pub fn parse(text: &str) -> Result<KeyChord, Msg> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            let prefix = [
                "ctrl-", "ctrl+", "c-", "alt-", "alt+", "a-", "shift-", "shift+", "s-",
            ]
            .into_iter()
            .find(|p| lower.starts_with(p) && rest.len() > p.len());
            let Some(prefix) = prefix else { break };
            mods |= match prefix.as_bytes()[0] {
                b'c' => KeyModifiers::CONTROL,
                b'a' => KeyModifiers::ALT,
                _ => KeyModifiers::SHIFT,
            };
            rest = &rest[prefix.len()..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "enter" | "return" => KeyCode::Enter,
                "esc" | "escape" => KeyCode::Esc,
                "tab" if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "space" => KeyCode::Char(' '),
                "backspace" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "pageup" | "pgup" => KeyCode::PageUp,
                "pagedown" | "pgdn" => KeyCode::PageDown,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                f if f.starts_with('f') => match f[1..].parse::<u8>() {
                    Ok(n) if (1..=12).contains(&n) => KeyCode::F(n),
                    _ => return Err(Msg::new("cfg-unknown-key").arg("key", format!("{text:?}"))),
                },
                _ => return Err(Msg::new("cfg-unknown-key").arg("key", format!("{text:?}"))),
            },
        };
        Ok(Self::normalise(code, mods))
    }
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Backspace => f.write_str("backspace"),
            KeyCode::Delete => f.write_str("delete"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::F(n) => write!(f, "f{n}"),
            _ => f.write_str("?"),
        }
    }
}

/// One key bound to one action, with the sentence help shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The key.
    pub key: KeyChord,
    /// What it does.
    pub action: Action,
    /// What help says about it.
    pub desc: String,
}

/// The active keymap: bindings per context, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keymap {
    sections: BTreeMap<Context, Vec<Binding>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    on: toml::Spanned<String>,
    run: toml::Spanned<String>,
    desc: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    global: Vec<RawEntry>,
    #[serde(default)]
    list: Vec<RawEntry>,
    #[serde(default)]
    ledger: Vec<RawEntry>,
    #[serde(default)]
    cluster: Vec<RawEntry>,
    #[serde(default)]
    node: Vec<RawEntry>,
    #[serde(default)]
    capacity: Vec<RawEntry>,
    #[serde(default)]
    rollouts: Vec<RawEntry>,
    #[serde(default)]
    maintenance: Vec<RawEntry>,
    #[serde(default)]
    timeline: Vec<RawEntry>,
    #[serde(default)]
    findings: Vec<RawEntry>,
}

/// A parsed binding before merging: `None` action unbinds the key (`run = "none"`).
type Layer = Vec<(Context, KeyChord, Option<Action>, String, usize)>;

/// Reads one keymap file into a layer; problems become warnings.
fn parse_layer(text: &str, file: &str, warnings: &mut Vec<ConfigWarning>) -> Layer {
    let raw: RawFile = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            warnings.push(toml_warning(
                file,
                text,
                &e,
                Msg::new("cfg-whole-file-ignored"),
            ));
            return Vec::new();
        }
    };
    let mut layer = Layer::new();
    let mut seen: std::collections::HashMap<(Context, KeyChord), usize> =
        std::collections::HashMap::new();
    let sections = [
        (Context::Global, raw.global),
        (Context::List, raw.list),
        (Context::Ledger, raw.ledger),
        (Context::Cluster, raw.cluster),
        (Context::Node, raw.node),
        (Context::Capacity, raw.capacity),
        (Context::Rollouts, raw.rollouts),
        (Context::Maintenance, raw.maintenance),
        (Context::Timeline, raw.timeline),
        (Context::Findings, raw.findings),
    ];
    for (ctx, entries) in sections {
        for entry in entries {
            let line = line_of(text, entry.on.span().start);
            let warn = |message: Msg| ConfigWarning {
                file: file.to_owned(),
                line,
                message,
            };
            let key = match KeyChord::parse(entry.on.get_ref()) {
                Ok(key) => key,
                Err(e) => {
                    warnings.push(warn(Msg::new("cfg-binding-ignored").arg("error", e)));
                    continue;
                }
            };
            let name = entry.run.get_ref().as_str();
            let action = match name {
                "none" | "noop" => None,
                _ => match Action::from_name(name) {
                    Some(a) => Some(a),
                    None => {
                        warnings.push(ConfigWarning {
                            line: line_of(text, entry.run.span().start),
                            ..warn(Msg::new("cfg-unknown-action").arg("name", format!("{name:?}")))
                        });
                        continue;
                    }
                },
            };
            if let Some(first) = seen.insert((ctx, key), line) {
                warnings.push(warn(
                    Msg::new("cfg-key-twice")
                        .arg("key", key.to_string())
                        .arg("section", ctx.name())
                        .arg("first", first.to_string())
                        .arg("line", line.to_string()),
                ));
            }
            let desc = entry
                .desc
                .unwrap_or_else(|| action.map_or(String::new(), |a| a.description(Lang::En)));
            layer.push((ctx, key, action, desc, line));
        }
    }
    layer
}

impl Keymap {
    /// Builds a keymap from one file's text alone (tests, built-ins).
    pub fn parse(text: &str, file: &str) -> (Keymap, Vec<ConfigWarning>) {
        let mut warnings = Vec::new();
        let mut map = Keymap::default();
        map.apply(parse_layer(text, file, &mut warnings), file, &mut warnings);
        (map, warnings)
    }

    /// Loads `selection` (a built-in name or a file) over the built-in default, then the
    /// user's `keymap.toml` from `config_dir`, reporting every problem as a warning.
    pub fn load(selection: &str, config_dir: Option<&Path>) -> (Keymap, Vec<ConfigWarning>) {
        let mut warnings = Vec::new();
        let mut map = Keymap::default();
        let default_text = BUILTIN_KEYMAPS[0].1;
        map.apply(
            parse_layer(default_text, "<built-in>/default.toml", &mut warnings),
            "<built-in>/default.toml",
            &mut warnings,
        );
        match Selection::parse(selection) {
            Selection::Builtin(name) if name == "default" => {}
            Selection::Builtin(name) => match BUILTIN_KEYMAPS.iter().find(|(n, _)| *n == name) {
                Some((_, text)) => {
                    let file = format!("<built-in>/{name}.toml");
                    map.apply(
                        parse_layer(text, &file, &mut warnings),
                        &file,
                        &mut warnings,
                    );
                }
                None => warnings.push(ConfigWarning {
                    file: "<settings>".into(),
                    line: 1,
                    message: Msg::new("cfg-no-keymap").arg("name", format!("{name:?}")),
                }),
            },
            Selection::File(path) => {
                let path = crate::config::expand_home(&path);
                let file = path.display().to_string();
                match read_optional(&path, &mut warnings) {
                    Some(text) => map.apply(
                        parse_layer(&text, &file, &mut warnings),
                        &file,
                        &mut warnings,
                    ),
                    None => warnings.push(ConfigWarning {
                        file,
                        line: 1,
                        message: Msg::new("cfg-keymap-not-found"),
                    }),
                }
            }
        }
        if let Some(dir) = config_dir {
            let path = dir.join(USER_KEYMAP_FILE);
            if let Some(text) = read_optional(&path, &mut warnings) {
                let file = path.display().to_string();
                map.apply(
                    parse_layer(&text, &file, &mut warnings),
                    &file,
                    &mut warnings,
                );
            }
        }
        (map, warnings)
    }

    /// Merges a layer: a key already bound in the same context is replaced in place. Once
    /// the whole layer is in, a screen binding that hides a global one — either added by
    /// this layer — is reported as a conflict at the line of this layer's binding.
    fn apply(&mut self, layer: Layer, file: &str, warnings: &mut Vec<ConfigWarning>) {
        let mut touched = Vec::new();
        for (ctx, key, action, desc, line) in layer {
            let section = self.sections.entry(ctx).or_default();
            let existing = section.iter().position(|b| b.key == key);
            match (existing, action) {
                (Some(i), Some(action)) => section[i] = Binding { key, action, desc },
                (Some(i), None) => {
                    section.remove(i);
                }
                (None, Some(action)) => section.push(Binding { key, action, desc }),
                (None, None) => {}
            }
            touched.push((ctx, key, line));
        }
        for (ctx, key, line) in touched {
            let Some(global) = self.binding(Context::Global, key) else {
                continue;
            };
            let screens: Vec<Context> = match ctx {
                Context::Global => Context::ALL.to_vec(),
                ctx => vec![ctx],
            };
            for screen in screens {
                if screen == Context::Global {
                    continue;
                }
                if let Some(hiding) = self.binding(screen, key)
                    && hiding.action != global.action
                {
                    warnings.push(ConfigWarning {
                        file: file.to_owned(),
                        line,
                        message: Msg::new("cfg-hides-global")
                            .arg("key", key.to_string())
                            .arg("section", screen.name())
                            .arg("action", format!("{:?}", hiding.action.name()))
                            .arg("global", format!("{:?}", global.action.name())),
                    });
                }
            }
        }
    }

    fn binding(&self, ctx: Context, key: KeyChord) -> Option<&Binding> {
        self.sections.get(&ctx)?.iter().find(|b| b.key == key)
    }

    /// The action for `key` in `screen`: the screen's bindings first, then list, then
    /// global ones.
    pub fn lookup(&self, screen: Context, key: KeyChord) -> Option<Action> {
        [screen, Context::List, Context::Global]
            .into_iter()
            .find_map(|ctx| self.binding(ctx, key))
            .map(|b| b.action)
    }

    /// The bindings of one context, in file order (help and the key hints read these).
    pub fn bindings(&self, ctx: Context) -> &[Binding] {
        self.sections.get(&ctx).map_or(&[], Vec::as_slice)
    }

    /// The first key bound to `action` for `screen`, for hints such as `? help`.
    pub fn key_for(&self, screen: Context, action: Action) -> Option<KeyChord> {
        [screen, Context::List, Context::Global]
            .into_iter()
            .flat_map(|ctx| self.bindings(ctx))
            .find(|b| b.action == action)
            .map(|b| b.key)
    }
}

#[cfg(test)]
#[path = "keymap_tests.rs"]
mod tests;
