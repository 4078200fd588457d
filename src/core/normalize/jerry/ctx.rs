//! Diagnostics collected while normalising one file, located with `core::locate`.

use std::collections::HashMap;

use yaml_serde::Value;

use crate::core::locate::KeyIndex;
use crate::core::model::{Diagnostic, OtherFields, Severity};
pub(super) use crate::core::normalize::value::kind;
use crate::core::normalize::value::{other_fields, to_json};

pub(super) struct Ctx<'a> {
    pub source: &'a str,
    text: &'a str,
    pub diagnostics: Vec<Diagnostic>,
    /// Built at the first warning: one scan of the text locates them all.
    keys: Option<KeyIndex>,
    notes: NoteCap,
    reading: Reading,
}

/// What the model keeps beyond what every reader of it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    /// Everything: warnings and notes placed at their line and column, and the
    /// values of unknown or unreadable keys kept as other fields (`validate`,
    /// `show`, the dashboard).
    #[default]
    Full,
    /// What the hooks use, which show neither: warnings and notes unplaced
    /// (placing them indexes every key of the file), and no other fields
    /// (keeping them copies every unknown key's value; a tenth of a second
    /// each for a megabyte of keys).
    ForHooks,
    /// [`Reading::ForHooks`], for the one file a hook reads first: the hook
    /// exits soon after, so the document's memory is left to the process's end
    /// (giving it back value by value took a fifth of a 1 MB file of 100,000
    /// aliases' hook). One file per process, so memory stays bounded.
    ForOneHook,
}

impl Reading {
    /// Whether a hook reads (what it shows is the same either way).
    pub fn for_hooks(self) -> bool {
        matches!(self, Reading::ForHooks | Reading::ForOneHook)
    }
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, text: &'a str) -> Self {
        Self {
            source,
            text,
            diagnostics: Vec::new(),
            keys: None,
            notes: NoteCap::default(),
            reading: Reading::Full,
        }
    }

    pub fn with_reading(mut self, reading: Reading) -> Self {
        self.reading = reading;
        self
    }

    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// Keeps `value` under `key` among `other` fields (not for the hooks).
    pub fn keep(&self, other: &mut OtherFields, key: String, value: &Value) {
        if self.reading == Reading::Full {
            other.insert(key, to_json(value));
        }
    }

    /// The entries of `map` whose keys are not `known`, as other fields (none
    /// for the hooks).
    pub fn other_fields(&self, map: &Value, known: &[&str]) -> OtherFields {
        match self.reading {
            Reading::Full => other_fields(map, known),
            Reading::ForHooks | Reading::ForOneHook => OtherFields::new(),
        }
    }

    /// A warning about the value at `path`; the message is prefixed with the dotted path.
    pub fn warn(&mut self, path: &[&str], message: impl AsRef<str>) {
        self.push(Severity::Warning, path, message.as_ref());
    }

    pub fn info(&mut self, path: &[&str], message: impl AsRef<str>) {
        self.push(Severity::Info, path, message.as_ref());
    }

    /// Warns that the value at `path` is not of the expected type and is kept as an
    /// "other field" instead.
    pub fn wrong_type(&mut self, path: &[&str], expected: &str, found: &Value) {
        self.warn(
            path,
            format!(
                "expected {expected}, found {}; kept under other fields",
                kind(found)
            ),
        );
    }

    /// A warning with `message` as written, at an explicit location.
    pub fn push_at(&mut self, message: String, line: usize, column: usize) {
        self.diagnostics
            .push(Diagnostic::warning(self.source, message).at(line, column));
    }

    /// A warning with `message` as written, located at the dotted `path`
    /// (`a.b[2].c`; list indices are ignored when locating).
    pub fn warn_text(&mut self, path: &str, message: String) {
        let keys: Vec<&str> = path
            .split('.')
            .map(|k| k.split('[').next().unwrap_or(k))
            .collect();
        let diagnostic = Diagnostic::warning(self.source, message);
        let located = self.located(diagnostic, &keys);
        self.diagnostics.push(located);
    }

    fn push(&mut self, severity: Severity, path: &[&str], message: &str) {
        if severity == Severity::Info {
            let (text, keys) = (self.text, &mut self.keys);
            let skipped = self.reading.for_hooks();
            let listed = self.notes.admit(
                path,
                message,
                &mut self.diagnostics,
                self.source,
                |parent: &[&str]| {
                    if skipped {
                        return None;
                    }
                    let parent: Vec<&str> = parent
                        .iter()
                        .copied()
                        .filter(|p| !p.starts_with('['))
                        .collect();
                    locate(keys, text, &parent)
                },
            );
            if !listed {
                return;
            }
        }
        let text = format!("{}: {message}", dotted(path));
        let diagnostic = match severity {
            Severity::Warning => Diagnostic::warning(self.source, text),
            Severity::Info => Diagnostic::info(self.source, text),
            Severity::Error => Diagnostic::error(self.source, text),
        };
        let keys: Vec<&str> = path
            .iter()
            .copied()
            .filter(|p| !p.starts_with('['))
            .collect();
        let located = self.located(diagnostic, &keys);
        self.diagnostics.push(located);
    }

    /// Located at the key of `keys`, or else at its nearest ancestor that can be
    /// found.
    fn located(&mut self, diagnostic: Diagnostic, keys: &[&str]) -> Diagnostic {
        if self.reading.for_hooks() {
            return diagnostic;
        }
        match locate(&mut self.keys, self.text, keys) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }
}

