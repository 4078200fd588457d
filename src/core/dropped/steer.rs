//! The opt-in PreCompact instruction to the summariser (`hooks.precompact_steer`):
//! one short paragraph naming the identifiers the summary must keep, so that the
//! comparison afterwards finds them. Plain text, never JSON: Claude Code passes
//! a PreCompact hook's plain stdout to the summariser (reference §3.4).

use super::{Kind, items_of};
use crate::core::model::Checkpoint;

/// Longest instruction printed (characters).
pub const MAX_STEER_CHARS: usize = 600;

/// The instruction, or `None` when the checkpoint names nothing worth keeping.
pub fn steer_text(checkpoint: &Checkpoint) -> Option<String> {
    let items = items_of(checkpoint);
    let ids = |kind: Kind| -> Vec<String> {
        items
            .iter()
            .filter(|i| i.kind == kind)
            .filter_map(|i| i.id.clone())
            .collect()
    };
    let mut parts: Vec<String> = ids(Kind::Phase)
        .into_iter()
        .map(|phase| match phase.strip_prefix("phase ") {
            Some(_) => format!("current {phase}"),
            None => format!("current phase {phase}"),
        })
        .collect();
    for (kind, label) in [
        (Kind::Gate, "quality gate"),
        (Kind::Decision, "pending decisions"),
        (Kind::Defect, "unresolved defects"),
    ] {
        let found = ids(kind);
        if !found.is_empty() {
            parts.push(format!("{label} {}", found.join(", ")));
        }
    }
    let next = items
        .iter()
        .find(|i| i.kind == Kind::NextAction)
        .map(|i| i.text.split_whitespace().collect::<Vec<_>>().join(" "));
    if parts.is_empty() && next.is_none() {
        return None;
    }
    let mut text = String::from(
        "resume-tui: in the summary, keep these identifiers verbatim with what each stands for",
    );
    if !parts.is_empty() {
        text.push_str(": ");
        text.push_str(&parts.join("; "));
    }
    text.push('.');
    if let Some(next) = next {
        text.push_str(" Keep the next action: ");
        text.push_str(&next);
    }
    Some(cut(&text, MAX_STEER_CHARS))
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
