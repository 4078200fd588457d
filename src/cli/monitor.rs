//! `resume-tui monitor PROJECT [--transcript PATH]`: the `<context-monitor>` block.
//! Fill comes from the transcript when one is given, else from the newest recorded
//! context state, else from the project's newest checkpoint.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::prompt::{emit, load, lookup};
use super::{Context, CopyArgs, MonitorArgs};
use crate::core::fill::{WindowInputs, measure};
use crate::core::model::{Project, Workspace};
use crate::core::render::monitor::FillReading;
use crate::core::render::render_monitor;
use crate::core::render::state::newest_checkpoint;
use crate::io::transcript::{ScanLimits, scan};
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

fn from_transcript(ctx: &Context, path: &Path) -> Result<FillReading> {
    let found = scan(path, &ScanLimits::usage_only()).map_err(|e| Error::io(path.display(), e))?;
    let tokens = found
        .usage
        .as_ref()
        .map(|u| u.usage.context_tokens())
        .or_else(|| found.last_boundary.as_ref().and_then(|b| b.post_tokens));
    let Some(tokens) = tokens else {
        return Ok(FillReading {
            source: Some(path.display().to_string()),
            ..FillReading::default()
        });
    };
    let disable_1m = ctx
        .env
        .get("CLAUDE_CODE_DISABLE_1M_CONTEXT")
        .is_some_and(|v| !matches!(v.trim(), "0" | "false" | "FALSE" | "no"));
    let fill = measure(
        tokens,
        &WindowInputs {
            env_window: ctx.env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
            config_window: ctx.config.context.window,
            model: found.model.as_deref(),
            disable_1m,
        },
    );
    let estimate = if fill.basis.certain { "" } else { ", estimate" };
    Ok(FillReading {
        fill: Some(fill.fill),
        tokens_used: i64::try_from(fill.tokens_used).ok(),
        window: i64::try_from(fill.basis.window).ok(),
        level_fill: (!fill.basis.certain).then(|| fill.level_fill()),
        basis: Some(format!("window: {}{estimate}", fill.basis.source.label())),
        source: Some(path.display().to_string()),
    })
}

/// The newest context state written beside this project's repository (any, if
/// none is), else the project's newest checkpoint.
fn recorded(ws: &Workspace, project: &Project) -> FillReading {
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
            ..FillReading::default()
        },
        _ => FillReading::default(),
    }
}
