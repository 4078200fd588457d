//! Finding the project an injection is about, reading as little as possible:
//! the state file a checkpoint names first, then the Nexus precompact state, and
//! only then a walk of the workspace.

use std::path::Path;

use serde_json::Value;

use super::context::{HookContext, precompact_state_path};
use super::detect;
use super::project::{self, found_at};
use crate::core::model::{Checkpoint, Project, ProjectKind, Shape, Summary};
use crate::core::staleness::{self, Session};
use crate::core::workspace::{assign_checkpoints, claim};
use crate::io::discover;
use crate::io::fence::Fence;
use crate::io::transcript::ScanLimits;
use crate::io::write::read_snapshot;

/// The project a checkpoint belongs to: the first of its files to read that is a
/// state file (PreCompact writes the workflow's own file first), if its id matches.
/// `known` are the checkpoints already read; the project gets those naming it.
pub fn for_checkpoint(
    checkpoint: &Checkpoint,
    known: &[Checkpoint],
    ctx: &HookContext,
    session: Option<Session>,
) -> Option<Project> {
    let fence = Fence::new(ctx.project_dir()?);
    let found = checkpoint
        .files_to_read
        .iter()
        .find_map(|f| found_at(&fence, &f.path))?;
    let project = project::load(&found, ctx, session.clone(), false)?;
    let matches = checkpoint
        .workflow_id
        .as_deref()
        .is_none_or(|id| id == project.id);
    if !matches {
        return None;
    }
    Some(with_checkpoints(project, known, ctx, session))
}

/// `for_checkpoint`, else (a checkpoint that lists no state file, as Jerry's own
/// do) the workflow its `workflow_id` or `resumption_state.workflow_id` names,
/// found as the loader finds it. The workspace is walked once for all the
/// checkpoints asked about (`walked`), and only the state files that hold the id
/// as text are read; an id under 3 characters is not looked for.
pub fn for_checkpoint_or_id(
    checkpoint: &Checkpoint,
    known: &[Checkpoint],
    ctx: &HookContext,
    session: Option<Session>,
    walked: &mut Option<Vec<discover::Found>>,
) -> Option<Project> {
    if let Some(project) = for_checkpoint(checkpoint, known, ctx, session.clone()) {
        return Some(project);
    }
    let id = checkpoint
        .workflow_id
        .clone()
        .or_else(|| {
            crate::core::render::state::checkpoint_state_text(
                checkpoint,
                &["workflow_id", "workflow"],
            )
        })
        .filter(|id| id.trim().len() >= 3)?;
    if walked.is_none() {
        let root = ctx.workspace()?;
        let discovery = discover::discover(root, ctx.env);
        *walked = Some(
            detect::candidates(&discovery)
                .into_iter()
                .cloned()
                .collect(),
        );
    }
    let project = walked
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter(|f| {
            crate::io::load::read_bytes_capped(&f.path, 16 << 20)
                .is_ok_and(|bytes| memchr::memmem::find(&bytes, id.as_bytes()).is_some())
        })
        .find_map(|f| project::load(f, ctx, session.clone(), false).filter(|p| p.id == id))?;
    Some(with_checkpoints(project, known, ctx, session))
}

/// `project` with the checkpoints of `known` that are its own, by the same rules
/// as the loader (by workflow id, else claimed by the workflow), and its staleness.
fn with_checkpoints(
    mut project: Project,
    known: &[Checkpoint],
    ctx: &HookContext,
    session: Option<Session>,
) -> Project {
    let candidates: Vec<Checkpoint> = known
        .iter()
        .filter(|c| {
            c.workflow_id.as_deref() == Some(project.id.as_str()) || claim(&project, c).is_some()
        })
        .cloned()
        .collect();
    let _ = assign_checkpoints(std::slice::from_mut(&mut project), candidates);
    project.staleness = staleness::assess(
        &project,
        session.as_ref(),
        ctx.now,
        ctx.config.staleness.stale_after_minutes,
    );
    project
}

