//! `resume-tui ack PROJECT [CHECKPOINT | --all] [--dry-run]`: acknowledge a checkpoint
//! (default: the newest unacknowledged one) or all of a project's.

use std::io::Write;
use std::process::ExitCode;

use super::AckArgs;
use super::edit_output::{ATTEMPTS, checkpoint_candidates, load_project, print, project};
use crate::app::Context;
use crate::core::model::Checkpoint;
use crate::io::project_edit::{Target, acknowledge, find_checkpoint, retrying};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &AckArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let (ws, index) = load_project(ctx, &args.project)?;
    let project = project(&ws, index)?;
    let candidates = checkpoint_candidates(&ws, project);
    let chosen: Vec<&Checkpoint> = match (&args.checkpoint, args.all) {
        (_, true) => project.unacknowledged_checkpoints().collect(),
        (Some(name), false) => vec![find_checkpoint(&candidates, name).map_err(Error::Usage)?],
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