/// The line and column of the key at `keys`, or else of its nearest ancestor
/// that can be found; the index is built at the first call.
fn locate(index: &mut Option<KeyIndex>, text: &str, keys: &[&str]) -> Option<(usize, usize)> {
    let index = index.get_or_insert_with(|| KeyIndex::new(text));
    (1..=keys.len())
        .rev()
        .find_map(|n| keys.get(..n).and_then(|p| index.locate(p)))
}

/// Notes of one kind listed one by one; past this many, one note counts the rest.
pub(super) const NOTES_OF_A_KIND: usize = 100;

/// Caps notes of a kind: thousands of entries with the same unknown key made as
/// many notes, each located (a tenth of a second per hook on a 1 MB file, and a
/// `validate` listing nobody reads). A kind is the notes about the children of one
/// place (list indices ignored) whose messages agree up to their first `: `,
/// with backquoted names and digits left out: `files_to_read[3]: keys not shown: x3`
/// and `files_to_read[4]: keys not shown: y` are one kind.
#[derive(Default)]
pub(super) struct NoteCap {
    /// kind → notes seen, the first one's message, and where in the diagnostics
    /// the note counting those past the cap is.
    kinds: HashMap<String, (usize, String, Option<usize>)>,
}

impl NoteCap {
    /// Whether the note at `path` (list indices as `[N]`) is to be listed. If it
    /// is not, the note counting its kind in `out` says one more (and is added,
    /// located by `locate` at the parent of `path`, the first time).
    pub fn admit(
        &mut self,
        path: &[&str],
        message: &str,
        out: &mut Vec<Diagnostic>,
        source: &str,
        locate: impl FnOnce(&[&str]) -> Option<(usize, usize)>,
    ) -> bool {
        let parent = path.split_last().map_or(&[][..], |(_, parent)| parent);
        let kind = kind_of(parent, message);
        let (seen, first, at) = self
            .kinds
            .entry(kind)
            .or_insert_with(|| (0, format!("{}: {message}", dotted(path)), None));
        *seen += 1;
        let Some(more) = seen.checked_sub(NOTES_OF_A_KIND).filter(|m| *m > 0) else {
            return true;
        };
        let any_index: Vec<&str> = parent
            .iter()
            .map(|p| if p.starts_with('[') { "[*]" } else { p })
            .collect();
        let text = format!(
            "{}: {more} more notes like \"{first}\" past the first {NOTES_OF_A_KIND}, counted here, not listed one by one",
            dotted(&any_index)
        );
        match at.and_then(|i| out.get_mut(i)) {
            Some(summary) => summary.message = text,
            None => {
                let note = Diagnostic::info(source, text);
                let note = match locate(parent) {
                    Some((line, column)) => note.at(line, column),
                    None => note,
                };
                *at = Some(out.len());
                out.push(note);
            }
        }
        false
    }
}

/// `parent` with list indices erased, and `message` up to its first `: ` without
/// backquoted names or digits.
fn kind_of(parent: &[&str], message: &str) -> String {
    let mut kind = String::new();
    for part in parent {
        kind.push_str(if part.starts_with('[') { "[]" } else { part });
        kind.push('.');
    }
    kind.push('|');
    let head = message.split(": ").next().unwrap_or(message);
    let mut quoted = false;
    for c in head.chars() {
        if c == '`' {
            quoted = !quoted;
        } else if !quoted && !c.is_ascii_digit() {
            kind.push(c);
        }
    }
    kind
}

/// `["resumption", "files_to_read", "[2]"]` → `resumption.files_to_read[2]`.
pub(super) fn dotted(path: &[&str]) -> String {
    let mut out = String::new();
    for part in path {
        if !out.is_empty() && !part.starts_with('[') {
            out.push('.');
        }
        out.push_str(part);
    }
    out
}

