//! `resume-tui monitor PROJECT [--transcript PATH]`: the `<context-monitor>` block.
//! Fill comes from the transcript when one is given, else from the newest recorded
//! context state, else from the project's newest checkpoint.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::prompt::{emit, load, lookup};
use super::{CopyArgs, MonitorArgs};
use crate::app::Context;
use crate::core::model::{Project, Workspace};
use crate::core::render::monitor::FillReading;
use crate::core::render::render_monitor;
use crate::core::render::state::newest_checkpoint;
use crate::io::context_fill::{self, Measurement, Subject};
use crate::io::transcript::ScanLimits;
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &MonitorArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = load(ctx);
    let project = lookup(ctx, &ws, &args.project)?;
    let reading = match &args.transcript {
        Some(path) => from_transcript(ctx, path)?,
        None => recorded(&ws, project),
    };
    let rendered = render_monitor(project, &reading, &ctx.config.context, ctx.now);
    let no_copy = CopyArgs {
        copy: false,
        clipboard: None,
    };
    emit(ctx, rendered, &no_copy, args.json, out)
}

/// The transcript's fill, through the same path as the hooks (`io::context_fill`).
fn from_transcript(ctx: &Context, path: &Path) -> Result<FillReading> {
    // Claude Code names a transcript after its session: the session's records
    // (the status line's, the hooks' window evidence) count here as in the hook.
    let session_id = path.file_stem().and_then(|s| s.to_str());
    let measured = measure(ctx, Some(path), session_id, &ctx.root);
    if let Some(reason) = &measured.unreadable {
        return Err(Error::io(
            path.display(),
            std::io::Error::other(reason.clone()),
        ));
    }
    Ok(context_fill::reading(&measured, path.display().to_string()))
}

/// A session's fill as the hooks measure it (`io::context_fill`), the records
/// of the session read from `folder` (where Claude Code runs).
pub fn measure(
    ctx: &Context,
    transcript: Option<&Path>,
    session_id: Option<&str>,
    folder: &Path,
) -> Measurement {
    let subject = Subject {
        transcript,
        session_id,
        project_dir: Some(folder),
        model_hint: None,
    };
    context_fill::measure(
        &subject,
        &ctx.env,
        ctx.config.context.window,
        &ScanLimits::usage_only(),
    )
}

/// The newest context state written beside this project's repository (any, if
/// none is), else the project's newest checkpoint.
pub(crate) fn recorded(ws: &Workspace, project: &Project) -> FillReading {
    let repo = project
        .dir
        .split("/projects/")
        .next()
        .filter(|r| *r != project.dir)
        .unwrap_or("");
    let near: Vec<_> = ws
        .context_states
        .iter()
        .filter(|s| repo.is_empty() || s.path.starts_with(repo))
        .collect();
    let pool = if near.is_empty() {
        ws.context_states.iter().collect()
    } else {
        near
    };
    if let Some(state) = pool
        .into_iter()
        .filter(|s| s.fill.is_some() || s.tokens_used.is_some())
        .max_by_key(|s| s.updated_at)
    {
        return FillReading {
            fill: state.fill,
            tokens_used: state.tokens_used,
            window: state.window,
            source: Some(state.path.clone()),
            ..FillReading::default()
        };
    }
    match newest_checkpoint(&project.checkpoints) {
        Some(cp) if cp.fill.is_some() => FillReading {
            fill: cp.fill,
            tokens_used: cp.tokens_used,
            window: cp.window,
            basis: Some(format!("as recorded in {} before compaction", cp.id)),
            source: Some(cp.path.clone()),
        },
        _ => FillReading::default(),
    }
}
