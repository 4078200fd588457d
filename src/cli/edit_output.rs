//! What the editing commands (`ack`, `merge`, `decision`) print: the diff that would
//! be written with `--dry-run`, else one summary line per file written.

use std::io::Write;
use std::process::ExitCode;

use crate::app::Context;
use crate::core::model::{Checkpoint, Project, Workspace};
use crate::core::workspace::{LookupError, find_project};
use crate::io::project_edit::Outcome;
use crate::{Error, Result};

/// Tries an edit makes when a file changes under it (each re-reads the files).
pub const ATTEMPTS: usize = 3;

/// Loads the workspace and finds the project the command line names.
pub fn load_project(ctx: &Context, name: &str) -> Result<(Workspace, usize)> {
    load_project_or_workspace(ctx, name).map_err(|e| match e {
        LoadError::NotFound(_, e) => e.into(),
        LoadError::Other(e) => e,
    })
}

/// Why [`load_project_or_workspace`] found no project.
pub enum LoadError {
    /// No project has that name: the workspace read, for what else it may name.
    NotFound(Box<Workspace>, LookupError),
    Other(Error),
}

/// [`load_project`], giving the workspace back when no project has the name
/// (`ack` then looks among the checkpoints tied to no project).
pub fn load_project_or_workspace(
    ctx: &Context,
    name: &str,
) -> Result<(Workspace, usize), LoadError> {
    let ws = super::prompt::load(ctx);
    let name = super::show::project_name_under_root(ctx, name);
    let index = match find_project(&ws, &name) {
        Ok(project) => ws.projects.iter().position(|p| std::ptr::eq(p, project)),
        Err(e @ LookupError::NotFound { .. }) => return Err(LoadError::NotFound(Box::new(ws), e)),
        Err(e) => return Err(LoadError::Other(e.into())),
    };
    let index = index.ok_or_else(|| {
        LoadError::Other(Error::Usage(format!(
            "project {name} vanished while loading"
        )))
    })?;
    Ok((ws, index))
}

pub fn project(ws: &Workspace, index: usize) -> Result<&Project> {
    ws.projects
        .get(index)
        .ok_or_else(|| Error::Usage("the project list changed while loading".to_string()))
}

/// The checkpoints a command line may name for `project`: its own, and those no
/// project claims (real Jerry checkpoints name no workflow).
pub fn checkpoint_candidates<'w>(ws: &'w Workspace, project: &'w Project) -> Vec<&'w Checkpoint> {
    project
        .checkpoints
        .iter()
        .chain(&ws.unassigned_checkpoints)
        .collect()
}

pub fn print(outcome: &Outcome, dry_run: bool, out: &mut dyn Write) -> Result<ExitCode> {
    let io = |e| Error::io("standard output", e);
    for change in &outcome.changes {
        if dry_run {
            write!(out, "{}", change.diff()).map_err(io)?;
        } else {
            writeln!(out, "{}", change.summary()).map_err(io)?;
        }
    }
    for note in &outcome.notes {
        writeln!(out, "{note}").map_err(io)?;
    }
    if outcome.changes.is_empty() && outcome.notes.is_empty() {
        writeln!(out, "nothing to change").map_err(io)?;
    }
    if dry_run && !outcome.changes.is_empty() {
        let summaries: Vec<String> = outcome.changes.iter().map(|c| c.summary()).collect();
        writeln!(out, "dry run, nothing written: {}", summaries.join("; ")).map_err(io)?;
    }
    Ok(ExitCode::SUCCESS)
}
