//! Template 2, the `<compaction-alert>` (seed 003), from a checkpoint of either
//! format plus its project. Aims at 300–400 tokens; above the 500-token ceiling
//! the free-text parts (critical context, pending decisions) are shortened
//! first and the structured fields kept (OQ-R1).

use super::budget::{Rendered, estimate_tokens, finish, limit};
use super::format::{abbreviate, one_line, percent, phases, score, sentence, wrap};
use super::state::{self, first, in_order, phase_label};
use crate::core::model::{Checkpoint, CheckpointFormat, Project};

pub const ALERT_CEILING_TOKENS: usize = 500;
const CRITICAL_MIN: usize = 80;
/// Longest activity text on the `YOU WERE DOING` line.
const DOING_MAX: usize = 160;
/// Longest `YOU WERE DOING` line: the phase's label and the activity.
const DOING_LINE_MAX: usize = 320;
const SHORTENED: &str = " [shortened; full text in the checkpoint file]";

/// `known` is every checkpoint the caller knows of (the project's, or the
/// workspace's unassigned ones); it decides the `N of M this session` line.
pub fn render_alert(
    checkpoint: &Checkpoint,
    project: Option<&Project>,
    known: &[Checkpoint],
) -> Rendered {
    render_alert_with(checkpoint, project, known, false)
}

/// `render_alert`; `before_prompt` when Template 1 of the same workflow follows
/// in the same injection (`render::after_compaction`): the fill is labelled as
/// the checkpoint's, at compaction, and the last step points at Template 1's
/// NEXT ACTION instead of repeating it.
pub fn render_alert_with(
    checkpoint: &Checkpoint,
    project: Option<&Project>,
    known: &[Checkpoint],
    before_prompt: bool,
) -> Rendered {
    let fixed = fixed_part(checkpoint, project, known, before_prompt);
    let mut critical = critical_context(checkpoint, project);
    let mut decisions = pending_decisions(checkpoint, project);
    let mut shortened = false;

    let ceiling = ALERT_CEILING_TOKENS * 4;
    let mut text = compose(&fixed, critical.as_deref(), &decisions);
    if let Some(full) = critical.clone() {
        let over = text.chars().count().saturating_sub(ceiling);
        if over > 0 {
            let keep = full
                .chars()
                .count()
                .saturating_sub(over + SHORTENED.len())
                .max(CRITICAL_MIN);
            critical = Some(format!("{}{SHORTENED}", abbreviate(&full, keep)));
            shortened = true;
            text = compose(&fixed, critical.as_deref(), &decisions);
        }
    }
    let total = decisions.len();
    while estimate_tokens(&text) > ALERT_CEILING_TOKENS && !decisions.is_empty() {
        decisions.pop();
        shortened = true;
        let mut kept = decisions.clone();
        kept.push(format!(
            "- ({} more in the checkpoint file)",
            total - decisions.len()
        ));
        text = compose(&fixed, critical.as_deref(), &kept);
    }
    if estimate_tokens(&text) > ALERT_CEILING_TOKENS {
        // The immediate actions (what to read, how to acknowledge, where to
        // continue) are the alert's point: the cut falls before them.
        let body = compose(
            &Fixed {
                head: fixed.head.clone(),
                actions: String::new(),
            },
            critical.as_deref(),
            &decisions,
        );
        let room = ceiling.saturating_sub(fixed.actions.chars().count());
        text = match room {
            0 => limit(&text, ceiling).0,
            room => format!(
                "{}\n\n{}",
                limit(body.trim_end(), room.saturating_sub(2)).0,
                fixed.actions
            ),
        };
        shortened = true;
    }
    let mut sources = vec![checkpoint.path.clone()];
    if let Some(p) = project {
        sources.push(p.source.clone());
    }
    finish(&text, sources, shortened)
}

struct Fixed {
    head: String,
    actions: String,
}

fn compose(fixed: &Fixed, critical: Option<&str>, decisions: &[String]) -> String {
    let mut out = fixed.head.clone();
    if let Some(critical) = critical {
        out.push_str("CRITICAL CONTEXT:\n");
        out.push_str(&wrap("", 0, critical));
        out.push_str("\n\n");
    }
    if !decisions.is_empty() {
        out.push_str("PENDING DECISIONS:\n");
        out.push_str(&decisions.join("\n"));
        out.push_str("\n\n");
    }
    out.push_str(&fixed.actions);
    out
}

