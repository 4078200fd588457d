//! The PreCompact checkpoint in the design format of seed 002 ("Checkpoint File
//! Format"), filled from the active project's resumption section (or Nexus
//! manifest) and the measured fill. Every copied text is redacted, and cut to
//! the caps of `caps` so that the hooks can always read the checkpoint back.

use serde_json::Value;

use super::caps::{CHECKPOINT_BUDGET, Caps, MAX_FIELD_BYTES, field};
use super::checkpoints::event_id;
use super::detect::Detection;
use crate::core::fill::{DEFAULT_WINDOW, Fill};
use crate::core::model::{Project, ProjectKind};
use crate::core::redact::scrub;
use crate::core::render::state;
use crate::core::text::cut;
use crate::core::time::Timestamp;
use crate::core::wire::checkpoint::{
    AccumulatedContext, CheckpointDecision, CheckpointFileToRead, CheckpointMetadata,
    CheckpointTrigger, DesignCheckpoint, DesignContextState, OrchestrationState, PhaseId,
    RecoveryInstructions,
};
use crate::core::wire::precompact::{Confidence, DetectionMethod, PrecompactState};

pub const WRITTEN_BY: &str = "resume-tui hook PreCompact";
/// Decisions copied into a checkpoint, newest last.
const MAX_DECISIONS: usize = 10;
/// The longest project id the Nexus precompact state names (`NAME_MAX`).
const MAX_PROJECT_ID_BYTES: usize = 255;
/// `custom_instructions` longer than this (characters) are cut in the checkpoint.
const MAX_INSTRUCTIONS: usize = 2_000;

pub struct CheckpointInput<'a> {
    pub number: u32,
    pub now: Timestamp,
    pub session_id: Option<&'a str>,
    pub trigger: Option<&'a str>,
    pub custom_instructions: Option<&'a str>,
    pub fill: Option<&'a FillRecord>,
    pub project: Option<&'a Project>,
}

/// The checkpoint, its texts and lists cut to the first of [`Caps::STEPS`] that
/// keeps it under [`CHECKPOINT_BUDGET`] pretty-printed (a real workflow fits the
/// first, and is measured once).
pub fn checkpoint(input: &CheckpointInput) -> DesignCheckpoint {
    let mut built = None;
    for caps in Caps::STEPS {
        let checkpoint = checkpoint_with(input, caps);
        let size = serde_json::to_string_pretty(&checkpoint).map_or(0, |t| t.len());
        built = Some(checkpoint);
        if size <= CHECKPOINT_BUDGET {
            break;
        }
    }
    built.unwrap_or_else(|| checkpoint_with(input, Caps::STEPS[3]))
}

fn checkpoint_with(input: &CheckpointInput, caps: Caps) -> DesignCheckpoint {
    let project = input.project;
    DesignCheckpoint {
        schema_version: "1.0.0".into(),
        event_type: "compaction".into(),
        event_id: event_id(input.number),
        timestamp: input.now.to_iso(),
        session_id: input.session_id.map(str::to_string),
        trigger: CheckpointTrigger {
            kind: fixed(input.trigger.unwrap_or("auto")),
            source: "PreCompact hook".into(),
        },
        context_state: context_state(input),
        orchestration_state: project
            .map(|p| orchestration_state(p, caps))
            .unwrap_or_default(),
        accumulated_context: project
            .map(|p| accumulated_context(p, caps))
            .unwrap_or_default(),
        recovery_instructions: recovery_instructions(input, caps),
        metadata: CheckpointMetadata {
            written_by: WRITTEN_BY.into(),
            acknowledged: false,
            acknowledged_at: None,
        },
        post_compact: None,
    }
}

/// A fill measurement as a checkpoint records it.
#[derive(Debug, Clone, PartialEq)]
pub struct FillRecord {
    pub fill: f64,
    pub tokens_used: u64,
    pub window: u64,
    /// Where the figure and the window came from.
    pub source: String,
}

impl FillRecord {
    pub fn from_fill(fill: &Fill, measured_from: &str) -> FillRecord {
        let basis = &fill.basis;
        FillRecord {
            fill: fill.fill,
            tokens_used: fill.tokens_used,
            window: basis.window,
            source: format!("{measured_from}; window: {}", basis.evidence),
        }
    }
}

