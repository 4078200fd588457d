//! The work of the load effects, done on a worker thread: the workspace (or single
//! projects) as `io::load` reads it, with the content hash of each state file.
//!
//! The hash is what a later edit expects to find on disk (`project_edit::Target`),
//! so an edit is never applied to a file the operator has not seen. It is taken
//! from the very bytes the loader parsed.
//!
//! A whole workspace is loaded in two passes over one discovery. The preview reads
//! each ORCHESTRATION.yaml through the hooks' pruned parse (`LoadOptions::
//! fast_orchestration`): the same projects (a property test and the `jerry_fast`
//! fuzz target hold it to that), a fraction of the parsing, but no warnings about
//! the entries it skips. The dashboard draws it at once; the full pass that follows
//! brings those warnings (and a syntax error in a part the preview skipped), and
//! the compaction summaries of the checkpoints' transcripts (`io::transcript::
//! attach`: bounded reads, here and never while drawing).

use std::path::Path;

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::discover::Discovery;
use crate::io::env::Env;
use crate::io::load::{self, CheckpointReading, LoadOptions};
use crate::io::transcript::attach::Reader;

use super::msg::{LoadedWorkspace, ReloadedProject};

pub use crate::io::load::StateHashes;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    Preview,
    Full,
}

/// Loads the files `discovery` found, in the given pass.
pub fn load(
    root: &Path,
    env: &Env,
    discovery: &Discovery,
    now: Timestamp,
    config: &Config,
    pass: Pass,
) -> LoadedWorkspace {
    let options = LoadOptions {
        fast_orchestration: pass == Pass::Preview,
        ..LoadOptions::default()
    };
    let (mut workspace, hashes) =
        load::load_discovered_hashed(root, discovery, now, config, &options);
    if pass == Pass::Full {
        Reader::new(root, env).attach_workspace(&mut workspace);
    }
    let statusline = super::live_records::statusline_states(root, &workspace);
    workspace.context_states.extend(statusline);
    // Absolute, so that `Y` copies a `cd` that works from anywhere.
    workspace.root = std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .display()
        .to_string();
    LoadedWorkspace {
        workspace,
        hashes,
        preview: pass == Pass::Preview,
        state_folders: discovery.state_folders.clone(),
    }
}

/// Re-reads checkpoint files (root-relative), with their transcripts' summaries
/// as a full pass attaches them. A path that is no checkpoint reads as a problem
/// (the caller then loads everything).
pub fn reload_checkpoints(
    root: &Path,
    env: &Env,
    paths: Vec<String>,
) -> Vec<(String, CheckpointReading)> {
    let mut reader = Reader::new(root, env);
    paths
        .into_iter()
        .map(|rel| {
            let mut reading = load::read_checkpoint(root, &rel).unwrap_or_else(|| {
                CheckpointReading::Problem(crate::core::model::Diagnostic::error(
                    rel.as_str(),
                    "not a checkpoint",
                ))
            });
            if let CheckpointReading::Read(checkpoint) = &mut reading {
                reader.attach(checkpoint);
            }
            (rel, reading)
        })
        .collect()
}

/// Re-reads one project's state file (root-relative `source`) and its checkpoints.
pub fn reload_project(
    root: &Path,
    env: &Env,
    source: String,
    now: Timestamp,
    config: &Config,
) -> ReloadedProject {
    let mut reloaded = load::reload_project_file(root, &source, now, config);
    let mut reader = Reader::new(root, env);
    if let Some(project) = &mut reloaded.project {
        reader.attach_all(&mut project.checkpoints);
    }
    reader.attach_all(&mut reloaded.unclaimed);
    ReloadedProject {
        source,
        project: reloaded.project.map(Box::new),
        hash: reloaded.hash,
        unclaimed: reloaded.unclaimed,
    }
}
