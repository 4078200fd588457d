//! What a compaction dropped: each item of the state before compaction (a
//! checkpoint) compared with the summary that replaced the conversation.
//!
//! The rule (docs/compaction.md):
//! - an item with an identifier of its own (a decision's `RD-NNN`, the gate, the
//!   phase `phase N`, a file's name, an agent's name) is kept when that
//!   identifier appears in the summary;
//! - an item without one is kept when every identifier written in its text
//!   (`DF-211`, `retries.mdx`) appears;
//! - an item with no identifier at all is kept when at least half of its
//!   distinctive words appear (`words`).

mod identifiers;
mod items;
pub mod report;
mod section;
mod steer;
pub mod summary;
mod words;

use serde::Serialize;

pub use identifiers::{Identifier, file_name};
pub use items::{Item, Kind, items_of, own_next_action, unfinished};
pub use section::{SectionInput, TITLE, render_section};
pub use steer::{MAX_STEER_CHARS, steer_text};
pub use summary::{
    CompactSummary, Origin, after_checkpoint, choose, known, recorded, seen_by_model,
};

use identifiers::{CodeId, codes_in, has_name, normalise, required_in};
use std::cell::OnceCell;
use std::collections::HashSet;

/// A summary prepared for lookups, each index built the first time an item
/// needs it: a summary is tens of kilobytes, and most checkpoints' items are
/// found by names and code ids alone.
pub struct Summary<'a> {
    text: &'a str,
    codes: OnceCell<HashSet<CodeId>>,
    names: OnceCell<String>,
    stems: OnceCell<HashSet<String>>,
}

impl<'a> Summary<'a> {
    pub fn new(text: &'a str) -> Summary<'a> {
        Summary {
            text,
            codes: OnceCell::new(),
            names: OnceCell::new(),
            stems: OnceCell::new(),
        }
    }

    fn codes(&self) -> &HashSet<CodeId> {
        self.codes.get_or_init(|| codes_in(self.text))
    }

    fn names(&self) -> &str {
        self.names.get_or_init(|| normalise(self.text))
    }

    fn stems(&self) -> &HashSet<String> {
        self.stems.get_or_init(|| words::stems_of(self.text))
    }

    fn has(&self, id: &Identifier) -> bool {
        match id {
            Identifier::Code(code) => self.codes().contains(code),
            Identifier::Name(name) => has_name(self.names(), name),
        }
    }
}

/// One item and what the summary did with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    #[serde(flatten)]
    pub item: Item,
    #[serde(skip)]
    pub kept: bool,
    /// Why, in words: `RD-002 appears`, `2 of 6 distinctive words appear (3 needed)`.
    #[serde(skip)]
    pub reason: String,
}

/// Every item of a checkpoint, kept or dropped, in item order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    pub verdicts: Vec<Verdict>,
}

impl Comparison {
    pub fn kept(&self) -> impl Iterator<Item = &Verdict> {
        self.verdicts.iter().filter(|v| v.kept)
    }

    pub fn dropped(&self) -> impl Iterator<Item = &Verdict> {
        self.verdicts.iter().filter(|v| !v.kept)
    }

    /// The dropped items, pending decisions first, then defects and blockers,
    /// then the rest in item order.
    pub fn dropped_by_urgency(&self) -> Vec<&Verdict> {
        let mut dropped: Vec<&Verdict> = self.dropped().collect();
        dropped.sort_by_key(|v| v.item.kind.urgency());
        dropped
    }
}

/// Compares `items` with the summary text: the part the model sees
/// (`summary::seen_by_model`).
pub fn compare(items: Vec<Item>, summary: &str) -> Comparison {
    let summary = Summary::new(summary::seen_by_model(summary));
    Comparison {
        verdicts: items
            .into_iter()
            .map(|item| judge(item, &summary))
            .collect(),
    }
}

/// A checkpoint's items compared with the summary text.
pub fn compare_checkpoint(
    checkpoint: &crate::core::model::Checkpoint,
    summary: &str,
) -> Comparison {
    compare(items_of(checkpoint), summary)
}

fn judge(item: Item, summary: &Summary) -> Verdict {
    let own = item.id.as_deref().and_then(Identifier::of);
    let required = match own {
        Some(id) => vec![(id, item.id.clone().unwrap_or_default())],
        None => required_in(&item.text),
    };
    let (kept, reason) = if required.is_empty() {
        by_words(&item.text, summary)
    } else {
        by_identifiers(&required, summary)
    };
    Verdict { item, kept, reason }
}

fn by_identifiers(required: &[(Identifier, String)], summary: &Summary) -> (bool, String) {
    let missing: Vec<&str> = required
        .iter()
        .filter(|(id, _)| !summary.has(id))
        .map(|(_, shown)| shown.as_str())
        .collect();
    if missing.is_empty() {
        let all: Vec<&str> = required.iter().map(|(_, s)| s.as_str()).collect();
        (
            true,
            format!(
                "{} {}",
                all.join(", "),
                verb(all.len(), "appears", "appear")
            ),
        )
    } else {
        let verb = verb(missing.len(), "does not appear", "do not appear");
        (false, format!("{} {verb}", missing.join(", ")))
    }
}

fn verb(count: usize, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

fn by_words(text: &str, summary: &Summary) -> (bool, String) {
    let wanted = words::distinctive(text);
    if wanted.is_empty() {
        let phrase = normalise(text);
        let kept = has_name(summary.names(), &phrase);
        let how = if kept { "appears" } else { "does not appear" };
        return (kept, format!("no distinctive words; the text {how} whole"));
    }
    let found = wanted
        .iter()
        .filter(|w| summary.stems().contains(*w))
        .count();
    let need = words::needed(wanted.len());
    (
        found >= need,
        format!(
            "{found} of {} distinctive words appear ({need} needed)",
            wanted.len()
        ),
    )
}

#[cfg(test)]
mod tests;
