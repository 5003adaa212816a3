//! The language of the binary: chosen by `--lang`, `FLEETDECK_LANG`, `language` in
//! config.toml or the locale; an unknown name is refused naming the supported ones; and
//! what scripts read (`-o json`) is the same whatever the language.

use crate::support::cli::{command, text};

/// `fleetdeck ARGS` in `dir` with the environment's language variables set as given.
fn with_env(args: &[&str], dir: &std::path::Path, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = command(args, dir);
    for name in ["LC_ALL", "LC_MESSAGES", "LANG", "FLEETDECK_LANG"] {
        cmd.env_remove(name);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

#[test]
fn an_unknown_language_is_refused_naming_the_supported_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (args, env) in [
        (vec!["--lang", "fr", "config", "paths"], vec![]),
        (vec!["config", "paths"], vec![("FLEETDECK_LANG", "klingon")]),
    ] {
        let out = with_env(&args, dir.path(), &env);
        assert!(!out.status.success(), "{args:?} {env:?}: {}", text(&out));
        assert!(
            text(&out).contains("supported are en, zh-CN"),
            "{args:?} {env:?}: {}",
            text(&out)
        );
    }
    // A locale the interface does not speak is not an error: it means English.
    let out = with_env(&["config", "paths"], dir.path(), &[("LANG", "fr_FR.UTF-8")]);
    assert!(out.status.success(), "{}", text(&out));
    // `language` in config.toml is read, and refused when unknown.
    std::fs::write(dir.path().join("config.toml"), "language = \"xx\"\n").expect("write");
    let out = with_env(&["config", "paths"], dir.path(), &[]);
    assert!(
        text(&out).contains("unknown language \"xx\""),
        "{}",
        text(&out)
    );
}

/// `handover -o json` without its clock line (`"now"`, the instant it was built).
fn handover_json(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut all = vec![
        "handover",
        "-o",
        "json",
        "--wait-synced",
        "0s",
        "--since",
        "2026-01-01T00:00:00Z",
    ];
    all.extend(args);
    let out = with_env(&all, dir, env);
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"now\":"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn json_is_the_same_in_every_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let en = handover_json(dir.path(), &["--lang", "en"], &[]);
    assert!(en.contains("\"notChecked\""), "{en}");
    let zh = handover_json(dir.path(), &["--lang", "zh-CN"], &[]);
    let locale = handover_json(dir.path(), &[], &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(en, zh);
    assert_eq!(en, locale);
}
