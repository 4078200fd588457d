//! How many colours the terminal shows, and each theme colour mapped to the nearest
//! one it has. Sending 24-bit colour to a terminal that does not parse it is worse
//! than no colour: GNU screen reads `38;2;31;122;31` as "dim, red, red", so green
//! text turns red.

use ratatui::style::{Color, Modifier, Style};

use super::theme::Theme;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorDepth {
    TrueColor,
    Ansi256,
    Ansi16,
    None,
}

impl ColorDepth {
    /// `ui.colors` from the config: `auto` (or empty) detects; otherwise the name.
    pub fn parse(setting: &str) -> Result<Option<ColorDepth>, String> {
        match setting.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(None),
            "truecolor" | "24bit" => Ok(Some(ColorDepth::TrueColor)),
            "256" => Ok(Some(ColorDepth::Ansi256)),
            "16" => Ok(Some(ColorDepth::Ansi16)),
            "none" | "off" => Ok(Some(ColorDepth::None)),
            other => Err(format!(
                "config: ui.colors = {other:?}: expected auto, truecolor, 256, 16 or none"
            )),
        }
    }

    /// The depth `COLORTERM` and `TERM` announce. GNU screen (`STY` set) passes
    /// `COLORTERM` on from the outer terminal but does not parse 24-bit colour.
    pub fn detect(colorterm: Option<&str>, term: Option<&str>, in_screen: bool) -> ColorDepth {
        let term = term.unwrap_or("").to_ascii_lowercase();
        if term.is_empty() || term == "dumb" || term.starts_with("vt") {
            return ColorDepth::None;
        }
        let truecolor = !in_screen
            && (matches!(colorterm, Some("truecolor" | "24bit"))
                || term.ends_with("-direct")
                || term.contains("truecolor"));
        if truecolor {
            ColorDepth::TrueColor
        } else if term.contains("256color") {
            ColorDepth::Ansi256
        } else {
            ColorDepth::Ansi16
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ColorDepth::TrueColor => "truecolor",
            ColorDepth::Ansi256 => "256",
            ColorDepth::Ansi16 => "16",
            ColorDepth::None => "none",
        }
    }
}

/// The theme with every colour mapped to `depth`. Without colour, a style that
/// had a background (the selected row, the active tab) is drawn reversed.
pub fn adapt(mut theme: Theme, depth: ColorDepth) -> Theme {
    if depth == ColorDepth::TrueColor {
        return theme;
    }
    for name in Theme::STYLE_NAMES {
        if let Some(style) = theme.style_mut(name) {
            *style = adapt_style(*style, depth);
        }
    }
    theme.series = match depth {
        ColorDepth::None => Vec::new(),
        _ => theme.series.iter().map(|&c| nearest(c, depth)).collect(),
    };
    theme
}

fn adapt_style(style: Style, depth: ColorDepth) -> Style {
    if depth == ColorDepth::None {
        let had_background = style.bg.is_some_and(|c| c != Color::Reset);
        let mut plain = Style::new().add_modifier(style.add_modifier);
        plain.sub_modifier = style.sub_modifier;
        return if had_background {
            plain.add_modifier(Modifier::REVERSED)
        } else {
            plain
        };
    }
    Style {
        fg: style.fg.map(|c| nearest(c, depth)),
        bg: style.bg.map(|c| nearest(c, depth)),
        underline_color: style.underline_color.map(|c| nearest(c, depth)),
        ..style
    }
}

/// The colour of `depth` nearest to `color`. Named colours are in every depth.
pub fn nearest(color: Color, depth: ColorDepth) -> Color {
    match (color, depth) {
        (_, ColorDepth::TrueColor) => color,
        (_, ColorDepth::None) => Color::Reset,
        (Color::Rgb(r, g, b), ColorDepth::Ansi256) => Color::Indexed(nearest_256(r, g, b)),
        (Color::Rgb(r, g, b), ColorDepth::Ansi16) => nearest_16(r, g, b),
        (Color::Indexed(i), ColorDepth::Ansi16) if i >= 16 => {
            let (r, g, b) = rgb_of_256(i);
            nearest_16(r, g, b)
        }
        (Color::Indexed(i), ColorDepth::Ansi16) => {
            NAMED.get(usize::from(i)).copied().unwrap_or(color)
        }
        _ => color,
    }
}

/// The 16 colours in ANSI order.
const NAMED: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// The 16 colours are a palette each terminal sets its own way, so the hue picks
/// the colour and the lightness picks the normal or bright one; greys go by
/// lightness alone. (A distance to one terminal's palette turns amber into red.)
fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let value = f32::from(max) / 255.0;
    let saturation = if max == 0 {
        0.0
    } else {
        f32::from(max - min) / f32::from(max)
    };
    if saturation < 0.25 || max - min < 24 {
        return match value {
            v if v < 0.25 => Color::Black,
            v if v < 0.6 => Color::DarkGray,
            v if v < 0.87 => Color::Gray,
            _ => Color::White,
        };
    }
    let hue = hue_degrees(r, g, b, max, min);
    // Red, yellow, green, cyan, blue, magenta: 60° apart, red at 0°.
    let sector = ((hue + 30.0) / 60.0) as usize % 6;
    let bright = value > 0.85 && saturation < 0.9 || value > 0.95;
    let base = [1, 3, 2, 6, 4, 5].get(sector).copied().unwrap_or(7);
    let index = base + if bright { 8 } else { 0 };
    NAMED.get(index).copied().unwrap_or(Color::Reset)
}

fn hue_degrees(r: u8, g: u8, b: u8, max: u8, min: u8) -> f32 {
    let (r, g, b) = (f32::from(r), f32::from(g), f32::from(b));
    let span = f32::from(max - min).max(1.0);
    let max = f32::from(max);
    let hue = if max == r {
        60.0 * ((g - b) / span)
    } else if max == g {
        60.0 * ((b - r) / span) + 120.0
    } else {
        60.0 * ((r - g) / span) + 240.0
    };
    hue.rem_euclid(360.0)
}

const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The nearest of the 6×6×6 cube and the 24 greys of the 256-colour palette (the
/// first 16 are left out: each terminal sets them its own way).
fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    let step = |c: u8| {
        CUBE.iter()
            .enumerate()
            .min_by_key(|(_, level)| level.abs_diff(c))
            .map_or(0, |(i, _)| i as u8)
    };
    let (ri, gi, bi) = (step(r), step(g), step(b));
    let cube = 16 + 36 * ri + 6 * gi + bi;
    let average = (u16::from(r) + u16::from(g) + u16::from(b)) / 3;
    let grey_index = (average.saturating_sub(3) / 10).min(23) as u8;
    let grey = 232 + grey_index;
    if distance((r, g, b), rgb_of_256(grey)) < distance((r, g, b), rgb_of_256(cube)) {
        grey
    } else {
        cube
    }
}

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| u32::from(x.abs_diff(y)).pow(2);
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

/// The colour of a 256-palette entry from 16 up (xterm's values).
fn rgb_of_256(index: u8) -> (u8, u8, u8) {
    match index {
        232..=255 => {
            let level = 8 + 10 * (index - 232);
            (level, level, level)
        }
        16..=231 => {
            let i = usize::from(index - 16);
            let level = |n: usize| CUBE.get(n).copied().unwrap_or(0);
            (level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        _ => (0, 0, 0),
    }
}

#[cfg(test)]
#[path = "color_depth_tests.rs"]
mod tests;
