//! The context fill of the Claude Code session working on a project, as the
//! records in the folder it runs in (`launch::launch_base`) last gave it: the
//! hooks' `.jerry/context-monitor-state.json` and the status line's
//! `.jerry/context-window/<session>.json`, for a session the project works in
//! (`launch::session_works_on`), the newest first. The dashboard's gauge and
//! fill column and the order of urgency (`urgency`) read it from here.

use crate::core::launch;
use crate::core::model::{ContextState, Project, Workspace};

/// The status line's records, relative to the folder Claude Code runs in.
pub const STATUSLINE_DIR: &str = ".jerry/context-window";

/// The project's readings (a finite fill, from a session it works in), oldest first.
pub fn readings<'a>(workspace: &'a Workspace, project: &Project) -> Vec<&'a ContextState> {
    let base = launch::launch_base(project);
    let monitor = launch::join(&base, launch::MONITOR_RECORD);
    let statusline = format!("{}/", launch::join(&base, STATUSLINE_DIR));
    let mut found: Vec<&ContextState> = workspace
        .context_states
        .iter()
        .filter(|s| {
            (s.path == monitor || s.path.starts_with(&statusline))
                && s.fill.is_some_and(f64::is_finite)
                && s.session_id
                    .as_deref()
                    .is_some_and(|id| launch::session_works_on(workspace, project, id))
        })
        .collect();
    found.sort_by_key(|s| s.updated_at);
    found
}

/// The fill shown for `project`: its session's newest reading, else the fill its
/// state file recorded at its last update.
pub fn fill(workspace: &Workspace, project: &Project) -> Option<f64> {
    readings(workspace, project)
        .pop()
        .and_then(|s| s.fill)
        .or(project.summary.fill_at_update)
        .filter(|f| f.is_finite())
}