fn fixed_part(
    cp: &Checkpoint,
    project: Option<&Project>,
    known: &[Checkpoint],
    before_prompt: bool,
) -> Fixed {
    let mut head = String::from("<compaction-alert>\n");
    head.push_str(
        "CONTEXT COMPACTION OCCURRED. Some conversation history was compressed by Claude Code.\n",
    );
    head.push_str("You may have lost track of recent work. Re-orient using the data below.\n\n");
    let session = session_of(cp, known);
    if session.len() > 1 {
        let n = session
            .iter()
            .position(|c| c.id == cp.id)
            .map_or(session.len(), |i| i + 1);
        let scope = match cp.session_id {
            Some(_) => "this session",
            None => "unacknowledged (no session id recorded)",
        };
        head.push_str(&format!(
            "COMPACTION EVENT: {n} of {} {scope}\n",
            session.len()
        ));
    }
    head.push_str(&format!("CHECKPOINT: {}\n", cp.path));
    head.push_str(&format!("TRIGGER: {}\n", trigger(cp)));
    let fill = cp.fill.map_or("unknown".into(), percent);
    match (before_prompt, cp.created_at_raw.as_deref()) {
        (true, Some(at)) => head.push_str(&format!(
            "FILL AT COMPACTION ({}, {}): {fill}\n\n",
            cp.id,
            abbreviate(at, 40)
        )),
        (true, None) => head.push_str(&format!("FILL AT COMPACTION ({}): {fill}\n\n", cp.id)),
        (false, _) => head.push_str(&format!("PRE-COMPACTION FILL: {fill}\n\n")),
    }

    let phase = first([cp.current_phase.clone(), project.and_then(state::phase)]);
    let name = first([
        cp.current_phase_name.clone(),
        project.and_then(state::phase_name),
    ]);
    let activity = first([
        cp.current_activity.clone(),
        project.and_then(state::activity),
    ]);
    let short = activity.as_deref().map(|a| abbreviate(a, DOING_MAX));
    let doing = match (phase_label(phase.as_deref(), name.as_deref()), &short) {
        (Some(p), Some(a)) => format!("{p}, {a}"),
        (Some(p), None) => p,
        (None, Some(a)) => a.clone(),
        (None, None) => "unknown".into(),
    };
    head.push_str(&wrap(
        "YOU WERE DOING: ",
        2,
        &abbreviate(&doing, DOING_LINE_MAX),
    ));
    head.push('\n');
    head.push_str(&format!("LAST SCORE: {}\n\n", last_score(cp, project)));

    let yaml = match project {
        Some(p) => p.source.clone(),
        None => listed_state_file(cp),
    };
    let next = state::next_action(project, Some(cp), activity.as_deref())
        .unwrap_or_else(|| "the interrupted work recorded in the resumption section".into());
    let mut actions = String::from("IMMEDIATE ACTIONS:\n");
    actions.push_str(&format!("1. Read checkpoint file: {}\n", cp.path));
    actions.push_str(&format!(
        "2. Read ORCHESTRATION.yaml resumption section: {yaml}\n"
    ));
    actions.push_str("3. Merge checkpoint data into resumption section if checkpoint is newer\n");
    actions.push_str(&wrap("4. ", 3, &acknowledge_step(cp, &session)));
    actions.push('\n');
    match before_prompt {
        true => actions.push_str("5. Continue from the NEXT ACTION of the resumption state below"),
        false => actions.push_str(&wrap("5. Continue from: ", 3, &abbreviate(&next, 400))),
    }
    actions.push_str("\n</compaction-alert>\n");
    Fixed { head, actions }
}

/// With no project: the state file the checkpoint lists (PreCompact lists the
/// workflow's own file first), else the files it lists, else "unknown".
fn listed_state_file(cp: &Checkpoint) -> String {
    let is_state_file = |path: &str| {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        matches!(
            name,
            "ORCHESTRATION.yaml" | "resume-context.md" | "_resume.md"
        )
    };
    let paths: Vec<String> = cp
        .files_to_read
        .iter()
        .map(|f| one_line(&f.path))
        .filter(|p| !p.trim().is_empty())
        .collect();
    if let Some(state) = paths.iter().find(|p| is_state_file(p)) {
        return state.clone();
    }
    let workflow = state::checkpoint_state_text(cp, &["workflow_id", "workflow"]);
    match (paths.as_slice(), workflow) {
        ([], Some(workflow)) => {
            format!("unknown; the checkpoint's resumption_state names workflow {workflow}")
        }
        ([], None) => "unknown (no workflow names this checkpoint)".into(),
        ([first, second, third, rest @ ..], _) if !rest.is_empty() => format!(
            "unknown; the checkpoint lists {first}, {second}, {third} and {} more",
            rest.len()
        ),
        (listed, _) => format!("unknown; the checkpoint lists {}", listed.join(", ")),
    }
}

