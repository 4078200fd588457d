//! The one path from a transcript to a context fill, shared by the hooks, `monitor`,
//! `show --json` and the dashboard: scan the transcript's tail, gather the window
//! evidence (Claude Code settings, the environment, the status line's record) and
//! measure with `core::fill`. docs/hooks.md, "The window rule".

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::core::fill::{self, ConfiguredModel, Fill, FillBasis, WindowInputs, WindowSource};
use crate::io::env::Env;
use crate::io::transcript::{self, Boundary, ScanLimits, TranscriptScan, UsageSource};

pub mod client_model;
pub mod session_evidence;
mod settings;
pub mod statusline_record;

pub use session_evidence::Evidence;
pub use settings::ClaudeSettings;

/// A fill, or why there is none.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Measurement {
    /// `None` when the fill is unknown (no transcript, no usage since compaction).
    pub fill: Option<Fill>,
    /// The window and the evidence that decided it: the fill's own basis, and
    /// decided from what is known (model, settings, the session's records) when
    /// the fill is unknown.
    pub basis: Option<FillBasis>,
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
    /// The transcript does not exist (yet): Claude Code writes a new session's
    /// transcript after its first answer, so SessionStart(startup) and the first
    /// UserPromptSubmit come before it; only PreCompact counts it as an error.
    #[serde(skip)]
    pub transcript_missing: bool,
    /// The transcript could not be read: the reason alone, without the path.
    #[serde(skip)]
    pub unreadable: Option<String>,
    /// What this measurement taught about the session's window that its record
    /// does not hold yet (`session_evidence`): for the hook to write, with the time.
    #[serde(skip)]
    pub learned: Option<Evidence>,
}

/// What the measurement is about.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub transcript: Option<&'a Path>,
    pub session_id: Option<&'a str>,
    /// The project folder: its `.claude/settings*.json` and the session's records.
    pub project_dir: Option<&'a Path>,
    /// A model named by the caller (SessionStart's `model`).
    pub model_hint: Option<&'a str>,
}

/// The window evidence found outside the transcript.
struct Known<'a> {
    env: &'a Env,
    config_window: u64,
    settings: ClaudeSettings,
    recorded: Option<statusline_record::Record>,
    remembered: Option<Evidence>,
    /// Claude Code's `--model`, read only when the rest leaves the window to the
    /// model id (`client_model`).
    client_model: std::cell::OnceCell<client_model::Launch>,
}

impl Known<'_> {
    fn inputs<'s>(
        &'s self,
        model: Option<&'s str>,
        boundary: Option<&Boundary>,
    ) -> WindowInputs<'s> {
        let remembered = self.remembered.as_ref().filter(|r| r.applies_to(model));
        let inputs = WindowInputs {
            config_window: self.config_window,
            statusline_window: self.recorded.as_ref().and_then(|r| r.context_window_size),
            env_window: self.env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
            settings_window: self.settings.auto_compact_window.as_deref(),
            model,
            configured_model: configured_model(self.env, &self.settings),
            disable_1m: disable_1m(self.env),
            observed_tokens: boundary.and_then(|b| b.pre_tokens),
            auto_compaction_at: boundary.and_then(auto_pre_tokens),
            remembered_tokens: remembered.and_then(|r| r.tokens_above_200k),
            remembered_compaction: remembered.and_then(|r| r.auto_compaction_at),
        };
        // The command line's `--model` outranks ANTHROPIC_MODEL and settings, as
        // in Claude Code; read only when the model id is left to decide.
        let by_model = matches!(
            fill::window_for(0, &inputs).source,
            WindowSource::KnownModel | WindowSource::Default | WindowSource::ConfiguredModel
        );
        let launched = by_model.then(|| self.launch().model()).flatten();
        match launched {
            Some(id) => WindowInputs {
                configured_model: Some(ConfiguredModel {
                    id,
                    from: "Claude Code's --model (its command line)",
                }),
                ..inputs
            },
            None => inputs,
        }
    }

    fn launch(&self) -> &client_model::Launch {
        self.client_model
            .get_or_init(|| client_model::read(self.env))
    }

    /// Why the window is unknown, when `basis` rests on a model that runs at
    /// 200k or, selected with `[1m]`, at 1M, and the command line that would
    /// say which was overwritten by Claude Code (2.1.76): no figure then rather
    /// than a false alarm at 200k.
    fn window_unknown(&self, basis: &FillBasis) -> Option<String> {
        let model = basis.model.as_deref()?;
        let open = basis.source == WindowSource::KnownModel && fill::selectable_1m(model);
        (open && *self.launch() == client_model::Launch::Rewritten).then(|| {
            format!(
                "window unknown: {model} runs at 200k, or at 1M when started with [1m], and Claude Code's command line, which would say, is overwritten"
            )
        })
    }

    /// A model id the session's records name, when the transcript names none.
    fn recorded_model(&self) -> Option<&str> {
        let from_status = self.recorded.as_ref().and_then(|r| r.model.as_deref());
        from_status.or(self.remembered.as_ref().and_then(|r| r.model.as_deref()))
    }

    /// Without a usable figure from the transcript: the status line's own figure,
    /// if it recorded one, else an unknown fill against the window the evidence
    /// gives.
    fn without_usage(
        &self,
        model: Option<&str>,
        boundary: Option<&Boundary>,
        why: &str,
    ) -> Measurement {
        let model = model.or(self.recorded_model());
        let basis = fill::window_for(0, &self.inputs(model, boundary));
        let record = self.recorded.as_ref();
        let figure = record.and_then(|r| Some((r.context_window_size?, r.used_percentage?)));
        let Some((window, percent)) = figure else {
            return Measurement {
                note: format!(
                    "fill unknown: {why} (window {}: {})",
                    basis.window, basis.evidence
                ),
                source: "unavailable",
                basis: Some(basis),
                ..Measurement::default()
            };
        };
        let tokens = (percent / 100.0 * window as f64).round().max(0.0) as u64;
        let fill = fill::measure(
            tokens,
            &WindowInputs {
                statusline_window: Some(window),
                model,
                ..WindowInputs::default()
            },
        );
        Measurement {
            note: format!(
                "fill {percent:.1}% of {window} as Claude Code's status line recorded it ({why})"
            ),
            basis: Some(fill.basis.clone()),
            fill: Some(fill),
            source: "status line",
            ..Measurement::default()
        }
    }
}

