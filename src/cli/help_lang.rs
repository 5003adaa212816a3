//! `--help` in the language the user chose.
//!
//! The English is the doc comments of the clap derive (`args.rs` and the command files),
//! and English `--help` is exactly what clap prints from them. Every command and option
//! also has a message in `i18n/*/cli_help.ftl`: `help-<command path>` for a command's
//! about (`help-rollout-plan`, `help-fleetdeck` for the binary), `help-<command
//! path>--<option>` for an option (`help-rollout-plan--wait-synced`, `help--ledger` for a
//! flag every command understands). In another language the tree is walked before
//! parsing and every about and help is replaced from the catalogue, with clap's own
//! headings (Usage, Commands, Arguments, Options) and its help and version flags'
//! texts. Clap's error messages stay English.
//!
//! The language is decided before parsing, from the raw arguments (`--lang X`,
//! `--lang=X`), `FLEETDECK_LANG`, `language` in config.toml and the locale, the same
//! precedence as [`super::settings::Settings::resolve`]; a name that is not a language
//! means English here and is refused after parsing, as before.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{Resettable, StyledStr};
use clap::{Arg, Command, CommandFactory, FromArgMatches};
use fleetdeck::i18n::{self, Lang};

use super::args::Cli;

/// Parses the process's arguments with `--help` in the chosen language; a help,
/// version or usage error exits as clap does.
pub fn parse() -> Cli {
    let args: Vec<OsString> = std::env::args_os().collect();
    let lang = lang_before_parsing(&args);
    let mut cmd = command_in(lang);
    let parsed = cmd
        .try_get_matches_from_mut(args)
        .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches));
    parsed.unwrap_or_else(|error| error.format(&mut cmd).exit())
}

/// The command line's definition with its help in `lang` (clap's own for English).
pub fn command_in(lang: Lang) -> Command {
    let cmd = Cli::command();
    if lang == Lang::En {
        return cmd;
    }
    let headings = Headings::in_lang(lang);
    let mut cmd = localize(cmd, lang, &headings, &[]);
    cmd.build();
    localize_built(cmd, lang, &headings)
}

/// Clap's headings in a language. Clap keeps a heading as `&'static str`: the few of
/// them are made once per process and live as long as it.
struct Headings {
    commands: &'static str,
    arguments: &'static str,
    options: &'static str,
}

impl Headings {
    fn in_lang(lang: Lang) -> Headings {
        let leak =
            |id: &str| -> &'static str { Box::leak(i18n::text(lang, id, &[]).into_boxed_str()) };
        Headings {
            commands: leak("help-heading-commands"),
            arguments: leak("help-heading-arguments"),
            options: leak("help-heading-options"),
        }
    }
}

/// The value of `--NAME X` or `--NAME=X` in the raw arguments (the last one given; none
/// after `--`).
fn flag_value(args: &[OsString], name: &str) -> Option<String> {
    let mut found = None;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    let with_eq = format!("{name}=");
    while let Some(arg) = it.next() {
        if arg == "--" {
            break;
        }
        if arg == name {
            found = it.next().map(|v| v.into_owned());
        } else if let Some(value) = arg.strip_prefix(&with_eq) {
            found = Some(value.to_string());
        }
    }
    found
}

/// The language the user chose, read before clap parses (so `--help` can speak it):
/// `--lang`, `FLEETDECK_LANG`, `language` in the config file (`--config`,
/// `FLEETDECK_CONFIG` or the default), the locale. Anything unreadable or unknown means
/// English here; it is reported after parsing.
fn lang_before_parsing(args: &[OsString]) -> Lang {
    let env = |name: &str| std::env::var(name).ok();
    let config_file = flag_value(args, "--config")
        .or_else(|| env("FLEETDECK_CONFIG"))
        .map(PathBuf::from)
        .unwrap_or_else(|| fleetdeck::config::Paths::discover().config_file);
    let config = fleetdeck::config::Config::load(&config_file)
        .ok()
        .and_then(|c| c.language);
    let flag = flag_value(args, "--lang");
    let (fleetdeck_lang, lc_all, lc_messages, lang) = (
        env("FLEETDECK_LANG"),
        env("LC_ALL"),
        env("LC_MESSAGES"),
        env("LANG"),
    );
    i18n::choose(&i18n::Choice {
        flag: flag.as_deref(),
        env: fleetdeck_lang.as_deref(),
        config: config.as_deref(),
        lc_all: lc_all.as_deref(),
        lc_messages: lc_messages.as_deref(),
        lang: lang.as_deref(),
    })
    .unwrap_or(Lang::En)
}

