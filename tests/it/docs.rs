//! The documentation names only what exists: every `fleetdeck` command and flag that the
//! README and `docs/*.md` write in code (inline or in blocks) is asked of the real binary's
//! `--help`, level by level, and every key they write in code is bound in a keymap of
//! `keymaps/` (or is the name of an action). A renamed flag or an unbound key fails here
//! with the page and the text that names it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one `--help` says: the subcommands and the flags (with whether each takes a value).
#[derive(Default)]
struct Help {
    commands: BTreeSet<String>,
    flags: BTreeMap<String, bool>,
}

/// The binary's help for each command path, asked once.
struct Cli {
    cache: BTreeMap<Vec<String>, Help>,
}

impl Cli {
    fn help(&mut self, path: &[String]) -> &Help {
        self.cache.entry(path.to_vec()).or_insert_with(|| {
            let output = Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
                .args(path)
                .arg("--help")
                .env("NO_COLOR", "1")
                // The English help: the pages name English headings.
                .env_remove("LC_ALL")
                .env_remove("LC_MESSAGES")
                .env_remove("LANG")
                .env_remove("FLEETDECK_LANG")
                .output()
                .expect("the binary runs");
            assert!(
                output.status.success(),
                "fleetdeck {} --help failed",
                path.join(" ")
            );
            parse_help(&String::from_utf8_lossy(&output.stdout))
        })
    }
}

fn parse_help(text: &str) -> Help {
    let mut help = Help::default();
    let mut in_commands = false;
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_commands = true;
            continue;
        }
        if !line.starts_with(' ') && !line.is_empty() {
            in_commands = false;
        }
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if in_commands && indent == 2 {
            if let Some(name) = trimmed.split_whitespace().next() {
                help.commands.insert(name.to_string());
            }
            continue;
        }
        if trimmed.starts_with('-') {
            // `-o, --output <FMT>`, `--readonly`, `-h, --help`
            let spec = trimmed.split("  ").next().unwrap_or(trimmed);
            let takes_value = spec.contains('<');
            for part in spec.split([',', ' ']) {
                if part.starts_with('-') {
                    help.flags.insert(part.to_string(), takes_value);
                }
            }
        }
    }
    help
}

/// Every page of the documentation, with its text.
fn pages() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![root.join("README.md")];
    let relative = |p: &Path| p.strip_prefix(root).unwrap_or(p).to_path_buf();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("page readable");
            (relative(&p), text)
        })
        .collect()
}

/// The code of a page: inline spans and the lines of fenced blocks.
fn code(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match block.take() {
                Some(lines) => out.extend(block_commands(&lines)),
                None => block = Some(Vec::new()),
            }
            continue;
        }
        if let Some(lines) = block.as_mut() {
            lines.push(line.to_string());
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let Some(span) = parts.next() {
            out.push(span.to_string());
            parts.next();
        }
    }
    out
}

/// A block's lines; in the CLI reference's synopsis (a block starting `fleetdeck [GLOBAL
/// FLAGS]`), each indented line is a command or flag of `fleetdeck`, its description
/// after two spaces.
fn block_commands(lines: &[String]) -> Vec<String> {
    let synopsis = lines
        .first()
        .is_some_and(|l| l.starts_with("fleetdeck [GLOBAL FLAGS]"));
    if !synopsis {
        return lines.to_vec();
    }
    lines
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| {
            let usage = l.trim_start().split("  ").next().unwrap_or_default();
            format!("fleetdeck {usage}")
        })
        .collect()
}

/// Checks the `fleetdeck …` invocations in `code`; what does not exist, one line each.
fn check_commands(cli: &mut Cli, code: &str, problems: &mut Vec<String>) {
    for (at, _) in code.match_indices("fleetdeck") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '.') {
            continue;
        }
        let rest = &code[at + "fleetdeck".len()..];
        if !rest.starts_with(' ') {
            continue; // `fleetdeck/<version>`, `fleetdeck.dev/v1`
        }
        check_invocation(cli, rest, problems, code);
    }
    // `cargo run --release -- demo …`
    if let Some((_, rest)) = code.split_once("cargo run --release --") {
        check_invocation(cli, rest, problems, code);
    }
}

