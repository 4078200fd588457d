//! Context fill arithmetic (reference claude-code-hooks.md §5.5):
//! `fill = (input + cache_creation + cache_read) / window`, output tokens excluded.
//!
//! The window is 200,000 unless there is evidence otherwise (docs/hooks.md, "The
//! window rule"). In order, the first that applies decides:
//! 1. the config's `context.window` (the operator's explicit override);
//! 2. the size the status line recorded for this session (Claude Code's own figure);
//! 3. `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, then `autoCompactWindow` in settings;
//! 4. more than 200,000 tokens observed in the transcript, or earlier in the
//!    session (remembered by the hooks): 1,000,000;
//! 5. an earlier automatic compaction whose `preTokens` stayed under 200,000 (in the
//!    transcript's tail, else remembered): 200,000;
//! 6. `CLAUDE_CODE_DISABLE_1M_CONTEXT`: 200,000;
//! 7. a `[1m]` model id (transcript, then Claude Code's `--model` / `ANTHROPIC_MODEL` /
//!    settings `model`), or a model that always runs at 1M: 1,000,000;
//! 8. a known model, or none at all: 200,000.
//!
//! The level is always taken against the window the percentage is shown against.

use serde::Serialize;

pub const DEFAULT_WINDOW: u64 = 200_000;
pub const EXTENDED_WINDOW: u64 = 1_000_000;
/// No model has a larger window; a setting above it is refused, and said.
pub const MAX_WINDOW: u64 = 2_000_000;

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

/// The evidence that decided the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowSource {
    /// `context.window` in the config.
    Config,
    /// `context_window_size` recorded by `resume-tui statusline` for the session.
    StatusLine,
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`.
    Environment,
    /// `autoCompactWindow` in Claude Code settings.
    Settings,
    /// More tokens were used than 200,000 allows.
    ObservedUsage,
    /// An automatic compaction came before 200,000 tokens.
    EarlierCompaction,
    /// `CLAUDE_CODE_DISABLE_1M_CONTEXT`.
    Disabled1m,
    /// A `[1m]` suffix on the transcript's model id.
    ModelSuffix,
    /// A `[1m]` suffix on Claude Code's `--model`, settings `model` or `ANTHROPIC_MODEL`.
    ConfiguredModel,
    /// A model that always runs at 1M on the Anthropic API.
    NativeModel,
    /// A model that runs at 200,000 unless 1M was selected.
    KnownModel,
    /// No model id at all, or one resume-tui does not know: 200,000.
    Default,
}

impl WindowSource {
    /// The kebab-case name `--json` output uses, e.g. `known-model`.
    pub fn key(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    pub fn label(self) -> &'static str {
        match self {
            WindowSource::Config => "config context.window",
            WindowSource::StatusLine => "size recorded by the status line",
            WindowSource::Environment => "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
            WindowSource::Settings => "autoCompactWindow in settings",
            WindowSource::ObservedUsage => "usage above 200k observed",
            WindowSource::EarlierCompaction => "auto-compaction below 200k",
            WindowSource::Disabled1m => "CLAUDE_CODE_DISABLE_1M_CONTEXT",
            WindowSource::ModelSuffix => "[1m] model suffix",
            WindowSource::ConfiguredModel => "[1m] model in --model/settings/ANTHROPIC_MODEL",
            WindowSource::NativeModel => "native 1M model",
            WindowSource::KnownModel => "200k model",
            WindowSource::Default => "default 200k",
        }
    }
}

/// The longest model id taken as one (real ids are under 64 bytes).
pub const MAX_MODEL_ID_BYTES: usize = 256;

/// Which window a fill was measured against, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FillBasis {
    pub window: u64,
    pub source: WindowSource,
    /// One phrase naming the evidence, e.g. `claude-sonnet-4-5: 200k unless [1m]`.
    pub evidence: String,
    pub model: Option<String>,
}

/// A model id named outside the transcript, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfiguredModel<'a> {
    pub id: &'a str,
    /// `ANTHROPIC_MODEL` or the settings file it came from.
    pub from: &'a str,
}

/// What the window choice depends on, gathered by the caller (`io::context_fill`).
#[derive(Debug, Clone, Copy, Default)]
pub struct WindowInputs<'a> {
    /// `context.window`; 0 means "by the evidence".
    pub config_window: u64,
    /// `context_window_size` the status line recorded for this session.
    pub statusline_window: Option<u64>,
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW` as written.
    pub env_window: Option<&'a str>,
    /// `autoCompactWindow` from Claude Code settings, as written.
    pub settings_window: Option<&'a str>,
    /// The transcript's newest main-chain model id.
    pub model: Option<&'a str>,
    pub configured_model: Option<ConfiguredModel<'a>>,
    /// `CLAUDE_CODE_DISABLE_1M_CONTEXT` is set to a true value.
    pub disable_1m: bool,
    /// The largest context seen in the transcript besides the current figure
    /// (a boundary's `preTokens`).
    pub observed_tokens: Option<u64>,
    /// `preTokens` of the newest automatic compaction read.
    pub auto_compaction_at: Option<u64>,
    /// More than 200,000 tokens seen in use earlier in the session, beyond the
    /// tail read now (`io::context_fill::session_evidence`).
    pub remembered_tokens: Option<u64>,
    /// `preTokens` of an automatic compaction seen earlier in the session.
    pub remembered_compaction: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fill {
    pub tokens_used: u64,
    /// `tokens_used / basis.window`, not clamped (a value above 1.0 says the basis is wrong).
    pub fill: f64,
    pub basis: FillBasis,
}

