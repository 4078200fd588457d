//! `resume-tui merge PROJECT CHECKPOINT [--dry-run]`: record a checkpoint in the
//! project's `compaction_events`, in the layout the file already uses.

use std::io::Write;
use std::process::ExitCode;

use super::MergeArgs;
use super::edit_output::{ATTEMPTS, checkpoint_candidates, load_project, print, project};
use crate::app::Context;
use crate::io::project_edit::{Target, find_checkpoint, merge, retrying};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &MergeArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let (ws, index) = load_project(ctx, &args.project)?;
    let project = project(&ws, index)?;
    let candidates = checkpoint_candidates(&ws, project);
    let cp = find_checkpoint(&candidates, &args.checkpoint).map_err(Error::Usage)?;
    let target = Target::of(project);
    let outcome = retrying(ATTEMPTS, || merge(&ctx.root, &target, cp, args.dry_run))?;
    print(&outcome, args.dry_run, out)
}
