//! Loading the one or few project files an event needs, never the whole workspace.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::context::HookContext;
use crate::core::model::Project;
use crate::core::normalize::jerry::Reading;
use crate::core::staleness::Session;
use crate::io::discover::{self, Discovery, FileKind, Found};
use crate::io::fence::{Fence, Inside};
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

/// State files judged as candidates (`load` without checkpoints), each read
/// once: detection by session and then the fallback may ask for the same file.
pub struct Candidates<'c, 'a> {
    ctx: &'c HookContext<'a>,
    loaded: RefCell<HashMap<PathBuf, Option<Project>>>,
}

impl<'c, 'a> Candidates<'c, 'a> {
    pub fn new(ctx: &'c HookContext<'a>) -> Self {
        Self {
            ctx,
            loaded: RefCell::new(HashMap::new()),
        }
    }

    pub fn load(&self, found: &Found) -> Option<Project> {
        if let Some(project) = self.loaded.borrow().get(&found.path) {
            return project.clone();
        }
        let project = load(found, self.ctx, None, false);
        let mut loaded = self.loaded.borrow_mut();
        loaded.insert(found.path.clone(), project.clone());
        project
    }
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
    if found.kind != FileKind::Orchestration {
        // A Nexus build: its manifest with its overview and steps.
        files = discover::nexus_build_files(root, &found.dir);
        files.sort_by_key(|f| f.rel != found.rel);
        if files.is_empty() {
            files.push(found.clone());
        }
    }
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
        ..Discovery::default()
    };
    let options = LoadOptions {
        session,
        fast_orchestration: true,
        reading: reading(),
        one_thread: true,
        partial: true,
    };
    let ws = load_discovered(root, &discovery, ctx.now, ctx.config, &options);
    ws.projects.into_iter().next()
}

/// The hook's first file is read with its document's memory left to the
/// process's end (`Reading::ForOneHook`); any other, given back as read.
fn reading() -> Reading {
    static FIRST: AtomicBool = AtomicBool::new(true);
    if FIRST.swap(false, Ordering::Relaxed) {
        Reading::ForOneHook
    } else {
        Reading::ForHooks
    }
}

/// Logs the errors that left `project` unread (a YAML error, a refusal of
/// `core::yaml::guard`): the hook goes on without its state, but says why.
pub fn log_errors(project: &Project, out: &mut super::output::HookOutcome) {
    for d in &project.diagnostics {
        if d.severity == crate::core::model::Severity::Error {
            out.error(d.to_string());
        }
    }
}

/// A state file named by an absolute or root-relative path taken from a file,
/// classified as discovery would classify it; `None` outside the root (see
/// `io::fence`).
pub fn found_at(fence: &Fence, path: &str) -> Option<Found> {
    found_inside(fence.file(path)?)
}

/// [`found_at`] for a path that must name an existing regular file
/// ([`Fence::existing_file`]).
pub fn found_file_at(fence: &Fence, path: &str) -> Option<Found> {
    found_inside(fence.existing_file(path)?)
}

fn found_inside(Inside { path, rel }: Inside) -> Option<Found> {
    let (kind, dir) = discover::classify(&rel).or_else(|| {
        // Outside the workspace layout: still a state file by its name.
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", &rel));
        match name {
            "ORCHESTRATION.yaml" => Some((FileKind::Orchestration, dir.to_string())),
            "resume-context.md" | "_resume.md" => Some((FileKind::NexusManifest, dir.to_string())),
            _ => None,
        }
    })?;
    discover::is_project_file(kind).then_some(Found {
        kind,
        path,
        rel,
        dir,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::time::Timestamp;
    use crate::hook::input::HookInput;
    use crate::io::env::Env;

    #[test]
    fn a_candidate_is_read_once_however_often_it_is_judged() {
        let dir = tempfile::tempdir().unwrap();
        let state = |id: &str| format!("workflow:\n  id: {id}\n  status: ACTIVE\n");
        std::fs::write(dir.path().join("ORCHESTRATION.yaml"), state("wf-a")).unwrap();
        let env = Env::from_pairs([("CLAUDE_PROJECT_DIR", dir.path().to_str().unwrap())]);
        let config = Config::default();
        let ctx = HookContext::new(&env, Timestamp(0), &config, &HookInput::default());
        let found = found_at(&Fence::new(dir.path()), "ORCHESTRATION.yaml").unwrap();
        let read = Candidates::new(&ctx);
        assert_eq!(read.load(&found).map(|p| p.id), Some("wf-a".into()));
        std::fs::write(dir.path().join("ORCHESTRATION.yaml"), state("wf-b")).unwrap();
        assert_eq!(read.load(&found).map(|p| p.id), Some("wf-a".into()));
        let fresh = load(&found, &ctx, None, false).map(|p| p.id);
        assert_eq!(fresh, Some("wf-b".into()));
    }
}
