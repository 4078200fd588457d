//! Settings: defaults embedded from `assets/config.default.toml`, overlaid by a user file.
//! A bad user file is reported and the defaults carry on.

use serde::Deserialize;

pub const DEFAULT_TOML: &str = include_str!("../assets/config.default.toml");

/// The largest context window a setting may name (config `context.window`,
/// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`); above it the setting is refused with a warning.
pub const MAX_WINDOW: u64 = crate::core::fill::MAX_WINDOW;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub staleness: StalenessConfig,
    pub context: ContextConfig,
    pub quality: QualityConfig,
    pub clipboard: ClipboardConfig,
    pub hooks: HooksConfig,
    pub log: LogConfig,
    pub ui: UiConfig,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StalenessConfig {
    pub stale_after_minutes: u32,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextConfig {
    pub window: u64,
    pub warning: f64,
    pub critical: f64,
    pub compaction: f64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityConfig {
    pub pass_threshold: f64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClipboardConfig {
    pub backend: String,
    pub native_timeout_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HooksConfig {
    pub startup_summary: bool,
    pub dedupe_seconds: u64,
    pub precompact_steer: bool,
    /// A Nexus precompact state from another session is injected only when
    /// younger than this; older, it is shown in the dashboard and left alone.
    pub nexus_state_max_age_minutes: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    pub max_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiConfig {
    pub theme: String,
    pub notify: Notify,
    /// `auto`, `truecolor`, `256`, `16` or `none` (`tui::color_depth`).
    pub colors: String,
    /// `auto`, `unicode` or `ascii` (`tui::glyphs`).
    pub glyphs: String,
}

/// How the dashboard calls the operator when a project turns CRITICAL or a
/// compaction happens, besides its status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notify {
    Off,
    /// The terminal bell (BEL).
    Bell,
    /// OSC 9 (iTerm2, WezTerm, Windows Terminal, foot, kitty).
    Osc9,
    /// OSC 777 (urxvt, foot, Ghostty, VTE terminals).
    Osc777,
}

/// The values of `assets/config.default.toml`, the documented defaults, written
/// out: every hook process starts from them, and parsing the commented file took
/// a third of a do-nothing hook's instructions. A test holds the two equal.
impl Default for Config {
    fn default() -> Self {
        Config {
            staleness: StalenessConfig {
                stale_after_minutes: 30,
            },
            context: ContextConfig {
                window: 0,
                warning: 0.60,
                critical: 0.80,
                compaction: 0.90,
            },
            quality: QualityConfig {
                pass_threshold: 0.92,
            },
            clipboard: ClipboardConfig {
                backend: "auto".into(),
                native_timeout_ms: 2000,
            },
            hooks: HooksConfig {
                startup_summary: false,
                dedupe_seconds: 60,
                precompact_steer: false,
                nexus_state_max_age_minutes: 30,
            },
            log: LogConfig {
                max_bytes: 1_048_576,
            },
            ui: UiConfig {
                theme: "default".into(),
                notify: Notify::Off,
                colors: "auto".into(),
                glyphs: "auto".into(),
            },
        }
    }
}

impl Config {
    /// Overlays a user file's text on the defaults. Returns the merged config and,
    /// when the user text is bad, a message naming `source`, line and column; the
    /// defaults are then used unchanged.
    pub fn overlay(user_text: &str, source: &str) -> (Config, Option<String>) {
        let mut base: toml::Table = match toml::from_str(DEFAULT_TOML) {
            Ok(table) => table,
            Err(_) => return (Config::default(), None),
        };
        let user: toml::Table = match toml::from_str(user_text) {
            Ok(table) => table,
            Err(err) => return (Config::default(), Some(toml_error(source, user_text, &err))),
        };
        merge(&mut base, user);
        match toml::Value::Table(base).try_into::<Config>() {
            Ok(mut config) if config.context.window > MAX_WINDOW => {
                let refused = config.context.window;
                config.context.window = Config::default().context.window;
                let problem = format!(
                    "{source}: context.window = {refused} refused: no model has a window above \
                     {MAX_WINDOW} tokens; the window is chosen by the evidence instead"
                );
                (config, Some(problem))
            }
            Ok(config) => (config, None),
            Err(err) => (
                Config::default(),
                Some(format!("{source}: {}", err.message())),
            ),
        }
    }
}

fn merge(base: &mut toml::Table, overlay: toml::Table) {
    for (key, value) in overlay {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(over)) => merge(inner, over),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Formats a TOML error as `file:line:col: message`.
pub fn toml_error(source: &str, text: &str, err: &toml::de::Error) -> String {
    match err.span() {
        Some(span) => {
            let (line, column) = line_col(text, span.start);
            format!("{source}:{line}:{column}: {}", err.message())
        }
        None => format!("{source}: {}", err.message()),
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written-out defaults are the documented file's, value for value.
    #[test]
    fn the_defaults_are_the_embedded_files() {
        let parsed: Config = toml::from_str(DEFAULT_TOML).unwrap();
        assert_eq!(Config::default(), parsed);
        assert_eq!(Config::overlay("", "config.toml"), (parsed, None));
    }

    #[test]
    fn user_file_overlays_single_keys() {
        let (config, problem) =
            Config::overlay("[staleness]\nstale_after_minutes = 5\n", "config.toml");
        assert_eq!(problem, None);
        assert_eq!(config.staleness.stale_after_minutes, 5);
        assert_eq!(
            config.context.critical, 0.80,
            "untouched keys keep their defaults"
        );
    }

    #[test]
    fn a_window_above_two_million_is_refused_with_a_warning() {
        let (config, problem) = Config::overlay("[context]\nwindow = 5000000\n", "config.toml");
        assert_eq!(config.context.window, Config::default().context.window);
        let problem = problem.unwrap();
        assert!(
            problem.contains("context.window = 5000000 refused"),
            "{problem}"
        );
        let (config, problem) = Config::overlay("[context]\nwindow = 2000000\n", "config.toml");
        assert_eq!((config.context.window, problem), (2_000_000, None));
    }

    #[test]
    fn bad_user_file_is_reported_and_defaults_carry_on() {
        let (config, problem) = Config::overlay("[staleness\n", "config.toml");
        assert_eq!(config, Config::default());
        let problem = problem.unwrap();
        assert!(problem.starts_with("config.toml:1:"), "{problem}");

        let (config, problem) = Config::overlay("[ui]\ncolour = 1\n", "config.toml");
        assert_eq!(config, Config::default());
        assert!(problem.unwrap().contains("colour"));
    }
}
