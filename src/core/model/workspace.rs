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
    /// State files found but not listed (test fixtures, manifests outside the
    /// Nexus layout), with the reason: `list --all` shows them.
    pub excluded: Vec<Excluded>,
}

/// A state file that was found but not listed, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excluded {
    /// Relative to the root.
    pub path: String,
    pub reason: String,
}