/// The Nexus project named by `00-system/.cache/precompact_state.json`, if any,
/// with the state's confidence.
pub fn from_precompact_state(
    ctx: &HookContext,
    session: Option<Session>,
) -> Option<(Project, String)> {
    let root = ctx.project_dir()?;
    let snapshot = read_snapshot(&precompact_state_path(root)).ok()?;
    let value: Value = serde_json::from_slice(&snapshot.bytes).ok()?;
    let id = value.get("active_project_id")?.as_str()?.to_string();
    let confidence = value
        .get("confidence")
        .and_then(Value::as_str)
        .unwrap_or("low")
        .to_string();
    let project = nexus_project(root, &id, ctx, session)?;
    Some((project, confidence))
}

/// The manifest of Nexus project `id`, where the v4 and v5 layouts put it.
pub fn nexus_project(
    root: &Path,
    id: &str,
    ctx: &HookContext,
    session: Option<Session>,
) -> Option<Project> {
    let places = crate::core::precompact::manifest_places(id)?;
    let fence = Fence::new(root);
    let found = places
        .iter()
        .filter(|rel| root.join(rel).is_file())
        .find_map(|rel| found_at(&fence, rel))?;
    project::load(&found, ctx, session, false)
}

/// The active workflow (walks the workspace): the Nexus build whose manifest
/// records `session_id`, else the fallback rule.
pub fn by_fallback(ctx: &HookContext, session_id: Option<&str>) -> Option<Project> {
    // Never a walk of a folder that is not a workspace ($HOME, /).
    let root = ctx.workspace()?;
    let discovery = discover::discover(root, ctx.env);
    let candidates = detect::candidates(&discovery);
    let read = project::Candidates::new(ctx);
    let load = |f: &discover::Found| read.load(f);
    let (detection, _) = session_id
        .and_then(|id| detect::by_session(&candidates, id, load))
        .or_else(|| detect::fallback(&candidates, load))?;
    // Again, now with the project's checkpoints.
    project::load(&detection.found, ctx, None, true)
}

/// The workflow the transcript's recent file tool calls work in, as PreCompact
/// detects it (`detect::from_transcript`, no walk), with its checkpoints among
/// `known`.
pub fn by_transcript(
    transcript: Option<&Path>,
    known: &[Checkpoint],
    ctx: &HookContext,
    session: Option<Session>,
) -> Option<Project> {
    let root = ctx.project_dir()?;
    let scan = crate::io::transcript::scan(transcript?, &ScanLimits::with_tool_uses()).ok()?;
    let detection = detect::in_transcript(root, &scan.tool_uses)?;
    let project = project::load(&detection.found, ctx, session.clone(), false)?;
    Some(with_checkpoints(project, known, ctx, session))
}

/// The Nexus build whose manifest records `session_id` (walks the workspace).
pub fn by_session(
    ctx: &HookContext,
    session_id: &str,
    session: Option<Session>,
) -> Option<Project> {
    let root = ctx.workspace()?;
    let discovery = discover::discover(root, ctx.env);
    let candidates = detect::candidates(&discovery);
    let (_, project) = detect::by_session(&candidates, session_id, |f| {
        project::load(f, ctx, session.clone(), false)
    })?;
    Some(project)
}

/// A stand-in when no workflow is known, so that blocks about the session (fill,
/// checkpoints) can still be rendered.
pub fn placeholder(checkpoints: Vec<Checkpoint>) -> Project {
    Project {
        kind: ProjectKind::Jerry,
        id: "workspace".into(),
        name: None,
        project_ref: None,
        source: "(no workflow found)".into(),
        dir: String::new(),
        shape: Shape::None,
        summary: Summary::default(),
        resumption: None,
        manifest: None,
        trajectory: Default::default(),
        checkpoints,
        staleness: Default::default(),
        diagnostics: Vec::new(),
        top_level_keys: Vec::new(),
    }
}
