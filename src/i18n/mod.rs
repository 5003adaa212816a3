//! The interface's languages: English and Simplified Chinese (zh-CN), as Project Fluent
//! catalogues (`i18n/<lang>/*.ftl`) built into the binary.
//!
//! Pure: the catalogues are compiled in and a message is formatted from its id and
//! arguments; nothing here reads a file, the environment or the clock. Which language
//! the user asked for is decided by [`choose`] from values the binary's edge read
//! (`--lang`, `FLEETDECK_LANG`, `language` in config.toml, `LC_ALL`/`LC_MESSAGES`/`LANG`).
//!
//! Never translated: JSON and YAML output, journal event kinds and bodies, exit codes,
//! file formats and logs. Those are written without going through here.
//!
//! A message missing from a catalogue (or one that fails to format) falls back to
//! English and is logged; a message missing from English too is shown as its id. Both
//! catalogues hold the same ids with the same variables (`catalogue_tests`).

use std::fmt;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

#[cfg(test)]
mod catalogue_tests;
mod choose;

pub use choose::{Choice, choose, from_locale};

/// A language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (the default, and the fallback for a missing message).
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

/// Why a language name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum I18nError {
    /// A name that is none of the supported languages.
    #[error("unknown language {given:?}: supported are {}", Lang::supported())]
    Unknown {
        /// What was given.
        given: String,
    },
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// Its BCP 47 tag: `en`, `zh-CN`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's name for itself, the same in every language (`English`, `简体中文`).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// What goes between a sentence and the next piece of text written beside it: a space
    /// in English, nothing in Chinese, which runs words together (`by bob 3m ago` /
    /// `（由 bob 于 3m前）`).
    pub fn word_gap(self) -> &'static str {
        match self {
            Lang::En => " ",
            Lang::ZhCn => "",
        }
    }

    /// `en, zh-CN`, for errors and help.
    pub fn supported() -> String {
        Lang::ALL.map(Lang::tag).join(", ")
    }

    /// The language a name given by a person means: `en`, `zh-CN`, and the spellings of
    /// the same (`zh_CN`, `zh-cn`, `zh-Hans`, `zh`, `english`, `C`…). A locale with an
    /// encoding (`zh_CN.UTF-8`) is read by [`from_locale`].
    pub fn parse(given: &str) -> Result<Lang, I18nError> {
        from_locale(given)
            .filter(|_| !given.contains('.'))
            .ok_or_else(|| I18nError::Unknown {
                given: given.to_string(),
            })
    }

    /// The catalogue of this language.
    fn bundle(self) -> &'static FluentBundle<FluentResource> {
        static EN: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
        static ZH: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
        match self {
            Lang::En => EN.get_or_init(|| bundle(self, catalogue::EN)),
            Lang::ZhCn => ZH.get_or_init(|| bundle(self, catalogue::ZH_CN)),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

impl std::str::FromStr for Lang {
    type Err = I18nError;
    fn from_str(s: &str) -> Result<Lang, I18nError> {
        Lang::parse(s)
    }
}

/// The catalogue files, embedded. A new file is added to both lists.
pub(crate) mod catalogue {
    /// English, by file.
    pub const EN: &[(&str, &str)] = &[
        ("common.ftl", include_str!("../../i18n/en/common.ftl")),
        ("console.ftl", include_str!("../../i18n/en/console.ftl")),
        ("keys.ftl", include_str!("../../i18n/en/keys.ftl")),
        ("dialogs.ftl", include_str!("../../i18n/en/dialogs.ftl")),
        ("screens.ftl", include_str!("../../i18n/en/screens.ftl")),
        ("handover.ftl", include_str!("../../i18n/en/handover.ftl")),
        ("validate.ftl", include_str!("../../i18n/en/validate.ftl")),
        ("cli.ftl", include_str!("../../i18n/en/cli.ftl")),
        ("fleet.ftl", include_str!("../../i18n/en/fleet.ftl")),
        ("insight.ftl", include_str!("../../i18n/en/insight.ftl")),
        ("reasons.ftl", include_str!("../../i18n/en/reasons.ftl")),
        ("cli_help.ftl", include_str!("../../i18n/en/cli_help.ftl")),
        (
            "cli_output.ftl",
            include_str!("../../i18n/en/cli_output.ftl"),
        ),
    ];
    /// Simplified Chinese, by file.
    pub const ZH_CN: &[(&str, &str)] = &[
        ("common.ftl", include_str!("../../i18n/zh-CN/common.ftl")),
        ("console.ftl", include_str!("../../i18n/zh-CN/console.ftl")),
        ("keys.ftl", include_str!("../../i18n/zh-CN/keys.ftl")),
        ("dialogs.ftl", include_str!("../../i18n/zh-CN/dialogs.ftl")),
        ("screens.ftl", include_str!("../../i18n/zh-CN/screens.ftl")),
        (
            "handover.ftl",
            include_str!("../../i18n/zh-CN/handover.ftl"),
        ),
        (
            "validate.ftl",
            include_str!("../../i18n/zh-CN/validate.ftl"),
        ),
        ("cli.ftl", include_str!("../../i18n/zh-CN/cli.ftl")),
        ("fleet.ftl", include_str!("../../i18n/zh-CN/fleet.ftl")),
        ("insight.ftl", include_str!("../../i18n/zh-CN/insight.ftl")),
        ("reasons.ftl", include_str!("../../i18n/zh-CN/reasons.ftl")),
        (
            "cli_help.ftl",
            include_str!("../../i18n/zh-CN/cli_help.ftl"),
        ),
        (
            "cli_output.ftl",
            include_str!("../../i18n/zh-CN/cli_output.ftl"),
        ),
    ];
}

fn bundle(lang: Lang, files: &[(&str, &str)]) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier = lang.tag().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Terminals show the Unicode isolation marks Fluent puts around arguments as junk.
    bundle.set_use_isolating(false);
    for (name, text) in files {
        let resource = match FluentResource::try_new((*text).to_string()) {
            Ok(r) => r,
            Err((r, errors)) => {
                tracing::error!(lang = %lang, file = name, ?errors, "catalogue has syntax errors");
                r
            }
        };
        if let Err(errors) = bundle.add_resource(resource) {
            tracing::error!(lang = %lang, file = name, ?errors, "catalogue has duplicate ids");
        }
    }
    bundle
}

