//! Values several renderers need, resolved from a project with fallbacks:
//! the resumption section first, then the project summary, then checkpoints.

use crate::core::model::{Checkpoint, CompactionEvents, Project, RecoveryState};

/// The checkpoint with the highest number (then the latest time, then id).
pub fn newest_checkpoint(checkpoints: &[Checkpoint]) -> Option<&Checkpoint> {
    checkpoints
        .iter()
        .max_by(|a, b| (a.number, a.created_at, &a.id).cmp(&(b.number, b.created_at, &b.id)))
}

/// Checkpoints in the order they were written.
pub fn in_order(checkpoints: &[Checkpoint]) -> Vec<&Checkpoint> {
    let mut list: Vec<&Checkpoint> = checkpoints.iter().collect();
    list.sort_by(|a, b| (a.number, a.created_at, &a.id).cmp(&(b.number, b.created_at, &b.id)));
    list
}

pub fn recovery(project: &Project) -> Option<&RecoveryState> {
    project.resumption.as_ref().map(|r| &r.recovery)
}

/// The first present, non-blank value.
pub fn first(values: impl IntoIterator<Item = Option<String>>) -> Option<String> {
    values.into_iter().flatten().find(|v| !v.trim().is_empty())
}

pub fn phase(project: &Project) -> Option<String> {
    first([
        recovery(project).and_then(|r| r.current_phase.clone()),
        project.summary.phase.clone(),
    ])
}

/// The key a phase was read from when it was found only inside a part of the file
/// and nothing better (the resumption section) states one.
pub fn phase_only_in_a_part(project: &Project) -> Option<&str> {
    let sources = &project.summary.sources;
    let recovered = recovery(project)
        .and_then(|r| r.current_phase.as_deref())
        .is_some_and(|p| !p.trim().is_empty());
    (sources.phase_in_a_part && !recovered)
        .then_some(sources.phase.as_deref())
        .flatten()
}

pub fn phase_name(project: &Project) -> Option<String> {
    first([
        recovery(project).and_then(|r| r.current_phase_name.clone()),
        project.summary.phase_name.clone(),
    ])
}

/// The current activity. The summary falls back to v1 `current_state` prose,
/// which is not an activity: that is left out here (see `state_prose`).
pub fn activity(project: &Project) -> Option<String> {
    let prose = state_prose(project);
    first([
        recovery(project).and_then(|r| r.current_activity.clone()),
        project
            .summary
            .activity
            .clone()
            .filter(|a| Some(a) != prose.as_ref()),
    ])
}

/// v1 `current_state` prose, when the section has any.
pub fn state_prose(project: &Project) -> Option<String> {
    first([recovery(project).and_then(|r| r.current_state.clone())])
}

pub fn status(project: &Project) -> Option<String> {
    first([
        recovery(project).and_then(|r| r.workflow_status.clone()),
        project.summary.status.clone(),
    ])
}

pub fn next_step(project: &Project) -> Option<String> {
    first([
        recovery(project).and_then(|r| r.next_step.clone()),
        project.summary.next_step.clone(),
    ])
}

/// What a new checkpoint tells the next session to continue with: the project's
/// `next_step`, else a Nexus manifest's `next_action`.
pub fn continue_with(project: &Project) -> Option<String> {
    first([
        next_step(project),
        project
            .manifest
            .as_ref()
            .and_then(|m| m.next_action.clone()),
    ])
}

/// The next action, from one place for Template 1, the compaction alert and the
/// SessionStart summary, so they agree word for word (issue 15): the resumption
/// section's `next_step` (the operator's own words, as seed 003's populated
/// Template 1 shows), else the checkpoint's `next_action`, else what OQ-R3
/// prescribes for an interrupted quality-gate `activity`, else the checkpoint's own
/// resumption state.
pub fn next_action(
    project: Option<&Project>,
    checkpoint: Option<&Checkpoint>,
    activity: Option<&str>,
) -> Option<String> {
    first([
        project.and_then(next_step),
        checkpoint.and_then(|c| c.next_action.clone()),
        activity.and_then(oq_r3_next_action),
        checkpoint.and_then(|c| checkpoint_state_text(c, &["next_step", "next_action"])),
    ])
}

