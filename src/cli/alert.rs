//! `resume-tui alert PROJECT [CHECKPOINT]`: Template 2 for a checkpoint (default:
//! the project's newest unacknowledged one, else its newest).

use std::io::Write;
use std::process::ExitCode;

use super::AlertArgs;
use super::prompt::{emit, load, lookup};
use crate::app::Context;
use crate::core::model::{Checkpoint, Project, Workspace};
use crate::core::render::render_alert;
use crate::core::render::state::{in_order, newest_checkpoint};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &AlertArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let ws = load(ctx);
    let project = lookup(ctx, &ws, &args.project)?;
    let (checkpoint, known) = choose(&ws, project, args.checkpoint.as_deref())?;
    let rendered = render_alert(checkpoint, Some(project), known);
    emit(ctx, rendered, &args.copy, args.json, out)
}

/// The checkpoint to alert for, and the list it belongs to (for the
/// `N of M this session` count).
fn choose<'a>(
    ws: &'a Workspace,
    project: &'a Project,
    name: Option<&str>,
) -> Result<(&'a Checkpoint, &'a [Checkpoint])> {
    let own = project.checkpoints.as_slice();
    let stray = ws.unassigned_checkpoints.as_slice();
    let Some(name) = name else {
        let unacknowledged: Vec<&Checkpoint> = in_order(own)
            .into_iter()
            .filter(|c| !c.acknowledged)
            .collect();
        let chosen = unacknowledged
            .last()
            .copied()
            .or_else(|| newest_checkpoint(own));
        return match chosen {
            Some(cp) => Ok((cp, own)),
            None => Err(Error::Usage(no_checkpoints(project, stray))),
        };
    };
    if let Some(cp) = own.iter().find(|c| matches(c, name)) {
        return Ok((cp, own));
    }
    if let Some(cp) = stray.iter().find(|c| matches(c, name)) {
        return Ok((cp, stray));
    }
    let known: Vec<&str> = in_order(own)
        .iter()
        .chain(in_order(stray).iter())
        .map(|c| c.id.as_str())
        .collect();
    Err(Error::Usage(format!(
        "no checkpoint \"{name}\" for {}; known: {}",
        project.id,
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )))
}

/// `cx-001`, `CX-001`, `1`, or the checkpoint's path (or file name).
pub(crate) fn matches(cp: &Checkpoint, name: &str) -> bool {
    let name = name.trim();
    cp.id.eq_ignore_ascii_case(name)
        || name.parse::<u32>().is_ok_and(|n| cp.number == Some(n))
        || cp.path == name
        || cp.path.rsplit('/').next() == Some(name)
}

fn no_checkpoints(project: &Project, stray: &[Checkpoint]) -> String {
    let mut message = format!("{} has no checkpoints", project.id);
    if !stray.is_empty() {
        let ids: Vec<&str> = in_order(stray).iter().map(|c| c.id.as_str()).collect();
        message.push_str(&format!(
            "; checkpoints naming no workflow: {} (name one: resume-tui alert {} {})",
            ids.join(", "),
            project.id,
            ids.last().unwrap_or(&"cx-001")
        ));
    }
    message
}