fn context_state(input: &CheckpointInput) -> DesignContextState {
    let Some(fill) = input.fill else {
        return DesignContextState {
            estimated_fill_before_compaction: None,
            estimated_tokens_used: None,
            context_window_size: DEFAULT_WINDOW as i64,
            source: "unavailable".into(),
        };
    };
    DesignContextState {
        estimated_fill_before_compaction: Some((fill.fill * 1000.0).round() / 1000.0),
        estimated_tokens_used: i64::try_from(fill.tokens_used).ok(),
        context_window_size: i64::try_from(fill.window).unwrap_or(i64::MAX),
        source: fixed(&fill.source),
    }
}

/// An identifier or a path (the workflow id, a phase, a gate, the trigger): cut
/// only at [`MAX_FIELD_BYTES`], whatever the caps of the other texts.
fn fixed(text: &str) -> String {
    field(text, MAX_FIELD_BYTES)
}

fn phase_id(text: &str) -> PhaseId {
    match text.trim().parse::<i64>() {
        Ok(n) => PhaseId::Number(n),
        Err(_) => PhaseId::Text(fixed(text)),
    }
}

fn phase_ids(ids: &[String], caps: Caps) -> Vec<PhaseId> {
    ids.iter().take(caps.items).map(|id| phase_id(id)).collect()
}

/// The last `caps.items` entries of `list`: the newest, when the list grows at
/// its end (decisions, agent summaries).
fn last<T>(list: impl ExactSizeIterator<Item = T>, caps: Caps) -> impl Iterator<Item = T> {
    let skip = list.len().saturating_sub(caps.items);
    list.skip(skip)
}

fn orchestration_state(project: &Project, caps: Caps) -> OrchestrationState {
    let text = |value: Option<String>| value.map(|v| caps.text(&v));
    let quality = project.resumption.as_ref().and_then(|r| r.quality.as_ref());
    let phases = &project.summary.phase_progress;
    let current_gate = quality.and_then(|q| q.current_gate.clone());
    let score = state::last_score(project)
        .filter(|(gate, _, _)| current_gate.as_deref().is_none_or(|g| g == gate));
    OrchestrationState {
        workflow_id: Some(fixed(&project.id)),
        workflow_status: text(state::status(project)),
        current_phase: state::phase(project).as_deref().map(phase_id),
        current_phase_name: text(state::phase_name(project)),
        current_activity: text(state::activity(project)),
        last_completed_checkpoint: text(state::last_checkpoint(project)),
        phases_complete: phase_ids(&phases.complete, caps),
        phases_in_progress: phase_ids(&phases.in_progress, caps),
        phases_remaining: phase_ids(&phases.remaining, caps),
        current_gate: current_gate
            .or_else(|| score.as_ref().map(|(g, _, _)| g.clone()))
            .map(|g| fixed(&g)),
        current_gate_iteration: quality.and_then(|q| q.current_gate_iteration),
        current_gate_score: score.map(|(_, _, s)| s),
    }
}

fn accumulated_context(project: &Project, caps: Caps) -> AccumulatedContext {
    let blockers = project
        .manifest
        .iter()
        .flat_map(|m| &m.blockers)
        .take(caps.items)
        .map(|b| caps.text(b))
        .collect();
    let Some(resumption) = &project.resumption else {
        return AccumulatedContext {
            blockers,
            ..AccumulatedContext::default()
        };
    };
    let unresolved_defects = resumption
        .defects
        .iter()
        .flat_map(|d| &d.unresolved_defects)
        .take(caps.items)
        .map(|id| caps.text(id))
        .collect();
    let defect_patterns = resumption
        .defects
        .iter()
        .flat_map(|d| &d.recurring_patterns)
        .take(caps.items)
        .map(|p| caps.text(&p.pattern))
        .collect();
    // Pending decisions first matter most; applied ones are already in the files.
    let pending: Vec<_> = resumption
        .decisions
        .iter()
        .filter(|d| d.applied != Some(true))
        .collect();
    let skip = pending.len().saturating_sub(MAX_DECISIONS.min(caps.items));
    let decisions_since_last_checkpoint = pending
        .into_iter()
        .skip(skip)
        .map(|d| CheckpointDecision {
            id: d.id.as_deref().map(|id| caps.text(id)),
            summary: caps.text(&d.decision),
            affects_phases: d
                .affects_phases
                .iter()
                .take(caps.items)
                .map(|p| PhaseId::Number(*p))
                .collect(),
        })
        .collect();
    let agent_summaries = last(resumption.agent_summaries.iter(), caps)
        .map(|a| (caps.text(&a.agent), Value::String(caps.text(&a.summary))))
        .collect();
    AccumulatedContext {
        defect_patterns,
        decisions_since_last_checkpoint,
        agent_summaries,
        unresolved_defects,
        blockers,
    }
}

