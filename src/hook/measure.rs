//! Context fill from the session's transcript, with the basis it was measured on.

use super::context::HookContext;
use super::input::HookInput;
use crate::core::fill::{self, Fill, WindowInputs};
use crate::io::transcript::{self, ScanLimits, TranscriptScan, UsageSource};

#[derive(Debug, Clone, Default)]
pub struct Measurement {
    /// `None` when the fill is unknown (no transcript, no usage since compaction).
    pub fill: Option<Fill>,
    pub scan: Option<TranscriptScan>,
    /// Where the figure came from (`transcript`, `compact boundary`), for the files written.
    pub source: &'static str,
    /// One sentence for `--explain` and the log.
    pub note: String,
    /// A problem worth a log line (transcript missing or unreadable).
    pub problem: Option<String>,
}

/// Scans the transcript named in the payload and measures fill.
pub fn measure(input: &HookInput, ctx: &HookContext, limits: &ScanLimits) -> Measurement {
    let Some(path) = &input.transcript_path else {
        return Measurement {
            note: "fill unknown: no transcript_path in the payload".into(),
            source: "unavailable",
            ..Measurement::default()
        };
    };
    let scan = match transcript::scan(path, limits) {
        Ok(scan) => scan,
        Err(e) => {
            let problem = format!("transcript {}: {e}", path.display());
            return Measurement {
                note: format!("fill unknown: {problem}"),
                source: "unavailable",
                problem: Some(problem),
                ..Measurement::default()
            };
        }
    };
    let Some(found) = &scan.usage else {
        let note = if scan.last_boundary.is_some() {
            "fill unknown: no API response since the last compaction".to_string()
        } else {
            format!(
                "fill unknown: no usage in the last {} bytes of the transcript",
                scan.bytes_read
            )
        };
        return Measurement {
            note,
            source: "unavailable",
            scan: Some(scan),
            ..Measurement::default()
        };
    };
    let model = found
        .model
        .as_deref()
        .or(scan.model.as_deref())
        .or(input.model.as_deref());
    let inputs = WindowInputs {
        env_window: ctx.env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
        config_window: ctx.config.context.window,
        model,
        disable_1m: ctx
            .env
            .get("CLAUDE_CODE_DISABLE_1M_CONTEXT")
            .is_some_and(|v| !matches!(v.trim(), "0" | "false" | "no")),
    };
    let fill = fill::measure(found.usage.context_tokens(), &inputs);
    let source = match found.source {
        UsageSource::AssistantRecord => "transcript",
        UsageSource::CompactBoundary => "compact boundary",
    };
    let note = format!(
        "fill {:.1}% = {} tokens / {} window ({}; {}), from the {} (model {})",
        fill.fill * 100.0,
        fill.tokens_used,
        fill.basis.window,
        fill.basis.source.label(),
        if fill.basis.certain {
            "certain"
        } else {
            "assumed: level taken against 1M, never escalated"
        },
        source,
        model.unwrap_or("unknown"),
    );
    Measurement {
        fill: Some(fill),
        scan: Some(scan),
        source,
        note,
        problem: None,
    }
}
