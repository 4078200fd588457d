//! The list blocks of Template 1: decisions, agent work, defect patterns and
//! the files to read. Each list is capped so the prompt stays near its budget;
//! a cap always leaves a line saying how many entries were left out and where.

use super::format::{abbreviate, one_line, phases, sentence, wrap};
use super::state::{self, in_order};
use crate::core::model::{Checkpoint, FileToRead, Project};

const MAX_DECISIONS: usize = 8;
const MAX_AGENTS: usize = 12;
const MAX_DEFECTS: usize = 8;
const MAX_FILES: usize = 10;
const ENTRY_MAX: usize = 320;

#[derive(Debug, Default)]
pub struct Block {
    pub lines: Vec<String>,
    pub shortened: bool,
    pub from_checkpoint: bool,
}

impl Block {
    fn push(&mut self, first: &str, indent: usize, text: &str) {
        let kept = abbreviate(text, ENTRY_MAX);
        self.shortened |= kept != one_line(text);
        self.lines.push(wrap(first, indent, &kept));
    }
}

/// Keeps the last `max` entries; says how many earlier ones are left out.
fn last_n<T>(items: &[T], max: usize, what: &str, source: &str, block: &mut Block) -> usize {
    let skip = items.len().saturating_sub(max);
    if skip > 0 {
        block
            .lines
            .push(format!("- ({skip} earlier {what} in {source})"));
    }
    skip
}

pub fn decisions(project: &Project, checkpoint: Option<&Checkpoint>) -> Block {
    let mut block = Block::default();
    let list = project
        .resumption
        .as_ref()
        .map(|r| r.decisions.as_slice())
        .unwrap_or_default();
    if list.is_empty() {
        let Some(cp) = checkpoint.filter(|c| !c.decisions.is_empty()) else {
            return block;
        };
        block.from_checkpoint = true;
        for d in &cp.decisions {
            let label =
                d.id.as_deref()
                    .map_or("- ".into(), |id| format!("- {id}: "));
            let mut text = sentence(&d.summary);
            if let Some(p) = phases(&d.affects_phases) {
                text.push_str(&format!(" Affects {p}."));
            }
            block.push(&label, 2, &text);
        }
        return block;
    }
    let skip = last_n(
        list,
        MAX_DECISIONS,
        "decisions",
        &project.source,
        &mut block,
    );
    for d in list.iter().skip(skip) {
        let place = match (&d.gate, d.iteration) {
            (Some(g), Some(n)) => Some(format!("{g}, iter {n}")),
            (Some(g), None) => Some(g.clone()),
            (None, Some(n)) => Some(format!("iter {n}")),
            (None, None) => d.date.clone(),
        };
        let label = match (&d.id, place) {
            (Some(id), Some(place)) => format!("- {id} ({place}): "),
            (Some(id), None) => format!("- {id}: "),
            (None, Some(place)) => format!("- ({place}): "),
            (None, None) => "- ".into(),
        };
        let mut text = sentence(&d.decision);
        if let Some(why) = d.rationale.as_deref().filter(|r| !r.trim().is_empty()) {
            text.push(' ');
            text.push_str(&sentence(why));
        }
        if let Some(p) = phases(&d.affects_phases) {
            text.push_str(&format!(" Affects {p}."));
        }
        if d.applied == Some(false) {
            text.push_str(" Not yet applied.");
        }
        block.push(&label, 2, &text);
    }
    block
}

pub fn agents(project: &Project, checkpoint: Option<&Checkpoint>) -> Block {
    let mut block = Block::default();
    let list: Vec<(&str, &str)> = match project.resumption.as_ref() {
        Some(r) if !r.agent_summaries.is_empty() => r
            .agent_summaries
            .iter()
            .map(|a| (a.agent.as_str(), a.summary.as_str()))
            .collect(),
        _ => {
            let Some(cp) = checkpoint.filter(|c| !c.agent_summaries.is_empty()) else {
                return block;
            };
            block.from_checkpoint = true;
            cp.agent_summaries
                .iter()
                .map(|(a, s)| (a.as_str(), s.as_str()))
                .collect()
        }
    };
    let skip = last_n(&list, MAX_AGENTS, "agents", &project.source, &mut block);
    for (agent, summary) in list.iter().skip(skip) {
        block.push(&format!("- {agent}: "), 2, summary);
    }
    block
}