fn ratio(tokens: u64, window: u64) -> f64 {
    if window == 0 {
        return 0.0;
    }
    tokens as f64 / window as f64
}

/// Measures `tokens_used` against the window chosen from `inputs`.
pub fn measure(tokens_used: u64, inputs: &WindowInputs<'_>) -> Fill {
    let basis = window_for(tokens_used, inputs);
    Fill {
        tokens_used,
        fill: ratio(tokens_used, basis.window),
        basis,
    }
}

/// The window for a session that has used `tokens_used`, with its evidence.
pub fn window_for(tokens_used: u64, inputs: &WindowInputs<'_>) -> FillBasis {
    // A model id longer than this is no model's, and the evidence that names it
    // is written into the monitor state and checkpoints: not taken as one.
    let plausible = |id: &str| id.len() <= MAX_MODEL_ID_BYTES;
    let inputs = &WindowInputs {
        model: inputs.model.filter(|id| plausible(id)),
        configured_model: inputs.configured_model.filter(|c| plausible(c.id)),
        ..*inputs
    };
    let model = inputs.model.map(str::to_string);
    let basis = |window, source, evidence: String| FillBasis {
        window,
        source,
        evidence,
        model: model.clone(),
    };
    let tokens = |n: u64| format!("{} tokens", thousands(n));
    if inputs.config_window > 0 {
        let w = inputs.config_window;
        return basis(w, WindowSource::Config, format!("context.window = {w}"));
    }
    if let Some(w) = inputs.statusline_window.filter(|w| *w > 0) {
        let text = format!("context_window_size {w} from Claude Code's status line");
        return basis(w, WindowSource::StatusLine, text);
    }
    let refused = |raw: Option<&str>, name: &str| {
        raw.and_then(|t| Some((parse_window(t)?, t)))
            .filter(|(w, _)| *w > MAX_WINDOW)
            .map(|(_, t)| format!("{name} {} refused (above {MAX_WINDOW} tokens)", t.trim()))
    };
    let said: Vec<String> = [
        refused(inputs.env_window, "CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
        refused(inputs.settings_window, "autoCompactWindow"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let basis = |window, source, evidence: String| {
        let evidence = match said.is_empty() {
            true => evidence,
            false => format!("{evidence}; {}", said.join("; ")),
        };
        basis(window, source, evidence)
    };
    let within = |t: &str| parse_window(t).filter(|w| *w <= MAX_WINDOW);
    if let Some((w, raw)) = inputs.env_window.and_then(|t| Some((within(t)?, t))) {
        let text = format!("CLAUDE_CODE_AUTO_COMPACT_WINDOW={}", raw.trim());
        return basis(w, WindowSource::Environment, text);
    }
    if let Some((w, raw)) = inputs.settings_window.and_then(|t| Some((within(t)?, t))) {
        let text = format!("autoCompactWindow {} in settings", raw.trim());
        return basis(w, WindowSource::Settings, text);
    }
    let observed = inputs.observed_tokens.unwrap_or(0).max(tokens_used);
    if observed > DEFAULT_WINDOW {
        let text = format!("{} observed, more than 200k allows", tokens(observed));
        return basis(EXTENDED_WINDOW, WindowSource::ObservedUsage, text);
    }
    if let Some(seen) = inputs.remembered_tokens.filter(|t| *t > DEFAULT_WINDOW) {
        let text = format!(
            "{} observed earlier in this session, more than 200k allows",
            tokens(seen)
        );
        return basis(EXTENDED_WINDOW, WindowSource::ObservedUsage, text);
    }
    let compaction = match (inputs.auto_compaction_at, inputs.remembered_compaction) {
        (Some(pre), _) => Some((pre, "")),
        (None, Some(pre)) => Some((pre, " earlier in this session")),
        (None, None) => None,
    };
    if let Some((pre, when)) = compaction.filter(|(p, _)| *p < DEFAULT_WINDOW) {
        let text = format!("an automatic compaction at {}{when}", tokens(pre));
        return basis(DEFAULT_WINDOW, WindowSource::EarlierCompaction, text);
    }
    if inputs.disable_1m {
        let text = "CLAUDE_CODE_DISABLE_1M_CONTEXT is set".to_string();
        return basis(DEFAULT_WINDOW, WindowSource::Disabled1m, text);
    }
    let transcript_class = inputs.model.map(model_class);
    if let (Some(ModelClass::Suffix1m), Some(id)) = (transcript_class, inputs.model) {
        return basis(
            EXTENDED_WINDOW,
            WindowSource::ModelSuffix,
            format!("model {id}"),
        );
    }
    if let Some(c) = inputs
        .configured_model
        .filter(|c| model_class(c.id) == ModelClass::Suffix1m)
    {
        let text = format!("model {} in {}", c.id, c.from);
        return basis(EXTENDED_WINDOW, WindowSource::ConfiguredModel, text);
    }
    let given = |id: &&str| !id.trim().is_empty();
    let Some(id) = inputs
        .model
        .filter(given)
        .or(inputs.configured_model.map(|c| c.id).filter(given))
    else {
        return basis(DEFAULT_WINDOW, WindowSource::Default, "no model id".into());
    };
    match model_class(id) {
        ModelClass::Native1m | ModelClass::Suffix1m => basis(
            EXTENDED_WINDOW,
            WindowSource::NativeModel,
            format!("{id} always runs at 1M"),
        ),
        ModelClass::Optional1m => basis(
            DEFAULT_WINDOW,
            WindowSource::KnownModel,
            format!("{id}: 200k unless selected with [1m]"),
        ),
        ModelClass::Only200k => basis(
            DEFAULT_WINDOW,
            WindowSource::KnownModel,
            format!("{id}: a 200k model"),
        ),
        ModelClass::Unknown => basis(
            DEFAULT_WINDOW,
            WindowSource::Default,
            format!("model {id} not known to resume-tui"),
        ),
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// Whether `id` runs at 200k unless selected with `[1m]` (Sonnet 4.x, Opus 4.6).
pub fn selectable_1m(id: &str) -> bool {
    model_class(id) == ModelClass::Optional1m
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

    fn decided(tokens: u64, given: &WindowInputs<'_>) -> (u64, WindowSource) {
        let basis = window_for(tokens, given);
        (basis.window, basis.source)
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
    }

    #[test]
    fn an_empty_model_id_is_no_model_id() {
        for id in ["", "  "] {
            let basis = window_for(50_000, &inputs(Some(id)));
            assert_eq!(basis.window, 200_000);
            assert_eq!(basis.evidence, "no model id", "{id:?}");
        }
    }

    #[test]
    fn window_by_model() {
        use WindowSource::*;
        let cases = [
            ("claude-sonnet-4-6[1m]", 1_000_000, ModelSuffix),
            ("claude-opus-4-7", 1_000_000, NativeModel),
            ("claude-opus-4-8-20260301", 1_000_000, NativeModel),
            ("claude-sonnet-5", 1_000_000, NativeModel),
            ("claude-fable-5-20260601", 1_000_000, NativeModel),
            ("claude-opus-4-6", 200_000, KnownModel),
            ("claude-sonnet-4-5-20250929", 200_000, KnownModel),
            ("claude-haiku-4-5", 200_000, KnownModel),
            ("claude-3-5-sonnet-20241022", 200_000, KnownModel),
            ("claude-opus-4-1-20250805", 200_000, KnownModel),
            ("us.anthropic.claude-haiku-4-5-v1:0", 200_000, KnownModel),
            ("gpt-4o", 200_000, Default),
        ];
        for (model, window, source) in cases {
            assert_eq!(
                decided(1_000, &inputs(Some(model))),
                (window, source),
                "{model}"
            );
        }
        assert_eq!(decided(1_000, &inputs(None)), (200_000, Default));
    }

    #[test]
    fn a_known_model_is_never_called_unknown() {
        let basis = window_for(170_000, &inputs(Some("claude-sonnet-4-5-20250929")));
        assert_eq!(
            basis.evidence,
            "claude-sonnet-4-5-20250929: 200k unless selected with [1m]"
        );
        assert!(!basis.evidence.contains("unknown"));
        assert!(!basis.source.label().contains("unknown"));
        assert_eq!(basis.source.key(), "known-model");
    }

    #[test]
    fn evidence_in_order() {
        let mut given = WindowInputs {
            config_window: 300_000,
            statusline_window: Some(1_000_000),
            env_window: Some("500k"),
            settings_window: Some("400000"),
            model: Some("claude-sonnet-4-5"),
            configured_model: Some(super::ConfiguredModel {
                id: "sonnet[1m]",
                from: "ANTHROPIC_MODEL",
            }),
            disable_1m: false,
            observed_tokens: None,
            auto_compaction_at: Some(150_000),
            remembered_tokens: None,
            remembered_compaction: None,
        };
        use WindowSource::*;
        assert_eq!(decided(10, &given), (300_000, Config));
        given.config_window = 0;
        assert_eq!(decided(10, &given), (1_000_000, StatusLine));
        given.statusline_window = None;
        assert_eq!(decided(10, &given), (500_000, Environment));
        given.env_window = Some("not a number");
        assert_eq!(decided(10, &given), (400_000, Settings));
        given.settings_window = None;
        assert_eq!(decided(250_000, &given), (1_000_000, ObservedUsage));
        assert_eq!(decided(10, &given), (200_000, EarlierCompaction));
        // A compaction above 200k is evidence of more, not less.
        given.auto_compaction_at = Some(600_000);
        given.observed_tokens = Some(600_000);
        assert_eq!(decided(10, &given), (1_000_000, ObservedUsage));
        given.auto_compaction_at = None;
        given.observed_tokens = None;
        assert_eq!(decided(10, &given), (1_000_000, ConfiguredModel));
        given.disable_1m = true;
        assert_eq!(decided(10, &given), (200_000, Disabled1m));
    }

    #[test]
    fn remembered_evidence_counts_after_the_transcript_s_own() {
        let mut given = inputs(Some("claude-opus-4-6"));
        given.remembered_compaction = Some(150_000);
        let basis = window_for(10, &given);
        assert_eq!(basis.window, 200_000);
        assert_eq!(
            basis.evidence,
            "an automatic compaction at 150,000 tokens earlier in this session"
        );
        given.remembered_tokens = Some(320_000);
        let basis = window_for(10, &given);
        assert_eq!(basis.window, 1_000_000);
        assert_eq!(
            basis.evidence,
            "320,000 tokens observed earlier in this session, more than 200k allows"
        );
        // The transcript's own compaction is newer than anything remembered.
        given.remembered_tokens = None;
        given.auto_compaction_at = Some(190_000);
        assert!(
            window_for(10, &given)
                .evidence
                .ends_with("at 190,000 tokens")
        );
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
    fn an_unknown_window_is_200k_and_the_level_follows_it() {
        // 170k tokens with no model: 85 % of 200k, shown and levelled the same.
        let fill = measure(170_000, &inputs(None));
        assert_eq!(fill.basis.window, 200_000);
        assert!((fill.fill - 0.85).abs() < 1e-9);
    }

    #[test]
    fn usage_above_200k_proves_a_larger_window() {
        let fill = measure(450_000, &inputs(Some("claude-haiku-4-5")));
        assert_eq!(fill.basis.window, 1_000_000);
        assert_eq!(fill.basis.source, WindowSource::ObservedUsage);
        assert!((fill.fill - 0.45).abs() < 1e-9);
    }

    #[test]
    fn an_environment_window_above_two_million_is_refused_and_said() {
        let given = WindowInputs {
            env_window: Some("5m"),
            ..inputs(None)
        };
        let basis = window_for(1_000, &given);
        assert_eq!(basis.window, DEFAULT_WINDOW);
        assert!(
            basis
                .evidence
                .contains("CLAUDE_CODE_AUTO_COMPACT_WINDOW 5m refused (above 2000000 tokens)"),
            "{}",
            basis.evidence
        );
        let given = WindowInputs {
            env_window: Some("2m"),
            ..inputs(None)
        };
        assert_eq!(window_for(1_000, &given).window, 2_000_000);
    }

    #[test]
    fn zero_window_is_not_a_division_by_zero() {
        assert_eq!(ratio(5, 0), 0.0);
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}
