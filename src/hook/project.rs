//! Loading the one or few project files an event needs, never the whole workspace.

use std::path::Path;

use super::context::HookContext;
use crate::core::model::Project;
use crate::core::staleness::Session;
use crate::io::discover::{self, Discovery, FileKind, Found};
use crate::io::load::{LoadOptions, load_discovered};

/// The Claude Code session in progress, for the staleness rule "from a previous
/// session": its id, and when its transcript began.
pub fn session(session_id: Option<&str>, transcript: Option<&Path>) -> Option<Session> {
    let started_at = transcript.and_then(crate::io::transcript::first_timestamp);
    (session_id.is_some() || started_at.is_some()).then(|| Session {
        id: session_id.map(str::to_string),
        started_at,
    })
}

/// Loads one ORCHESTRATION.yaml or Nexus manifest with the checkpoints of the
/// project folder, its listed files checked and its staleness assessed.
/// `with_checkpoints: false` reads the state file alone (to judge many candidates).
pub fn load(
    found: &Found,
    ctx: &HookContext,
    session: Option<Session>,
    with_checkpoints: bool,
) -> Option<Project> {
    let root = ctx.project_dir()?;
    let mut files = vec![found.clone()];
    if with_checkpoints && found.kind == FileKind::Orchestration {
        let checkpoints = discover::discover_under(root, &root.join(".jerry").join("checkpoints"));
        files.extend(
            checkpoints
                .files
                .into_iter()
                .filter(|f| matches!(f.kind, FileKind::Checkpoint | FileKind::CheckpointMarker)),
        );
    }
    let discovery = Discovery {
        files,
        diagnostics: Vec::new(),
    };
    let options = LoadOptions {
        session,
        fast_orchestration: true,
        one_thread: true,
    };
    let ws = load_discovered(root, &discovery, ctx.now, ctx.config, &options);
    ws.projects.into_iter().next()
}

/// A state file named by an absolute or root-relative path, classified as discovery
/// would classify it. Files outside the project folder are named by their full path.
pub fn found_at(root: &Path, path: &Path) -> Option<Found> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    };
    let rel = discover::relative_to(root, &absolute)
        .or_else(|| {
            // The root may be a symlink (macOS /tmp, a linked checkout).
            let real_root = std::fs::canonicalize(root).ok()?;
            let real = std::fs::canonicalize(&absolute).ok()?;
            discover::relative_to(&real_root, &real)
        })
        .unwrap_or_else(|| absolute.display().to_string());
    let (kind, dir) = discover::classify(&rel).or_else(|| {
        // Outside the workspace layout: still a state file by its name.
        let name = absolute.file_name()?.to_str()?;
        let parent = absolute.parent()?.display().to_string();
        match name {
            "ORCHESTRATION.yaml" => Some((FileKind::Orchestration, parent)),
            "resume-context.md" | "_resume.md" => Some((FileKind::NexusManifest, parent)),
            _ => None,
        }
    })?;
    matches!(kind, FileKind::Orchestration | FileKind::NexusManifest).then_some(Found {
        kind,
        path: absolute,
        rel,
        dir,
    })
}
