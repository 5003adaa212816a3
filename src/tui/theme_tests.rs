use super::*;

#[test]
fn builtin_themes_fill_every_slot_without_warnings() {
    for (name, _) in BUILTIN_THEMES {
        let (theme, warnings) = Theme::load(name, None, false);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(theme.name, *name);
        for (slot, slot_name) in Slot::ALL {
            assert_ne!(
                theme.style(slot),
                Style::new(),
                "{name}: slot {slot_name} unset"
            );
        }
        assert_ne!(
            theme.accent("production"),
            theme.accent("staging"),
            "{name}"
        );
        assert_ne!(theme.accent("production"), Color::Reset, "{name}");
    }
}

#[test]
fn user_override_changes_only_the_named_slots() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("themes")).unwrap();
    std::fs::write(
        dir.path().join("themes/dark.toml"),
        "[slots]\nok = \"#00ff00\"\n[env]\nproduction = \"magenta\"\n",
    )
    .unwrap();
    let (theme, warnings) = Theme::load("dark", Some(dir.path()), false);
    assert!(warnings.is_empty(), "{warnings:?}");
    let dark = Theme::builtin_dark();
    assert_eq!(theme.style(Slot::Ok).fg, Some(Color::Rgb(0, 255, 0)));
    assert_eq!(theme.style(Slot::Warn), dark.style(Slot::Warn));
    assert_eq!(theme.accent("production"), Color::Magenta);
    assert_eq!(theme.accent("staging"), dark.accent("staging"));
    assert_eq!(theme.accent("lab"), dark.accent("anything-unnamed"));
}

#[test]
fn bad_colours_and_unknown_slots_are_warnings_with_lines() {
    let mut theme = Theme::builtin_dark();
    let mut warnings = Vec::new();
    theme.apply(
        "[slots]\nok = \"#00ff00\"\nsparkle = \"red\"\nwarn = { fg = \"not-a-colour\" }\n[env]\nproduction = \"#12\"\n",
        "mine.toml",
        &mut warnings,
    );
    let got: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(got.len(), 3, "{got:#?}");
    assert!(
        got[0].starts_with("mine.toml:3: unknown slot \"sparkle\""),
        "{got:?}"
    );
    assert!(
        got[1].starts_with("mine.toml:4: slot \"warn\": \"not-a-colour\""),
        "{got:?}"
    );
    assert!(
        got[2].starts_with("mine.toml:6: env \"production\""),
        "{got:?}"
    );
    assert_eq!(theme.style(Slot::Ok).fg, Some(Color::Rgb(0, 255, 0)));
}

#[test]
fn broken_or_missing_files_fall_back_to_dark() {
    let mut theme = Theme::builtin_dark();
    let mut warnings = Vec::new();
    theme.apply("[slots\nok=", "x.toml", &mut warnings);
    assert_eq!(warnings.len(), 1);
    assert_eq!(theme, Theme::builtin_dark());
    let (theme, warnings) = Theme::load("solarized", None, false);
    assert_eq!(theme.name, "dark");
    assert!(
        warnings[0]
            .message
            .text(crate::i18n::Lang::En)
            .contains("no theme named \"solarized\"")
    );
    let (_, warnings) = Theme::load("/nonexistent/t.toml", None, false);
    assert!(
        warnings[0]
            .message
            .text(crate::i18n::Lang::En)
            .contains("not found")
    );
}

#[test]
fn no_color_strips_colours_but_keeps_meaning() {
    assert!(no_color_requested(Some("1".into())));
    assert!(!no_color_requested(Some("".into())));
    assert!(!no_color_requested(None));
    let (theme, _) = Theme::load("dark", None, true);
    assert!(theme.monochrome);
    for (slot, name) in Slot::ALL {
        let style = theme.style(slot);
        assert_eq!((style.fg, style.bg), (None, None), "{name}");
    }
    assert!(
        theme
            .style(Slot::Selection)
            .add_modifier
            .contains(Modifier::REVERSED)
    );
    assert!(
        theme
            .style(Slot::Unknown)
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    assert_eq!(theme.accent("production"), Color::Reset);
    assert_ne!(theme.style(Slot::Ok), theme.style(Slot::Unknown));
}

#[test]
fn the_light_theme_paints_its_own_background_everywhere() {
    // On a dark terminal a theme without a background would be dark text on dark: every
    // cell of every screen and overlay has the light theme's background (or a slot's
    // own, such as the header's and the selection's).
    let (light, warnings) = Theme::load("light", None, false);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut app = crate::fixtures::console::app_with(light);
    app.config.readonly = false;
    crate::fixtures::console::with_journal(&mut app, crate::fixtures::console::journal_events());
    for keys in [
        "", "enter", "?", "esc 3", "a", "esc 4", "h", "esc 5", "2", ":",
    ] {
        crate::tui::tests::press(&mut app, keys);
        let buf = crate::tui::view::render_to_buffer(&app, 120, 40);
        let bare = buf
            .content()
            .iter()
            .filter(|c| c.bg == Color::Reset)
            .count();
        assert_eq!(bare, 0, "after {keys:?}: {bare} cells without a background");
    }
}
