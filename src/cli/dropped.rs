//! `resume-tui dropped PROJECT [CHECKPOINT]`: what the compaction after a
//! checkpoint (default: the project's newest) kept and dropped of the state
//! before it (`core::dropped`, docs/compaction.md).

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use super::DroppedArgs;
use super::alert::matches;
use super::prompt::{load, lookup};
use crate::app::Context;
use crate::core::dropped::{Comparison, compare_checkpoint, report};
use crate::core::model::{Checkpoint, Project, Workspace};
use crate::core::render::state::{in_order, newest_checkpoint};
use crate::core::time::describe_age;
use crate::io::transcript::source::{FoundSummary, Lookup, SummarySource, summary_for};
use crate::io::transcript::summaries::WHOLE_BYTES;
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &DroppedArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = load(ctx);
    let project = lookup(ctx, &ws, &args.project)?;
    let checkpoint = choose(&ws, project, args.checkpoint.as_deref())?;
    let compared = summary_of(ctx, checkpoint).map(|found| {
        let comparison = compare_checkpoint(checkpoint, &found.text);
        (found, comparison)
    });
    let written = if args.json {
        let ok = compared.as_ref().ok();
        let value = json!({
            "project": project.id,
            "checkpoint": checkpoint.id,
            "summary_source": ok.map(|(found, _)| found.source.label()),
            "kept": ok.iter().flat_map(|(_, c)| c.kept()).collect::<Vec<_>>(),
            "dropped": ok.iter().flat_map(|(_, c)| c.dropped()).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        let text = as_text(ctx, project, checkpoint, &compared);
        out.write_all(text.as_bytes())
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("standard output", e))?;
    Ok(ExitCode::SUCCESS)
}

/// The checkpoint's summary: the recorded one, else its session's transcript.
pub(crate) fn summary_of(
    ctx: &Context,
    checkpoint: &Checkpoint,
) -> std::result::Result<FoundSummary, String> {
    summary_for(
        checkpoint,
        &Lookup {
            env: &ctx.env,
            root: &ctx.root,
            transcript: None,
            max_bytes: WHOLE_BYTES,
        },
    )
}

fn choose<'a>(
    ws: &'a Workspace,
    project: &'a Project,
    name: Option<&str>,
) -> Result<&'a Checkpoint> {
    let own = project.checkpoints.as_slice();
    let Some(name) = name else {
        return newest_checkpoint(own)
            .ok_or_else(|| Error::Usage(format!("{} has no checkpoints", project.id)));
    };
    let stray = ws.unassigned_checkpoints.iter();
    if let Some(cp) = own.iter().chain(stray).find(|c| matches(c, name)) {
        return Ok(cp);
    }
    let known: Vec<&str> = in_order(own).iter().map(|c| c.id.as_str()).collect();
    Err(Error::Usage(format!(
        "no checkpoint \"{name}\" for {}; its checkpoints: {}",
        project.id,
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )))
}

fn as_text(
    ctx: &Context,
    project: &Project,
    checkpoint: &Checkpoint,
    compared: &std::result::Result<(FoundSummary, Comparison), String>,
) -> String {
    let when = checkpoint
        .created_at
        .map(|t| format!(" ({})", describe_age(ctx.now.seconds_since(t))))
        .unwrap_or_default();
    let header = format!("{} · checkpoint {}{when}", project.id, checkpoint.id);
    match compared {
        Ok((found, comparison)) => {
            let source = match &found.source {
                SummarySource::Recorded => report::RECORDED_SOURCE.to_string(),
                SummarySource::Transcript(path) => {
                    report::transcript_source(&path.display().to_string())
                }
            };
            report::as_text(&header, Ok((&source, comparison)))
        }
        Err(why) => report::as_text(&header, Err(why)),
    }
}
