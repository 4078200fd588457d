//! Identifiers: code-style ids (`RD-001`, `DF-211`, `QG-2`, `phase 2`) and names
//! (`iteration-2-findings.md`, `replay-tester`), found in an item's text and looked
//! up in a summary.
//!
//! A code id is a run of 1–8 letters, a separator (`-`, `_` or one space; none in
//! a summary: `QG2`) and 1–6 digits, compared case-blind and by number
//! (`RD-001` = `rd-1`). A name is compared case-blind with `-`, `_`, `/` and
//! spaces as one separator, and must stand as a whole word.

use std::collections::HashSet;

/// `(letters, number)` of a code id, letters lowercased.
pub type CodeId = (String, u64);

/// An identifier an item requires the summary to contain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    Code(CodeId),
    Name(String),
}

impl Identifier {
    /// `RD-002`, `qg-2`, `phase 2` as a code id; anything else as a name.
    pub fn of(text: &str) -> Option<Identifier> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Some((code, used)) = code_at(text, true)
            && used == text.len()
        {
            return Some(Identifier::Code(code));
        }
        let name = normalise(text);
        (!name.is_empty()).then_some(Identifier::Name(name))
    }
}

/// Every code id in a summary, separators optional.
pub fn codes_in(text: &str) -> HashSet<CodeId> {
    let mut found = HashSet::new();
    let mut at = 0;
    while at < text.len() {
        let starts_word = text
            .get(..at)
            .and_then(|before| before.chars().next_back())
            .is_none_or(|c| !c.is_alphanumeric());
        let rest = text.get(at..).unwrap_or_default();
        if starts_word && let Some((code, used)) = code_at(rest, false) {
            found.insert(code);
            at += used;
            continue;
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// The code ids and file names written in an item's free text (`DF-211`,
/// `retries.mdx`), each with its spelling there: separators are required here,
/// so `v2` or `0.91` are none.
pub fn required_in(text: &str) -> Vec<(Identifier, String)> {
    let mut ids = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || "()[]{},;:\"'`<>".contains(c)) {
        let token = token.trim_end_matches(['.', '!', '?']);
        if let Some(name) = file_name(token) {
            push_new(&mut ids, Identifier::Name(normalise(name)), name);
            continue;
        }
        let mut at = 0;
        while at < token.len() {
            let rest = token.get(at..).unwrap_or_default();
            let starts_word = token
                .get(..at)
                .and_then(|b| b.chars().next_back())
                .is_none_or(|c| !c.is_ascii_alphanumeric());
            if starts_word && let Some((code, used)) = code_at(rest, true) {
                push_new(
                    &mut ids,
                    Identifier::Code(code),
                    rest.get(..used).unwrap_or(rest),
                );
                at += used;
                continue;
            }
            at += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    ids
}

fn push_new(ids: &mut Vec<(Identifier, String)>, id: Identifier, written: &str) {
    if !ids.iter().any(|(known, _)| *known == id) {
        ids.push((id, written.to_string()));
    }
}

/// The last path component of a token that names a file: a stem of two or more
/// characters with a letter, a dot, and an extension of 1–5 letters or digits
/// with a letter (`ORCHESTRATION.yaml`, `webhooks/retries.mdx`; not `0.91`, `e.g`).
pub fn file_name(token: &str) -> Option<&str> {
    let name = token.rsplit(['/', '\\']).next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let stem_ok = stem.chars().count() >= 2
        && stem.chars().any(char::is_alphabetic)
        && stem
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.".contains(c));
    let ext_ok = (1..=5).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && ext.chars().any(|c| c.is_ascii_alphabetic());
    (stem_ok && ext_ok).then_some(name)
}

/// A code id at the start of `text` and the bytes it takes. `strict` wants a
/// `-`/`_` separator (item text); otherwise a space or nothing also does (summary).
fn code_at(text: &str, strict: bool) -> Option<(CodeId, usize)> {
    let letters: String = text
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .take(9)
        .collect();
    if letters.is_empty() || letters.len() > 8 {
        return None;
    }
    let mut used = letters.len();
    let after = text.get(used..)?;
    let sep = after.chars().next()?;
    let has_sep = sep == '-' || sep == '_' || sep == ' ';
    if has_sep {
        used += 1;
    } else if strict {
        return None;
    }
    let digits: String = text
        .get(used..)?
        .chars()
        .take_while(char::is_ascii_digit)
        .take(7)
        .collect();
    if digits.is_empty() || digits.len() > 6 {
        return None;
    }
    used += digits.len();
    if strict && sep == ' ' && !letters.eq_ignore_ascii_case("phase") {
        return None;
    }
    let ends_word = text
        .get(used..)
        .and_then(|r| r.chars().next())
        .is_none_or(|c| !c.is_alphanumeric());
    if !ends_word {
        return None;
    }
    let number = digits.parse().ok()?;
    Some(((letters.to_ascii_lowercase(), number), used))
}

/// Lowercase; every run of characters other than letters, digits and `.` is one
/// space; trimmed.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '.' {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out.trim_end_matches('.').to_string()
}

/// Whether `name` (normalised) stands as whole words in `haystack` (normalised).
pub fn has_name(haystack: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(at) = haystack.get(from..).and_then(|h| h.find(name)) {
        let start = from + at;
        let end = start + name.len();
        let before_ok = haystack
            .get(..start)
            .and_then(|b| b.chars().next_back())
            .is_none_or(|c| c == ' ');
        let after_ok = haystack
            .get(end..)
            .and_then(|a| a.chars().next())
            .is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            return true;
        }
        from = start + name.chars().next().map_or(1, char::len_utf8);
    }
    false
}
