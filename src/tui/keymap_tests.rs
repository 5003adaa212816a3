use super::*;

fn key(text: &str) -> KeyChord {
    KeyChord::parse(text).unwrap()
}

#[test]
fn parses_keys_and_folds_shift_into_characters() {
    assert_eq!(key("Q"), key("shift-q"));
    assert_eq!(key("ctrl-c").mods, KeyModifiers::CONTROL);
    assert_eq!(key("space").code, KeyCode::Char(' '));
    assert_eq!(key("shift-tab").code, KeyCode::BackTab);
    assert_eq!(key("f5").code, KeyCode::F(5));
    assert_eq!(key("-").code, KeyCode::Char('-'));
    assert!(KeyChord::parse("hyper-x").is_err());
    assert!(KeyChord::parse("f13").is_err());
    let event = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(KeyChord::from_event(&event), key("G"));
    assert_eq!(key("ctrl-c").to_string(), "ctrl-c");
    assert_eq!(key("space").to_string(), "space");
}

#[test]
fn builtin_keymaps_load_without_warnings() {
    for (name, _) in BUILTIN_KEYMAPS {
        let (map, warnings) = Keymap::load(name, None);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(map.lookup(Context::Ledger, key("q")), Some(Action::Quit));
        assert_eq!(map.lookup(Context::Ledger, key("j")), Some(Action::Down));
        assert_eq!(
            map.lookup(Context::Ledger, key("s")),
            Some(Action::SortNext)
        );
        assert_eq!(map.lookup(Context::Capacity, key("s")), None);
    }
    let (vim, _) = Keymap::load("vim", None);
    assert_eq!(
        vim.lookup(Context::Cluster, key("h")),
        Some(Action::HistoryBack)
    );
    assert_eq!(
        vim.lookup(Context::Cluster, key("ctrl-d")),
        Some(Action::PageDown)
    );
}

#[test]
fn every_action_has_a_default_key() {
    let (map, _) = Keymap::load("default", None);
    for (action, name) in crate::tui::action::ACTIONS {
        let bound = Context::ALL
            .iter()
            .any(|ctx| map.bindings(*ctx).iter().any(|b| b.action == *action));
        assert!(bound, "{name} has no key in default.toml");
    }
}

#[test]
fn user_file_overrides_a_few_keys_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(USER_KEYMAP_FILE),
        "[[global]]\non = \"x\"\nrun = \"quit\"\n\n[[global]]\non = \"q\"\nrun = \"none\"\n\n[[list]]\non = \"j\"\nrun = \"up\"\ndesc = \"mine\"\n",
    )
    .unwrap();
    let (map, warnings) = Keymap::load("default", Some(dir.path()));
    // The new global `x` is hidden where a screen binds `x` itself: said, with the line.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].line, 2);
    assert!(
        warnings[0]
            .message
            .text(crate::i18n::Lang::En)
            .contains("key x in [capacity] (\"whatif.clear\") hides the global binding \"quit\""),
        "{warnings:?}"
    );
    assert_eq!(map.lookup(Context::Ledger, key("x")), Some(Action::Quit));
    assert_eq!(map.lookup(Context::Ledger, key("q")), None, "unbound");
    assert_eq!(map.lookup(Context::Ledger, key("j")), Some(Action::Up));
    assert_eq!(
        map.lookup(Context::Ledger, key("k")),
        Some(Action::Up),
        "kept"
    );
    let j = map
        .bindings(Context::List)
        .iter()
        .find(|b| b.key == key("j"));
    assert_eq!(j.map(|b| b.desc.as_str()), Some("mine"));
}

#[test]
fn unknown_actions_bad_keys_and_conflicts_are_warnings_with_lines() {
    let text = "[[global]]\non = \"z\"\nrun = \"explode\"\n\n[[global]]\non = \"hyper-x\"\nrun = \"quit\"\n\n[[list]]\non = \"a\"\nrun = \"up\"\n\n[[list]]\non = \"a\"\nrun = \"down\"\n\n[[ledger]]\non = \"?\"\nrun = \"quit\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(USER_KEYMAP_FILE);
    std::fs::write(&path, text).unwrap();
    let (map, warnings) = Keymap::load("default", Some(dir.path()));
    let file = path.display().to_string();
    let lines: Vec<(usize, String)> = warnings
        .iter()
        .map(|w| {
            assert_eq!(w.file, file);
            (w.line, w.message.text(crate::i18n::Lang::En))
        })
        .collect();
    assert_eq!(lines.len(), 4, "{warnings:#?}");
    assert_eq!(lines[0].0, 3);
    assert!(lines[0].1.starts_with("unknown action \"explode\""));
    assert_eq!(lines[1].0, 6);
    assert!(lines[1].1.starts_with("unknown key \"hyper-x\""));
    assert_eq!(lines[2].0, 14);
    assert!(
        lines[2]
            .1
            .contains("bound twice in [list] (lines 10 and 14)")
    );
    assert_eq!(lines[3].0, 18);
    assert!(lines[3].1.contains("hides the global binding \"help\""));
    assert_eq!(map.lookup(Context::Cluster, key("a")), Some(Action::Down));
    assert!(warnings[0].to_string().starts_with(&format!("{file}:3: ")));
}

#[test]
fn broken_files_are_warnings_and_defaults_stay() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(USER_KEYMAP_FILE), "[[global]\non = ").unwrap();
    let (map, warnings) = Keymap::load("default", Some(dir.path()));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, 1);
    assert!(
        warnings[0]
            .message
            .text(crate::i18n::Lang::En)
            .ends_with("the whole file is ignored")
    );
    assert_eq!(map.lookup(Context::Ledger, key("q")), Some(Action::Quit));
    let (_, warnings) = Keymap::load("emacs", None);
    assert!(
        warnings[0]
            .message
            .text(crate::i18n::Lang::En)
            .contains("no built-in keymap named \"emacs\"")
    );
    let (_, warnings) = Keymap::parse(
        "[[global]]\non = \"q\"\nrun = \"quit\"\nwhen = 1\n",
        "k.toml",
    );
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, 4, "{warnings:?}");
}

#[test]
fn the_vim_keymap_walks_history_with_h_everywhere_without_conflicts() {
    let (map, warnings) = Keymap::load("vim", None);
    assert!(warnings.is_empty(), "{warnings:?}");
    for ctx in Context::ALL {
        if ctx == Context::Global {
            continue;
        }
        assert_eq!(
            map.lookup(ctx, key("h")),
            Some(Action::HistoryBack),
            "{ctx:?}"
        );
    }
    assert_eq!(
        map.lookup(Context::Maintenance, key("O")),
        Some(Action::HandOff)
    );
}

#[test]
fn help_for_mark_says_it_also_moves_down() {
    // Space marks the row and moves the cursor down; the help must say both.
    for (name, _) in BUILTIN_KEYMAPS {
        let (map, _) = Keymap::load(name, None);
        let marks: Vec<String> = Context::ALL
            .iter()
            .flat_map(|ctx| map.bindings(*ctx))
            .filter(|b| b.action == Action::Mark)
            .map(|b| b.desc.clone())
            .collect();
        assert!(!marks.is_empty(), "{name}");
        for desc in marks {
            assert!(desc.contains("move down"), "{name}: {desc:?}");
        }
    }
    let default = Action::Mark.description(crate::i18n::Lang::En);
    assert!(default.contains("move down"), "{default}");
}
