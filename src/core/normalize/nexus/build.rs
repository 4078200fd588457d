//! A Nexus build's other planning files, as Nexus's own `build_state.py` reads
//! them: `01-planning/01-overview.md` (frontmatter `id, name, status, created`, or
//! the older `**Status**: …` / `**Created**: …` lines) and `01-planning/04-steps.md`
//! (checkboxes `- [ ]` / `- [x]` under `## Phase N: Name` headings). They fill
//! what the manifest leaves unknown, and make a build without a manifest a
//! project of its own ("nothing to resume from").

use yaml_serde::Value;

use super::is_complete;
use crate::core::model::{Diagnostic, Project, ProjectKind, Shape, Summary, SummarySources};
use crate::core::normalize::frontmatter;
use crate::core::normalize::value::get_text;
use crate::core::time::Timestamp;

/// One planning file: its path relative to the root, and its text.
#[derive(Debug, Clone, Copy)]
pub struct BuildFile<'a> {
    pub source: &'a str,
    pub text: &'a str,
}

/// What `01-overview.md` says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overview {
    pub id: Option<String>,
    pub name: Option<String>,
    pub status: Option<String>,
    pub created: Option<String>,
}

/// One `## Phase …` section of `04-steps.md` and its boxes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepPhase {
    pub heading: String,
    pub checked: usize,
    pub boxes: usize,
}

/// What `04-steps.md` says: every box in the file, and the phase sections.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    pub checked: usize,
    pub boxes: usize,
    pub phases: Vec<StepPhase>,
    /// `**Last Updated**: …` as written.
    pub last_updated: Option<String>,
}

impl Steps {
    /// Nexus's rule: `planning` while the first phase has an open box,
    /// `execution` after it, `complete` when every box is checked.
    pub fn phase(&self) -> Option<&'static str> {
        if self.boxes == 0 {
            return None;
        }
        if self.checked == self.boxes {
            return Some("complete");
        }
        match self.phases.first() {
            Some(first) if first.boxes > 0 && first.checked == first.boxes => Some("execution"),
            _ => Some("planning"),
        }
    }

    /// The first phase section with an open box.
    pub fn current(&self) -> Option<&StepPhase> {
        self.phases.iter().find(|p| p.checked < p.boxes)
    }
}

pub fn read_overview(file: BuildFile) -> (Overview, Vec<Diagnostic>) {
    let split = match frontmatter::split(file.source, file.text) {
        Ok(split) => split,
        Err(diagnostic) => return (Overview::default(), vec![diagnostic]),
    };
    let mut overview = Overview::default();
    let mut diagnostics = Vec::new();
    if let Some(fm) = split.frontmatter {
        match crate::core::yaml::guard::from_str::<Value>(fm.text) {
            Ok(value) => {
                let field = |key: &str| get_text(&value, key).filter(|s| !s.trim().is_empty());
                overview.id = field("id");
                overview.name = field("name");
                overview.status = field("status");
                overview.created = field("created");
            }
            Err(err) => diagnostics.push(
                Diagnostic::warning(
                    file.source,
                    format!("frontmatter is not valid YAML ({err}); read from the text below it"),
                )
                .at(fm.open_line, 1),
            ),
        }
    }
    // Older overviews (the type templates) write `**Status**: Planning`.
    for line in split.body.lines() {
        if overview.status.is_none() {
            overview.status = bold_field(line, "Status");
        }
        if overview.created.is_none() {
            overview.created = bold_field(line, "Created");
        }
    }
    if overview.name.is_none() {
        overview.name = first_heading(split.body).map(|h| without_overview_suffix(&h));
    }
    (overview, diagnostics)
}

pub fn read_steps(file: BuildFile) -> Steps {
    let mut steps = Steps::default();
    let mut in_phase = false;
    for line in file.text.lines() {
        let trimmed = line.trim_start();
        if let Some(heading) = trimmed.strip_prefix("## ") {
            let heading = heading.trim();
            in_phase = heading
                .get(..5)
                .is_some_and(|w| w.eq_ignore_ascii_case("phase"));
            if in_phase {
                steps.phases.push(StepPhase {
                    heading: heading.to_string(),
                    ..StepPhase::default()
                });
            }
            continue;
        }
        if steps.last_updated.is_none() {
            steps.last_updated = bold_field(line, "Last Updated");
        }
        let Some(checked) = checkbox(trimmed) else {
            continue;
        };
        steps.boxes += 1;
        steps.checked += usize::from(checked);
        if let Some(phase) = steps.phases.last_mut().filter(|_| in_phase) {
            phase.boxes += 1;
            phase.checked += usize::from(checked);
        }
    }
    steps
}