/// The first non-empty of `keys` in a checkpoint's `resumption_state`, on one line.
pub fn checkpoint_state_text(cp: &Checkpoint, keys: &[&str]) -> Option<String> {
    let state = cp.resumption_state.as_ref()?;
    keys.iter()
        .filter_map(|key| state.get(*key)?.as_str())
        .map(super::format::one_line)
        .find(|text| !text.trim().is_empty())
}

pub fn last_checkpoint(project: &Project) -> Option<String> {
    first([
        recovery(project).and_then(|r| r.last_checkpoint.clone()),
        project.summary.last_checkpoint.clone(),
    ])
}

pub fn fill_at_update(project: &Project) -> Option<f64> {
    recovery(project)
        .and_then(|r| r.context_fill_at_update)
        .or(project.summary.fill_at_update)
}

/// `Phase 2 (Core License Changes)`, `Phase 2`, `execution`, or `None`.
pub fn phase_label(phase: Option<&str>, name: Option<&str>) -> Option<String> {
    let phase = phase.map(|p| {
        if p.chars().all(|c| c.is_ascii_digit()) {
            format!("Phase {p}")
        } else {
            p.to_string()
        }
    });
    // Compared as words: `phase-2`, `Phase 2` and `PHASE_2` are the same, and so
    // are `Evidence Analysis` and `evidence-analysis`.
    let words = |s: &str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let holds = |outer: &str, inner: &str| {
        let (outer, inner) = (words(outer), words(inner));
        !inner.is_empty() && format!(" {outer} ").contains(&format!(" {inner} "))
    };
    match (phase, name) {
        (Some(p), Some(n)) if words(n) == words(&p) => Some(p),
        (Some(p), Some(n)) if holds(n, &p) => Some(n.to_string()),
        (Some(p), Some(n)) if holds(&p, n) => Some(p),
        (Some(p), Some(n)) => Some(format!("{p} ({n})")),
        (Some(p), None) => Some(p),
        (None, Some(n)) => Some(n.to_string()),
        (None, None) => None,
    }
}

/// Compactions recorded in the resumption section, else the number of checkpoints.
pub fn compaction_count(project: &Project) -> Option<i64> {
    let recorded = project
        .resumption
        .as_ref()
        .and_then(|r| r.compaction.as_ref())
        .and_then(recorded_count);
    match recorded {
        Some(n) => Some(n),
        None if project.checkpoints.is_empty() => None,
        None => Some(project.checkpoints.len() as i64),
    }
}

fn recorded_count(events: &CompactionEvents) -> Option<i64> {
    if let Some(count) = events.count {
        return Some(count);
    }
    let summed: Option<i64> = events.events.iter().map(|e| e.compactions).sum();
    match summed {
        Some(n) => Some(n),
        None if events.events.is_empty() => None,
        None => Some(events.events.len() as i64),
    }
}

/// What OQ-R3 prescribes for a quality-gate activity, if `activity` is one:
/// `qg-N-iteration-M` restarts the iteration; `qg-N-iteration-M-revision`
/// applies the revision, then runs iteration M+1.
pub fn oq_r3_next_action(activity: &str) -> Option<String> {
    let lower = activity.trim().to_ascii_lowercase();
    let rest = lower.strip_prefix("qg-")?;
    let (gate, tail) = rest.split_once("-iteration-")?;
    let (iteration, revision) = match tail.strip_suffix("-revision") {
        Some(number) => (number, true),
        None => (tail, false),
    };
    let iteration: i64 = iteration.parse().ok()?;
    if gate.is_empty() {
        return None;
    }
    let gate = super::format::gate_title(&format!("qg-{gate}"));
    Some(if revision {
        format!(
            "Apply the revision based on {gate} iteration {iteration} findings, then run iteration {}.",
            iteration + 1
        )
    } else {
        format!(
            "Restart {gate} iteration {iteration}. Re-read the deliverables and run all required strategies."
        )
    })
}