/// `auto (PreCompact hook)`: `trigger.type` and `trigger.source` (kept in `other`).
fn trigger(cp: &Checkpoint) -> String {
    let source = cp
        .other
        .get("trigger.source")
        .and_then(|v| v.as_str())
        .filter(|s| !s.trim().is_empty());
    match (cp.trigger.as_deref(), source) {
        (Some(kind), Some(source)) => format!("{} ({})", one_line(kind), one_line(source)),
        (Some(kind), None) => one_line(kind),
        (None, Some(source)) => format!("unknown ({})", one_line(source)),
        (None, None) => "unknown".into(),
    }
}

/// This checkpoint's session: the checkpoints with its session id, else the
/// unacknowledged ones (OQ-R4); always including itself, in written order.
fn session_of<'a>(cp: &'a Checkpoint, known: &'a [Checkpoint]) -> Vec<&'a Checkpoint> {
    let mut peers: Vec<&Checkpoint> = in_order(known)
        .into_iter()
        .filter(|c| match &cp.session_id {
            Some(id) => c.session_id.as_ref() == Some(id),
            None => !c.acknowledged,
        })
        .filter(|c| c.id != cp.id)
        .collect();
    peers.push(cp);
    peers.sort_by(|a, b| (a.number, a.created_at, &a.id).cmp(&(b.number, b.created_at, &b.id)));
    peers
}

fn acknowledge_step(cp: &Checkpoint, session: &[&Checkpoint]) -> String {
    let mut step = match cp.format {
        CheckpointFormat::Design => {
            "Set checkpoint acknowledged=true in the checkpoint file".to_string()
        }
        CheckpointFormat::Jerry => {
            let marker = cp.path.strip_suffix(".json").unwrap_or(&cp.path);
            format!("Acknowledge the checkpoint: create the empty file {marker}.acknowledged")
        }
    };
    let others: Vec<&str> = session
        .iter()
        .filter(|c| !c.acknowledged && c.id != cp.id)
        .map(|c| c.id.as_str())
        .collect();
    match others.as_slice() {
        [] => {}
        [first, .., last] if others.len() > 3 => step.push_str(&format!(
            " (and the same for the {} older unacknowledged checkpoints, {first} to {last})",
            others.len()
        )),
        _ => step.push_str(&format!(
            " (and the same for the older unacknowledged {})",
            others.join(", ")
        )),
    }
    step
}

fn last_score(cp: &Checkpoint, project: Option<&Project>) -> String {
    if let Some(value) = cp.current_gate_score {
        return match (&cp.current_gate, cp.current_gate_iteration) {
            (Some(g), Some(n)) => format!("{} ({g}, iteration {n})", score(value)),
            (Some(g), None) => format!("{} ({g})", score(value)),
            _ => score(value),
        };
    }
    match project.and_then(state::last_score) {
        Some((gate, Some(n), value)) => format!("{} ({gate}, iteration {n})", score(value)),
        Some((gate, None, value)) => format!("{} ({gate})", score(value)),
        None => "none recorded".into(),
    }
}

/// The checkpoint's critical context, else the resumption section's v1 prose.
fn critical_context(cp: &Checkpoint, project: Option<&Project>) -> Option<String> {
    let prose = project
        .and_then(state::recovery)
        .and_then(|r| r.current_state.clone());
    first([cp.critical_context.clone(), prose]).map(|t| one_line(&t))
}