/// The first paragraph of `text` (the short help), and the whole when it has more.
fn paragraphs(text: String) -> (String, Option<String>) {
    match text.split_once("\n\n") {
        Some((first, _)) => (first.to_string(), Some(text)),
        None => (text, None),
    }
}

/// `--help`'s template with the usage heading in `lang` (clap's default otherwise).
fn template(lang: Lang) -> String {
    format!(
        "{{before-help}}{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
        i18n::text(lang, "help-heading-usage", &[])
    )
}

/// Every about and help of the command at `path` and below from the catalogue, and the
/// headings in `lang`. Before clap builds the tree: flags every command understands are
/// translated once, on the binary, and copied to the subcommands by the build.
fn localize(cmd: Command, lang: Lang, headings: &Headings, path: &[&str]) -> Command {
    let mut cmd = cmd
        .help_template(template(lang))
        .subcommand_help_heading(headings.commands);
    if let Some(text) = message(lang, &command_id(path)) {
        let (short, long) = paragraphs(text);
        cmd = cmd.about(short).long_about(reset(long));
    }
    cmd = cmd.mut_args(|arg| {
        let mut arg = if arg.is_positional() {
            arg.help_heading(headings.arguments)
        } else {
            arg.help_heading(headings.options)
        };
        if let Some(text) = message(lang, &arg_id(path, &arg)) {
            let (short, long) = paragraphs(text);
            arg = arg.help(short).long_help(reset(long));
            // Values described in English (`-o`'s) are described by the option's own
            // message instead, which names them.
            if arg
                .get_possible_values()
                .iter()
                .any(|v| v.get_help().is_some())
            {
                arg = arg.hide_possible_values(true);
            }
        }
        arg
    });
    cmd.mut_subcommands(|sub| {
        let name = sub.get_name().to_string();
        let mut below = path.to_vec();
        below.push(&name);
        localize(sub, lang, headings, &below)
    })
}

/// After the build: the help and version flags clap added, and its `help` subcommand.
fn localize_built(cmd: Command, lang: Lang, headings: &Headings) -> Command {
    let options = headings.options;
    let mut cmd = cmd.mut_args(|arg| match arg.get_id().as_str() {
        "help" => {
            let id = if arg.get_long_help().is_some() {
                "help-flag-help-more"
            } else {
                "help-flag-help"
            };
            let long = arg
                .get_long_help()
                .map(|_| i18n::text(lang, "help-flag-help-summary", &[]));
            arg.help(i18n::text(lang, id, &[]))
                .long_help(reset(long))
                .help_heading(options)
        }
        "version" => arg
            .help(i18n::text(lang, "help-flag-version", &[]))
            .help_heading(options),
        _ => arg,
    });
    let is_help = cmd.get_name() == "help";
    if is_help {
        cmd = cmd
            .about(i18n::text(lang, "help-help", &[]))
            .mut_args(|arg| arg.help(i18n::text(lang, "help-help--subcommand", &[])));
    }
    cmd.mut_subcommands(|sub| localize_built(sub, lang, headings))
}

/// A text, or clap's "none" to clear one.
fn reset(text: Option<String>) -> Resettable<StyledStr> {
    match text {
        Some(text) => Resettable::Value(text.into()),
        None => Resettable::Reset,
    }
}

/// The message `id` in `lang`, when that catalogue has it.
fn message(lang: Lang, id: &str) -> Option<String> {
    i18n::has(lang, id).then(|| i18n::text(lang, id, &[]))
}

/// The message id of a command's about: `help-` and the command path.
fn command_id(path: &[&str]) -> String {
    if path.is_empty() {
        "help-fleetdeck".to_string()
    } else {
        format!("help-{}", path.join("-"))
    }
}

