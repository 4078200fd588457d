//! Template 1, the resumption prompt (seed 003), from a Jerry project and its
//! checkpoints. Which field feeds which line, and the fallbacks, are listed in
//! docs/templates.md.

use super::budget::{INJECTION_LIMIT_CHARS, Rendered, finish, limit};
use super::format::{abbreviate, one_line, percent, score, wrap};
use super::prompt_blocks::{self as blocks, Block};
#[path = "prompt_facts.rs"]
mod facts;
use super::state::{self, first, newest_checkpoint, phase_label};
use crate::core::model::Project;

const OPENING: &str = "You are resuming a workflow that was interrupted. Do NOT start over. Your goal is to\ncontinue from the exact point of interruption using the persistent state below.";

const CLOSING: &str = "Do NOT re-read artifacts from completed phases unless specifically needed for the current\ntask. Minimize context consumption -- you are resuming mid-workflow and context budget\nis limited.";

/// Above the lines where the resumption section is behind newer evidence: the
/// expected state after a compaction or a partial update, not an alarm.
const BEHIND_HEADER: &str =
    "NOTE: part of the state file is behind newer evidence; the newer side is current:\n";

/// Longest `NEXT ACTION` kept whole; longer ones are abbreviated (and marked).
const NEXT_ACTION_MAX: usize = 800;
/// Longest next action on the "Proceed with" line, which is never cut by the
/// budget (the sections above it are cut first).
const PROCEED_MAX: usize = 4_000;
/// Longest v1 `current_state` prose carried into the prompt.
const STATE_PROSE_MAX: usize = 1_200;
/// Longest single value on a `- Label:` line.
const ITEM_MAX: usize = 400;
/// v1 prose up to this length stands in for the activity on its own line.
const SHORT_PROSE: usize = 160;

/// Options for Template 1 injected by the hooks.
#[derive(Debug, Clone, Copy, Default)]
pub struct PromptOptions {
    /// Follows the compaction alert in one injection (`render::after_compaction`),
    /// which gives the fill at compaction: the fill here is labelled by when it
    /// was measured (left out when it would be the checkpoint's).
    pub after_alert: bool,
    /// The closing step points at the NEXT ACTION instead of repeating it (the
    /// whole text again only when the budget cut the NEXT ACTION line).
    pub next_action_once: bool,
}

pub fn render_prompt(project: &Project) -> Rendered {
    render_prompt_with(project, PromptOptions::default())
}