fn auto_pre_tokens(boundary: &Boundary) -> Option<u64> {
    boundary
        .pre_tokens
        .filter(|_| boundary.trigger.as_deref() == Some("auto"))
}

/// Measures the fill of `subject`'s session. `config_window` is `context.window`.
pub fn measure(
    subject: &Subject<'_>,
    env: &Env,
    config_window: u64,
    limits: &ScanLimits,
) -> Measurement {
    let session = subject.project_dir.zip(subject.session_id);
    let known = Known {
        env,
        config_window,
        settings: ClaudeSettings::read(subject.project_dir, env),
        recorded: session.and_then(|(dir, id)| statusline_record::read(dir, id)),
        remembered: session.and_then(|(dir, id)| session_evidence::read(dir, id)),
        client_model: std::cell::OnceCell::new(),
    };
    let hint = subject.model_hint;
    let Some(path) = subject.transcript else {
        return known.without_usage(hint, None, "no transcript to read");
    };
    let scan = match transcript::scan(path, limits) {
        Ok(scan) => scan,
        Err(e) => {
            let problem = format!("transcript {}: {e}", path.display());
            let mut m = known.without_usage(hint, None, &problem);
            m.problem = Some(problem);
            m.transcript_missing = e.kind() == std::io::ErrorKind::NotFound;
            m.unreadable = Some(e.to_string());
            return m;
        }
    };
    let found = scan.usage.as_ref();
    let model = found
        .and_then(|u| u.model.as_deref())
        .or(scan.model.as_deref())
        .or(hint);
    let boundary = scan.last_boundary.as_ref();
    let tokens_used = found.map(|u| u.usage.context_tokens());
    let learned = subject.session_id.and_then(|id| {
        let seen = session_evidence::Seen {
            model,
            tokens: tokens_used
                .unwrap_or(0)
                .max(boundary.and_then(|b| b.pre_tokens).unwrap_or(0)),
            auto_compaction_at: boundary.and_then(auto_pre_tokens),
        };
        session_evidence::learn(known.remembered.as_ref(), id, &seen)
    });
    let (Some(found), Some(tokens_used)) = (found, tokens_used) else {
        let why = if boundary.is_some() {
            "no API response since the last compaction".to_string()
        } else {
            format!(
                "no usage in the last {} bytes of the transcript",
                scan.bytes_read
            )
        };
        let mut m = known.without_usage(model, boundary, &why);
        m.scan = Some(scan);
        m.learned = learned;
        return m;
    };
    let fill = fill::measure(tokens_used, &known.inputs(model, boundary));
    if let Some(why) = known.window_unknown(&fill.basis) {
        return Measurement {
            note: format!("fill unknown: {why}"),
            scan: Some(scan),
            source: "unavailable",
            learned,
            ..Measurement::default()
        };
    }
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
        basis: Some(fill.basis.clone()),
        fill: Some(fill),
        scan: Some(scan),
        source,
        note,
        learned,
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
/// With the fill unknown, the window is still the one decided and named.
pub fn reading(measurement: &Measurement, source: String) -> crate::core::render::FillReading {
    let Some(fill) = &measurement.fill else {
        return crate::core::render::FillReading {
            window: measurement
                .basis
                .as_ref()
                .and_then(|b| i64::try_from(b.window).ok()),
            basis: measurement
                .basis
                .as_ref()
                .map(|b| format!("window: {}", b.evidence)),
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
