//! The one path from a transcript to a context fill, shared by the hooks, `monitor`,
//! `show --json` and the dashboard: scan the transcript's tail, gather the window
//! evidence (Claude Code settings, the environment, the status line's record) and
//! measure with `core::fill`. docs/hooks.md, "The window rule".

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::core::fill::{self, ConfiguredModel, Fill, WindowInputs};
use crate::io::env::Env;
use crate::io::transcript::{self, ScanLimits, TranscriptScan, UsageSource};

mod settings;
pub mod statusline_record;

pub use settings::ClaudeSettings;

/// A fill, or why there is none.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Measurement {
    /// `None` when the fill is unknown (no transcript, no usage since compaction).
    pub fill: Option<Fill>,
    #[serde(skip)]
    pub scan: Option<TranscriptScan>,
    /// Where the figure came from: `transcript`, `compact boundary`, `status line`,
    /// `unavailable`.
    pub source: &'static str,
    /// One sentence for `--explain`, `doctor` and the log.
    pub note: String,
    /// A problem worth a log line (transcript missing or unreadable).
    #[serde(skip)]
    pub problem: Option<String>,
    /// The transcript could not be read: the reason alone, without the path.
    #[serde(skip)]
    pub unreadable: Option<String>,
}

/// What the measurement is about.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub transcript: Option<&'a Path>,
    pub session_id: Option<&'a str>,
    /// The project folder: its `.claude/settings*.json` and status-line records.
    pub project_dir: Option<&'a Path>,
    /// A model named by the caller (SessionStart's `model`).
    pub model_hint: Option<&'a str>,
}

/// Measures the fill of `subject`'s session. `config_window` is `context.window`.
pub fn measure(
    subject: &Subject<'_>,
    env: &Env,
    config_window: u64,
    limits: &ScanLimits,
) -> Measurement {
    let settings = ClaudeSettings::read(subject.project_dir, env);
    let recorded = match (subject.project_dir, subject.session_id) {
        (Some(dir), Some(id)) => statusline_record::read(dir, id),
        _ => None,
    };
    let Some(path) = subject.transcript else {
        return from_record(recorded.as_ref(), "no transcript_path in the payload");
    };
    let scan = match transcript::scan(path, limits) {
        Ok(scan) => scan,
        Err(e) => {
            let problem = format!("transcript {}: {e}", path.display());
            let mut m = from_record(recorded.as_ref(), &problem);
            m.problem = Some(problem);
            m.unreadable = Some(e.to_string());
            return m;
        }
    };
    let Some(found) = &scan.usage else {
        let why = if scan.last_boundary.is_some() {
            "no API response since the last compaction".to_string()
        } else {
            format!(
                "no usage in the last {} bytes of the transcript",
                scan.bytes_read
            )
        };
        let mut m = from_record(recorded.as_ref(), &why);
        m.scan = Some(scan);
        return m;
    };
    let model = found
        .model
        .as_deref()
        .or(scan.model.as_deref())
        .or(subject.model_hint);
    let boundary = scan.last_boundary.as_ref();
    let inputs = WindowInputs {
        config_window,
        statusline_window: recorded.as_ref().and_then(|r| r.context_window_size),
        env_window: env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
        settings_window: settings.auto_compact_window.as_deref(),
        model,
        configured_model: configured_model(env, &settings),
        disable_1m: disable_1m(env),
        observed_tokens: boundary.and_then(|b| b.pre_tokens),
        auto_compaction_at: boundary
            .filter(|b| b.trigger.as_deref() == Some("auto"))
            .and_then(|b| b.pre_tokens),
    };
    let fill = fill::measure(found.usage.context_tokens(), &inputs);
    let source = match found.source {
        UsageSource::AssistantRecord => "transcript",
        UsageSource::CompactBoundary => "compact boundary",
    };
    let note = format!(
        "fill {:.1}% = {} tokens / {} window (window: {}), from the {source}",
        fill.fill * 100.0,
        fill.tokens_used,
        fill.basis.window,
        fill.basis.evidence,
    );
    Measurement {
        fill: Some(fill),
        scan: Some(scan),
        source,
        note,
        ..Measurement::default()
    }
}

/// Without a usable transcript, the status line's own figure, if it recorded one.
fn from_record(record: Option<&statusline_record::Record>, why: &str) -> Measurement {
    let figure = record.and_then(|r| Some((r.context_window_size?, r.used_percentage?)));
    let Some((window, percent)) = figure else {
        return Measurement {
            note: format!("fill unknown: {why}"),
            source: "unavailable",
            ..Measurement::default()
        };
    };
    let tokens = (percent / 100.0 * window as f64).round().max(0.0) as u64;
    let fill = fill::measure(
        tokens,
        &WindowInputs {
            statusline_window: Some(window),
            ..WindowInputs::default()
        },
    );
    Measurement {
        note: format!(
            "fill {percent:.1}% of {window} as Claude Code's status line recorded it ({why})"
        ),
        fill: Some(fill),
        source: "status line",
        ..Measurement::default()
    }
}

fn configured_model<'a>(env: &'a Env, settings: &'a ClaudeSettings) -> Option<ConfiguredModel<'a>> {
    if let Some(id) = env.get("ANTHROPIC_MODEL").filter(|m| !m.trim().is_empty()) {
        return Some(ConfiguredModel {
            id,
            from: "ANTHROPIC_MODEL",
        });
    }
    let (id, from) = settings.model.as_ref()?;
    Some(ConfiguredModel { id, from })
}

/// `CLAUDE_CODE_DISABLE_1M_CONTEXT` set to anything but a false value.
pub fn disable_1m(env: &Env) -> bool {
    env.get("CLAUDE_CODE_DISABLE_1M_CONTEXT").is_some_and(|v| {
        !matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "" | "0" | "false" | "no"
        )
    })
}

/// The user-level Claude Code settings file: `$CLAUDE_CONFIG_DIR/settings.json` or
/// `~/.claude/settings.json`.
pub fn user_settings_path(env: &Env) -> Option<PathBuf> {
    let dir = match env.get("CLAUDE_CONFIG_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env.get("HOME")?).join(".claude"),
    };
    Some(dir.join("settings.json"))
}

/// The `<context-monitor>` reading of a measurement; `source` names the file.
pub fn reading(measurement: &Measurement, source: String) -> crate::core::render::FillReading {
    let Some(fill) = &measurement.fill else {
        return crate::core::render::FillReading {
            source: Some(source),
            ..Default::default()
        };
    };
    crate::core::render::FillReading {
        fill: Some(fill.fill),
        tokens_used: i64::try_from(fill.tokens_used).ok(),
        window: i64::try_from(fill.basis.window).ok(),
        basis: Some(format!("window: {}", fill.basis.evidence)),
        source: Some(source),
    }
}
