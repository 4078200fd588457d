//! Nexus `resume-context.md` / `_resume.md` manifests → `Project`, in every shape
//! seen: frontmatter 1.0 and 2.0, legacy `resume_version`, frontmatter without a
//! version, and no frontmatter at all (the markdown body alone).

mod behind;
mod body;
pub mod build;
mod ctx;
pub mod decisions;
mod fields;
mod files_to_load;
pub mod validate;

pub use build::{
    BuildFile, BuildFiles, NOTHING_TO_RESUME, apply_build_files, build_without_manifest,
    nothing_to_resume,
};
pub use validate::validate_manifest;

use yaml_serde::Value;

use crate::core::model::{
    Diagnostic, NexusManifest, Project, ProjectKind, Shape, Summary, SummarySources,
};
use crate::core::normalize::frontmatter::{self, Frontmatter};
use crate::core::normalize::value::to_json;
use crate::core::staleness::Staleness;
use crate::core::time::Timestamp;
use crate::core::trajectory::Trajectory;
use ctx::Ctx;

/// Normalises one manifest. `source` is its path relative to the workspace root,
/// `dir` the project folder its `files_to_load` are relative to (both with `/`).
/// Never fails: unparseable frontmatter gives `Shape::Unreadable` and an error
/// diagnostic at the file's own line and column.
pub fn normalize_manifest(source: &str, dir: &str, text: &str) -> Project {
    let split = match frontmatter::split(source, text) {
        Ok(split) => split,
        Err(diagnostic) => {
            let body = text.strip_prefix('\u{feff}').unwrap_or(text);
            return unreadable(source, dir, body, None, diagnostic);
        }
    };
    let Some(fm) = split.frontmatter else {
        return from_body(source, dir, split.body);
    };
    let value: Value = match crate::core::yaml::guard::from_str(fm.text) {
        Ok(value) => value,
        Err(err) => {
            let diagnostic = ctx::yaml_error(source, &fm, &err);
            return unreadable(source, dir, split.body, Some(fm), diagnostic);
        }
    };
    from_frontmatter(source, dir, split.body, fm, &value)
}

fn from_frontmatter(
    source: &str,
    dir: &str,
    body: &str,
    fm: Frontmatter,
    value: &Value,
) -> Project {
    let mut ctx = Ctx::new(source, fm);
    let mut manifest = match value {
        Value::Mapping(_) => fields::read_fields(value, &mut ctx),
        Value::Null => NexusManifest::default(),
        other => {
            let message = format!(
                "frontmatter is {}, expected a map of keys; kept under other fields as `frontmatter`",
                ctx::kind(other)
            );
            ctx.diagnostics
                .push(Diagnostic::warning(source, message).at(fm.open_line + 1, 1));
            let mut manifest = NexusManifest::default();
            manifest.other.insert("frontmatter".into(), to_json(other));
            manifest
        }
    };
    let shape = match (
        manifest.schema_version.as_deref(),
        value.get("resume_schema_version"),
    ) {
        (None, _) => Shape::NexusUnversioned,
        (Some(_), None) => Shape::NexusLegacy,
        (Some(version), Some(_)) => match version.trim().split('.').next() {
            Some("1") => Shape::Nexus1,
            Some("2") => Shape::Nexus2,
            _ => {
                ctx.warn(
                    &["resume_schema_version"],
                    format!("unknown version `{version}`; read as an unversioned manifest"),
                );
                Shape::NexusUnversioned
            }
        },
    };
    manifest.body = body.to_string();
    manifest.frontmatter_lines = Some((fm.open_line, fm.close_line));
    let ahead = behind::body_ahead(&manifest, &body::facts(body));
    let mut diagnostics = ctx.diagnostics;
    for line in &ahead {
        diagnostics.push(Diagnostic::warning(
            source,
            format!("the frontmatter is behind its body: {line}"),
        ));
    }
    let mut project = assemble(source, dir, shape, manifest, diagnostics);
    project.summary.behind.extend(ahead);
    project
}

fn from_body(source: &str, dir: &str, body_text: &str) -> Project {
    let facts = body::facts(body_text);
    let mut manifest = NexusManifest {
        current_phase: facts.phase,
        next_action: facts.next_action,
        last_updated: facts.last_updated.as_deref().and_then(Timestamp::parse),
        last_updated_raw: facts.last_updated,
        body: body_text.to_string(),
        ..NexusManifest::default()
    };
    if let Some(status) = facts.status {
        manifest.other.insert("status".into(), status.into());
    }
    assemble(source, dir, Shape::NexusNoFrontmatter, manifest, Vec::new())
}

