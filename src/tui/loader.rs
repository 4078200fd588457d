//! The work of the load effects, done on a worker thread: the workspace (or single
//! projects) as `io::load` reads it, with the content hash of each state file.
//!
//! The hash is what a later edit expects to find on disk (`project_edit::Target`),
//! so an edit is never applied to a file the operator has not seen. It is taken
//! just *before* the loader reads the file: if the file changes between the two
//! reads, the screen shows the newer bytes and the hash the older ones, and an edit
//! is refused until a reload (the safe way round); if it changes after the
//! loader's read, the hash still names what is on screen.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::discover::{self, FileKind};
use crate::io::env::Env;
use crate::io::load::{self, LoadOptions, MAX_FILE_BYTES};
use crate::io::write::ContentHash;

use super::msg::{LoadedWorkspace, ReloadedProject};

/// Content hash of each state file as read, by root-relative source.
pub type StateHashes = HashMap<String, ContentHash>;

/// Discovers and loads the whole workspace.
pub fn load_workspace(root: &Path, env: &Env, now: Timestamp, config: &Config) -> LoadedWorkspace {
    let discovery = discover::discover(root, env);
    let state_files: Vec<(&str, &Path)> = discovery
        .files
        .iter()
        .filter(|f| matches!(f.kind, FileKind::Orchestration | FileKind::NexusManifest))
        .map(|f| (f.rel.as_str(), f.path.as_path()))
        .collect();
    let hashes = hash_all(&state_files);
    let mut workspace =
        load::load_discovered(root, &discovery, now, config, &LoadOptions::default());
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
    let hash = hash_file(&root.join(&source));
    let project = load::load_project_file(root, env, &source, now, config).map(Box::new);
    ReloadedProject {
        source,
        project,
        hash,
    }
}

/// The hashes of `files` (source, path), in parallel: a large workspace has a
/// thousand of them. Files that cannot be read (or are too large to load) get none.
fn hash_all(files: &[(&str, &Path)]) -> StateHashes {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = files.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .filter_map(|(rel, path)| Some((rel.to_string(), hash_file(path)?)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .flatten()
            .collect()
    })
}

fn hash_file(path: &Path) -> Option<ContentHash> {
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_FILE_BYTES).then(|| ContentHash::of(&bytes))
}
