//! Which language the user asked for, by precedence: `--lang`, `FLEETDECK_LANG`,
//! `language` in config.toml, then the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, the first
//! one set and not empty, as POSIX reads them), English when nothing matches.
//!
//! What the user names explicitly (the flag, the variable, the config key) must be a
//! supported language, or it is an error naming the supported ones; a locale is the
//! system's, so one that is not supported (`fr_FR.UTF-8`, `C`) quietly means English.

use super::{I18nError, Lang};

/// What the edge read, each `None` when not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choice<'a> {
    /// `--lang`.
    pub flag: Option<&'a str>,
    /// `FLEETDECK_LANG`.
    pub env: Option<&'a str>,
    /// `language` in config.toml.
    pub config: Option<&'a str>,
    /// `LC_ALL`.
    pub lc_all: Option<&'a str>,
    /// `LC_MESSAGES`.
    pub lc_messages: Option<&'a str>,
    /// `LANG`.
    pub lang: Option<&'a str>,
}

/// The language to speak.
pub fn choose(choice: &Choice<'_>) -> Result<Lang, I18nError> {
    for explicit in [choice.flag, choice.env, choice.config] {
        if let Some(name) = given(explicit) {
            return Lang::parse(name);
        }
    }
    // POSIX: the first of LC_ALL, LC_MESSAGES, LANG that is set decides.
    let locale = [choice.lc_all, choice.lc_messages, choice.lang]
        .into_iter()
        .find_map(given);
    Ok(locale.and_then(from_locale).unwrap_or(Lang::En))
}

/// A value that is set and not blank.
fn given(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|v| !v.is_empty())
}

/// The language of a locale or language name: `zh_CN.UTF-8`, `zh_CN`, `zh-CN`,
/// `zh-Hans`, `zh_SG`, `zh` → zh-CN; `en_US.UTF-8`, `en`, `C`, `POSIX` → English;
/// Traditional Chinese (`zh_TW`, `zh-Hant`, `zh_HK`) and anything else → `None`.
pub fn from_locale(locale: &str) -> Option<Lang> {
    // `language[_territory][.codeset][@modifier]`, or a BCP 47 tag.
    let name = locale.split(['.', '@']).next().unwrap_or("").trim();
    let lower = name.to_ascii_lowercase().replace('_', "-");
    let mut parts = lower.split('-');
    match parts.next()? {
        "en" | "english" | "c" | "posix" => Some(Lang::En),
        "zh" | "chinese" => {
            let rest: Vec<&str> = parts.collect();
            let traditional = rest
                .iter()
                .any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo"));
            (!traditional).then_some(Lang::ZhCn)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(f: impl FnOnce(&mut Choice<'static>)) -> Result<Lang, I18nError> {
        let mut c = Choice::default();
        f(&mut c);
        choose(&c)
    }

    #[test]
    fn the_flag_wins_then_the_variable_then_the_config_then_the_locale() {
        let all = |c: &mut Choice<'static>| {
            c.flag = Some("en");
            c.env = Some("zh-CN");
            c.config = Some("zh-CN");
            c.lc_all = Some("zh_CN.UTF-8");
        };
        assert_eq!(with(all), Ok(Lang::En));
        assert_eq!(
            with(|c| {
                all(c);
                c.flag = None;
            }),
            Ok(Lang::ZhCn)
        );
        assert_eq!(
            with(|c| {
                c.env = Some("en");
                c.config = Some("zh-CN");
            }),
            Ok(Lang::En)
        );
        assert_eq!(
            with(|c| {
                c.config = Some("en");
                c.lang = Some("zh_CN.UTF-8");
            }),
            Ok(Lang::En)
        );
        assert_eq!(with(|c| c.config = Some("zh-Hans")), Ok(Lang::ZhCn));
    }

    #[test]
    fn the_locale_is_read_as_posix_does() {
        assert_eq!(with(|c| c.lang = Some("zh_CN.UTF-8")), Ok(Lang::ZhCn));
        assert_eq!(with(|c| c.lang = Some("zh_CN")), Ok(Lang::ZhCn));
        assert_eq!(with(|c| c.lang = Some("zh_CN.GB18030")), Ok(Lang::ZhCn));
        assert_eq!(with(|c| c.lang = Some("zh-Hans")), Ok(Lang::ZhCn));
        // LC_ALL over LC_MESSAGES over LANG; an empty one is not set.
        assert_eq!(
            with(|c| {
                c.lc_all = Some("en_US.UTF-8");
                c.lc_messages = Some("zh_CN.UTF-8");
            }),
            Ok(Lang::En)
        );
        assert_eq!(
            with(|c| {
                c.lc_all = Some("");
                c.lc_messages = Some("zh_CN.UTF-8");
                c.lang = Some("en_GB.UTF-8");
            }),
            Ok(Lang::ZhCn)
        );
        // Not supported, or nothing set: English, without an error.
        assert_eq!(with(|c| c.lang = Some("fr_FR.UTF-8")), Ok(Lang::En));
        assert_eq!(with(|c| c.lang = Some("zh_TW.UTF-8")), Ok(Lang::En));
        assert_eq!(with(|c| c.lang = Some("C")), Ok(Lang::En));
        assert_eq!(with(|_| {}), Ok(Lang::En));
    }

    #[test]
    fn an_unknown_name_given_explicitly_is_an_error_naming_the_supported() {
        for f in [
            (|c: &mut Choice<'static>| c.flag = Some("fr")) as fn(&mut Choice<'static>),
            |c| c.env = Some("klingon"),
            |c| c.config = Some("zh_CN.UTF-8"),
        ] {
            let err = with(f).unwrap_err().to_string();
            assert!(err.contains("supported are en, zh-CN"), "{err}");
        }
    }
}