fn unreadable(
    source: &str,
    dir: &str,
    body: &str,
    fm: Option<Frontmatter>,
    diagnostic: Diagnostic,
) -> Project {
    let manifest = NexusManifest {
        body: body.to_string(),
        frontmatter_lines: fm.map(|fm| (fm.open_line, fm.close_line)),
        ..NexusManifest::default()
    };
    let mut project = assemble(source, dir, Shape::Unreadable, manifest, vec![diagnostic]);
    project.summary.status = None;
    project
}

fn assemble(
    source: &str,
    dir: &str,
    shape: Shape,
    manifest: NexusManifest,
    diagnostics: Vec<Diagnostic>,
) -> Project {
    let id = manifest
        .project_id
        .clone()
        .or_else(|| manifest.build_id.clone())
        .filter(|id| !id.trim().is_empty())
        .unwrap_or_else(|| id_from_path(source));
    let name = manifest
        .project_name
        .clone()
        .or_else(|| manifest.build_name.clone())
        .filter(|n| !n.trim().is_empty())
        .or_else(|| body::first_heading(&manifest.body));
    Project {
        kind: ProjectKind::Nexus,
        id,
        name,
        project_ref: None,
        source: source.to_string(),
        dir: dir.to_string(),
        shape,
        summary: summary(&manifest),
        resumption: None,
        manifest: Some(manifest),
        trajectory: Trajectory::default(),
        checkpoints: Vec::new(),
        staleness: Staleness::default(),
        diagnostics,
        top_level_keys: Vec::new(),
    }
}

/// The folder above `01-planning`, else the file's own folder, else the file name.
fn id_from_path(source: &str) -> String {
    let mut parts = source.rsplit('/').skip(1).filter(|p| !p.is_empty());
    match parts.next() {
        Some("01-planning") => parts.next().unwrap_or("01-planning").to_string(),
        Some(folder) => folder.to_string(),
        None => source.to_string(),
    }
}

fn summary(manifest: &NexusManifest) -> Summary {
    let status_field = manifest.other.get("status").and_then(|v| v.as_str());
    let complete = manifest.current_phase.as_deref().is_some_and(is_complete)
        || status_field.is_some_and(is_complete);
    let next_step = match (&manifest.next_action, &manifest.continue_at) {
        (Some(action), Some(at)) => Some(format!("{action} (continue at {at})")),
        (Some(action), None) => Some(action.clone()),
        (None, Some(at)) => Some(format!("continue at {at}")),
        (None, None) => None,
    };
    let activity_here = activity(manifest);
    let key = |found: bool, key: &str| found.then(|| key.to_string());
    let sources = SummarySources {
        status: if manifest.current_phase.as_deref().is_some_and(is_complete) {
            key(true, "current_phase")
        } else {
            key(status_field.is_some(), "status")
        },
        phase: key(manifest.current_phase.is_some(), "current_phase"),
        activity: match activity_here {
            Some(_) => key(true, "current_section, current_task"),
            None => key(status_field.is_some(), "status"),
        },
        next_step: match manifest.next_action {
            Some(_) => key(true, "next_action"),
            None => key(manifest.continue_at.is_some(), "continue_at"),
        },
        updated_at: key(manifest.last_updated_raw.is_some(), "last_updated"),
        ..SummarySources::default()
    };
    Summary {
        status: Some(if complete { "COMPLETE" } else { "ACTIVE" }.to_string()),
        phase: manifest.current_phase.clone(),
        activity: activity_here.or_else(|| status_field.map(str::to_string)),
        next_step,
        updated_at_raw: manifest.last_updated_raw.clone(),
        updated_at: manifest.last_updated,
        sources,
        ..Summary::default()
    }
}

/// `complete`, `COMPLETE`, `Completed`, `COMPLETE - remaining tasks moved`, `done`,
/// `✅ COMPLETE`.
fn is_complete(text: &str) -> bool {
    let first = text
        .trim()
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or_default()
        .to_lowercase();
    matches!(first.as_str(), "complete" | "completed" | "done")
}

/// "section 2, task 5 of 12", with a free-text `progress` in parentheses.
fn activity(manifest: &NexusManifest) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(section) = &manifest.current_section {
        parts.push(format!("section {section}"));
    }
    match (
        &manifest.current_task,
        manifest.total_tasks.filter(|t| *t > 0),
    ) {
        (Some(task), Some(total)) => parts.push(format!("task {task} of {total}")),
        (Some(task), None) => parts.push(format!("task {task}")),
        (None, Some(total)) => parts.push(format!(
            "{} of {total} tasks done",
            manifest.tasks_completed.unwrap_or(0)
        )),
        (None, None) => {}
    }
    let progress = match &manifest.progress {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(serde_json::Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    match (parts.is_empty(), progress) {
        (true, progress) => progress,
        (false, Some(progress)) => Some(format!("{} ({progress})", parts.join(", "))),
        (false, None) => Some(parts.join(", ")),
    }
}

#[cfg(test)]
mod tests;
