//! Distinctive words: what an item without an identifier is recognised by.
//!
//! A word is a run of letters (apostrophes dropped) of four or more, not in
//! [`COMMON`]; words are compared by their first five letters after a plural `s`
//! is dropped, so `attached`/`attachment` and `rounding`/`rounded` meet. An item is
//! kept when at least half of its distinctive words (rounded up) are in the
//! summary.

use std::collections::HashSet;

/// Words too common in workflow prose to tell one item from another.
const COMMON: &[&str] = &[
    "about", "after", "again", "also", "been", "before", "being", "between", "both", "but", "does",
    "done", "each", "every", "from", "have", "into", "just", "last", "made", "make", "more",
    "most", "must", "need", "needs", "next", "none", "only", "other", "over", "same", "should",
    "some", "still", "such", "than", "that", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "under", "until", "very", "was", "were", "what", "when", "where",
    "which", "while", "will", "with", "within", "without", "would", "your", "work", "phase",
    "continue", "read", "section", "file", "files", "step", "first", "current", "pending", "note",
];

/// The comparable form of a word: lowercase, plural `s` dropped, five letters.
pub fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    let base = if lower.len() > 4 && lower.ends_with('s') && !lower.ends_with("ss") {
        lower.get(..lower.len() - 1).unwrap_or(&lower)
    } else {
        lower.as_str()
    };
    base.chars().take(5).collect()
}

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphabetic() && c != '\'')
        .map(|w| w.replace('\'', ""))
        .filter(|w| w.chars().count() >= 4)
}

/// The stems of every word of a summary (common words included: they cost nothing).
pub fn stems_of(text: &str) -> HashSet<String> {
    words(text).map(|w| stem(&w)).collect()
}

/// The distinctive stems of an item's text, in order, each once.
pub fn distinctive(text: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for word in words(text) {
        if COMMON.contains(&word.to_lowercase().as_str()) {
            continue;
        }
        let stem = stem(&word);
        if !seen.contains(&stem) {
            seen.push(stem);
        }
    }
    seen
}

/// How many of `wanted` must appear for the item to count as kept.
pub fn needed(wanted: usize) -> usize {
    wanted.div_ceil(2)
}