fn check_invocation(cli: &mut Cli, rest: &str, problems: &mut Vec<String>, code: &str) {
    let mut path: Vec<String> = Vec::new();
    let mut descending = true;
    let mut skip_value = false;
    for raw in rest.split_whitespace() {
        if raw.starts_with('#') || raw == "&" || raw == "|" || raw == ">" || raw == "&&" {
            break; // a comment or the shell's business
        }
        let token = raw.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')' | ',' | ';' | '.'));
        if token.is_empty() || token.starts_with('<') || token.contains('…') {
            continue;
        }
        if skip_value {
            skip_value = false;
            continue;
        }
        if token.starts_with('-') && token.len() > 1 {
            // `--all|--cluster`: alternatives, each a flag.
            for flag in token.split('|').map(|f| f.split('=').next().unwrap_or(f)) {
                let found = cli.help(&path).flags.get(flag).copied();
                match found {
                    Some(takes_value) => skip_value = takes_value && !token.contains('='),
                    None => problems.push(format!(
                        "`fleetdeck {}` has no flag {flag} (in `{code}`)",
                        path.join(" ")
                    )),
                }
            }
            continue;
        }
        if !descending {
            continue;
        }
        let alternatives: Vec<&str> = token.split('|').collect();
        let commands = &cli.help(&path).commands;
        let Some(known) = alternatives.iter().find(|a| commands.contains(**a)) else {
            descending = false; // an argument (FILE, ID, a shell name…)
            continue;
        };
        let known = known.to_string();
        for other in &alternatives {
            if !commands.contains(*other) {
                problems.push(format!(
                    "`fleetdeck {}` has no subcommand {other} (in `{code}`)",
                    path.join(" ")
                ));
            }
        }
        path.push(known);
    }
}

/// Names of keys as keymaps write them.
const NAMED_KEYS: &[&str] = &[
    "esc",
    "enter",
    "tab",
    "space",
    "backspace",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "shift-tab",
    "delete",
];

/// Whether a code span is a key: one printable character (a letter, a digit from 1, or one
/// of the punctuation keys), a named key, or `ctrl-…`/`shift-…`. A lone `0` is a value in
/// these pages (a count, a replica setting), never a key.
fn is_key(span: &str) -> bool {
    let mut chars = span.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => (c.is_ascii_alphanumeric() && c != '0') || "[]?:/".contains(c),
        _ => NAMED_KEYS.contains(&span) || span.starts_with("ctrl-") || span.starts_with("shift-"),
    }
}

/// Keys bound in any keymap, and every action name.
fn bound_keys() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("keymaps");
    let mut keys = BTreeSet::new();
    for entry in std::fs::read_dir(dir).expect("keymaps/") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("keymap readable");
        for line in text.lines() {
            for field in ["on = ", "run = "] {
                if let Some(value) = line.trim().strip_prefix(field) {
                    keys.insert(value.trim_matches('"').to_string());
                }
            }
        }
    }
    keys
}

/// Keys handled where no keymap applies (they are written as they are: a dialog's
/// confirmation, the filter line, the palette, the handover walkthrough), as `src/tui`
/// reads them.
fn fixed_keys() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut keys = BTreeSet::new();
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).expect("src/tui") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source readable");
        for (at, _) in text.match_indices("KeyCode::Char('") {
            let rest = &text[at + "KeyCode::Char('".len()..];
            if let Some(c) = rest.chars().next()
                && rest[c.len_utf8()..].starts_with('\'')
            {
                keys.insert(c.to_string());
            }
        }
        for (name, code) in [
            ("enter", "KeyCode::Enter"),
            ("esc", "KeyCode::Esc"),
            ("tab", "KeyCode::Tab"),
            ("shift-tab", "KeyCode::BackTab"),
            ("backspace", "KeyCode::Backspace"),
        ] {
            if text.contains(code) {
                keys.insert(name.to_string());
            }
        }
    }
    keys
}

#[test]
fn every_command_and_flag_the_docs_name_exists() {
    let mut cli = Cli {
        cache: BTreeMap::new(),
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, text) in pages() {
        for code in code(&text) {
            let before = problems.len();
            if code.contains("fleetdeck") || code.contains("cargo run --release --") {
                checked += 1;
            }
            check_commands(&mut cli, &code, &mut problems);
            for problem in &mut problems[before..] {
                *problem = format!("{}: {problem}", path.display());
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} invocations found: is the parser blind?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_key_the_docs_name_is_bound() {
    let bound = bound_keys();
    let fixed = fixed_keys();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, text) in pages() {
        for code in code(&text) {
            if !is_key(&code) {
                continue;
            }
            checked += 1;
            if !bound.contains(&code) && !fixed.contains(&code) {
                problems.push(format!("{}: key `{code}` is bound nowhere", path.display()));
            }
        }
    }
    assert!(
        checked > 30,
        "only {checked} keys found: is the parser blind?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_help_parser_reads_commands_and_flags() {
    let help = parse_help(
        "Usage: x\n\nCommands:\n  ledger    Read it\n  help      Print\n\nOptions:\n  -o, --output <FMT>\n          Output\n      --readonly\n",
    );
    assert_eq!(
        help.commands,
        BTreeSet::from(["ledger".into(), "help".into()])
    );
    assert_eq!(help.flags.get("-o"), Some(&true));
    assert_eq!(help.flags.get("--output"), Some(&true));
    assert_eq!(help.flags.get("--readonly"), Some(&false));
}
