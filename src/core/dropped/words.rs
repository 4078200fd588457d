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
/// ASCII words, nearly all, without lowercasing the whole word first.
pub fn stem(word: &str) -> String {
    if !word.is_ascii() {
        return plain_stem(word);
    }
    let bytes = word.as_bytes();
    let plural = bytes.len() > 4
        && bytes.last().is_some_and(|b| b.eq_ignore_ascii_case(&b's'))
        && bytes
            .get(bytes.len() - 2)
            .is_some_and(|b| !b.eq_ignore_ascii_case(&b's'));
    let end = (bytes.len() - usize::from(plural)).min(5);
    word.get(..end).unwrap_or_default().to_ascii_lowercase()
}

/// [`stem`] as defined: the whole word lowercased, then cut.
fn plain_stem(word: &str) -> String {
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

/// The stems of every word of a summary (common words included: they cost
/// nothing). A summary has thousands of words: each is looked at where it lies.
pub fn stems_of(text: &str) -> HashSet<String> {
    let mut stems = HashSet::new();
    let mut unquoted = String::new();
    for raw in text.split(|c: char| !c.is_alphabetic() && c != '\'') {
        let word = if raw.contains('\'') {
            unquoted.clear();
            unquoted.extend(raw.chars().filter(|c| *c != '\''));
            unquoted.as_str()
        } else {
            raw
        };
        if word.len() >= 4 && word.chars().nth(3).is_some() {
            stems.insert(stem(word));
        }
    }
    stems
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

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn stems_are_the_plain_definitions(text in "[a-zA-Z'sS éÉßİ.\\-]{0,60}") {
            let plain: HashSet<String> = words(&text).map(|w| plain_stem(&w)).collect();
            proptest::prop_assert_eq!(stems_of(&text), plain);
            for word in text.split(' ') {
                proptest::prop_assert_eq!(stem(word), plain_stem(word));
            }
        }
    }

    #[test]
    fn plurals_and_short_words() {
        let stems: Vec<String> = [
            "Attachments",
            "rounded",
            "class",
            "BUSS",
            "bass",
            "cats",
            "Ärger's",
        ]
        .iter()
        .map(|w| stem(w))
        .collect();
        assert_eq!(
            stems,
            ["attac", "round", "class", "buss", "bass", "cats", "ärger"]
        );
    }
}