/// An argument of a message: text, or a number (which selects plural forms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Shown as is.
    Str(String),
    /// A count or amount.
    Num(i64),
    /// Another message, formatted in the same language.
    Msg(Box<Msg>),
}

impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}
macro_rules! num_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
num_arg!(i64, i32, u32, u16, u8, usize, u64);

/// A message not yet formatted: its id and arguments. Pure data, so `model/` can say
/// which message a sentence is beside its English text, and the edge that renders for
/// people formats it in their language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    /// The message's id in the catalogues.
    pub id: &'static str,
    /// Its arguments.
    pub args: Vec<(&'static str, Arg)>,
}

impl Msg {
    /// The message `id` without arguments yet.
    pub fn new(id: &'static str) -> Msg {
        Msg {
            id,
            args: Vec::new(),
        }
    }

    /// With the argument `name`.
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Msg {
        self.args.push((name, value.into()));
        self
    }

    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        text(lang, self.id, &self.args)
    }

    /// A text that has no translation (a cluster's error, a person's note), shown as it
    /// is in every language.
    pub fn verbatim(text: impl Into<String>) -> Msg {
        Msg::new("verbatim").arg("text", text.into())
    }
}

/// In English: logs and the CLI's default.
impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl From<&str> for Msg {
    fn from(text: &str) -> Msg {
        Msg::verbatim(text)
    }
}

impl From<String> for Msg {
    fn from(text: String) -> Msg {
        Msg::verbatim(text)
    }
}

