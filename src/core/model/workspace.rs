use serde::Serialize;

use super::{Checkpoint, ContextState, Diagnostic, PrecompactState, Project};

/// Everything found under one root.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Workspace {
    /// The root as given, for display.
    pub root: String,
    pub projects: Vec<Project>,
    /// Checkpoints that name no workflow of this workspace (real Jerry ones never do).
    pub unassigned_checkpoints: Vec<Checkpoint>,
    pub context_states: Vec<ContextState>,
    pub precompact: Option<PrecompactState>,
    /// Problems not tied to one project (unreadable folders, stray files).
    pub diagnostics: Vec<Diagnostic>,
}
