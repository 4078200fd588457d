//! Facts of Template 1 beyond seed 003's lines: when the state was last
//! written and how stale it is judged, every pipeline's phase, and the active
//! blockers (docs/templates.md lists where each is read from).

use crate::core::model::{Blocker, Project, Severity, Shape};
use crate::core::render::format::{abbreviate, one_line, wrap};
use crate::core::render::prompt_blocks::Block;
use crate::core::staleness::StalenessLevel;

const BLOCKER_MAX: usize = 320;
const MAX_BLOCKERS: usize = 8;

/// `2026-02-01T13:30:00Z (STALE: <the reasons list gives>)`: the update time as
/// the file writes it and the staleness verdict with its reasons.
pub(super) fn state_as_of(project: &Project) -> String {
    if project.shape == Shape::Unreadable {
        return "unknown: the state file was not read".into();
    }
    let when = project
        .summary
        .updated_at_raw
        .as_deref()
        .map(one_line)
        .unwrap_or_else(|| "unknown".into());
    let verdict = &project.staleness;
    if verdict.level == StalenessLevel::Unknown && verdict.reasons.is_empty() {
        return match project.summary.updated_at_raw {
            Some(_) => when,
            None => "unknown (no update time recorded)".into(),
        };
    }
    let reasons = verdict
        .reasons
        .iter()
        .map(|r| r.trim().trim_end_matches('.').to_string())
        .collect::<Vec<_>>()
        .join("; ");
    match reasons.is_empty() {
        true => format!("{when} ({})", verdict.level.label()),
        false => format!("{when} ({}: {reasons})", verdict.level.label()),
    }
}

/// The key of a phase list entry the current phase was read from, when that
/// entry's status says it has not started (the phase after the last one done).
pub(super) fn phase_not_started(project: &Project) -> Option<String> {
    phase_entry_in(project, &project.summary.phase_progress.remaining)
}

/// The same, when the entry says it is done while the workflow is not: the
/// file names no later phase, and the work goes on elsewhere in it.
pub(super) fn phase_done_but_workflow_not(project: &Project) -> Option<String> {
    let status = project.summary.status.as_deref().unwrap_or_default();
    let finished = ["COMPLETE", "DONE", "FINISHED", "CLOSED"]
        .iter()
        .any(|w| status.to_ascii_uppercase().contains(w));
    match finished {
        true => None,
        false => phase_entry_in(project, &project.summary.phase_progress.complete),
    }
}

fn phase_entry_in(project: &Project, ids: &[String]) -> Option<String> {
    let s = &project.summary;
    let key = s
        .sources
        .phase
        .as_deref()
        .filter(|k| k.ends_with(".status"))?;
    let phase = s.phase.as_deref()?;
    ids.iter().any(|id| id == phase).then(|| key.to_string())
}

/// Each pipeline's phase and status, the active one first; `None` for a
/// workflow of one pipeline (its phase is the "Current phase" line).
pub(super) fn pipelines(project: &Project) -> Option<String> {
    let list = &project.summary.pipelines;
    if list.len() < 2 {
        return None;
    }
    let each: Vec<String> = list
        .iter()
        .map(|p| {
            let phase = p
                .phase
                .as_deref()
                .map(|ph| format!(" phase {}", one_line(ph)));
            let status = p.status.as_deref().map(|s| format!(" ({})", one_line(s)));
            let key = format!("{}.current_phase ", p.key);
            let behind = project.summary.behind.iter().any(|l| l.contains(&key));
            format!(
                "{}{}{}{}",
                one_line(&p.name),
                phase.unwrap_or_default(),
                status.unwrap_or_default(),
                if behind {
                    " [behind, see NOTE above]"
                } else {
                    ""
                }
            )
        })
        .collect();
    Some(each.join("; "))
}

/// `- [CRITICAL] B-004: text Impact: …`, most severe first (the model's order).
pub(super) fn blockers(project: &Project) -> Block {
    let mut block = Block::default();
    let list = &project.summary.blockers;
    for b in list.iter().take(MAX_BLOCKERS) {
        let text = line(b);
        let kept = abbreviate(&text, BLOCKER_MAX);
        block.shortened |= kept != one_line(&text);
        block.lines.push(wrap("- ", 2, &kept));
    }
    let more = list.len().saturating_sub(MAX_BLOCKERS);
    if let Some(first) = list.first().filter(|_| more > 0) {
        block.lines.push(format!(
            "- ({more} less severe in {} of {})",
            first.key, project.source
        ));
    }
    block
}