/// The checkpoint's decisions, else the project's decisions not yet applied.
fn pending_decisions(cp: &Checkpoint, project: Option<&Project>) -> Vec<String> {
    let line = |id: Option<&str>, text: &str, affects: &[i64]| {
        let mut body = sentence(text);
        if let Some(p) = phases(affects) {
            body.push_str(&format!(" Affects {p}."));
        }
        let label = id.map_or("- ".into(), |id| format!("- {id}: "));
        wrap(&label, 2, &body)
    };
    if !cp.decisions.is_empty() {
        return cp
            .decisions
            .iter()
            .map(|d| line(d.id.as_deref(), &d.summary, &d.affects_phases))
            .collect();
    }
    project
        .and_then(|p| p.resumption.as_ref())
        .map(|r| {
            r.decisions
                .iter()
                .filter(|d| d.applied == Some(false))
                .map(|d| line(d.id.as_deref(), &d.decision, &d.affects_phases))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::checkpoint::normalize_checkpoint;

    fn design(files: &str, next: &str) -> Checkpoint {
        let text = format!(
            r#"{{"schema_version": "1.0.0", "event_type": "compaction", "event_id": "cx-007",
               "timestamp": "2026-03-02T09:15:00Z",
               "recovery_instructions": {{"files_to_read": [{files}], "next_action": {next}}},
               "metadata": {{"acknowledged": false}}}}"#
        );
        normalize_checkpoint(".jerry/checkpoints/cx-007-checkpoint.json", &text, false).unwrap()
    }

    fn alert(cp: &Checkpoint) -> String {
        render_alert(cp, None, std::slice::from_ref(cp)).text
    }

    #[test]
    fn without_a_project_the_checkpoint_names_the_state_file_and_the_next_action() {
        let cp = design(
            r#"{"path": "notes/a.md"}, {"path": "projects/P/ORCHESTRATION.yaml", "sections": ["resumption"]}"#,
            r#""Re-score qg-3.""#,
        );
        let text = alert(&cp);
        assert!(
            text.contains(
                "2. Read ORCHESTRATION.yaml resumption section: projects/P/ORCHESTRATION.yaml\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("5. Continue from: Re-score qg-3.\n"),
            "{text}"
        );
        assert!(!text.contains("no workflow names"), "{text}");
    }

    #[test]
    fn a_real_jerry_checkpoint_says_what_its_resumption_state_names() {
        let text = r#"{"checkpoint_id": "cx-004", "created_at": "2026-02-17T12:00:00Z",
            "context_state": {"fill_percentage": 0.912},
            "resumption_state": {"workflow_id": "docs-rewrite-20260225-001",
                                 "next_step": "Continue guide-migrator from guide 27"}}"#;
        let cp = normalize_checkpoint(".jerry/checkpoints/cx-004.json", text, false).unwrap();
        let text = alert(&cp);
        assert!(
            text.contains(
                "2. Read ORCHESTRATION.yaml resumption section: unknown; the checkpoint's \
                 resumption_state names workflow docs-rewrite-20260225-001\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("5. Continue from: Continue guide-migrator from guide 27\n"),
            "{text}"
        );
    }

    #[test]
    fn without_a_state_file_the_listed_files_are_named() {
        let cp = design(r#"{"path": "a.md"}, {"path": "b.md"}"#, "null");
        assert!(alert(&cp).contains("2. Read ORCHESTRATION.yaml resumption section: unknown; the checkpoint lists a.md, b.md\n"));
        let many = design(
            r#"{"path": "a.md"}, {"path": "b.md"}, {"path": "c.md"}, {"path": "d.md"}, {"path": "e.md"}"#,
            "null",
        );
        assert!(
            alert(&many).contains("lists a.md, b.md, c.md and 2 more\n"),
            "{}",
            alert(&many)
        );
        let none = design("", "null");
        assert!(alert(&none).contains(
            "2. Read ORCHESTRATION.yaml resumption section: unknown (no workflow names this checkpoint)\n"
        ));
    }

    /// A huge field in the fixed part (the phase's name, the trigger, the gate)
    /// never pushes the immediate actions out of the alert: the cut falls before them.
    #[test]
    fn the_immediate_actions_survive_any_field_size() {
        let emoji = "🙂".repeat(3_000);
        let gate = "g".repeat(3_000);
        let text = format!(
            r#"{{"schema_version": "1.0.0", "event_type": "compaction", "event_id": "cx-007",
               "timestamp": "2026-03-02T09:15:00Z", "trigger": {{"type": "auto", "source": "{gate}"}},
               "orchestration_state": {{"current_phase": "2", "current_phase_name": "{emoji}",
                                        "current_gate": "{gate}", "current_gate_score": 0.8}},
               "recovery_instructions": {{"files_to_read": [], "next_action": "Re-score qg-3."}},
               "metadata": {{"acknowledged": false}}}}"#
        );
        let cp = normalize_checkpoint(".jerry/checkpoints/cx-007-checkpoint.json", &text, false)
            .unwrap();
        let rendered = render_alert(&cp, None, std::slice::from_ref(&cp));
        assert!(rendered.truncated);
        let text = rendered.text;
        assert!(text.contains("truncated by resume-tui"), "{text}");
        assert!(
            text.contains("5. Continue from: Re-score qg-3.\n</compaction-alert>"),
            "{text}"
        );
        assert!(
            text.contains("1. Read checkpoint file: .jerry/checkpoints/cx-007-checkpoint.json")
        );
        assert!(
            text.chars().count() <= ALERT_CEILING_TOKENS * 4 + 100,
            "{}",
            text.chars().count()
        );
    }
}