pub fn defects(project: &Project, checkpoint: Option<&Checkpoint>) -> Block {
    let mut block = Block::default();
    let summary = project.resumption.as_ref().and_then(|r| r.defects.as_ref());
    let patterns: Vec<String> = match summary {
        Some(d) if !d.recurring_patterns.is_empty() => d
            .recurring_patterns
            .iter()
            .map(|p| match p.gates_affected.as_slice() {
                [] => one_line(&p.pattern),
                gates => format!("{} ({})", one_line(&p.pattern), gates.join(", ")),
            })
            .collect(),
        _ => match checkpoint.filter(|c| !c.defect_patterns.is_empty()) {
            Some(cp) => {
                block.from_checkpoint = true;
                cp.defect_patterns.clone()
            }
            None => Vec::new(),
        },
    };
    let skip = last_n(
        &patterns,
        MAX_DEFECTS,
        "patterns",
        &project.source,
        &mut block,
    );
    for pattern in patterns.iter().skip(skip) {
        block.push("- ", 2, pattern);
    }
    if let Some(open) = summary.filter(|d| !d.unresolved_defects.is_empty()) {
        block.push(
            "- Still unresolved: ",
            2,
            &open.unresolved_defects.join(", "),
        );
    }
    block
}

/// The files to read, by priority (entries without one keep their order, last).
/// Falls back to the newest checkpoint's list, then to the state file itself.
pub fn files(project: &Project) -> Block {
    let mut block = Block::default();
    let mut list: Vec<FileToRead> = project
        .resumption
        .as_ref()
        .map(|r| r.files_to_read.clone())
        .unwrap_or_default();
    if list.is_empty() {
        list = state::newest_checkpoint(&project.checkpoints)
            .map(|c| c.files_to_read.clone())
            .unwrap_or_default();
    }
    if list.is_empty() {
        let sections = match project.resumption {
            Some(_) => vec!["resumption".to_string()],
            None => Vec::new(),
        };
        list.push(FileToRead {
            path: project.source.clone(),
            priority: Some(1),
            purpose: Some("Workflow state (no files_to_read recorded).".into()),
            sections,
            ..FileToRead::default()
        });
    }
    // The documented fallback plan, when the loader found it.
    if let Some(plan) = sibling_plan(project) {
        list.push(plan.clone());
    }
    list.sort_by_key(|f| f.priority.map_or((1, 0), |p| (0, p)));
    let gate = project.summary.current_gate.clone();
    let phase = state::phase(project);
    let mut rank = 0;
    for file in list.iter().take(MAX_FILES) {
        rank += 1;
        if file.note {
            block.push(&format!("{rank}. [NOTE] "), 3, &file.path);
            continue;
        }
        let missing = not_found(file);
        let path = file.resolved.as_deref().unwrap_or(&file.path);
        block.lines.push(format!(
            "{rank}. [PRIORITY {rank}] {}{missing}",
            one_line(path)
        ));
        let sections: Vec<String> = file
            .sections
            .iter()
            .map(|s| fill_placeholders(s, gate.as_deref(), phase.as_deref()))
            .filter(|s| !s.is_empty())
            .collect();
        if !sections.is_empty() {
            block.push("   Sections: ", 3, &sections.join(", "));
        }
        if let Some(purpose) = file.purpose.as_deref().filter(|p| !p.trim().is_empty()) {
            block.push("   Purpose: ", 3, purpose);
        }
    }
    if list.len() > MAX_FILES {
        block.lines.push(format!(
            "   ({} more listed in files_to_read of {})",
            list.len() - MAX_FILES,
            project.source
        ));
    }
    let unacknowledged: Vec<&Checkpoint> = in_order(&project.checkpoints)
        .into_iter()
        .filter(|c| !c.acknowledged)
        .collect();
    if let Some(newest) = unacknowledged.last() {
        rank += 1;
        block
            .lines
            .push(format!("{rank}. [CHECKPOINT] {}", newest.path));
        block.push(
            "   Purpose: ",
            3,
            &format!(
                "Compaction checkpoint {} is not acknowledged: it may hold state newer than the resumption section. Merge it, then acknowledge it.",
                newest.id
            ),
        );
    }
    block
}

