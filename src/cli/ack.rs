//! `resume-tui ack PROJECT [CHECKPOINT | --all] [--dry-run]`: acknowledge a checkpoint
//! (default: the newest unacknowledged one) or all of a project's. A name that
//! names no project may name a checkpoint tied to no project (`cx-034`, `34`, or
//! its path): that checkpoint is acknowledged by its own file alone.

use std::io::Write;
use std::process::ExitCode;

use super::AckArgs;
use super::edit_output::{
    ATTEMPTS, LoadError, checkpoint_candidates, load_project_or_workspace, print, project,
};
use super::show::project_name_under_root;
use crate::app::Context;
use crate::core::model::{Checkpoint, Workspace};
use crate::core::workspace::LookupError;
use crate::io::project_edit::{
    Target, acknowledge, acknowledge_loose, find_checkpoint, retrying, same_checkpoint_name,
};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &AckArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let (ws, index) = match load_project_or_workspace(ctx, &args.project) {
        Ok(found) => found,
        Err(LoadError::NotFound(ws, e)) => return run_loose(ctx, args, &ws, e, out),
        Err(LoadError::Other(e)) => return Err(e),
    };
    let project = project(&ws, index)?;
    let candidates = checkpoint_candidates(&ws, project);
    let chosen: Vec<&Checkpoint> = match (&args.checkpoint, args.all) {
        (_, true) => project.unacknowledged_checkpoints().collect(),
        (Some(name), false) => vec![named_checkpoint(ctx, &candidates, name)?],
        (None, false) => {
            let newest = project
                .unacknowledged_checkpoints()
                .max_by_key(|c| (c.created_at, c.number));
            vec![newest.ok_or_else(|| {
                Error::Usage(format!(
                    "{} has no unacknowledged checkpoint; name one, or pass --all",
                    project.id
                ))
            })?]
        }
    };
    let target = Target::of(project);
    let outcome = retrying(ATTEMPTS, || {
        acknowledge(&ctx.root, &target, &chosen, args.all, ctx.now, args.dry_run)
    })?;
    print(&outcome, args.dry_run, out)
}

/// The project's checkpoint `name` names: its path (relative to the root or to the
/// current folder, or absolute), else its id.
fn named_checkpoint<'c>(
    ctx: &Context,
    candidates: &'c [&'c Checkpoint],
    name: &str,
) -> Result<&'c Checkpoint> {
    let path = project_name_under_root(ctx, name);
    let by_path = candidates.iter().copied().find(|c| c.path == path);
    match by_path {
        Some(checkpoint) => Ok(checkpoint),
        None => find_checkpoint(candidates, name).map_err(Error::Usage),
    }
}

/// `name` names no project: the checkpoint tied to no project it names, if
/// exactly one; else the project lookup's error, which says what was looked for.
fn run_loose(
    ctx: &Context,
    args: &AckArgs,
    ws: &Workspace,
    not_a_project: LookupError,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let name = args.project.as_str();
    let path = project_name_under_root(ctx, name);
    let named: Vec<&Checkpoint> = ws
        .unassigned_checkpoints
        .iter()
        .filter(|c| same_checkpoint_name(c, &path))
        .collect();
    let checkpoint = match named.as_slice() {
        [] => return Err(not_a_project.into()),
        [one] => *one,
        several => {
            let paths: Vec<String> = several.iter().map(|c| format!("  {}", c.path)).collect();
            return Err(Error::Ambiguous(format!(
                "\"{name}\" names no project and {} checkpoints tied to no project; name one by its path:\n{}",
                several.len(),
                paths.join("\n")
            )));
        }
    };
    if args.all || args.checkpoint.is_some() {
        return Err(Error::Usage(format!(
            "{name} is a checkpoint tied to no project ({}); acknowledge it alone: resume-tui ack {name}",
            checkpoint.path
        )));
    }
    let outcome = retrying(ATTEMPTS, || {
        acknowledge_loose(&ctx.root, &[checkpoint], ctx.now, args.dry_run)
    })?;
    print(&outcome, args.dry_run, out)
}
