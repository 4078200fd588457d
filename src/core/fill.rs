//! Context fill arithmetic (reference claude-code-hooks.md §5.5):
//! `fill = (input + cache_creation + cache_read) / window`, output tokens excluded.
//!
//! The window is chosen, in order, from `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, the config's
//! `context.window`, the model id (`[1m]` suffix or a model that always runs at 1M),
//! and finally 200,000. The basis records which rule applied and whether it is
//! certain: with an unknown model the true window may be 1M, so the level is taken
//! from the fill against 1M (a lower bound) and never escalated on a guess.

use serde::Serialize;

pub const DEFAULT_WINDOW: u64 = 200_000;
pub const EXTENDED_WINDOW: u64 = 1_000_000;

/// The token counts of one API response (`message.usage` of an assistant record).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub cache_creation_input_tokens: u64,
    pub cache_read_input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// Tokens in the context window: the three input fields, not output.
    pub fn context_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.cache_creation_input_tokens)
            .saturating_add(self.cache_read_input_tokens)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowSource {
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`.
    Environment,
    /// `context.window` in the config.
    Config,
    /// A `[1m]` model suffix.
    ModelSuffix,
    /// A model that always runs at 1M on the Anthropic API.
    NativeModel,
    /// A model known to run at 200,000 (or 1M disabled by the environment).
    KnownModel,
    /// More tokens were used than 200,000 allows, so the window must be 1M.
    ObservedUsage,
    /// Nothing known: 200,000 assumed.
    Default,
}

impl WindowSource {
    pub fn label(self) -> &'static str {
        match self {
            WindowSource::Environment => "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
            WindowSource::Config => "config context.window",
            WindowSource::ModelSuffix => "[1m] model suffix",
            WindowSource::NativeModel => "native 1M model",
            WindowSource::KnownModel => "200k model",
            WindowSource::ObservedUsage => "usage above 200k",
            WindowSource::Default => "default (model unknown)",
        }
    }
}

/// Which window a fill was measured against, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FillBasis {
    pub window: u64,
    pub source: WindowSource,
    /// False when the window is a guess; levels are then never escalated.
    pub certain: bool,
    pub model: Option<String>,
}

/// What the window choice depends on, gathered by the caller.
#[derive(Debug, Clone, Copy, Default)]
pub struct WindowInputs<'a> {
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as written.
    pub env_window: Option<&'a str>,
    /// `context.window`; 0 means "pick by model".
    pub config_window: u64,
    pub model: Option<&'a str>,
    /// `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set to a true value.
    pub disable_1m: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fill {
    pub tokens_used: u64,
    /// `tokens_used / basis.window`, not clamped (a value above 1.0 says the basis is wrong).
    pub fill: f64,
    pub basis: FillBasis,
}

impl Fill {
    /// The fraction to derive a level from: the fill itself when the window is
    /// certain, else the fill against the largest window the session could have.
    pub fn level_fill(&self) -> f64 {
        if self.basis.certain {
            self.fill
        } else {
            ratio(self.tokens_used, self.basis.window.max(EXTENDED_WINDOW))
        }
    }
}

fn ratio(tokens: u64, window: u64) -> f64 {
    if window == 0 {
        return 0.0;
    }
    tokens as f64 / window as f64
}

/// Measures `tokens_used` against the window chosen from `inputs`.
pub fn measure(tokens_used: u64, inputs: &WindowInputs<'_>) -> Fill {
    let mut basis = window_for(inputs);
    if !basis.certain && tokens_used > basis.window {
        basis = FillBasis {
            window: EXTENDED_WINDOW,
            source: WindowSource::ObservedUsage,
            certain: tokens_used <= EXTENDED_WINDOW,
            model: basis.model,
        };
    }
    Fill {
        tokens_used,
        fill: ratio(tokens_used, basis.window),
        basis,
    }
}

pub fn window_for(inputs: &WindowInputs<'_>) -> FillBasis {
    let model = inputs.model.map(str::to_string);
    let basis = |window, source, certain| FillBasis {
        window,
        source,
        certain,
        model: model.clone(),
    };
    if let Some(window) = inputs.env_window.and_then(parse_window) {
        return basis(window, WindowSource::Environment, true);
    }
    if inputs.config_window > 0 {
        return basis(inputs.config_window, WindowSource::Config, true);
    }
    let Some(id) = inputs.model else {
        return basis(DEFAULT_WINDOW, WindowSource::Default, false);
    };
    match model_class(id) {
        _ if inputs.disable_1m => basis(DEFAULT_WINDOW, WindowSource::KnownModel, true),
        ModelClass::Suffix1m => basis(EXTENDED_WINDOW, WindowSource::ModelSuffix, true),
        ModelClass::Native1m => basis(EXTENDED_WINDOW, WindowSource::NativeModel, true),
        ModelClass::Only200k => basis(DEFAULT_WINDOW, WindowSource::KnownModel, true),
        // 1M-capable models run at 200k unless 1M was selected, which the
        // transcript's API model id does not show.
        ModelClass::Optional1m | ModelClass::Unknown => {
            basis(DEFAULT_WINDOW, WindowSource::Default, false)
        }
    }
}

/// A window size as written: `500000`, `500_000`, `500k`, `1m`, `1M`.
pub fn parse_window(text: &str) -> Option<u64> {
    let text = text.trim().replace(['_', ','], "");
    let lower = text.to_ascii_lowercase();
    let (digits, multiplier) = match lower.strip_suffix('k') {
        Some(d) => (d.to_string(), 1_000),
        None => match lower.strip_suffix('m') {
            Some(d) => (d.to_string(), 1_000_000),
            None => (lower.clone(), 1),
        },
    };
    let value: f64 = digits.trim().parse().ok()?;
    let tokens = value * multiplier as f64;
    (tokens.is_finite() && (1_000.0..=100_000_000.0).contains(&tokens)).then_some(tokens as u64)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ModelClass {
    Suffix1m,
    Native1m,
    Optional1m,
    Only200k,
    Unknown,
}

/// Classifies a model id such as `claude-opus-4-7`, `claude-sonnet-4-5-20250929`,
/// `claude-sonnet-4-6[1m]`, `us.anthropic.claude-haiku-4-5-v1:0`.
fn model_class(id: &str) -> ModelClass {
    let id = id.to_ascii_lowercase();
    if id.contains("[1m]") || id.ends_with("-1m") {
        return ModelClass::Suffix1m;
    }
    let Some((family, major, minor)) = family_version(&id) else {
        return ModelClass::Unknown;
    };
    match family {
        "fable" | "sonnet" if major >= 5 => ModelClass::Native1m,
        "opus" if major >= 5 || (major == 4 && minor >= 7) => ModelClass::Native1m,
        "opus" if major == 4 && minor == 6 => ModelClass::Optional1m,
        "sonnet" if major == 4 => ModelClass::Optional1m,
        "opus" | "sonnet" | "haiku" | "fable" => ModelClass::Only200k,
        _ => ModelClass::Unknown,
    }
}

/// (family, major, minor) from `…<family>-<major>[-<minor>]…` or the older
/// `claude-3-5-sonnet` order.
fn family_version(id: &str) -> Option<(&'static str, u32, u32)> {
    const FAMILIES: &[&str] = &["opus", "sonnet", "haiku", "fable"];
    let parts: Vec<&str> = id.split(['-', '.', '@', ':', '/']).collect();
    let number = |i: usize| -> Option<u32> {
        parts
            .get(i)
            .filter(|p| p.len() <= 2)
            .and_then(|p| p.parse().ok())
    };
    for (i, part) in parts.iter().enumerate() {
        let Some(family) = FAMILIES.iter().find(|f| *part == **f) else {
            continue;
        };
        if let Some(major) = number(i + 1) {
            return Some((family, major, number(i + 2).unwrap_or(0)));
        }
        // claude-3-5-sonnet / claude-3-opus: version before the family.
        if i >= 1 {
            let (major, minor) = match (number(i.wrapping_sub(2)), number(i - 1)) {
                (Some(major), Some(minor)) if i >= 2 => (major, minor),
                _ => (number(i - 1)?, 0),
            };
            return Some((family, major, minor));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(model: Option<&str>) -> WindowInputs<'_> {
        WindowInputs {
            model,
            ..WindowInputs::default()
        }
    }

    #[test]
    fn fill_is_the_three_input_fields_over_the_window() {
        let usage = Usage {
            input_tokens: 1_200,
            cache_creation_input_tokens: 3_000,
            cache_read_input_tokens: 173_000,
            output_tokens: 9_999,
        };
        assert_eq!(usage.context_tokens(), 177_200);
        let fill = measure(usage.context_tokens(), &inputs(Some("claude-haiku-4-5")));
        assert_eq!(fill.basis.window, 200_000);
        assert!((fill.fill - 0.886).abs() < 1e-9, "{}", fill.fill);
        assert!(fill.basis.certain);
        assert_eq!(fill.level_fill(), fill.fill);
    }

    #[test]
    fn window_by_model() {
        let cases = [
            (
                "claude-sonnet-4-6[1m]",
                1_000_000,
                WindowSource::ModelSuffix,
                true,
            ),
            (
                "claude-opus-4-7",
                1_000_000,
                WindowSource::NativeModel,
                true,
            ),
            (
                "claude-opus-4-8-20260301",
                1_000_000,
                WindowSource::NativeModel,
                true,
            ),
            (
                "claude-sonnet-5",
                1_000_000,
                WindowSource::NativeModel,
                true,
            ),
            (
                "claude-fable-5-20260601",
                1_000_000,
                WindowSource::NativeModel,
                true,
            ),
            ("claude-opus-4-6", 200_000, WindowSource::Default, false),
            (
                "claude-sonnet-4-5-20250929",
                200_000,
                WindowSource::Default,
                false,
            ),
            ("claude-haiku-4-5", 200_000, WindowSource::KnownModel, true),
            (
                "claude-3-5-sonnet-20241022",
                200_000,
                WindowSource::KnownModel,
                true,
            ),
            (
                "claude-opus-4-1-20250805",
                200_000,
                WindowSource::KnownModel,
                true,
            ),
            (
                "us.anthropic.claude-haiku-4-5-v1:0",
                200_000,
                WindowSource::KnownModel,
                true,
            ),
            ("<synthetic>", 200_000, WindowSource::Default, false),
            ("gpt-4o", 200_000, WindowSource::Default, false),
        ];
        for (model, window, source, certain) in cases {
            let basis = window_for(&inputs(Some(model)));
            assert_eq!(
                (basis.window, basis.source, basis.certain),
                (window, source, certain),
                "{model}"
            );
        }
    }

    #[test]
    fn overrides_win_in_order() {
        let mut given = WindowInputs {
            env_window: Some("500k"),
            config_window: 300_000,
            model: Some("claude-opus-4-7"),
            disable_1m: false,
        };
        let basis = window_for(&given);
        assert_eq!(
            (basis.window, basis.source),
            (500_000, WindowSource::Environment)
        );
        given.env_window = Some("not a number");
        let basis = window_for(&given);
        assert_eq!(
            (basis.window, basis.source),
            (300_000, WindowSource::Config)
        );
        given.config_window = 0;
        given.disable_1m = true;
        let basis = window_for(&given);
        assert_eq!((basis.window, basis.certain), (200_000, true));
    }

    #[test]
    fn parses_window_values() {
        assert_eq!(parse_window("500000"), Some(500_000));
        assert_eq!(parse_window(" 750_000 "), Some(750_000));
        assert_eq!(parse_window("1M"), Some(1_000_000));
        assert_eq!(parse_window("0"), None);
        assert_eq!(parse_window("-5"), None);
        assert_eq!(parse_window(""), None);
        assert_eq!(parse_window("1e400"), None);
    }

    #[test]
    fn an_uncertain_window_never_escalates() {
        // 170k tokens with an unknown model: 85 % of 200k, but only 17 % of 1M.
        let fill = measure(170_000, &inputs(None));
        assert!(!fill.basis.certain);
        assert!((fill.fill - 0.85).abs() < 1e-9);
        assert!((fill.level_fill() - 0.17).abs() < 1e-9);
    }

    #[test]
    fn usage_above_200k_proves_a_larger_window() {
        let fill = measure(450_000, &inputs(Some("claude-opus-4-6")));
        assert_eq!(fill.basis.window, 1_000_000);
        assert_eq!(fill.basis.source, WindowSource::ObservedUsage);
        assert!(fill.basis.certain);
        assert!((fill.fill - 0.45).abs() < 1e-9);
        // A certain 200k window is kept even when usage exceeds it: the fill says so.
        let over = measure(250_000, &inputs(Some("claude-haiku-4-5")));
        assert_eq!(over.basis.window, 200_000);
        assert!(over.fill > 1.0);
    }

    #[test]
    fn zero_window_is_not_a_division_by_zero() {
        assert_eq!(ratio(5, 0), 0.0);
    }
}
