//! Themes: named styles for every state the dashboard draws. Built-ins are embedded
//! from `themes/*.toml`; a user theme file names one with `extends` and overlays fields.
//! Every state also carries a glyph and text, so the no-color theme loses nothing.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};

use crate::config::toml_error;

pub const BUILT_IN: &[(&str, &str)] = &[
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("no-color", include_str!("../../themes/no-color.toml")),
];

macro_rules! theme_styles {
    ($($field:ident),* $(,)?) => {
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            pub name: String,
            $(pub $field: Style,)*
            /// One colour per gate line on the Quality chart, reused in turn.
            pub series: Vec<Color>,
        }

        impl Theme {
            fn blank(name: &str) -> Theme {
                Theme { name: name.to_string(), $($field: Style::new(),)* series: Vec::new() }
            }

            pub(crate) fn style_mut(&mut self, key: &str) -> Option<&mut Style> {
                match key {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// Every style name a theme file may set.
            pub const STYLE_NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
        }
    };
}

theme_styles!(
    base,
    dim,
    title,
    border,
    border_focus,
    header,
    selected,
    tab_active,
    tab_inactive,
    key,
    ok,
    info,
    warn,
    error,
    fresh,
    stale,
    critical,
    unknown,
    unacked,
    acked,
    active,
    paused,
    complete,
    failed,
    score_pass,
    score_fail,
    threshold,
    gauge,
    missing,
    filter,
    label,
    accent,
);

impl Theme {
    pub fn built_in(name: &str) -> Option<Theme> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        let mut theme = Theme::blank(name);
        theme.overlay(text, name).ok()?;
        Some(theme)
    }

    pub fn default_dark() -> Theme {
        Theme::built_in("default").unwrap_or_else(|| Theme::blank("default"))
    }

    pub fn no_color() -> Theme {
        Theme::built_in("no-color").unwrap_or_else(|| Theme::blank("no-color"))
    }

    /// A theme file's text: `extends` (a built-in, default `default`) plus overlaid
    /// styles. A bad file gives a message naming file, line and column, and the
    /// default theme.
    pub fn from_file_text(text: &str, source: &str) -> (Theme, Option<String>) {
        let table: toml::Table = match toml::from_str(text) {
            Ok(table) => table,
            Err(err) => return (Theme::default_dark(), Some(toml_error(source, text, &err))),
        };
        let base = table
            .get("extends")
            .and_then(toml::Value::as_str)
            .unwrap_or("default");
        let Some(mut theme) = Theme::built_in(base) else {
            let msg = format!("{source}: extends {base:?}: no such built-in theme");
            return (Theme::default_dark(), Some(msg));
        };
        theme.name = source.to_string();
        match theme.apply(&table, source) {
            Ok(()) => (theme, None),
            Err(msg) => (Theme::default_dark(), Some(msg)),
        }
    }

    fn overlay(&mut self, text: &str, source: &str) -> Result<(), String> {
        let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(source, text, &e))?;
        self.apply(&table, source)
    }

    fn apply(&mut self, table: &toml::Table, source: &str) -> Result<(), String> {
        for (key, value) in table {
            match (key.as_str(), value) {
                ("extends" | "name", _) => {}
                ("series", toml::Value::Array(items)) => {
                    self.series = items
                        .iter()
                        .map(|v| v.as_str().and_then(|s| Color::from_str(s).ok()))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| format!("{source}: series: a list of colours"))?;
                }
                ("styles", toml::Value::Table(styles)) => {
                    for (name, spec) in styles {
                        let style = parse_style(spec)
                            .map_err(|why| format!("{source}: styles.{name}: {why}"))?;
                        let slot = self.style_mut(name).ok_or_else(|| {
                            format!("{source}: styles.{name}: unknown style (see docs/themes.md)")
                        })?;
                        *slot = slot.patch(style);
                    }
                }
                (other, _) => return Err(format!("{source}: unknown key {other:?}")),
            }
        }
        Ok(())
    }

    pub fn series_color(&self, index: usize) -> Option<Color> {
        match self.series.len() {
            0 => None,
            n => self.series.get(index % n).copied(),
        }
    }
}

fn parse_style(spec: &toml::Value) -> Result<Style, String> {
    let table = spec
        .as_table()
        .ok_or("expected a table like { fg = \"green\", bold = true }")?;
    let mut style = Style::new();
    for (key, value) in table {
        let colour = || {
            value
                .as_str()
                .and_then(|s| Color::from_str(s).ok())
                .ok_or_else(|| format!("{key}: not a colour: {value}"))
        };
        let flag = |m: Modifier| match value.as_bool() {
            Some(true) => Ok(m),
            Some(false) => Ok(Modifier::empty()),
            None => Err(format!("{key}: expected true or false")),
        };
        match key.as_str() {
            "fg" => style = style.fg(colour()?),
            "bg" => style = style.bg(colour()?),
            "bold" => style = style.add_modifier(flag(Modifier::BOLD)?),
            "dim" => style = style.add_modifier(flag(Modifier::DIM)?),
            "italic" => style = style.add_modifier(flag(Modifier::ITALIC)?),
            "underline" => style = style.add_modifier(flag(Modifier::UNDERLINED)?),
            "reversed" => style = style.add_modifier(flag(Modifier::REVERSED)?),
            other => return Err(format!("unknown attribute {other:?}")),
        }
    }
    Ok(style)
}

/// Picks the theme: `--theme` first, then `NO_COLOR`, then config `ui.theme`. A name
/// is a built-in; anything else is a theme file path, read by `read_file`.
pub fn resolve(
    cli_theme: Option<&str>,
    config_theme: &str,
    no_color: bool,
    read_file: impl Fn(&str) -> std::io::Result<String>,
) -> (Theme, Option<String>) {
    let chosen = match cli_theme {
        Some(theme) => theme,
        None if no_color => "no-color",
        None => config_theme,
    };
    if let Some(theme) = Theme::built_in(chosen) {
        return (theme, None);
    }
    match read_file(chosen) {
        Ok(text) => Theme::from_file_text(&text, chosen),
        Err(err) => (
            Theme::default_dark(),
            Some(format!("theme {chosen}: {err}; using the default theme")),
        ),
    }
}
