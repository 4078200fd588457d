//! Themes: the built-ins load, NO_COLOR picks the colourless one unless `--theme`
//! says otherwise, a user file overlays a built-in, and a bad file is reported while
//! the default theme carries on.

use ratatui::style::{Color, Modifier};
use resume_tui::tui::theme::{BUILT_IN, Theme, resolve};

fn no_file(_: &str) -> std::io::Result<String> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "no such file",
    ))
}

#[test]
fn every_built_in_theme_loads_and_sets_every_style_it_names() {
    for (name, text) in BUILT_IN {
        let theme = Theme::built_in(name).unwrap_or_else(|| panic!("{name} does not load"));
        let (from_text, problem) =
            Theme::from_file_text(&format!("extends = \"{name}\"\n"), "x.toml");
        assert_eq!(problem, None);
        assert_eq!(from_text.selected, theme.selected, "{name}");
        for style in Theme::STYLE_NAMES {
            assert!(
                text.contains(&format!("\n{style} = ")),
                "{name} does not set {style}"
            );
        }
    }
}

#[test]
fn the_no_color_theme_has_no_colours_and_still_marks_selection() {
    let theme = Theme::no_color();
    assert!(theme.series.is_empty());
    for style in [
        theme.fresh,
        theme.stale,
        theme.critical,
        theme.unacked,
        theme.error,
        theme.ok,
        theme.selected,
        theme.tab_active,
    ] {
        assert_eq!((style.fg, style.bg), (None, None), "{style:?}");
    }
    assert!(theme.selected.add_modifier.contains(Modifier::REVERSED));
}

#[test]
fn no_color_wins_over_the_config_but_not_over_the_command_line() {
    let (theme, problem) = resolve(None, "light", true, no_file);
    assert_eq!((theme.name.as_str(), problem), ("no-color", None));
    let (theme, _) = resolve(Some("high-contrast"), "light", true, no_file);
    assert_eq!(theme.name, "high-contrast");
    let (theme, _) = resolve(None, "light", false, no_file);
    assert_eq!(theme.name, "light");
}

#[test]
fn a_user_theme_file_overlays_fields_of_a_built_in() {
    let text = "extends = \"light\"\nseries = [\"#112233\"]\n\n[styles]\nfresh = { fg = \"#00ff00\", bold = true }\n";
    let (theme, problem) = resolve(Some("/home/op/mine.toml"), "default", false, |path| {
        assert_eq!(path, "/home/op/mine.toml");
        Ok(text.to_string())
    });
    assert_eq!(problem, None);
    let light = Theme::built_in("light").unwrap();
    assert_eq!(theme.fresh.fg, Some(Color::Rgb(0, 255, 0)));
    assert!(theme.fresh.add_modifier.contains(Modifier::BOLD));
    assert_eq!(
        theme.stale, light.stale,
        "untouched styles come from the base"
    );
    assert_eq!(theme.series, [Color::Rgb(0x11, 0x22, 0x33)]);
}

#[test]
fn bad_theme_files_are_reported_with_file_and_line_and_the_default_carries_on() {
    let default = Theme::default_dark();
    let cases = [
        ("[styles\n", "t.toml:1:"),
        (
            "[styles]\ncolour = { fg = \"red\" }\n",
            "styles.colour: unknown style",
        ),
        (
            "[styles]\nfresh = { fg = \"no-such-colour\" }\n",
            "not a colour",
        ),
        ("[styles]\nfresh = { blink = true }\n", "unknown attribute"),
        ("extends = \"sepia\"\n", "no such built-in theme"),
        ("palette = 3\n", "unknown key"),
    ];
    for (text, expected) in cases {
        let (theme, problem) = Theme::from_file_text(text, "t.toml");
        let problem = problem.unwrap_or_else(|| panic!("{text:?} accepted"));
        assert!(problem.contains(expected), "{text:?}: {problem}");
        assert_eq!(theme, default, "{text:?}");
    }
    let (theme, problem) = resolve(Some("missing.toml"), "default", false, no_file);
    assert!(problem.unwrap().contains("missing.toml"));
    assert_eq!(theme, default);
}