/// `- [x]` (either case) is checked, `- [ ]` open; anything else is no box.
fn checkbox(line: &str) -> Option<bool> {
    let rest = line.strip_prefix("- [")?;
    match rest.get(..2)? {
        "x]" | "X]" => Some(true),
        " ]" => Some(false),
        _ => None,
    }
}

/// `**Key**: value` (also `**Key:** value`), the value trimmed.
fn bold_field(line: &str, key: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("**")?.strip_prefix(key)?;
    let rest = rest
        .strip_prefix("**:")
        .or_else(|| rest.strip_prefix(":**"))?;
    let value = rest.trim();
    (!value.is_empty()).then(|| value.to_string())
}

/// `Data Sync - Overview`, `Runbooks: overview` → the build's name.
fn without_overview_suffix(heading: &str) -> String {
    let trimmed = heading.trim();
    let lower = trimmed.to_lowercase();
    match lower.strip_suffix("overview") {
        Some(rest) if rest.trim_end().ends_with(['-', '—', ':', '–']) => {
            let keep =
                rest.trim_end().len() - rest.trim_end().chars().last().map_or(0, char::len_utf8);
            trimmed.get(..keep).unwrap_or(trimmed).trim().to_string()
        }
        _ => trimmed.to_string(),
    }
}

fn first_heading(body: &str) -> Option<String> {
    body.lines()
        .find_map(|l| l.trim().strip_prefix("# "))
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
}

/// The planning files found beside (or instead of) a manifest.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildFiles<'a> {
    pub overview: Option<BuildFile<'a>>,
    pub steps: Option<BuildFile<'a>>,
}

/// Fills what `project` (a normalised manifest) leaves unknown from the build's
/// overview and steps, and says where they disagree with it.
pub fn apply_build_files(project: &mut Project, files: BuildFiles) {
    let overview = files.overview.map(|f| (f.source, read_overview(f)));
    let steps = files.steps.map(|f| (f.source, read_steps(f)));
    let summary = &mut project.summary;
    if let Some((source, (overview, diagnostics))) = &overview {
        project.diagnostics.extend(diagnostics.iter().cloned());
        if project.name.is_none() {
            project.name.clone_from(&overview.name);
        }
        if let Some(status) = &overview.status {
            let manifest_done = summary.status.as_deref() == Some("COMPLETE");
            if is_complete(status) != manifest_done && project.manifest.is_some() {
                let says = if manifest_done {
                    "the manifest says complete"
                } else {
                    "the manifest's current_phase is not complete"
                };
                let sentence = format!(
                    "{source} has status {status}, but {says} ({})",
                    project.source
                );
                project.diagnostics.push(Diagnostic::warning(
                    source.to_string(),
                    format!("the build contradicts itself: {sentence}"),
                ));
                summary.contradictions.push(sentence);
            }
            // COMPLETE from either file wins: a finished build is never resumed.
            if !manifest_done {
                summary.status = Some(status_word(status));
                summary.sources.status = Some(format!("{source}: status"));
            }
        }
    }
    if let Some((source, steps)) = &steps {
        apply_steps(project, source, steps);
    }
    // The creation date is the last resort for the age.
    let summary = &mut project.summary;
    if summary.updated_at_raw.is_none()
        && let Some((source, (overview, _))) = &overview
        && let Some(created) = &overview.created
    {
        summary.updated_at = Timestamp::parse(created);
        summary.updated_at_raw = Some(created.clone());
        summary.sources.updated_at = Some(format!("{source}: created"));
    }
}