fn recovery_instructions(input: &CheckpointInput, caps: Caps) -> RecoveryInstructions {
    let Some(project) = input.project else {
        return RecoveryInstructions {
            files_to_read: Vec::new(),
            next_action: "No active workflow was found; ask the operator what to resume.".into(),
            critical_context: instructions_note(input),
        };
    };
    let section = match project.kind {
        ProjectKind::Jerry => "resumption",
        ProjectKind::Nexus => "frontmatter",
    };
    let mut files = vec![CheckpointFileToRead {
        path: fixed(&project.source),
        sections: vec![section.to_string()],
        priority: Some(1),
        purpose: Some("Workflow state; merge this checkpoint into it.".into()),
    }];
    for listed in listed_files(project, caps) {
        if files.len() > caps.items {
            break;
        }
        if !files.iter().any(|f| f.path == listed.path) {
            files.push(listed);
        }
    }
    let next = state::continue_with(project);
    let mut next_action = format!(
        "Read {} ({section} section). Merge this checkpoint data into it.",
        fixed(&project.source)
    );
    if let Some(next) = next {
        next_action.push_str(" Then continue: ");
        next_action.push_str(caps.text(next.trim()).trim());
    }
    RecoveryInstructions {
        files_to_read: files,
        next_action,
        critical_context: critical_context(input, project, caps),
    }
}