pub fn render_prompt_with(project: &Project, options: PromptOptions) -> Rendered {
    let mut shortened = false;
    let checkpoint = newest_checkpoint(&project.checkpoints);
    let mut used_checkpoint = false;
    let mut out = String::new();

    out.push_str(OPENING);
    out.push_str("\n\n");
    out.push_str(&format!("WORKFLOW: {}\n", project.id));
    out.push_str(&format!("PROJECT: {}\n", project_id(project)));
    out.push_str(&format!(
        "ORCHESTRATION PLAN: {}\n\n",
        blocks::plan_path(project)
    ));
    // A paragraph of its own: the dashboard's pane joins wrapped lines again.
    out.push_str(&wrap("STATE AS OF: ", 2, &facts::state_as_of(project)));
    out.push_str("\n\n");
    if let Some(why) = facts::left_unread(project) {
        out.push_str("WARNING: the state file was not read, so the state below is unknown; read the file itself:\n");
        out.push_str(&wrap("- ", 2, &abbreviate(&why, ITEM_MAX)));
        out.push_str("\n\n");
    }
    if !project.summary.contradictions.is_empty() {
        out.push_str("WARNING: the state file contradicts itself; confirm with the operator before trusting it:\n");
        for sentence in &project.summary.contradictions {
            out.push_str(&wrap("- ", 2, sentence));
            out.push('\n');
        }
        out.push('\n');
    }
    if !project.summary.behind.is_empty() {
        out.push_str(BEHIND_HEADER);
        for line in &project.summary.behind {
            out.push_str(&wrap("- ", 2, line));
            out.push('\n');
        }
        out.push('\n');
    }

    out.push_str("RECOVERY STATE:\n");
    let phase = state::phase(project).or_else(|| checkpoint.and_then(|c| c.current_phase.clone()));
    let phase_name = state::phase_name(project);
    let phase = phase_label(phase.as_deref(), phase_name.as_deref());
    let phase = match (phase, state::phase_only_in_a_part(project)) {
        (Some(label), Some(at)) => Some(format!(
            "{label} (found only at {at}; the workflow states no phase of its own -- confirm it)"
        )),
        (phase, _) => phase,
    };
    let sources = &project.summary.sources;
    let phase = phase.map(|p| marked(project, p, sources.phase.as_deref()));
    let phase = phase.map(|p| {
        match (
            facts::phase_not_started(project),
            facts::phase_done_but_workflow_not(project),
        ) {
            (Some(at), _) => {
                format!("{p} [not started: the phase after the last one done, per {at}]")
            }
            (None, Some(at)) => format!(
                "{p} [done per {at}, while the workflow is not; the file names no later phase]"
            ),
            (None, None) => p,
        }
    });
    out.push_str(&item("Current phase", phase));
    if let Some(pipelines) = facts::pipelines(project) {
        out.push_str(&item("Pipelines (active first)", Some(pipelines)));
    }
    out.push_str(&item("Workflow status", state::status(project)));
    let activity = state::activity(project);
    let prose = state::state_prose(project);
    let short_prose = prose
        .clone()
        .filter(|p| one_line(p).chars().count() <= SHORT_PROSE);
    let activity_line = match (&activity, &prose, &short_prose) {
        (Some(a), _, _) => Some(a.clone()),
        (None, _, Some(short)) => Some(one_line(short)),
        (None, Some(_), None) => Some("see STATE AS RECORDED below".into()),
        (None, None, _) => None,
    };
    let activity_line = activity_line.map(|a| marked(project, a, sources.activity.as_deref()));
    out.push_str(&item("Last activity", activity_line));
    let last = state::last_checkpoint(project).or_else(|| Some("none recorded".into()));
    out.push_str(&item("Last checkpoint", last));
    let fill = state::fill_at_update(project).or_else(|| {
        let fill = checkpoint
            .and_then(|c| c.fill)
            .filter(|_| !options.after_alert);
        used_checkpoint |= fill.is_some();
        fill
    });
    match (options.after_alert, fill) {
        (false, fill) => out.push_str(&item("Context fill at interruption", fill.map(percent))),
        (true, Some(fill)) => {
            let when = project
                .summary
                .updated_at_raw
                .as_deref()
                .unwrap_or("an unrecorded time");
            let label = format!("Context fill when the resumption section was written ({when})");
            out.push_str(&item(&label, Some(percent(fill))));
        }
        (true, None) => {}
    }
    let compactions = state::compaction_count(project).map(|n| n.to_string());
    used_checkpoint |= !project.checkpoints.is_empty();
    out.push_str(&item(
        "Compaction events in previous session",
        compactions.or_else(|| Some("none recorded".into())),
    ));
    out.push('\n');

    if let Some(prose) = prose.as_deref()
        && (activity.is_some() || short_prose.is_none())
    {
        let kept = abbreviate(prose, STATE_PROSE_MAX);
        shortened |= kept.ends_with('…') && !prose.trim_end().ends_with('…');
        out.push_str("STATE AS RECORDED:\n");
        out.push_str(&wrap("", 0, &kept));
        out.push_str("\n\n");
    }

    let next = state::next_action(Some(project), checkpoint, activity.as_deref());
    let proceed = match &next {
        Some(text) => {
            let kept = abbreviate(text, PROCEED_MAX);
            shortened |= kept != one_line(text);
            marked(project, kept, sources.next_step.as_deref())
        }
        None => "unknown -- read the files above to determine the next step".into(),
    };
    let next = match next {
        Some(text) => {
            let kept = abbreviate(&text, NEXT_ACTION_MAX);
            shortened |= kept != one_line(&text);
            kept
        }
        None => "unknown -- read the files below to determine the next step".into(),
    };
    let next = marked(project, next, sources.next_step.as_deref());
    out.push_str(&wrap("NEXT ACTION: ", 0, &next));
    out.push_str("\n\n");

    let blockers = facts::blockers(project);
    if !blockers.lines.is_empty() {
        shortened |= blockers.shortened;
        out.push_str("ACTIVE BLOCKERS (most severe first):\n");
        out.push_str(&blockers.lines.join("\n"));
        out.push_str("\n\n");
    }

    if let Some(lines) = quality_lines(project) {
        out.push_str("QUALITY TRAJECTORY:\n");
        for (label, value) in lines {
            out.push_str(&item(label, Some(value)));
        }
        out.push('\n');
    }

    let sections: [(&str, Block); 3] = [
        (
            "KEY DECISIONS (carry forward):",
            blocks::decisions(project, checkpoint),
        ),
        ("AGENT WORK COMPLETED:", blocks::agents(project, checkpoint)),
        (
            "DEFECT PATTERNS (avoid re-introducing):",
            blocks::defects(project, checkpoint),
        ),
    ];
    for (title, block) in sections {
        if block.lines.is_empty() {
            continue;
        }
        shortened |= block.shortened;
        used_checkpoint |= block.from_checkpoint;
        out.push_str(title);
        out.push('\n');
        out.push_str(&block.lines.join("\n"));
        out.push_str("\n\n");
    }

    let files = blocks::files(project);
    shortened |= files.shortened;
    out.push_str("READ THESE FILES IN ORDER:\n");
    out.push_str(&files.lines.join("\n"));
    out.push_str("\n\n");

    // The closing steps carry the whole next action: when the budget is short the
    // sections above are cut, never these.
    let tail = |step: String| {
        let mut tail = String::from("AFTER READING:\n");
        tail.push_str("1. Confirm you understand the current workflow state\n");
        tail.push_str("2. Identify what phase/step to continue from\n");
        tail.push_str(&step);
        tail.push_str("\n\n");
        tail.push_str(CLOSING);
        tail.push('\n');
        tail
    };
    let whole = tail(wrap("3. Proceed with: ", 3, &proceed));
    let room = INJECTION_LIMIT_CHARS.saturating_sub(whole.chars().count() + 1);
    let (body, cut) = limit(&out, room);
    shortened |= cut;
    let mut out = body;
    if cut {
        out.push_str("\n\n");
    }
    // Said once: the step points at the NEXT ACTION, while the cut left it.
    let pointed = options.next_action_once && out.contains("NEXT ACTION: ");
    out.push_str(&match pointed {
        true => tail("3. Proceed with the NEXT ACTION above".into()),
        false => whole,
    });

    let mut sources = vec![project.source.clone()];
    if let Some(cp) = checkpoint.filter(|_| used_checkpoint) {
        sources.push(cp.path.clone());
    }
    finish(&out, sources, shortened)
}