/// `path` followed by `key` (or by an index segment such as `[2]`).
pub(super) fn child<'p>(path: &[&'p str], key: &'p str) -> Vec<&'p str> {
    let mut p = path.to_vec();
    p.push(key);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_dotted_and_indices_bracketed() {
        assert_eq!(
            dotted(&["resumption", "files_to_read", "[2]", "path"]),
            "resumption.files_to_read[2].path"
        );
    }

    #[test]
    fn warnings_carry_the_key_location_or_the_nearest_parent() {
        let text = "resumption:\n  files_to_read: {a: 1}\n";
        let mut ctx = Ctx::new("x/ORCHESTRATION.yaml", text);
        ctx.warn(&["resumption", "files_to_read", "[0]"], "bad");
        ctx.warn(&["resumption", "missing"], "absent");
        let first = ctx.diagnostics.first().unwrap();
        assert_eq!((first.line, first.column), (Some(2), Some(3)));
        assert_eq!(first.message, "resumption.files_to_read[0]: bad");
        let second = ctx.diagnostics.get(1).unwrap();
        assert_eq!((second.line, second.column), (Some(1), Some(1)));
    }

    /// Issue 33: each warning used to scan the text from the top to find its key
    /// (25,000 warnings after half a megabyte: seconds per hook). The text is
    /// scanned once, however many warnings there are, and each is still located.
    #[test]
    fn many_warnings_scan_the_text_once() {
        use crate::core::locate::SCANS;
        let mut text = String::from("resumption:\n  files_to_read:\n");
        for i in 0..1_000 {
            text.push_str(&format!("    - {{path: f{i}, x{i}: 1}}\n"));
        }
        text.push_str("  missing_here: 1\n");
        let mut ctx = Ctx::new("x/ORCHESTRATION.yaml", &text);
        let before = SCANS.with(|n| n.get());
        for i in 0..1_000 {
            let key = format!("x{i}");
            ctx.warn(&["resumption", "files_to_read", "[0]", &key], "unknown");
            ctx.warn(&["resumption", "nothing", &key], "absent");
        }
        assert_eq!(SCANS.with(|n| n.get()) - before, 1);
        let at = |n: usize| {
            let d = ctx.diagnostics.get(n).unwrap();
            (d.line, d.column)
        };
        assert_eq!(at(0), (Some(3), Some(18)), "x0 in the first item");
        assert_eq!(at(2 * 999), (Some(1002), Some(20)), "x999 in the last");
        assert_eq!(at(1), (Some(1), Some(1)), "an absent key at its parent");
    }

    /// Thousands of notes of one kind: the first hundred are listed and located,
    /// the rest counted, exactly, in one note at their parent.
    #[test]
    fn notes_of_one_kind_past_a_hundred_are_counted_in_one() {
        let mut text = String::from("resumption:\n  files_to_read:\n");
        for i in 0..1_000 {
            text.push_str(&format!("    - {{path: f{i}, x{i}: 1}}\n"));
        }
        let mut ctx = Ctx::new("x/ORCHESTRATION.yaml", &text);
        for i in 0..1_000 {
            let index = format!("[{i}]");
            let path = ["resumption", "files_to_read", index.as_str()];
            ctx.info(&path, format!("keys not shown: x{i}"));
            ctx.info(
                &["resumption", "files_to_read", &index, "path"],
                "`f` is odd",
            );
        }
        ctx.warn(&["resumption", "files_to_read", "[5]"], "a warning");
        let listed = |part: &str| {
            let d = &ctx.diagnostics;
            d.iter().filter(|d| d.message.contains(part)).count()
        };
        assert_eq!(listed("keys not shown: x"), NOTES_OF_A_KIND + 1);
        assert_eq!(listed("is odd"), NOTES_OF_A_KIND + 1);
        assert_eq!(listed("a warning"), 1, "warnings are not capped");
        let count = ctx
            .diagnostics
            .iter()
            .find(|d| d.message.contains("more notes like") && d.message.contains("keys not shown"))
            .unwrap();
        assert_eq!(
            count.message,
            "resumption.files_to_read: 900 more notes like \"resumption.files_to_read[0]: keys not shown: x0\" \
             past the first 100, counted here, not listed one by one"
        );
        assert_eq!((count.line, count.column), (Some(2), Some(3)));
        assert!(
            ctx.diagnostics
                .iter()
                .any(|d| d.message == "resumption.files_to_read[99]: keys not shown: x99")
        );
        assert_eq!(listed("keys not shown: x100"), 0);
    }

    #[test]
    fn a_kind_is_its_parent_and_the_start_of_its_message() {
        assert_eq!(
            kind_of(&["a", "[3]"], "unknown field `x12` (kept): more"),
            kind_of(&["a", "[40]"], "unknown field `y` (kept): other")
        );
        assert_ne!(
            kind_of(&["a"], "keys not shown: x"),
            kind_of(&["b"], "keys not shown: x")
        );
        assert_ne!(
            kind_of(&["a"], "keys not shown: x"),
            kind_of(&["a"], "other: x")
        );
    }
}
