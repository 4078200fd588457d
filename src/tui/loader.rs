//! The work of the load effects, done on a worker thread: the workspace (or single
//! projects) as `io::load` reads it, with the content hash of each state file.
//!
//! The hash is what a later edit expects to find on disk (`project_edit::Target`),
//! so an edit is never applied to a file the operator has not seen. It is taken
//! from the very bytes the loader parsed.

use std::path::Path;

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::discover;
use crate::io::env::Env;
use crate::io::load::{self, LoadOptions};

use super::msg::{LoadedWorkspace, ReloadedProject};

pub use crate::io::load::StateHashes;

/// Discovers and loads the whole workspace.
pub fn load_workspace(root: &Path, env: &Env, now: Timestamp, config: &Config) -> LoadedWorkspace {
    let discovery = discover::discover(root, env);
    let options = LoadOptions {
        content_hashes: true,
        ..LoadOptions::default()
    };
    let (mut workspace, hashes) =
        load::load_discovered_hashed(root, &discovery, now, config, &options);
    // Absolute, so that `Y` copies a `cd` that works from anywhere.
    workspace.root = std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .display()
        .to_string();
    LoadedWorkspace { workspace, hashes }
}

/// Re-reads one project's state file (root-relative `source`) and its checkpoints.
pub fn reload_project(
    root: &Path,
    env: &Env,
    source: String,
    now: Timestamp,
    config: &Config,
) -> ReloadedProject {
    let (project, hash) = load::load_project_file_hashed(root, env, &source, now, config);
    ReloadedProject {
        source,
        project: project.map(Box::new),
        hash,
    }
}