/// The files the state file lists, each made as it is taken: the caller keeps a
/// few, and redacting all of a 40,000-entry list took a fifth of PreCompact.
fn listed_files(
    project: &Project,
    caps: Caps,
) -> Box<dyn Iterator<Item = CheckpointFileToRead> + '_> {
    let text = move |value: Option<&String>| value.map(|v| caps.text(v));
    if let Some(resumption) = &project.resumption {
        return Box::new(resumption.files_to_read.iter().map(move |f| {
            CheckpointFileToRead {
                path: caps.text(&f.path),
                sections: f
                    .sections
                    .iter()
                    .take(caps.items)
                    .map(|s| caps.text(s))
                    .collect(),
                priority: f.priority,
                purpose: text(f.purpose.as_ref()),
            }
        }));
    }
    let Some(manifest) = &project.manifest else {
        return Box::new(std::iter::empty());
    };
    Box::new(manifest.files_to_load.iter().map(move |f| {
        CheckpointFileToRead {
            path: caps.text(
                &f.resolved
                    .clone()
                    .unwrap_or_else(|| join(&project.dir, &f.path)),
            ),
            sections: Vec::new(),
            priority: None,
            purpose: text(f.comment.as_ref()),
        }
    }))
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with('/') {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

fn critical_context(input: &CheckpointInput, project: &Project, caps: Caps) -> Option<String> {
    let mut parts = Vec::new();
    // Cut before they are compared and joined: each may be megabytes long.
    let short = |value: Option<String>| value.map(|v| caps.text(&v));
    let phase = state::phase_label(
        short(state::phase(project)).as_deref(),
        short(state::phase_name(project)).as_deref(),
    );
    let doing = match (phase, short(state::activity(project))) {
        (Some(p), Some(a)) => Some(format!("{p}, activity {a}")),
        (Some(p), None) => Some(p),
        (None, Some(a)) => Some(format!("activity {a}")),
        (None, None) => None,
    };
    if let Some(doing) = doing {
        parts.push(format!(
            "Compaction ({}) came during {doing}.",
            input.trigger.unwrap_or("auto")
        ));
    }
    let prose = project
        .resumption
        .as_ref()
        .and_then(|r| r.recovery.current_state.clone());
    if let Some(prose) = prose {
        parts.push(caps.text(prose.trim()));
    }
    if let Some(note) = instructions_note(input) {
        parts.push(note);
    }
    let joined = parts.join(" ");
    (!joined.is_empty()).then(|| scrub(&joined).into_owned())
}

fn instructions_note(input: &CheckpointInput) -> Option<String> {
    let instructions = input.custom_instructions?.trim();
    if instructions.is_empty() {
        return None;
    }
    // Redacted before the cut (with a margin, `core::text::cut`), so that a
    // secret straddling it is not left half there.
    let (clean, precut) = cut::scrubbed_head(instructions, MAX_INSTRUCTIONS * 4);
    let kept: String = clean.chars().take(MAX_INSTRUCTIONS).collect();
    let more = if precut || kept.len() < clean.len() {
        " […]"
    } else {
        ""
    };
    Some(format!("Operator's /compact instructions: {kept}{more}"))
}

/// Nexus `00-system/.cache/precompact_state.json` (seed 000, flat, under 1 KB).
pub fn precompact_state(
    detection: Option<&Detection>,
    project: Option<&Project>,
    session_id: Option<&str>,
    now: Timestamp,
) -> PrecompactState {
    let nexus = project.filter(|p| p.kind == ProjectKind::Nexus);
    // A folder name: an id longer than a file name can be names no project (and
    // would make the file, which SessionStart reads, as long as it).
    let active_project_id = nexus
        .map(|p| {
            p.dir
                .rsplit('/')
                .next()
                .filter(|s| !s.is_empty())
                .unwrap_or(&p.id)
                .to_string()
        })
        .filter(|id| id.len() <= MAX_PROJECT_ID_BYTES);
    let (confidence, detection_method) = match (nexus, detection) {
        (Some(_), Some(d)) => (d.confidence, d.method),
        _ => (Confidence::Low, DetectionMethod::Fallback),
    };
    PrecompactState {
        active_project_id,
        confidence,
        detection_method,
        timestamp: now.to_iso(),
        session_id: session_id.map(str::to_string),
        metadata: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::jerry::normalize_orchestration;
    use crate::core::normalize::nexus::normalize_manifest;

    fn built(yaml: &str, instructions: Option<&str>) -> (DesignCheckpoint, String) {
        let project = normalize_orchestration("p/ORCHESTRATION.yaml", "p", yaml);
        let checkpoint = checkpoint(&CheckpointInput {
            number: 1,
            now: Timestamp(1_800_000_000),
            session_id: Some("s"),
            trigger: Some("auto"),
            custom_instructions: instructions,
            fill: None,
            project: Some(&project),
        });
        let text = serde_json::to_string_pretty(&checkpoint).unwrap();
        (checkpoint, text)
    }

    /// A YAML double-quoted string of `n` repetitions of `unit`.
    fn quoted(unit: &str, n: usize) -> String {
        format!("\"{}\"", unit.repeat(n))
    }

    /// A long `files_to_read` list: the state file first, then the first listed
    /// files in order, a repeated path once, up to the list cap.
    #[test]
    fn a_long_file_list_gives_its_first_distinct_entries() {
        let mut yaml = String::from(
            "workflow:\n  id: w\nresumption:\n  next_step: go\n  files_to_read:\n    - p/ORCHESTRATION.yaml\n    - a.md\n    - a.md\n",
        );
        for i in 0..5_000 {
            yaml.push_str(&format!("    - f{i}.md\n"));
        }
        let (checkpoint, _) = built(&yaml, None);
        let paths: Vec<&str> = checkpoint
            .recovery_instructions
            .files_to_read
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        let items = Caps::STEPS[0].items;
        assert_eq!(paths.len(), items + 1);
        assert_eq!(&paths[..3], ["p/ORCHESTRATION.yaml", "a.md", "f0.md"]);
        assert_eq!(paths[items], format!("f{}.md", items - 2));
    }

    #[test]
    fn a_huge_next_step_is_cut_at_the_field_cap_with_a_marker() {
        let yaml = format!(
            "workflow:\n  id: w\nresumption:\n  recovery_state:\n    next_step: {}\n",
            quoted("lorem ipsum ", 800_000)
        );
        let (checkpoint, text) = built(&yaml, None);
        let next = &checkpoint.recovery_instructions.next_action;
        assert!(
            next.contains("Then continue: lorem ipsum"),
            "{}",
            &next[..200]
        );
        assert!(
            next.ends_with(
                "[… cut by resume-tui: 9.1 MB more; the full text is in the workflow's state file]"
            ),
            "{}",
            &next[next.len() - 200..]
        );
        assert!(next.len() < MAX_FIELD_BYTES + 300, "{}", next.len());
        assert!(text.len() < 64 * 1024, "{}", text.len());
    }

    /// Every text and list at once, in characters JSON writes as six bytes
    /// (`\u0001`): the caps tighten until the checkpoint fits its budget.
    #[test]
    fn whatever_the_inputs_the_checkpoint_fits_its_budget() {
        let huge = quoted("\\x01", 50_000);
        let long = quoted("\\x01", 2_000);
        let mut yaml = format!(
            "workflow:\n  id: {long}\nresumption:\n  recovery_state:\n    current_phase: {long}\n    \
             current_phase_name: {huge}\n    current_activity: {huge}\n    next_step: {huge}\n    \
             current_state: {huge}\n    last_checkpoint: {huge}\n    workflow_status: {huge}\n  \
             quality:\n    current_gate: {long}\n  files_to_read:\n"
        );
        for i in 0..40 {
            yaml.push_str(&format!("    - path: {long}\n      purpose: {long}\n      sections: [{long}, {long}]\n      priority: {i}\n"));
        }
        yaml.push_str("  agent_summaries:\n");
        for i in 0..40 {
            yaml.push_str(&format!("    agent{i}: {long}\n"));
        }
        yaml.push_str("  decision_log:\n");
        for i in 0..40 {
            yaml.push_str(&format!(
                "    - id: {long}\n      decision: {long}\n      affects_phases: [{i}]\n"
            ));
        }
        yaml.push_str("  defects:\n    unresolved_defects:\n");
        for _ in 0..40 {
            yaml.push_str(&format!("      - {long}\n"));
        }
        let instructions = "\u{1}".repeat(1_000_000);
        let (checkpoint, text) = built(&yaml, Some(&instructions));
        assert!(text.len() <= CHECKPOINT_BUDGET, "{} bytes", text.len());
        assert!(
            checkpoint.accumulated_context.agent_summaries.len() <= Caps::STEPS[0].items,
            "lists are cut"
        );
        assert!(!checkpoint.recovery_instructions.files_to_read.is_empty());
    }

    #[test]
    fn instructions_are_redacted_before_they_are_cut() {
        let secret = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
        let instructions = format!("{} {secret} and more", "x".repeat(MAX_INSTRUCTIONS - 10));
        let note = instructions_note(&CheckpointInput {
            number: 1,
            now: Timestamp(0),
            session_id: None,
            trigger: None,
            custom_instructions: Some(&instructions),
            fill: None,
            project: None,
        })
        .unwrap();
        assert!(!note.contains("ghp_"), "{note}");
        assert!(note.ends_with(" […]"), "{note}");
    }

    #[test]
    fn nexus_files_are_listed_where_the_loader_found_them() {
        let mut project = normalize_manifest(
            "n/02-projects/36-x/01-planning/resume-context.md",
            "n/02-projects/36-x",
            "---\nproject_id: 36-x\nfiles_to_load:\n  - 01-planning/a.md\n  \
             - 00-system/skills/b.md\n---\n",
        );
        if let Some(manifest) = &mut project.manifest {
            manifest.files_to_load[1].resolved = Some("n/00-system/skills/b.md".into());
        }
        let paths: Vec<String> = listed_files(&project, Caps::STEPS[0])
            .map(|f| f.path)
            .collect();
        assert_eq!(
            paths,
            [
                "n/02-projects/36-x/01-planning/a.md",
                "n/00-system/skills/b.md"
            ]
        );
    }
}