/// The message id of an option or argument of the command at `path`.
fn arg_id(path: &[&str], arg: &Arg) -> String {
    let name = arg
        .get_long()
        .map(str::to_string)
        .unwrap_or_else(|| arg.get_id().as_str().replace('_', "-"));
    if path.is_empty() {
        format!("help--{name}")
    } else {
        format!("help-{}--{name}", path.join("-"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command's and option's message id under `cmd`, with clap's English for it.
    fn walk(cmd: &Command, path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
        let p: Vec<&str> = path.iter().map(String::as_str).collect();
        let about = cmd.get_long_about().or(cmd.get_about());
        out.push((
            command_id(&p),
            about.map(|s| s.to_string()).unwrap_or_default(),
        ));
        for arg in cmd.get_arguments() {
            // A flag every command understands is said once, on the binary.
            if path.is_empty() || !arg.is_global_set() {
                let help = arg.get_long_help().or(arg.get_help());
                out.push((
                    arg_id(&p, arg),
                    help.map(|s| s.to_string()).unwrap_or_default(),
                ));
            }
        }
        for sub in cmd.get_subcommands() {
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }

    #[test]
    fn every_command_and_option_has_its_help_in_both_catalogues() {
        let mut all = Vec::new();
        walk(&Cli::command(), &mut Vec::new(), &mut all);
        assert!(all.len() > 100, "{}", all.len());
        let mut problems = Vec::new();
        for (id, english) in &all {
            if english.is_empty() {
                problems.push(format!("{id}: no doc comment"));
            }
            for lang in Lang::ALL {
                if !i18n::has(lang, id) {
                    problems.push(format!("{id}: missing from {lang}/cli_help.ftl"));
                }
            }
            // English --help is clap's from the doc comments; the catalogue says the same.
            let catalogue = i18n::text(Lang::En, id, &[]);
            if i18n::has(Lang::En, id) && &catalogue != english {
                problems.push(format!(
                    "{id}: en/cli_help.ftl says {catalogue:?}, the doc comment {english:?}"
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    fn help(cmd: &mut Command, path: &[&str]) -> String {
        let mut cmd = cmd;
        for name in path {
            cmd = cmd.find_subcommand_mut(name).expect("a subcommand");
        }
        cmd.render_help().to_string()
    }

    #[test]
    fn chinese_help_says_everything_in_chinese() {
        let mut zh = command_in(Lang::ZhCn);
        let root = help(&mut zh, &[]);
        for said in [
            "在一个终端里运维",
            "用法: fleetdeck",
            "命令:\n",
            "选项:\n",
            "打印帮助",
            "台账文件（默认",
            "规划和操作跨集群的发布",
        ] {
            assert!(root.contains(said), "{said:?} missing:\n{root}");
        }
        for english in [
            "Usage:",
            "Commands:",
            "Options:",
            "Print help",
            "Print version",
            "Plan and operate",
            "Aligned columns",
        ] {
            assert!(!root.contains(english), "{english:?} left:\n{root}");
        }
        assert!(root.contains("json（给脚本）"), "{root}");
        let plan = help(&mut zh, &["rollout", "plan"]);
        for said in ["检查发布文件", "参数:\n", "发布文件", "选项:\n", "界面语言"]
        {
            assert!(plan.contains(said), "{said:?} missing:\n{plan}");
        }
        assert!(!plan.contains("Arguments:"), "{plan}");
    }

    #[test]
    fn english_help_is_clap_s_own() {
        let render = |mut cmd: Command| {
            cmd.build();
            let mut plan = cmd.clone();
            let plan = plan
                .find_subcommand_mut("rollout")
                .and_then(|r| r.find_subcommand_mut("plan"))
                .map(|p| p.render_long_help().to_string());
            (cmd.render_help().to_string(), plan)
        };
        assert_eq!(render(command_in(Lang::En)), render(Cli::command()));
    }

    #[test]
    fn the_language_flag_is_read_before_parsing() {
        let args = |a: &[&str]| -> Vec<OsString> { a.iter().map(OsString::from).collect() };
        assert_eq!(
            flag_value(&args(&["fleetdeck", "--lang", "zh-CN", "--help"]), "--lang").as_deref(),
            Some("zh-CN")
        );
        assert_eq!(
            flag_value(
                &args(&["fleetdeck", "rollout", "--lang=en", "-h"]),
                "--lang"
            )
            .as_deref(),
            Some("en")
        );
        assert_eq!(
            flag_value(&args(&["fleetdeck", "--", "--lang", "zh-CN"]), "--lang"),
            None
        );
        assert_eq!(
            flag_value(&args(&["fleetdeck", "--language", "x"]), "--lang"),
            None
        );
    }
}