/// The last score of the quality record, with its gate and iteration:
/// the current gate's history, else the last history entry, else the last
/// completed gate with a score, else the project's trajectory.
pub fn last_score(project: &Project) -> Option<(String, Option<usize>, f64)> {
    let quality = project.resumption.as_ref().and_then(|r| r.quality.as_ref());
    if let Some(q) = quality {
        let current = q.current_gate.as_deref().and_then(|gate| {
            q.score_history
                .iter()
                .find(|(g, scores)| g == gate && !scores.is_empty())
        });
        let entry = current.or_else(|| q.score_history.iter().rev().find(|(_, s)| !s.is_empty()));
        if let Some((gate, scores)) = entry
            && let Some(last) = scores.last()
        {
            return Some((gate.clone(), Some(scores.len()), *last));
        }
        if let Some(done) = q.gates_completed.iter().rev().find(|g| g.score.is_some())
            && let Some(score) = done.score
        {
            return Some((done.id.clone(), done.iterations.map(|n| n as usize), score));
        }
    }
    let gate = project.trajectory.newest_scored()?;
    let last = gate.scores.last()?;
    Some((gate.gate.clone(), Some(gate.last_scored_iteration()), *last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oq_r3_restarts_scoring_and_continues_after_revision() {
        assert_eq!(
            oq_r3_next_action("qg-2-iteration-1").as_deref(),
            Some(
                "Restart QG-2 iteration 1. Re-read the deliverables and run all required strategies."
            )
        );
        assert_eq!(
            oq_r3_next_action("qg-final-iteration-2-revision").as_deref(),
            Some(
                "Apply the revision based on QG-Final iteration 2 findings, then run iteration 3."
            )
        );
        assert_eq!(oq_r3_next_action("phase-3-agent-execution"), None);
        assert_eq!(oq_r3_next_action("qg-2-iteration-x"), None);
        assert_eq!(oq_r3_next_action("qg--iteration-1"), None);
    }

    #[test]
    fn phase_labels() {
        assert_eq!(
            phase_label(Some("2"), Some("Core License Changes")).as_deref(),
            Some("Phase 2 (Core License Changes)")
        );
        assert_eq!(
            phase_label(Some("phase-2"), None).as_deref(),
            Some("phase-2")
        );
        assert_eq!(phase_label(None, Some("Done")).as_deref(), Some("Done"));
        assert_eq!(
            phase_label(Some("2"), Some("Phase 2: Design")).as_deref(),
            Some("Phase 2: Design"),
            "a name that carries the phase does not repeat it"
        );
        assert_eq!(
            phase_label(Some("COMPLETE"), Some("complete")).as_deref(),
            Some("COMPLETE")
        );
        assert_eq!(phase_label(None, None), None);
        assert_eq!(
            phase_label(
                Some("phase 2 — Evidence Analysis"),
                Some("Evidence Analysis")
            )
            .as_deref(),
            Some("phase 2 — Evidence Analysis"),
            "a phase that carries its name is not followed by it again"
        );
        assert_eq!(
            phase_label(Some("phase-2"), Some("Phase 2 — Evidence-Analysis")).as_deref(),
            Some("Phase 2 — Evidence-Analysis")
        );
        assert_eq!(
            phase_label(Some("2"), Some("Phase 2: Evidence Analysis")).as_deref(),
            Some("Phase 2: Evidence Analysis")
        );
        assert_eq!(
            phase_label(Some("1"), Some("Phase 12 review")).as_deref(),
            Some("Phase 1 (Phase 12 review)"),
            "whole words only"
        );
    }
}
