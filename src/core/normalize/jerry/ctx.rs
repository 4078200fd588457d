//! Diagnostics collected while normalising one file, located with `core::locate`.

use yaml_serde::Value;

use crate::core::locate::KeyIndex;
use crate::core::model::{Diagnostic, Severity};
pub(super) use crate::core::normalize::value::kind;

pub(super) struct Ctx<'a> {
    pub source: &'a str,
    text: &'a str,
    pub diagnostics: Vec<Diagnostic>,
    /// Built at the first warning: one scan of the text locates them all.
    keys: Option<KeyIndex>,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, text: &'a str) -> Self {
        Self {
            source,
            text,
            diagnostics: Vec::new(),
            keys: None,
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
        let text = self.text;
        let index = self.keys.get_or_insert_with(|| KeyIndex::new(text));
        let found = (1..=keys.len())
            .rev()
            .find_map(|n| keys.get(..n).and_then(|p| index.locate(p)));
        match found {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }
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
}
