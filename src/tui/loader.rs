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
//!
//! Before either pass, the first load sends what discovery alone knows
//! (`discovered`): one row per state file, named by its folder and marked as
//! not read yet, so the list is on screen while the files are read.

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

/// The projects `discovery` found, known only by where their state files are:
/// each is named by its folder (its path, or the file's, when two share a name) and holds
/// nothing read from the file. `state_folders` also holds the folders of every
/// other file found (checkpoints, context records), so that watching them from
/// this frame on covers what the passes will read.
pub fn discovered(root: &Path, discovery: &Discovery) -> LoadedWorkspace {
    use crate::core::model::{Project, ProjectKind, Shape};
    use crate::io::discover::FileKind;
    let mut names = std::collections::HashSet::new();
    let mut folders = discovery.state_folders.clone();
    // Each project's id, in the order of the files (the first of two alike keeps
    // the short name), then the projects in the list's order. A project is large:
    // each is made once, in place, rather than moved by a sort.
    let mut found_projects = Vec::new();
    for found in &discovery.files {
        let dir = found.rel.rsplit_once('/').map_or("", |(dir, _)| dir);
        let kind = match found.kind {
            FileKind::Orchestration => ProjectKind::Jerry,
            FileKind::NexusManifest => ProjectKind::Nexus,
            _ => {
                folders.push(dir.to_string());
                continue;
            }
        };
        let unnamed = Project::at(kind, "", String::new(), dir, Shape::None);
        // The innermost telling folder (`core::workspace::aliases`), else the
        // folder, else the file: unique, as ids are.
        let short = crate::core::workspace::aliases(&unnamed).pop();
        let id = [short, Some(dir.to_string()), Some(found.rel.clone())]
            .into_iter()
            .flatten()
            .find(|name| !name.is_empty() && names.insert(name.clone()))
            .unwrap_or_else(|| found.rel.clone());
        found_projects.push((found, kind, dir, id));
    }
    found_projects.sort_unstable_by(|a, b| a.0.rel.cmp(&b.0.rel));
    let mut workspace = crate::core::model::Workspace::default();
    workspace.projects.reserve_exact(found_projects.len());
    for (found, kind, dir, id) in found_projects {
        let project = Project::at(kind, id, found.rel.clone(), dir, Shape::None);
        workspace.projects.push(project);
    }
    folders.sort_unstable();
    folders.dedup();
    workspace.root = absolute(root);
    LoadedWorkspace {
        workspace,
        unread: true,
        state_folders: folders,
        ..LoadedWorkspace::default()
    }
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
    workspace.root = absolute(root);
    LoadedWorkspace {
        workspace,
        hashes,
        preview: pass == Pass::Preview,
        unread: false,
        state_folders: discovery.state_folders.clone(),
    }
}

/// The root as the workspace holds it: absolute, so that `Y` copies a `cd` that
/// works from anywhere.
fn absolute(root: &Path) -> String {
    std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .display()
        .to_string()
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

#[cfg(test)]
#[path = "loader_tests.rs"]
mod tests;
