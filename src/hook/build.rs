//! The PreCompact checkpoint in the design format of seed 002 ("Checkpoint File
//! Format"), filled from the active project's resumption section (or Nexus
//! manifest) and the measured fill. Every copied text is redacted.

use serde_json::Value;

use super::checkpoints::event_id;
use super::detect::Detection;
use crate::core::fill::{DEFAULT_WINDOW, Fill};
use crate::core::model::{Project, ProjectKind};
use crate::core::redact::scrub;
use crate::core::render::state;
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
/// `custom_instructions` longer than this are cut in the checkpoint.
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

pub fn checkpoint(input: &CheckpointInput) -> DesignCheckpoint {
    let project = input.project;
    DesignCheckpoint {
        schema_version: "1.0.0".into(),
        event_type: "compaction".into(),
        event_id: event_id(input.number),
        timestamp: input.now.to_iso(),
        session_id: input.session_id.map(str::to_string),
        trigger: CheckpointTrigger {
            kind: input.trigger.unwrap_or("auto").to_string(),
            source: "PreCompact hook".into(),
        },
        context_state: context_state(input),
        orchestration_state: project.map(orchestration_state).unwrap_or_default(),
        accumulated_context: project.map(accumulated_context).unwrap_or_default(),
        recovery_instructions: recovery_instructions(input),
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
        source: fill.source.clone(),
    }
}

fn text(value: Option<String>) -> Option<String> {
    value.map(|v| scrub(&v).into_owned())
}

fn phase_id(text: &str) -> PhaseId {
    match text.trim().parse::<i64>() {
        Ok(n) => PhaseId::Number(n),
        Err(_) => PhaseId::Text(text.to_string()),
    }
}

fn orchestration_state(project: &Project) -> OrchestrationState {
    let quality = project.resumption.as_ref().and_then(|r| r.quality.as_ref());
    let current_gate = quality.and_then(|q| q.current_gate.clone());
    let score = state::last_score(project)
        .filter(|(gate, _, _)| current_gate.as_deref().is_none_or(|g| g == gate));
    OrchestrationState {
        workflow_id: Some(project.id.clone()),
        workflow_status: text(state::status(project)),
        current_phase: state::phase(project).as_deref().map(phase_id),
        current_phase_name: text(state::phase_name(project)),
        current_activity: text(state::activity(project)),
        last_completed_checkpoint: text(state::last_checkpoint(project)),
        phases_complete: Vec::new(),
        phases_in_progress: Vec::new(),
        phases_remaining: Vec::new(),
        current_gate: current_gate.or_else(|| score.as_ref().map(|(g, _, _)| g.clone())),
        current_gate_iteration: quality.and_then(|q| q.current_gate_iteration),
        current_gate_score: score.map(|(_, _, s)| s),
    }
}

fn accumulated_context(project: &Project) -> AccumulatedContext {
    let blockers = project
        .manifest
        .iter()
        .flat_map(|m| &m.blockers)
        .map(|b| scrub(b).into_owned())
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
        .map(|id| scrub(id).into_owned())
        .collect();
    let defect_patterns = resumption
        .defects
        .iter()
        .flat_map(|d| &d.recurring_patterns)
        .map(|p| scrub(&p.pattern).into_owned())
        .collect();
    // Pending decisions first matter most; applied ones are already in the files.
    let pending: Vec<_> = resumption
        .decisions
        .iter()
        .filter(|d| d.applied != Some(true))
        .collect();
    let skip = pending.len().saturating_sub(MAX_DECISIONS);
    let decisions_since_last_checkpoint = pending
        .into_iter()
        .skip(skip)
        .map(|d| CheckpointDecision {
            id: d.id.clone(),
            summary: scrub(&d.decision).into_owned(),
            affects_phases: d
                .affects_phases
                .iter()
                .map(|p| PhaseId::Number(*p))
                .collect(),
        })
        .collect();
    let agent_summaries = resumption
        .agent_summaries
        .iter()
        .map(|a| {
            (
                a.agent.clone(),
                Value::String(scrub(&a.summary).into_owned()),
            )
        })
        .collect();
    AccumulatedContext {
        defect_patterns,
        decisions_since_last_checkpoint,
        agent_summaries,
        unresolved_defects,
        blockers,
    }
}

fn recovery_instructions(input: &CheckpointInput) -> RecoveryInstructions {
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
        path: project.source.clone(),
        sections: vec![section.to_string()],
        priority: Some(1),
        purpose: Some("Workflow state; merge this checkpoint into it.".into()),
    }];
    for listed in listed_files(project) {
        if !files.iter().any(|f| f.path == listed.path) {
            files.push(listed);
        }
    }
    let next = state::continue_with(project);
    let mut next_action = format!(
        "Read {} ({section} section). Merge this checkpoint data into it.",
        project.source
    );
    if let Some(next) = text(next) {
        next_action.push_str(" Then continue: ");
        next_action.push_str(next.trim());
    }
    RecoveryInstructions {
        files_to_read: files,
        next_action,
        critical_context: critical_context(input, project),
    }
}

fn listed_files(project: &Project) -> Vec<CheckpointFileToRead> {
    if let Some(resumption) = &project.resumption {
        return resumption
            .files_to_read
            .iter()
            .map(|f| CheckpointFileToRead {
                path: f.path.clone(),
                sections: f.sections.clone(),
                priority: f.priority,
                purpose: text(f.purpose.clone()),
            })
            .collect();
    }
    let Some(manifest) = &project.manifest else {
        return Vec::new();
    };
    manifest
        .files_to_load
        .iter()
        .map(|f| CheckpointFileToRead {
            path: f
                .resolved
                .clone()
                .unwrap_or_else(|| join(&project.dir, &f.path)),
            sections: Vec::new(),
            priority: None,
            purpose: text(f.comment.clone()),
        })
        .collect()
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with('/') {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

fn critical_context(input: &CheckpointInput, project: &Project) -> Option<String> {
    let mut parts = Vec::new();
    let phase = state::phase_label(
        state::phase(project).as_deref(),
        state::phase_name(project).as_deref(),
    );
    let doing = match (phase, state::activity(project)) {
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
        parts.push(prose.trim().to_string());
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
    let cut: String = instructions.chars().take(MAX_INSTRUCTIONS).collect();
    let more = if cut.len() < instructions.len() {
        " […]"
    } else {
        ""
    };
    Some(scrub(&format!("Operator's /compact instructions: {cut}{more}")).into_owned())
}

/// Nexus `00-system/.cache/precompact_state.json` (seed 000, flat, under 1 KB).
pub fn precompact_state(
    detection: Option<&Detection>,
    project: Option<&Project>,
    session_id: Option<&str>,
    now: Timestamp,
) -> PrecompactState {
    let nexus = project.filter(|p| p.kind == ProjectKind::Nexus);
    let active_project_id = nexus.map(|p| {
        p.dir
            .rsplit('/')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or(&p.id)
            .to_string()
    });
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
    use crate::core::normalize::nexus::normalize_manifest;

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
        let paths: Vec<String> = listed_files(&project).into_iter().map(|f| f.path).collect();
        assert_eq!(
            paths,
            [
                "n/02-projects/36-x/01-planning/a.md",
                "n/00-system/skills/b.md"
            ]
        );
    }
}
