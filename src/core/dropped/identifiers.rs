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

/// Every code id in a summary, separators optional. A code id starts with an
/// ASCII letter, always a character's first byte: only those are tried.
pub fn codes_in(text: &str) -> HashSet<CodeId> {
    let bytes = text.as_bytes();
    let mut found = HashSet::new();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte.is_ascii_alphabetic() && starts_word(text, at) {
            let rest = text.get(at..).unwrap_or_default();
            if let Some((code, used)) = code_at(rest, false) {
                found.insert(code);
                at += used;
                continue;
            }
        }
        // No code id starts inside a word: on to its end.
        at += leading(
            bytes.get(at..).unwrap_or_default(),
            usize::MAX,
            u8::is_ascii_alphanumeric,
        )
        .max(1);
    }
    found
}

/// Whether no letter or digit comes just before byte `at` of `text`.
fn starts_word(text: &str, at: usize) -> bool {
    match at.checked_sub(1).and_then(|i| text.as_bytes().get(i)) {
        None => true,
        Some(b) if b.is_ascii() => !b.is_ascii_alphanumeric(),
        Some(_) => text
            .get(..at)
            .and_then(|before| before.chars().next_back())
            .is_none_or(|c| !c.is_alphanumeric()),
    }
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
/// Tried at every word of a summary: nothing is allocated until one is found.
fn code_at(text: &str, strict: bool) -> Option<(CodeId, usize)> {
    let bytes = text.as_bytes();
    let letters = leading(bytes, 9, u8::is_ascii_alphabetic);
    if letters == 0 || letters > 8 {
        return None;
    }
    let mut used = letters;
    let sep = *bytes.get(used)?;
    let has_sep = matches!(sep, b'-' | b'_' | b' ');
    if has_sep {
        used += 1;
    } else if strict {
        return None;
    }
    let digits = leading(bytes.get(used..).unwrap_or_default(), 7, u8::is_ascii_digit);
    if digits == 0 || digits > 6 {
        return None;
    }
    let word = text.get(..letters)?;
    if strict && sep == b' ' && !word.eq_ignore_ascii_case("phase") {
        return None;
    }
    let number = text.get(used..used + digits)?.parse().ok()?;
    used += digits;
    let ends_word = text
        .get(used..)
        .and_then(|r| r.chars().next())
        .is_none_or(|c| !c.is_alphanumeric());
    ends_word.then(|| ((word.to_ascii_lowercase(), number), used))
}

/// How many of the first `most` bytes of `bytes` are of `class`, in a row.
fn leading(bytes: &[u8], most: usize, class: impl Fn(&u8) -> bool) -> usize {
    bytes.iter().take(most).take_while(|b| class(b)).count()
}

/// Lowercase; every run of characters other than letters, digits and `.` is one
/// space; trimmed. ASCII text, a summary's usual, a byte at a time.
pub fn normalise(text: &str) -> String {
    if !text.is_ascii() {
        return normalise_chars(text);
    }
    let mut out = Vec::with_capacity(text.len());
    let runs = text
        .as_bytes()
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'.'))
        .filter(|run| !run.is_empty());
    for run in runs {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend(run.iter().map(u8::to_ascii_lowercase));
    }
    while out.last() == Some(&b'.') {
        out.pop();
    }
    String::from_utf8(out).unwrap_or_default()
}

fn normalise_chars(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition `code_at` follows, collecting as it goes.
    fn plain_code_at(text: &str, strict: bool) -> Option<(CodeId, usize)> {
        let letters: String = text
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .take(9)
            .collect();
        if letters.is_empty() || letters.len() > 8 {
            return None;
        }
        let mut used = letters.len();
        let sep = text.get(used..)?.chars().next()?;
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
        let phase_only = strict && sep == ' ' && !letters.eq_ignore_ascii_case("phase");
        if phase_only || text[used..].starts_with(char::is_alphanumeric) {
            return None;
        }
        Some(((letters.to_ascii_lowercase(), digits.parse().ok()?), used))
    }

    /// `normalise` as a split: the runs of letters, digits and dots, lowercased,
    /// joined by one space.
    fn plain_normalise(text: &str) -> String {
        let runs: Vec<String> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .filter(|run| !run.is_empty())
            .map(|run| run.chars().flat_map(char::to_lowercase).collect())
            .collect();
        runs.join(" ").trim_end_matches('.').to_string()
    }

    /// `codes_in` trying every character.
    fn plain_codes_in(text: &str) -> HashSet<CodeId> {
        let mut found = HashSet::new();
        let mut skip_to = 0;
        for (at, _) in text.char_indices() {
            if at < skip_to {
                continue;
            }
            let before = text[..at].chars().last();
            if before.is_some_and(char::is_alphanumeric) {
                continue;
            }
            if let Some((code, used)) = plain_code_at(&text[at..], false) {
                found.insert(code);
                skip_to = at + used;
            }
        }
        found
    }

    proptest::proptest! {
        #[test]
        fn code_ids_and_names_are_the_plain_definitions(
            text in "([a-zA-Z]{0,10}[-_ ]?[0-9]{0,8}[ .é,İ-]?){0,6}"
        ) {
            for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
                for strict in [false, true] {
                    proptest::prop_assert_eq!(
                        code_at(&text[at..], strict),
                        plain_code_at(&text[at..], strict),
                        "{:?} at {} strict {}", text, at, strict
                    );
                }
            }
            proptest::prop_assert_eq!(normalise(&text), plain_normalise(&text));
            proptest::prop_assert_eq!(codes_in(&text), plain_codes_in(&text));
        }
    }

    #[test]
    fn code_ids_of_a_summary() {
        let codes =
            codes_in("Fixed RD-004 and qg2, phase 3; not x-1y nor ABCDEFGHI-1 nor DF-1234567.");
        let mut codes: Vec<CodeId> = codes.into_iter().collect();
        codes.sort();
        let expected: Vec<CodeId> = [("phase", 3), ("qg", 2), ("rd", 4)]
            .into_iter()
            .map(|(l, n)| (l.to_string(), n))
            .collect();
        assert_eq!(codes, expected);
    }
}
