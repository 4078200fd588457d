//! `resume-tui monitor PROJECT [--transcript PATH]`: the `<context-monitor>` block.
//! Fill comes from the transcript when one is given, else from the project's own
//! session as `show` and the dashboard find it (`show::window`).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::prompt::{emit, load, lookup};
use super::{CopyArgs, MonitorArgs};
use crate::app::Context;
use crate::core::render::monitor::FillReading;
use crate::core::render::render_monitor;
use crate::io::context_fill::{self, Measurement, Subject};
use crate::io::transcript::ScanLimits;
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &MonitorArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = load(ctx);
    let project = lookup(ctx, &ws, &args.project)?;
    let reading = match &args.transcript {
        Some(path) => from_transcript(ctx, path)?,
        // The project's own session, as `show` and the dashboard give it: never
        // another session's figure, nor one recorded before a compaction.
        None => super::show::window::view(ctx, &ws, project).reading(),
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
