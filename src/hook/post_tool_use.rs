//! PostToolUse: after a Write/Edit/MultiEdit of an `ORCHESTRATION.yaml` or a Nexus
//! manifest, re-read it; if its resumption state is STALE or CRITICAL (seed 004,
//! "Staleness Detection"), inject one paragraph naming the fields to update.

use std::path::{Path, PathBuf};

use super::context::{HookContext, is_workspace};
use super::input::{Event, HookInput};
use super::output::{HookOutcome, additional_context};
use super::project::{self, found_at};
use crate::core::model::{Project, Shape};
use crate::core::staleness::StalenessLevel;
use crate::io::discover::Found;
use crate::io::fence::Fence;

const EDIT_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit"];

pub fn handle(input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let tool = input.tool_name.as_deref().unwrap_or_default();
    if !EDIT_TOOLS.contains(&tool) {
        return HookOutcome::nothing(format!("tool {tool:?} does not write a state file"));
    }
    let Some(file) = input.tool_file() else {
        return HookOutcome::nothing("tool_input has no file_path");
    };
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if !matches!(
        name,
        "ORCHESTRATION.yaml" | "resume-context.md" | "_resume.md"
    ) {
        return HookOutcome::nothing(format!("{} is not a state file", file.display()));
    }
    let Some(Located { root, found, own }) = locate(ctx.project_dir(), &file) else {
        return HookOutcome::nothing(format!(
            "{}: not read (a symlink leading out of its folder)",
            file.display()
        ));
    };
    let session = project::session(
        input.session_id.as_deref(),
        input.transcript_path.as_deref(),
    );
    let scoped = HookContext {
        env: ctx.env,
        now: ctx.now,
        config: ctx.config,
        in_workspace: if own {
            is_workspace(&root)
        } else {
            ctx.in_workspace
        },
        project_dir: Some(root),
    };
    let Some(mut project) = project::load(&found, &scoped, session, true) else {
        let mut out = HookOutcome::nothing("the state file could not be loaded");
        out.error(format!("{}: could not be loaded", file.display()));
        return out;
    };
    if own {
        project.source = file.display().to_string();
    }
    let staleness = &project.staleness;
    let mut out = HookOutcome::default();
    project::log_errors(&project, &mut out);
    out.explain(format!(
        "{} ({}) is {}{}",
        project.source,
        project.shape.label(),
        staleness.level.label(),
        staleness
            .reasons
            .first()
            .map(|r| format!(": {r}"))
            .unwrap_or_default()
    ));
    if matches!(
        staleness.level,
        StalenessLevel::Stale | StalenessLevel::Critical
    ) {
        out.stdout = additional_context(Event::PostToolUse.name(), &[warning(&project)]);
    }
    out.info(format!("{} is {}", project.source, staleness.level.label()));
    out
}

/// The state file Claude Code edited and the folder to look around it in.
struct Located {
    root: PathBuf,
    found: Found,
    /// Outside the project folder: `root` is the file's own folder.
    own: bool,
}

/// The project folder when the file lies inside it; otherwise (or without a
/// project folder) the file's own folder, so that nothing of the project folder
/// is read on behalf of a file elsewhere.
fn locate(project_dir: Option<&Path>, file: &Path) -> Option<Located> {
    let text = file.to_str()?;
    if let Some(root) = project_dir
        && let Some(found) = found_at(&Fence::new(root), text)
    {
        return Some(Located {
            root: root.to_path_buf(),
            found,
            own: false,
        });
    }
    let own = match project_dir {
        Some(root) if file.is_relative() => root.join(file),
        _ => file.to_path_buf(),
    };
    let folder = own.parent()?;
    let name = own.file_name()?.to_str()?;
    let found = found_at(&Fence::new(folder), name)?;
    Some(Located {
        root: folder.to_path_buf(),
        found,
        own: true,
    })
}

/// The fields an orchestrator updates at every state transition (seed 004), as
/// this file's shape names them.
pub fn fields_to_update(project: &Project) -> Vec<&'static str> {
    match project.shape {
        Shape::V2Nested => vec![
            "resumption.recovery_state.updated_at",
            "resumption.recovery_state.current_activity",
            "resumption.recovery_state.next_step",
            "resumption.recovery_state.context_fill_at_update",
        ],
        Shape::V2Flat => vec![
            "resumption.updated_at",
            "resumption.current_activity",
            "resumption.next_step",
            "resumption.context_fill_at_update",
        ],
        Shape::V1 | Shape::Other | Shape::None | Shape::Unreadable => vec![
            "resumption.current_state",
            "resumption.next_step",
            "resumption.updated_at (add it, so staleness can be judged)",
        ],
        Shape::Nexus1
        | Shape::Nexus2
        | Shape::NexusLegacy
        | Shape::NexusUnversioned
        | Shape::NexusNoFrontmatter => vec![
            "last_updated",
            "current_phase",
            "current_task",
            "next_action",
        ],
        Shape::NexusNoManifest => vec![
            "01-planning/resume-context.md (the build has none: create it with last_updated, current_phase, next_action)",
        ],
    }
}

fn warning(project: &Project) -> String {
    let staleness = &project.staleness;
    let reasons = if staleness.reasons.is_empty() {
        String::new()
    } else {
        let reasons: Vec<&str> = staleness
            .reasons
            .iter()
            .map(|r| r.trim().trim_end_matches('.'))
            .collect();
        format!(" ({})", reasons.join("; "))
    };
    let urgency = if staleness.level == StalenessLevel::Critical {
        "Update it before doing anything else"
    } else {
        "Update it now"
    };
    format!(
        "resume-tui: the resumption state in {} is {}{reasons}. {urgency}: set {} to the current state, with the timestamp in UTC ISO 8601, so that a session resuming after compaction starts from the right place.",
        project.source,
        staleness.level.label(),
        fields_to_update(project).join(", "),
    )
}