fn line(b: &Blocker) -> String {
    let mut text = String::new();
    if let Some(severity) = &b.severity {
        text.push_str(&format!("[{}] ", one_line(severity)));
    }
    if let Some(id) = &b.id {
        text.push_str(&format!("{}: ", one_line(id)));
    }
    text.push_str(&one_line(&b.description));
    if let Some(impact) = &b.impact {
        text.push_str(&format!(" (impact: {})", one_line(impact)));
    }
    text
}

/// Why the state file was left unread (a YAML error, a refusal of the guard
/// or of the hooks' budget), when it was.
pub(super) fn left_unread(project: &Project) -> Option<String> {
    if project.shape != Shape::Unreadable {
        return None;
    }
    let error = project
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)?;
    Some(one_line(&error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{PipelineState, ProjectKind, Shape};
    use crate::core::staleness::Staleness;

    fn project() -> Project {
        Project::at(
            ProjectKind::Jerry,
            "w",
            "w/ORCHESTRATION.yaml",
            "w",
            Shape::V1,
        )
    }

    #[test]
    fn the_update_time_with_the_verdict_and_its_reasons() {
        let mut p = project();
        assert_eq!(state_as_of(&p), "unknown (no update time recorded)");
        p.summary.updated_at_raw = Some("2026-02-01T13:30:00Z".into());
        assert_eq!(state_as_of(&p), "2026-02-01T13:30:00Z");
        p.staleness = Staleness {
            level: StalenessLevel::Stale,
            reasons: vec!["Last updated before the current phase 1 started.".into()],
            ..Staleness::default()
        };
        assert_eq!(
            state_as_of(&p),
            "2026-02-01T13:30:00Z (STALE: Last updated before the current phase 1 started)"
        );
    }

    #[test]
    fn a_phase_read_from_a_list_entry_not_yet_started() {
        let mut p = project();
        p.summary.phase = Some("phase-2".into());
        p.summary.sources.phase = Some("phases[1].status".into());
        assert_eq!(phase_not_started(&p), None);
        p.summary.phase_progress.remaining = vec!["phase-2".into()];
        assert_eq!(phase_not_started(&p).as_deref(), Some("phases[1].status"));
        p.summary.sources.phase = Some("workflow.current_phase".into());
        assert_eq!(
            phase_not_started(&p),
            None,
            "a phase the file names as current"
        );
        p.summary.sources.phase = Some("phase_0.status".into());
        p.summary.phase = Some("0".into());
        p.summary.phase_progress.complete = vec!["0".into()];
        p.summary.status = Some("ACTIVE".into());
        assert_eq!(
            phase_done_but_workflow_not(&p).as_deref(),
            Some("phase_0.status")
        );
        p.summary.status = Some("COMPLETE".into());
        assert_eq!(phase_done_but_workflow_not(&p), None);
    }

    #[test]
    fn pipelines_only_when_there_are_several() {
        let mut p = project();
        let pipe = |name: &str, phase: &str, status: &str| PipelineState {
            name: name.into(),
            key: format!("pipelines.{name}"),
            phase: Some(phase.into()),
            status: Some(status.into()),
        };
        p.summary.pipelines = vec![pipe("a", "2", "ACTIVE")];
        assert_eq!(pipelines(&p), None);
        p.summary.pipelines.push(pipe("b", "3", "COMPLETE"));
        assert_eq!(
            pipelines(&p).as_deref(),
            Some("a phase 2 (ACTIVE); b phase 3 (COMPLETE)")
        );
        p.summary.behind = vec!["pipelines.b.current_phase is 3, but phase 4 is COMPLETE".into()];
        assert_eq!(
            pipelines(&p).as_deref(),
            Some("a phase 2 (ACTIVE); b phase 3 (COMPLETE) [behind, see NOTE above]")
        );
    }

    #[test]
    fn past_eight_blockers_a_line_counts_the_rest() {
        let mut p = project();
        p.summary.blockers = (0..10)
            .map(|i| Blocker {
                description: format!("b{i}"),
                key: "blockers.active".into(),
                ..Blocker::default()
            })
            .collect();
        let lines = blockers(&p).lines;
        assert_eq!(lines.len(), 9);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("- (2 less severe in blockers.active of w/ORCHESTRATION.yaml)")
        );
    }

    #[test]
    fn blockers_say_severity_id_text_and_impact() {
        let mut p = project();
        assert!(blockers(&p).lines.is_empty());
        p.summary.blockers = vec![
            Blocker {
                id: Some("B-1".into()),
                severity: Some("CRITICAL".into()),
                description: "no key".into(),
                impact: Some("phase 3".into()),
                key: "blockers.active".into(),
            },
            Blocker {
                description: "slow".into(),
                key: "blockers.active".into(),
                ..Blocker::default()
            },
        ];
        assert_eq!(
            blockers(&p).lines,
            vec!["- [CRITICAL] B-1: no key (impact: phase 3)", "- slow"]
        );
    }
}
