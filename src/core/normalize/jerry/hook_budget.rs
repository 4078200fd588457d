//! What a hook reads of one state file is bounded. Past [`HOOK_VALUES`] values
//! in the entries it reads (the hooks' cut of the file, each alias counted as
//! the copy it makes), the hooks leave the file unread, with an error naming the
//! longest list or map at its line; the dashboard and `validate` read it whole.
//! Issue 33: 100,000 entries of `files_to_read` or `phases` (or as many aliases
//! there) took every hook that reads the file 120–320 ms; the largest real
//! workflow file holds a few thousand values in all.

use yaml_serde::Value;

use super::kept::{kept_values, visit_kept, want_at};
use super::prune::{Cut, Want};
use crate::core::locate::locate_key;
use crate::core::model::Diagnostic;
use crate::core::normalize::value::key_text;

/// The most values a hook reads of one state file (keys included)...
pub const HOOK_VALUES: usize = 60_000;

/// ... and the most lists and maps among them (the normaliser's work is per
/// entry more than per value: 140,000 phases `{}` cost more than 2,500
/// decisions of twelve values each).
pub const HOOK_COLLECTIONS: usize = 15_000;

/// The most values a hook parses of one file, aliases' copies included: what
/// the cut keeps to hold its entries together (an anchored entry whole, the
/// first key of a list item) is parsed, though not read.
pub const PARSE_VALUES: usize = 200_000;

/// The most a hook parses with `yaml_serde` (which reads what the fast reader
/// does not: a tag, a tab outside quotes, a lone carriage return, …), and the
/// largest file it parses whole when its cut cannot be used (a key the cut
/// cannot read, an alias whose anchor was cut away) or to find a phase stated
/// nowhere else.
pub const WHOLE_BYTES: usize = 128 * 1024;

/// The error for a file past [`WHOLE_BYTES`] that a hook would have to parse
/// whole, or with `yaml_serde`.
pub(super) fn too_large_to_read_whole(source: &str, text: &str) -> Diagnostic {
    Diagnostic::error(
        source,
        format!(
            "at {} KB this file is larger than the {} KB a hook reads with its slower YAML \
             reader, which this file needs (a tag, a tab outside quotes or after a colon, a \
             carriage return alone, a key written `a : 1` or quoted with escapes, an alias \
             whose anchor lies outside what the hooks read, …); the hooks leave the file \
             unread (the dashboard and `resume-tui validate` read it whole)",
            text.len() / 1024,
            WHOLE_BYTES / 1024
        ),
    )
}

/// The error for a document past the budget; `shape` is the document, or its
/// shape with every alias a stand-in.
pub(super) fn refusal(source: &str, text: &str, shape: &Value) -> Diagnostic {
    let (path, entries) = longest(shape);
    let named = if path.is_empty() {
        "the file".to_string()
    } else {
        format!("{} ({entries} entries)", path.join("."))
    };
    let message = format!(
        "{named}: what the hooks read of this file is more than a hook reads within its \
         time budget ({HOOK_VALUES} values, {HOOK_COLLECTIONS} of them lists or maps, \
         {PARSE_VALUES} parsed; an alias counts as its copy); the hooks leave the file unread \
         (the dashboard and `resume-tui validate` read it whole)"
    );
    let keys: Vec<&str> = path.iter().map(String::as_str).collect();
    let diagnostic = Diagnostic::error(source, message);
    match locate_key(text, &keys) {
        Some((line, column)) => diagnostic.at(line, column),
        None => diagnostic,
    }
}

/// Whether the entries of `doc` the hooks read hold more than [`HOOK_VALUES`]
/// values or [`HOOK_COLLECTIONS`] lists and maps (counted no further).
pub(super) fn past_budget(doc: &Value) -> bool {
    let (mut values, mut collections) = (0, 0);
    let mut within = true;
    visit_kept(doc, Cut::Hooks, &mut Vec::new(), None, &mut |value| {
        values += 1;
        collections += usize::from(value.is_mapping() || value.is_sequence());
        within = values <= HOOK_VALUES && collections <= HOOK_COLLECTIONS;
        within
    });
    !within
}

/// The keys down to the map or list that holds most of what the hooks read,
/// no one entry of it holding most, and how many entries it has. Each entry
/// is counted up to the budget only, so that this costs what a read within it
/// would.
fn longest(doc: &Value) -> (Vec<String>, usize) {
    let count = |value: &Value, path: &mut Vec<Option<String>>, inherited| {
        kept_values(value, Cut::Hooks, path, inherited, HOOK_VALUES)
    };
    let mut path: Vec<Option<String>> = Vec::new();
    let mut node = doc;
    let mut inherited = None;
    while let Value::Mapping(map) = node {
        let here = count(node, &mut path, inherited);
        let mut biggest: Option<(usize, &Value, Want)> = None;
        for (k, v) in map {
            path.push(Some(key_text(k)));
            let want = inherited.unwrap_or_else(|| want_at(&path, Cut::Hooks));
            let n = count(v, &mut path, Some(want));
            path.pop();
            if want != Want::Drop && biggest.is_none_or(|(most, ..)| n > most) {
                biggest = Some((n, v, want));
            }
        }
        match biggest {
            Some((n, v, want)) if n * 2 > here => {
                let key = map
                    .iter()
                    .find(|(_, value)| std::ptr::eq(*value, v))
                    .map(|(k, _)| key_text(k));
                path.push(key);
                node = v;
                inherited = (want == Want::Whole).then_some(Want::Whole);
            }
            _ => break,
        }
    }
    let entries = match node {
        Value::Sequence(items) => items.len(),
        Value::Mapping(map) => map.len(),
        _ => 1,
    };
    (path.into_iter().flatten().collect(), entries)
}

#[cfg(test)]
#[path = "hook_budget_tests.rs"]
mod tests;