/// Replaces `{current_gate}` / `{current_phase}` in a section name (seed 002
/// writes `quality_gates.{current_gate}`). Unknown values drop the placeholder
/// and the separator before it.
fn fill_placeholders(section: &str, gate: Option<&str>, phase: Option<&str>) -> String {
    let mut out = one_line(section);
    for (name, value) in [("{current_gate}", gate), ("{current_phase}", phase)] {
        while let Some(at) = out.find(name) {
            let value = value.unwrap_or("");
            let start = if value.is_empty() {
                out.get(..at)
                    .and_then(|head| head.char_indices().last())
                    .filter(|(_, c)| matches!(c, '.' | '-' | '_'))
                    .map_or(at, |(i, _)| i)
            } else {
                at
            };
            out.replace_range(start..at + name.len(), value);
        }
    }
    out
}

/// The ORCHESTRATION_PLAN.md listed in `files_to_read`, as resolved from the root
/// and marked when it was not found; else the state file's sibling plan (the
/// documented convention), printed only when the loader found it, and said to
/// be absent when it looked and did not.
pub fn plan_path(project: &Project) -> String {
    let listed = project.resumption.as_ref().and_then(|r| {
        r.files_to_read
            .iter()
            .filter(|f| !f.note)
            .find(|f| f.path.trim_end().ends_with("ORCHESTRATION_PLAN.md"))
    });
    let Some(file) = listed else {
        return match &project.summary.sibling_plan {
            Some(plan) if plan.exists == Some(true) => format!(
                "{}  [beside the state file; files_to_read names no plan]",
                one_line(&plan.path)
            ),
            Some(plan) if plan.exists == Some(false) => format!(
                "{}  [not found: files_to_read names no plan, and none is beside the state file]",
                one_line(&plan.path)
            ),
            _ => "none listed in files_to_read".into(),
        };
    };
    let path = one_line(file.resolved.as_deref().unwrap_or(&file.path));
    format!("{path}{}", not_found(file))
}

/// The state file's sibling plan when `files_to_read` names none and it exists.
fn sibling_plan(project: &Project) -> Option<&FileToRead> {
    project
        .summary
        .sibling_plan
        .as_ref()
        .filter(|p| p.exists == Some(true))
}

/// `  [not found; looked in a, b]` after a listed file that resolves nowhere.
fn not_found(file: &FileToRead) -> String {
    match (file.exists, file.looked_in.as_slice()) {
        (Some(false), []) => "  [not found]".to_string(),
        (Some(false), looked) => format!("  [not found; looked in {}]", looked.join(", ")),
        _ => String::new(),
    }
}

/// `Gates completed` / `Gates remaining`: the resumption section's lists, else
/// the gate statuses of the project's trajectory, else `unknown`.
pub fn gate_lists(project: &Project) -> (String, String) {
    let join = |ids: Vec<String>| {
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    };
    if let Some(q) = project.resumption.as_ref().and_then(|r| r.quality.as_ref()) {
        let done = q.gates_completed.iter().map(|g| g.id.clone()).collect();
        return (join(done), join(q.gates_remaining.clone()));
    }
    let gates = &project.trajectory.gates;
    if gates.iter().all(|g| g.status.is_none()) {
        return ("unknown".into(), "unknown".into());
    }
    let passed = |status: &Option<String>| {
        status.as_deref().is_some_and(|s| {
            let s = s.to_ascii_lowercase();
            s.contains("pass") || s.contains("complete") || s == "done"
        })
    };
    let (done, left): (Vec<_>, Vec<_>) = gates.iter().partition(|g| passed(&g.status));
    (
        join(done.iter().map(|g| g.gate.clone()).collect()),
        join(left.iter().map(|g| g.gate.clone()).collect()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_or_dropped() {
        assert_eq!(
            fill_placeholders("quality_gates.{current_gate}", Some("qg-2"), None),
            "quality_gates.qg-2"
        );
        assert_eq!(
            fill_placeholders("phase-{current_phase}", None, Some("2")),
            "phase-2"
        );
        assert_eq!(
            fill_placeholders("quality_gates.{current_gate}", None, None),
            "quality_gates"
        );
        assert_eq!(fill_placeholders("{current_gate}", None, None), "");
    }
}
