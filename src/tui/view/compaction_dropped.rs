//! The Compaction tab's "kept and dropped" of a checkpoint: its items compared
//! with its summary by the rule the `dropped` command and the hook use
//! (`core::dropped`): the one PostCompact recorded, else the transcript's, which
//! the loader attached to the checkpoint (nothing is read while drawing).

use super::wrap::Piece;
use super::wrapped::{Wrapped, lead, words};
use crate::core::dropped::{Origin, Verdict, compare_checkpoint, known};
use crate::core::model::Checkpoint;

/// Where the text of a list entry starts (`  ✗ `).
const ENTRY_W: usize = 4;

pub fn section(out: &mut Wrapped, cp: &Checkpoint) {
    let Some((origin, summary)) = known(cp) else {
        return;
    };
    let comparison = compare_checkpoint(cp, summary);
    if comparison.verdicts.is_empty() {
        return;
    }
    let dropped = comparison.dropped_by_urgency();
    let kept: Vec<&Verdict> = comparison.kept().collect();
    let whose = match origin {
        Origin::Recorded => "the summary",
        Origin::Transcript => "the transcript's summary",
    };
    out.section(&format!(
        "Kept and dropped by {whose} ({} dropped of {})",
        dropped.len(),
        comparison.verdicts.len()
    ));
    let t = &out.model.theme;
    let (bad, good) = (t.unacked, t.acked);
    for v in dropped {
        entry(out, "  ✗ ", bad, v);
    }
    for v in kept {
        entry(out, "  ✓ ", good, v);
    }
}

fn entry(out: &mut Wrapped, glyph: &str, style: ratatui::style::Style, v: &Verdict) {
    let id = v
        .item
        .id
        .as_deref()
        .filter(|id| !v.item.text.contains(id))
        .map(|id| format!(" {id}"))
        .unwrap_or_default();
    let label = format!("{}{id}: ", v.item.kind.label());
    out.hang(
        lead(glyph, style),
        ENTRY_W,
        vec![
            Piece::words(super::clean(&label).into_owned(), out.model.theme.label),
            words(&v.item.text),
        ],
    );
}
