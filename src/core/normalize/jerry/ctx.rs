//! Diagnostics collected while normalising one file, located with `core::locate`.

use yaml_serde::Value;

use crate::core::locate::locate_key;
use crate::core::model::{Diagnostic, Severity};
pub(super) use crate::core::normalize::value::kind;

pub(super) struct Ctx<'a> {
    pub source: &'a str,
    text: &'a str,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    pub fn new(source: &'a str, text: &'a str) -> Self {
        Self {
            source,
            text,
            diagnostics: Vec::new(),
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
        self.diagnostics.push(self.located(diagnostic, &keys));
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

    fn located(&self, diagnostic: Diagnostic, keys: &[&str]) -> Diagnostic {
        match locate_key(self.text, keys).or_else(|| locate_parent(self.text, keys)) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }
}

/// The nearest ancestor key that can be found, for values whose own key cannot.
fn locate_parent(text: &str, keys: &[&str]) -> Option<(usize, usize)> {
    (1..keys.len())
        .rev()
        .find_map(|n| keys.get(..n).and_then(|p| locate_key(text, p)))
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
}