/// `value`, followed by the key it shows when a NOTE line says that key is
/// behind newer evidence: the reader sees which source is the stale one.
fn marked(project: &Project, value: String, key: Option<&str>) -> String {
    let Some(key) = key else {
        return value;
    };
    let behind = project
        .summary
        .behind
        .iter()
        .any(|line| line.contains(&format!("{key} ")) || line.contains(&format!("{key}:")));
    if behind {
        format!("{value} [as {key} says; behind newer evidence, see NOTE above]")
    } else {
        value
    }
}

/// `- Label: value` wrapped, `unknown` when there is no value.
fn item(label: &str, value: Option<String>) -> String {
    let value = value.map_or_else(|| "unknown".into(), |v| abbreviate(&v, ITEM_MAX));
    format!("{}\n", wrap(&format!("- {label}: "), 2, &value))
}

/// `workflow.project_id`, else a `PROJ-…` folder of the source path, else the name.
fn project_id(project: &Project) -> String {
    let from_path = project
        .source
        .split('/')
        .find(|segment| segment.starts_with("PROJ-"))
        .map(str::to_string);
    first([project.project_ref.clone(), from_path, project.name.clone()])
        .unwrap_or_else(|| "unknown".into())
}

/// The quality lines, or `None` when the project records no quality data at all.
fn quality_lines(project: &Project) -> Option<Vec<(&'static str, String)>> {
    let quality = project.resumption.as_ref().and_then(|r| r.quality.as_ref());
    let last = state::last_score(project);
    if quality.is_none()
        && last.is_none()
        && project.trajectory.gates.is_empty()
        && project.summary.current_gate.is_none()
    {
        return None;
    }
    let (completed, remaining) = blocks::gate_lists(project);
    let all_passed = remaining == "none" && !matches!(completed.as_str(), "none" | "unknown");
    let mut lines = vec![
        ("Gates completed", completed),
        ("Gates remaining", remaining),
    ];
    // The gate the summary knows (the resumption's `current_gate`, else a gate
    // marked IN_PROGRESS), with the key it came from when not the section's own.
    let known = project.summary.current_gate.as_ref().map(|gate| {
        match project.summary.sources.current_gate.as_deref() {
            Some(key) if key.ends_with("next_gate") => {
                format!("{gate} (the next gate, from {key})")
            }
            Some(key) if !key.starts_with("resumption") => format!("{gate} (from {key})"),
            _ => gate.clone(),
        }
    });
    let current = match (quality, known) {
        (Some(q), _) if q.current_gate.is_some() => {
            match (&q.current_gate, q.current_gate_iteration) {
                (Some(gate), Some(n)) => format!("{gate} (iteration {n})"),
                (Some(gate), None) => gate.clone(),
                (None, _) => "unknown".into(),
            }
        }
        (_, Some(known)) => known,
        (_, None) if all_passed => "none (every listed gate has passed)".into(),
        (Some(_), None) => "none (between gates)".into(),
        (None, None) => "unknown".into(),
    };
    lines.push(("Current gate", current));
    // The gate lists, when a NOTE line says their source was left behind.
    let lists_from = match quality {
        Some(_) => "resumption.quality_trajectory",
        None => "quality_gates",
    };
    for (label, value) in lines.iter_mut() {
        let shown = *label == "Gates remaining" || (*label == "Current gate" && quality.is_some());
        if shown {
            *value = marked(project, value.clone(), Some(lists_from));
        }
    }
    let last = match last {
        Some((gate, Some(n), value)) => format!("{} ({gate} iter {n})", score(value)),
        Some((gate, None, value)) => format!("{} ({gate})", score(value)),
        None => "none recorded".into(),
    };
    lines.push(("Last gate score", last));
    let weakest = quality
        .and_then(|q| q.lowest_dimension.clone())
        .or_else(|| {
            project
                .trajectory
                .gates
                .iter()
                .rev()
                .find_map(|g| g.lowest_dimension.as_ref().map(|(name, _)| name.clone()))
        });
    if let Some(weakest) = weakest {
        lines.push(("Recurring weak dimension", weakest));
    }
    Some(lines)
}
