//! The items of the state before compaction, read from a checkpoint, in the order
//! an operator reads them: phase, gate, decisions, defects, blockers, the next
//! action, the files to read, agents left partial.

use serde::Serialize;

use crate::core::model::Checkpoint;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Phase,
    Gate,
    /// Checkpoints carry only the decisions not yet applied.
    Decision,
    Defect,
    Blocker,
    NextAction,
    File,
    Agent,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Phase => "phase",
            Kind::Gate => "gate",
            Kind::Decision => "decision",
            Kind::Defect => "defect",
            Kind::Blocker => "blocker",
            Kind::NextAction => "next action",
            Kind::File => "file",
            Kind::Agent => "agent",
        }
    }

    /// What restoring puts first: pending decisions, then defects and blockers.
    pub fn urgency(self) -> u8 {
        match self {
            Kind::Decision => 0,
            Kind::Defect | Kind::Blocker => 1,
            _ => 2,
        }
    }
}

/// One thing the new context should still know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    pub kind: Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub text: String,
}

impl Item {
    fn new(kind: Kind, id: Option<String>, text: impl Into<String>) -> Item {
        Item {
            kind,
            id: id.filter(|i| !i.trim().is_empty()),
            text: text.into(),
        }
    }
}

/// Status words that open the summary of an agent that did not finish.
const UNFINISHED: &[&str] = &[
    "partial",
    "in progress",
    "in-progress",
    "incomplete",
    "blocked",
    "started",
    "running",
    "wip",
    "failed",
];

/// Whether an agent's one-line summary says it did not finish (`PARTIAL. …`).
pub fn unfinished(summary: &str) -> bool {
    let lower = summary.trim_start().to_lowercase();
    UNFINISHED.iter().any(|word| {
        lower.starts_with(word)
            && lower
                .get(word.len()..)
                .and_then(|rest| rest.chars().next())
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The part of a next action that is not resume-tui's own recovery preamble
/// ("Read X (resumption section). Merge this checkpoint data into it. Then
/// continue: …").
pub fn own_next_action(text: &str) -> &str {
    match text.split_once("Then continue:") {
        Some((_, rest)) if !rest.trim().is_empty() => rest.trim(),
        _ => text.trim(),
    }
}

pub fn items_of(cp: &Checkpoint) -> Vec<Item> {
    let mut items = Vec::new();
    if let Some(phase) = cp.current_phase.as_deref().filter(|p| !p.trim().is_empty()) {
        let id = if phase.chars().all(|c| c.is_ascii_digit()) {
            format!("phase {phase}")
        } else {
            phase.to_string()
        };
        let text = match cp.current_phase_name.as_deref() {
            Some(name) => format!("Phase {phase}: {name}"),
            None => format!("Phase {phase}"),
        };
        items.push(Item::new(Kind::Phase, Some(id), text));
    }
    if let Some(gate) = cp.current_gate.as_deref() {
        let mut text = gate.to_string();
        if let Some(n) = cp.current_gate_iteration {
            text.push_str(&format!(", iteration {n}"));
        }
        if let Some(score) = cp.current_gate_score {
            text.push_str(&format!(", score {score}"));
        }
        items.push(Item::new(Kind::Gate, Some(gate.to_string()), text));
    }
    for d in &cp.decisions {
        items.push(Item::new(Kind::Decision, d.id.clone(), d.summary.clone()));
    }
    for id in &cp.unresolved_defects {
        items.push(Item::new(
            Kind::Defect,
            Some(id.clone()),
            "unresolved defect",
        ));
    }
    for pattern in &cp.defect_patterns {
        items.push(Item::new(Kind::Defect, None, pattern.clone()));
    }
    for blocker in &cp.blockers {
        items.push(Item::new(Kind::Blocker, None, blocker.clone()));
    }
    if let Some(next) = &cp.next_action {
        let own = own_next_action(next);
        if !own.is_empty() {
            items.push(Item::new(Kind::NextAction, None, own));
        }
    }
    for file in &cp.files_to_read {
        let name = file.path.rsplit(['/', '\\']).next().map(str::to_string);
        items.push(Item::new(Kind::File, name, file.path.clone()));
    }
    for (agent, summary) in &cp.agent_summaries {
        if unfinished(summary) {
            items.push(Item::new(Kind::Agent, Some(agent.clone()), summary.clone()));
        }
    }
    items
}
