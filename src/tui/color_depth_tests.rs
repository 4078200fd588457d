use super::*;

#[test]
fn the_depth_comes_from_colorterm_and_term() {
    use ColorDepth::{Ansi16, Ansi256, TrueColor};
    let cases = [
        (Some("truecolor"), Some("xterm-256color"), false, TrueColor),
        (Some("24bit"), Some("xterm"), false, TrueColor),
        (None, Some("xterm-direct"), false, TrueColor),
        (None, Some("xterm-256color"), false, Ansi256),
        (None, Some("tmux-256color"), false, Ansi256),
        (
            Some("truecolor"),
            Some("screen.xterm-256color"),
            true,
            Ansi256,
        ),
        (Some("truecolor"), Some("screen"), true, Ansi16),
        (None, Some("screen"), true, Ansi16),
        (None, Some("linux"), false, Ansi16),
        (None, Some("xterm"), false, Ansi16),
        (Some("truecolor"), Some("dumb"), false, ColorDepth::None),
        (None, Some("vt100"), false, ColorDepth::None),
        (None, None, false, ColorDepth::None),
    ];
    for (colorterm, term, in_screen, want) in cases {
        assert_eq!(
            ColorDepth::detect(colorterm, term, in_screen),
            want,
            "COLORTERM={colorterm:?} TERM={term:?} screen={in_screen}"
        );
    }
}

#[test]
fn the_config_names_a_depth_or_auto() {
    assert_eq!(ColorDepth::parse("auto"), Ok(None));
    assert_eq!(ColorDepth::parse(" 256 "), Ok(Some(ColorDepth::Ansi256)));
    assert_eq!(ColorDepth::parse("None"), Ok(Some(ColorDepth::None)));
    let err = ColorDepth::parse("lots").unwrap_err();
    assert!(err.contains("ui.colors") && err.contains("lots"), "{err}");
}

#[test]
fn the_light_theme_keeps_its_meaning_in_16_colours() {
    let theme = adapt(Theme::built_in("light").unwrap(), ColorDepth::Ansi16);
    assert_eq!(theme.fresh.fg, Some(Color::Green));
    assert_eq!(theme.ok.fg, Some(Color::Green));
    assert_eq!(theme.critical.fg, Some(Color::Red));
    assert_eq!(theme.stale.fg, Some(Color::Yellow));
    assert_eq!(theme.unacked.fg, Some(Color::Magenta));
    let selected = theme.selected.bg.unwrap();
    assert!(
        matches!(selected, Color::Gray | Color::White),
        "a light selection background: {selected:?}"
    );
}

#[test]
fn the_selected_row_keeps_a_background_at_every_depth() {
    for depth in [ColorDepth::Ansi256, ColorDepth::Ansi16] {
        let theme = adapt(Theme::default_dark(), depth);
        let bg = theme.selected.bg.unwrap();
        assert!(
            !matches!(bg, Color::Rgb(..) | Color::Reset | Color::Black),
            "{depth:?}: {bg:?}"
        );
    }
    let plain = adapt(Theme::default_dark(), ColorDepth::None);
    assert!(plain.selected.add_modifier.contains(Modifier::REVERSED));
    assert!(plain.tab_active.add_modifier.contains(Modifier::REVERSED));
    assert!(
        plain.selected.add_modifier.contains(Modifier::BOLD),
        "modifiers kept"
    );
}

#[test]
fn no_24_bit_colour_is_left_below_truecolor() {
    for name in ["default", "light", "high-contrast"] {
        for depth in [ColorDepth::Ansi256, ColorDepth::Ansi16, ColorDepth::None] {
            let mut theme = adapt(Theme::built_in(name).unwrap(), depth);
            let series = theme.series.clone();
            for style_name in Theme::STYLE_NAMES {
                let style = *theme.style_mut(style_name).unwrap();
                for color in [style.fg, style.bg]
                    .into_iter()
                    .flatten()
                    .chain(series.clone())
                {
                    let allowed = match depth {
                        ColorDepth::Ansi256 => !matches!(color, Color::Rgb(..)),
                        ColorDepth::Ansi16 => !matches!(color, Color::Rgb(..) | Color::Indexed(_)),
                        _ => color == Color::Reset,
                    };
                    assert!(allowed, "{name} at {depth:?}: {style_name} has {color:?}");
                }
            }
        }
    }
}

#[test]
fn the_256_palette_match_is_the_nearest_cube_or_grey() {
    assert_eq!(nearest_256(255, 0, 0), 196);
    assert_eq!(nearest_256(128, 128, 128), 244);
    assert_eq!(nearest_256(0, 0, 0), 16);
    assert_eq!(nearest_256(0x26, 0x35, 0x45), 237);
}
