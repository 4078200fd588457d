//! The "Dropped by compaction" section SessionStart (source `compact`) injects in
//! the session that compacted: only what the summary lost, pending decisions and
//! defects first, within `max_chars`.

use super::{Comparison, Kind, Verdict};

/// What the section is about.
pub struct SectionInput<'a> {
    pub checkpoint_id: &'a str,
    /// The workflow the checkpoint names, for the pointer to the full state.
    pub workflow: Option<&'a str>,
    pub comparison: &'a Comparison,
    pub max_chars: usize,
}

pub const TITLE: &str = "Dropped by compaction";

pub fn render_section(input: &SectionInput) -> String {
    let c = input.comparison;
    let total = c.verdicts.len();
    let dropped = c.dropped_by_urgency();
    if dropped.is_empty() {
        return format!(
            "{TITLE}: nothing. The compaction summary kept all {total} items of checkpoint {}.",
            input.checkpoint_id
        );
    }
    let mut text = format!(
        "## {TITLE}\n\nThe compaction summary left out {} of the {total} items checkpoint {} recorded \
         before compaction. They still hold:\n",
        dropped.len(),
        input.checkpoint_id
    );
    let kept = match total - dropped.len() {
        0 => "The summary kept none of them.".to_string(),
        n => format!("The summary kept the other {n}."),
    };
    let pointer = match input.workflow {
        Some(w) => format!(
            "\n{kept} Full list: `resume-tui dropped {w} {}`.",
            input.checkpoint_id
        ),
        None => format!("\n{kept}"),
    };
    let budget = input.max_chars.saturating_sub(pointer.chars().count() + 40);
    let mut shown = 0;
    for v in &dropped {
        let line = format!("\n- {}", line(v));
        if text.chars().count() + line.chars().count() > budget {
            break;
        }
        text.push_str(&line);
        shown += 1;
    }
    if shown < dropped.len() {
        text.push_str(&format!("\n- … and {} more", dropped.len() - shown));
    }
    text.push('\n');
    text.push_str(&pointer);
    text
}

fn line(v: &Verdict) -> String {
    let item = &v.item;
    let text: String = item.text.split_whitespace().collect::<Vec<_>>().join(" ");
    let id = item.id.as_deref();
    match (item.kind, id) {
        (Kind::Decision, Some(id)) => format!("Decision {id} (pending): {text}"),
        (Kind::Decision, None) => format!("Decision (pending): {text}"),
        (Kind::File, _) => format!("File to read: {text}"),
        (Kind::Agent, Some(id)) => format!("Agent {id} left partial: {text}"),
        (Kind::Phase, _) => format!("Current phase: {text}"),
        (Kind::Gate, _) => format!("Current gate: {text}"),
        (Kind::NextAction, _) => format!("Next action: {text}"),
        (kind, Some(id)) => format!(
            "{} {id}: {text}",
            crate::core::text::capitalised(kind.label())
        ),
        (kind, None) => format!("{}: {text}", crate::core::text::capitalised(kind.label())),
    }
}
