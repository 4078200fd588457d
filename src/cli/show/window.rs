//! `show`'s context window: the window the project's Claude Code session is
//! measured against, the evidence that decided it, and the fill, measured the way
//! the hooks measure it (`io::context_fill`, docs/hooks.md "The window rule").
//!
//! The session is the one whose fill the dashboard shows live (the hooks' record
//! in the folder Claude Code runs in, `core::launch::live_fill_record`), else the
//! one that wrote the project's newest checkpoint.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::app::Context;
use crate::core::launch;
use crate::core::model::{ContextState, Project, Workspace};
use crate::core::render::FillReading;
use crate::core::render::state::newest_checkpoint;
use crate::io::context_fill::Measurement;
use crate::io::transcript::summaries::transcript_of;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WindowView {
    pub session_id: Option<String>,
    pub transcript: Option<String>,
    pub window: Option<u64>,
    /// `core::fill::WindowSource`, kebab-case; `null` when the figure is the
    /// hooks' record, which keeps the evidence in words only.
    pub window_source: Option<String>,
    /// The evidence in words, e.g. `claude-sonnet-4-5: 200k unless selected with [1m]`.
    pub evidence: Option<String>,
    pub fill: Option<f64>,
    pub tokens_used: Option<u64>,
    /// `transcript`, `compact boundary`, `status line`, `hooks' record`, `unavailable`.
    pub measured_from: String,
    pub note: String,
    /// The file the figure came from (the transcript, the hooks' record).
    #[serde(skip)]
    pub source: Option<String>,
}

impl WindowView {
    /// The `<context-monitor>` reading of this view: `monitor PROJECT` shows the
    /// figure `show` and the dashboard do, never another session's.
    pub fn reading(&self) -> FillReading {
        FillReading {
            fill: self.fill,
            tokens_used: self.tokens_used.and_then(|t| i64::try_from(t).ok()),
            window: self.window.and_then(|w| i64::try_from(w).ok()),
            basis: self.evidence.as_ref().map(|e| format!("window: {e}")),
            source: self.source.clone(),
        }
    }
}

pub fn view(ctx: &Context, ws: &Workspace, project: &Project) -> WindowView {
    let base = launch::launch_base(project);
    let folder = ctx.root.join(&base);
    let live = launch::live_fill_record(ws, project);
    let session_id = live
        .and_then(|s| s.session_id.clone())
        .or_else(|| newest_checkpoint(&project.checkpoints).and_then(|c| c.session_id.clone()));
    // The hooks' record names the transcript; without one (none yet, or removed
    // after a compaction left the fill unknown), Claude Code's own file of the
    // session, where it keeps it.
    let transcript = live
        .and_then(|s| s.other.get("transcript_path"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            let id = session_id.as_deref()?;
            transcript_of(&ctx.env, &folder, id).map(|p| p.display().to_string())
        });
    let measured = crate::cli::monitor::measure(
        ctx,
        transcript.as_deref().map(Path::new),
        session_id.as_deref(),
        &folder,
    );
    let mut view = WindowView {
        session_id,
        source: transcript.clone(),
        transcript,
        ..from_measurement(&measured)
    };
    match live {
        Some(state) if measured.scan.is_none() => recorded(&mut view, state, &measured),
        None if view.session_id.is_none() => {
            view.note = format!(
                "no Claude Code session recorded for this project; {}",
                view.note
            );
        }
        _ => {}
    }
    view
}

fn from_measurement(measured: &Measurement) -> WindowView {
    let basis = measured.basis.as_ref();
    WindowView {
        window: basis.map(|b| b.window),
        window_source: basis.map(|b| b.source.key()),
        evidence: basis.map(|b| b.evidence.clone()),
        fill: measured.fill.as_ref().map(|f| f.fill),
        tokens_used: measured.fill.as_ref().map(|f| f.tokens_used),
        measured_from: measured.source.to_string(),
        note: measured.note.clone(),
        ..WindowView::default()
    }
}

/// The transcript cannot be measured now (gone, moved, on another machine): the
/// figure and evidence the hooks recorded when they last measured it.
fn recorded(view: &mut WindowView, state: &ContextState, measured: &Measurement) {
    let text = |key: &str| state.other.get(key).and_then(Value::as_str);
    view.window = state.window.and_then(|w| u64::try_from(w).ok());
    view.window_source = None;
    view.evidence = text("window_source").map(str::to_string);
    view.fill = state.fill;
    view.tokens_used = state.tokens_used.and_then(|t| u64::try_from(t).ok());
    view.measured_from = "hooks' record".to_string();
    view.source = Some(state.path.clone());
    let when = state.updated_at_raw.as_deref().unwrap_or("an unknown time");
    view.note = format!(
        "as the hooks recorded it in {} at {when}; measured now: {}",
        state.path, measured.note
    );
}
