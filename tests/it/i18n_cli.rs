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

/// The report without its span line (`From … to …`: the second is the clock).
fn without_span(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("From ") && !l.starts_with("从 "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_markdown_handover_speaks_chinese_and_english_is_unchanged() {
    use crate::handover_cli::{as_on, stuck_drain, test_journal};
    let dir = tempfile::tempdir().expect("tempdir");
    let journal = test_journal(crate::support::backend::Backend::Sqlite, dir.path());
    stuck_drain(&journal);
    let run = |lang: &[&str]| {
        let mut args = lang.to_vec();
        args.extend(["handover", "-o", "markdown", "--wait-synced", "0s"]);
        let out = as_on(&journal, "carol@ops", &args, dir.path());
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let zh = run(&["--lang", "zh-CN"]);
    for said in [
        "# 交接班\n",
        "\n从 ",
        " · 1 项\n",
        "\n## 未核对\n\n- ",
        "\n## 卡住的步骤\n\n",
        "- **mnt-reboot-1 中 n1 的 Drain 卡住**\n",
        "  - 原因：PDB checkout-blocking needs 3 healthy pods and has 3 (shop/checkout-0)\n",
        "  - 集群：prod-use1-01\n",
        "  - 已卡住 ",
    ] {
        assert!(zh.contains(said), "{said:?} missing:\n{zh}");
    }
    assert!(!zh.contains("## Stuck steps"), "{zh}");
    let en = run(&[]);
    for said in [
        "# Shift handover\n\nFrom ",
        " · 1 item(s)\n",
        "\n## Stuck steps\n\n- **n1 Drain stuck in mnt-reboot-1**\n  - stuck for ",
        "  - why: PDB checkout-blocking needs 3 healthy pods and has 3 (shop/checkout-0)\n  - cluster: prod-use1-01\n",
    ] {
        assert!(en.contains(said), "{said:?} missing:\n{en}");
    }
    assert_eq!(without_span(&en), without_span(&run(&["--lang", "en"])));
}

#[test]
fn ledger_validate_speaks_the_locales_language_at_the_same_positions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ledger.yaml"),
    )
    .expect("the example ledger");
    let text = example.replacen("- id: cn-sh-prod-02", "- id: cn-sh-prod-01", 1);
    std::fs::write(dir.path().join("BAD.yaml"), text).expect("write");
    let args = ["ledger", "validate", "BAD.yaml"];
    let en = with_env(&args, dir.path(), &[]);
    let zh = with_env(&args, dir.path(), &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(en.status.code(), Some(1));
    assert_eq!(zh.status.code(), Some(1), "the exit code is the same");
    let (en, zh) = (
        String::from_utf8_lossy(&en.stdout).into_owned(),
        String::from_utf8_lossy(&zh.stdout).into_owned(),
    );
    assert!(
        en.contains(
            "BAD.yaml:48:9: duplicate cluster id \"cn-sh-prod-01\" (first defined at 11:9)\n"
        ),
        "{en}"
    );
    assert!(
        zh.contains("BAD.yaml:48:9: 重复的集群 ID“cn-sh-prod-01”（首次定义于 11:9）\n"),
        "{zh}"
    );
    assert!(zh.contains("BAD.yaml：1 个错误"), "{zh}");
    // Every line keeps its position: the same prefixes, in the same order.
    let prefixes = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.split_once(": ").map(|(p, _)| p.to_string()))
            .filter(|p| p.starts_with("BAD.yaml:"))
            .collect()
    };
    assert_eq!(prefixes(&en), prefixes(&zh));
    // JSON is the same in both.
    let json = |env: &[(&str, &str)]| {
        with_env(
            &["ledger", "validate", "BAD.yaml", "-o", "json"],
            dir.path(),
            env,
        )
        .stdout
    };
    assert_eq!(json(&[]), json(&[("LANG", "zh_CN.UTF-8")]));
}

#[test]
fn ledger_show_heads_its_columns_in_chinese_aligned_by_cells() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ledger.yaml");
    let show = |lang: &str| {
        let out = with_env(
            &["--lang", lang, "--ledger", ledger, "ledger", "show"],
            dir.path(),
            &[],
        );
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let zh = show("zh-CN");
    let en = show("en");
    assert!(
        en.starts_with("ID                ENV         REGION      FAILURE-DOMAIN  TIER"),
        "{en}"
    );
    let head = zh.lines().next().unwrap_or_default();
    assert!(
        head.starts_with("ID                环境        区域        故障域"),
        "{zh}"
    );
    // The rows under it are the English rows' cells, only the padding differs.
    let cells = |s: &str| -> Vec<Vec<String>> {
        s.lines()
            .skip(1)
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    };
    assert_eq!(cells(&en), cells(&zh));
}

#[test]
fn network_overlaps_and_rollout_file_errors_speak_chinese_at_their_positions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/ledger.yaml")).expect("ledger");
    // The second cluster's pod network inside the first's.
    let text = example.replacen("podCIDR: 10.4.0.0/14", "podCIDR: 10.2.0.0/16", 1);
    std::fs::write(dir.path().join("NET.yaml"), text).expect("write");
    let args = ["ledger", "validate", "NET.yaml"];
    let en = with_env(&args, dir.path(), &[]);
    let zh = with_env(&args, dir.path(), &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(
        en.status.code(),
        zh.status.code(),
        "the exit code is the same"
    );
    let (en, zh) = (
        String::from_utf8_lossy(&en.stdout).into_owned(),
        String::from_utf8_lossy(&zh.stdout).into_owned(),
    );
    assert!(
        en.contains("NET.yaml:70:16: podCIDR 10.2.0.0/16 overlaps podCIDR 10.0.0.0/14 of cluster"),
        "{en}"
    );
    assert!(
        zh.contains("NET.yaml:70:16: podCIDR 10.2.0.0/16 与集群“")
            && zh.contains("”的 podCIDR 10.0.0.0/14 重叠（位于 33:16）"),
        "{zh}"
    );
    // A rollout file's own rule, read by `rollout plan`: on standard error, same prefix.
    let rollout = std::fs::read_to_string(root.join("examples/rollout.yaml")).expect("rollout");
    let rollout = rollout.replacen(
        "    batchSize: 1\n",
        "    batchSize: 1\n    percent: 10\n",
        1,
    );
    std::fs::write(dir.path().join("R.yaml"), rollout).expect("write");
    std::fs::copy(
        root.join("examples/ledger.yaml"),
        dir.path().join("ledger.yaml"),
    )
    .expect("copy");
    let args = ["rollout", "plan", "R.yaml", "--ledger", "ledger.yaml"];
    let en = with_env(&args, dir.path(), &[]);
    let zh = with_env(&args, dir.path(), &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(
        en.status.code(),
        zh.status.code(),
        "the exit code is the same"
    );
    let (en, zh) = (
        String::from_utf8_lossy(&en.stderr).into_owned(),
        String::from_utf8_lossy(&zh.stderr).into_owned(),
    );
    let line = |s: &str, needle: &str| {
        s.lines()
            .find(|l| l.contains(needle))
            .map(|l| l.split_once(": ").map(|(p, _)| p.to_string()))
    };
    assert!(
        en.contains("a stage takes either `count` or `percent`, not both"),
        "{en}"
    );
    assert!(
        zh.contains("阶段只能取 `count` 或 `percent` 之一，不能两者都有"),
        "{zh}"
    );
    assert!(zh.contains("R.yaml：1 个错误"), "{zh}");
    assert_eq!(
        line(&en, "`count` or `percent`"),
        line(&zh, "`count` 或 `percent`"),
        "the same position"
    );
}