fn apply_steps(project: &mut Project, source: &str, steps: &Steps) {
    let summary = &mut project.summary;
    let from = |what: &str| Some(format!("{source}: {what}"));
    if summary.phase.is_none()
        && let Some(phase) = steps.phase()
    {
        summary.phase = Some(phase.to_string());
        summary.sources.phase = from("checkboxes");
    }
    // A finished build has no current phase, whatever boxes were left open.
    let finished = summary.status.as_deref().is_some_and(is_complete)
        || summary.phase.as_deref().is_some_and(is_complete);
    if summary.phase_name.is_none()
        && !finished
        && let Some(current) = steps.current()
    {
        summary.phase_name = Some(current.heading.clone());
        summary.sources.phase_name = from("first phase with an open box");
    }
    if steps.boxes > 0 {
        let progress = format!("{} of {} steps checked", steps.checked, steps.boxes);
        if summary.activity.is_none() {
            summary.activity = Some(progress.clone());
            summary.sources.activity = from("checkboxes");
        }
        let recorded = project
            .manifest
            .as_ref()
            .and_then(|m| Some((m.tasks_completed?, m.total_tasks?)));
        if let Some((done, total)) = recorded
            && (usize::try_from(done).ok(), usize::try_from(total).ok())
                != (Some(steps.checked), Some(steps.boxes))
        {
            project.diagnostics.push(Diagnostic::info(
                source.to_string(),
                format!(
                    "{progress} here; {} records {done} of {total} (Nexus copies the counts there at each compaction)",
                    project.source
                ),
            ));
        }
    }
    if summary.updated_at_raw.is_none()
        && let Some(raw) = &steps.last_updated
    {
        summary.updated_at = Timestamp::parse(raw);
        summary.updated_at_raw = Some(raw.clone());
        summary.sources.updated_at = from("Last Updated");
    }
}

/// `✅ COMPLETE`, `Planning`, `in progress` → `COMPLETE`, `PLANNING`, `IN_PROGRESS`.
fn status_word(status: &str) -> String {
    if is_complete(status) {
        return "COMPLETE".into();
    }
    let words: Vec<String> = status
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_uppercase)
        .collect();
    if words.is_empty() {
        status.trim().to_string()
    } else {
        words.join("_")
    }
}

/// A build with no manifest: listed from its overview and steps, with nothing to
/// resume from. `dir` is the build folder.
pub fn build_without_manifest(dir: &str, files: BuildFiles) -> Option<Project> {
    let first = files.overview.or(files.steps)?;
    let folder = dir.rsplit('/').next().unwrap_or(dir).to_string();
    let mut project = Project {
        kind: ProjectKind::Nexus,
        id: folder,
        name: None,
        project_ref: None,
        source: first.source.to_string(),
        dir: dir.to_string(),
        shape: Shape::NexusNoManifest,
        summary: Summary {
            sources: SummarySources::default(),
            ..Summary::default()
        },
        resumption: None,
        manifest: None,
        trajectory: Default::default(),
        checkpoints: Vec::new(),
        staleness: Default::default(),
        diagnostics: vec![Diagnostic::warning(
            first.source,
            format!("{NOTHING_TO_RESUME}: the build has no {dir}/01-planning/resume-context.md"),
        )],
        top_level_keys: Vec::new(),
    };
    if let Some(overview) = files.overview {
        let (read, _) = read_overview(overview);
        if let Some(id) = read.id.filter(|id| !id.contains('/')) {
            project.id = id;
        }
    }
    apply_build_files(&mut project, files);
    if project.summary.status.is_none() {
        project.summary.status = Some(
            if project.summary.phase.as_deref() == Some("complete") {
                "COMPLETE"
            } else {
                "ACTIVE"
            }
            .into(),
        );
    }
    Some(project)
}

/// What a build without a manifest shows where its prompt would be.
pub const NOTHING_TO_RESUME: &str = "nothing to resume from";

/// The sentence shown instead of the loading sequence of a Nexus project that
/// has no readable manifest.
pub fn nothing_to_resume(project: &Project) -> String {
    if project.shape != Shape::NexusNoManifest {
        return format!(
            "{NOTHING_TO_RESUME}: {}: no resume manifest could be read",
            project.source
        );
    }
    let dir = if project.dir.is_empty() {
        "the build".to_string()
    } else {
        project.dir.clone()
    };
    let mut known = Vec::new();
    if let Some(status) = &project.summary.status {
        known.push(format!("status {status}"));
    }
    if let Some(activity) = &project.summary.activity {
        known.push(activity.clone());
    }
    let known = if known.is_empty() {
        String::new()
    } else {
        format!(" ({})", known.join(", "))
    };
    format!(
        "{NOTHING_TO_RESUME}: {dir} has no 01-planning/resume-context.md; it is listed from {}{known}",
        project.source
    )
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