/// The message `id` in `lang` with `args`. A message missing in `lang` is taken from
/// English (and logged); missing in English too, the id itself is shown.
pub fn text(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    let mut best = None;
    if lang != Lang::En {
        match format(lang, id, args) {
            Some(Ok(s)) => return s,
            Some(Err(partial)) => best = Some(partial),
            None => {}
        }
        tracing::warn!(lang = %lang, id, "message missing or broken: English shown");
    }
    match format(Lang::En, id, args) {
        Some(Ok(s)) => s,
        Some(Err(partial)) => partial,
        None => {
            tracing::error!(id, "message missing from the English catalogue");
            best.unwrap_or_else(|| id.to_string())
        }
    }
}

/// Whether `lang`'s catalogue has `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    lang.bundle().has_message(id)
}

/// The message formatted; `Err` with what could be formatted when an argument was
/// missing or a reference broken; `None` when there is no such message.
fn format(lang: Lang, id: &str, args: &[(&str, Arg)]) -> Option<Result<String, String>> {
    let bundle = lang.bundle();
    let pattern = bundle.get_message(id)?.value()?;
    let mut fargs = FluentArgs::new();
    for (name, value) in args {
        match value {
            Arg::Str(s) => fargs.set(*name, FluentValue::from(s.as_str())),
            Arg::Num(n) => fargs.set(*name, FluentValue::from(*n)),
            Arg::Msg(m) => fargs.set(*name, FluentValue::from(m.text(lang))),
        }
    }
    let mut errors = Vec::new();
    let out = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
    if errors.is_empty() {
        Some(Ok(out.into_owned()))
    } else {
        tracing::warn!(lang = %lang, id, ?errors, "message failed to format");
        Some(Err(out.into_owned()))
    }
}

/// A counted message (`count-nodes`): `$count` selects the form, `$n` is the number as
/// shown (`1,200`).
pub fn counted(lang: Lang, id: &str, count: i64) -> String {
    text(
        lang,
        id,
        &[("count", Arg::Num(count)), ("n", Arg::Str(grouped(count)))],
    )
}

/// `1200` → `1,200` (both languages group digits by three with a comma).
fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::from(if n < 0 { "-" } else { "" });
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `t!(lang, "id")`, `t!(lang, "id", count = n, name = s)`: the message `id` in `lang`.
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:literal) => {
        $crate::i18n::text($lang, $id, &[])
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::text(
            $lang,
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_and_counts_format_in_both_languages() {
        assert_eq!(counted(Lang::En, "count-clusters", 1), "1 cluster");
        assert_eq!(counted(Lang::En, "count-clusters", 1200), "1,200 clusters");
        assert_eq!(counted(Lang::ZhCn, "count-clusters", 1), "1 个集群");
        assert_eq!(counted(Lang::ZhCn, "count-nodes", 4), "4 个节点");
        assert_eq!(
            t!(Lang::ZhCn, "header-nodes-ready", ready = "3", total = "4"),
            "节点 3/4 就绪"
        );
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_to_its_id() {
        assert_eq!(text(Lang::ZhCn, "no-such-message", &[]), "no-such-message");
        // A message that fails to format in Chinese (its argument missing) is English,
        // as far as it could be formatted.
        assert_eq!(
            text(Lang::ZhCn, "header-nodes-ready", &[]),
            "nodes {$ready}/{$total} ready"
        );
    }

    #[test]
    fn names_of_languages() {
        assert_eq!(Lang::parse("zh-CN"), Ok(Lang::ZhCn));
        assert_eq!(Lang::parse("zh_CN"), Ok(Lang::ZhCn));
        assert_eq!(Lang::parse("zh-Hans"), Ok(Lang::ZhCn));
        assert_eq!(Lang::parse("en"), Ok(Lang::En));
        let err = Lang::parse("fr").unwrap_err().to_string();
        assert_eq!(err, "unknown language \"fr\": supported are en, zh-CN");
    }
}
